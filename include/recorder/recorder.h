/* recorder.h - the recorder thread, and the one place the record
 * (record.h) is built.
 *
 * Before the threads start, recorder_make_run() fixes the run's facts.
 * While the writers run, the recorder thread (recorder_thread.c) ticks on
 * absolute deadlines, samples each writer's snapshot and the probes'
 * doors and turns them into interval records (with several targets, one
 * per target and the run's sum, aggregate.h); when the writers end it
 * derives the summaries (analysis, cells, the writer's limit, the ending,
 * each probe's figures) and fans every record out to the sinks.  It never
 * slows a writer: it only reads atomics and takes the probes' doors.
 */
#ifndef WS_RECORDER_H
#define WS_RECORDER_H

#include "system/kstat.h"
#include "probes/monitor.h"
#include "system/priv.h"
#include "record/record.h"
#include "outputs/sink.h"
#include "engine/snapshot.h"
#include "run/target.h"
#include "trace/trace.h"

/* One target as the recorder follows it: its writer's snapshot, its
 * intervals, marks, analysis and summary.  With one target it is the
 * recorder's own (the run's series, progress and summary). */
struct recorder_target {
	const struct ws_run *run;	/* its facts */
	struct ws_snapshot *snap;
	struct ws_series *series;	/* per interval (caller allocates) */
	struct ws_series *progress;	/* from progress marks (caller allocates) */
	struct ws_summary *summary;	/* its result (caller allocates) */

	struct ws_sample prev;	/* the sample at the last tick */
	uint64_t prev_t_ns;
	uint64_t index;
	uint64_t start_ns;	/* its writer's */
	bool done;		/* its last interval was emitted */
	struct ws_mark last_mark;	/* the previous mark added */
	uint64_t last_pending;		/* of the latest mark published */
	struct ws_interval last_iv;	/* the previous interval emitted */
	struct ws_diskstat disk;	/* at the last tick */
	bool have_disk;
	uint64_t kstat_at;		/* when it was read */
	struct ws_analysis analysis;
};

/* A probe since the start of the run, as the recorder keeps it. */
struct recorder_probe_run {
	char name[16];		/* the record's copy of the monitor's */
	uint64_t stalls_total;
	struct ws_latency_totals latency;
	struct hist so_far;	/* hist_init() before the first interval */
	/* --pace adaptive: its latencies once every controller had settled
	 * (the summary's settled_* figures) */
	struct hist settled;
};

struct recorder {
	const struct ws_run *run;
	struct monitor *mon;	/* probes: their doors while running, their
				   figures once stopped (may be NULL) */
	struct ws_trace *trace;	/* the device's requests, traced (NULL:
				   not); set before the thread starts */
	struct ws_block_figures block_run;	/* traced so far */
	struct ws_journal_figures journal_run;
	struct sink_set *sinks;
	uint64_t interval_ns;

	unsigned int ntargets;
	struct recorder_target *targets;	/* ntargets; &one with one */
	struct recorder_target one;
	uint64_t start_ns;		/* the first writer's start */

	/* the aggregate, with several targets (the run's record) */
	struct ws_sample prev;		/* bytes of every target at the last tick */
	uint64_t prev_t_ns;
	uint64_t index;
	struct ws_interval last_iv;
	struct ws_interval tick[WS_MAX_TARGETS];	/* scratch: one tick's */
	struct ws_series *series;	/* per interval (caller allocates) */
	struct ws_series *progress;	/* added-up progress (caller allocates) */
	struct ws_analysis analysis;

	struct ws_summary summary;	/* the result, once the thread ends */
	struct ws_probe_take take;	/* scratch: one probe's interval */
	struct ws_psi psi;
	bool have_psi;
	uint64_t psi_at;
	struct ws_mark marks[256];	/* scratch */
	struct recorder_probe_run *probe_run;	/* one a probe (mon's) */
	struct monitor_probe_figures *figures;	/* scratch: one probe's */
	struct ws_round_device *block_rounds;	/* the summary's, traced */
};

/* What the run's facts are made from. */
struct recorder_sources {
	const struct ws_config *cfg;
	const struct ws_plan *plan;
	const struct ws_target *target;
	const struct ws_fingerprint *fp;	/* may be NULL */
	const struct monitor *mon;		/* may be NULL: no probes */
	const struct ws_priv *priv;		/* may be NULL */
	const struct ws_queue_facts *queue;	/* NULL: synchronous */
	int argc;
	char **argv;
};

/* Fix the run's facts (record.h) from what setup established, the
 * analysis parameters included; uname and the start time are read here. */
void recorder_make_run(const struct recorder_sources *src, struct ws_run *run);
/* The analysis parameters a configuration and its plan ask for. */
void recorder_params(const struct ws_config *cfg, const struct ws_plan *plan,
		     struct ws_analysis_params *p);

/* Ready the recorder for a run of one target, whose writer publishes in
 * snap; sets the snapshot's mark spacing (four marks an interval).  mon
 * may be NULL.  0, or -ENOMEM (recorder_destroy() it all the same). */
WS_MUST_CHECK int recorder_init(struct recorder *r, const struct ws_run *run,
				struct monitor *mon, struct ws_snapshot *snap,
				struct sink_set *sinks, struct ws_series *series,
				struct ws_series *progress);
/* Several targets (run->ntargets): after recorder_init (with any snap),
 * follow targets[0..n) instead, whose run, snap, series, progress and
 * summary the caller has set (they live as long as the recorder); the
 * series and progress given to recorder_init become the aggregate's. */
void recorder_set_targets(struct recorder *r, struct recorder_target *targets,
			  unsigned int n);
/* The device's and the machine's counters as they stand: called before
 * any writer starts, so the first interval's device figures hold every
 * write (the recorder thread may get its first turn only after a writer
 * has written). */
void recorder_baseline(struct recorder *r);
void *recorder_thread(void *r);
/* Free what the summary held (after the sinks are closed), and the
 * series given to it. */
void recorder_destroy(struct recorder *r);

/* Pure helpers, exposed for tests. */
/* Which timer took the most of the interval, and its share. */
void recorder_busiest(struct ws_interval *iv);
void recorder_make_interval(const struct ws_run *run,
			    const struct ws_sample *prev, uint64_t prev_t_ns,
			    const struct ws_sample *now, uint64_t now_t_ns,
			    struct ws_interval *iv);
/* The summary's own figures from the final sample: bytes, time split,
 * rate, the ending (signo: the signal that ended it, or 0) and what
 * limited the writer. */
void recorder_make_summary(const struct ws_run *run, const struct ws_sample *s,
			   const struct ws_outcome *o, int signo,
			   struct ws_summary *sum);
/* What limited the writer, from where its time went (elapsed_ns total):
 * a timer that took half of it, else no single limit. */
enum ws_limit recorder_limit(const uint64_t time_ns[WS_T_NR],
			     uint64_t elapsed_ns, bool direct);
/* On a target in memory there is no disk: what would be the disk's or
 * write()'s limit is the writes' own (WS_LIMIT_MEMORY). */
enum ws_limit recorder_limit_in_memory(enum ws_limit l);
/* "disk" and "the disk was the limit (waiting for writeback)". */
const char *recorder_limit_key(enum ws_limit l);
const char *recorder_limit_words(enum ws_limit l);
/* The summary's CPU figures: the process's time (process_ns), the
 * monitor's (its probes' threads and the watcher's watcher_ns), and the
 * process's seconds per GiB written; the writer's came with the outcome. */
void recorder_add_cpu(struct ws_summary *sum, uint64_t process_ns,
		      uint64_t watcher_ns);
/* The throughput-over-bytes cells of the summary, from its progress
 * series: up to WS_MAX_CELLS of --bucket (or an automatic size) for the
 * files, WS_CURVE_CELLS for the one-line curve. */
void recorder_make_cells(const struct ws_settings *set, struct ws_summary *sum);
/* Phases, the slowdown point and steady state (the one pipeline,
 * analysis.h) on a progress series, the whole run's end being sum->bytes
 * at elapsed_ns (set sum->bytes first); then the cells and the steady
 * figures.  a is the caller's, and sum points at it and at progress. */
void recorder_analyse(const struct ws_run *run, const struct ws_series *progress,
		      uint64_t writing_ns, uint64_t elapsed_ns,
		      struct ws_analysis *a, struct ws_summary *sum);
/* The interval as a point of the per-interval series. */
struct ws_point recorder_interval_point(const struct ws_interval *iv);
/* On the first interval (index 0), with preconditioning asked for: how
 * long it takes at the rate just measured, in precondition_eta_ns. */
void recorder_precondition_eta(const struct ws_run *run, struct ws_interval *iv);
/* A progress mark m after prev as a point of the progress series: false
 * when it adds no time or bytes (then it lends its time to the next); a
 * mark that adds no bytes stands only as the last one (the final wait
 * for the disk). */
bool recorder_mark_point(const struct ws_mark *prev, const struct ws_mark *m,
			 bool last, struct ws_point *p);
/* One probe's interval figures from what its door handed over. */
void recorder_probe_interval(const struct ws_probe_take *take,
			     uint64_t now_ns, uint64_t stall_ns,
			     struct ws_probe_interval *pi);
/* One probe's interval from what its door handed over (take), with what
 * it did since the start (run, updated): its stalls, fixed-bucket
 * latencies, count, p99 and max so far (what the live line shows). */
void recorder_probe_take(struct recorder_probe_run *run,
			 const struct ws_probe_take *take, uint64_t now_ns,
			 uint64_t stall_ns, const char *name,
			 struct ws_probe_interval *pi);
/* A probe's summary over the run from the monitor's figures: its
 * percentiles, wait sites most sampled first, fixed-bucket latencies; its
 * name kept in run.  after_end is left 0. */
void recorder_probe_summary(struct recorder_probe_run *run,
			    const struct monitor_probe_figures *f,
			    struct ws_probe_summary *ps);
/* Add an interval's traced figures to the totals since the start (the
 * interval's block_run and journal_run): every count and time added, the
 * longest kept, the flags the interval's. */
void recorder_add_traced(struct ws_block_figures *run_block,
			 struct ws_journal_figures *run_journal,
			 const struct ws_block_figures *block,
			 const struct ws_journal_figures *journal);
/* Add a histogram's latencies (an interval's, or a whole run's into
 * zeroed totals) to a probe's fixed-bucket totals (record.h). */
void recorder_add_latencies(struct ws_latency_totals *t, const struct hist *h);
/* The final interval (the writer ended after prev_t_ns): shorter than
 * half an interval, it is one buffer's or piece's noise (and the device's
 * counters one throttle slice's burst), so its rates, mibps and
 * dev_mibps, are those of itself and the interval before (*prev; index 0
 * has none).  Its bytes and times stay its own.  True when it folded. */
bool recorder_fold_final(const struct ws_interval *prev, uint64_t interval_ns,
			 struct ws_interval *iv);
/* Whether the final progress mark may stand, after npoints points: not
 * when the latest mark left bytes pending (written, not yet known on
 * disk), which the final wait would credit to its own few milliseconds:
 * a rate the disk never had.  Alone, it is the run's average. */
bool recorder_final_mark_stands(uint64_t last_pending, size_t npoints);

#endif
