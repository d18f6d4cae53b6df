/* test_steady.c - steady state against hand-computed windows: SNIA's
 * range and slope excursion and fio's bw-slope and bw-dev criteria on
 * rounds of known rates, a run that declines, preconditioning, rounds
 * read off marks between buffer ends, and the criterion's parsing and
 * words. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "analysis/analysis.h"
#include "analysis/steady.h"
#include "suites.h"

/* Loop tests take an int count. */
#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define MIB 1048576.0
#define SEC UINT64_C(1000000000)
#define MS_NS UINT64_C(1000000)
#define MAX_N 8192

static struct ws_point pts[MAX_N];

/*
 * Rounds of known rates.  With round_points > 1, each round is three
 * points of 1, 2 and 1 s carrying 1.5, 1 and 1.5 times the round's rate
 * in MiB: their rates are 1.5, 0.5 and 1.5 times it, so a round's rate
 * is its bytes over its time (4 x rate MiB in 4 s), not the mean of its
 * points' rates (1.17 x).
 */
static size_t build_rounds(const double *r, size_t nr, unsigned int rp)
{
	static const uint64_t dt[3] = { SEC, 2 * SEC, SEC };
	static const double share[3] = { 1.5, 1, 1.5 };
	uint64_t bytes = 0, t = 0;
	size_t i, j, n = 0;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < rp; j++, n++) {
			uint64_t d = rp == 1 ? SEC : dt[j];
			uint64_t db = (uint64_t)(r[i] * MIB *
						 (rp == 1 ? 1 : share[j]));

			bytes += db;
			t += d;
			pts[n] = (struct ws_point){
				.t_ns = t, .dt_ns = d, .bytes = bytes,
				.dbytes = db,
				.mibps = (double)db / MIB / ((double)d / 1e9),
			};
		}
	}
	return n;
}

#define ROUNDS_MAX 40

/* Parameters for the rounds of build_rounds(): 1 s, or 4 s of three
 * points. */
static void round_params(struct ws_analysis_params *p, unsigned int window,
			 unsigned int rp)
{
	analysis_defaults(p);
	p->interval_ns = SEC;
	p->round_ns = (rp == 1 ? 1 : 4) * SEC;
	p->steady_window = window;
}

#define ALL UINT64_MAX	/* judge up to the last mark */

static const struct steady_row {
	const char *name;
	double r[ROUNDS_MAX];
	size_t nr;
	unsigned int window;
	bool reached;
	unsigned int from;	/* the final stretch's first round */
	double mibps, range, excursion;	/* its rate and worst window */
	bool earlier;
	unsigned int e_first, e_last;	/* the earlier stretch's rounds */
	double e_mibps;
} steadies[] = {
	/*
	 * Window 5: [4,9) = 60 50 50 51 49: avg 52, range 11/52 = 21.2%
	 * fails (and the excursion, 2.1 x 4 / 52 = 16.2%).  [5,10) = 50 50
	 * 51 49 50 and [6,11) = 50 51 49 50 50: range 2/50 = 4%, slope
	 * -1/10, excursion 0.4 / 50 = 0.8%: both hold, so steady from round
	 * 5 at (50+50+51+49+50+50)/6 = 50.
	 */
	{ "settling, window 5",
	  { 100, 90, 80, 70, 60, 50, 50, 51, 49, 50, 50 }, 11, 5,
	  true, 5, 50, 4, 0.8, false, 0, 0, 0 },
	/*
	 * Window 3: [4,7) = 60 50 50: range 10/53.3 = 18.75% holds but the
	 * excursion, 10/53.3 = 18.75%, fails; [5,8) .. [8,11) hold, the
	 * worst range 2/50 = 4% in [6,9) and [7,10), the worst excursion
	 * 1/49.67 = 2.01% in [8,11).
	 */
	{ "settling, window 3",
	  { 100, 90, 80, 70, 60, 50, 50, 51, 49, 50, 50 }, 11, 3,
	  true, 5, 50, 4, 300.0 / 149, false, 0, 0, 0 },
	/* Round 4 at 37.5: every window holding it has range 12.5/47.5 =
	 * 26%; from [5,10) on they hold. */
	{ "a round 25% low",
	  { 50, 50, 50, 50, 37.5, 50, 50, 50, 50, 50, 50, 50 }, 12, 5,
	  true, 5, 50, 0, 0, false, 0, 0, 0 },
	/* Round 4 at 62.5: range 12.5/52.5 = 23.8% in every window holding
	 * it (the old "within +-20% of the average", 19%, let them hold). */
	{ "a round 25% high",
	  { 50, 50, 50, 50, 62.5, 50, 50, 50, 50, 50, 50, 50 }, 12, 5,
	  true, 5, 50, 0, 0, false, 0, 0, 0 },
	/* Fast and steady for 8 rounds, then slow for good (the SSD whose
	 * cache fills): steady at the end at the slow rate, from round 8;
	 * the fast stretch is named as having changed. */
	{ "fast then slow",
	  { 80, 80, 80, 80, 80, 80, 80, 80, 20, 20, 20, 20, 20, 20, 20, 20 }, 16, 5,
	  true, 8, 20, 0, 0, true, 0, 7, 80 },
	/* Slow then fast (a device that warmed up): steady at the end at
	 * the fast rate; the slow stretch changed. */
	{ "slow then fast",
	  { 20, 20, 20, 20, 20, 20, 20, 20, 80, 80, 80, 80, 80, 80, 80, 80 }, 16, 5,
	  true, 8, 80, 0, 0, true, 0, 7, 20 },
	/* Steady early, then a slow drift down 5% a round: windows [0,5),
	 * [1,6) and [2,7) (range 5%, excursion 4%) hold, [3,8) has an
	 * excursion of 10.14% and every later one about 20%: not steady at
	 * the end, and the early stretch, rounds 0..6 at (6 x 50 + 47.5) /
	 * 7, changed. */
	{ "steady, then a drift",
	  { 50, 50, 50, 50, 50, 50, 47.5, 45.1, 42.9, 40.7, 38.7, 36.8, 34.9,
	    33.2, 31.5 }, 15, 5,
	  false, 0, 0, 0, 0, true, 0, 6, 347.5 / 7 },
	/* Steady at 50, one noisy round (30: every window holding it has a
	 * range of 40%), then 50 again: steady from round 7, and the stretch
	 * before is the same level (under 15% apart: man page, "Steady
	 * state"), not "earlier steady, then changed". */
	{ "steady, one noisy round, the same rate again",
	  { 50, 50, 50, 50, 50, 50, 30, 50, 50, 50, 50, 50, 50 }, 13, 5,
	  true, 7, 50, 0, 0, false, 0, 0, 0 },
	/* The same at 80, then 69, 68 and 67: 11/80 = 13.75% apart is one
	 * level, 12/80 = 15% exactly and 13/80 = 16.25% are another. */
	{ "80 then 69: one level",
	  { 80, 80, 80, 80, 80, 80, 30, 69, 69, 69, 69, 69, 69 }, 13, 5,
	  true, 7, 69, 0, 0, false, 0, 0, 0 },
	{ "80 then 68: 15% apart is another level",
	  { 80, 80, 80, 80, 80, 80, 30, 68, 68, 68, 68, 68, 68 }, 13, 5,
	  true, 7, 68, 0, 0, true, 0, 5, 80 },
	{ "80 then 67: another level",
	  { 80, 80, 80, 80, 80, 80, 30, 67, 67, 67, 67, 67, 67 }, 13, 5,
	  true, 7, 67, 0, 0, true, 0, 5, 80 },
	{ "too few rounds",
	  { 50, 50, 50, 50 }, 4, 5, false, 0, 0, 0, 0, false, 0, 0, 0 },
	{ "window of one is no window",
	  { 50, 50, 50, 50 }, 4, 1, false, 0, 0, 0, 0, false, 0, 0, 0 },
};

static void assert_steady(const struct steady_row *row, unsigned int rp)
{
	struct ws_analysis_params p;
	struct ws_steady st;
	size_t n = build_rounds(row->r, row->nr, rp);

	round_params(&p, row->window, rp);
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert_uint_eq(st.nrounds, row->nr);
	ck_assert_int_eq(st.reached, row->reached);
	ck_assert_int_eq(st.earlier, row->earlier);
	if (row->reached) {
		const struct ws_round *x = &st.rounds[row->from];
		const struct ws_point *at = &pts[(row->from + row->window) * rp - 1];

		ck_assert_uint_eq(st.final.first_round, row->from);
		ck_assert_uint_eq(st.final.last_round, row->nr - 1);
		ck_assert_uint_eq(st.final.from_bytes, x->from_bytes);
		ck_assert_uint_eq(st.final.to_bytes, pts[n - 1].bytes);
		ck_assert_uint_eq(st.at_bytes, at->bytes);
		ck_assert_uint_eq(st.at_ns, at->t_ns);
		ck_assert_double_eq_tol(st.final.mibps, row->mibps, row->mibps * 1e-6);
		ck_assert_double_eq_tol(st.final.range_pct, row->range, 0.01);
		ck_assert_double_eq_tol(st.final.excursion_pct, row->excursion, 0.01);
		/* every window of the final stretch holds, the one before not */
		for (size_t w = row->from; w < st.nwindows; w++)
			ck_assert_int_eq(st.windows[w].verdict, WS_WINDOW_STEADY);
		if (row->from)
			ck_assert_int_eq(st.windows[row->from - 1].verdict,
					 WS_WINDOW_UNSTEADY);
	}
	if (row->earlier) {
		ck_assert_uint_eq(st.before.first_round, row->e_first);
		ck_assert_uint_eq(st.before.last_round, row->e_last);
		ck_assert_double_eq_tol(st.before.mibps, row->e_mibps, row->e_mibps * 1e-6);
	}
	free(st.rounds);
	free(st.windows);
}

START_TEST(test_steady)
{
	assert_steady(&steadies[_i], 1);
	assert_steady(&steadies[_i], 3);
}
END_TEST

/*
 * A geometric decline by d per round: the range of a window of w rounds is
 * about d x (w - 1), and so is the excursion: 3% x 4 = 12% never settles
 * (excursion over 10%), 2% x 4 = 8% holds all along, 2% x 6 = 12% (window
 * 7) never.  fio's bw-slope:2.5% (|slope| per round under 2.5% of the
 * average) holds at 2% a round and not at 3%.
 */
static const struct decline_row {
	double per_round;
	unsigned int window;
	const char *criterion;
	bool reached;
} declines[] = {
	{ 0.03, 5, "snia", false }, { 0.02, 5, "snia", true },
	{ 0.02, 7, "snia", false },
	{ 0.02, 5, "bw-slope:2.5%", true }, { 0.03, 5, "bw-slope:2.5", false },
	/* the largest distance from the average is about 2 rounds' worth */
	{ 0.02, 5, "bw-dev:5", true }, { 0.03, 5, "bw-dev:5%", false },
};

START_TEST(test_steady_decline)
{
	const struct decline_row *row = &declines[_i];
	struct ws_analysis_params p;
	struct ws_steady st;
	double r[ROUNDS_MAX], v = 100;
	size_t i;

	for (i = 0; i < ROUNDS_MAX; i++, v *= 1 - row->per_round)
		r[i] = v;
	round_params(&p, row->window, 1);
	ck_assert_int_eq(ws_steady_criterion_parse(row->criterion, &p), 0);
	ck_assert_int_eq(steady_judge(pts, build_rounds(r, ROUNDS_MAX, 1), ALL,
					 &p, &st), 0);
	ck_assert_int_eq(st.reached, row->reached);
	if (row->reached) {
		/* a constant decline: steady from the start, every window alike */
		ck_assert_uint_eq(st.final.first_round, 0);
		ck_assert_uint_eq(st.at_bytes, pts[row->window - 1].bytes);
		if (p.criterion == WS_STEADY_SNIA) {
			ck_assert_double_gt(st.final.excursion_pct, 7.5);
			ck_assert_double_lt(st.final.excursion_pct, 8.5);
		}
	}
	free(st.rounds);
	free(st.windows);
}
END_TEST

/* The figures of one window against hand-computed values, and each
 * criterion's bound: SNIA's inclusive, fio's strict. */
START_TEST(test_window_figures)
{
	/* 40 50 60 50 50: avg 50, range 20/50 = 40%, dev 10/50 = 20%,
	 * slope sum((x-2)(y-50))/10 = (-2x-10 + -1x0 + 0 + 1x0 + 2x0)/10
	 * = 2, so 4% a round and 2 x 4 / 50 = 16% across */
	double r[5] = { 40, 50, 60, 50, 50 };
	struct ws_analysis_params p;
	struct ws_steady st;

	round_params(&p, 5, 1);
	ck_assert_int_eq(steady_judge(pts, build_rounds(r, 5, 1), ALL, &p, &st), 0);
	ck_assert_uint_eq(st.nwindows, 1);
	ck_assert_double_eq_tol(st.windows[0].mibps, 50, 1e-6);
	ck_assert_double_eq_tol(st.windows[0].range_pct, 40, 1e-6);
	ck_assert_double_eq_tol(st.windows[0].dev_pct, 20, 1e-6);
	ck_assert_double_eq_tol(st.windows[0].slope_pct, 4, 1e-6);
	ck_assert_double_eq_tol(st.windows[0].excursion_pct, 16, 1e-6);
	p.limit_pct = 40;
	p.slope_pct = 16;
	ck_assert(steady_window_holds(&st.windows[0], &p));
	p.slope_pct = 15.9;
	ck_assert(!steady_window_holds(&st.windows[0], &p));
	ck_assert_int_eq(ws_steady_criterion_parse("bw-dev:20", &p), 0);
	ck_assert(!steady_window_holds(&st.windows[0], &p));
	ck_assert_int_eq(ws_steady_criterion_parse("bw-dev:20.01%", &p), 0);
	ck_assert(steady_window_holds(&st.windows[0], &p));
	ck_assert_int_eq(ws_steady_criterion_parse("bw-slope:4", &p), 0);
	ck_assert(!steady_window_holds(&st.windows[0], &p));
	free(st.rounds);
	free(st.windows);
}
END_TEST

/* SNIA's bounds by default, inclusive (man page: range within 20% of the
 * window's average, excursion within 10%): one window of five rounds
 * averaging 50, at each bound and on both sides of it. */
static const struct {
	double r[5];
	bool holds;
} snia_edges[] = {
	{ { 45, 55, 50, 50, 50 }, true },	/* range 20%, excursion 4% */
	{ { 45.1, 54.9, 50, 50, 50 }, true },	/* range 19.6% */
	{ { 44.9, 55.1, 50, 50, 50 }, false },	/* range 20.4% */
	{ { 47.5, 48.75, 50, 51.25, 52.5 }, true },	/* excursion 10% */
	{ { 47.6, 48.8, 50, 51.2, 52.4 }, true },	/* 9.6% */
	{ { 47.4, 48.7, 50, 51.3, 52.6 }, false },	/* 10.4% */
};

START_TEST(test_snia_default_bounds)
{
	struct ws_analysis_params p;
	struct ws_steady st;

	round_params(&p, 5, 1);
	ck_assert_int_eq(p.criterion, WS_STEADY_SNIA);
	ck_assert_int_eq(steady_judge(pts, build_rounds(snia_edges[_i].r, 5, 1), ALL,
				      &p, &st), 0);
	ck_assert_uint_eq(st.nwindows, 1);
	ck_assert_msg(steady_window_holds(&st.windows[0], &p) == snia_edges[_i].holds,
		      "range %.17g%%, excursion %.17g%%", st.windows[0].range_pct,
		      st.windows[0].excursion_pct);
	free(st.rounds);
	free(st.windows);
}
END_TEST

/* Windows that start before the preconditioning is done are shown but
 * never judged: a fast stretch that ends within it is no earlier steady
 * state, and a run that never gets a window past it is not judged. */
START_TEST(test_steady_precondition)
{
	double r[16] = { 80, 80, 80, 80, 80, 80, 80, 80, 20, 20, 20, 20, 20, 20, 20, 20 };
	struct ws_analysis_params p;
	struct ws_steady st;
	size_t n = build_rounds(r, 16, 1);

	round_params(&p, 5, 1);
	p.precondition_bytes = pts[7].bytes;	/* where round 8 starts */
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert(st.judged);
	ck_assert_uint_eq(st.judged_from, 8);
	ck_assert_uint_eq(st.judged_rounds, 8);
	for (size_t w = 0; w < 8; w++)
		ck_assert_int_eq(st.windows[w].verdict, WS_WINDOW_PRECONDITION);
	ck_assert(st.reached);
	ck_assert_uint_eq(st.final.first_round, 8);
	ck_assert_double_eq_tol(st.final.mibps, 20, 1e-6);
	ck_assert(!st.earlier);
	free(st.rounds);
	free(st.windows);

	/* one byte later, round 8 is preconditioning too, and only the last
	 * window (rounds 9..13 need 14 rounds: 9..15 leaves 3) is judged */
	p.precondition_bytes = pts[7].bytes + 1;
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert_uint_eq(st.judged_from, 9);
	ck_assert(st.reached);
	ck_assert_uint_eq(st.final.first_round, 9);
	free(st.rounds);
	free(st.windows);

	/* past the run: nothing is judged */
	p.precondition_bytes = pts[n - 1].bytes + 1;
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert(!st.judged);
	ck_assert(!st.reached);
	ck_assert_uint_eq(st.judged_rounds, 0);
	free(st.rounds);
	free(st.windows);
}
END_TEST

/* Rounds need not fall on marks: a round's edge inside a span is placed
 * at that span's rate, so 8 MiB buffers finishing every 0.8 s at 10 MiB/s
 * make 1 s rounds of 10 MiB/s each, not 8 and 16.  until_ns stops the
 * rounds there (the final wait for the disk is no round). */
START_TEST(test_steady_between_marks)
{
	struct ws_analysis_params p;
	struct ws_steady st;
	uint64_t t = 0, bytes = 0;
	size_t n;

	for (n = 0; n < 25; n++) {
		t += 800 * MS_NS;
		bytes += 8 * (uint64_t)MIB;
		pts[n] = (struct ws_point){ .t_ns = t, .dt_ns = 800 * MS_NS,
					    .bytes = bytes, .dbytes = 8 * (uint64_t)MIB,
					    .mibps = 10 };
	}
	round_params(&p, 5, 1);
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert_uint_eq(st.nrounds, 20);	/* 20 s of marks */
	for (unsigned int r = 0; r < st.nrounds; r++) {
		ck_assert_uint_eq(st.rounds[r].from_ns, r * SEC);
		ck_assert_uint_eq(st.rounds[r].to_ns, (r + 1) * SEC);
		ck_assert_double_eq_tol(st.rounds[r].mibps, 10, 1e-5);
	}
	ck_assert(st.reached);
	ck_assert_uint_eq(st.final.first_round, 0);
	free(st.rounds);
	free(st.windows);
	/* up to 12.5 s: 12 rounds */
	ck_assert_int_eq(steady_judge(pts, n, 12500 * MS_NS, &p, &st), 0);
	ck_assert_uint_eq(st.nrounds, 12);
	free(st.rounds);
	free(st.windows);
}
END_TEST

/* The device's write latency round by round (traced): each round gets
 * its own, a round past those handed had none, and the final stretch
 * carries the range of its rounds' p50s and p99s, over the rounds in
 * which a write completed. */
START_TEST(test_steady_device_rounds)
{
	static const double r[] = { 80, 50, 50, 50, 50, 50, 50 };
	const struct ws_round_device dev[] = {
		{ 9, 1000, 9000 }, { 4, 2000, 4000 }, { 0, 0, 0 },
		{ 5, 3000, 7000 }, { 6, 1500, 3000 },
	};
	struct ws_analysis_params p;
	struct ws_steady st;
	size_t n = build_rounds(r, 7, 1);

	round_params(&p, 5, 1);
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert(st.reached);
	ck_assert(!st.has_dev);
	ck_assert_uint_eq(st.final.first_round, 1);
	steady_add_device(&st, dev, 5);
	ck_assert(st.has_dev);
	ck_assert_uint_eq(st.rounds[0].dev.writes, 9);
	ck_assert_uint_eq(st.rounds[4].dev.p99_ns, 3000);
	ck_assert_uint_eq(st.rounds[5].dev.writes, 0);	/* past those handed */
	ck_assert_uint_eq(st.rounds[6].dev.writes, 0);
	/* rounds 1..6: 1, 3 and 4 had writes; round 0 (9000) is not its */
	ck_assert_uint_eq(st.final.dev_rounds, 3);
	ck_assert_uint_eq(st.final.dev_p50_lo_ns, 1500);
	ck_assert_uint_eq(st.final.dev_p50_hi_ns, 3000);
	ck_assert_uint_eq(st.final.dev_p99_lo_ns, 3000);
	ck_assert_uint_eq(st.final.dev_p99_hi_ns, 7000);
	free(st.rounds);
	free(st.windows);
}
END_TEST

/* ... and the earlier stretch its own rounds': 80 for six rounds, a dip,
 * then 67 (another level), each round's p50 its number in µs. */
START_TEST(test_steady_device_earlier)
{
	static const double r[] = { 80, 80, 80, 80, 80, 80, 30, 67, 67, 67, 67, 67, 67 };
	struct ws_round_device dev[13];
	struct ws_analysis_params p;
	struct ws_steady st;
	size_t n = build_rounds(r, 13, 1);

	for (unsigned int i = 0; i < 13; i++)
		dev[i] = (struct ws_round_device){ 1, (i + 1) * 1000, (i + 1) * 2000 };
	round_params(&p, 5, 1);
	ck_assert_int_eq(steady_judge(pts, n, ALL, &p, &st), 0);
	ck_assert(st.reached && st.earlier);
	steady_add_device(&st, dev, 13);
	ck_assert_uint_eq(st.before.first_round, 0);
	ck_assert_uint_eq(st.before.last_round, 5);
	ck_assert_uint_eq(st.before.dev_rounds, 6);
	ck_assert_uint_eq(st.before.dev_p50_lo_ns, 1000);
	ck_assert_uint_eq(st.before.dev_p50_hi_ns, 6000);
	ck_assert_uint_eq(st.before.dev_p99_hi_ns, 12000);
	ck_assert_uint_eq(st.final.first_round, 7);
	ck_assert_uint_eq(st.final.dev_rounds, 6);
	ck_assert_uint_eq(st.final.dev_p50_lo_ns, 8000);
	ck_assert_uint_eq(st.final.dev_p99_hi_ns, 26000);
	free(st.rounds);
	free(st.windows);
}
END_TEST

Suite *steady_suite(void)
{
	Suite *s = suite_create("steady");
	TCase *steady = tcase_create("steady");

	tcase_add_loop_test(steady, test_steady, 0, N_ROWS(steadies));
	tcase_add_loop_test(steady, test_steady_decline, 0, N_ROWS(declines));
	tcase_add_test(steady, test_window_figures);
	tcase_add_loop_test(steady, test_snia_default_bounds, 0, N_ROWS(snia_edges));
	tcase_add_test(steady, test_steady_precondition);
	tcase_add_test(steady, test_steady_between_marks);
	tcase_add_test(steady, test_steady_device_rounds);
	tcase_add_test(steady, test_steady_device_earlier);
	suite_add_tcase(s, steady);
	return s;
}
