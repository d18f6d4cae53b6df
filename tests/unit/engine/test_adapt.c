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

	struct chunk q[MAX_INFLIGHT];
	unsigned int nq;
	uint64_t queued_bytes;

	/* results */
	double probe_at[MAX_PROBES], probe_ns[MAX_PROBES];
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
		adapt_probe(&s->a, (uint64_t)t, (uint64_t)s->probe_ns[told]);
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

			if (t >= s->step_at) {
				s->dev.bw = s->step_bw;
				s->probe_extra_ns = s->step_extra_ns;
			}
			for (unsigned int i = 0; i < s->probe_requests; i++)
				fin = device_submit(&s->dev, fin, 4096);
			fin += s->probe_extra_ns;
			s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
			if ((double)(s->rng >> 11) / 9007199254740992.0 < s->requeue_share)
				fin += (double)s->queued_bytes / s->dev.bw * SEC;
			if (s->nprobes < MAX_PROBES) {
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
				      (uint64_t)(tw - c.started));
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

/* p99 of the probes that started in [from, to). */
static double probe_p99(const struct sim *s, double from, double to)
{
	double v[MAX_PROBES];
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->nprobes; i++)
		if (s->probe_at[i] >= from && s->probe_at[i] < to)
			v[n++] = s->probe_ns[i];
	ck_assert_uint_gt(n, 10);
	qsort(v, n, sizeof(*v), by_value);
	return v[(size_t)ceil(0.99 * n) - 1];
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
 * within 20% of it and the writer gets 90% of the device or more. */
START_TEST(test_converges)
{
	sim_init(&sim, 20 * MIB, 0.1 * MS, 2, 50 * MS);
	sim_run(&sim, 60 * SEC);
	ck_assert(sim.a.settled);
	ck_assert_double_lt(sim.a.settled_ns, 15 * SEC);
	ck_assert_double_ge(probe_p99(&sim, 15 * SEC, 60 * SEC), 40 * MS);
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
	ck_assert_double_ge(probe_p99(&sim, 15 * SEC, 60 * SEC), 40 * MS);
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
 * moment, then within 5 s are back near the target, at 90% of the new
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
	ck_assert_double_ge(probe_p99(&sim, 35 * SEC, 70 * SEC), 40 * MS);
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
	ck_assert_double_ge(probe_p99(&sim, 20 * SEC, 60 * SEC), 40 * MS);
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
	ck_assert_double_ge(probe_p99(&sim, 35 * SEC, 60 * SEC), 40 * MS);
	ck_assert_double_le(probe_p99(&sim, 35 * SEC, 60 * SEC), 60 * MS);
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
	adapt_retired(&a, 1000000000, (uint64_t)steps[_i].sojourn_ns);
	ck_assert_double_eq(a.inflight, before);	/* no round trip yet */
	adapt_retired(&a, 1000000000 + 2 * (uint64_t)steps[_i].sojourn_ns,
		      (uint64_t)steps[_i].sojourn_ns);
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
		adapt_retired(&a, t += 1000000, 50000000);
		a.inflight = mean * (1 + bands[_i].d);
		adapt_retired(&a, t += 1000000, 50000000);
		adapt_probe(&a, t += 1000000, 80000000);
		a.inflight = mean;
		ck_assert(!a.settled);
		t = start + 1000000000 + 1000000;	/* the period's end */
		adapt_retired(&a, t, 50000000);
		ck_assert_uint_eq(a.nbands, (unsigned int)p + 1);
		ck_assert_uint_eq(a.calm_periods, (unsigned int)p + 1);
	}
	ck_assert_double_eq(a.setpoint_ns, 50e6);
	ck_assert_int_eq(a.settled, bands[_i].settles);
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
	tcase_add_loop_test(tc, test_step_at_most_double, 0, (int)(sizeof(steps) / sizeof(steps[0])));
	tcase_add_loop_test(tc, test_settle_band, 0, (int)(sizeof(bands) / sizeof(bands[0])));
	tcase_add_test(tc, test_noisy_never_settles);
	suite_add_tcase(s, tc);
	return s;
}
