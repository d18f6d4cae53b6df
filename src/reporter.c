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

void reporter_params(const struct ws_config *cfg, const struct ws_plan *plan,
		     struct ws_analysis_params *p)
{
	analysis_defaults(p);
	p->interval_ns = cfg->interval_ns;
	p->criterion = (enum ws_steady_criterion)cfg->steady_criterion;
	p->limit_pct = cfg->steady_limit_pct;
	p->slope_pct = cfg->steady_slope_pct;
	p->steady_window = cfg->steady_window;
	p->round_ns = cfg->steady_round_ns;
	p->precondition_bytes = plan ? plan->precondition : 0;
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
	r->params = *run->params;
}

void reporter_destroy(struct reporter *r)
{
	analysis_release(&r->analysis);
}

/* The interval as a point of the series. */
static struct ws_point interval_point(const struct ws_interval *iv)
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
	return p;
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

	if (!last)
		r->last_pending = m->pending;
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

bool reporter_final_mark_stands(uint64_t last_pending, size_t npoints)
{
	return !npoints || !last_pending;
}

/* What the analysis reads of the run so far: the marks, and the time of
 * the last one taken while writing. */
static struct ws_analysis_input analysis_input(const struct reporter *r,
					       uint64_t writing_ns,
					       uint64_t elapsed_ns)
{
	return (struct ws_analysis_input){
		.marks = r->progress->pts, .nmarks = r->progress->n,
		.writing_ns = writing_ns, .elapsed_ns = elapsed_ns,
	};
}

/* --until-steady: once the last window holds after preconditioning, ask
 * the writer to end; after --steady-max-rounds judged rounds without, give
 * up.  The same pipeline as the summary's verdict, steady state only. */
static void check_steady(struct reporter *r, uint64_t t_ns)
{
	struct ws_analysis_input in = analysis_input(r, r->last_mark.t_ns, t_ns);
	struct ws_analysis a;
	unsigned int max = r->run->cfg->steady_max_rounds;

	in.steady_only = true;
	if (!analysis_run(&in, &r->params, &a)) {
		if (a.steady.reached)
			snapshot_request_stop(r->snap, WS_STOP_STEADY);
		else if (max && a.steady.judged_rounds >= max)
			snapshot_request_stop(r->snap, WS_STOP_NOT_STEADY);
	}
	analysis_release(&a);
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

void reporter_fold_final(const struct ws_interval *prev, uint64_t interval_ns,
			 struct ws_interval *iv)
{
	double w;

	if (!iv->index || 2 * iv->dt_ns >= interval_ns)
		return;
	iv->mibps = mib_per_s(prev->dbytes + iv->dbytes, prev->dt_ns + iv->dt_ns);
	/* the device's counters over a few milliseconds are its bursts */
	w = (double)prev->dt_ns / (double)(prev->dt_ns + iv->dt_ns);
	if (iv->have_device && prev->have_device)
		iv->dev_mibps = w * prev->dev_mibps + (1 - w) * iv->dev_mibps;
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

/* Phases, the slowdown point and steady state: the one pipeline. */
static void analyse(struct reporter *r, uint64_t writing_ns)
{
	uint64_t elapsed = r->snap->outcome.end_ns - atomic_load(&r->snap->start_ns);
	struct ws_analysis_input in = analysis_input(r, writing_ns, elapsed);

	/* out of memory at the very end: the analysis says it found nothing */
	analysis_run(&in, &r->params, &r->analysis);
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
			iv->dev_bytes = (d.write_sectors - r->disk.write_sectors) * WS_SECTOR;
			iv->dev_mibps = (double)iv->dev_bytes / (double)WS_MIB * 1e9 / dt;
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

/* One interval: from the last tick to t_ns.  The final one (the writer
 * ended within it) may be too short to stand alone: then its rate is that
 * of itself and the one before, and the series holds them as one point. */
static void emit(struct reporter *r, const struct ws_sample *now,
		 uint64_t t_ns, bool final)
{
	struct ws_interval iv;
	struct ws_point p;

	reporter_make_interval(r->run, &r->prev, r->prev_t_ns, now, t_ns, &iv);
	add_context(r, &iv);
	iv.index = r->index++;
	if (final)
		reporter_fold_final(&r->last_iv, r->interval_ns, &iv);
	p = interval_point(&iv);
	if (final && iv.index && 2 * iv.dt_ns < r->interval_ns)
		series_extend_last(r->series, &p);
	else
		series_add(r->series, &p);
	take_marks(r);
	if (!final && r->run->cfg->until_steady &&
	    !atomic_load(&r->snap->verdict))
		check_steady(r, t_ns);
	sink_interval(r->sinks, r->run, &iv);
	r->prev = *now;
	r->prev_t_ns = t_ns;
	r->last_iv = iv;
}

/* After the writer: a probe stuck past its end is waited for by the main
 * thread (monitor_stop); what it and any other probe finished since the
 * final interval is in the summary's figures and counted here. */
static void take_late_probes(struct reporter *r)
{
	struct monitor *mon = r->run->mon;

	while (!snapshot_wait(r->snap, ws_now_ns() + 10 * WS_NSEC_PER_SEC))
		;
	for (unsigned int i = 0; mon && i < mon->nprobes; i++) {
		struct ws_probe_summary *ps = &r->summary.probes[i];

		probe_door_take(&mon->probes[i].door, &r->take);
		ps->after_end = hist_count(&r->take.hist);
		ps->after_end_max_ns = ps->after_end ? hist_max(&r->take.hist) : 0;
	}
}

void *reporter_thread(void *arg)
{
	struct reporter *r = arg;
	uint64_t start, deadline, end, writing;
	struct ws_sample now;

	caps_drop_thread();
	pthread_setname_np(pthread_self(), "ws-report");
	start = wait_for_start(r);
	deadline = start;
	/* the baselines for the first interval's device and PSI deltas */
	add_device(r, &(struct ws_interval){ .dt_ns = 0 });

	for (;;) {
		uint64_t t;

		deadline += r->interval_ns;
		/* fell behind (a stopped machine): skip, never burst */
		t = ws_now_ns();
		if (deadline < t)
			deadline = t + r->interval_ns - (t - start) % r->interval_ns;
		if (snapshot_wait_writer(r->snap, deadline))
			break;
		snapshot_read(r->snap, &now);
		emit(r, &now, deadline - start, false);
	}

	/* intervals end when the writer did: the final one runs to its end
	 * (a last millisecond that wrote nothing is no interval) */
	snapshot_read(r->snap, &now);
	end = r->snap->outcome.end_ns - start;
	if (end > r->prev_t_ns &&
	    (end - r->prev_t_ns >= WS_NSEC_PER_MSEC || now.bytes != r->prev.bytes))
		emit(r, &now, end, true);
	reporter_make_summary(&now, &r->snap->outcome, signals_received(),
			      &r->summary);
	take_late_probes(r);
	for (unsigned int i = 0; r->run->mon && i < r->run->mon->nprobes; i++) {
		struct ws_probe_summary late = r->summary.probes[i];

		reporter_probe_summary(&r->run->mon->probes[i], &r->summary.probes[i]);
		r->summary.probes[i].after_end = late.after_end;
		r->summary.probes[i].after_end_max_ns = late.after_end_max_ns;
		r->summary.nprobes++;
	}
	series_finish(r->series);
	take_marks(r);
	writing = r->last_mark.t_ns;
	/* the last mark: everything written, on disk, clock stopped; unless it
	 * would credit a window of bytes to the final wait alone */
	if (reporter_final_mark_stands(r->last_pending, r->progress->n +
				       r->progress->npartial))
		add_mark(r, &(struct ws_mark){ end, now.bytes, 0 }, true);
	series_finish(r->progress);
	analyse(r, writing);
	r->summary.series = r->series;
	r->summary.progress = r->progress;
	r->summary.analysis = &r->analysis;
	sink_summary(r->sinks, r->run, &r->summary);
	return NULL;
}
