/* run.h - what every output sink is told about the run: the configuration
 * and the facts established before the first byte, then one record per
 * interval and a summary.  Built by the main thread (ws_run) and the
 * reporter thread (records); sinks only read them.
 */
#ifndef WS_RUN_H
#define WS_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "fingerprint.h"
#include "analysis.h"
#include "monitor.h"
#include "series.h"
#include "plan.h"
#include "priv.h"
#include "snapshot.h"
#include "target.h"

/* What the privileged options did, for the header and the result. */
struct ws_run {
	const struct ws_config *cfg;
	const struct ws_plan *plan;
	const struct ws_target *target;
	struct monitor *mon;	/* probes (the reporter takes from their doors) */
	const struct ws_priv *priv;
	const struct ws_fingerprint *fp;	/* kernel, filesystem, device */
	const struct ws_analysis_params *params;	/* how it is judged */
	int argc;
	char **argv;		/* the command line, for result files */
};

/* One probe over one interval. */
struct ws_probe_interval {
	const char *name;
	uint64_t count;		/* operations that completed */
	uint64_t p50_ns, p99_ns;
	uint64_t max_ns;	/* includes the age of one still in flight */
	uint64_t stalls;	/* completed stalls in the interval */
	uint64_t stalls_total;	/* since the start */
	uint64_t errors;
	uint64_t inflight_ns;	/* age of the operation in progress, or 0 */
	bool blocked;		/* in flight for at least --stall */
	char site[WS_SITE_LEN];	/* where a blocked probe waits, if known */
};

/* One probe over the whole run. */
struct ws_probe_summary {
	const char *name;
	uint64_t count, errors;
	int last_error;
	uint64_t p50, p90, p99, p999, max;	/* raw: as measured */
	uint64_t c_count, c_p50, c_p90, c_p99, c_p999;	/* corrected */
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	const struct ws_stall *stalls;	/* the first nrecorded, in order */
	unsigned int nrecorded;
	struct ws_site_count top_sites[3];
	unsigned int ntop;
	uint64_t sched_misses;
	/* operations that ended after the writer did (a probe stuck past the
	 * end): in the figures above, in no interval */
	uint64_t after_end, after_end_max_ns;
};

/* One reporting interval. */
struct ws_interval {
	uint64_t index;
	uint64_t t_ns;		/* elapsed at the interval's end */
	uint64_t dt_ns;		/* its length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	uint64_t time_ns[WS_T_NR];	/* writer time during it */
	double mibps;		/* during it */
	double avg_mibps;	/* since the start */
	double progress;	/* 0..1, or -1 when the run is unbounded */
	uint64_t eta_ns;	/* valid when progress > 0 */
	bool have_meminfo;
	uint64_t dirty, writeback;	/* /proc/meminfo at the interval's end */
	/* the device's own counters (/sys/block/.../stat) over the interval:
	 * what reached it, not what the page cache took */
	bool have_device;
	double dev_mibps;		/* written to the device */
	uint64_t dev_bytes;		/* ... in bytes (what a sum over
					   intervals adds up: the final one's
					   dev_mibps may be smoothed) */
	uint64_t dev_inflight;		/* requests in flight at the end */
	double dev_busy_pct;		/* share of the interval it was busy */
	/* /proc/pressure/io over the interval, % of time stalled on I/O */
	bool have_psi;
	double psi_some_pct, psi_full_pct;
	unsigned int nprobes;
	struct ws_probe_interval probes[WS_PROBE_NR];
};

struct ws_summary {
	uint64_t bytes;
	uint64_t buffers;
	uint64_t wraps;
	uint64_t elapsed_ns;	/* to the moment the data was on disk */
	uint64_t time_ns[WS_T_NR];
	double mibps;
	struct ws_outcome outcome;
	int signo;		/* for WS_STOP_SIGNAL */
	unsigned int nprobes;
	struct ws_probe_summary probes[WS_PROBE_NR];
	const struct ws_series *series;	/* per interval, bounded */
	const struct ws_series *progress;	/* per buffer group: phases */
	const struct ws_analysis *analysis;	/* phases, slowdown, steady */
};

#endif
