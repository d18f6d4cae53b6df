/* Several targets as one run (aggregate.c): intervals summed with a
 * shared device counted once, progress added up between marks, and the
 * worst ending standing for the run. */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "recorder/aggregate.h"
#include "analysis/series.h"
#include "suites.h"
#include "lib/units.h"

#define SEC WS_NSEC_PER_SEC
#define M WS_MIB

START_TEST(test_interval_sums)
{
	struct ws_interval t[3] = {
		{ .dbytes = 100 * M, .progress = 0.5, .eta_ns = 10 * SEC,
		  .have_device = true, .dev_bytes = 150 * M, .dev_mibps = 150,
		  .dev_inflight = 4, .dev_busy_pct = 60 },
		/* on the same device as the first: its counters are the same */
		{ .dbytes = 50 * M, .progress = 0.25, .eta_ns = 30 * SEC,
		  .have_device = true, .dev_bytes = 150 * M, .dev_mibps = 150,
		  .dev_inflight = 4, .dev_busy_pct = 60 },
		{ .dbytes = 10 * M, .progress = 0.75, .eta_ns = 3 * SEC,
		  .have_device = true, .dev_bytes = 10 * M, .dev_mibps = 10,
		  .dev_inflight = 1, .dev_busy_pct = 90 },
	};
	const bool own[3] = { true, false, true };
	struct ws_interval iv = { .t_ns = 2 * SEC, .dt_ns = SEC, .bytes = 400 * M,
				  .have_device = true, .dev_bytes = 1 };

	t[0].time_ns[WS_T_WAIT] = SEC;
	t[1].time_ns[WS_T_WAIT] = SEC / 2;
	t[2].time_ns[WS_T_WRITE] = SEC / 2;
	aggregate_interval(t, 3, own, &iv);
	ck_assert_uint_eq(iv.dbytes, 160 * M);
	ck_assert_double_eq_tol(iv.mibps, 160.0, 1e-9);
	ck_assert_double_eq_tol(iv.avg_mibps, 200.0, 1e-9);
	ck_assert_uint_eq(iv.time_ns[WS_T_WAIT], 3 * SEC / 2);
	/* the device under two targets counts once; what iv held is gone */
	ck_assert(iv.have_device);
	ck_assert_uint_eq(iv.dev_bytes, 160 * M);
	ck_assert_double_eq_tol(iv.dev_mibps, 160.0, 1e-9);
	ck_assert_uint_eq(iv.dev_inflight, 5);
	ck_assert_double_eq_tol(iv.dev_busy_pct, 90.0, 1e-9);
	/* the run is as far along as its furthest-behind target */
	ck_assert_double_eq_tol(iv.progress, 0.25, 1e-12);
	ck_assert_uint_eq(iv.eta_ns, 30 * SEC);
	/* waiting took 1.5 of the three writers' 3 seconds */
	ck_assert_int_eq(iv.busiest, WS_T_WAIT);
	ck_assert_double_eq_tol(iv.busiest_share, 0.5, 1e-9);
}
END_TEST

static void add(struct ws_series *s, uint64_t t, uint64_t bytes)
{
	struct ws_point prev = s->n ? s->pts[s->n - 1] : (struct ws_point){ 0 };
	struct ws_point p = { .t_ns = t, .dt_ns = t - prev.t_ns, .bytes = bytes,
			      .dbytes = bytes - prev.bytes };

	p.mibps = ws_mibps(p.dbytes, p.dt_ns);
	series_add(s, &p);
}

/* Two writers, the second started half a second late: the run's bytes at
 * each mark of either are the sum of both, the other's read off its
 * marks in a straight line. */
START_TEST(test_progress_adds_up)
{
	static struct ws_series a, b, out;
	const struct ws_series *ps[2] = { &a, &b };
	const uint64_t offset[2] = { 0, SEC / 2 };

	series_init(&a);
	series_init(&b);
	add(&a, 1 * SEC, 100 * M);
	add(&a, 2 * SEC, 200 * M);
	add(&a, 3 * SEC, 300 * M);
	add(&b, 1 * SEC, 40 * M);	/* 1.5 s on the run's clock */
	add(&b, 2 * SEC, 80 * M);	/* 2.5 s */
	series_finish(&a);
	series_finish(&b);
	aggregate_progress(ps, offset, 2, &out);
	ck_assert_uint_eq(out.n, 5);
	ck_assert_uint_eq(out.pts[0].t_ns, SEC);
	ck_assert_uint_eq(out.pts[0].bytes, 100 * M + 20 * M);	/* b at its 0.5 s */
	ck_assert_uint_eq(out.pts[1].t_ns, 3 * SEC / 2);
	ck_assert_uint_eq(out.pts[1].bytes, 150 * M + 40 * M);
	ck_assert_uint_eq(out.pts[3].t_ns, 5 * SEC / 2);
	ck_assert_uint_eq(out.pts[3].bytes, 250 * M + 80 * M);
	/* b has ended: its last bytes stay in the sum */
	ck_assert_uint_eq(out.pts[4].t_ns, 3 * SEC);
	ck_assert_uint_eq(out.pts[4].bytes, 300 * M + 80 * M);
	ck_assert_uint_eq(out.pts[4].dbytes, 50 * M);
	ck_assert_double_eq_tol(out.pts[4].mibps, 100.0, 1e-9);
}
END_TEST

START_TEST(test_summary_worst_ending)
{
	static struct ws_summary t[3], sum;

	memset(t, 0, sizeof(t));
	memset(&sum, 0, sizeof(sum));
	t[0] = (struct ws_summary){ .bytes = 8 * M, .elapsed_ns = 4 * SEC,
				    .cpu_writer_ns = SEC, .queue_peak = 2 };
	t[0].ending.reason = WS_STOP_BOUND;
	t[0].time_ns[WS_T_WAIT] = 3 * SEC;
	t[1] = (struct ws_summary){ .bytes = 2 * M, .elapsed_ns = 2 * SEC,
				    .cpu_writer_ns = SEC, .queue_peak = 4 };
	t[1].ending.reason = WS_STOP_ERROR;
	t[1].ending.err = EIO;
	t[1].time_ns[WS_T_WAIT] = SEC;
	t[2] = (struct ws_summary){ .bytes = 6 * M, .elapsed_ns = 4 * SEC };
	t[2].ending.reason = WS_STOP_SIGNAL;
	aggregate_summary(t, 3, 5 * SEC, false, &sum);
	ck_assert_uint_eq(sum.bytes, 16 * M);
	ck_assert_uint_eq(sum.elapsed_ns, 5 * SEC);
	ck_assert_double_eq_tol(sum.mibps, 16.0 / 5.0, 1e-9);
	ck_assert_uint_eq(sum.writers_ns, 10 * SEC);
	ck_assert_int_eq(sum.ending.reason, WS_STOP_ERROR);
	ck_assert_int_eq(sum.ending.err, EIO);
	ck_assert_uint_eq(sum.cpu_writer_ns, 2 * SEC);
	ck_assert_uint_eq(sum.queue_peak, 4);
	/* 4 of the writers' 10 s waiting: no single limit */
	ck_assert_int_eq(sum.limit, WS_LIMIT_NONE);
	ck_assert(!sum.verified);
	ck_assert_uint_eq(sum.ntargets, 3);
	ck_assert_ptr_eq(sum.targets, t);
}
END_TEST

/* Verified when each was: the counts add up, clean only when each is. */
START_TEST(test_summary_verify)
{
	static struct ws_summary t[2], sum;

	memset(t, 0, sizeof(t));
	memset(&sum, 0, sizeof(sum));
	for (int i = 0; i < 2; i++) {
		t[i].verified = true;
		t[i].verify.blocks = 100;
		t[i].verify.count[WS_BLOCK_OK] = 100 - i;
		t[i].verify.count[WS_BLOCK_CORRUPT] = i;
		t[i].verify.clean = !i;
	}
	aggregate_summary(t, 2, SEC, false, &sum);
	ck_assert(sum.verified);
	ck_assert_uint_eq(sum.verify.blocks, 200);
	ck_assert_uint_eq(sum.verify.count[WS_BLOCK_CORRUPT], 1);
	ck_assert(!sum.verify.clean);
}
END_TEST

Suite *aggregate_suite(void)
{
	Suite *s = suite_create("aggregate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_interval_sums);
	tcase_add_test(tc, test_progress_adds_up);
	tcase_add_test(tc, test_summary_worst_ending);
	tcase_add_test(tc, test_summary_verify);
	suite_add_tcase(s, tc);
	return s;
}
