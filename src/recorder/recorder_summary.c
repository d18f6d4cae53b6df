/* recorder_summary.c - the summaries, once the writers and probes ended. */
#include <stdio.h>
#include <string.h>

#include "aggregate.h"
#include "analysis/series.h"
#include "lib/units.h"
#include "recorder/recorder.h"
#include "recorder_thread.h"
#include "system/clock.h"
#include "system/signals.h"

/* Most sampled first, stable: ties keep the order first seen in. */
static void sort_sites(struct ws_site_count *s, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		struct ws_site_count x = s[i];
		unsigned int j = i;

		for (; j > 0 && s[j - 1].samples < x.samples; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
}

void recorder_probe_summary(struct recorder_probe_run *run,
			    const struct monitor_probe_figures *f,
			    struct ws_probe_summary *ps)
{
	memset(ps, 0, sizeof(*ps));
	snprintf(run->name, sizeof(run->name), "%s", f->name);
	ps->name = run->name;
	ps->count = hist_count(&f->raw);
	ps->errors = f->errors;
	ps->last_error = f->last_error;
	ps->last_fail = f->last_fail;
	snprintf(ps->last_stderr, sizeof(ps->last_stderr), "%s", f->last_stderr);
	ps->p50 = hist_percentile(&f->raw, 50);
	ps->p90 = hist_percentile(&f->raw, 90);
	ps->p99 = hist_percentile(&f->raw, 99);
	ps->p999 = hist_percentile(&f->raw, 99.9);
	ps->max = hist_max(&f->raw);
	ps->c_count = hist_count(&f->corrected);
	ps->c_p50 = hist_percentile(&f->corrected, 50);
	ps->c_p90 = hist_percentile(&f->corrected, 90);
	ps->c_p99 = hist_percentile(&f->corrected, 99);
	ps->c_p999 = hist_percentile(&f->corrected, 99.9);
	ps->nstalls = f->nstalls;
	ps->stall_total_ns = f->stall_total_ns;
	ps->longest = f->longest;
	ps->nrecorded = f->nrecorded;
	memcpy(ps->stalls, f->stalls, f->nrecorded * sizeof(f->stalls[0]));
	ps->sched_misses = f->sched_misses;
	ps->cpu_ns = f->cpu_ns;
	ps->nsites = f->nsites;
	memcpy(ps->sites, f->sites, f->nsites * sizeof(f->sites[0]));
	sort_sites(ps->sites, ps->nsites);
	ps->ntop = ps->nsites < WS_TOP_SITES ? ps->nsites : WS_TOP_SITES;
	ps->raw = f->raw;
	recorder_add_latencies(&ps->latency, &ps->raw);
}

static void analyse(const struct ws_run *run, const struct ws_series *progress,
		    uint64_t writing_ns, uint64_t elapsed_ns,
		    struct ws_analysis *a, struct ws_summary *sum)
{
	/* out of memory at the very end: the analysis says it found nothing */
	recorder_analyse(run, progress, writing_ns, elapsed_ns, a, sum);
}

static void target_summary(const struct recorder *r, struct recorder_target *t)
{
	struct ws_sample now;

	snapshot_read(t->snap, &now);
	recorder_make_summary(t->run, &now, snapshot_outcome(t->snap), signals_received(),
			      t->summary);
	if (t->summary != &r->summary)
		t->summary->start_offset_ns = t->start_ns - r->start_ns;
}

static void target_analysis(struct recorder *r, struct recorder_target *t)
{
	uint64_t end = snapshot_outcome(t->snap)->end_ns - t->start_ns, writing;

	series_finish(t->series);
	recorder_take_marks(r, t);
	writing = t->last_mark.t_ns;
	/* everything on disk, clock stopped; unless it would credit a
	 * window of bytes to the final wait alone */
	if (recorder_final_mark_stands(t->last_pending, t->progress->n +
				       t->progress->npartial))
		recorder_add_mark(t, &(struct ws_mark){ end, t->summary->bytes, 0 }, true);
	series_finish(t->progress);
	t->summary->series = t->series;
	analyse(t->run, t->progress, writing, end, &t->analysis, t->summary);
}

/* A probe stuck past the writers' end is waited for by monitor_stop:
 * what it finished since the final interval is counted apart. */
static void probe_summaries(struct recorder *r)
{
	struct monitor *mon = r->mon;

	/* every snapshot is closed at once, after monitor_stop */
	while (!snapshot_wait(r->targets[0].snap, ws_now_ns() + 10 * WS_NSEC_PER_SEC))
		;
	for (unsigned int i = 0; mon && i < mon->nprobes; i++) {
		struct ws_probe_summary *ps = &r->summary.probes[i];

		monitor_copy_figures(&mon->probes[i], r->figures);
		recorder_probe_summary(&r->probe_run[i], r->figures, ps);
		probe_door_take(&mon->probes[i].door, &r->take);
		ps->after_end = hist_count(&r->take.hist);
		ps->after_end_max_ns = ps->after_end ? hist_max(&r->take.hist) : 0;
		r->summary.nprobes++;
	}
}

/* The rounds are the recorder's, freed by recorder_destroy. */
static void traced_summary(struct recorder *r)
{
	struct ws_summary *sum = &r->summary;
	struct trace_totals tt;

	/* out of memory: the analysis goes without the device's rounds */
	(void)trace_totals(r->trace, &tt);
	r->block_rounds = tt.rounds;
	sum->block = tt.block;
	sum->block_write_p50_ns = tt.write_p50_ns;
	sum->block_write_p99_ns = tt.write_p99_ns;
	sum->block_rounds_on = tt.rounds_on;
	sum->block_rounds = r->block_rounds;
	sum->nblock_rounds = tt.nrounds;
	sum->block_rounds_outside = tt.rounds_outside;
	sum->observer = tt.observer;
	/* one device under every target */
	ws_observer_within_device(&sum->observer, r->targets[0].dev_peak_mibps);
	sum->journal = tt.journal;
	sum->io_limit_bps = tt.io_limit_bps;
	sum->io_limit_iops = tt.io_limit_iops;
}

/* A stall before the writer started has start_ns 0: at_ns says when. */
static void explain(struct ws_trace *trace, uint64_t origin, int tid,
		    struct ws_stall *st)
{
	uint64_t at = st->at_ns ? st->at_ns : origin + st->start_ns;

	st->reason = trace_explain(trace, at, st->duration_ns, st->site, tid);
	trace_stall_culprits(trace, at, st->duration_ns, &st->culprits);
}


/* From the start of the writer the probe watched. */
static void explain_stalls(struct recorder *r)
{
	for (unsigned int i = 0; r->mon && i < r->mon->nprobes; i++) {
		const struct monitor_probe *mp = &r->mon->probes[i];
		struct ws_probe_summary *ps = &r->summary.probes[i];
		uint64_t origin = r->start_ns;
		int tid = atomic_load_explicit(&mp->tid, memory_order_relaxed);

		for (unsigned int t = 0; t < r->ntargets; t++)
			if (r->targets[t].snap == mp->snap)
				origin = r->targets[t].start_ns;
		for (unsigned int k = 0; k < ps->nrecorded; k++)
			explain(r->trace, origin, tid, &ps->stalls[k]);
		if (ps->nstalls)
			explain(r->trace, origin, tid, &ps->longest);
	}
}

/* --pace adaptive: with several targets, each one's too. */
static void adapt_summary(struct recorder *r)
{
	struct ws_summary *sum = &r->summary;
	uint64_t settled = recorder_adapt_settled_at(r);
	struct ws_interval last = { 0 };

	if (!recorder_adaptive(&r->targets[0]))
		return;
	for (unsigned int i = 0; r->ntargets > 1 && i < r->ntargets; i++) {
		struct recorder_target *t = &r->targets[i];
		uint64_t s = snapshot_settled_ns(t->snap);

		recorder_add_adapt(t, r->start_ns, &last);
		t->summary->have_adapt = true;
		t->summary->adapt = last.adapt;
		t->summary->target_latency_ns = r->run->set.pacing.target_latency_ns;
		t->summary->headroom_pct = r->run->set.pacing.headroom_pct;
		t->summary->adapt_settled_ns = !s ? 0 : s > r->start_ns ? s - r->start_ns : 1;
	}
	recorder_add_adapt(&r->targets[0], r->start_ns, &last);
	sum->have_adapt = true;
	sum->adapt = last.adapt;
	sum->adapt.settled = settled != UINT64_MAX;
	/* several: the run's why is the first unsettled writer's */
	for (unsigned int i = 0; !sum->adapt.settled && i < r->ntargets; i++)
		if (r->ntargets > 1 && !r->targets[i].summary->adapt.settled) {
			sum->adapt.why = r->targets[i].summary->adapt.why;
			break;
		}
	sum->adapt_settled_ns = sum->adapt.settled ? settled : 0;
	sum->target_latency_ns = r->run->set.pacing.target_latency_ns;
	sum->headroom_pct = r->run->set.pacing.headroom_pct;
	for (unsigned int i = 0; i < sum->nprobes; i++) {
		const struct hist *h = &r->probe_run[i].settled;

		sum->settled_count[i] = hist_count(h);
		if (!sum->settled_count[i])
			continue;
		sum->settled_p50_ns[i] = hist_percentile(h, 50);
		sum->settled_p99_ns[i] = hist_percentile(h, 99);
		sum->settled_max_ns[i] = hist_max(h);
	}
}

/* Several targets: theirs added up, phases from their summed progress. */
static void run_summary(struct recorder *r)
{
	const struct ws_series *ps[WS_MAX_TARGETS];
	uint64_t offset[WS_MAX_TARGETS], end = 0, writing = 0;
	struct ws_summary *sum = &r->summary;

	for (unsigned int i = 0; i < r->ntargets; i++) {
		struct recorder_target *t = &r->targets[i];
		uint64_t last = t->last_mark.t_ns + t->start_ns - r->start_ns;

		ps[i] = t->progress;
		offset[i] = t->start_ns - r->start_ns;
		if (recorder_end_of(r, t) > end)
			end = recorder_end_of(r, t);
		if (last > writing)
			writing = last;
	}
	aggregate_summary(r->targets[0].summary, r->ntargets, end,
			  r->run->queue.direct, sum);
	series_finish(r->series);
	sum->series = r->series;
	aggregate_progress(ps, offset, r->ntargets, r->progress);
	analyse(r->run, r->progress, writing, end, &r->analysis, sum);
}

void recorder_finish(struct recorder *r)
{
	/* one target's summary is the run's, which the probes' then join */
	for (unsigned int i = 0; i < r->ntargets; i++)
		target_summary(r, &r->targets[i]);
	probe_summaries(r);
	adapt_summary(r);
	/* before the analysis: its rounds carry the device's latency */
	if (r->trace) {
		traced_summary(r);
		trace_culprits(r->trace, &r->summary.culprits);
		explain_stalls(r);
		ws_summary_count_culprit_stalls(&r->summary);
	}
	for (unsigned int i = 0; i < r->ntargets; i++)
		target_analysis(r, &r->targets[i]);
	if (r->ntargets > 1)
		run_summary(r);
	recorder_add_cpu(&r->summary, ws_process_cpu_ns(),
			 r->mon ? r->mon->watcher_cpu_ns : 0);
	sink_summary(r->sinks, r->run, &r->summary);
}
