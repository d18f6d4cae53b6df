/* aggregate.c - several targets as one run. */
#include <string.h>

#include "aggregate.h"
#include "lib/c.h"
#include "recorder/recorder.h"
#include "analysis/series.h"

void aggregate_interval(const struct ws_interval *ts, unsigned int n,
			const bool *own_device, struct ws_interval *iv)
{
	double behind = 2.0;

	iv->dbytes = 0;
	memset(iv->time_ns, 0, sizeof(iv->time_ns));
	iv->have_device = false;
	iv->dev_bytes = iv->dev_inflight = 0;
	iv->dev_mibps = iv->dev_busy_pct = 0;
	iv->progress = -1.0;
	iv->eta_ns = 0;
	for (unsigned int i = 0; i < n; i++) {
		const struct ws_interval *t = &ts[i];

		iv->dbytes += t->dbytes;
		for (int k = 0; k < WS_T_NR; k++)
			iv->time_ns[k] += t->time_ns[k];
		if (t->progress >= 0 && t->progress < behind) {
			behind = t->progress;
			iv->progress = t->progress;
			iv->eta_ns = t->eta_ns;
		}
		if (!t->have_device || !own_device[i])
			continue;
		iv->dev_bytes += t->dev_bytes;
		iv->dev_mibps += t->dev_mibps;
		iv->dev_inflight += t->dev_inflight;
		if (!iv->have_device || t->dev_busy_pct > iv->dev_busy_pct)
			iv->dev_busy_pct = t->dev_busy_pct;
		iv->have_device = true;
	}
	iv->mibps = ws_mibps(iv->dbytes, iv->dt_ns);
	iv->avg_mibps = ws_mibps(iv->bytes, iv->t_ns);
	/* the busiest timer's share of the writers' time, not of one's */
	recorder_busiest(iv);
	if (n && iv->dt_ns) {
		iv->busiest_share = (double)iv->time_ns[iv->busiest] /
				    ((double)iv->dt_ns * n);
		if (iv->busiest_share > 1.0)
			iv->busiest_share = 1.0;
	}
}

/* On its own clock; before the first mark from (0, 0). */
static uint64_t bytes_at(const struct ws_series *s, size_t *at, uint64_t t)
{
	struct ws_point prev = { 0 };

	while (*at < s->n && s->pts[*at].t_ns <= t)
		(*at)++;
	if (*at > 0)
		prev = s->pts[*at - 1];
	if (*at == s->n || prev.t_ns == t)
		return prev.bytes;
	return prev.bytes + (uint64_t)((double)(s->pts[*at].bytes - prev.bytes) *
				       (double)(t - prev.t_ns) /
				       (double)(s->pts[*at].t_ns - prev.t_ns));
}

void aggregate_progress(const struct ws_series *const *ps,
			const uint64_t *offset_ns, unsigned int n,
			struct ws_series *out)
{
	size_t next[WS_MAX_TARGETS] = { 0 }, at[WS_MAX_TARGETS] = { 0 };
	struct ws_point last = { 0 };

	series_init(out);
	for (;;) {
		uint64_t t = UINT64_MAX, bytes = 0;
		struct ws_point p;

		for (unsigned int i = 0; i < n; i++)
			if (next[i] < ps[i]->n && ps[i]->pts[next[i]].t_ns + offset_ns[i] < t)
				t = ps[i]->pts[next[i]].t_ns + offset_ns[i];
		if (t == UINT64_MAX)
			break;
		for (unsigned int i = 0; i < n; i++) {
			while (next[i] < ps[i]->n && ps[i]->pts[next[i]].t_ns + offset_ns[i] <= t)
				next[i]++;
			if (t >= offset_ns[i])
				bytes += bytes_at(ps[i], &at[i], t - offset_ns[i]);
		}
		if (t <= last.t_ns || bytes < last.bytes)
			continue;
		p = (struct ws_point){ .t_ns = t, .dt_ns = t - last.t_ns, .bytes = bytes,
				       .dbytes = bytes - last.bytes };
		p.mibps = ws_mibps(p.dbytes, p.dt_ns);
		series_add(out, &p);
		last = p;
	}
	series_finish(out);
}

/* An error tells more than a signal, a signal more than a bound. */
static int ending_rank(enum ws_stop_reason r)
{
	return r == WS_STOP_ERROR ? 2 : r == WS_STOP_SIGNAL ? 1 : 0;
}

static void add_verify(struct ws_verify *v, const struct ws_verify *t,
		       bool first)
{
	if (first) {
		memset(v, 0, sizeof(*v));
		v->clean = true;
	}
	v->blocks += t->blocks;
	for (int s = 0; s < WS_BLOCK_NR; s++)
		v->count[s] += t->count[s];
	v->stale += t->stale;
	if (!v->err)
		v->err = t->err;
	v->clean = v->clean && t->clean;
}

void aggregate_summary(const struct ws_summary *ts, unsigned int n,
		       uint64_t elapsed_ns, bool direct, struct ws_summary *sum)
{
	uint64_t elapsed_sum = 0;

	sum->elapsed_ns = elapsed_ns;
	sum->verified = n > 0;
	for (unsigned int i = 0; i < n; i++) {
		const struct ws_summary *t = &ts[i];

		sum->bytes += t->bytes;
		sum->buffers += t->buffers;
		sum->wraps += t->wraps;
		elapsed_sum += t->elapsed_ns;
		for (int k = 0; k < WS_T_NR; k++)
			sum->time_ns[k] += t->time_ns[k];
		if (!i || ending_rank(t->ending.reason) > ending_rank(sum->ending.reason))
			sum->ending = t->ending;
		sum->cpu_writer_ns += t->cpu_writer_ns;
		sum->cpu_verify_ns += t->cpu_verify_ns;
		if (t->queue_peak > sum->queue_peak)
			sum->queue_peak = t->queue_peak;
		sum->verified = sum->verified && t->verified;
		if (t->verified)
			add_verify(&sum->verify, &t->verify, !i);
	}
	sum->mibps = ws_mibps(sum->bytes, sum->elapsed_ns);
	sum->writers_ns = elapsed_sum;
	sum->limit = recorder_limit(sum->time_ns, elapsed_sum, direct);
	for (unsigned int i = 0; i < n && ts[i].limit == WS_LIMIT_MEMORY; i++)
		if (i + 1 == n)	/* every target in memory */
			sum->limit = recorder_limit_in_memory(sum->limit);
	sum->ntargets = n;
	sum->targets = ts;
}
