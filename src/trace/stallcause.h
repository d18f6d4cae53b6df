/* stallcause.h - why a stall happened: the rules that tie a probe's wait
 * to the layer that held it, over what the trace saw while it lasted.
 * Pure: the evidence in, a cause and the figures that show it out (their
 * words are record/stall.h's).
 *
 * The rules, first that holds wins ("half" is at least half):
 *  1. dirty throttling  the probe's own thread was paused by the dirty
 *                       limit (balance_dirty_pages) for half the stall;
 *  2. cgroup I/O limit  a cgroup limits writes to the disk and, while the
 *                       stall lasted, the device wrote at STALL_LIMIT_PCT%
 *                       to STALL_LIMIT_MAX_PCT% of that limit (bytes or
 *                       requests a second): the limit set the pace (far
 *                       above it, others' writes did: not this rule);
 *  3. writeback throttling  the probe waited in rq_qos_wait (or a wbt_
 *                       function) and wbt is on for the disk (its latency
 *                       target above 0): wbt held its write back, to keep
 *                       the requests in flight under its limit;
 *  4. then a span judged: if journal commits covered half the stall (the
 *     probe waited for them), the span of the one that covered most of
 *     it, else the stall's own:
 *     queue behind other writes  the device held STALL_QUEUE_DEPTH
 *                       requests or more at once on average (their times
 *                       from issue to completion add up to that many
 *                       times the span), or one request waited half the
 *                       span to be issued: requests waited for each other;
 *     device            the device was busy for half the span with fewer
 *                       at once: it answered slowly;
 *     journal commit    (commits) neither: the commit's own work;
 *     unknown           (no commits) neither: no traced layer held it.
 * On xfs a commit is a write of its log (iclogs written back to back,
 * journal.h), its time all logging.  A commit that ran in the stall but
 * covered less than half of it, while the probe waited in the journal's
 * own code (a jbd2_ or xlog_ function), is named all the same, with its
 * share ("commit 12 ran 1.2 s, 30.0% of the stall"): the
 * probe waited for it and then for something no trace shows (xfs's log
 * completion work, a CPU).
 */
#ifndef WS_TRACE_STALLCAUSE_H
#define WS_TRACE_STALLCAUSE_H

#include <stdint.h>

#include "record/stall.h"

#define STALL_HALF_PCT 50	/* "held it": this share of the span */
#define STALL_LIMIT_PCT 90	/* "at the limit": this share of it */
#define STALL_LIMIT_MAX_PCT 150	/* ... and at most this */
#define STALL_QUEUE_DEPTH 2	/* requests at once that make a queue */

/* What the device did over a span (the trace's buckets around it). */
struct stall_span {
	uint64_t span_ns;
	uint64_t requests, bytes;	/* completed in it */
	uint64_t wrequests, wbytes;	/* ... writes */
	uint64_t busy_ns;		/* issue to completion, added up */
	uint64_t max_service_ns;	/* the longest of them */
	uint64_t max_queue_ns;		/* the longest getrq to issue */
	uint64_t request_waits;		/* bios that got a request in it */
	uint64_t max_request_wait_ns;	/* ... the longest they waited */
};

struct stall_evidence {
	uint64_t duration_ns;
	const char *site;		/* where it waited ("" unknown) */
	uint64_t paused_ns;		/* its thread paused by the dirty limit */
	uint64_t limit_bps, limit_iops;	/* cgroup write limits, 0 none */
	struct stall_span stall;	/* the device while the stall lasted */
	/* journal commits that ran while it lasted */
	uint64_t commit_covered_ns;	/* together */
	uint32_t commit_tid;		/* the one that covered most of it */
	uint64_t commit_own_ns;		/* ... how much of it */
	uint64_t commit_ns, locked_ns, flushing_ns, logging_ns;
	uint64_t commit_own_bytes;	/* its log blocks, in bytes */
	uint32_t commit_iclogs;		/* xfs: a log write of so many iclogs */
	struct stall_span commit;	/* the device while it ran */
	/* writeback throttling: its target (0: off), its limits as they
	 * stood at the stall's end (if a change of them was traced) and the
	 * changes while the stall lasted */
	uint32_t wbt_lat_us;
	bool wbt_traced;	/* its wbt_step events were read */
	bool wbt_known;
	int32_t wbt_step;
	uint32_t wbt_bg, wbt_normal, wbt_max;
	uint32_t wbt_changes;
	/* the run's first commits, pauses or wbt changes are no longer kept
	 * (their rings wrapped): rules 1, 3 and 4 judged without them, and
	 * the reason says so */
	bool overwritten;
};

/* The cause and the figures its rule used into *r, written whole (the
 * trace's lost events go in after, lostspans.h); returns the cause. */
enum ws_stall_cause stall_cause(const struct stall_evidence *ev, struct ws_stall_reason *r);

#endif
