/* record/journal.h - traced over an interval or the run: the journal's
 * commits (jbd2's, or xfs's log writes), the flusher's work on the disk
 * and the dirty limit's pauses. */
#ifndef WS_RECORD_JOURNAL_H
#define WS_RECORD_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "record/block.h"

/* Commits count when they end; times are summed. jbd2's phases: locked
 * (waiting for handles), flushing (ordered data submitted), logging. */
struct ws_journal_figures {
	bool on;
	bool xfs;		/* a commit is one log write: all logging */
	uint64_t commits;
	uint64_t time_ns, max_ns;
	uint64_t locked_ns, flushing_ns, logging_ns;
	uint64_t blocks;	/* jbd2 */
	uint64_t iclogs, log_bytes;	/* xfs */
	/* the run's, from the filesystem's own counters over the traced
	 * span: xfs's stats (512-byte blocks), jbd2's info (average ms x
	 * count at each end) */
	bool have_counted;
	uint64_t counted_log_writes, counted_log_blocks;
	bool have_jbd2_counted;
	uint64_t counted_transactions, counted_logging_ms;
	/* the flusher (src/trace/flusher.h): works ended, by reason */
	bool wb_on;
	uint64_t wb_works;
	uint64_t wb_pages;	/* by passes whose start was seen */
	bool wb_running_known;
	uint64_t wb_running;	/* the run's: works in a pass at its end */
	uint64_t wb_by_reason[WS_WB_REASONS];
	/* writestress's threads paused by balance_dirty_pages */
	bool dirty_on;
	uint64_t dirty_pauses, dirty_paused_ns;
	uint64_t writer_paused_ns;	/* of it */
};

#endif
