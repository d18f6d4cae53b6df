/* blockstat.h - block requests, event by event, into the figures of an
 * interval and of the run (struct ws_block_figures, record.h).  Pure: no
 * tracefs here; the tracer (tracer.c) hands it the events it reads, and
 * the unit tests hand it recorded streams.  One owner at a time (the
 * tracer holds its lock around it).
 */
#ifndef WS_BLOCKSTAT_H
#define WS_BLOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/hist.h"
#include "record/record.h"
#include "observer.h"
#include "roundlat.h"
#include "timeline.h"

enum blk_event_kind {
	BLK_GETRQ,	/* a bio got its request: where the device's own
			   counters start a request's time */
	BLK_INSERT,	/* into the scheduler's queue */
	BLK_ISSUE,	/* to the driver */
	BLK_COMPLETE,
};

/* One block_getrq, block_rq_issue or block_rq_complete (block_rq_insert
 * in older recordings) of the traced device: its time (CLOCK_MONOTONIC
 * ns), where and how much, and its rwbs ("WS", "FWS", "F", "R"; the
 * kernel's blk_fill_rwbs). */
struct blk_event {
	enum blk_event_kind kind;
	uint64_t ts_ns;
	uint64_t sector;
	uint32_t nr_sector;
	char rwbs[10];
	char comm[16];	/* BLK_GETRQ: the task that submitted it ("" unknown) */
};

/* Who submitted a request, from its getrq's task name: writestress's
 * writer ("ws-writer", "ws-writerN") or probe threads ("ws-probe-..."),
 * the journal ("jbd2/..."), the kernel's workers ("kworker/...": the
 * flusher, mostly), or anyone else. */
enum ws_submitter blockstat_submitter(const char *comm);

/* Requests between insert or issue and completion, by where they are
 * (a hash table on the heap, half full at most as it doubles from 16 slots
 * to BLK_INFLIGHT, a power of two); more at once than BLK_INFLIGHT - 1 are
 * completions left unmatched (counted), and so are those a table that
 * could not grow had no room for. */
#define BLK_INFLIGHT 4096

struct blk_slot {
	uint64_t key;		/* sector, flush bit; 0: free */
	uint64_t start_ns, issue_ns;	/* getrq or insert; issue */
	enum ws_submitter sub;	/* from its getrq (other when unseen) */
};

/* Completions read before their issue: the ring is read CPU by CPU, so
 * an issue on one CPU may come in the drain after its completion on
 * another.  They wait here for it, a second at most. */
#define BLK_PENDING 256
#define BLK_PENDING_NS 1000000000ull

/* The last completions, to know a request's second one (blockstat.c). */
#define BLK_DONE 64
struct blk_done {
	uint64_t key, ts_ns;
};

/* Cache flushes: the kernel sends one at a time (blk-flush), its sector
 * 0 at issue and -1 at completion, so a completion is its latest issue
 * before it.  A flush is booked to whoever last asked for one: the last
 * getrq with a flush or FUA in its rwbs (a journal commit's "FWFSM", an
 * fsync's empty "FWS") within a second before it. */
#define BLK_FLUSHES 8
struct blk_flush {
	uint64_t ts_ns;
	enum ws_submitter sub;
};

/* An fsync's empty flush request ("FWS", no sectors), got and not yet
 * completed: all are at sector 0, so they wait in order, not in a slot. */
#define BLK_EMPTY 16
struct blk_empty {
	uint64_t start_ns;
	enum ws_submitter sub;
};

struct blockstat {
	struct blk_slot *slot;		/* nslots of them (0: none yet) */
	unsigned int nslots;
	struct blk_empty empty[BLK_EMPTY];	/* oldest first */
	unsigned int nempty;
	struct blk_flush flight[BLK_FLUSHES];	/* issued, not completed */
	unsigned int nflight;
	uint64_t early[BLK_FLUSHES];	/* completions read before their issue */
	unsigned int nearly;
	enum ws_submitter flush_sub;	/* the last to ask for a flush ... */
	uint64_t flush_asked_ns;	/* ... and when */
	unsigned int used;
	struct blk_event pending[BLK_PENDING];
	unsigned int npending;
	uint64_t latest_ns;		/* of any event seen */
	uint64_t swept_ns;		/* stale slots last looked for */
	struct blk_done done[BLK_DONE];	/* a ring of the last completions */
	unsigned int ndone;
	struct ws_block_figures iv;	/* since the last take */
	struct ws_block_figures run;	/* since the start */
	struct hist write_service;	/* the run's writes, issue to completion */
	struct roundlat rounds;		/* ... and round by round, once started */
	struct observer obs;		/* what the probes' work cost, once started */
	struct timeline *timeline;	/* completions also go here, if set */
	uint64_t unmatched_bytes;	/* of the run's unmatched completions */
};

void blockstat_init(struct blockstat *b);
/* What it holds on the heap (its slots, its rounds): b may be inited again. */
void blockstat_free(struct blockstat *b);
void blockstat_event(struct blockstat *b, const struct blk_event *e);
/* After a drain: the completions waiting for their issue matched, or,
 * waiting a second (all of them when final), counted unmatched. */
void blockstat_settle(struct blockstat *b, bool final);
/* The figures since the last take (on), and a fresh start for the next. */
void blockstat_take(struct blockstat *b, struct ws_block_figures *out);

#endif
