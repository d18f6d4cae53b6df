/* test_adapt_headroom.c - the headroom tried before a target is called out
 * of reach (adapt.c, adapt.h), on the test's own clock: each period is
 * one second, its probes' slowest given, the writer held at the floor by
 * chunks that take a second on the disk. */
#include <stdint.h>

#include <check.h>

#include "engine/adapt.h"
#include "suites.h"

#define MS 1000000ull
#define SEC 1000000000ull
#define MIB (1024ull * 1024)

/* target 150 ms, steered by slot 0 (idle 1 ms, 4 syncs); the first
 * second did 4 MiB (the disk's rate); --headroom pct.  The time now. */
static uint64_t start(struct adapt *a, unsigned int pct)
{
	adapt_init(a, 150 * MS, 8 * MIB);
	adapt_steer_by(a, 0, 1 * MS, 4);
	adapt_set_headroom(a, pct);
	a->inflight = (double)ADAPT_CHUNK_MIN;	/* at the floor from the start */
	a->chunk = ADAPT_CHUNK_MIN;
	a->window = 1;
	adapt_retired(a, 1 * SEC, 1 * SEC, 64 * 1024);
	adapt_retired(a, 2 * SEC, 1 * SEC, 4 * MIB);
	return 2 * SEC;
}

/* One period: eight probes whose slowest took worst_ns, then a chunk of
 * bytes retired (a second's worth). */
static void period(struct adapt *a, uint64_t *t, uint64_t worst_ns, uint64_t bytes)
{
	struct adapt_obs o = { .worst_ns = worst_ns, .sum_ns = 8 * worst_ns, .n = 8 };

	*t += SEC;
	adapt_probe(a, *t, 0, &o);
	adapt_retired(a, *t + 1 * MS, 1 * SEC, bytes);
}

static void periods(struct adapt *a, uint64_t *t, unsigned int n,
		    uint64_t worst_ns)
{
	for (unsigned int i = 0; i < n; i++)
		period(a, t, worst_ns, 3 * MIB);
}

/* Over the target means over: at it three periods is met, a nanosecond
 * over for three is the first attempt's end (headroom 25, cap 75% of
 * the 4 MiB/s). */
static const struct edge_row {
	uint64_t worst_ns;
	unsigned int nattempts, pct;
} edge_rows[] = {
	{ 150 * MS, 0, 0 }, { 150 * MS + 1, 1, 25 }, { 149 * MS, 0, 0 },
};

START_TEST(test_over_the_target_at_the_edge)
{
	const struct edge_row *r = &edge_rows[_i];
	struct adapt a;
	uint64_t t = start(&a, 0);

	ck_assert_double_eq_tol(a.disk_bps, 4.0 * MIB, 1);
	ck_assert_uint_eq(adapt_rate_cap(&a), 0);
	periods(&a, &t, 3, r->worst_ns);
	ck_assert_uint_eq(a.nattempts, r->nattempts);
	ck_assert_uint_eq(a.headroom_pct, r->pct);
	ck_assert(!a.unreachable);
	if (r->pct) {
		ck_assert_uint_eq(a.attempt[0].headroom_pct, 0);
		ck_assert_uint_eq(a.attempt[0].worst_ns, 150 * MS + 1);
		ck_assert(!a.attempt[0].met);
		ck_assert_uint_eq(adapt_rate_cap(&a), 3 * MIB);
	}
}
END_TEST

/* Two periods over, then one within: the count starts again. */
START_TEST(test_two_over_are_not_three)
{
	struct adapt a;
	uint64_t t = start(&a, 0);

	periods(&a, &t, 2, 200 * MS);
	periods(&a, &t, 1, 100 * MS);
	periods(&a, &t, 2, 200 * MS);
	ck_assert_uint_eq(a.nattempts, 0);
	periods(&a, &t, 1, 200 * MS);
	ck_assert_uint_eq(a.nattempts, 1);
}
END_TEST

/* 0, 25, 50, then out of reach, each attempt with the least of its
 * periods' slowest. */
START_TEST(test_every_share_fails)
{
	struct adapt a;
	uint64_t t = start(&a, 0);

	period(&a, &t, 300 * MS, 3 * MIB);
	period(&a, &t, 290 * MS, 3 * MIB);
	period(&a, &t, 310 * MS, 3 * MIB);
	ck_assert_uint_eq(a.headroom_pct, 25);
	periods(&a, &t, 3, 200 * MS);
	ck_assert_uint_eq(a.headroom_pct, 50);
	ck_assert_uint_eq(adapt_rate_cap(&a), 2 * MIB);
	ck_assert(!a.unreachable);
	periods(&a, &t, 3, 160 * MS);
	ck_assert(a.unreachable);
	ck_assert_uint_eq(a.unreachable_ns, t);
	ck_assert_uint_eq(a.nattempts, 3);
	ck_assert_uint_eq(a.attempt[0].worst_ns, 290 * MS);
	ck_assert_uint_eq(a.attempt[1].headroom_pct, 25);
	ck_assert_uint_eq(a.attempt[1].worst_ns, 200 * MS);
	ck_assert_uint_eq(a.attempt[2].headroom_pct, 50);
	ck_assert_uint_eq(a.attempt[2].worst_ns, 160 * MS);
	ck_assert_uint_eq(a.headroom_met_ns, 0);
}
END_TEST

/* Met with 25: three periods within the target; the cap then stays
 * (never lifted, even with room), and a later failure takes the met
 * attempt's place before the next share. */
START_TEST(test_met_with_a_share)
{
	struct adapt a;
	uint64_t t = start(&a, 0);

	periods(&a, &t, 3, 300 * MS);
	periods(&a, &t, 2, 120 * MS);
	ck_assert_uint_eq(a.nattempts, 1);
	period(&a, &t, 140 * MS, 3 * MIB);
	ck_assert_uint_eq(a.nattempts, 2);
	ck_assert(a.attempt[1].met);
	ck_assert_uint_eq(a.attempt[1].worst_ns, 140 * MS);
	ck_assert_uint_eq(a.headroom_met_ns, t);
	for (int i = 0; i < 12; i++) {
		period(&a, &t, 1 * MS, 3 * MIB);
		ck_assert_uint_ne(adapt_rate_cap(&a), 0);
	}
	periods(&a, &t, 3, 170 * MS);
	ck_assert_uint_eq(a.nattempts, 2);
	ck_assert(!a.attempt[1].met);
	ck_assert_uint_eq(a.attempt[1].worst_ns, 170 * MS);
	ck_assert_uint_eq(a.headroom_pct, 50);
	ck_assert_uint_eq(a.headroom_met_ns, 0);
}
END_TEST

/* From --headroom's share to the next multiple of 25, at most 50; at
 * 50 none is left. */
static const struct from_row {
	unsigned int user, next;
} from_rows[] = {
	{ 5, 25 }, { 24, 25 }, { 25, 50 }, { 30, 50 }, { 49, 50 }, { 50, 0 },
};

START_TEST(test_from_the_users_share)
{
	const struct from_row *r = &from_rows[_i];
	struct adapt a;
	uint64_t t = start(&a, r->user);

	periods(&a, &t, 3, 200 * MS);
	ck_assert_uint_eq(a.nattempts, 1);
	ck_assert_uint_eq(a.attempt[0].headroom_pct, r->user);
	ck_assert(a.unreachable == !r->next);
	ck_assert_uint_eq(a.headroom_pct, r->next ? r->next : 50);
}
END_TEST

/* No second of the disk's rate yet: nothing to cap by, out of reach. */
START_TEST(test_no_rate_no_attempt)
{
	struct adapt a;
	uint64_t t = 1 * SEC;

	adapt_init(&a, 150 * MS, 8 * MIB);
	adapt_steer_by(&a, 0, 1 * MS, 4);
	a.inflight = (double)ADAPT_CHUNK_MIN;
	a.chunk = ADAPT_CHUNK_MIN;
	a.window = 1;
	for (int i = 0; i < 3; i++) {
		struct adapt_obs o = { .worst_ns = 200 * MS, .sum_ns = 1600 * MS, .n = 8 };

		t += SEC;
		adapt_probe(&a, t, 0, &o);
	}
	ck_assert_double_eq(a.disk_bps, 0);
	ck_assert(a.unreachable);
	ck_assert_uint_eq(a.nattempts, 1);
	ck_assert_uint_eq(a.headroom_pct, 0);
}
END_TEST

/* --headroom's cap is lifted after seven capped periods only while the
 * last periods' slowest probe were all under 75% of the target (112.5
 * ms of 150): at 112 ms it lifts, at 113 it does not. */
static const struct lift_row {
	uint64_t worst_ns;
	bool lifts;
} lift_rows[] = {
	{ 112 * MS, true }, { 112500 * 1000ull, false }, { 113 * MS, false },
};

START_TEST(test_lift_only_with_room)
{
	const struct lift_row *r = &lift_rows[_i];
	struct adapt a;
	uint64_t t = start(&a, 10);
	bool lifted = false;

	ck_assert_uint_ne(adapt_rate_cap(&a), 0);
	for (int i = 0; i < 10; i++) {
		period(&a, &t, r->worst_ns, (uint64_t)(a.cap_bps));
		lifted |= adapt_rate_cap(&a) == 0;
	}
	ck_assert(lifted == r->lifts);
}
END_TEST

Suite *adapt_headroom_suite(void)
{
	Suite *s = suite_create("adapt_headroom");
	TCase *tc = tcase_create("attempts");

	tcase_add_loop_test(tc, test_over_the_target_at_the_edge, 0, 3);
	tcase_add_test(tc, test_two_over_are_not_three);
	tcase_add_test(tc, test_every_share_fails);
	tcase_add_test(tc, test_met_with_a_share);
	tcase_add_loop_test(tc, test_from_the_users_share, 0, 6);
	tcase_add_test(tc, test_no_rate_no_attempt);
	tcase_add_loop_test(tc, test_lift_only_with_room, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}
