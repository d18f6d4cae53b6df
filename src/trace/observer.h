/* observer.h - what the probes' device work (requests, forced commits,
 * flushes) cost the writer.  It depends on the device, so it is measured:
 * per slot, the writer's bytes and the share the work was in flight,
 * fitted by least squares.  128 ms: a write held by a flush mostly
 * completes in the same slot (64 ms read 30% fast; 256 ms, too few).
 * Too few slots, too little free time or slots too alike: cannot say;
 * little work in flight: a bound, 1 / (1 - share).
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
};

struct observer {
	bool started;
	struct slotclock clock;
	struct obs_slot ring[OBS_RING];
	/* fit sums over closed slots: x0 free s, x1 busy s, y writer MiB */
	double s00, s01, s11, s0y, s1y;
	uint64_t slots, parts, busy_parts, writer_bytes;
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
