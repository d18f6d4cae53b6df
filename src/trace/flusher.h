/* flusher.h - the kernel's flusher at work on the traced disk: each
 * writeback work (wb_writeback: writeback_start to writeback_written on
 * the disk's bdi), why it ran (the kernel's reasons: background,
 * periodic, sync, ...) and the pages it wrote.  Pure, as blockstat.h;
 * its figures go into the interval's and the run's struct
 * ws_journal_figures (record.h), beside the dirty limit's pauses: the
 * page cache's side of writeback.
 *
 * The kernel traces each pass of a work's loop, not the work: a pass
 * starts with the work's count of pages still to write and ends with
 * what is left.  A bdi runs one work at a time for each cgroup writing to
 * it (its wb), so passes are matched by the cgroup: a start whose count
 * and reason are the last end's is the same work's next pass.  A work
 * counts where it is first seen (its first pass's start, or an end whose
 * start the trace never read: begun before it); a pass's pages count at
 * its end, when its start was seen (read before or after it: the rings
 * are read CPU by CPU).  A background work's count starts at LONG_MAX:
 * what is left of it is what it wrote.  A work may outlast a short run:
 * the run's figures say how many were in a pass at its end.
 */
#ifndef WS_TRACE_FLUSHER_H
#define WS_TRACE_FLUSHER_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

/* writeback_start or writeback_written (end). */
struct wb_event {
	uint64_t ts_ns;
	bool end;
	int64_t nr_pages;	/* the work's pages still to write */
	int32_t reason;		/* enum ws_wb_reason (the kernel's wb_reason) */
	uint64_t cgroup_ino;	/* the wb's cgroup */
};

/* One cgroup's wb on the disk: its pass in flight, its last end. */
struct flusher_wb {
	bool used;
	uint64_t cgroup_ino, seen_ns;	/* seen_ns: its latest event */
	bool in_pass;			/* a pass's start read, not its end */
	uint64_t start_ns;
	int64_t start_pages;
	bool have_end;			/* the last pass's end ... */
	bool end_alone;			/* ... read with no start before it */
	uint64_t end_ns;
	int64_t end_pages;
	int32_t end_reason;
};

/* wbs at once; more and the one seen longest ago goes. */
#define FLUSHER_WBS 16

struct flusher {
	struct flusher_wb wb[FLUSHER_WBS];
};

void flusher_init(struct flusher *f);
void flusher_event(struct flusher *f, const struct wb_event *e,
		   struct ws_journal_figures *iv, struct ws_journal_figures *run);
/* Works in a pass now (at the run's end: still running). */
unsigned int flusher_running(const struct flusher *f);

#endif
