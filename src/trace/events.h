/* events.h - the events the tracer reads, one type for all of them, and
 * their one-line text form: what WS_TRACE_RECORD writes and the unit
 * tests' recorded fixtures hold (tests/fixtures/trace/), read back by the
 * same code that wrote it.
 *
 *   G|Q|D|C TS SECTOR NR_SECTOR RWBS [COMM]  a block request: getrq,
 *                                      insert, issue, complete
 *                                      (blockstat.h); COMM, getrq's
 *                                      submitter, its blanks as '_' 
 *   B|M|R TS SECTOR NR_SECTOR RWBS     a bio queued to the disk, a bio
 *                                      merged into a request, a request
 *                                      merged into another (biostat.h)
 *   S TS SECTOR NEW_SECTOR RWBS        a bio split: its first part goes
 *                                      on at SECTOR, the rest at NEW_SECTOR
 *   J S|K|F|L|E TS TID                 a journal commit starts, locks,
 *                                      flushes, logs, ends (journal.h)
 *   J B TS TID BLOCKS LOGGED           the commit's jbd2_run_stats
 *   J I TS LSN BYTES                   an xfs log buffer (iclog) is
 *                                      written: its log sequence
 *                                      number, its bytes
 *   J O TS LSN                         ... and done
 *   P TS TID PAUSE_NS [w]              a thread of writestress paused by
 *                                      the dirty limit (balance_dirty_pages);
 *                                      w: a writer thread
 *   W TS STEP WINDOW_US BG NORMAL MAX  writeback throttling (wbt) changed
 *                                      its limits on the disk (wbt_step)
 *   V TS RMIN RMEAN RSAMPLES WMEAN WSAMPLES  what wbt judged by
 *                                      (wbt_stat, ns)
 *   F S|E TS NR_PAGES REASON CGROUP    the flusher began (S) or ended (E)
 *                                      a writeback work on the disk
 *                                      (flusher.h)
 * TS is CLOCK_MONOTONIC ns; lines starting with '#' are comments, and
 * these the tracer writes too (read by the tests, not by this parser):
 *   # io_limit_bps BPS iops IOPS       the disk's cgroup write limits
 *   # wbt_lat_us US                    wbt's latency target on the disk
 *                                      (0: wbt is off there)
 *   # origin TS                        where the timeline's buckets start
 *   # stall TS DURATION TID SITE -> CAUSE   a stall it explained, and how
 *   # lost TS TOTAL                    at each take, the ring's count of
 *                                      events lost so far (lostspans.h)
 */
#ifndef WS_TRACE_EVENTS_H
#define WS_TRACE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blockstat.h"
#include "flusher.h"

enum jnl_phase {
	JNL_START,	/* jbd2_start_commit */
	JNL_LOCKING,	/* jbd2_commit_locking: waiting for handles */
	JNL_FLUSHING,	/* jbd2_commit_flushing: ordered data submitted */
	JNL_LOGGING,	/* jbd2_commit_logging: the log written, data waited on */
	JNL_END,	/* jbd2_end_commit */
	JNL_STATS,	/* jbd2_run_stats: its blocks */
	JNL_ICLOG,	/* xlog_iclog_syncing: an xfs iclog's write begins */
	JNL_ICLOG_DONE,	/* xlog_iclog_sync_done: ... and ends */
	JNL_NR
};

struct jnl_event {
	enum jnl_phase phase;
	uint64_t ts_ns;
	uint32_t tid;		/* the transaction */
	uint32_t blocks, logged;	/* JNL_STATS only */
	uint64_t lsn;		/* an iclog's (JNL_ICLOG, _DONE): its name */
	uint32_t bytes;		/* JNL_ICLOG only */
};

struct dirty_event {
	uint64_t ts_ns;		/* when the pause began */
	int32_t tid;		/* the thread paused */
	uint64_t pause_ns;
	bool writer;		/* a writer thread ("ws-writer...") */
};

/* wbt_step: writeback throttling scaled its limits.  Step above 0: it
 * cut them (reads missed the latency target), below 0: it raised them;
 * the three limits are requests in flight at once for background
 * writeback, other writes, and writes someone is waiting for. */
struct wbt_event {
	uint64_t ts_ns;
	int32_t step;
	uint64_t window_us;	/* its monitoring window */
	uint32_t bg, normal, max;
};

enum bio_event_kind {
	BIO_QUEUE,	/* block_bio_queue: after any cgroup limit held it */
	BIO_MERGE,	/* block_bio_backmerge, _frontmerge: into a request */
	BIO_RQ_MERGE,	/* block_rq_merge: a request into another */
	BIO_SPLIT,	/* block_split */
};

struct bio_event {
	enum bio_event_kind kind;
	uint64_t ts_ns;
	uint64_t sector;
	uint64_t nr_sector;	/* BIO_SPLIT: the rest's sector */
	char rwbs[10];
};

/* wbt_stat: the latencies wbt judged its window by, as it scaled (ns;
 * reads' least and mean, writes' mean, and how many of each). */
struct wbt_stat_event {
	uint64_t ts_ns;
	uint64_t rmin, rmean, wmean;
	int64_t rsamples, wsamples;
};

enum trace_kind { TE_BLOCK, TE_JOURNAL, TE_DIRTY, TE_WBT, TE_BIO, TE_WB, TE_WBT_STAT };
#define TE_KINDS (TE_WBT_STAT + 1)

struct trace_event {
	enum trace_kind kind;
	union {
		struct blk_event blk;
		struct jnl_event jnl;
		struct dirty_event dirty;
		struct wbt_event wbt;
		struct bio_event bio;
		struct wb_event wb;
		struct wbt_stat_event wbt_stat;
	};
};

/* One event as a line (with its '\n'). */
void trace_event_write(FILE *f, const struct trace_event *e);
/* A line back: 1 an event, 0 a comment or blank line, -1 not an event. */
int trace_event_parse(const char *line, struct trace_event *e);

#endif
