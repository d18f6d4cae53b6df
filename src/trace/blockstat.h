/* blockstat.h - block requests into figures.  Pure; the tracer's lock. */
#ifndef WS_BLOCKSTAT_H
#define WS_BLOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/hist.h"
#include "record/record.h"
#include "fileext.h"
#include "observer.h"
#include "roundlat.h"
#include "timeline.h"

enum blk_event_kind {
	BLK_GETRQ,	/* where the device's own counters start its time */
	BLK_INSERT,
	BLK_ISSUE,
	BLK_COMPLETE,
};

/* rwbs as the kernel's blk_fill_rwbs: "WS", "FWS", "F", "R". */
struct blk_event {
	enum blk_event_kind kind;
	uint64_t ts_ns;
	uint64_t sector;
	uint32_t nr_sector;
	char rwbs[10];
	char comm[16];	/* BLK_GETRQ: the submitter ("" unknown) */
};

/* From getrq's task name: "ws-writer*", "ws-probe-*", "jbd2/...", "kworker/...".
 * A worker's data write in blockstat's file is the writer's. */
enum ws_submitter blockstat_submitter(const char *comm);

/* Requests in flight, hashed; beyond this, completions go unmatched. */
#define BLK_INFLIGHT 4096

struct blk_slot {
	uint64_t key;		/* sector, flush bit; 0: free */
	uint64_t start_ns, issue_ns;	/* start: getrq or insert */
	enum ws_submitter sub;
};

/* Completions read before their issue wait up to a second. */
#define BLK_PENDING 256
#define BLK_PENDING_NS 1000000000ull

/* The last completions, to spot a request completed twice. */
#define BLK_DONE 64
struct blk_done {
	uint64_t key, ts_ns;
};

/* blk-flush sends one at a time (sector 0 at issue, -1 at completion); it
 * is booked to the last getrq with F or FUA within a second before it. */
#define BLK_FLUSHES 8
struct blk_flush {
	uint64_t ts_ns;
	enum ws_submitter sub;
};

/* Empty flush requests ("FWS") are all at sector 0: kept in order, not hashed. */
#define BLK_EMPTY 16
struct blk_empty {
	uint64_t start_ns;
	enum ws_submitter sub;
};

/* A worker's data write completed while the file's extents were being
 * read: counted once they come in (blockstat_decide). */
#define BLK_UNDECIDED 128
struct blk_undecided {
	struct blk_event e;
	uint64_t wait_ns, service_ns;
};

struct blockstat {
	struct blk_slot *slot;
	unsigned int nslots;
	struct blk_empty empty[BLK_EMPTY];	/* oldest first */
	unsigned int nempty;
	struct blk_flush flight[BLK_FLUSHES];
	unsigned int nflight;
	uint64_t early[BLK_FLUSHES];	/* completions before their issue */
	unsigned int nearly;
	enum ws_submitter flush_sub;
	uint64_t flush_asked_ns;
	unsigned int used;
	struct blk_event pending[BLK_PENDING];
	unsigned int npending;
	uint64_t latest_ns;
	uint64_t swept_ns;		/* stale slots last looked for */
	struct blk_done done[BLK_DONE];
	unsigned int ndone;
	struct ws_block_figures iv;	/* since the last take */
	struct ws_block_figures run;
	struct hist write_service;	/* writes, issue to completion */
	struct roundlat rounds;
	struct observer obs;
	struct timeline *timeline;	/* NULL, or completions go here too */
	const struct fileext *file;	/* NULL, or the writer's file's place */
	bool file_asked;		/* a newer place is being read */
	struct blk_undecided undecided[BLK_UNDECIDED];
	unsigned int nundecided;
	uint64_t unmatched_bytes;
};

void blockstat_init(struct blockstat *b);
/* The undecided writes counted, by the file's place as it is now. */
void blockstat_decide(struct blockstat *b);
/* Frees the heap parts; b may be inited again. */
void blockstat_free(struct blockstat *b);
void blockstat_event(struct blockstat *b, const struct blk_event *e);
/* After a drain; final: all early completions counted unmatched. */
void blockstat_settle(struct blockstat *b, bool final);
/* The figures since the last take; restarts them. */
void blockstat_take(struct blockstat *b, struct ws_block_figures *out);

#endif
