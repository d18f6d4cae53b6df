/* evidence.h - everything the tracer keeps of a run: its block requests
 * (blockstat.h) and their timeline (timeline.h), its journal commits
 * (journal.h), its threads' pauses by the dirty limit and writeback
 * throttling's changes of its limits on the disk; the events go
 * in one at a time (events.h), the interval's figures come out, and a
 * stall is explained against what was kept (stallcause.h).  Pure: the
 * tracer feeds it the kernel's events, the unit tests recorded ones.
 */
#ifndef WS_TRACE_EVIDENCE_H
#define WS_TRACE_EVIDENCE_H

#include <stdint.h>

#include "biostat.h"
#include "blockstat.h"
#include "events.h"
#include "flusher.h"
#include "journal.h"
#include "record/record.h"
#include "timeline.h"

#define PAUSES_KEPT 4096
#define WBT_KEPT 1024

struct evidence {
	struct blockstat bs;
	struct biostat bios;	/* into bs's figures */
	struct flusher flusher;	/* into jn's figures */
	struct timeline tl;
	struct journal jn;
	/* a ring of the last PAUSES_KEPT, on the heap, grown until it first
	 * wraps (or wrapping where there was no memory to grow) */
	struct dirty_event *pauses;
	uint64_t npauses;		/* seen so far */
	size_t pauses_cap, pauses_ring;	/* allocated; the ring's size */
	struct wbt_event wbt[WBT_KEPT];	/* a ring of the last */
	uint64_t nwbt;
	uint32_t wbt_lat_us;	/* wbt's latency target, 0: off (sysfs
				   queue/wbt_lat_usec, read at the start) */
	bool wbt_traced;	/* its wbt_step events are read */
	uint64_t wbt_latest_ns, wbt_stat_latest_ns;	/* of the latest seen */
	uint32_t block_size;	/* the filesystem's: the journal's unit
				   (4096 unless told) */
};

/* A stall to explain: when (CLOCK_MONOTONIC), how long, the probe's
 * thread, where it waited; the disk's cgroup write limits (0 none). */
struct stall_query {
	uint64_t start_ns, duration_ns;
	const char *site;
	int32_t tid;
	uint64_t limit_bps, limit_iops;
};

void evidence_init(struct evidence *ev, uint64_t origin_ns);
/* What it holds on the heap: ev (inited, or all zero) may be inited again. */
void evidence_free(struct evidence *ev);
void evidence_event(struct evidence *ev, const struct trace_event *e);
/* The bios' events are read (biostat.h): their figures are meaningful
 * from now on, 0 included. */
void evidence_bios_traced(struct evidence *ev);
/* ... and the flusher's works' (flusher.h). */
void evidence_flusher_traced(struct evidence *ev);
void evidence_settle(struct evidence *ev, bool final);
void evidence_take(struct evidence *ev, struct ws_block_figures *block,
		   struct ws_journal_figures *journal);
/* Its cause and the figures that show it (stallcause.h), into *r. */
enum ws_stall_cause evidence_explain(const struct evidence *ev,
				     const struct stall_query *q,
				     struct ws_stall_reason *r);

#endif
