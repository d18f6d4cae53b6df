/* trace.h - the kernel's own account of the target's device and
 * filesystem, read from its tracepoints through a private tracefs instance
 * with libtracefs and libtraceevent, the trace-cmd project's libraries:
 * the disk's block requests (getrq, issue, complete) and the bios behind
 * them (queued, merged, split), the filesystem's journal commits (jbd2:
 * start, locking, flushing, logging, end, run_stats; xfs: its log's
 * iclogs), this process's pauses by the dirty limit (balance_dirty_pages),
 * writeback throttling's steps (wbt) and the kernel flusher's works
 * (writeback_start, _written) - and from them, why each stall happened.
 *
 * The instance is writestress's alone ("writestress-PID", filtered to the
 * target's disk, its ring bounded per CPU): the machine's own tracing is
 * never touched.  trace_stop() removes it, also at the end of a run
 * stopped by a signal; one left by a writestress that was killed is
 * removed by the next start.  A tracer thread drains the ring every
 * 50 ms into the figures (blockstat.h); events the ring dropped are
 * counted, never silent.
 *
 * trace_start() and trace_stop() in the main thread, while it may still
 * raise its capabilities; trace_take() from the recorder thread.
 */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

struct ws_trace;
struct ws_fingerprint;

/* The whole disk under the target (a partition's disk), whose requests
 * are traced: 0, or -errno with why (not on a block device; on dm or md,
 * whose requests are their disks'). */
struct trace_disk {
	unsigned int major, minor;
	unsigned int fs_major, fs_minor;	/* the filesystem's (its journal's) */
	unsigned int fs_block;	/* its block size: the journal's unit (0: 4096) */
	enum trace_journal {
		TRACE_JOURNAL_NONE,
		TRACE_JOURNAL_JBD2,	/* ext3/ext4: commits through jbd2 */
		TRACE_JOURNAL_XFS,	/* xfs: its log's buffers (iclogs) */
	} journal;
	char fs_name[64];	/* the filesystem's device ("loop3", "sda2"):
				   xfs counts its log writes under it */
	char sysdir[600];	/* its /sys/devices/... directory */
};
int trace_disk_of(const struct ws_fingerprint *fp, struct trace_disk *disk,
		  char *why, size_t len);

/* Ready a trace of the disk (the whole disk, not a partition): the
 * instance made, filtered, its events chosen; nothing recorded before
 * trace_run().  0 with *out set, or -errno with why (a line for the
 * user: what is missing). */
int trace_start(struct ws_trace **out, const struct trace_disk *disk,
		char *why, size_t len);

/* Start tracing: the events on, the tracer thread started (it drops every
 * capability first).  0 or -errno (ws_thread_last_failure() says what). */
int trace_run(struct ws_trace *t);

/* The figures since the last take (the first: since the start). */
void trace_take(struct ws_trace *t, struct ws_block_figures *block,
		struct ws_journal_figures *journal);

/* Count what needs the writer's start (origin_ns, CLOCK_MONOTONIC): the
 * device's write latency round by round (the steady state's rounds of
 * round_ns) and what the observer's work cost the writer (observer.h).
 * The recorder's, once the writers started.  0 or -ENOMEM. */
int trace_rounds(struct ws_trace *t, uint64_t origin_ns, uint64_t round_ns);

/* The run's traced figures, copied out for the recorder: nothing in it
 * points into the trace.  rounds is malloc'd, the caller's to free. */
struct trace_totals {
	struct ws_block_figures block;
	uint64_t write_p50_ns, write_p99_ns;	/* service times; 0: no write */
	bool rounds_on;			/* trace_rounds counted */
	struct ws_round_device *rounds;	/* nrounds, from the writer's start */
	size_t nrounds;
	uint64_t rounds_outside;	/* writes in no round */
	struct ws_observer_cost observer;
	struct ws_journal_figures journal;
	uint64_t io_limit_bps, io_limit_iops;	/* the disk's cgroup limits */
};

/* The run's figures, the ring drained first.  The recorder's, at the end,
 * before its analysis.  0, or -ENOMEM: no rounds (rounds_on false). */
int trace_totals(struct ws_trace *t, struct trace_totals *out);

/* Why a stall happened (stallcause.h's rules), from what was traced while
 * it lasted: start_ns (CLOCK_MONOTONIC) for duration_ns, site where it
 * waited ("" unknown), tid the probe's thread.  After trace_totals. */
struct ws_stall_reason trace_explain(struct ws_trace *t, uint64_t start_ns,
				     uint64_t duration_ns, const char *site, int tid);

/* Stop the thread and remove the instance.  NULL: nothing. */
void trace_stop(struct ws_trace *t);

/* Remove the instances of writestress processes that no longer exist;
 * how many. */
unsigned int trace_remove_stale(void);

#endif
