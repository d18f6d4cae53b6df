/* biostat.h - the bios behind the block requests: how many were queued to
 * the disk, merged into a request, split at its limits, and how long each
 * waited between being queued and getting its request (writeback
 * throttling's rq_qos_wait, a queue with no free tag).  Pure, as
 * blockstat.h: the tracer hands it the events, the unit tests recorded
 * streams; its figures go into the interval's and the run's struct
 * ws_block_figures (record.h: ws_block_dir).
 *
 * A bio gets its request in the task that queued it, synchronously (the
 * kernel's blk_mq_submit_bio): so few wait at once, one a submitting
 * task.  The rest of a split bio is not queued again (the kernel traces a
 * bio's queueing once): it waits from its first part's queueing.  A bio
 * that cgroup I/O limit held is queued when the limit lets it go: that
 * wait is not here (the limit's own rule names it, stallcause.h).
 */
#ifndef WS_BIOSTAT_H
#define WS_BIOSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "blockstat.h"
#include "events.h"
#include "record/record.h"
#include "timeline.h"

/* Bios queued and not yet given a request; more at once than this
 * (a request whose getrq the ring dropped, say) and the oldest goes. */
#define BIO_WAITING 64
/* A getrq read before its bio's queueing (the task moved to another CPU
 * while it waited, and the rings are read CPU by CPU): kept this many,
 * a second at most. */
#define BIO_EARLY 64
#define BIO_EARLY_NS 1000000000ull
/* A queued bio with no getrq after this long: merged or dropped unseen. */
#define BIO_STALE_NS 10000000000ull

struct bio_wait {
	uint64_t key;		/* sector, direction; 0 free */
	uint64_t ts_ns;
};

struct biostat {
	struct timeline *timeline;	/* each wait also goes here, if set */
	struct bio_wait waiting[BIO_WAITING];	/* queued, no request yet */
	struct bio_wait early[BIO_EARLY];	/* getrqs read first */
	uint64_t latest_ns;
};

/* timeline: where each wait also goes (evidence.h's), or NULL. */
void biostat_init(struct biostat *s, struct timeline *timeline);
/* A bio's event, counted into both figures. */
void biostat_event(struct biostat *s, const struct bio_event *e,
		   struct ws_block_figures *iv, struct ws_block_figures *run);
/* A request got (block_getrq): its bio's wait ends. */
void biostat_getrq(struct biostat *s, const struct blk_event *e,
		   struct ws_block_figures *iv, struct ws_block_figures *run);
/* After a drain: early getrqs a second old (all when final) and bios
 * queued 10 s ago forgotten. */
void biostat_settle(struct biostat *s, bool final);

#endif
