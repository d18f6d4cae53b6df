/* record/probe.h - a probe's figures: over an interval and over the run, its
 * stalls (record/stall.h), its wait sites and its latency buckets
 * (the recorder makes them from the monitor's). */
#ifndef WS_RECORD_PROBE_H
#define WS_RECORD_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/hist.h"
#include "record/kinds.h"
#include "record/settings.h"
#include "record/stall.h"

#define WS_MAX_STALLS 256	/* stall records kept a probe (then counted) */
#define WS_MAX_SITES 16		/* wait sites named a probe (then "other") */
#define WS_TOP_SITES 3		/* named in the summary */

struct ws_site_count {
	char name[WS_SITE_LEN];
	uint64_t samples;	/* watcher samples taken there */
	uint64_t stalls;	/* stalls that waited there most */
};

/* Latencies in fixed buckets, for outputs that keep histograms (--prom):
 * le[b] counts the operations that took at most ws_latency_bounds_ns[b]
 * (cumulative: le[] never decreases along b).  A probe's since the start
 * (no bucket ever decreases from one interval to the next), within
 * hist.h's bound: one up to 1/128 over a bound may count in it (made by
 * recorder_add_latencies()); the traced device's requests' exactly, over
 * an interval or the run (ws_latency_add()). */
#define WS_LATENCY_BUCKETS 15
extern const uint64_t ws_latency_bounds_ns[WS_LATENCY_BUCKETS];	/* 1 ms .. 60 s */

struct ws_latency_totals {
	uint64_t count;			/* operations that completed */
	uint64_t sum_ns;		/* their latencies added up */
	uint64_t le[WS_LATENCY_BUCKETS];
};

/* One operation of ns into t; from's counts added into to
 * (src/record/latency.c). */
void ws_latency_add(struct ws_latency_totals *t, uint64_t ns);
void ws_latency_merge(struct ws_latency_totals *to,
		      const struct ws_latency_totals *from);

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
	struct ws_latency_totals latency;	/* since the start */
	/* since the start: probes completed, their p99 and max (the live
	 * line's; its p99 only where the count supports it, hist.h) */
	uint64_t run_count, run_p99_ns, run_max_ns;
};

/* Which of an interval's figures a probe has: its percentiles only when
 * some probe completed, its max also when one is in flight; an output
 * shows a figure it has not got as empty, never as 0. */
static inline bool ws_probe_has_percentiles(const struct ws_probe_interval *pi)
{
	return pi->count > 0;
}

static inline bool ws_probe_has_max(const struct ws_probe_interval *pi)
{
	return pi->count > 0 || pi->inflight_ns > 0;
}

/* One probe over the whole run. */
struct ws_probe_summary {
	const char *name;
	uint64_t count, errors;
	int last_error;			/* -errno of the latest failure */
	char last_fail[96];		/* what failed beyond errno (a
					   command's exit status), or "" */
	char last_stderr[WS_STDERR_LINE];	/* the failed command's last
						   line of stderr, or "" */
	uint64_t p50, p90, p99, p999, max;	/* raw: as measured */
	uint64_t c_count, c_p50, c_p90, c_p99, c_p999;	/* corrected */
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	struct ws_stall stalls[WS_MAX_STALLS];	/* the first nrecorded */
	unsigned int nrecorded;
	/* every wait site, most sampled first; the first ntop are named in
	 * the summary */
	struct ws_site_count sites[WS_MAX_SITES];
	unsigned int nsites, ntop;
	uint64_t sched_misses;		/* slots skipped: one ran long */
	uint64_t cpu_ns;		/* its thread's CPU time */
	/* operations that ended after the writer did (a probe stuck past
	 * the end): in the figures above, in no interval */
	uint64_t after_end, after_end_max_ns;
	struct hist raw;		/* every latency, as measured */
	struct ws_latency_totals latency;	/* raw, in fixed buckets */
};

#endif
