/* What the probes' work cost the writer: trace/observer.c on made
 * devices - one that stops writing while the work is in flight, one
 * that goes on at its bandwidth - and each rule of the estimate at its
 * edge (observer.h): 30 slots of 128 ms, 0.25 s and 2% of the time for
 * the bound, 1 s without the work; bytes booked to their part. */
#include <stdlib.h>

#include "suites.h"
#include "trace/observer.h"

#define MS 1000000ull
#define SLOT (128 * MS)
#define ORIGIN (1000 * MS)
#define MIB 1048576ull

static struct observer *fresh(void)
{
	struct observer *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	observer_start(o, ORIGIN);
	return o;
}

/* Slot i: the work in flight for its first `parts` quarter-ms parts,
 * the writer's bytes completing over the slot: rate_free MiB/s of the
 * time without it, rate_busy MiB/s of the time with it, in 250 µs
 * pieces. */
static void slot_parts(struct observer *o, unsigned int i, unsigned int parts,
		       double rate_free, double rate_busy)
{
	uint64_t start = ORIGIN + i * SLOT, q = MS / 4;

	if (parts)
		observer_busy(o, start, start + parts * q);
	for (unsigned int k = 0; k < 512; k++) {
		double rate = k < parts ? rate_busy : rate_free;

		observer_writer(o, start + k * q + q / 2, (uint64_t)(rate * MIB / 4000));
	}
}

static void slot(struct observer *o, unsigned int i, unsigned int busy_ms,
		 double rate_free, double rate_busy)
{
	slot_parts(o, i, busy_ms * 4, rate_free, rate_busy);
}

/* A disk that stops while the work is in flight: 100 MiB/s without it,
 * none with it, the work 32 or 96 ms of alternate slots (half the time):
 * without it twice as fast. */
START_TEST(test_a_disk_that_stops)
{
	struct observer *o = fresh();
	struct ws_observer_cost c;

	for (unsigned int i = 0; i < 100; i++)
		slot(o, i, i % 2 ? 96 : 32, 100, 0);
	observer_finish(o);
	observer_estimate(o, &c);
	ck_assert(c.on && c.judged && !c.bound);
	ck_assert_double_eq_tol(c.busy_pct, 50, 0.01);
	ck_assert_double_eq_tol(c.free_mibps, 100, 0.5);
	ck_assert_double_eq_tol(c.busy_mibps, 0, 0.5);
	ck_assert_double_eq_tol(c.mibps, 50, 0.5);
	ck_assert_double_eq_tol(c.speedup, 2, 0.02);
	ck_assert(!c.negligible);
	free(o);
}
END_TEST

/* A disk limited in bandwidth: 40 MiB/s whatever is in flight: no cost. */
START_TEST(test_a_disk_at_its_bandwidth)
{
	struct observer *o = fresh();
	struct ws_observer_cost c;

	for (unsigned int i = 0; i < 100; i++)
		slot(o, i, i % 2 ? 96 : 32, 40, 40);
	observer_finish(o);
	observer_estimate(o, &c);
	ck_assert(c.judged && !c.bound);
	ck_assert_double_eq_tol(c.free_mibps, 40, 0.5);
	ck_assert_double_eq_tol(c.busy_mibps, 40, 0.5);
	ck_assert_double_eq_tol(c.speedup, 1, 0.02);
	ck_assert(c.negligible);
	free(o);
}
END_TEST

/* "Little or nothing": a fitted speedup under 1.05, not at it. */
START_TEST(test_negligible_edge)
{
	ck_assert(observer_negligible(1.0));
	ck_assert(observer_negligible(1.0499));
	ck_assert(!observer_negligible(1.05));
	ck_assert(!observer_negligible(1.0501));
}
END_TEST

/* 30 slots are enough to say, 29 not. */
START_TEST(test_too_short)
{
	for (unsigned int n = 29; n <= 30; n++) {
		struct observer *o = fresh();
		struct ws_observer_cost c;

		for (unsigned int i = 0; i < n; i++)
			slot(o, i, i % 2 ? 96 : 32, 100, 0);
		observer_finish(o);
		observer_estimate(o, &c);
		ck_assert_int_eq(c.judged, n == 30);
		if (n == 29)
			ck_assert_str_eq(ws_obs_why_name(c.why_not), "too short a run");
		free(o);
	}
}
END_TEST

/* The bound: its work under 0.25 s, or under 2% of the time.  30 slots
 * are 3.84 s (2% is 77 ms): 249 ms is bound by the first, 250 ms not;
 * 100 slots are 12.8 s (2% is 256 ms): 255 ms is bound by the second,
 * 256 ms (exactly 2%) and 257 ms not. */
START_TEST(test_bound_edges)
{
	static const struct { unsigned int slots, busy_ms; bool bound; } rows[] = {
		{ 30, 249, true }, { 30, 250, false },
		{ 100, 255, true }, { 100, 256, false }, { 100, 257, false },
	};

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct observer *o = fresh();
		struct ws_observer_cost c;
		unsigned int left = rows[r].busy_ms;

		/* the work spread over the first slots, uneven, to fit */
		for (unsigned int i = 0; i < rows[r].slots; i++) {
			unsigned int b = left > 100 ? 100 - (i % 2) * 20 : left;

			slot(o, i, b, 100, 0);
			left -= b;
		}
		observer_finish(o);
		observer_estimate(o, &c);
		ck_assert_msg(c.judged && c.bound == rows[r].bound,
			      "row %zu: judged %d bound %d (%s)", r, c.judged, c.bound,
			      c.why_not ? ws_obs_why_name(c.why_not) : "");
		if (c.bound)
			ck_assert_double_eq_tol(c.speedup, 100 / (100 - c.busy_pct), 1e-9);
		free(o);
	}
}
END_TEST

/* Fitting needs 1 s without the work: 7 slots free of it and one with
 * 24 ms of it, the rest all of it, are 1.000 s without (fitted); a
 * quarter ms more of it, not. */
START_TEST(test_free_edge)
{
	for (unsigned int extra = 0; extra <= 1; extra++) {
		struct observer *o = fresh();
		struct ws_observer_cost c;

		for (unsigned int i = 0; i < 40; i++)
			slot_parts(o, i, i < 7 ? 0 : i == 7 ? 96 + extra : 512, 100, 0);
		observer_finish(o);
		observer_estimate(o, &c);
		ck_assert_int_eq(c.judged, !extra);
		if (extra)
			ck_assert_str_eq(ws_obs_why_name(c.why_not), "its work was in flight nearly all the time");
		else
			ck_assert_double_eq_tol(c.free_mibps, 100, 0.5);
		free(o);
	}
}
END_TEST

/* Each write is booked to the 250 µs part it completed in: 4 MiB
 * completing during each span of the work, short (8 ms) or long (96),
 * are the work's, 100 MiB/s the rest.  A least-squares fit over the
 * slots' shares read 131.25 MiB/s without it; the same share in every
 * slot (64 ms), which it could not fit, is booked too. */
START_TEST(test_booked_by_part)
{
	static const struct { unsigned int a, b; double busy; } rows[] = {
		{ 8, 96, 8 / 0.104 }, { 64, 64, 4 / 0.064 },
	};
	struct observer *o = fresh();
	struct ws_observer_cost c;

	for (unsigned int i = 0; i < 100; i++) {
		unsigned int ms = i % 2 ? rows[_i].b : rows[_i].a;
		uint64_t start = ORIGIN + i * SLOT;

		slot_parts(o, i, ms * 4, 100, 0);
		for (unsigned int k = 0; k < 16; k++)
			observer_writer(o, start + k * ms * MS / 16, MIB / 4);
	}
	observer_finish(o);
	observer_estimate(o, &c);
	ck_assert(c.judged && !c.bound);
	ck_assert_double_eq_tol(c.free_mibps, 100, 0.5);
	ck_assert_double_eq_tol(c.busy_mibps, rows[_i].busy, 0.5);
	free(o);
}
END_TEST

/* Events for slots closed already (2 s later) are counted, not put
 * elsewhere; a span that began before the open slots counts its rest. */
START_TEST(test_late_events)
{
	struct observer *o = fresh();

	observer_busy(o, ORIGIN - 20 * MS, ORIGIN - 10 * MS);	/* before it: nothing */
	observer_busy(o, ORIGIN - 20 * MS, ORIGIN);
	ck_assert_uint_eq(o->clock.reached, 0);
	observer_writer(o, ORIGIN + 5 * MS, MIB);	/* slot 0 */
	observer_writer(o, ORIGIN + 3000 * MS, MIB);	/* slot 23: 0..7 closed */
	ck_assert_uint_eq(o->slots, 8);
	observer_writer(o, ORIGIN + 10 * MS, MIB);
	ck_assert_uint_eq(o->clock.late, 1);
	observer_busy(o, ORIGIN + 900 * MS, ORIGIN + 1100 * MS);	/* from slot 7 */
	ck_assert_uint_eq(o->clock.late, 2);
	observer_finish(o);
	ck_assert_uint_eq(o->slots, 24);
	/* 1024..1100 ms: 76 ms, in 250 µs parts */
	ck_assert_uint_eq(o->busy_parts, 304);
	ck_assert_uint_eq(o->writer_bytes, 2 * MIB);
	/* the last slot up to the latest event: 2944..3000 ms, 225 parts */
	ck_assert_uint_eq(o->parts, 23 * 512 + 225);
	free(o);
}
END_TEST

/* The fit starts at the first slot with a write of the writer's: ten
 * slots of fsyncs while its data went to the page cache only (none of
 * it at the device) are left out, and a disk at its bandwidth still
 * costs nothing.  Counted, they read as slots where the work in flight
 * stopped the writer. */
START_TEST(test_fit_starts_at_the_writer)
{
	struct observer *o = fresh();
	struct ws_observer_cost c;

	for (unsigned int i = 0; i < 10; i++)
		observer_busy(o, ORIGIN + i * SLOT, ORIGIN + i * SLOT + 64 * MS);
	for (unsigned int i = 10; i < 50; i++)
		slot(o, i, i % 2 ? 96 : 32, 40, 40);
	observer_finish(o);
	observer_estimate(o, &c);
	ck_assert_uint_eq(o->before_writer, 10);
	ck_assert_uint_eq(o->slots, 40);
	ck_assert_double_eq_tol(c.seconds, 40 * 0.128, 1e-9);
	ck_assert_double_eq_tol(c.busy_pct, 50, 0.01);
	ck_assert(c.judged && !c.bound);
	ck_assert_double_eq_tol(c.speedup, 1, 0.02);
	free(o);
}
END_TEST

/* The run ends 16 ms into its last slot: that slot counts 16 ms, all of
 * it without the work, at the writer's 100 MiB/s.  Counted whole, it is
 * 112 ms more without the work and no writes. */
START_TEST(test_last_slot_partial)
{
	struct observer *o = fresh();
	struct ws_observer_cost c;
	uint64_t start = ORIGIN + 40 * SLOT, q = MS / 4;

	for (unsigned int i = 0; i < 40; i++)
		slot(o, i, i % 2 ? 96 : 32, 100, 0);
	for (unsigned int k = 0; k < 64; k++)
		observer_writer(o, start + k * q + q / 2, 100 * MIB / 4000);
	observer_finish(o);
	observer_estimate(o, &c);
	ck_assert_uint_eq(o->slots, 41);
	ck_assert_uint_eq(o->parts, 40 * 512 + 64);
	ck_assert_double_eq_tol(c.seconds, 40 * 0.128 + 0.016, 1e-9);
	ck_assert(c.judged && !c.bound);
	ck_assert_double_eq_tol(c.free_mibps, 100, 0.5);
	ck_assert_double_eq_tol(c.speedup, 2 * 5.136 / (5.12 + 0.032), 0.02);
	free(o);
}
END_TEST

/* A fitted rate while the work was in flight over the device's fastest
 * interval (20 MiB/s here) is not judged; at it, judged; a free rate over
 * it is judged (a flush-bound disk's writer between flushes, 2.8 GiB/s
 * with intervals of 1.1); a bound or no device figure is left as it was.
 * The 12.9 / 351.9 MiB/s fit a 20 MiB/s disk once gave. */
START_TEST(test_beyond_the_device)
{
	static const struct {
		double free_, busy, device;
		bool bound, judged;
	} cases[] = {
		{ 12.9, 351.9, 20.0, false, false },
		{ 20.0, 10.0, 20.0, false, true },
		{ 20.01, 10.0, 20.0, false, true },
		{ 2803.0, 300.0, 1143.4, false, true },
		{ 10.0, 20.0, 20.0, false, true },
		{ 10.0, 20.01, 20.0, false, false },
		{ 12.9, 351.9, 0.0, false, true },
		{ 0, 0, 20.0, true, true },
	};
	struct ws_observer_cost c = { .on = true, .judged = true, .bound = cases[_i].bound,
				      .free_mibps = cases[_i].free_, .busy_mibps = cases[_i].busy,
				      .mibps = 15, .speedup = 1.3 };

	ws_observer_within_device(&c, cases[_i].device);
	ck_assert_int_eq(c.judged, cases[_i].judged);
	ck_assert_double_eq(c.device_mibps, cases[_i].device);
	if (!cases[_i].judged)
		ck_assert_str_eq(ws_obs_why_name(c.why_not),
				 "the rate while its work was in flight is beyond any the device did");
	else
		ck_assert_ptr_null(ws_obs_why_name(c.why_not));
}
END_TEST

Suite *observer_suite(void)
{
	Suite *s = suite_create("observer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_a_disk_that_stops);
	tcase_add_test(tc, test_a_disk_at_its_bandwidth);
	tcase_add_test(tc, test_negligible_edge);
	tcase_add_test(tc, test_too_short);
	tcase_add_test(tc, test_bound_edges);
	tcase_add_test(tc, test_free_edge);
	tcase_add_loop_test(tc, test_booked_by_part, 0, 2);
	tcase_add_test(tc, test_late_events);
	tcase_add_test(tc, test_fit_starts_at_the_writer);
	tcase_add_test(tc, test_last_slot_partial);
	tcase_add_loop_test(tc, test_beyond_the_device, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}
