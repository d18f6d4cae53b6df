/* recorder_thread.c - the recorder thread: intervals on absolute deadlines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/adapt.h"
#include "aggregate.h"
#include "analysis/analysis.h"
#include "system/clock.h"
#include "system/kstat.h"
#include "recorder/recorder.h"
#include "analysis/series.h"
#include "lib/units.h"
#include "recorder_thread.h"

/* four marks an interval: fine enough to place a change, coarse enough to
 * average out a device's bursts (the block throttle's 100 ms slices) */
static void follow(struct recorder *r, struct recorder_target *t)
{
	series_init(t->series);
	series_init(t->progress);
	snapshot_set_mark_spacing(t->snap, r->interval_ns / 4);
}

int recorder_init(struct recorder *r, const struct ws_run *run,
		  struct monitor *mon, struct ws_snapshot *snap,
		  struct sink_set *sinks, struct ws_series *series,
		  struct ws_series *progress)
{
	unsigned int nprobes = mon ? mon->nprobes : 0;

	memset(r, 0, sizeof(*r));
	r->run = run;
	r->mon = mon;
	r->sinks = sinks;
	r->interval_ns = run->params.interval_ns;
	r->series = series;
	r->progress = progress;
	r->one = (struct recorder_target){
		.run = run, .snap = snap, .series = series, .progress = progress,
		.summary = &r->summary,
	};
	r->targets = &r->one;
	r->ntargets = 1;
	follow(r, &r->one);
	/* a watch may run for days: its series' room made now */
	if (run->set.watch)
		(void)series_reserve(series, run->set.duration_ns && r->interval_ns ?
				     (size_t)(run->set.duration_ns / r->interval_ns) + 2 :
				     WS_SERIES_CAP);
	if (!nprobes)
		return 0;
	r->probe_run = calloc(nprobes, sizeof(*r->probe_run));
	r->figures = malloc(sizeof(*r->figures));
	if (!r->probe_run || !r->figures || ws_summary_hold_probes(&r->summary, nprobes))
		return -ENOMEM;
	for (unsigned int i = 0; i < nprobes; i++) {
		snprintf(r->probe_run[i].name, sizeof(r->probe_run[i].name), "%s",
			 mon->probes[i].name);
		hist_init(&r->probe_run[i].settled);
		hist_init(&r->probe_run[i].so_far);
	}
	return 0;
}

void recorder_set_targets(struct recorder *r, struct recorder_target *targets,
			  unsigned int n)
{
	r->targets = targets;
	r->ntargets = n;
	for (unsigned int i = 0; i < n; i++)
		follow(r, &targets[i]);
	series_init(r->series);
	series_init(r->progress);
}

void recorder_destroy(struct recorder *r)
{
	for (unsigned int i = 0; i < r->ntargets; i++) {
		analysis_release(&r->targets[i].analysis);
		series_free(r->targets[i].series);
		series_free(r->targets[i].progress);
	}
	if (r->ntargets > 1)
		analysis_release(&r->analysis);
	series_free(r->series);
	series_free(r->progress);
	ws_summary_release(&r->summary);
	free(r->probe_run);
	r->probe_run = NULL;
	free(r->figures);
	r->figures = NULL;
	free(r->block_rounds);
	r->block_rounds = NULL;
}

static struct ws_analysis_input analysis_input(const struct ws_series *progress,
					       uint64_t writing_ns,
					       uint64_t elapsed_ns)
{
	return (struct ws_analysis_input){
		.marks = progress->pts, .nmarks = progress->n,
		.writing_ns = writing_ns, .elapsed_ns = elapsed_ns,
	};
}

/* --until-steady: the summary's pipeline, steady state only. */
static void check_steady(struct recorder_target *t, uint64_t t_ns)
{
	struct ws_analysis_input in = analysis_input(t->progress, t->last_mark.t_ns,
						     t_ns);
	struct ws_analysis a;
	unsigned int max = t->run->set.steady.max_rounds;

	in.steady_only = true;
	if (!analysis_run(&in, &t->run->params, &a)) {
		if (a.steady.reached)
			snapshot_request_stop(t->snap, WS_STOP_STEADY);
		else if (max && a.steady.judged_rounds >= max)
			snapshot_request_stop(t->snap, WS_STOP_NOT_STEADY);
	}
	analysis_release(&a);
}

/* One that could not start sets its start time as it ends. */
static uint64_t wait_for_start(struct recorder *r)
{
	uint64_t first = UINT64_MAX;

	for (unsigned int i = 0; i < r->ntargets; i++) {
		struct recorder_target *t = &r->targets[i];

		while (!(t->start_ns = snapshot_start_ns(t->snap)))
			snapshot_wait(t->snap, ws_now_ns() + WS_NSEC_PER_MSEC);
		if (t->start_ns < first)
			first = t->start_ns;
	}
	return first;
}

static void add_device(struct recorder_target *t, struct ws_interval *iv)
{
	const struct ws_fingerprint *fp = t->run->fp;
	struct ws_diskstat d;
	uint64_t now = ws_now_ns();
	/* rates over the time between the reads, not the nominal interval */
	double dt = t->kstat_at ? (double)(now - t->kstat_at) : 0.0;

	t->kstat_at = now;
	if (!fp || !fp->bdev_sysdir[0] || kstat_diskstat("", fp->bdev_sysdir, &d))
		return;
	if (t->have_disk && dt > 0) {
		iv->have_device = true;
		iv->dev_bytes = (d.write_sectors - t->disk.write_sectors) * WS_SECTOR;
		iv->dev_mibps = ws_mibps(iv->dev_bytes, (uint64_t)dt);
		if (dt >= 5e8 && iv->dev_mibps > t->dev_peak_mibps)
			t->dev_peak_mibps = iv->dev_mibps;
		iv->dev_inflight = d.in_flight;
		iv->dev_busy_pct = (double)(d.io_ticks - t->disk.io_ticks) *
				   1e6 * 100.0 / dt;
		if (iv->dev_busy_pct > 100.0)
			iv->dev_busy_pct = 100.0;
	}
	t->disk = d;
	t->have_disk = true;
}

static void add_psi(struct recorder *r, struct ws_interval *iv)
{
	struct ws_psi psi;
	uint64_t now = ws_now_ns();
	double dt = r->psi_at ? (double)(now - r->psi_at) : 0.0;

	r->psi_at = now;
	if (kstat_psi_io("", &psi))
		return;
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

static void add_context(struct recorder *r, struct ws_interval *iv)
{
	struct monitor *mon = r->mon;
	struct ws_meminfo mi;
	uint64_t now = ws_now_ns();

	add_psi(r, iv);
	if (r->trace) {
		trace_take(r->trace, &iv->block, &iv->journal, &iv->writers, &iv->commands);
		recorder_add_traced(&r->block_run, &r->journal_run, &iv->block, &iv->journal);
		iv->block_run = r->block_run;
		iv->journal_run = r->journal_run;
	}
	if (kstat_meminfo("", &mi) == 0) {
		iv->have_meminfo = true;
		iv->dirty = mi.dirty;
		iv->writeback = mi.writeback;
	}
	uint64_t settled = recorder_adapt_settled_at(r);
	/* whole intervals after the controllers settled count as settled */
	bool after_settling = settled != UINT64_MAX &&
			      iv->t_ns - iv->dt_ns >= settled;

	for (unsigned int i = 0; mon && i < mon->nprobes; i++) {
		struct ws_probe_interval *pi = &iv->probes[i];

		probe_door_take(&mon->probes[i].door, &r->take);
		if (after_settling)
			hist_merge(&r->probe_run[i].settled, &r->take.hist);
		recorder_probe_take(&r->probe_run[i], &r->take, now,
				    mon->cfg->set.stall_ns, r->probe_run[i].name, pi);
		iv->nprobes++;
	}
}

static void add_point(struct ws_series *s, const struct ws_interval *iv,
		      bool folded)
{
	struct ws_point p = recorder_interval_point(iv);

	if (folded)
		series_extend_last(s, &p);
	else
		series_add(s, &p);
}

/* With one target the interval is the run's and gets the context too. */
static void target_interval(struct recorder *r, struct recorder_target *t,
			    const struct ws_sample *now, uint64_t t_ns,
			    bool final, struct ws_interval *iv)
{
	bool folded;

	recorder_make_interval(t->run, &t->prev, t->prev_t_ns, now, t_ns, iv);
	add_device(t, iv);
	recorder_add_adapt(t, r->start_ns, iv);
	if (r->ntargets == 1)
		add_context(r, iv);
	iv->index = t->index++;
	iv->number = t->run->number;
	iv->final = final;
	recorder_precondition_eta(t->run, iv);
	folded = final && recorder_fold_final(&t->last_iv, r->interval_ns, iv);
	add_point(t->series, iv, folded);
	recorder_take_marks(r, t);
	if (!final && t->run->set.steady.until && !snapshot_stop_requested(t->snap))
		check_steady(t, t_ns - (t->start_ns - r->start_ns));
	t->prev = *now;
	t->prev_t_ns = t_ns;
	t->last_iv = *iv;
}

/* A last millisecond that wrote nothing is no interval. */
static bool final_due(const struct recorder *r, const struct recorder_target *t,
		      const struct ws_sample *now)
{
	uint64_t end = recorder_end_of(r, t);

	return end > t->prev_t_ns &&
	       (end - t->prev_t_ns >= WS_NSEC_PER_MSEC || now->bytes != t->prev.bytes);
}

/* With several targets the run's interval is their sum with the context. */
static void tick(struct recorder *r, uint64_t t_ns, bool at_end)
{
	struct ws_interval agg;
	bool own_device[WS_MAX_TARGETS];
	unsigned int device[WS_MAX_TARGETS], n = 0;
	uint64_t bytes = 0, end = 0;
	bool folded;

	for (unsigned int i = 0; i < r->ntargets; i++) {
		struct recorder_target *t = &r->targets[i];
		struct ws_sample now;
		bool finished;

		if (t->done) {
			bytes += t->prev.bytes;
			continue;
		}
		/* one that ended after the deadline gets its final interval
		 * on the next tick */
		finished = snapshot_finished(t->snap) &&
			   (at_end || recorder_end_of(r, t) <= t_ns);
		snapshot_read(t->snap, &now);
		bytes += now.bytes;
		if (!finished && !at_end) {
			target_interval(r, t, &now, t_ns, false, &r->tick[n]);
		} else {
			t->done = true;
			if (!final_due(r, t, &now))
				continue;
			target_interval(r, t, &now, recorder_end_of(r, t), true, &r->tick[n]);
			if (recorder_end_of(r, t) > end)
				end = recorder_end_of(r, t);
		}
		/* a device under several targets counts once */
		device[n] = t->run->same_device_as ? t->run->same_device_as
						   : t->run->number;
		own_device[n] = true;
		for (unsigned int k = 0; k < n; k++)
			own_device[n] = own_device[n] && device[k] != device[n];
		n++;
	}
	if (r->ntargets == 1) {
		if (n)
			sink_interval(r->sinks, r->run, &r->tick[0]);
		return;
	}
	if (at_end)
		t_ns = end > r->prev_t_ns ? end : r->prev_t_ns;
	if (!n || t_ns <= r->prev_t_ns)
		return;
	memset(&agg, 0, sizeof(agg));
	agg.t_ns = t_ns;
	agg.dt_ns = t_ns - r->prev_t_ns;
	agg.bytes = bytes;
	aggregate_interval(r->tick, n, own_device, &agg);
	add_context(r, &agg);
	agg.index = r->index++;
	agg.ntargets = n;
	agg.targets = r->tick;
	recorder_precondition_eta(r->run, &agg);
	folded = at_end && recorder_fold_final(&r->last_iv, r->interval_ns, &agg);
	add_point(r->series, &agg, folded);
	sink_interval(r->sinks, r->run, &agg);
	r->prev_t_ns = t_ns;
	r->last_iv = agg;
}

static bool wait_writers(struct recorder *r, uint64_t deadline)
{
	for (unsigned int i = 0; i < r->ntargets; i++)
		if (!snapshot_finished(r->targets[i].snap) &&
		    !snapshot_wait_writer(r->targets[i].snap, deadline))
			return false;
	return true;
}

void recorder_baseline(struct recorder *r)
{
	for (unsigned int i = 0; i < r->ntargets; i++)
		add_device(&r->targets[i], &(struct ws_interval){ .dt_ns = 0 });
	add_psi(r, &(struct ws_interval){ .dt_ns = 0 });
}

void *recorder_thread(void *arg)
{
	struct recorder *r = arg;
	uint64_t deadline;

	r->start_ns = wait_for_start(r);
	deadline = r->start_ns;
	/* out of memory: the rounds go without the device's latency; a
	 * watch has no writer for the rounds or the probes' cost */
	if (r->trace && !r->run->set.watch)
		(void)trace_rounds(r->trace, r->start_ns, r->run->params.round_ns);

	for (;;) {
		uint64_t t;

		deadline += r->interval_ns;
		/* fell behind (a stopped machine): skip, never burst */
		t = ws_now_ns();
		if (deadline < t)
			deadline = t + r->interval_ns -
				   (t - r->start_ns) % r->interval_ns;
		if (wait_writers(r, deadline))
			break;
		tick(r, deadline - r->start_ns, false);
	}
	/* each final interval runs to its writer's end */
	tick(r, 0, true);
	recorder_finish(r);
	return NULL;
}
