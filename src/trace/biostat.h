/* biostat.h - the bios behind requests: queued, merged, split, and each
 * one's wait for its request (wbt's rq_qos_wait, no free tag).  Pure.  A
 * bio gets its request synchronously in its task (blk_mq_submit_bio), so
 * few wait at once.  A cgroup limit holds bios before queueing.
 */
#ifndef WS_BIOSTAT_H
#define WS_BIOSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "blockstat.h"
#include "events.h"
#include "record/record.h"
#include "timeline.h"

/* Beyond this many waiting, the oldest is dropped. */
#define BIO_WAITING 64
/* getrqs read before their bio's queueing (the task moved CPU). */
#define BIO_EARLY 64
#define BIO_EARLY_NS 1000000000ull
/* No getrq after this long: merged or dropped unseen. */
#define BIO_STALE_NS 10000000000ull

struct bio_wait {
	uint64_t key;		/* sector, direction; 0 free */
	uint64_t ts_ns;
};

struct biostat {
	struct timeline *timeline;
	struct bio_wait waiting[BIO_WAITING];
	struct bio_wait early[BIO_EARLY];
	uint64_t latest_ns;
};

/* timeline: NULL, or where each wait also goes. */
void biostat_init(struct biostat *s, struct timeline *timeline);
void biostat_event(struct biostat *s, const struct bio_event *e,
		   struct ws_block_figures *iv, struct ws_block_figures *run);
/* block_getrq ends its bio's wait. */
void biostat_getrq(struct biostat *s, const struct blk_event *e,
		   struct ws_block_figures *iv, struct ws_block_figures *run);
/* After a drain: forget stale early getrqs (all when final) and bios. */
void biostat_settle(struct biostat *s, bool final);

#endif
