/* slotclock.h - time cut into slots of width_ns from an origin, the last
 * nopen of them open: events arrive a drain at a time, CPU by CPU, and
 * may wait a second for their issue (blockstat.h), so they are not in
 * time order; an event places itself in its slot, older slots close (the
 * owner's close() sums one up) as later events move the clock on, and an
 * event for a slot already closed is counted late, never put elsewhere.
 * The owners: roundlat (a histogram a steady-state round) and observer
 * (the writer's bytes and the work in flight, a 128 ms slot).  Pure.
 */
#ifndef WS_TRACE_SLOTCLOCK_H
#define WS_TRACE_SLOTCLOCK_H

#include <stdint.h>

struct slotclock {
	uint64_t origin_ns, width_ns;
	unsigned int nopen;		/* slots open at once */
	uint64_t base;			/* the oldest slot open */
	uint64_t reached;		/* slots up to the latest event's */
	uint64_t early, late;		/* events before the origin; for a
					   slot already closed */
};

/* Slot `c->base` done: its owner sums it up and empties it for slot
 * base + nopen; 0, or -errno (then the event that moved the clock is
 * counted late). */
typedef int (*slotclock_close_fn)(void *owner);

static inline void slotclock_start(struct slotclock *c, uint64_t origin_ns,
				   uint64_t width_ns, unsigned int nopen)
{
	*c = (struct slotclock){ .origin_ns = origin_ns, .width_ns = width_ns,
				 .nopen = nopen };
}

/* The slot of ts_ns, open, older ones closed as needed; -1 when it is
 * before the origin (early) or its slot closed already (late). */
static inline int64_t slotclock_place(struct slotclock *c, uint64_t ts_ns,
				      slotclock_close_fn close, void *owner)
{
	uint64_t slot;

	if (ts_ns < c->origin_ns) {
		c->early++;
		return -1;
	}
	slot = (ts_ns - c->origin_ns) / c->width_ns;
	if (slot < c->base) {
		c->late++;
		return -1;
	}
	while (slot >= c->base + c->nopen) {
		if (close(owner)) {
			c->late++;
			return -1;
		}
		c->base++;
	}
	if (slot + 1 > c->reached)
		c->reached = slot + 1;
	return (int64_t)slot;
}

/* Slot `c->base` closed by its owner: the clock moves on by one. */
static inline void slotclock_closed(struct slotclock *c)
{
	c->base++;
}

#endif
