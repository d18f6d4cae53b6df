/* flusher.h - the kernel's flusher at work on the traced disk: each
 * writeback work (writeback_start to writeback_written on the disk's bdi),
 * why it ran (the kernel's reasons: background, periodic, sync, ...) and
 * the pages it wrote.  Pure, as blockstat.h; its figures go into the
 * interval's and the run's struct ws_journal_figures (record.h), beside
 * the dirty limit's pauses: the page cache's side of writeback.
 *
 * A work counts where it is first seen: as it begins, or as it ends when
 * it began before the trace.  A bdi runs one work at a time for each
 * cgroup writing to it (its wb): a work's end is matched to its start by
 * the cgroup.  Its pages count as it ends, when its start was seen: its
 * count at its start less its count at its end (a background work's
 * starts at LONG_MAX: what is left of it).  A long work (background
 * writeback behind a flood) may outlast a short run: its pages are then
 * not counted, and the run's figures say how many still ran.
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

/* Works begun and not yet ended, one a cgroup; more and the oldest goes. */
#define FLUSHER_OPEN 16

struct flusher {
	struct { uint64_t cgroup_ino, ts_ns; int64_t nr_pages; bool used; } open[FLUSHER_OPEN];
};

void flusher_init(struct flusher *f);
/* Works begun and not yet ended (at the run's end: still running). */
unsigned int flusher_running(const struct flusher *f);
void flusher_event(struct flusher *f, const struct wb_event *e,
		   struct ws_journal_figures *iv, struct ws_journal_figures *run);

#endif
