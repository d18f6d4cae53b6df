/* observer.h - what the probes' device work (requests, forced commits,
 * flushes) cost the writer.  It depends on the device, so it is measured:
 * each write of the writer's data is booked to the 250 µs part it
 * completed in; the bytes in parts the work was in flight give the
 * writer's rate while it was, the rest its rate without it.  A
 * least-squares fit over 128 ms slots of the bytes against the work's
 * share read up to 20% over that on the card's command (-b N -f): the
 * slots with most of the work went fast in their short rest, and the
 * fit's line ran past every slot's.  128 ms slots still say when a run
 * is too short.  Too few slots or too little time without the work:
 * cannot say; little work in flight: a bound, 1 / (1 - share).
 */
#ifndef WS_TRACE_OBSERVER_H
#define WS_TRACE_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"
#include "slotclock.h"

#define OBS_WORDS 8
#define OBS_BITS (64 * OBS_WORDS)	/* 250 µs parts of a slot */
#define OBS_SLOT_NS (OBS_BITS * 250000ull)	/* 128 ms */
#define OBS_RING 16			/* 2 s of slots open */

struct obs_slot {
	uint64_t writer_bytes;
	uint64_t busy[OBS_WORDS];	/* bit k: part k had observer work */
	uint32_t bytes[OBS_BITS];	/* the writer's booked to part k */
};

struct observer {
	bool started;
	struct slotclock clock;
	struct obs_slot ring[OBS_RING];
	uint64_t slots, parts, busy_parts, writer_bytes;
	uint64_t busy_bytes;		/* the writer's booked to busy parts */
	bool writer_seen;
	uint64_t before_writer;		/* slots left out before the writer's */
	uint64_t latest_ns;
	uint64_t last_parts;		/* the closing slot's length */
};

void observer_start(struct observer *o, uint64_t origin_ns);
/* A write of the writer's data (by it or the flusher) completed. */
void observer_writer(struct observer *o, uint64_t ts_ns, uint64_t bytes);
/* Observer work in flight over [from_ns, to_ns). */
void observer_busy(struct observer *o, uint64_t from_ns, uint64_t to_ns);
/* Closes every slot up to the latest event. */
void observer_finish(struct observer *o);
void observer_estimate(const struct observer *o, struct ws_observer_cost *out);

/* Under OBS_NEGLIGIBLE_X: the observer cost the writer little or nothing. */
bool observer_negligible(double speedup);

#endif
