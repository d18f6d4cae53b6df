/* flusher.h - the flusher's works on the disk: why each ran, pages
 * written.  Pure.  The kernel traces a work's passes (pages left before,
 * after); a start matching its cgroup wb's last end is the next pass.
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
	int64_t nr_pages;	/* still to write */
	int32_t reason;		/* enum ws_wb_reason */
	uint64_t cgroup_ino;
};

struct flusher_wb {
	bool used;
	uint64_t cgroup_ino, seen_ns;
	bool in_pass;			/* start read, not its end */
	uint64_t start_ns;
	int64_t start_pages;
	bool have_end;
	bool end_alone;			/* no start read before it */
	uint64_t end_ns;
	int64_t end_pages;
	int32_t end_reason;
};

/* Beyond this, the wb seen longest ago is dropped. */
#define FLUSHER_WBS 16

struct flusher {
	struct flusher_wb wb[FLUSHER_WBS];
};

void flusher_init(struct flusher *f);
void flusher_event(struct flusher *f, const struct wb_event *e,
		   struct ws_journal_figures *iv, struct ws_journal_figures *run);
/* Works in a pass now. */
unsigned int flusher_running(const struct flusher *f);

#endif
