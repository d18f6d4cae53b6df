/* record/journal.h - the filesystem's journal commits (jbd2, xfs's log writes), the
 * kernel's flusher at work on the disk and the dirty limit's pauses, as
 * traced over an interval or the run. */
#ifndef WS_RECORD_JOURNAL_H
#define WS_RECORD_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "record/block.h"

/* The target filesystem's journal commits (ext4's jbd2), as its
 * tracepoints saw them, counted when they end: over an interval or the
 * run.  The phases are jbd2's own: locked (waiting for the running
 * transaction's handles), flushing (ordered data submitted) and logging
 * (the log written and the ordered data waited on). */
struct ws_journal_figures {
	bool on;		/* commits traced: the next ones are meaningful */
	bool xfs;		/* xfs's log: a commit is a log write (iclogs
				   written back to back), all of it logging */
	uint64_t commits;
	uint64_t time_ns, max_ns;	/* start to end, summed; the longest */
	uint64_t locked_ns, flushing_ns, logging_ns;	/* summed */
	uint64_t blocks;	/* in the transactions committed (jbd2) */
	uint64_t iclogs, log_bytes;	/* xfs: its log buffers written */
	/* xfs, the run's: its own count of its log writes and their 512-byte
	 * blocks over the traced span (/sys/fs/xfs/DEV/stats/stats) */
	bool have_counted;
	uint64_t counted_log_writes, counted_log_blocks;
	/* jbd2, the run's: its own count of its transactions over the traced
	 * span and their logging time (its average in whole ms times its
	 * count, at each end: /proc/fs/jbd2/DEV-8/info) */
	bool have_jbd2_counted;
	uint64_t counted_transactions, counted_logging_ms;
	/* the kernel's flusher at work on the disk (writeback_start to
	 * writeback_written: src/trace/flusher.h): its works that ended, by
	 * why they ran, and the pages they wrote */
	bool wb_on;		/* traced: these are meaningful */
	uint64_t wb_works;	/* seen (flusher.h: a work, not a pass) */
	uint64_t wb_pages;	/* written by the passes whose start was seen */
	bool wb_running_known;	/* the run's figures: wb_running is */
	uint64_t wb_running;	/* works in a pass at the run's end */
	uint64_t wb_by_reason[WS_WB_REASONS];
	/* threads of writestress paused by the dirty limit
	 * (balance_dirty_pages): how often, and for how long, summed */
	bool dirty_on;		/* traced: these three are meaningful */
	uint64_t dirty_pauses, dirty_paused_ns;
	uint64_t writer_paused_ns;	/* of it, the writer threads' */
};

#endif
