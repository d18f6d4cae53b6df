/* reporter.h - the reporter thread: ticks on absolute deadlines, samples
 * the snapshot, turns samples into interval records and a summary, and
 * fans them out to the sinks.  It never slows the writer: it only reads
 * atomics.
 */
#ifndef WS_REPORTER_H
#define WS_REPORTER_H

#include "kstat.h"
#include "run.h"
#include "sink.h"
#include "snapshot.h"

struct reporter {
	const struct ws_run *run;
	struct ws_snapshot *snap;
	struct sink_set *sinks;
	uint64_t interval_ns;

	struct ws_sample prev;	/* the sample at the last tick */
	uint64_t prev_t_ns;
	uint64_t index;
	struct ws_summary summary;	/* the result, once the thread ends */
	struct ws_probe_take take;	/* scratch: one probe's interval */
	struct ws_series *series;	/* per interval (caller allocates) */
	struct ws_series *progress;	/* from progress marks (caller allocates) */
	struct ws_mark last_mark;	/* the previous mark added */
	uint64_t last_pending;		/* of the latest mark published */
	struct ws_interval last_iv;	/* the previous interval emitted */
	struct ws_diskstat disk;	/* at the last tick */
	struct ws_psi psi;
	bool have_disk, have_psi;
	uint64_t kstat_at;		/* when they were read */
	struct ws_mark marks[256];	/* scratch */
	struct ws_analysis analysis;
	struct ws_analysis_params params;
	uint64_t stalls_total[WS_PROBE_NR];
};

void reporter_init(struct reporter *r, const struct ws_run *run,
		   struct ws_snapshot *snap, struct sink_set *sinks,
		   struct ws_series *series, struct ws_series *progress);
/* The analysis parameters a configuration and its plan ask for. */
void reporter_params(const struct ws_config *cfg, const struct ws_plan *plan,
		     struct ws_analysis_params *p);
void *reporter_thread(void *r);
/* Free what the summary held (after the sinks are closed). */
void reporter_destroy(struct reporter *r);

/* Pure helpers, exposed for tests. */
void reporter_make_interval(const struct ws_run *run,
			    const struct ws_sample *prev, uint64_t prev_t_ns,
			    const struct ws_sample *now, uint64_t now_t_ns,
			    struct ws_interval *iv);
void reporter_make_summary(const struct ws_sample *s,
			   const struct ws_outcome *o, int signo,
			   struct ws_summary *sum);
/* One probe's interval figures from what its door handed over. */
void reporter_probe_interval(const struct ws_probe_take *take,
			     uint64_t now_ns, uint64_t stall_ns,
			     struct ws_probe_interval *pi);
/* The final interval (the writer ended after prev_t_ns): shorter than
 * half an interval, it is one buffer's or piece's noise (and the device's
 * counters one throttle slice's burst), so its rates, mibps and
 * dev_mibps, are those of itself and the interval before (*prev; index 0
 * has none).  Its bytes and times stay its own. */
void reporter_fold_final(const struct ws_interval *prev, uint64_t interval_ns,
			 struct ws_interval *iv);
/* Whether the final progress mark may stand, after npoints points: not
 * when the latest mark left bytes pending (written, not yet known on
 * disk), which the final wait would credit to its own few milliseconds:
 * a rate the disk never had.  Alone, it is the run's average. */
bool reporter_final_mark_stands(uint64_t last_pending, size_t npoints);
/* One probe's run figures; the monitor must have stopped. */
void reporter_probe_summary(const struct monitor_probe *mp,
			    struct ws_probe_summary *ps);

#endif
