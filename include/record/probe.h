/* record/probe.h - a probe's figures over an interval and the run. */
#ifndef WS_RECORD_PROBE_H
#define WS_RECORD_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hist.h"
#include "record/kinds.h"
#include "record/settings.h"
#include "record/stall.h"

#define WS_MAX_STALLS 256	/* then only counted */
#define WS_MAX_SITES 16		/* then "other" */
#define WS_TOP_SITES 3		/* named in the summary */

struct ws_site_count {
	char name[WS_SITE_LEN];
	uint64_t samples;
	uint64_t stalls;	/* stalls that waited there most */
};

/* Cumulative: le[b] counts those of at most ws_latency_bounds_ns[b]; from
 * a hist (probes), one up to 1/128 over may count in it. */
#define WS_LATENCY_BUCKETS 15
extern const uint64_t ws_latency_bounds_ns[WS_LATENCY_BUCKETS];	/* 1 ms .. 60 s */

struct ws_latency_totals {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t le[WS_LATENCY_BUCKETS];
};

void ws_latency_add(struct ws_latency_totals *t, uint64_t ns);
void ws_latency_merge(struct ws_latency_totals *to,
		      const struct ws_latency_totals *from);

/* Why a percentile is not shown (hist_percentile_shown): "p99 needs 1000
 * probes".  Returns buf. */
char *ws_percentile_needs_words(double q, char *buf, size_t len);

struct ws_probe_interval {
	const char *name;
	uint64_t count;
	uint64_t p50_ns, p99_ns;
	uint64_t max_ns;	/* or the age of one in flight */
	uint64_t stalls;	/* completed */
	uint64_t stalls_total;
	uint64_t errors;
	uint64_t inflight_ns;	/* 0: none */
	bool blocked;		/* in flight for at least --stall */
	char site[WS_SITE_LEN];
	struct ws_latency_totals latency;	/* since the start */
	/* since the start */
	uint64_t run_count, run_p99_ns, run_max_ns;
};

/* A figure a probe has not got is shown empty, not 0. */
static inline bool ws_probe_has_percentiles(const struct ws_probe_interval *pi)
{
	return pi->count > 0;
}

static inline bool ws_probe_has_max(const struct ws_probe_interval *pi)
{
	return pi->count > 0 || pi->inflight_ns > 0;
}

/* Why a probe's command or query failed, beyond its errno. */
enum ws_probe_fail {
	WS_FAIL_NONE,
	WS_FAIL_TIMEOUT,	/* killed after --probe-timeout */
	WS_FAIL_LOST,		/* its exit status was lost */
	WS_FAIL_EXIT,		/* code: its exit status */
	WS_FAIL_SIGNAL,		/* code: the signal that killed it */
	WS_FAIL_SQLITE,		/* text: SQLite's own message */
};

struct ws_probe_failure {
	enum ws_probe_fail kind;
	int code;
	char text[88];
};

/* The failure in words; with no kind, err's (-errno) strerror.  Returns
 * buf. */
const char *ws_probe_failure_words(const struct ws_probe_failure *f, int err,
				   char *buf, size_t len);

struct ws_probe_summary {
	const char *name;
	uint64_t count, errors;
	int last_error;			/* -errno */
	struct ws_probe_failure last_fail;
	char last_stderr[WS_STDERR_LINE];	/* of the failed command; "" if none */
	uint64_t p50, p90, p99, p999, max;
	uint64_t c_count, c_p50, c_p90, c_p99, c_p999;	/* corrected */
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	struct ws_stall stalls[WS_MAX_STALLS];	/* the first nrecorded */
	unsigned int nrecorded;
	/* most sampled first */
	struct ws_site_count sites[WS_MAX_SITES];
	unsigned int nsites, ntop;
	uint64_t sched_misses;		/* slots skipped: one ran long */
	uint64_t cpu_ns;
	/* ended after the writer: in no interval */
	uint64_t after_end, after_end_max_ns;
	struct hist raw;
	struct ws_latency_totals latency;
};

#endif
