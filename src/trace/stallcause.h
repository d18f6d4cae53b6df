/* stallcause.h - rules naming what held a probe's stall, first match wins
 * ("half": STALL_HALF_PCT).  Pure.
 *  1. dirty: its thread paused by balance_dirty_pages half the stall;
 *  2. cgroup: the device wrote at STALL_LIMIT_PCT..MAX_PCT% of a write
 *     limit (far above, others' writes set the pace);
 *  3. wbt: it waited in rq_qos_wait or wbt_*, wbt on for the disk;
 *  4. over the main commit's span if commits covered half, else the
 *     stall's: queue (STALL_QUEUE_DEPTH in flight, or an issue waited half
 *     the span), device (busy half), else journal commit or unknown.
 * A lesser commit is named with its share if the probe waited in jbd2_ or
 * xlog_ code: what followed (xfs log completion) is not traced.
 */
#ifndef WS_TRACE_STALLCAUSE_H
#define WS_TRACE_STALLCAUSE_H

#include <stdint.h>

#include "record/stall.h"

#define STALL_HALF_PCT 50
#define STALL_LIMIT_PCT 90
#define STALL_LIMIT_MAX_PCT 150
#define STALL_QUEUE_DEPTH 2

/* The device over a span (the trace's buckets around it). */
struct stall_span {
	uint64_t span_ns;
	uint64_t requests, bytes;	/* completed */
	uint64_t wrequests, wbytes;
	uint64_t busy_ns;		/* issue to completion, added up */
	uint64_t max_service_ns;
	uint64_t max_queue_ns;		/* the longest getrq to issue */
	uint64_t request_waits;		/* bios that got a request */
	uint64_t max_request_wait_ns;
};

struct stall_evidence {
	uint64_t duration_ns;
	const char *site;		/* "" unknown */
	uint64_t paused_ns;		/* by the dirty limit */
	uint64_t limit_bps, limit_iops;	/* cgroup write limits, 0 none */
	struct stall_span stall;
	uint64_t commit_covered_ns;	/* by all commits in the stall */
	uint32_t commit_tid;		/* the one that covered most of it */
	uint64_t commit_own_ns;
	uint64_t commit_ns, locked_ns, flushing_ns, logging_ns;
	uint64_t commit_own_bytes;	/* its log blocks */
	uint32_t commit_iclogs;		/* xfs */
	struct stall_span commit;	/* the device while it ran */
	/* wbt: target (0 off), limits at the stall's end if known, changes */
	uint32_t wbt_lat_us;
	bool wbt_traced;
	bool wbt_known;
	int32_t wbt_step;
	uint32_t wbt_bg, wbt_normal, wbt_max;
	uint32_t wbt_changes;
	/* rings wrapped: rules 1, 3, 4 judged without the oldest events */
	bool overwritten;
};

/* Writes *r whole (lost events are added after, lostspans.h). */
enum ws_stall_cause stall_cause(const struct stall_evidence *ev, struct ws_stall_reason *r);

#endif
