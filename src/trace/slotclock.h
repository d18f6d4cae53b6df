/* slotclock.h - slots of width_ns, the last nopen open, as events come
 * out of order (per-CPU rings).  One for a closed slot is counted late.
 */
#ifndef WS_TRACE_SLOTCLOCK_H
#define WS_TRACE_SLOTCLOCK_H

#include <stdint.h>

struct slotclock {
	uint64_t origin_ns, width_ns;
	unsigned int nopen;
	uint64_t base;			/* the oldest slot open */
	uint64_t reached;		/* slots up to the latest event's */
	uint64_t early, late;		/* before the origin; for a closed slot */
};

/* Sums and empties slot c->base; -errno: the event is counted late. */
typedef int (*slotclock_close_fn)(void *owner);

static inline void slotclock_start(struct slotclock *c, uint64_t origin_ns,
				   uint64_t width_ns, unsigned int nopen)
{
	*c = (struct slotclock){ .origin_ns = origin_ns, .width_ns = width_ns,
				 .nopen = nopen };
}

/* The slot of ts_ns, closing older ones; -1 if early or late. */
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

/* The owner closed slot c->base itself. */
static inline void slotclock_closed(struct slotclock *c)
{
	c->base++;
}

#endif
