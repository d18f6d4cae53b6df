#include <string.h>

#include "observer.h"

#define PART_NS (OBS_SLOT_NS / OBS_BITS)
#define MIB 1048576.0

#define OBS_MIN_SLOTS 30	/* 3.84 s */
#define OBS_MIN_BUSY_S 0.25
#define OBS_BOUND_PCT 2.0
#define OBS_MIN_FREE_S 1.0
#define OBS_NEGLIGIBLE_X 1.05

void observer_start(struct observer *o, uint64_t origin_ns)
{
	memset(o, 0, sizeof(*o));
	slotclock_start(&o->clock, origin_ns, OBS_SLOT_NS, OBS_RING);
	o->last_parts = OBS_BITS;
	o->started = true;
}

/* Slots before the writer's first device write are left out: its data
 * only went to the page cache (with --pace none, seconds of fsyncs). */
static int close_oldest(void *owner)
{
	struct observer *o = owner;
	struct obs_slot *s = &o->ring[o->clock.base % OBS_RING];
	uint64_t nbusy = 0;

	for (unsigned int w = 0; w < OBS_WORDS; w++)
		nbusy += (uint64_t)__builtin_popcountll(s->busy[w]);
	if (!o->writer_seen && !s->writer_bytes) {
		o->before_writer++;
		goto next;
	}
	o->writer_seen = true;
	for (unsigned int k = 0; k < OBS_BITS; k++)
		if (s->busy[k / 64] >> (k % 64) & 1)
			o->busy_bytes += s->bytes[k];
	o->slots++;
	o->parts += o->last_parts;
	o->busy_parts += nbusy;
	o->writer_bytes += s->writer_bytes;
next:
	memset(s, 0, sizeof(*s));
	return 0;
}

/* NULL when closed already or before the writer's start. */
static struct obs_slot *slot_of(struct observer *o, uint64_t ts_ns)
{
	int64_t slot;

	if (!o->started)
		return NULL;
	slot = slotclock_place(&o->clock, ts_ns, close_oldest, o);
	if (slot < 0)
		return NULL;
	if (ts_ns > o->latest_ns)
		o->latest_ns = ts_ns;
	return &o->ring[(uint64_t)slot % OBS_RING];
}

/* Booked to its part when the slot closes: the work's spans over it may
 * come in later. */
void observer_writer(struct observer *o, uint64_t ts_ns, uint64_t bytes)
{
	struct obs_slot *s = slot_of(o, ts_ns);

	if (!s)
		return;
	s->bytes[(ts_ns - o->clock.origin_ns) / PART_NS % OBS_BITS] += (uint32_t)bytes;
	s->writer_bytes += bytes;
}

static void mark(struct obs_slot *s, uint64_t from, uint64_t to)
{
	while (from < to) {
		uint64_t lo = from % 64, n = to - from < 64 - lo ? to - from : 64 - lo;

		s->busy[from / 64] |= (n == 64 ? ~0ull : ((1ull << n) - 1)) << lo;
		from += n;
	}
}

void observer_busy(struct observer *o, uint64_t from_ns, uint64_t to_ns)
{
	const struct slotclock *c = &o->clock;
	uint64_t first, end;

	if (!o->started || to_ns <= from_ns)
		return;
	if (from_ns < c->origin_ns)
		from_ns = c->origin_ns;
	if (to_ns <= from_ns)
		return;		/* all before the writer's start */
	if (from_ns < c->origin_ns + c->base * OBS_SLOT_NS) {
		o->clock.late++;	/* its start's slots closed: the rest counts */
		from_ns = c->origin_ns + c->base * OBS_SLOT_NS;
		if (to_ns <= from_ns)
			return;
	}
	/* a slot at a time: a long commit is many slots, not a call a part */
	first = (from_ns - c->origin_ns) / PART_NS;
	end = (to_ns - c->origin_ns + PART_NS - 1) / PART_NS;

	while (first < end) {
		uint64_t slot = first / OBS_BITS, stop = (slot + 1) * OBS_BITS;
		struct obs_slot *s = slot_of(o, c->origin_ns + first * PART_NS);

		if (stop > end)
			stop = end;
		if (s)
			mark(s, first % OBS_BITS, stop - slot * OBS_BITS);
		first = stop;
	}
	if (to_ns - 1 > o->latest_ns)
		o->latest_ns = to_ns - 1;
}

/* The last slot counts only to the latest event: the rest, as free time
 * with no writes, would lower the free rate. */
void observer_finish(struct observer *o)
{
	struct slotclock *c = &o->clock;

	while (o->started && c->base + 1 < c->reached) {
		close_oldest(o);
		slotclock_closed(c);
	}
	if (o->started && c->base < c->reached) {
		uint64_t in = o->latest_ns - c->origin_ns - c->base * OBS_SLOT_NS;
		uint64_t parts = in / PART_NS + 1;

		o->last_parts = parts < OBS_BITS ? parts : OBS_BITS;
		close_oldest(o);
		slotclock_closed(c);
	}
}

void observer_estimate(const struct observer *o, struct ws_observer_cost *out)
{
	double busy_s = (double)o->busy_parts * (double)PART_NS / 1e9;

	/* in whole parts and ns, so an edge is exact */
	uint64_t parts = o->parts, busy_ns = o->busy_parts * PART_NS;

	*out = (struct ws_observer_cost){ .on = o->started };
	out->seconds = (double)parts * (double)PART_NS / 1e9;
	if (o->slots) {
		out->busy_pct = busy_s / out->seconds * 100;
		out->mibps = (double)o->writer_bytes / MIB / out->seconds;
	}
	if (o->slots < OBS_MIN_SLOTS) {
		out->why_not = WS_OBS_SHORT;
		return;
	}
	if ((double)busy_ns < OBS_MIN_BUSY_S * 1e9 ||
	    (double)o->busy_parts * 100 < OBS_BOUND_PCT * (double)parts) {
		out->judged = out->bound = true;
		out->speedup = (double)parts / (double)(parts - o->busy_parts);
		return;
	}
	if ((double)((parts - o->busy_parts) * PART_NS) < OBS_MIN_FREE_S * 1e9) {
		out->why_not = WS_OBS_ALWAYS_BUSY;
		return;
	}
	out->free_mibps = (double)(o->writer_bytes - o->busy_bytes) / MIB /
			  (out->seconds - busy_s);
	out->busy_mibps = (double)o->busy_bytes / MIB / busy_s;
	if (out->free_mibps <= 0) {
		out->why_not = WS_OBS_NOTHING_FREE;
		return;
	}
	out->judged = true;
	out->speedup = out->mibps > 0 && out->free_mibps > out->mibps ?
		       out->free_mibps / out->mibps : 1;
	out->negligible = observer_negligible(out->speedup);
}

bool observer_negligible(double speedup)
{
	return speedup < OBS_NEGLIGIBLE_X;
}
