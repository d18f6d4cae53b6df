/* monitor.c - probe threads and the stall watcher. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/caps.h"
#include "system/signals.h"
#include "system/clock.h"
#include "system/kstat.h"
#include "probes/monitor.h"
#include "system/thread.h"
#include "lib/units.h"
#include "waitsite.h"

#define WATCH_NS (50 * WS_NSEC_PER_MSEC)

/* Or until monitor_stop(): a run must not end a probe interval late. */
static void sleep_until(struct monitor *m, uint64_t deadline)
{
	struct timespec ts = ws_timespec(deadline);

	pthread_mutex_lock(&m->lock);
	while (!atomic_load(&m->stop) &&
	       pthread_cond_timedwait(&m->wake, &m->lock, &ts) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&m->lock);
}

static uint64_t now_ns(const struct monitor *m)
{
	return m->clock->now(m->clock);
}

/* A test's clock is moved to the deadline. */
static void probe_sleep_until(struct monitor *m, uint64_t deadline)
{
	if (m->clock == &ws_real_clock)
		sleep_until(m, deadline);
	else
		m->clock->sleep_until(m->clock, deadline);
}

static void record_stall(struct monitor_probe *mp, uint64_t t0, uint64_t ns,
			 uint64_t bytes, const struct ws_meminfo *mi)
{
	uint64_t start = atomic_load_explicit(&mp->snap->start_ns,
					      memory_order_acquire);
	struct ws_stall st = {
		.start_ns = start && t0 > start ? t0 - start : 0,
		.at_ns = t0,
		.duration_ns = ns,
		.writer_bytes = bytes,
		.dirty = mi->dirty,
		.writeback = mi->writeback,
	};

	waitsite_blame(mp, t0, st.site);
	mp->fig.nstalls++;
	mp->fig.stall_total_ns += ns;
	if (ns > mp->fig.longest.duration_ns)
		mp->fig.longest = st;
	if (mp->fig.nrecorded < WS_MAX_STALLS)
		mp->fig.stalls[mp->fig.nrecorded++] = st;
}

void monitor_record(struct monitor_probe *mp, uint64_t t0, uint64_t ns,
		    int ret, uint64_t writer_bytes, const struct ws_meminfo *mi)
{
	struct monitor *m = mp->mon;
	bool stall = ns >= m->cfg->set.stall_ns;

	/* a command that exits 1 at once is not a fast commit */
	if (ret) {
		probe_door_end(&mp->door, ns, false, true);
		mp->fig.errors++;
		mp->fig.last_error = ret;
		mp->fig.last_fail = mp->probe.fail;
		snprintf(mp->fig.last_stderr, sizeof(mp->fig.last_stderr), "%s", mp->probe.fail_stderr);
		return;
	}
	if (stall)
		record_stall(mp, t0, ns, writer_bytes, mi);
	probe_door_end(&mp->door, ns, stall, false);
	for (unsigned int i = 0; mp->steers && i < mp->nsteer; i++)
		snapshot_post_probe(mp->steer[i], (unsigned int)(mp - m->probes), ns);
	hist_record(&mp->fig.raw, ns);
	hist_record_corrected(&mp->fig.corrected, ns, m->cfg->set.probe_interval_ns);
}

static void probe_once(struct monitor_probe *mp)
{
	struct monitor *m = mp->mon;
	struct probe *p = &mp->probe;
	struct ws_meminfo mi = { 0, 0 };
	uint64_t bytes, t0, ns;
	int ret;

	if (p->ops->prepare)
		p->ops->prepare(p);
	kstat_meminfo(m->proc_root, &mi);
	bytes = atomic_load_explicit(&mp->snap->bytes, memory_order_relaxed);

	t0 = now_ns(m);
	probe_door_begin(&mp->door, t0);
	ret = p->ops->run(p);
	ns = now_ns(m) - t0;
	if (ret == -ECANCELED) {
		probe_door_cancel(&mp->door);
		return;
	}
	monitor_record(mp, t0, ns, ret, bytes, &mi);
}

static int by_ns(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t monitor_idle_ns(struct monitor *m, unsigned int n, const char **name)
{
	uint64_t slowest = 0, v[MONITOR_IDLE_MAX];

	if (n > MONITOR_IDLE_MAX)
		n = MONITOR_IDLE_MAX;
	for (unsigned int i = 0; i < m->nprobes && n; i++) {
		struct probe *p = &m->probes[i].probe;

		if (!m->probes[i].steers)
			continue;
		for (unsigned int k = 0; k < n; k++) {
			uint64_t t0;

			if (p->ops->prepare)
				p->ops->prepare(p);
			t0 = now_ns(m);
			p->ops->run(p);
			v[k] = now_ns(m) - t0;
		}
		qsort(v, n, sizeof(*v), by_ns);
		m->probes[i].idle_ns = v[n / 2];
		if (v[n / 2] > slowest) {
			slowest = v[n / 2];
			*name = m->probes[i].name;
		}
	}
	return slowest;
}

void monitor_setup_steering(struct monitor *m)
{
	_Static_assert(WS_SNAPSHOT_PROBES == WS_MAX_PROBES, "a snapshot slot per probe");
	for (unsigned int i = 0; i < m->nprobes; i++) {
		struct monitor_probe *mp = &m->probes[i];
		const struct probe_ops *ops = mp->probe.ops;

		for (unsigned int k = 0; mp->steers && k < mp->nsteer; k++)
			mp->steer[k]->steer_setup[i] = (struct ws_steer_setup){
				.steers = true, .idle_ns = mp->idle_ns,
				.syncs = ops->syncs ? ops->syncs(&mp->probe) : 1,
			};
	}
}

static void *probe_main(void *arg)
{
	struct monitor_probe *mp = arg;
	struct monitor *m = mp->mon;
	uint64_t interval = m->cfg->set.probe_interval_ns;
	uint64_t next = now_ns(m);

	atomic_store(&mp->tid, (int)gettid());
	for (;;) {
		uint64_t now;

		probe_sleep_until(m, next);
		if (atomic_load(&m->stop))
			break;
		probe_once(mp);
		/* slots missed while stuck: skipped here, the corrected
		 * histogram accounts for them */
		next += interval;
		now = now_ns(m);
		if (next <= now) {
			uint64_t missed = (now - next) / interval + 1;

			mp->fig.sched_misses += missed;
			next += missed * interval;
		}
	}
	mp->fig.cpu_ns = ws_thread_cpu_ns();
	return NULL;
}

static void *watcher_main(void *arg)
{
	struct monitor *m = arg;
	uint64_t next = ws_now_ns();

	while (!atomic_load(&m->stop)) {
		uint64_t now;

		next += WATCH_NS;
		sleep_until(m, next);
		now = now_ns(m);
		for (unsigned int i = 0; i < m->nprobes; i++) {
			struct monitor_probe *mp = &m->probes[i];
			uint64_t since = atomic_load(&mp->door.inflight_since);
			char site[WS_SITE_LEN];

			/* a command waits in its own process, not this thread */
			if (mp->own_time || !since || now < since + m->cfg->set.stall_ns)
				continue;
			if (waitsite_sample(m->proc_root, atomic_load(&mp->tid), site,
						    sizeof(site)))
				waitsite_tally(mp, since, site);
		}
	}
	m->watcher_cpu_ns = ws_thread_cpu_ns();
	return NULL;
}

static int init_wake(struct monitor *m)
{
	pthread_condattr_t attr;
	int ret = pthread_condattr_init(&attr);

	if (!ret)
		ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&m->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (!ret && (ret = pthread_mutex_init(&m->lock, NULL)))
		pthread_cond_destroy(&m->wake);
	return -ret;
}

/* By default every kind but a command, whose time is not the disk's. */
static bool steers(const struct ws_config *cfg, enum ws_probe_kind k)
{
	if (cfg->set.pace != WS_PACE_ADAPTIVE)
		return false;
	if (cfg->set.pacing.steer_by)
		return cfg->set.pacing.steer_by & (1u << k);
	return !probe_kinds[k]->per_command;
}

/* A command steers every writer (all), the others their site's. */
static int add_probe(struct monitor *m, const struct monitor_site *site,
		     const struct monitor_site *all, enum ws_probe_kind k,
		     unsigned int instance, char *err, size_t errlen,
		     const char **hint)
{
	struct monitor_probe *mp = &m->probes[m->nprobes];
	const struct monitor_site *steered = probe_kinds[k]->per_command ? all : site;
	int ret;

	mp->mon = m;
	mp->snap = site->snap;
	mp->own_time = probe_kinds[k]->per_command;
	mp->steers = steers(m->cfg, k);
	mp->nsteer = steered->nsteer;
	memcpy(mp->steer, steered->steer, sizeof(mp->steer));
	if (probe_kinds[k]->per_command)
		snprintf(mp->name, sizeof(mp->name), "%s",
			 m->cfg->set.cmds.list[instance].name);
	else if (site->number)
		snprintf(mp->name, sizeof(mp->name), "%s@%u",
			 ws_probe_kind_name(k), site->number);
	else
		snprintf(mp->name, sizeof(mp->name), "%s", ws_probe_kind_name(k));
	hist_init(&mp->fig.raw);
	hist_init(&mp->fig.corrected);
	ret = probe_door_init(&mp->door);
	if (!ret)
		ret = probe_init(&mp->probe, k, instance, site->cfg);
	if (ret) {
		snprintf(err, errlen, "%s", mp->probe.err[0] ? mp->probe.err
							    : strerror(-ret));
		if (hint)
			*hint = probe_kinds[k]->setup_hint;
		probe_door_destroy(&mp->door);
		return ret;
	}
	m->nprobes++;
	return 0;
}

int monitor_init(struct monitor *m, const struct ws_config *cfg,
		 const struct monitor_site *sites, unsigned int nsites,
		 char *err, size_t errlen, const char **hint)
{
	unsigned int wanted = 0, commands = 0;
	struct monitor_site all = { .nsteer = 0 };
	int wret;

	memset(m, 0, sizeof(*m));
	m->cfg = cfg;
	m->clock = &ws_real_clock;
	m->proc_root = "";
	wret = init_wake(m);
	if (wret) {
		snprintf(err, errlen, "%s", strerror(-wret));
		return wret;
	}
	m->wake_ready = true;
	for (int k = 0; k < WS_PROBE_NR; k++)
		if (!probe_kinds[k]->per_command)
			wanted += (cfg->set.probes >> k) & 1u;
	if (cfg->set.probes & (1u << WS_PROBE_CMD))
		commands = cfg->set.cmds.n;
	if (wanted * nsites + commands > WS_MAX_PROBES) {
		snprintf(err, errlen, "%u probes on each of %u filesystems and %u commands make %u; at most %u run at once",
			 wanted, nsites, commands, wanted * nsites + commands, WS_MAX_PROBES);
		if (hint)
			*hint = "probe fewer kinds (--probe fsync), or put the probes in one place with --probe-dir";
		monitor_cleanup(m);
		return -E2BIG;
	}
	if (wanted * nsites + commands) {
		m->probes = calloc(wanted * nsites + commands, sizeof(*m->probes));
		if (!m->probes) {
			snprintf(err, errlen, "%s", strerror(ENOMEM));
			monitor_cleanup(m);
			return -ENOMEM;
		}
	}
	/* a command runs once, beside the first target's writer */
	for (unsigned int s = 0; s < nsites; s++)
		for (unsigned int i = 0; i < sites[s].nsteer && all.nsteer < WS_MAX_TARGETS; i++)
			all.steer[all.nsteer++] = sites[s].steer[i];
	for (unsigned int s = 0; s < nsites; s++) {
		for (int k = 0; k < WS_PROBE_NR; k++) {
			bool each = probe_kinds[k]->per_command;
			unsigned int n = each ? (s ? 0 : commands) : 1;

			if (!(cfg->set.probes & (1u << k)))
				continue;
			for (unsigned int i = 0; i < n; i++) {
				int ret = add_probe(m, &sites[s], &all, (enum ws_probe_kind)k,
						    i, err, errlen, hint);

				if (ret) {
					monitor_cleanup(m);
					return ret;
				}
			}
		}
	}
	return 0;
}

void monitor_harden(struct monitor *m)
{
	if (!m->nprobes)
		return;
	m->realtime = caps_can_realtime(WS_THREAD_RT_PRIO, &m->realtime_why);
}

void monitor_lock_memory(struct monitor *m)
{
	if (m->nprobes)
		m->memory_locked = caps_lock_memory(&m->memory_why) == 0;
}

/* Refused real-time (a cgroup without a budget): normal, and said why. */
static int start_thread(struct monitor *m, const char *name, pthread_t *tid,
			void *(*fn)(void *), void *arg)
{
	struct ws_thread_spec spec = {
		.name = name, .realtime = m->realtime ? WS_THREAD_RT_PRIO : 0,
		.realtime_optional = true,
		.ioprio_class = m->cfg->set.probe_ioprio_class,
		.ioprio_level = m->cfg->set.probe_ioprio_level,
	};
	int ret = ws_thread_start(tid, &spec, fn, arg);

	if (spec.realtime_refused) {
		m->realtime = false;
		m->realtime_why = (struct ws_denial_why){ .kind = WS_DENIED_KERNEL };
	}
	return ret;
}

static void request_stop(struct monitor *m)
{
	pthread_mutex_lock(&m->lock);
	atomic_store(&m->stop, true);
	pthread_cond_broadcast(&m->wake);
	pthread_mutex_unlock(&m->lock);
}

int monitor_start(struct monitor *m)
{
	unsigned int started;
	int ret = 0;

	if (!m->nprobes)
		return 0;
	for (started = 0; started < m->nprobes; started++) {
		char name[16];

		snprintf(name, sizeof(name), "ws-probe-%.6s",
			 m->probes[started].name);
		ret = start_thread(m, name, &m->probes[started].thread, probe_main,
				   &m->probes[started]);
		if (ret)
			break;
	}
	/* /proc/.../stack would need CAP_SYS_ADMIN; wchan does not */
	if (!ret)
		ret = start_thread(m, "ws-watch", &m->watcher, watcher_main, m);
	if (ret) {
		request_stop(m);
		while (started--)
			pthread_join(m->probes[started].thread, NULL);
		return ret;
	}
	m->started = true;
	return 0;
}

void monitor_stop(struct monitor *m)
{
	if (!m->started)
		return;
	request_stop(m);
	for (unsigned int i = 0; i < m->nprobes; i++)
		pthread_join(m->probes[i].thread, NULL);
	pthread_join(m->watcher, NULL);
	m->started = false;
}

void monitor_cleanup(struct monitor *m)
{
	for (unsigned int i = 0; i < m->nprobes; i++) {
		signals_unlink_forget(m->probes[i].probe.dirfd);
		probe_cleanup(&m->probes[i].probe);
		probe_door_destroy(&m->probes[i].door);
	}
	free(m->probes);
	m->probes = NULL;
	m->nprobes = 0;
	if (m->wake_ready) {
		pthread_cond_destroy(&m->wake);
		pthread_mutex_destroy(&m->lock);
		m->wake_ready = false;
	}
}

void monitor_copy_figures(const struct monitor_probe *mp,
			  struct monitor_probe_figures *f)
{
	*f = mp->fig;
	snprintf(f->name, sizeof(f->name), "%s", mp->name);
}
