/* reporter.c - interval records and the summary (see reporter.h). */
#include <stdlib.h>
#include <string.h>

#include "caps.h"
#include "clock.h"
#include "kstat.h"
#include "reporter.h"
#include "signals.h"
#include "units.h"

static double mib_per_s(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / (double)WS_MIB * 1e9 / (double)ns : 0.0;
}

void reporter_params(const struct ws_config *cfg, struct ws_analysis_params *p)
{
	analysis_defaults(p);
	p->steady_window = cfg->steady_window;
	p->round_points = (unsigned int)(cfg->steady_round_ns / cfg->interval_ns);
	if (!p->round_points)
		p->round_points = 1;
}

void reporter_init(struct reporter *r, const struct ws_run *run,
		   struct ws_snapshot *snap, struct sink_set *sinks,
		   struct ws_series *series, struct ws_series *progress)
{
	memset(r, 0, sizeof(*r));
	r->run = run;
	r->snap = snap;
	r->sinks = sinks;
	r->interval_ns = run->cfg->interval_ns;
	r->series = series;
	r->progress = progress;
	series_init(series);
	series_init(progress);
	reporter_params(run->cfg, &r->params);
}

/* The interval as a point of the series. */
static void add_point(struct reporter *r, const struct ws_interval *iv)
{
	struct ws_point p = {
		.t_ns = iv->t_ns, .dt_ns = iv->dt_ns, .bytes = iv->bytes,
		.dbytes = iv->dbytes, .mibps = iv->mibps, .dirty = iv->dirty,
		.writeback = iv->writeback,
	};

	for (unsigned int i = 0; i < iv->nprobes; i++) {
		p.probe_p99[i] = iv->probes[i].p99_ns;
		p.probe_max[i] = iv->probes[i].max_ns;
		p.probe_stalls[i] = iv->probes[i].stalls;
	}
	series_add(r->series, &p);
}

/* One progress mark as a point of the progress series.  A mark that adds
 * no bytes (nothing on disk yet) lends its time to the next; only the last
 * one stands alone (the final wait for the disk). */
static void add_mark(struct reporter *r, const struct ws_mark *m, bool last)
{
	struct ws_point p = {
		.t_ns = m->t_ns, .dt_ns = m->t_ns - r->last_mark.t_ns,
		.bytes = m->bytes, .dbytes = m->bytes - r->last_mark.bytes,
	};

	if (m->t_ns <= r->last_mark.t_ns || m->bytes < r->last_mark.bytes ||
	    (!last && m->bytes == r->last_mark.bytes))
		return;
	p.mibps = (double)p.dbytes / (double)WS_MIB * 1e9 / (double)p.dt_ns;
	series_add(r->progress, &p);
	r->last_mark = *m;
}

static void take_marks(struct reporter *r)
{
	size_t n;

	while ((n = snapshot_take_marks(r->snap, r->marks, 256)))
		for (size_t i = 0; i < n; i++)
			add_mark(r, &r->marks[i], false);
}

/* --until-steady: once the SNIA criterion holds, ask the writer to end. */
static void check_steady(struct reporter *r)
{
	struct ws_analysis_params p = r->params;
	struct ws_steady st;

	/* a point covers `stride` intervals once the series was halved */
	p.round_points = p.round_points / r->series->stride ?
			 p.round_points / r->series->stride : 1;
	if (analysis_steady(r->series->pts, r->series->n, &p, &st))
		atomic_store(&r->snap->steady, true);
}

/* How far along a bounded run is: the furthest of its bounds. */
static double progress(const struct ws_run *run, uint64_t bytes, uint64_t t)
{
	double f = -1.0;

	if (run->plan->total != WS_UNBOUNDED)
		f = (double)bytes / (double)run->plan->total;
	if (run->cfg->duration_ns) {
		double ft = (double)t / (double)run->cfg->duration_ns;

		if (ft > f)
			f = ft;
	}
	return f > 1.0 ? 1.0 : f;
}

void reporter_make_interval(const struct ws_run *run,
			    const struct ws_sample *prev, uint64_t prev_t_ns,
			    const struct ws_sample *now, uint64_t now_t_ns,
			    struct ws_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->t_ns = now_t_ns;
	iv->dt_ns = now_t_ns - prev_t_ns;
	iv->bytes = now->bytes;
	iv->dbytes = now->bytes - prev->bytes;
	for (int t = 0; t < WS_T_NR; t++)
		iv->time_ns[t] = now->time_ns[t] - prev->time_ns[t];
	iv->mibps = mib_per_s(iv->dbytes, iv->dt_ns);
	iv->avg_mibps = mib_per_s(iv->bytes, iv->t_ns);
	iv->progress = progress(run, now->bytes, now_t_ns);
	if (iv->progress > 0.0)
		iv->eta_ns = (uint64_t)((double)now_t_ns *
					(1.0 - iv->progress) / iv->progress);
}

void reporter_make_summary(const struct ws_sample *s,
			   const struct ws_outcome *o, int signo,
			   struct ws_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	sum->bytes = s->bytes;
	sum->buffers = s->buffers;
	sum->wraps = s->wraps;
	sum->elapsed_ns = o->end_ns > s->start_ns ? o->end_ns - s->start_ns : 0;
	memcpy(sum->time_ns, s->time_ns, sizeof(sum->time_ns));
	sum->mibps = mib_per_s(sum->bytes, sum->elapsed_ns);
	sum->outcome = *o;
	sum->signo = signo;
}

void reporter_probe_interval(const struct ws_probe_take *take,
			     uint64_t now_ns, uint64_t stall_ns,
			     struct ws_probe_interval *pi)
{
	pi->count = hist_count(&take->hist);
	pi->p50_ns = hist_percentile(&take->hist, 50);
	pi->p99_ns = hist_percentile(&take->hist, 99);
	pi->max_ns = hist_max(&take->hist);
	pi->stalls = take->stalls;
	pi->errors = take->errors;
	pi->inflight_ns = take->inflight_since && now_ns > take->inflight_since ?
			  now_ns - take->inflight_since : 0;
	/* a probe stuck for 30 s is the story of its interval, not a gap */
	if (pi->inflight_ns > pi->max_ns)
		pi->max_ns = pi->inflight_ns;
	pi->blocked = take->inflight_since && pi->inflight_ns >= stall_ns;
	memcpy(pi->site, take->site, sizeof(pi->site));
}

static int by_samples(const void *a, const void *b)
{
	const struct ws_site_count *x = a, *y = b;

	return x->samples < y->samples ? 1 : x->samples > y->samples ? -1 : 0;
}

void reporter_probe_summary(const struct monitor_probe *mp,
			    struct ws_probe_summary *ps)
{
	struct ws_site_count sites[MONITOR_MAX_SITES];

	memset(ps, 0, sizeof(*ps));
	ps->name = mp->probe.ops->name;
	ps->count = hist_count(&mp->raw);
	ps->errors = mp->errors;
	ps->last_error = mp->last_error;
	ps->p50 = hist_percentile(&mp->raw, 50);
	ps->p90 = hist_percentile(&mp->raw, 90);
	ps->p99 = hist_percentile(&mp->raw, 99);
	ps->p999 = hist_percentile(&mp->raw, 99.9);
	ps->max = hist_max(&mp->raw);
	ps->c_count = hist_count(&mp->corrected);
	ps->c_p50 = hist_percentile(&mp->corrected, 50);
	ps->c_p90 = hist_percentile(&mp->corrected, 90);
	ps->c_p99 = hist_percentile(&mp->corrected, 99);
	ps->c_p999 = hist_percentile(&mp->corrected, 99.9);
	ps->nstalls = mp->nstalls;
	ps->stall_total_ns = mp->stall_total_ns;
	ps->longest = mp->longest;
	ps->stalls = mp->stalls;
	ps->nrecorded = mp->nrecorded;
	ps->sched_misses = mp->sched_misses;
	memcpy(sites, mp->sites, sizeof(sites));
	qsort(sites, mp->nsites, sizeof(sites[0]), by_samples);
	ps->ntop = mp->nsites < 3 ? mp->nsites : 3;
	memcpy(ps->top_sites, sites, ps->ntop * sizeof(sites[0]));
}

/* Spans in which nothing was written (the final wait for the disk, a
 * writer stuck in the kernel) have no width on the bytes axis: their time
 * goes to the neighbouring span, so they slow it down, as they did, but
 * never make a phase of their own.  Returns the points kept in out. */
size_t reporter_compact(const struct ws_point *in, size_t n, struct ws_point *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m && (!in[i].dbytes || !out[m - 1].dbytes))
			out[m - 1] = series_merge(&out[m - 1], &in[i]);
		else
			out[m++] = in[i];
	}
	return m;
}

static uint64_t min_phase_ns(const struct reporter *r)
{
	uint64_t elapsed = r->snap->outcome.end_ns -
			   atomic_load(&r->snap->start_ns);
	uint64_t two = 2 * r->run->cfg->interval_ns;

	return elapsed / 100 > two ? elapsed / 100 : two;
}

/* Phases and the slowdown point over bytes, from the progress series
 * (buffer-aligned); steady state over time, in rounds of intervals. */
static void analyse(struct reporter *r)
{
	const struct ws_series *p = r->progress, *s = r->series;
	struct ws_analysis *a = &r->analysis;
	size_t n = p->n > s->n ? p->n : s->n;
	struct ws_point *pts = malloc(n * sizeof(*pts) + 1);

	memset(a, 0, sizeof(*a));
	if (!pts)
		return;		/* at the very end: no analysis, say so */
	n = reporter_compact(p->pts, p->n, pts);
	a->nphases = analysis_phases(pts, n, a->phases, WS_MAX_PHASES);
	/* a phase lasts at least two reporting intervals and 1% of the run */
	a->nphases = analysis_merge_short(a->phases, a->nphases,
					  min_phase_ns(r));
	a->nphases = analysis_merge_similar(pts, a->phases, a->nphases, 15.0);
	if (a->nphases) {
		a->initial_mibps = a->phases[0].mibps;
		a->slowed = analysis_slowdown(pts, n, a->phases, a->nphases,
					      r->params.slowdown_fraction,
					      &a->slowdown_bytes, &a->slowdown_ns);
	}
	n = reporter_compact(s->pts, s->n, pts);
	r->params.round_points = r->params.round_points / s->stride ?
				 r->params.round_points / s->stride : 1;
	analysis_steady(pts, n, &r->params, &a->steady);
	free(pts);
}

/* Has any probe finished an operation since the last interval? */
static bool probes_pending(struct reporter *r)
{
	struct monitor *mon = r->run->mon;

	for (unsigned int i = 0; mon && i < mon->nprobes; i++)
		if (probe_door_pending(&mon->probes[i].door))
			return true;
	return false;
}

/* The writer sets its start time as its first act; wait for it. */
static uint64_t wait_for_start(struct reporter *r)
{
	uint64_t start;

	while (!(start = atomic_load_explicit(&r->snap->start_ns,
					      memory_order_acquire)))
		snapshot_wait(r->snap, ws_now_ns() + WS_NSEC_PER_MSEC);
	return start;
}

/* The device's counters and I/O pressure over the interval. */
static void add_device(struct reporter *r, struct ws_interval *iv)
{
	const struct ws_fingerprint *fp = r->run->fp;
	struct ws_diskstat d;
	struct ws_psi psi;
	uint64_t now = ws_now_ns();
	/* rates over the time between the reads, not the nominal interval */
	double dt = r->kstat_at ? (double)(now - r->kstat_at) : 0.0;

	r->kstat_at = now;
	if (fp && fp->bdev_sysdir[0] && kstat_diskstat("", fp->bdev_sysdir, &d) == 0) {
		if (r->have_disk && dt > 0) {
			iv->have_device = true;
			iv->dev_mibps = (double)(d.write_sectors - r->disk.write_sectors) *
					WS_SECTOR / (double)WS_MIB * 1e9 / dt;
			iv->dev_inflight = d.in_flight;
			iv->dev_busy_pct = (double)(d.io_ticks - r->disk.io_ticks) *
					   1e6 * 100.0 / dt;
			if (iv->dev_busy_pct > 100.0)
				iv->dev_busy_pct = 100.0;
		}
		r->disk = d;
		r->have_disk = true;
	}
	if (kstat_psi_io("", &psi) == 0) {
		if (r->have_psi && dt > 0) {
			iv->have_psi = true;
			iv->psi_some_pct = (double)(psi.some.total_us - r->psi.some.total_us) *
					   1e3 * 100.0 / dt;
			iv->psi_full_pct = (double)(psi.full.total_us - r->psi.full.total_us) *
					   1e3 * 100.0 / dt;
			if (iv->psi_some_pct > 100.0)
				iv->psi_some_pct = 100.0;
			if (iv->psi_full_pct > 100.0)
				iv->psi_full_pct = 100.0;
		}
		r->psi = psi;
		r->have_psi = true;
	}
}

/* What the monitor and the kernel add to an interval. */
static void add_context(struct reporter *r, struct ws_interval *iv)
{
	struct monitor *mon = r->run->mon;
	struct ws_meminfo mi;
	uint64_t now = ws_now_ns();

	add_device(r, iv);
	if (kstat_meminfo("", &mi) == 0) {
		iv->have_meminfo = true;
		iv->dirty = mi.dirty;
		iv->writeback = mi.writeback;
	}
	for (unsigned int i = 0; mon && i < mon->nprobes; i++) {
		struct ws_probe_interval *pi = &iv->probes[i];

		probe_door_take(&mon->probes[i].door, &r->take);
		reporter_probe_interval(&r->take, now, mon->cfg->stall_ns, pi);
		pi->name = mon->probes[i].probe.ops->name;
		r->stalls_total[i] += pi->stalls;
		pi->stalls_total = r->stalls_total[i];
		iv->nprobes++;
	}
}

static void emit(struct reporter *r, const struct ws_sample *now,
		 uint64_t t_ns)
{
	struct ws_interval iv;

	reporter_make_interval(r->run, &r->prev, r->prev_t_ns, now, t_ns, &iv);
	add_context(r, &iv);
	iv.index = r->index++;
	add_point(r, &iv);
	take_marks(r);
	if (r->run->cfg->until_steady && !atomic_load(&r->snap->steady))
		check_steady(r);
	sink_interval(r->sinks, r->run, &iv);
	r->prev = *now;
	r->prev_t_ns = t_ns;
}

void *reporter_thread(void *arg)
{
	struct reporter *r = arg;
	uint64_t start, deadline, tail;
	struct ws_sample now;

	caps_drop_thread();
	pthread_setname_np(pthread_self(), "ws-report");
	start = wait_for_start(r);
	deadline = start;
	/* the baselines for the first interval's device and PSI deltas */
	add_device(r, &(struct ws_interval){ .dt_ns = 0 });

	for (;;) {
		bool finished;
		uint64_t t;

		deadline += r->interval_ns;
		/* fell behind (a stopped machine): skip, never burst */
		t = ws_now_ns();
		if (deadline < t)
			deadline = t + r->interval_ns - (t - start) % r->interval_ns;
		finished = snapshot_wait(r->snap, deadline);
		snapshot_read(r->snap, &now);
		if (finished)
			break;
		emit(r, &now, deadline - start);
	}

	/* the tail since the last tick, then the summary; the tail ends
	 * when the writer did, or later if a probe finished after it (its
	 * sample must be in some interval) */
	tail = r->snap->outcome.end_ns - start;
	if (probes_pending(r) && ws_now_ns() - start > tail)
		tail = ws_now_ns() - start;
	if (tail > r->prev_t_ns + WS_NSEC_PER_MSEC ||
	    (probes_pending(r) && tail > r->prev_t_ns))
		emit(r, &now, tail);
	reporter_make_summary(&now, &r->snap->outcome, signals_received(),
			      &r->summary);
	for (unsigned int i = 0; r->run->mon && i < r->run->mon->nprobes; i++)
		reporter_probe_summary(&r->run->mon->probes[i],
				       &r->summary.probes[r->summary.nprobes++]);
	series_finish(r->series);
	take_marks(r);
	/* the last mark: everything written, on disk, clock stopped */
	add_mark(r, &(struct ws_mark){ r->snap->outcome.end_ns - start, now.bytes },
		 true);
	series_finish(r->progress);
	analyse(r);
	r->summary.series = r->series;
	r->summary.progress = r->progress;
	r->summary.analysis = &r->analysis;
	sink_summary(r->sinks, r->run, &r->summary);
	return NULL;
}
