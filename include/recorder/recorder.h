/* recorder.h - builds the record (record.h): the run's facts before the
 * threads start, then on its thread (recorder_thread.c) each interval and
 * the summary, fanned out to the sinks.  It reads only atomics and the
 * probes' doors, so it never slows a writer.
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

/* series, progress and summary are the caller's. */
struct recorder_target {
	const struct ws_run *run;
	double dev_peak_mibps;	/* the fastest interval of >= 0.5 s */
	struct ws_snapshot *snap;
	struct ws_series *series;
	struct ws_series *progress;
	struct ws_summary *summary;

	struct ws_sample prev;	/* at the last tick */
	uint64_t prev_t_ns;
	uint64_t index;
	uint64_t start_ns;
	bool done;
	struct ws_mark last_mark;
	uint64_t last_pending;		/* of the latest mark published */
	struct ws_interval last_iv;
	struct ws_diskstat disk;
	bool have_disk;
	uint64_t kstat_at;
	struct ws_analysis analysis;
};

struct recorder_probe_run {
	char name[16];		/* the record's copy of the monitor's */
	uint64_t stalls_total;
	struct ws_latency_totals latency;
	struct hist so_far;	/* hist_init() first */
	struct hist settled;	/* once every controller settled */
};

struct recorder {
	const struct ws_run *run;
	struct monitor *mon;	/* NULL: no probes */
	struct ws_trace *trace;	/* NULL: not traced; set before the thread */
	struct ws_block_figures block_run;
	struct ws_journal_figures journal_run;
	struct sink_set *sinks;
	uint64_t interval_ns;

	unsigned int ntargets;
	struct recorder_target *targets;	/* ntargets; &one with one */
	struct recorder_target one;
	uint64_t start_ns;

	/* several targets: the aggregate; series and progress the caller's */
	struct ws_sample prev;
	uint64_t prev_t_ns;
	uint64_t index;
	struct ws_interval last_iv;
	struct ws_interval tick[WS_MAX_TARGETS];	/* scratch */
	struct ws_series *series;
	struct ws_series *progress;
	struct ws_analysis analysis;

	struct ws_summary summary;	/* once the thread ends */
	struct ws_probe_take take;	/* scratch */
	struct ws_psi psi;
	bool have_psi;
	uint64_t psi_at;
	struct ws_mark marks[256];	/* scratch */
	struct recorder_probe_run *probe_run;	/* one a probe (mon's) */
	struct monitor_probe_figures *figures;	/* scratch: one probe's */
	struct ws_round_device *block_rounds;	/* the summary's, traced */
};

/* fp, priv, mon (no probes) may be NULL; queue NULL: synchronous. */
struct recorder_sources {
	const struct ws_config *cfg;
	const struct ws_plan *plan;
	const struct ws_target *target;
	const struct ws_fingerprint *fp;
	const struct monitor *mon;
	const struct ws_priv *priv;
	const struct ws_queue_facts *queue;
	int argc;
	char **argv;
};

void recorder_make_run(const struct recorder_sources *src, struct ws_run *run);
void recorder_params(const struct ws_config *cfg, const struct ws_plan *plan,
		     struct ws_analysis_params *p);

/* Sets snap's mark spacing.  0 or -ENOMEM; recorder_destroy() either way. */
WS_MUST_CHECK int recorder_init(struct recorder *r, const struct ws_run *run,
				struct monitor *mon, struct ws_snapshot *snap,
				struct sink_set *sinks, struct ws_series *series,
				struct ws_series *progress);
/* After recorder_init: targets' run, snap, series, progress and summary
 * are the caller's, to outlive r; recorder_init's series are the sum's. */
void recorder_set_targets(struct recorder *r, struct recorder_target *targets,
			  unsigned int n);
/* Before any writer starts, so the first interval holds every write. */
void recorder_baseline(struct recorder *r);
void *recorder_thread(void *r);
/* After the sinks are closed; frees the summary and the series. */
void recorder_destroy(struct recorder *r);

/* Pure helpers, exposed for tests. */
void recorder_busiest(struct ws_interval *iv);
void recorder_make_interval(const struct ws_run *run,
			    const struct ws_sample *prev, uint64_t prev_t_ns,
			    const struct ws_sample *now, uint64_t now_t_ns,
			    struct ws_interval *iv);
/* signo: the signal that ended the run, or 0. */
void recorder_make_summary(const struct ws_run *run, const struct ws_sample *s,
			   const struct ws_outcome *o, int signo,
			   struct ws_summary *sum);
/* The timer that took half of elapsed_ns, else WS_LIMIT_NONE. */
enum ws_limit recorder_limit(const uint64_t time_ns[WS_T_NR],
			     uint64_t elapsed_ns, bool direct);
/* In memory there is no disk: a disk or write() limit is WS_LIMIT_MEMORY. */
enum ws_limit recorder_limit_in_memory(enum ws_limit l);
void recorder_add_cpu(struct ws_summary *sum, uint64_t process_ns,
		      uint64_t watcher_ns);
void recorder_make_cells(const struct ws_settings *set, struct ws_summary *sum);
/* analysis.h over progress up to sum->bytes (set it first); sum then
 * points at a and progress. */
void recorder_analyse(const struct ws_run *run, const struct ws_series *progress,
		      uint64_t writing_ns, uint64_t elapsed_ns,
		      struct ws_analysis *a, struct ws_summary *sum);
struct ws_point recorder_interval_point(const struct ws_interval *iv);
void recorder_precondition_eta(const struct ws_run *run, struct ws_interval *iv);
/* False when m adds no time or bytes (its time goes to the next); no
 * bytes stand only as the last (the final wait for the disk). */
bool recorder_mark_point(const struct ws_mark *prev, const struct ws_mark *m,
			 bool last, struct ws_point *p);
void recorder_probe_interval(const struct ws_probe_take *take,
			     uint64_t now_ns, uint64_t stall_ns,
			     struct ws_probe_interval *pi);
/* ... and run's totals since the start. */
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
/* Counts and times added, the longest kept, the flags the interval's. */
void recorder_add_traced(struct ws_block_figures *run_block,
			 struct ws_journal_figures *run_journal,
			 const struct ws_block_figures *block,
			 const struct ws_journal_figures *journal);
void recorder_add_latencies(struct ws_latency_totals *t, const struct hist *h);
/* A final interval under half an interval is noise: its rates become
 * those over it and *prev (none at index 0).  True if folded. */
bool recorder_fold_final(const struct ws_interval *prev, uint64_t interval_ns,
			 struct ws_interval *iv);
/* Alone, or if the last mark left no bytes pending: the final wait would
 * credit them to its few ms, a rate the disk never had. */
bool recorder_final_mark_stands(uint64_t last_pending, size_t npoints);

#endif
