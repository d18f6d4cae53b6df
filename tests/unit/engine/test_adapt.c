/* test_adapt.c - the adaptive pacer's controller (adapt.c) against a
 * simulated device: one FIFO queue with a bandwidth and a cost per
 * request, where a probe's fsync is its own writes plus a journal commit
 * queued behind everything the writer started before it (ext4's ordered
 * data).  The writer is driven as pace.c drives it: a chunk is started,
 * then the oldest is waited for while more than the window are in flight.
 * The controller must converge (the probes' p99 near the target, the
 * throughput near the device's), stay within its stated band once settled,
 * and recover after the bandwidth drops. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine/adapt.h"
#include "suites.h"

#define MS 1e6
#define SEC 1e9
#define MIB (1024.0 * 1024.0)
#define BUFFER (8 * 1024 * 1024ull)
#define PROBE_EVERY (100 * MS)
#define MAX_PROBES 4096
#define MAX_INFLIGHT (ADAPT_WINDOW_MAX + 1)

struct device {
	double bw;		/* bytes/s */
	double per_request_ns;
	double free_at;		/* busy until */
	double slice_ns;	/* completions are seen at slice ends (a block
				   throttle's dispatch): bursts; 0: none */
};

/* A request started at t is done when the queue ahead of it and it have
 * gone through (and its slice ended). */
static double device_submit(struct device *d, double t, double len)
{
	double start = t > d->free_at ? t : d->free_at;

	d->free_at = start + d->per_request_ns + len / d->bw * SEC;
	if (d->slice_ns > 0)
		return ceil(d->free_at / d->slice_ns) * d->slice_ns;
	return d->free_at;
}

struct chunk {
	double started, done;
	uint64_t len;
};

struct sim {
	struct device dev;
	struct adapt a;
	unsigned int probe_requests;	/* its writes and the commit */
	/* optional: the probe waits behind the writer this many times (0
	 * counts as 1): after its requests, each further wait is as long as
	 * the writer's queue takes to drain, refilled meanwhile (a SQLite
	 * commit's syncs, one after another, each behind the window the
	 * writer keeps full) */
	unsigned int probe_waits;
	/* optional: a second probe, run in turn with the first (slot 1),
	 * of one request and this many waits */
	unsigned int probe2_waits;

	/* optional: at step_at the bandwidth changes to step_bw and the
	 * probe's own time beyond the device (CPU, another disk) to
	 * step_extra_ns */
	double step_at, step_bw, step_extra_ns, probe_extra_ns;
	/* optional: this share of the probes (0..1) wait as long again as
	 * the writer's queue takes to drain: their journal commit went out
	 * after the writer had refilled its window (seen on a throttled loop
	 * device: a probe takes one queue's wait or two) */
	double requeue_share;
	uint64_t rng;
	/* optional: the bandwidth swings between bw and swing_bw every
	 * swing_ns (a disk whose speed never holds) */
	double swing_ns, swing_bw, base_bw;
	/* the writer's rate cap, as writer.c keeps it: when the next chunk
	 * is due */
	double rate_due;

	struct chunk q[MAX_INFLIGHT];
	unsigned int nq;
	uint64_t queued_bytes;

	/* results */
	double probe_at[MAX_PROBES], probe_ns[MAX_PROBES];
	unsigned int probe_slot[MAX_PROBES];
	unsigned int nprobes;
	double done_at[1 << 16];
	uint64_t done_bytes[1 << 16];
	unsigned int ndone;
	double inflight_at[1 << 16], inflight[1 << 16];
	unsigned int chunk_seen_min, window_seen_max;
	uint64_t chunk_seen_max;
};

static void sim_init(struct sim *s, double bw, double per_request_ns,
		     unsigned int probe_requests, double target_ns)
{
	memset(s, 0, sizeof(*s));
	s->dev.bw = bw;
	s->dev.per_request_ns = per_request_ns;
	s->probe_requests = probe_requests;
	s->step_at = INFINITY;
	s->chunk_seen_min = UINT32_MAX;
	adapt_init(&s->a, (uint64_t)target_ns, BUFFER);
}

/* The probes that ended by t, told in order (as the writer takes them). */
static unsigned int tell_probes(struct sim *s, double t, unsigned int told)
{
	while (told < s->nprobes &&
	       s->probe_at[told] + s->probe_ns[told] <= t) {
		uint64_t ns = (uint64_t)s->probe_ns[told];

		adapt_probe(&s->a, (uint64_t)t, s->probe_slot[told],
			    &(struct adapt_obs){ .worst_ns = ns, .sum_ns = ns, .n = 1 });
		told++;
	}
	return told;
}

static void note_state(struct sim *s, double t)
{
	if (s->ndone < (1u << 16)) {
		s->inflight_at[s->ndone] = t;
		s->inflight[s->ndone] = s->a.inflight;
	}
	if (adapt_chunk(&s->a) < s->chunk_seen_min)
		s->chunk_seen_min = (unsigned int)adapt_chunk(&s->a);
	if (adapt_chunk(&s->a) > s->chunk_seen_max)
		s->chunk_seen_max = adapt_chunk(&s->a);
	if (adapt_window(&s->a) > s->window_seen_max)
		s->window_seen_max = adapt_window(&s->a);
}

/* Run until `end`: writer steps and probes, in time order. */
static void sim_run(struct sim *s, double end)
{
	double tw = 0, next_probe = PROBE_EVERY;
	unsigned int told = 0;

	while (tw < end) {
		if (next_probe <= tw) {
			double t = next_probe, fin = t;
			unsigned int slot = s->probe2_waits ? s->nprobes % 2 : 0;
			unsigned int requests = slot ? 1 : s->probe_requests;
			unsigned int waits = slot ? s->probe2_waits : s->probe_waits;

			if (t >= s->step_at) {
				s->dev.bw = s->step_bw;
				s->probe_extra_ns = s->step_extra_ns;
			}
			for (unsigned int i = 0; i < requests; i++)
				fin = device_submit(&s->dev, fin, 4096);
			for (unsigned int i = 1; i < waits; i++) {
				fin += (double)s->queued_bytes / s->dev.bw * SEC +
				       s->dev.per_request_ns;
				if (s->dev.slice_ns > 0)
					fin = ceil(fin / s->dev.slice_ns) * s->dev.slice_ns;
			}
			fin += s->probe_extra_ns;
			s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
			if ((double)(s->rng >> 11) / 9007199254740992.0 < s->requeue_share)
				fin += (double)s->queued_bytes / s->dev.bw * SEC;
			if (s->nprobes < MAX_PROBES) {
				s->probe_slot[s->nprobes] = slot;
				s->probe_at[s->nprobes] = t;
				s->probe_ns[s->nprobes++] = fin - t;
			}
			/* one probe at a time, as the monitor runs them */
			next_probe = fin > t + PROBE_EVERY ? fin : t + PROBE_EVERY;
			continue;
		}
		if (tw >= s->step_at)
			s->dev.bw = s->step_bw;
		if (s->swing_ns > 0)
			s->dev.bw = (uint64_t)(tw / s->swing_ns) % 2 ? s->swing_bw
								    : s->base_bw;
		told = tell_probes(s, tw, told);
		/* --headroom: the chunk waits until the cap lets it go, the
		 * debt of a writer that fell behind forgotten (writer.c) */
		if (adapt_rate_cap(&s->a)) {
			if (s->rate_due + 0.1 * SEC < tw)
				s->rate_due = tw;
			if (s->rate_due > tw) {
				tw = s->rate_due;
				continue;	/* the probes due meanwhile first */
			}
			s->rate_due += (double)adapt_chunk(&s->a) * SEC /
				       (double)adapt_rate_cap(&s->a);
		}
		/* start a chunk's writeback */
		{
			struct chunk c = { .started = tw, .len = adapt_chunk(&s->a) };


			c.done = device_submit(&s->dev, tw, (double)c.len);
			s->q[s->nq++] = c;
			s->queued_bytes += c.len;
		}
		/* then wait for the oldest while more than the window are out */
		while (s->nq > adapt_window(&s->a)) {
			struct chunk c = s->q[0];

			memmove(s->q, s->q + 1, --s->nq * sizeof(*s->q));
			s->queued_bytes -= c.len;
			/* probes due meanwhile reach the queue before the
			 * writer's next chunk: the outer loop runs them */
			if (c.done > tw)
				tw = c.done;
			told = tell_probes(s, tw, told);
			adapt_retired(&s->a, (uint64_t)tw,
				      (uint64_t)(tw - c.started), c.len);
			if (s->ndone < (1u << 16)) {
				s->done_at[s->ndone] = tw;
				s->done_bytes[s->ndone] = c.len;
			}
			note_state(s, tw);
			s->ndone++;
		}
		tw += 20000;	/* 20 us: the write() of a chunk, the calls */
	}
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* p99 of the probes in slot (-1: any) that started in [from, to). */
static double slot_p99(const struct sim *s, int slot, double from, double to)
{
	double v[MAX_PROBES];
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nprobes; i++)
		if (s->probe_at[i] >= from && s->probe_at[i] < to &&
		    (slot < 0 || s->probe_slot[i] == (unsigned int)slot))
			v[n++] = s->probe_ns[i];
	ck_assert_uint_gt(n, 10);
	qsort(v, n, sizeof(*v), by_value);
	return v[(size_t)ceil(0.99 * n) - 1];
}

static double probe_p99(const struct sim *s, double from, double to)
{
	return slot_p99(s, -1, from, to);
}

/* Bytes on disk per second over [from, to). */
static double throughput(const struct sim *s, double from, double to)
{
	double bytes = 0;
	unsigned int n = s->ndone < (1u << 16) ? s->ndone : 1u << 16;

	for (unsigned int i = 0; i < n; i++)
		if (s->done_at[i] >= from && s->done_at[i] < to)
			bytes += (double)s->done_bytes[i];
	return bytes / ((to - from) / SEC);
}

static struct sim sim;	/* large: not on the stack */

/* 20 MiB/s, a target of 50 ms: within a few seconds the probes' p99 is
 * near it - between the 75% the law aims the slowest probes above and
 * 20% over - and the writer gets 90% of the device or more. */
START_TEST(test_converges)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 50 * MS);
	sim_run(&sim, 60 * SEC);
	ck_assert(sim.a.settled);
	ck_assert_double_lt(sim.a.settled_ns, 15 * SEC);
	ck_assert_double_ge(probe_p99(&sim, 15 * SEC, 60 * SEC), 37.5 * MS);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 60 * SEC), 60 * MS);
	ck_assert_double_ge(throughput(&sim, 15 * SEC, 59 * SEC), 0.9 * 20 * MIB);
}
END_TEST

/* The same where completions come in bursts (a block throttle's 5 ms
 * dispatch slices): some chunks seem to take no time at all. */
START_TEST(test_converges_bursty)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 50 * MS);
	sim.dev.slice_ns = 5 * MS;
	sim_run(&sim, 60 * SEC);
	ck_assert(sim.a.settled);
	ck_assert_double_ge(probe_p99(&sim, 15 * SEC, 60 * SEC), 37.5 * MS);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 60 * SEC), 60 * MS);
	ck_assert_double_ge(throughput(&sim, 15 * SEC, 59 * SEC), 0.9 * 20 * MIB);
}
END_TEST

/* A probe that now and then (one in twelve: about every other period has
 * one) waits behind the writer's queue twice: the slowest probe of a
 * period is at about half the target one second and over 90% of it the
 * next, so the setpoint is cut and grown by turns.  The writer's pace
 * stays within its band: it has settled, with the probes' p99 near the
 * target and the disk busy. */
START_TEST(test_settles_noisy_probes)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 200 * MS);
	sim.requeue_share = 0.08;
	sim_run(&sim, 40 * SEC);
	ck_assert(sim.a.settled);
	ck_assert_double_lt(sim.a.settled_ns, 15 * SEC);
	ck_assert_double_le(probe_p99(&sim, sim.a.settled_ns, 40 * SEC), 240 * MS);
	ck_assert_double_ge(throughput(&sim, 15 * SEC, 39 * SEC), 0.9 * 20 * MIB);
}
END_TEST

/* Once settled, inflight stays within the stated band of its mean. */
START_TEST(test_settled_band)
{
	double sum = 0, lo = INFINITY, hi = 0, mean;
	unsigned int n = 0;

	sim_init(&sim, 50 * MIB, 0.1 * MS, 2, 30 * MS);
	sim_run(&sim, 60 * SEC);
	ck_assert(sim.a.settled);
	for (unsigned int i = 0; i < sim.ndone && i < (1u << 16); i++) {
		if (sim.inflight_at[i] < (double)sim.a.settled_ns)
			continue;
		sum += sim.inflight[i];
		lo = fmin(lo, sim.inflight[i]);
		hi = fmax(hi, sim.inflight[i]);
		n++;
	}
	ck_assert_uint_gt(n, 100);
	mean = sum / n;
	ck_assert_double_le(hi, mean * (1 + 0.35));
	ck_assert_double_ge(lo, mean * (1 - 0.35));
}
END_TEST

/* The disk drops from 40 to 10 MiB/s at 30 s: the probes suffer for a
 * moment, then within 5 s are back near the target (the slowest of a
 * period aimed between 75% and 90% of it), at 90% of the new
 * bandwidth. */
START_TEST(test_recovers_after_step)
{
	sim_init(&sim, 40 * MIB, 0.1 * MS, 2, 50 * MS);
	sim.step_at = 30 * SEC;
	sim.step_bw = 10 * MIB;
	sim_run(&sim, 70 * SEC);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 30 * SEC), 60 * MS);
	/* the step is felt: inflight was sized for four times the disk */
	ck_assert_double_gt(probe_p99(&sim, 30 * SEC, 32 * SEC), 60 * MS);
	ck_assert_double_ge(probe_p99(&sim, 35 * SEC, 70 * SEC), 37.5 * MS);
	ck_assert_double_le(probe_p99(&sim, 35 * SEC, 70 * SEC), 60 * MS);
	ck_assert_double_ge(throughput(&sim, 35 * SEC, 69 * SEC), 0.9 * 10 * MIB);
}
END_TEST

/* A probe that costs more than its wait (8 requests of 2 ms: a SQLite
 * commit's fsyncs) leaves the writer less: the setpoint learns it. */
START_TEST(test_learns_probe_cost)
{
	sim_init(&sim, 20 * MIB, 2 * MS, 8, 50 * MS);
	sim_run(&sim, 60 * SEC);
	ck_assert_double_ge(probe_p99(&sim, 20 * SEC, 60 * SEC), 37.5 * MS);
	ck_assert_double_le(probe_p99(&sim, 20 * SEC, 60 * SEC), 60 * MS);
	ck_assert_double_lt(sim.a.setpoint_ns, 40 * MS);
}
END_TEST

/* The probe itself gets 30 ms slower at 30 s, away from the disk: the
 * writer's chunks are no slower, only the probes say so; the setpoint is
 * cut until they are back near the target. */
START_TEST(test_probe_gets_slower)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 50 * MS);
	sim.step_at = 30 * SEC;
	sim.step_bw = 20 * MIB;
	sim.step_extra_ns = 30 * MS;
	sim_run(&sim, 60 * SEC);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 30 * SEC), 60 * MS);
	ck_assert_double_gt(probe_p99(&sim, 30 * SEC, 32 * SEC), 60 * MS);
	ck_assert_double_ge(probe_p99(&sim, 35 * SEC, 60 * SEC), 37.5 * MS);
	ck_assert_double_le(probe_p99(&sim, 35 * SEC, 60 * SEC), 60 * MS);
}
END_TEST

/* A probe whose operation waits behind the writer four times (a SQLite
 * commit: the journal twice, the database, the directory), each behind
 * a refilled queue.  Told its four syncs, the controller starts at a
 * quarter of the setpoint one wait would get and the probes stay near
 * the target from the start; it learns about four waits and keeps the
 * disk busy. */
static void multi_wait_run(unsigned int syncs)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 1, 200 * MS);
	sim.probe_waits = 4;
	adapt_steer_by(&sim.a, 0, (uint64_t)(0.4 * MS), syncs);
	sim_run(&sim, 40 * SEC);
}

START_TEST(test_multi_wait_probe)
{
	multi_wait_run(4);
	ck_assert_double_le(probe_p99(&sim, 0, 10 * SEC), 240 * MS);
	ck_assert(sim.a.settled);
	ck_assert_double_lt(sim.a.settled_ns, 15 * SEC);
	ck_assert_double_ge(probe_p99(&sim, 15 * SEC, 40 * SEC), 150 * MS);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 40 * SEC), 240 * MS);
	ck_assert_double_ge(throughput(&sim, 15 * SEC, 39 * SEC), 0.9 * 20 * MIB);
	ck_assert_double_ge(sim.a.probe[0].waits, 3);
	ck_assert_double_le(sim.a.probe[0].waits, 5);
	ck_assert_int_eq(adapt_steering_probe(&sim.a), 0);
}
END_TEST

/* The other side: assumed to wait once, the same probe starts at four
 * times the wait it can bear and overshoots the target by far. */
START_TEST(test_multi_wait_assumed_one)
{
	multi_wait_run(1);
	ck_assert_double_gt(probe_p99(&sim, 0, 10 * SEC), 300 * MS);
	/* and learns it all the same */
	ck_assert_double_le(probe_p99(&sim, 20 * SEC, 40 * SEC), 240 * MS);
	ck_assert_double_ge(sim.a.probe[0].waits, 3);
}
END_TEST

/* Noisy and multi-wait: one probe in twelve waits behind the queue once
 * more.  It settles, the p99 within 20% of the target. */
START_TEST(test_multi_wait_noisy)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 1, 200 * MS);
	sim.probe_waits = 4;
	adapt_steer_by(&sim.a, 0, (uint64_t)(0.4 * MS), 4);
	sim.requeue_share = 0.08;
	sim_run(&sim, 40 * SEC);
	ck_assert(sim.a.settled);
	ck_assert_double_le(probe_p99(&sim, sim.a.settled_ns, 40 * SEC), 240 * MS);
	ck_assert_double_ge(throughput(&sim, 15 * SEC, 39 * SEC), 0.9 * 20 * MIB);
}
END_TEST

/* Multi-wait probes on a disk that drops from 40 to 10 MiB/s at 30 s:
 * within 5 s the probes are back near the target, the disk busy. */
START_TEST(test_multi_wait_step)
{
	sim_init(&sim, 40 * MIB, 0.1 * MS, 1, 200 * MS);
	sim.probe_waits = 4;
	adapt_steer_by(&sim.a, 0, (uint64_t)(0.4 * MS), 4);
	sim.step_at = 30 * SEC;
	sim.step_bw = 10 * MIB;
	sim_run(&sim, 70 * SEC);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 30 * SEC), 240 * MS);
	ck_assert_double_gt(probe_p99(&sim, 30 * SEC, 32 * SEC), 240 * MS);
	ck_assert_double_ge(probe_p99(&sim, 35 * SEC, 70 * SEC), 150 * MS);
	ck_assert_double_le(probe_p99(&sim, 35 * SEC, 70 * SEC), 240 * MS);
	ck_assert_double_ge(throughput(&sim, 35 * SEC, 69 * SEC), 0.9 * 10 * MIB);
}
END_TEST

/* Two probes, one wait and four, in turn: the slowest steers.  The
 * four-wait one is held near the target, the other well under it. */
START_TEST(test_worst_probe_steers)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 1, 200 * MS);
	sim.probe2_waits = 4;
	adapt_steer_by(&sim.a, 0, (uint64_t)(0.1 * MS), 1);
	adapt_steer_by(&sim.a, 1, (uint64_t)(0.4 * MS), 4);
	sim_run(&sim, 40 * SEC);
	ck_assert_int_eq(adapt_steering_probe(&sim.a), 1);
	ck_assert_double_ge(slot_p99(&sim, 1, 15 * SEC, 40 * SEC), 150 * MS);
	ck_assert_double_le(slot_p99(&sim, 1, 15 * SEC, 40 * SEC), 240 * MS);
	ck_assert_double_le(slot_p99(&sim, 0, 15 * SEC, 40 * SEC), 100 * MS);
	ck_assert_double_ge(throughput(&sim, 15 * SEC, 39 * SEC), 0.9 * 20 * MIB);
}
END_TEST

/* A disk that answers in 100 ms slices (a block throttle's): a probe of
 * four waits takes three or four slices whatever the writer does.  A
 * target of 200 ms is out of reach: the controller says so within a few
 * periods, with a floor over the target, and holds the floor from then
 * on; 600 ms is within reach, never called out of it, and met within
 * 20% (the slices make a probe's time a multiple of 100 ms). */
START_TEST(test_unreachable_target)
{
	double from;

	sim_init(&sim, 20 * MIB, 0.1 * MS, 1, 200 * MS);
	sim.probe_waits = 4;
	sim.dev.slice_ns = 100 * MS;
	adapt_steer_by(&sim.a, 0, (uint64_t)(0.4 * MS), 4);
	sim_run(&sim, 30 * SEC);
	ck_assert(sim.a.unreachable);
	ck_assert_int_eq(sim.a.why, WS_ADAPT_UNREACHABLE);
	ck_assert(!sim.a.settled);
	ck_assert_uint_gt(sim.a.unreachable_ns, 0);
	ck_assert_double_lt(sim.a.unreachable_ns, 15 * SEC);
	ck_assert_uint_gt(sim.a.unreachable_floor_ns, 200 * MS);
	ck_assert_int_eq(sim.a.unreachable_probe, 0);
	from = (double)sim.a.unreachable_ns;
	for (unsigned int i = 0; i < sim.ndone && i < (1u << 16); i++)
		if (sim.inflight_at[i] > from)
			ck_assert_double_le(sim.inflight[i], 65536);

	sim_init(&sim, 20 * MIB, 0.1 * MS, 1, 600 * MS);
	sim.probe_waits = 4;
	sim.dev.slice_ns = 100 * MS;
	adapt_steer_by(&sim.a, 0, (uint64_t)(0.4 * MS), 4);
	sim_run(&sim, 30 * SEC);
	ck_assert(!sim.a.unreachable);
	ck_assert_uint_eq(sim.a.unreachable_ns, 0);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 30 * SEC), 720 * MS);
}
END_TEST

/*
 * The rules of the law, on the controller alone (no simulated device),
 * with the values adapt.h and the man page state written out.
 *
 * One step scales inflight by sqrt(setpoint / sojourn), never by more
 * than x2 or x1/2.  Target 200 ms: the setpoint starts at 100 ms; the
 * first chunk's sojourn sets the smoothed one (and a sojourn equal to it
 * keeps it), the second, a round trip later, steers from 256 KiB.
 */
static const struct step_row {
	double sojourn_ns;
	double factor;
} steps[] = {
	{ 100e6 / 2.25, 1.5 },	/* under the bound */
	{ 100e6 / 4, 2 },	/* at it */
	{ 100e6 / 9, 2 },	/* over it: held to x2 */
	{ 100e6 * 2.25, 1 / 1.5 },
	{ 100e6 * 4, 0.5 },
	{ 100e6 * 9, 0.5 },
};

START_TEST(test_step_at_most_double)
{
	struct adapt a;
	double before;

	adapt_init(&a, 200000000, BUFFER);
	ck_assert_double_eq(a.setpoint_ns, 100e6);
	before = a.inflight;
	ck_assert_double_eq(before, 262144);
	adapt_retired(&a, 1000000000, (uint64_t)steps[_i].sojourn_ns, 0);
	ck_assert_double_eq(a.inflight, before);	/* no round trip yet */
	adapt_retired(&a, 1000000000 + 2 * (uint64_t)steps[_i].sojourn_ns,
		      (uint64_t)steps[_i].sojourn_ns, 0);
	ck_assert_double_eq_tol(a.inflight, before * steps[_i].factor,
				before * steps[_i].factor * 1e-6);
}
END_TEST

/*
 * Settled: three calm periods in a row whose inflight stayed within
 * +-35% of their common mean.  Each period here holds chunks at mean x
 * (1 - d), mean x (1 + d) and the mean (1 MB), with one probe at 80% of
 * the 100 ms target (calm: it holds the setpoint), and a sojourn equal
 * to the setpoint (steering leaves inflight as it is): d = 35% settles
 * (the band is inclusive), 36% and a noisy 50% do not.
 */
static const struct band_row {
	double d;
	bool settles;
} bands[] = {
	{ 0, true }, { 0.35, true }, { 0.36, false }, { 0.5, false },
};

START_TEST(test_settle_band)
{
	const double mean = 1000000;
	struct adapt a;
	uint64_t t = 1000000000;

	adapt_init(&a, 100000000, BUFFER);
	for (int p = 0; p < 3; p++) {
		uint64_t start = t;

		a.inflight = mean * (1 - bands[_i].d);
		adapt_retired(&a, t += 1000000, 50000000, 0);
		a.inflight = mean * (1 + bands[_i].d);
		adapt_retired(&a, t += 1000000, 50000000, 0);
		adapt_probe(&a, t += 1000000, 0,
			    &(struct adapt_obs){ .worst_ns = 80000000, .sum_ns = 80000000, .n = 1 });
		a.inflight = mean;
		ck_assert(!a.settled);
		t = start + 1000000000 + 1000000;	/* the period's end */
		adapt_retired(&a, t, 50000000, 0);
		ck_assert_uint_eq(a.nbands, (unsigned int)p + 1);
		ck_assert_uint_eq(a.calm_periods, (unsigned int)p + 1);
	}
	ck_assert_double_eq(a.setpoint_ns, 50e6);
	ck_assert_int_eq(a.settled, bands[_i].settles);
}
END_TEST

/* A period of n probes, each taking ns, in slot 0: eight close it. */
static void probes_period(struct adapt *a, uint64_t *t, uint64_t ns)
{
	*t += 1000000;
	adapt_probe(a, *t, 0, &(struct adapt_obs){
		.worst_ns = ns, .sum_ns = 8 * ns, .n = 8 });
}

/*
 * The setpoint's start and top under a probe's waits: target 400 ms, a
 * probe of 20 ms idle and four syncs starts at (200 - 20) / 4 = 45 ms
 * and, however fast the probes, never exceeds (400 - 20) / 4 = 95 ms.
 * The syncs count within [1, 16]: 0 counts as 1, 17 as 16.
 */
static const struct syncs_row {
	unsigned int syncs;
	double waits, start_ns, top_ns;
} syncs_rows[] = {
	{ 4, 4, 45e6, 95e6 },
	{ 0, 1, 180e6, 380e6 }, { 1, 1, 180e6, 380e6 },
	{ 16, 16, 11.25e6, 23.75e6 }, { 17, 16, 11.25e6, 23.75e6 },
};

START_TEST(test_setpoint_start_and_top)
{
	const struct syncs_row *r = &syncs_rows[_i];
	struct adapt a;
	uint64_t t = 1000000000;

	adapt_init(&a, 400000000, BUFFER);
	adapt_steer_by(&a, 0, 20000000, r->syncs);
	ck_assert_double_eq(a.probe[0].waits, r->waits);
	ck_assert_double_eq_tol(a.setpoint_ns, r->start_ns, 1);
	/* no chunk retires: nothing teaches the waits */
	for (int i = 0; i < 60; i++)
		probes_period(&a, &t, 1000000);
	ck_assert_double_eq(a.probe[0].waits, r->waits);
	ck_assert_double_eq_tol(a.setpoint_ns, r->top_ns, 1);
}
END_TEST

/*
 * What a period teaches: waits += (seen - waits) / 4, seen = (slowest
 * latency - idle) / mean sojourn within [1, 16]; not from a mean sojourn
 * under 1 ms.  From 1 (one sync, idle 0): a 10 ms sojourn and 40 ms
 * probes see 4 (1.75); 5 ms probes see 0.5, held to 1; 160 ms see 16
 * (4.75), 170 ms 17, held to 16; a 0.999 ms sojourn teaches nothing, a
 * 1 ms one does.
 */
static const struct learn_row {
	double sojourn_ns, mean_ns, waits;
} learn_rows[] = {
	{ 10e6, 40e6, 1.75 }, { 10e6, 5e6, 1 }, { 10e6, 10e6, 1 },
	{ 10e6, 160e6, 4.75 }, { 10e6, 170e6, 4.75 },
	{ 0.999e6, 4e6, 1 }, { 1e6, 4e6, 1.75 },
};

START_TEST(test_waits_learned)
{
	const struct learn_row *r = &learn_rows[_i];
	struct adapt a;
	uint64_t t = 1000000000;

	adapt_init(&a, 400000000, BUFFER);
	adapt_steer_by(&a, 0, 0, 1);
	adapt_retired(&a, t, (uint64_t)r->sojourn_ns, 0);
	probes_period(&a, &t, (uint64_t)r->mean_ns);
	ck_assert_uint_eq(a.nbands, 1);		/* the period closed */
	ck_assert_double_eq_tol(a.probe[0].waits, r->waits, 1e-9);
}
END_TEST

/* The slowest operation teaches, not the mean: eight probes of 10 ms
 * mean whose slowest took 40 ms behind 10 ms sojourns see 4 waits. */
START_TEST(test_waits_from_the_slowest)
{
	struct adapt a;
	uint64_t t = 1000000000;

	adapt_init(&a, 400000000, BUFFER);
	adapt_steer_by(&a, 0, 0, 1);
	adapt_retired(&a, t, 10000000, 0);
	adapt_probe(&a, t + 1000000, 0, &(struct adapt_obs){
		.worst_ns = 40000000, .sum_ns = 80000000, .n = 8 });
	ck_assert_uint_eq(a.nbands, 1);
	ck_assert_double_eq_tol(a.probe[0].waits, 1.75, 1e-9);
}
END_TEST

/* ... and nothing at the floor: there the probes' time is not the
 * writer's. */
START_TEST(test_waits_not_learned_at_floor)
{
	struct adapt a;
	uint64_t t = 1000000000;

	adapt_init(&a, 400000000, BUFFER);
	adapt_steer_by(&a, 0, 0, 1);
	a.inflight = 65536;
	a.chunk = 65536;
	a.window = 1;
	adapt_retired(&a, t, 10000000, 0);
	probes_period(&a, &t, 40000000);
	ck_assert_uint_eq(a.nbands, 1);
	ck_assert_double_eq(a.probe[0].waits, 1);
}
END_TEST

/*
 * Unreachable: three periods in a row over the target (100 ms; 100 ms
 * itself is not over) with the writer at its floor; three in a row that
 * meet the target clear it, one or two do not, and a period over it
 * between starts the count again (when it was first said stays); above
 * the floor it is never said.  The floor named is the fastest of those
 * periods' slowest probes.
 */
static const struct unreach_row {
	uint64_t worst_ns[8];
	unsigned int n;
	bool at_floor, unreachable, said;
	uint64_t floor_ns;
} unreach_rows[] = {
	{ { 150000000, 140000000, 160000000 }, 3, true, true, true, 140000000 },
	{ { 100000001, 100000001, 100000001 }, 3, true, true, true, 100000001 },
	{ { 150000000, 140000000 }, 2, true, false, false, 0 },
	{ { 150000000, 100000000, 160000000 }, 3, true, false, false, 0 },
	{ { 150000000, 140000000, 160000000, 100000000 }, 4, true, true, true, 140000000 },
	{ { 150000000, 140000000, 160000000, 100000000, 100000000 }, 5, true, true, true, 140000000 },
	{ { 150000000, 140000000, 160000000, 100000000, 100000000, 100000000 }, 6,
	  true, false, true, 140000000 },
	{ { 150000000, 140000000, 160000000, 100000000, 100000000, 150000000, 100000000,
	    100000000 }, 8, true, true, true, 140000000 },
	{ { 150000000, 140000000, 160000000 }, 3, false, false, false, 0 },
};

START_TEST(test_unreachable_rule)
{
	const struct unreach_row *r = &unreach_rows[_i];
	struct adapt a;
	uint64_t t = 1000000000;

	adapt_init(&a, 100000000, BUFFER);
	adapt_steer_by(&a, 0, 0, 1);
	if (r->at_floor) {
		a.inflight = 65536;
		a.chunk = 65536;
		a.window = 1;
	}
	for (unsigned int i = 0; i < r->n; i++)
		probes_period(&a, &t, r->worst_ns[i]);
	ck_assert_int_eq(a.unreachable, r->unreachable);
	ck_assert_int_eq(a.unreachable_ns != 0, r->said);
	if (r->said) {
		ck_assert_uint_eq(a.unreachable_ns, 1000000000 + 3 * 1000000);
		ck_assert_uint_eq(a.unreachable_floor_ns, r->floor_ns);
		ck_assert_int_eq(a.unreachable_probe, 0);
	}
	ck_assert_int_eq(a.why == WS_ADAPT_UNREACHABLE, r->unreachable);
}
END_TEST

/* A disk whose speed never holds - 40 MiB/s, then 5, every 2 s - keeps
 * the writer's pace moving by far more than the band: never settled. */
START_TEST(test_noisy_never_settles)
{
	sim_init(&sim, 40 * MIB, 0.1 * MS, 2, 200 * MS);
	sim.base_bw = 40 * MIB;
	sim.swing_bw = 5 * MIB;
	sim.swing_ns = 2 * SEC;
	sim_run(&sim, 40 * SEC);
	ck_assert(!sim.a.settled);
}
END_TEST

/* Chunk and window never leave their bounds, on a very fast disk and on
 * a very slow one. */
/* --headroom 10 on a 20 MiB/s disk: the cap settles at 90% of what the
 * disk did (within 3%), the writer keeps to it, and the probes still
 * meet the target, in the periods without the cap too (the setpoint did
 * not grow under it: 126 ms spikes in them when it did); when the disk
 * halves, the cap follows it down. */
START_TEST(test_headroom_holds_its_share)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 50 * MS);
	adapt_set_headroom(&sim.a, 10);
	sim.step_at = 30 * SEC;
	sim.step_bw = 10 * MIB;
	sim_run(&sim, 60 * SEC);
	ck_assert(sim.a.settled);
	ck_assert_double_le(probe_p99(&sim, 15 * SEC, 30 * SEC), 60 * MS);
	/* the cap held it: the writer at 85-93% of the disk (90% seven
	 * periods in eight, the whole disk in the eighth: 91.25%) */
	ck_assert_double_ge(throughput(&sim, 10 * SEC, 30 * SEC), 0.85 * 20 * MIB);
	ck_assert_double_le(throughput(&sim, 10 * SEC, 30 * SEC), 0.93 * 20 * MIB);
	/* after the step: the disk's rate and the cap are the slow disk's */
	ck_assert_double_le(sim.a.disk_bps, 1.03 * 10 * MIB);
	ck_assert_double_ge(sim.a.disk_bps, 0.95 * 10 * MIB);
	ck_assert_double_eq_tol(sim.a.cap_bps, 0.9 * sim.a.disk_bps, 1);
	ck_assert_double_le(throughput(&sim, 45 * SEC, 59 * SEC), 0.93 * 10 * MIB);
	ck_assert_double_le(probe_p99(&sim, 45 * SEC, 60 * SEC), 60 * MS);
}
END_TEST

/* No headroom: no cap, ever (the writer takes the whole disk). */
START_TEST(test_no_headroom_no_cap)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 50 * MS);
	sim_run(&sim, 20 * SEC);
	ck_assert_uint_eq(adapt_rate_cap(&sim.a), 0);
	ck_assert_double_ge(throughput(&sim, 10 * SEC, 19 * SEC), 0.95 * 20 * MIB);
}
END_TEST

/* A controller with --headroom pct whose first period (1 s to 2 s) did
 * 20 MiB/s: its disk's rate, and the cap its share.  The time now. */
static uint64_t headroom_at_20(struct adapt *a, uint64_t target_ns,
			       unsigned int pct)
{
	uint64_t mib = 1 << 20;

	adapt_init(a, target_ns, BUFFER);
	adapt_set_headroom(a, pct);
	adapt_retired(a, 1000000000, 1000000, mib);	/* starts the first period */
	adapt_retired(a, 2000000000, 1000000, 20 * mib);	/* 20 MiB/s */
	return 2000000000;
}

/* The rule of the disk's rate, at its boundary: a period that did 97% of
 * the cap or more was held back by it and teaches nothing; one under
 * 97% shows the disk's rate.  Each period is 1 s of retired chunks. */
static const struct binding_row {
	double did_pct;		/* of the cap, in the second period */
	bool teaches;
} binding_rows[] = {
	{ 96.9, true }, { 97.0, false }, { 97.1, false }, { 50.0, true },
};

START_TEST(test_cap_binding_rule)
{
	const struct binding_row *r = &binding_rows[_i];
	struct adapt a;
	uint64_t t = 1000000000, mib = 1 << 20;
	double cap, did;

	t = headroom_at_20(&a, 100000000, 10);
	ck_assert_double_eq_tol(a.disk_bps, 20.0 * mib, 1);
	cap = a.cap_bps;
	ck_assert_double_eq_tol(cap, 18.0 * mib, 1);
	did = cap * r->did_pct / 100.0;
	adapt_retired(&a, t += 1000000000, 1000000, (uint64_t)ceil(did));
	/* the fastest free period stays the disk's: 20 MiB/s either way */
	ck_assert_double_eq_tol(a.disk_bps, 20.0 * mib, 1);
	ck_assert_uint_eq(a.nperiods, 2);
	if (r->teaches)
		ck_assert_double_eq_tol(a.period_bps[1], did, 1);
	else
		ck_assert_double_eq(a.period_bps[1], 0);
}
END_TEST

/* One period in eight runs without the cap, so that the disk's rate is
 * seen again: seven periods held back by it (at the cap), then one with
 * no cap, then the cap again; what that period did is the disk's rate,
 * faster (the disk sped up) or slower. */
START_TEST(test_one_period_in_eight_uncapped)
{
	struct adapt a;
	uint64_t t = 1000000000, mib = 1 << 20;

	t = headroom_at_20(&a, 100000000, 10);
	for (int round = 0; round < 2; round++) {
		for (int i = 1; i <= 7; i++) {
			ck_assert_uint_eq(adapt_rate_cap(&a), (uint64_t)(18.0 * mib));
			adapt_retired(&a, t += 1000000000, 1000000, 18 * mib);	/* at the cap */
			ck_assert_double_eq_tol(a.disk_bps, 20.0 * mib, 1);
		}
		ck_assert_uint_eq(adapt_rate_cap(&a), 0);	/* the 8th */
		adapt_retired(&a, t += 1000000000, 1000000, 20 * mib);
	}
	ck_assert_uint_eq(adapt_rate_cap(&a), (uint64_t)(18.0 * mib));
	/* the disk sped up: seen in the next uncapped period */
	for (int i = 1; i <= 7; i++)
		adapt_retired(&a, t += 1000000000, 1000000, 18 * mib);
	ck_assert_uint_eq(adapt_rate_cap(&a), 0);
	adapt_retired(&a, t += 1000000000, 1000000, 30 * mib);
	ck_assert_double_eq_tol(a.disk_bps, 30.0 * mib, 1);
	ck_assert_uint_eq(adapt_rate_cap(&a), (uint64_t)(27.0 * mib));
}
END_TEST

/* A period the cap did not hold shows the disk's rate when it is the
 * fastest of the last ten: the disk's rate falls once ten slow periods
 * have passed the fast one. */
START_TEST(test_disk_rate_the_fastest_of_ten)
{
	struct adapt a;
	uint64_t t = 1000000000, mib = 1 << 20;

	t = headroom_at_20(&a, 100000000, 10);
	for (int i = 0; i < 9; i++) {
		adapt_retired(&a, t += 1000000000, 1000000, 8 * mib);
		ck_assert_double_eq_tol(a.disk_bps, 20.0 * mib, 1);
	}
	adapt_retired(&a, t += 1000000000, 1000000, 8 * mib);
	ck_assert_double_eq_tol(a.disk_bps, 8.0 * mib, 1);
	ck_assert_double_eq_tol(a.cap_bps, 7.2 * mib, 1);
}
END_TEST

/* While the cap holds the writer, probes far under the target do not
 * grow the setpoint (the room is the cap's); one over it still cuts it.
 * Without a cap the same probes grow it. */
START_TEST(test_no_growth_under_the_cap)
{
	struct adapt a, b;
	uint64_t t = 1000000000, tb = t, mib = 1 << 20;
	double before;

	t = headroom_at_20(&a, 400000000, 5);
	adapt_init(&b, 400000000, BUFFER);
	ck_assert_uint_eq(adapt_rate_cap(&a), (uint64_t)(19.0 * mib));
	ck_assert_double_eq(a.setpoint_ns, b.setpoint_ns);
	before = a.setpoint_ns;
	for (int i = 0; i < 30; i++) {
		probes_period(&a, &t, 1000000);
		probes_period(&b, &tb, 1000000);
	}
	ck_assert_double_eq(a.setpoint_ns, before);
	ck_assert_double_gt(b.setpoint_ns, before);
	probes_period(&a, &t, 600000000);
	ck_assert_double_lt(a.setpoint_ns, before);
}
END_TEST

/* The probes' periods that see the cap lifted are left out of the
 * settled verdict: no band closes in them; one closes again once the
 * cap is back. */
START_TEST(test_uncapped_period_not_judged)
{
	struct adapt a;
	uint64_t t = 1000000000, mib = 1 << 20;
	unsigned int nb;

	t = headroom_at_20(&a, 400000000, 10);
	for (int i = 1; i <= 7; i++) {
		nb = a.nbands;
		adapt_retired(&a, t += 1000000000, 1000000, 18 * mib);
		probes_period(&a, &t, 1000000);
		ck_assert_uint_eq(a.nbands, i < 7 ? nb + 1 : nb);
	}
	ck_assert_uint_eq(adapt_rate_cap(&a), 0);	/* lifted */
	nb = a.nbands;
	adapt_retired(&a, t += 1000000000, 1000000, 20 * mib);	/* ends it */
	probes_period(&a, &t, 1000000);			/* saw it: left out */
	ck_assert_uint_eq(a.nbands, nb);
	ck_assert_uint_ne(adapt_rate_cap(&a), 0);
	adapt_retired(&a, t += 1000000000, 1000000, 18 * mib);
	probes_period(&a, &t, 1000000);
	ck_assert_uint_eq(a.nbands, nb + 1);
}
END_TEST

/* --headroom's bound: at most 50 (%). */
START_TEST(test_headroom_bound)
{
	struct adapt a;

	adapt_init(&a, 100000000, BUFFER);
	adapt_set_headroom(&a, 50);
	ck_assert_uint_eq(a.headroom_pct, 50);
	adapt_set_headroom(&a, 51);
	ck_assert_uint_eq(a.headroom_pct, 50);
	adapt_set_headroom(&a, 0);
	ck_assert_uint_eq(a.headroom_pct, 0);
}
END_TEST

START_TEST(test_bounds)
{
	sim_init(&sim, 4096 * MIB, 0.01 * MS, 2, 200 * MS);
	sim_run(&sim, 10 * SEC);
	ck_assert_uint_le(sim.chunk_seen_max, BUFFER);
	ck_assert_uint_le(sim.window_seen_max, 64);
	ck_assert_uint_eq(sim.window_seen_max, 64);

	sim_init(&sim, 1 * MIB, 0.1 * MS, 2, 10 * MS);
	sim_run(&sim, 10 * SEC);
	ck_assert_uint_ge(sim.chunk_seen_min, 65536);
	ck_assert_uint_eq(sim.chunk_seen_min, 65536);
	ck_assert_uint_ge(adapt_window(&sim.a), 1);
}
END_TEST

Suite *adapt_suite(void)
{
	Suite *s = suite_create("adapt");
	TCase *tc = tcase_create("simulated");

	tcase_add_test(tc, test_converges);
	tcase_add_test(tc, test_converges_bursty);
	tcase_add_test(tc, test_settles_noisy_probes);
	tcase_add_test(tc, test_settled_band);
	tcase_add_test(tc, test_recovers_after_step);
	tcase_add_test(tc, test_learns_probe_cost);
	tcase_add_test(tc, test_probe_gets_slower);
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_headroom_holds_its_share);
	tcase_add_test(tc, test_no_headroom_no_cap);
	tcase_add_loop_test(tc, test_cap_binding_rule, 0, (int)(sizeof(binding_rows) / sizeof(binding_rows[0])));
	tcase_add_test(tc, test_disk_rate_the_fastest_of_ten);
	tcase_add_test(tc, test_one_period_in_eight_uncapped);
	tcase_add_test(tc, test_no_growth_under_the_cap);
	tcase_add_test(tc, test_uncapped_period_not_judged);
	tcase_add_test(tc, test_headroom_bound);
	tcase_add_test(tc, test_multi_wait_probe);
	tcase_add_test(tc, test_multi_wait_assumed_one);
	tcase_add_test(tc, test_multi_wait_noisy);
	tcase_add_test(tc, test_multi_wait_step);
	tcase_add_test(tc, test_worst_probe_steers);
	tcase_add_test(tc, test_unreachable_target);
	tcase_add_loop_test(tc, test_step_at_most_double, 0, (int)(sizeof(steps) / sizeof(steps[0])));
	tcase_add_loop_test(tc, test_settle_band, 0, (int)(sizeof(bands) / sizeof(bands[0])));
	tcase_add_test(tc, test_noisy_never_settles);
	tcase_add_loop_test(tc, test_setpoint_start_and_top, 0, (int)(sizeof(syncs_rows) / sizeof(syncs_rows[0])));
	tcase_add_loop_test(tc, test_waits_learned, 0, (int)(sizeof(learn_rows) / sizeof(learn_rows[0])));
	tcase_add_test(tc, test_waits_from_the_slowest);
	tcase_add_test(tc, test_waits_not_learned_at_floor);
	tcase_add_loop_test(tc, test_unreachable_rule, 0, (int)(sizeof(unreach_rows) / sizeof(unreach_rows[0])));
	suite_add_tcase(s, tc);
	return s;
}
