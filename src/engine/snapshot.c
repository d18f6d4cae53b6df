/* snapshot.c - the one door between threads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/clock.h"
#include "engine/snapshot.h"

int snapshot_init(struct ws_snapshot *s)
{
	pthread_condattr_t attr;
	int ret;

	memset(s, 0, sizeof(*s));
	s->marks = calloc(WS_MARK_RING, sizeof(*s->marks));
	if (!s->marks)
		return -ENOMEM;
	ret = pthread_mutex_init(&s->lock, NULL);
	if (ret)
		goto out_marks;
	ret = pthread_mutex_init(&s->steer_lock, NULL);
	if (ret)
		goto out_mutex;
	ret = pthread_condattr_init(&attr);
	if (ret)
		goto out_steer;
	/* deadlines are CLOCK_MONOTONIC, like every time in writestress */
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&s->changed, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		goto out_steer;
	return 0;

out_steer:
	pthread_mutex_destroy(&s->steer_lock);
out_mutex:
	pthread_mutex_destroy(&s->lock);
out_marks:
	free(s->marks);
	s->marks = NULL;
	return -ret;
}

void snapshot_destroy(struct ws_snapshot *s)
{
	pthread_cond_destroy(&s->changed);
	pthread_mutex_destroy(&s->steer_lock);
	pthread_mutex_destroy(&s->lock);
	free(s->marks);
	s->marks = NULL;
}

void snapshot_start(struct ws_snapshot *s, uint64_t now_ns)
{
	atomic_store_explicit(&s->start_ns, now_ns, memory_order_release);
}

void snapshot_add_time(struct ws_snapshot *s, enum ws_timer t, uint64_t ns)
{
	/* single writer: relaxed is enough, readers only want a recent value */
	atomic_fetch_add_explicit(&s->time_ns[t], ns, memory_order_relaxed);
}

void snapshot_add_bytes(struct ws_snapshot *s, uint64_t n, uint64_t next_off)
{
	atomic_fetch_add_explicit(&s->bytes, n, memory_order_relaxed);
	atomic_store_explicit(&s->offset, next_off, memory_order_relaxed);
}

static void mark(struct ws_snapshot *s, uint64_t t_ns, uint64_t bytes,
		 uint64_t pending, bool spaced)
{
	uint64_t head = atomic_load_explicit(&s->mark_head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&s->mark_tail, memory_order_acquire);

	uint64_t spacing = s->mark_spacing_ns > WS_MARK_SPACING_NS ?
			   s->mark_spacing_ns : WS_MARK_SPACING_NS;

	if (spaced && s->last_mark_ns && t_ns - s->last_mark_ns < spacing)
		return;
	if (!spaced && s->last_mark_ns == t_ns)
		return;
	if (head - tail == WS_MARK_RING)
		return;		/* the next mark covers this one */
	s->marks[head % WS_MARK_RING] = (struct ws_mark){ t_ns, bytes, pending };
	atomic_store_explicit(&s->mark_head, head + 1, memory_order_release);
	s->last_mark_ns = t_ns;
}

void snapshot_mark(struct ws_snapshot *s, uint64_t t_ns, uint64_t bytes,
		   uint64_t pending)
{
	mark(s, t_ns, bytes, pending, true);
}

void snapshot_mark_last(struct ws_snapshot *s, uint64_t t_ns, uint64_t bytes,
			uint64_t pending)
{
	mark(s, t_ns, bytes, pending, false);
}

size_t snapshot_take_marks(struct ws_snapshot *s, struct ws_mark *out,
			   size_t max)
{
	uint64_t tail = atomic_load_explicit(&s->mark_tail, memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&s->mark_head, memory_order_acquire);
	size_t n = 0;

	for (; tail != head && n < max; tail++, n++)
		out[n] = s->marks[tail % WS_MARK_RING];
	atomic_store_explicit(&s->mark_tail, tail, memory_order_release);
	return n;
}

void snapshot_finish(struct ws_snapshot *s, const struct ws_outcome *o)
{
	s->outcome = *o;
	pthread_mutex_lock(&s->lock);
	atomic_store_explicit(&s->finished, true, memory_order_release);
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

void snapshot_read(struct ws_snapshot *s, struct ws_sample *out)
{
	out->start_ns = atomic_load_explicit(&s->start_ns, memory_order_acquire);
	out->bytes = atomic_load_explicit(&s->bytes, memory_order_relaxed);
	out->buffers = atomic_load_explicit(&s->buffers, memory_order_relaxed);
	out->offset = atomic_load_explicit(&s->offset, memory_order_relaxed);
	out->wraps = atomic_load_explicit(&s->wraps, memory_order_relaxed);
	for (int t = 0; t < WS_T_NR; t++)
		out->time_ns[t] = atomic_load_explicit(&s->time_ns[t],
						       memory_order_relaxed);
}

bool snapshot_finished(struct ws_snapshot *s)
{
	return atomic_load_explicit(&s->finished, memory_order_acquire);
}

void snapshot_close(struct ws_snapshot *s)
{
	pthread_mutex_lock(&s->lock);
	atomic_store_explicit(&s->closed, true, memory_order_release);
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

bool snapshot_closed(struct ws_snapshot *s)
{
	return atomic_load_explicit(&s->closed, memory_order_acquire);
}

static bool wait_until(struct ws_snapshot *s, uint64_t deadline_ns,
		       bool (*done)(struct ws_snapshot *))
{
	struct timespec ts = ws_timespec(deadline_ns);
	bool ret;

	pthread_mutex_lock(&s->lock);
	while (!(ret = done(s)) &&
	       pthread_cond_timedwait(&s->changed, &s->lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

bool snapshot_wait(struct ws_snapshot *s, uint64_t deadline_ns)
{
	return wait_until(s, deadline_ns, snapshot_closed);
}

bool snapshot_wait_writer(struct ws_snapshot *s, uint64_t deadline_ns)
{
	return wait_until(s, deadline_ns, snapshot_finished);
}

void snapshot_request_stop(struct ws_snapshot *s, enum ws_stop_reason why)
{
	int none = 0;

	atomic_compare_exchange_strong(&s->verdict, &none, (int)why);
}

int probe_door_init(struct ws_probe_door *d)
{
	memset(d, 0, sizeof(*d));
	hist_init(&d->interval);
	return -pthread_mutex_init(&d->lock, NULL);
}

void probe_door_destroy(struct ws_probe_door *d)
{
	pthread_mutex_destroy(&d->lock);
}

void probe_door_begin(struct ws_probe_door *d, uint64_t now_ns)
{
	atomic_store_explicit(&d->inflight_since, now_ns, memory_order_release);
}

void probe_door_end(struct ws_probe_door *d, uint64_t ns, bool stall,
		    bool error)
{
	pthread_mutex_lock(&d->lock);
	if (!error)	/* a failure's time is no latency */
		hist_record(&d->interval, ns);
	d->interval_stalls += stall;
	d->interval_errors += error;
	d->site[0] = '\0';
	atomic_store_explicit(&d->inflight_since, 0, memory_order_release);
	pthread_mutex_unlock(&d->lock);
}

void probe_door_cancel(struct ws_probe_door *d)
{
	pthread_mutex_lock(&d->lock);
	d->site[0] = '\0';
	atomic_store_explicit(&d->inflight_since, 0, memory_order_release);
	pthread_mutex_unlock(&d->lock);
}

void probe_door_set_site(struct ws_probe_door *d, const char *site)
{
	pthread_mutex_lock(&d->lock);
	/* a late sample must not label the next, unrelated operation */
	if (atomic_load_explicit(&d->inflight_since, memory_order_acquire))
		snprintf(d->site, sizeof(d->site), "%s", site);
	pthread_mutex_unlock(&d->lock);
}

void probe_door_take(struct ws_probe_door *d, struct ws_probe_take *out)
{
	pthread_mutex_lock(&d->lock);
	out->hist = d->interval;
	out->stalls = d->interval_stalls;
	out->errors = d->interval_errors;
	out->inflight_since = atomic_load_explicit(&d->inflight_since,
						   memory_order_acquire);
	memcpy(out->site, d->site, sizeof(out->site));
	hist_reset(&d->interval);
	d->interval_stalls = d->interval_errors = 0;
	pthread_mutex_unlock(&d->lock);
}

void snapshot_post_probe(struct ws_snapshot *s, unsigned int slot, uint64_t ns)
{
	struct adapt_obs *o;

	if (slot >= WS_SNAPSHOT_PROBES)
		return;
	o = &s->steer_obs[slot];
	pthread_mutex_lock(&s->steer_lock);
	if (ns > o->worst_ns)
		o->worst_ns = ns;
	o->sum_ns += ns;
	o->n++;
	pthread_mutex_unlock(&s->steer_lock);
	atomic_store_explicit(&s->steer_posted, true, memory_order_release);
}

/* After every write(): a flag spares the lock while no probe ended. */
bool snapshot_take_probes(struct ws_snapshot *s,
			  struct adapt_obs out[WS_SNAPSHOT_PROBES])
{
	if (!atomic_exchange_explicit(&s->steer_posted, false, memory_order_acquire))
		return false;
	pthread_mutex_lock(&s->steer_lock);
	memcpy(out, s->steer_obs, sizeof(s->steer_obs));
	memset(s->steer_obs, 0, sizeof(s->steer_obs));
	pthread_mutex_unlock(&s->steer_lock);
	return true;
}

bool snapshot_stop_requested(struct ws_snapshot *s)
{
	return atomic_load(&s->verdict) != 0;
}

void snapshot_set_mark_spacing(struct ws_snapshot *s, uint64_t ns)
{
	s->mark_spacing_ns = ns;
}

uint64_t snapshot_start_ns(struct ws_snapshot *s)
{
	return atomic_load_explicit(&s->start_ns, memory_order_acquire);
}

const struct ws_outcome *snapshot_outcome(const struct ws_snapshot *s)
{
	return &s->outcome;
}

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)

uint64_t snapshot_settled_ns(struct ws_snapshot *s)
{
	return LOAD(s->adapt.settled_ns);
}

void snapshot_adapt_figures(struct ws_snapshot *s, uint64_t origin_ns,
			    struct ws_adapt_figures *a)
{
	struct ws_adapt_state *st = &s->adapt;
	uint64_t unreachable, met;

	*a = (struct ws_adapt_figures){
		.chunk = LOAD(st->chunk),
		.window = (unsigned int)LOAD(st->window),
		.inflight = LOAD(st->inflight),
		.sojourn_ns = LOAD(st->sojourn_ns),
		.setpoint_ns = LOAD(st->setpoint_ns),
		.settled = LOAD(st->settled_ns) != 0,
		.why = (enum ws_adapt_why)LOAD(st->why),
		.unreachable = LOAD(st->unreachable) != 0,
		.floor_probe = LOAD(st->floor_probe),
		.floor_ns = LOAD(st->floor_ns),
		.steering = LOAD(st->steering),
		.disk_bps = LOAD(st->disk_bps),
		.cap_bps = LOAD(st->cap_bps),
		.headroom_pct = (uint8_t)LOAD(st->headroom_pct),
		.nattempts = (uint8_t)atomic_load_explicit(&st->nattempts,
								 memory_order_acquire),
	};
	for (unsigned int i = 0; i < a->nattempts && i < WS_ADAPT_ATTEMPTS; i++) {
		uint64_t v = LOAD(st->attempt[i]);

		a->attempt[i] = (struct ws_adapt_attempt){
			.headroom_pct = (uint8_t)(v & 0x7f),
			.worst_ns = v >> 8,
			.met = (v >> 7) & 1,
		};
	}
	met = LOAD(st->headroom_met_ns);
	if (met)
		a->headroom_met_ns = met > origin_ns ? met - origin_ns : 1;
	a->at_floor = a->inflight <= ADAPT_CHUNK_MIN;
	unreachable = LOAD(st->unreachable_ns);
	if (unreachable)	/* never 0 once said: 0 is "never" */
		a->unreachable_at_ns = unreachable > origin_ns ? unreachable - origin_ns : 1;
	for (unsigned int i = 0; i < WS_MAX_PROBES; i++)
		if (s->steer_setup[i].steers) {
			a->waits[i] = (double)LOAD(st->waits_milli[i]) / 1000;
			a->idle_ns[i] = s->steer_setup[i].idle_ns;
		}
}
