/* The device's write latency round by round: trace/roundlat.c at its
 * rules' edges (a round is [origin + r x round, origin + (r+1) x round);
 * RL_OPEN rounds stay open; late and early completions counted apart),
 * and on recorded runs, where the rounds' writes add up to the run's. */
#include <stdlib.h>

#include "suites.h"
#include "trace/blockstat.h"
#include "trace/roundlat.h"
#include "trace_fixture.h"

#define MS 1000000ull

START_TEST(test_round_edges)
{
	struct roundlat rl = { 0 };

	ck_assert_int_eq(roundlat_start(&rl, 1000 * MS, 100 * MS), 0);
	roundlat_add(&rl, 1000 * MS - 1, 7 * MS);	/* before the origin */
	roundlat_add(&rl, 1000 * MS, 1 * MS);		/* round 0's first ns */
	roundlat_add(&rl, 1100 * MS - 1, 3 * MS);	/* round 0's last */
	roundlat_add(&rl, 1100 * MS, 5 * MS);		/* round 1's first */
	roundlat_finish(&rl);
	ck_assert_uint_eq(rl.clock.early, 1);
	ck_assert_uint_eq(rl.clock.late, 0);
	ck_assert_uint_eq(rl.ndone, 2);
	ck_assert_uint_eq(rl.done[0].writes, 2);
	ck_assert_uint_eq(rl.done[1].writes, 1);
	/* within the histogram's 1/256 */
	ck_assert_uint_ge(rl.done[1].p50_ns, 5 * MS - 5 * MS / 256);
	ck_assert_uint_le(rl.done[1].p50_ns, 5 * MS + 5 * MS / 256);
	/* nothing counts once finished */
	roundlat_add(&rl, 1150 * MS, 5 * MS);
	ck_assert_uint_eq(rl.ndone, 2);
	roundlat_free(&rl);
}
END_TEST

/* p50 and p99 of a round: 100 writes of 1..100 ms */
START_TEST(test_round_percentiles)
{
	struct roundlat rl = { 0 };

	ck_assert_int_eq(roundlat_start(&rl, 0, 1000 * MS), 0);
	for (uint64_t i = 1; i <= 100; i++)
		roundlat_add(&rl, i * MS, i * MS);
	roundlat_finish(&rl);
	ck_assert_uint_eq(rl.ndone, 1);
	ck_assert_uint_eq(rl.done[0].writes, 100);
	ck_assert_uint_ge(rl.done[0].p50_ns, 50 * MS - 50 * MS / 256);
	ck_assert_uint_le(rl.done[0].p50_ns, 50 * MS + 50 * MS / 256);
	ck_assert_uint_ge(rl.done[0].p99_ns, 99 * MS - 99 * MS / 256);
	ck_assert_uint_le(rl.done[0].p99_ns, 99 * MS + 99 * MS / 256);
	roundlat_free(&rl);
}
END_TEST

/* Rounds of 1.2 s and longer: 8 stay open.  A completion of round 7
 * leaves round 0 open for a late one; round 8's closes it, and a late
 * one then is counted apart, never put into another round. */
START_TEST(test_open_rounds)
{
	struct roundlat rl = { 0 };
	const uint64_t R = 1200 * MS;

	ck_assert_int_eq(roundlat_start(&rl, 0, R), 0);
	ck_assert_uint_eq(rl.clock.nopen, 8);
	roundlat_add(&rl, 7 * R + 5, 2 * MS);	/* round 7 */
	ck_assert_uint_eq(rl.ndone, 0);
	roundlat_add(&rl, 5, 2 * MS);		/* round 0, read late: in time */
	ck_assert_uint_eq(rl.clock.late, 0);
	roundlat_add(&rl, 8 * R + 5, 2 * MS);	/* round 8 closes round 0 */
	ck_assert_uint_eq(rl.ndone, 1);
	ck_assert_uint_eq(rl.done[0].writes, 1);
	roundlat_add(&rl, 6, 2 * MS);		/* round 0 again: too late */
	ck_assert_uint_eq(rl.clock.late, 1);
	roundlat_add(&rl, R + 5, 2 * MS);	/* round 1: still open */
	ck_assert_uint_eq(rl.clock.late, 1);
	roundlat_finish(&rl);
	ck_assert_uint_eq(rl.ndone, 9);		/* rounds 0..8 */
	ck_assert_uint_eq(rl.done[0].writes, 1);
	ck_assert_uint_eq(rl.done[1].writes, 1);
	for (int r = 2; r < 7; r++) {
		ck_assert_uint_eq(rl.done[r].writes, 0);
		ck_assert_uint_eq(rl.done[r].p99_ns, 0);
	}
	ck_assert_uint_eq(rl.done[7].writes, 1);
	ck_assert_uint_eq(rl.done[8].writes, 1);
	roundlat_free(&rl);
}
END_TEST

/* Shorter rounds keep 1.2 s open (a completion waits up to a second for
 * its issue): 150 ms rounds 8 (1.2 s exactly), 149 ms 9, 10 ms 120;
 * never more than 128 (1 ms rounds: 1200). */
START_TEST(test_open_rounds_span_time)
{
	static const struct { uint64_t round_ns; unsigned int nopen; } rows[] = {
		{ 150 * MS, 8 }, { 149 * MS, 9 }, { 10 * MS, 120 }, { 1 * MS, 128 },
		{ 60000 * MS, 8 },
	};
	struct roundlat rl = { 0 };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ck_assert_int_eq(roundlat_start(&rl, 0, rows[i].round_ns), 0);
		ck_assert_uint_eq(rl.clock.nopen, rows[i].nopen);
	}
	/* 10 ms rounds: a completion read a second late still finds its own */
	ck_assert_int_eq(roundlat_start(&rl, 0, 10 * MS), 0);
	roundlat_add(&rl, 1105 * MS, 1 * MS);	/* round 110 */
	roundlat_add(&rl, 105 * MS, 1 * MS);	/* round 10, a second late */
	ck_assert_uint_eq(rl.clock.late, 0);
	roundlat_finish(&rl);
	ck_assert_uint_eq(rl.done[10].writes, 1);
	roundlat_free(&rl);
}
END_TEST

/* Not started: nothing counted, nothing allocated. */
START_TEST(test_not_started)
{
	struct roundlat rl = { 0 };

	roundlat_add(&rl, 5 * MS, 1 * MS);
	roundlat_finish(&rl);
	ck_assert(!rl.started);
	ck_assert_uint_eq(rl.ndone, 0);
	ck_assert_int_eq(roundlat_start(&rl, 0, 0), 0);	/* round 0: off */
	ck_assert(!rl.started);
	roundlat_free(&rl);
}
END_TEST

/* A recorded run through blockstat, rounds of 1 s from its first event:
 * every write with data the run counted is in exactly one round. */
START_TEST(test_recorded_rounds_add_up)
{
	static const char *const runs[] = { "flood-ext4-loop.events",
					    "queue-ext4-loop.events" };
	struct recorded r;
	struct blockstat *b = malloc(sizeof(*b));
	uint64_t sum = 0, first = UINT64_MAX;

	ck_assert_ptr_nonnull(b);
	blockstat_init(b);
	recorded_load(runs[_i], &r);
	for (size_t i = 0; i < r.n; i++)
		if (r.ev[i].kind == TE_BLOCK && r.ev[i].blk.ts_ns < first)
			first = r.ev[i].blk.ts_ns;
	ck_assert_int_eq(roundlat_start(&b->rounds, first, 1000 * MS), 0);
	for (size_t i = 0; i < r.n; i++)
		if (r.ev[i].kind == TE_BLOCK)
			blockstat_event(b, &r.ev[i].blk);
	blockstat_settle(b, true);
	roundlat_finish(&b->rounds);
	ck_assert_uint_gt(b->rounds.ndone, 2);
	for (size_t k = 0; k < b->rounds.ndone; k++) {
		const struct ws_round_device *d = &b->rounds.done[k];

		sum += d->writes;
		if (d->writes)
			ck_assert_uint_le(d->p50_ns, d->p99_ns);
	}
	ck_assert_uint_eq(b->rounds.clock.late + b->rounds.clock.early, 0);
	/* every write with data the run counted, in the figures' own terms */
	ck_assert_uint_eq(sum, b->run.dir[WS_BLK_WRITE].requests -
			       b->run.dir[WS_BLK_WRITE].empty);
	ck_assert_uint_gt(sum, 0);
	blockstat_free(b);	/* its rounds too */
	recorded_free(&r);
	free(b);
}
END_TEST

Suite *roundlat_suite(void)
{
	Suite *s = suite_create("roundlat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_round_edges);
	tcase_add_test(tc, test_round_percentiles);
	tcase_add_test(tc, test_open_rounds);
	tcase_add_test(tc, test_open_rounds_span_time);
	tcase_add_test(tc, test_not_started);
	tcase_add_loop_test(tc, test_recorded_rounds_add_up, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
