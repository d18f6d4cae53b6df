/* evidence.h - what the tracer keeps of a run, stalls judged against it. */
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
	struct fileext file;	/* bs's: the writer's file's sectors */
	struct biostat bios;	/* counts into bs's figures */
	struct flusher flusher;	/* counts into jn's figures */
	struct timeline tl;
	struct journal jn;
	/* heap ring of the last PAUSES_KEPT, grown until it first wraps */
	struct dirty_event *pauses;
	uint64_t npauses;		/* seen so far */
	size_t pauses_cap, pauses_ring;
	struct wbt_event wbt[WBT_KEPT];
	uint64_t nwbt;
	uint32_t wbt_lat_us;	/* queue/wbt_lat_usec at the start, 0 off */
	bool wbt_traced;
	uint64_t wbt_latest_ns, wbt_stat_latest_ns;
	uint32_t block_size;	/* the journal's unit (4096 unless told) */
};

/* limit_*: the disk's cgroup write limits, 0 none. */
struct stall_query {
	uint64_t start_ns, duration_ns;
	const char *site;
	int32_t tid;
	uint64_t limit_bps, limit_iops;
};

void evidence_init(struct evidence *ev, uint64_t origin_ns);
/* ev (inited, or all zero) may be inited again. */
void evidence_free(struct evidence *ev);
void evidence_event(struct evidence *ev, const struct trace_event *e);
/* From now on the bios' (flusher's) figures mean something, 0 included. */
void evidence_bios_traced(struct evidence *ev);
void evidence_flusher_traced(struct evidence *ev);
void evidence_settle(struct evidence *ev, bool final);
void evidence_take(struct evidence *ev, struct ws_block_figures *block,
		   struct ws_journal_figures *journal);
enum ws_stall_cause evidence_explain(const struct evidence *ev,
				     const struct stall_query *q,
				     struct ws_stall_reason *r);

#endif
