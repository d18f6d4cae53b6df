/* observer.h - what the tool's own watching cost the writer at the
 * device.  The observer's work is what the probes make the disk do: their
 * requests, the journal's (the commits their fsyncs force, and the few
 * the writer's own metadata needs), and the cache flushes either asked
 * for.  Whether it cost the writer anything depends on the device: a disk
 * limited in bandwidth (a cgroup limit, a slow link) goes on writing the
 * writer's data while a flush runs; a disk whose flushes stop everything
 * does not.  So the cost is measured, not modelled: the run is cut into
 * slots of OBS_SLOT_NS, each with the writer's bytes the device completed
 * in it and how much of it the observer's work was in flight (the union
 * of their issue-to-completion spans, in OBS_BITS parts), and a least-
 * squares fit over the slots gives the writer's rate with none of it in
 * flight and while it was.  Without the observer the writer would have
 * gone at the first (an estimate: the disk's other behaviour in those
 * slots is taken as it was).  Slots of 128 ms: a write held back by a
 * flush completes soon after it, mostly in the same slot (on this
 * project's VM, 64 ms slots counted the catch-up as time without the
 * flush, 30% too fast; 256 ms slots were too few and too alike to fit).
 *
 * The rules (observer_estimate; the figures' values in observer.c):
 *  - fewer than OBS_MIN_SLOTS slots: too short a run to say;
 *  - its work in flight less than OBS_MIN_BUSY_S, or under
 *    OBS_BOUND_PCT% of the time: judged by a bound - even a writer that
 *    stood still whenever it was in flight lost no more than that time:
 *    at most 1 / (1 - share) faster without it;
 *  - else, less than OBS_MIN_FREE_S without it, or the two kinds of time
 *    in about the same proportion in every slot (the fit's determinant
 *    under OBS_MIN_SPREAD of its largest): cannot say;
 *  - else the fit: the writer's rate without its work over its rate
 *    overall, at least 1; under OBS_NEGLIGIBLE_X it cost the writer
 *    little or nothing (the summary's words).
 *
 * The fit starts at the first slot with a write of the writer's (before
 * it the writer's data went to the page cache only) and ends at the
 * latest event, the last slot counted for its part up to it.
 *
 * Completions are not in time order (slotclock.h): OBS_RING slots stay
 * open, older ones are added to the sums.  Pure; one owner at a time
 * (the tracer's lock).
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
	struct slotclock clock;		/* OBS_SLOT_NS slots, OBS_RING open;
					   its late: events for slots closed */
	struct obs_slot ring[OBS_RING];	/* slot s is ring[s % OBS_RING] */
	/* over the closed slots, in seconds and MiB: x0 the time free of
	 * observer work, x1 the time it was in flight, y the writer's */
	double s00, s01, s11, s0y, s1y;
	uint64_t slots, parts, busy_parts, writer_bytes;
	bool writer_seen;		/* a slot with the writer's writes closed */
	uint64_t before_writer;		/* slots left out before it */
	uint64_t latest_ns;		/* the latest event's time */
	uint64_t last_parts;		/* the slot closing: its length */
};

void observer_start(struct observer *o, uint64_t origin_ns);
/* A write of the writer's data (the writer's, the flusher's) completed. */
void observer_writer(struct observer *o, uint64_t ts_ns, uint64_t bytes);
/* Observer work in flight over [from_ns, to_ns). */
void observer_busy(struct observer *o, uint64_t from_ns, uint64_t to_ns);
/* At the end: every slot up to the latest event's closed. */
void observer_finish(struct observer *o);
/* The estimate (struct ws_observer_cost, record.h) from the closed
 * slots. */
void observer_estimate(const struct observer *o, struct ws_observer_cost *out);

/* A fitted speedup that says the observer cost the writer little or
 * nothing: under OBS_NEGLIGIBLE_X (1.05). */
bool observer_negligible(double speedup);

#endif
