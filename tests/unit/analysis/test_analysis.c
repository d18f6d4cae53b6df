/* test_analysis.c - the analysis suite: phases on synthetic series with
 * known answers (clean and noisy steps, a 2009 SSD's three phases, a
 * dip, a stall, slow ramps, flat series with spikes), the slowdown point,
 * and the whole pipeline (steady state has its own suite: test_steady.c).
 *
 * Every series is one point a second (unless a test says otherwise),
 * built from a table of rates; noise comes from a seeded PRNG, and each
 * noisy row is checked over many seeds, so a rule that holds only for a
 * lucky draw fails here. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
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
#define SEEDS 50

static struct ws_point pts[MAX_N];
static double rates[MAX_N];
static bool spiked[MAX_N];	/* make_levels() put a spike there */

/* splitmix64: reproducible values, no libc state. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1). */
static double uniform(uint64_t *s)
{
	return (double)(next_rand(s) >> 11) / (double)(UINT64_C(1) << 52) - 1;
}

/* Bell-shaped with standard deviation 1, within +-3.5: the sum of four
 * uniforms (variance 4/3) scaled by sqrt(3)/2. */
static double gaussish(uint64_t *s)
{
	return (uniform(s) + uniform(s) + uniform(s) + uniform(s)) * 0.8660254;
}

static double absd(double v)
{
	return v < 0 ? -v : v;
}

/* pts[0..n) from rates[0..n), each point dt_ns long, as the series would
 * hold them (integral bytes, mibps from those). */
static void build_dt(size_t n, uint64_t dt_ns)
{
	uint64_t bytes = 0, t = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double secs = (double)dt_ns / 1e9;
		uint64_t db = (uint64_t)(rates[i] * MIB * secs + 0.5);

		bytes += db;
		t += dt_ns;
		pts[i] = (struct ws_point){
			.t_ns = t, .dt_ns = dt_ns, .bytes = bytes, .dbytes = db,
			.mibps = (double)db / MIB / secs,
		};
	}
}

static void build(size_t n)
{
	build_dt(n, SEC);
}

/* Where point i starts. */
static uint64_t start_bytes(size_t i)
{
	return pts[i].bytes - pts[i].dbytes;
}

enum noise { QUIET, UNIFORM, GAUSS };

/* A series of levels: rate[j] from point at[j] (at[0] = 0) on. */
struct levels {
	size_t n;
	unsigned int nlev;
	size_t at[4];
	double rate[4];
	enum noise noise;
	double amp;	/* UNIFORM: +-amp; GAUSS: standard deviation amp */
	unsigned int spikes;	/* single points x2 or x0.3 */
};

static double level_at(const struct levels *l, size_t i)
{
	unsigned int j = l->nlev - 1;

	while (i < l->at[j])
		j--;
	return l->rate[j];
}

/* Spikes go at least two points from a level change and from each
 * other, so each stays a single point and no boundary is moved by one:
 * that a spike adjacent to a change may shift it is the filter's limit,
 * not what these rows test. */
static bool spike_ok(const struct levels *l, size_t i)
{
	unsigned int j;
	size_t k;

	for (j = 1; j < l->nlev; j++)
		if (i + 2 >= l->at[j] && i <= l->at[j] + 1)
			return false;
	for (k = i > 2 ? i - 2 : 0; k <= i + 2 && k < l->n; k++)
		if (spiked[k])
			return false;
	return true;
}

static void make_levels(const struct levels *l, uint64_t seed)
{
	unsigned int placed = 0, tries = 0;
	size_t i;

	for (i = 0; i < l->n; i++) {
		double r = level_at(l, i);

		if (l->noise == UNIFORM)
			r *= 1 + l->amp * uniform(&seed);
		else if (l->noise == GAUSS)
			r *= 1 + l->amp * gaussish(&seed);
		rates[i] = r;
		spiked[i] = false;
	}
	while (placed < l->spikes && tries++ < 1000) {
		i = (size_t)(next_rand(&seed) % l->n);
		if (!spike_ok(l, i))
			continue;
		rates[i] *= placed % 2 ? 0.3 : 2;
		spiked[i] = true;
		placed++;
	}
	build(l->n);
}

/* The rate a person would give level j knowing where it is: the mean
 * of its points but the spikes.  Noise alone moves that off the nominal
 * rate by over 2% in some of these draws (20 points of +-5% noise: the
 * dip's, seed 10009, 2.3%), so phases are held to it closely and to the
 * nominal rate more loosely. */
static double level_mean(const struct levels *l, unsigned int j)
{
	size_t i, to = j + 1 < l->nlev ? l->at[j + 1] : l->n, m = 0;
	double sum = 0;

	for (i = l->at[j]; i < to; i++)
		if (!spiked[i]) {
			sum += (double)pts[i].dbytes / MIB;
			m++;
		}
	return sum / (double)m;
}

/* Phases must tile the series: contiguous points, bytes and times. */
static const char *tiling_error(const struct ws_phase *ph, unsigned int k,
				size_t n)
{
	unsigned int j;

	if (ph[0].first != 0 || ph[k - 1].last != n - 1)
		return "phases do not cover the series";
	for (j = 0; j < k; j++) {
		if (ph[j].last < ph[j].first)
			return "empty phase";
		if (ph[j].from_bytes != start_bytes(ph[j].first) ||
		    ph[j].to_bytes != pts[ph[j].last].bytes ||
		    ph[j].from_ns != pts[ph[j].first].t_ns - pts[ph[j].first].dt_ns ||
		    ph[j].to_ns != pts[ph[j].last].t_ns)
			return "bytes or times do not match the points";
		if (j && (ph[j].first != ph[j - 1].last + 1 ||
			  ph[j].from_bytes != ph[j - 1].to_bytes ||
			  ph[j].from_ns != ph[j - 1].to_ns))
			return "phases are not contiguous";
	}
	return NULL;
}

/* ---- phases: rows with a known answer, each over SEEDS seeds ---- */

static const struct step_row {
	const char *name;
	struct levels l;
	size_t at_tol;		/* points */
	double rate_tol;	/* relative, to level_mean() */
} steps[] = {
	{ "clean two-step",
	  { 60, 2, { 0, 30 }, { 80, 40 }, QUIET, 0, 0 }, 1, 0.02 },
	{ "two-step, +-5% uniform",
	  { 60, 2, { 0, 30 }, { 80, 40 }, UNIFORM, 0.05, 0 }, 1, 0.02 },
	{ "two-step, 2.5% gaussian, spikes",
	  { 60, 2, { 0, 30 }, { 80, 40 }, GAUSS, 0.025, 3 }, 1, 0.03 },
	{ "two-step up, +-5% uniform",
	  { 60, 2, { 0, 30 }, { 40, 80 }, UNIFORM, 0.05, 0 }, 1, 0.02 },
	{ "2009 SSD, clean",
	  { 150, 3, { 0, 25, 70 }, { 80, 32, 23 }, QUIET, 0, 0 }, 0, 0.01 },
	{ "2009 SSD, +-5% uniform, spikes",
	  { 150, 3, { 0, 25, 70 }, { 80, 32, 23 }, UNIFORM, 0.05, 4 }, 2, 0.05 },
	{ "2009 SSD, 5% gaussian",
	  { 150, 3, { 0, 25, 70 }, { 80, 32, 23 }, GAUSS, 0.05, 0 }, 2, 0.05 },
	{ "20% step, +-3% uniform",
	  { 100, 2, { 0, 40 }, { 50, 40 }, UNIFORM, 0.03, 0 }, 1, 0.03 },
	{ "20% step, 3% gaussian, spikes",
	  { 100, 2, { 0, 40 }, { 50, 40 }, GAUSS, 0.03, 4 }, 2, 0.03 },
	{ "20% step of 4 points at the end",
	  { 44, 2, { 0, 40 }, { 50, 40 }, UNIFORM, 0.03, 0 }, 1, 0.05 },
	{ "dip and recovery",
	  { 100, 3, { 0, 40, 60 }, { 100, 50, 100 }, UNIFORM, 0.05, 0 }, 1, 0.03 },
	{ "stall to zero",
	  { 60, 3, { 0, 30, 40 }, { 80, 0, 80 }, UNIFORM, 0.05, 0 }, 1, 0.03 },
	{ "four levels, 3 points apart at least",
	  { 40, 4, { 0, 10, 13, 25 }, { 200, 100, 150, 60 }, UNIFORM, 0.03, 0 },
	  1, 0.05 },
	{ "flat, clean",
	  { 100, 1, { 0 }, { 60 }, QUIET, 0, 0 }, 0, 0.001 },
	{ "flat, +-5% uniform, spikes",
	  { 100, 1, { 0 }, { 60 }, UNIFORM, 0.05, 4 }, 0, 0.03 },
	{ "flat, 5% gaussian, spikes",
	  { 300, 1, { 0 }, { 60 }, GAUSS, 0.05, 6 }, 0, 0.03 },
	{ "flat, long, 5% gaussian, spikes",
	  { MAX_N, 1, { 0 }, { 60 }, GAUSS, 0.05, 40 }, 0, 0.01 },
};

static void check_steps(const struct step_row *row, uint64_t seed)
{
	struct ws_phase ph[WS_MAX_PHASES];
	const struct levels *l = &row->l;
	const char *err;
	unsigned int k, j;

	make_levels(l, seed);
	k = analysis_phases(pts, l->n, ph, WS_MAX_PHASES);
	if (k != l->nlev)
		ck_abort_msg("%s, seed %llu: %u phases, want %u", row->name,
			     (unsigned long long)seed, k, l->nlev);
	err = tiling_error(ph, k, l->n);
	if (err)
		ck_abort_msg("%s, seed %llu: %s", row->name,
			     (unsigned long long)seed, err);
	for (j = 0; j < k; j++) {
		size_t off = ph[j].first > l->at[j] ? ph[j].first - l->at[j]
						    : l->at[j] - ph[j].first;
		double want = level_mean(l, j), nominal = l->rate[j];

		if (off > row->at_tol)
			ck_abort_msg("%s, seed %llu: phase %u starts at %zu, "
				     "want %zu", row->name,
				     (unsigned long long)seed, j, ph[j].first,
				     l->at[j]);
		if (absd(ph[j].mibps - want) > row->rate_tol * (want > 0 ? want : 1))
			ck_abort_msg("%s, seed %llu: phase %u at %.2f MiB/s, "
				     "want %.2f", row->name,
				     (unsigned long long)seed, j, ph[j].mibps,
				     want);
		if (absd(ph[j].mibps - nominal) > 0.05 * (nominal > 0 ? nominal : 1))
			ck_abort_msg("%s, seed %llu: phase %u at %.2f MiB/s, "
				     "nominal %.2f", row->name,
				     (unsigned long long)seed, j, ph[j].mibps,
				     nominal);
	}
}

START_TEST(test_steps)
{
	const struct step_row *row = &steps[_i];
	uint64_t seeds = row->l.noise == QUIET ? 1 :
			 row->l.n > 1000 ? SEEDS / 5 : SEEDS;
	uint64_t s;

	for (s = 0; s < seeds; s++)
		check_steps(row, 1000 * (uint64_t)_i + s);
}
END_TEST

/*
 * A 10% step under +-5% noise is at the minimum difference between
 * phases, and noise puts the two medians on either side of it: it may be
 * reported or not.  What must hold either way: at most two phases, and
 * if two, the boundary where the step is.
 */
START_TEST(test_ten_percent_not_forced)
{
	const struct levels l = { 100, 2, { 0, 50 }, { 50, 45 }, UNIFORM,
				  0.05, 0 };
	struct ws_phase ph[WS_MAX_PHASES];
	unsigned int k, seen[3] = { 0 };
	uint64_t s;

	for (s = 0; s < SEEDS; s++) {
		make_levels(&l, s);
		k = analysis_phases(pts, l.n, ph, WS_MAX_PHASES);
		if (k < 1 || k > 2)
			ck_abort_msg("seed %llu: %u phases",
				     (unsigned long long)s, k);
		if (k == 2 && (ph[1].first + 2 < 50 || ph[1].first > 52))
			ck_abort_msg("seed %llu: boundary at %zu",
				     (unsigned long long)s, ph[1].first);
		seen[k]++;
	}
	/* both outcomes occur: the rule is not biased to either */
	ck_assert_uint_gt(seen[1], 0);
	ck_assert_uint_gt(seen[2], 0);
}
END_TEST

/* Slow ramps from 100 to 50 MiB/s: a few phases in decreasing order,
 * each within what the ramp spans over it, give or take 2% and twice
 * the noise's amplitude (a phase can be as short as a few points). */
static const struct ramp_row {
	size_t n;
	enum noise noise;
	double amp;
} ramps[] = {
	{ 20, QUIET, 0 },     { 40, UNIFORM, 0.05 },   { 120, QUIET, 0 },
	{ 120, UNIFORM, 0.03 }, { 120, GAUSS, 0.05 }, { 1000, UNIFORM, 0.05 },
	{ MAX_N, GAUSS, 0.03 },
};

static double ramp(size_t n, size_t i)
{
	return 100 - 50 * (double)i / (double)(n - 1);
}

static void check_ramp(const struct ramp_row *row, uint64_t seed)
{
	struct ws_phase ph[WS_MAX_PHASES];
	uint64_t state = seed;
	const char *err;
	unsigned int k, j;
	size_t i;

	for (i = 0; i < row->n; i++) {
		double r = ramp(row->n, i);

		if (row->noise == UNIFORM)
			r *= 1 + row->amp * uniform(&state);
		else if (row->noise == GAUSS)
			r *= 1 + row->amp * gaussish(&state);
		rates[i] = r;
	}
	build(row->n);
	k = analysis_phases(pts, row->n, ph, WS_MAX_PHASES);
	if (k < 2 || k > 6)
		ck_abort_msg("ramp of %zu, seed %llu: %u phases", row->n,
			     (unsigned long long)seed, k);
	err = tiling_error(ph, k, row->n);
	if (err)
		ck_abort_msg("ramp of %zu: %s", row->n, err);
	for (j = 0; j < k; j++) {
		double hi = ramp(row->n, ph[j].first) * (1.02 + 2 * row->amp);
		double lo = ramp(row->n, ph[j].last) * (0.98 - 2 * row->amp);

		if (j && !(ph[j].mibps < ph[j - 1].mibps))
			ck_abort_msg("ramp of %zu, seed %llu: phase %u rises",
				     row->n, (unsigned long long)seed, j);
		if (ph[j].mibps < lo || ph[j].mibps > hi)
			ck_abort_msg("ramp of %zu, seed %llu: phase %u "
				     "[%zu, %zu] at %.2f, outside [%.2f, %.2f]",
				     row->n, (unsigned long long)seed, j,
				     ph[j].first, ph[j].last, ph[j].mibps, lo,
				     hi);
	}
}

START_TEST(test_ramp)
{
	const struct ramp_row *row = &ramps[_i];
	uint64_t seeds = row->noise == QUIET ? 1 :
			 row->n > 1000 ? SEEDS / 5 : SEEDS;
	uint64_t s;

	for (s = 0; s < seeds; s++)
		check_ramp(row, 100 * (uint64_t)_i + s);
}
END_TEST

/* Phases capped at max keep the most significant boundaries: for the
 * 2009 SSD, 80 -> 32 before 32 -> 23. */
START_TEST(test_cap)
{
	const struct levels l = { 150, 3, { 0, 25, 70 }, { 80, 32, 23 },
				  UNIFORM, 0.03, 0 };
	struct ws_phase ph[WS_MAX_PHASES];

	make_levels(&l, 7);
	ck_assert_uint_eq(analysis_phases(pts, l.n, ph, 2), 2);
	ck_assert_uint_eq(ph[1].first, 25);
	ck_assert_uint_eq(ph[1].last, 149);
	ck_assert_ptr_null(tiling_error(ph, 2, l.n));
	ck_assert_uint_eq(analysis_phases(pts, l.n, ph, 1), 1);
	ck_assert_ptr_null(tiling_error(ph, 1, l.n));
	ck_assert_uint_eq(analysis_phases(pts, l.n, ph, 0), 0);
}
END_TEST

/* Too short to hold two phases of three points: one phase. */
START_TEST(test_short)
{
	struct ws_phase ph[WS_MAX_PHASES];
	size_t i;

	ck_assert_uint_eq(analysis_phases(pts, 0, ph, WS_MAX_PHASES), 0);
	rates[0] = 42;
	build(1);
	ck_assert_uint_eq(analysis_phases(pts, 1, ph, WS_MAX_PHASES), 1);
	ck_assert_uint_eq(ph[0].first, 0);
	ck_assert_uint_eq(ph[0].last, 0);
	ck_assert_double_eq_tol(ph[0].mibps, 42, 1e-9);
	for (i = 0; i < 5; i++)
		rates[i] = i < 3 ? 100 : 10;
	build(5);
	ck_assert_uint_eq(analysis_phases(pts, 5, ph, WS_MAX_PHASES), 1);
	for (i = 0; i < 6; i++)
		rates[i] = i < 3 ? 100 : 10;
	build(6);
	ck_assert_uint_eq(analysis_phases(pts, 6, ph, WS_MAX_PHASES), 2);
	ck_assert_uint_eq(ph[1].first, 3);
}
END_TEST

/* Bursts of two points, x2 and x0.3, on a flat noisy series: the median
 * filter erases them before any split is proposed. */
START_TEST(test_two_point_bursts)
{
	const struct levels l = { 100, 1, { 0 }, { 60 }, UNIFORM, 0.05, 0 };
	struct ws_phase ph[WS_MAX_PHASES];
	unsigned int k;
	uint64_t s;

	for (s = 0; s < SEEDS; s++) {
		make_levels(&l, s);
		rates[20] *= 2;
		rates[21] *= 2;
		rates[60] *= 0.3;
		rates[61] *= 0.3;
		build(l.n);
		k = analysis_phases(pts, l.n, ph, WS_MAX_PHASES);
		if (k != 1)
			ck_abort_msg("seed %llu: %u phases",
				     (unsigned long long)s, k);
	}
}
END_TEST

/* Dirty-page throttling can alternate fast and slow intervals for a whole
 * run: no lasting change, one phase (and no quadratic blow-up). */
START_TEST(test_alternating)
{
	struct ws_phase ph[WS_MAX_PHASES];
	size_t i;

	for (i = 0; i < MAX_N; i++)
		rates[i] = i % 2 ? 20 : 200;
	build(MAX_N);
	ck_assert_uint_eq(analysis_phases(pts, MAX_N, ph, WS_MAX_PHASES), 1);
}
END_TEST

/* Points of unequal length (the series doubles its stride as it fills):
 * the boundaries still land on the change, and bytes and times are the
 * points' own. */
START_TEST(test_unequal_points)
{
	struct ws_phase ph[WS_MAX_PHASES];
	uint64_t bytes = 0, t = 0;
	size_t i;

	for (i = 0; i < 60; i++) {
		uint64_t dt = i % 3 ? SEC / 2 : 2 * SEC;
		double r = i < 30 ? 80 : 40;
		uint64_t db = (uint64_t)(r * MIB * (double)dt / 1e9);

		bytes += db;
		t += dt;
		pts[i] = (struct ws_point){ .t_ns = t, .dt_ns = dt,
					    .bytes = bytes, .dbytes = db,
					    .mibps = r };
	}
	ck_assert_uint_eq(analysis_phases(pts, 60, ph, WS_MAX_PHASES), 2);
	ck_assert_ptr_null(tiling_error(ph, 2, 60));
	ck_assert_uint_eq(ph[1].first, 30);
	ck_assert_uint_eq(ph[1].from_bytes, start_bytes(30));
	ck_assert_uint_eq(ph[0].from_bytes, 0);
	ck_assert_uint_eq(ph[0].from_ns, 0);
	ck_assert_uint_eq(ph[1].to_bytes, bytes);
	ck_assert_uint_eq(ph[1].to_ns, t);
}
END_TEST

/* ---- slowdown ---- */

static const struct slow_row {
	const char *name;
	struct levels l;
	double fraction;
	bool slowed;
	size_t at;		/* the point it starts at */
	size_t tol;
} slows[] = {
	{ "clean two-step",
	  { 60, 2, { 0, 30 }, { 80, 40 }, QUIET, 0, 0 }, 0.8, true, 30, 0 },
	{ "two-step, +-5% uniform, spikes",
	  { 60, 2, { 0, 30 }, { 80, 40 }, UNIFORM, 0.05, 3 }, 0.8, true, 30, 1 },
	{ "two-step, 2.5% gaussian",
	  { 60, 2, { 0, 30 }, { 80, 40 }, GAUSS, 0.025, 0 }, 0.8, true, 30, 1 },
	{ "flat, +-5% uniform, spikes",
	  { 100, 1, { 0 }, { 60 }, UNIFORM, 0.05, 4 }, 0.8, false, 0, 0 },
	{ "down 12%, above the threshold, then down",
	  { 60, 3, { 0, 20, 40 }, { 80, 70, 40 }, UNIFORM, 0.03, 0 },
	  0.8, true, 40, 1 },
	{ "2009 SSD: the first fall",
	  { 150, 3, { 0, 25, 70 }, { 80, 32, 23 }, UNIFORM, 0.05, 0 },
	  0.8, true, 25, 1 },
	{ "2009 SSD, fraction 0.35: the second fall",
	  { 150, 3, { 0, 25, 70 }, { 80, 32, 23 }, UNIFORM, 0.03, 0 },
	  0.35, true, 70, 1 },
	{ "dip that recovers: not lasting",
	  { 100, 3, { 0, 40, 60 }, { 80, 40, 80 }, UNIFORM, 0.05, 0 },
	  0.8, false, 0, 0 },
	{ "dip, recovery, then the lasting fall",
	  { 100, 4, { 0, 20, 30, 50 }, { 80, 40, 80, 40 }, UNIFORM, 0.05, 0 },
	  0.8, true, 50, 1 },
	{ "half exactly is not below half",
	  { 60, 2, { 0, 30 }, { 80, 40 }, QUIET, 0, 0 }, 0.5, false, 0, 0 },
	{ "just over half",
	  { 60, 2, { 0, 30 }, { 80, 40 }, QUIET, 0, 0 }, 0.51, true, 30, 0 },
};

static void check_slowdown(const struct slow_row *row, uint64_t seed)
{
	struct ws_phase ph[WS_MAX_PHASES];
	uint64_t at_bytes = 0, at_ns = 0;
	unsigned int k;
	bool slowed;
	size_t i;

	make_levels(&row->l, seed);
	k = analysis_phases(pts, row->l.n, ph, WS_MAX_PHASES);
	slowed = analysis_slowdown(pts, row->l.n, ph, k, row->fraction,
				   &at_bytes, &at_ns);
	if (slowed != row->slowed)
		ck_abort_msg("%s, seed %llu: slowed %d", row->name,
			     (unsigned long long)seed, slowed);
	if (!slowed)
		return;
	for (i = row->at - row->tol; i <= row->at + row->tol; i++)
		if (at_bytes == start_bytes(i) &&
		    at_ns == pts[i].t_ns - pts[i].dt_ns)
			return;
	ck_abort_msg("%s, seed %llu: slowed at %llu bytes, %llu ns, want "
		     "point %zu (%llu bytes)", row->name,
		     (unsigned long long)seed, (unsigned long long)at_bytes,
		     (unsigned long long)at_ns, row->at,
		     (unsigned long long)start_bytes(row->at));
}

START_TEST(test_slowdown)
{
	const struct slow_row *row = &slows[_i];
	uint64_t s, seeds = row->l.noise == QUIET ? 1 : SEEDS;

	for (s = 0; s < seeds; s++)
		check_slowdown(row, 2000 + 1000 * (uint64_t)_i + s);
}
END_TEST

/* A ramp crosses the threshold inside a phase: the point is where the
 * ramp itself first falls below fraction x the first phase's rate. */
START_TEST(test_slowdown_ramp)
{
	static const double amps[] = { 0, 0.02 };
	struct ws_phase ph[WS_MAX_PHASES];
	uint64_t at_bytes, at_ns, seed = 77;
	size_t n = 120, i, want, got;
	double thr;
	unsigned int k;

	for (i = 0; i < n; i++)
		rates[i] = ramp(n, i) * (1 + amps[_i] * uniform(&seed));
	build(n);
	k = analysis_phases(pts, n, ph, WS_MAX_PHASES);
	ck_assert(analysis_slowdown(pts, n, ph, k, 0.8, &at_bytes, &at_ns));
	thr = 0.8 * ph[0].mibps;
	for (want = 0; ramp(n, want) >= thr; want++)
		;
	for (got = 0; got < n && start_bytes(got) != at_bytes; got++)
		;
	ck_assert_uint_lt(got, n);
	ck_assert_uint_eq(at_ns, pts[got].t_ns - pts[got].dt_ns);
	ck_assert_uint_le(got, want + 3);
	ck_assert_uint_le(want, got + 3);
}
END_TEST

/*
 * The slowdown rule on points and phases given by hand (no phase finder
 * in between), 80% of the first phase's 80 MiB/s: 64 MiB/s.  Phase 1 is
 * points 0..19, phase 2 (40 MiB/s) from point 20 on.
 *  - walk back: points 15..19 of phase 1 already at 50 and every median
 *    of five from them below 64: the slowdown is at 15, not 20;
 *  - lastingly below: point 19 alone at 50 while phase 2 opens with three
 *    points at 70: the median of 19..23 is 70, so 19 is a dip, not the
 *    start: 20;
 *  - the threshold itself: point 19 at exactly 64 is not below it: 20.
 */
static const struct walk_row {
	const char *name;
	double from15[8];	/* points 15..22; then 30 to the end */
	size_t at;
} walks[] = {
	{ "a ramp inside the phase before", { 50, 50, 50, 50, 50, 40, 40, 40 }, 15 },
	{ "a dip, not lastingly below", { 80, 80, 80, 80, 50, 70, 70, 70 }, 20 },
	{ "at the threshold is not below it", { 80, 80, 80, 80, 64, 40, 40, 40 }, 20 },
	{ "just under it is", { 80, 80, 80, 80, 63.9, 40, 40, 40 }, 19 },
};

START_TEST(test_slowdown_walk_back)
{
	const struct walk_row *row = &walks[_i];
	struct ws_phase ph[2] = {
		{ .first = 0, .last = 19, .mibps = 80 },
		{ .first = 20, .last = 59, .mibps = 40 },
	};
	uint64_t at_bytes = 0, at_ns = 0;
	size_t i, n = 60;

	for (i = 0; i < n; i++)
		rates[i] = i < 15 ? 80 : i < 23 ? row->from15[i - 15] : 30;
	build(n);
	ck_assert_msg(analysis_slowdown(pts, n, ph, 2, 0.8, &at_bytes, &at_ns),
		      "%s: no slowdown", row->name);
	ck_assert_msg(at_bytes == start_bytes(row->at),
		      "%s: slowed at %llu bytes, want point %zu (%llu)", row->name,
		      (unsigned long long)at_bytes, row->at,
		      (unsigned long long)start_bytes(row->at));
	ck_assert_uint_eq(at_ns, pts[row->at].t_ns - pts[row->at].dt_ns);
}
END_TEST

/* The last phase runs to the run's end at its bytes over its time: a
 * rate-limited run at 10 MiB/s with 8 MiB buffers knows of 8 MiB on disk
 * at 1.6 s and wrote 20 MiB in 2 s: one phase of 10 MiB/s, not 5.  A
 * stretch that brings the last phase within 15% of the one before merges
 * them (at 15% exactly it does not); an end before the last phase's
 * changes nothing. */
START_TEST(test_extend_to_end)
{
	struct ws_phase one[1] = {
		{ .from_bytes = 0, .to_bytes = 8 * 1048576, .from_ns = 0,
		  .to_ns = 1600000000, .mibps = 5 },
	};
	struct ws_phase two[2];

	ck_assert_uint_eq(analysis_extend_to_end(one, 1, 20 * 1048576, 2 * SEC, 15), 1);
	ck_assert_uint_eq(one[0].to_bytes, 20 * 1048576);
	ck_assert_uint_eq(one[0].to_ns, 2 * SEC);
	ck_assert_double_eq_tol(one[0].mibps, 10, 1e-9);
	ck_assert_uint_eq(analysis_extend_to_end(one, 1, 19 * 1048576, 3 * SEC, 15), 1);
	ck_assert_double_eq_tol(one[0].mibps, 10, 1e-9);

	/* 80 MiB/s for 800 MiB in 10 s, then 40 to 1200 MiB at 20 s; the run
	 * ends at 21 s: the last phase is (E - 800) MiB over 11 s, merged
	 * when under 15% from 80, that is over 68 MiB/s: E = 1548 (68
	 * exactly) and 1537 (67) stay apart, 1559 (69) merges; 1240 (40) too
	 * stays apart */
	static const struct { uint64_t end_mib; unsigned int n; } ends[] = {
		{ 1240, 2 }, { 1537, 2 }, { 1548, 2 }, { 1559, 1 },
	};
	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
		unsigned int n;

		two[0] = (struct ws_phase){ .to_bytes = 800 * 1048576ull, .to_ns = 10 * SEC, .mibps = 80 };
		two[1] = (struct ws_phase){ .from_bytes = 800 * 1048576ull, .to_bytes = 1200 * 1048576ull,
					    .from_ns = 10 * SEC, .to_ns = 20 * SEC, .mibps = 40 };
		n = analysis_extend_to_end(two, 2, ends[k].end_mib * 1048576ull, 21 * SEC, 15);
		ck_assert_msg(n == ends[k].n, "end %llu MiB: %u phases",
			      (unsigned long long)ends[k].end_mib, n);
		ck_assert_uint_eq(two[n - 1].to_bytes, ends[k].end_mib * 1048576ull);
		ck_assert_uint_eq(two[n - 1].to_ns, 21 * SEC);
		ck_assert_double_eq_tol(two[n - 1].mibps, n == 1 ? ends[k].end_mib / 21.0 :
					(ends[k].end_mib - 800) / 11.0, 1e-9);
	}
}
END_TEST

START_TEST(test_slowdown_one_phase)
{
	struct ws_phase ph = { .first = 0, .last = 9, .mibps = 80 };
	uint64_t b = 1, t = 1;

	ck_assert(!analysis_slowdown(pts, 10, &ph, 1, 0.8, &b, &t));
	ck_assert(!analysis_slowdown(pts, 0, &ph, 0, 0.8, &b, &t));
	ck_assert_uint_eq(b, 1);
	ck_assert_uint_eq(t, 1);
}
END_TEST

/* ---- defaults and the whole ---- */

#define ALL UINT64_MAX	/* judge up to the last mark */

START_TEST(test_defaults)
{
	struct ws_analysis_params p;

	memset(&p, 0xff, sizeof(p));
	analysis_defaults(&p);
	ck_assert_double_eq(p.slowdown_fraction, 0.8);
	ck_assert_uint_eq(p.steady_window, 5);
	ck_assert_uint_eq(p.round_ns, 10 * SEC);
	ck_assert_uint_eq(p.interval_ns, SEC);
	ck_assert_int_eq(p.criterion, WS_STEADY_SNIA);
	ck_assert_double_eq(p.limit_pct, 20);
	ck_assert_double_eq(p.slope_pct, 10);
	ck_assert_uint_eq(p.precondition_bytes, 0);
	ck_assert_uint_eq(p.min_phase_intervals, 2);
	ck_assert_double_eq(p.merge_similar_pct, 15);
}
END_TEST

/*
 * The pipeline on whole runs, marks and intervals alike (one point a
 * second, rounds of 10): each row is a shape a long SSD run takes, with
 * the phases, slowdown and steady verdict it must get.
 */
static const struct run_row {
	const char *name;
	struct levels l;
	uint64_t precondition;	/* in points of the series */
	unsigned int nphases;
	bool slowed;
	bool reached;
	double steady;		/* the final stretch's rate */
	bool earlier;
	double earlier_rate;
	size_t from_round_min;	/* the final stretch starts at or after */
} runs[] = {
	/* 80 MiB/s for 60 s, then 23 for good: the 2009 SSD */
	{ "fast then slow", { 150, 2, { 0, 60 }, { 80, 23 }, UNIFORM, 0.05, 2 },
	  0, 2, true, true, 23, true, 80, 6 },
	{ "slow then fast", { 150, 2, { 0, 60 }, { 23, 80 }, UNIFORM, 0.05, 2 },
	  0, 2, false, true, 80, true, 23, 6 },
	/* three levels, as in the three-phase rig */
	{ "three phases", { 150, 3, { 0, 25, 70 }, { 80, 32, 23 }, UNIFORM, 0.05, 2 },
	  0, 3, true, true, 23, false, 0, 7 },
	/* +-5% noise around one level: steady all along */
	{ "noisy plateau", { 150, 1, { 0 }, { 40 }, GAUSS, 0.05, 0 },
	  0, 1, false, true, 40, false, 0, 0 },
	/* a run shorter than one window: phases, no verdict */
	{ "short run", { 30, 1, { 0 }, { 40 }, UNIFORM, 0.05, 0 },
	  0, 1, false, false, 0, false, 0, 0 },
	/* fast until point 80, slow after; preconditioning to point 100
	 * hides the fast stretch from the verdict */
	{ "steady only after preconditioning",
	  { 160, 2, { 0, 80 }, { 60, 20 }, UNIFORM, 0.03, 0 },
	  100, 2, true, true, 20, false, 0, 10 },
};

START_TEST(test_run)
{
	const struct run_row *row = &runs[_i];
	struct ws_analysis_params p;
	struct ws_analysis a;
	struct ws_analysis_input in;
	struct ws_phase ph[WS_MAX_PHASES];
	unsigned int k;

	make_levels(&row->l, 7);
	analysis_defaults(&p);
	p.interval_ns = SEC;
	p.round_ns = 10 * SEC;
	if (row->precondition)
		p.precondition_bytes = pts[row->precondition - 1].bytes;
	in = (struct ws_analysis_input){
		.marks = pts, .nmarks = row->l.n,
		.writing_ns = pts[row->l.n - 1].t_ns,
		.elapsed_ns = pts[row->l.n - 1].t_ns,
	};
	ck_assert_int_eq(analysis_run(&in, &p, &a), 0);
	ck_assert_msg(a.nphases == row->nphases, "%s: %u phases", row->name, a.nphases);
	ck_assert_int_eq(a.slowed, row->slowed);
	ck_assert_msg(a.steady.reached == row->reached, "%s: reached %d", row->name,
		      a.steady.reached);
	ck_assert_msg(a.steady.earlier == row->earlier, "%s: earlier %d", row->name,
		      a.steady.earlier);
	/* what the pipeline was judged by goes out with it */
	ck_assert_uint_eq(a.params.precondition_bytes, p.precondition_bytes);
	if (row->reached) {
		ck_assert_double_eq_tol(a.steady.final.mibps, row->steady, row->steady * 0.03);
		ck_assert_uint_ge(a.steady.final.first_round, row->from_round_min);
	}
	if (row->earlier)
		ck_assert_double_eq_tol(a.steady.before.mibps, row->earlier_rate,
					row->earlier_rate * 0.03);
	/* the phases are the segmentation's, merged as the pipeline says */
	k = analysis_phases(pts, row->l.n, ph, WS_MAX_PHASES);
	ck_assert_uint_ge(k, a.nphases);
	if (a.nphases)
		ck_assert_double_eq(a.initial_mibps, a.phases[0].mibps);
	analysis_release(&a);

	/* steady_only leaves phases alone and finds the same verdict */
	in.steady_only = true;
	ck_assert_int_eq(analysis_run(&in, &p, &a), 0);
	ck_assert_uint_eq(a.nphases, 0);
	ck_assert_int_eq(a.steady.reached, row->reached);
	analysis_release(&a);
}
END_TEST

START_TEST(test_run_empty)
{
	struct ws_analysis_input in = { .writing_ns = ALL };
	struct ws_analysis_params p;
	struct ws_analysis a;

	analysis_defaults(&p);
	ck_assert_int_eq(analysis_run(&in, &p, &a), 0);
	ck_assert_uint_eq(a.nphases, 0);
	ck_assert(!a.slowed);
	ck_assert(!a.steady.judged);
	ck_assert(!a.steady.reached);
	analysis_release(&a);
	analysis_release(&a);	/* twice is harmless */
}
END_TEST

/* Spans that wrote nothing lend their time to a neighbour. */
START_TEST(test_compact)
{
	struct ws_point in[6] = {
		{ .t_ns = 1 * SEC, .dt_ns = SEC, .bytes = 10, .dbytes = 10 },
		{ .t_ns = 2 * SEC, .dt_ns = SEC, .bytes = 10, .dbytes = 0 },
		{ .t_ns = 3 * SEC, .dt_ns = SEC, .bytes = 30, .dbytes = 20 },
		{ .t_ns = 4 * SEC, .dt_ns = SEC, .bytes = 60, .dbytes = 30 },
		{ .t_ns = 5 * SEC, .dt_ns = SEC, .bytes = 60, .dbytes = 0 },
		{ .t_ns = 6 * SEC, .dt_ns = SEC, .bytes = 60, .dbytes = 0 },
	}, out[6];
	size_t n = analysis_compact(in, 6, out);

	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(out[0].dt_ns, 2 * SEC);
	ck_assert_uint_eq(out[0].dbytes, 10);
	ck_assert_uint_eq(out[1].dbytes, 20);
	ck_assert_uint_eq(out[2].dt_ns, 3 * SEC);
	ck_assert_uint_eq(out[2].bytes, 60);
}
END_TEST

/* A burst of a few buffers between two real phases joins the neighbour
 * it resembles; rates are then each phase's bytes over its time. */
START_TEST(test_merge_short_and_rates)
{
	struct ws_point spans[3] = {
		{ .t_ns = 10000000000ull, .dt_ns = 10000000000ull,
		  .bytes = 400 * 1048576ull, .dbytes = 400 * 1048576ull },
		{ .t_ns = 10200000000ull, .dt_ns = 200000000ull,
		  .bytes = 407 * 1048576ull, .dbytes = 7 * 1048576ull },
		{ .t_ns = 20200000000ull, .dt_ns = 10000000000ull,
		  .bytes = 557 * 1048576ull, .dbytes = 150 * 1048576ull },
	};
	struct ws_phase ph[3] = {
		{ 0, 400 * 1048576ull, 0, 10000000000ull, 40.0, 0, 0 },
		{ 400 * 1048576ull, 407 * 1048576ull, 10000000000ull, 10200000000ull, 35.0, 1, 1 },
		{ 407 * 1048576ull, 557 * 1048576ull, 10200000000ull, 20200000000ull, 15.0, 2, 2 },
	};
	unsigned int n = analysis_merge_short(ph, 3, 500000000ull);

	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(ph[0].to_bytes, 407 * 1048576ull);
	ck_assert_uint_eq(ph[0].last, 1);
	ck_assert_uint_eq(ph[1].from_bytes, 407 * 1048576ull);
	analysis_phase_rates(spans, ph, n);
	ck_assert_double_eq_tol(ph[0].mibps, 407.0 / 10.2, 1e-9);
	ck_assert_double_eq_tol(ph[1].mibps, 15.0, 1e-9);
	/* nothing is shorter than the limit: nothing changes */
	ck_assert_uint_eq(analysis_merge_short(ph, n, 1000), 2);
	/* one phase is never merged away */
	ck_assert_uint_eq(analysis_merge_short(ph, 1, UINT64_MAX), 1);
}
END_TEST

/* Rates of 68.8 and 61.8 MiB/s (10% apart) are one phase to a reader;
 * 60 and 48 (20% apart) stay two. */
START_TEST(test_merge_similar)
{
	struct ws_point spans[3] = {
		{ .t_ns = 1000000000ull, .dt_ns = 1000000000ull,
		  .bytes = 69 * 1048576ull, .dbytes = 69 * 1048576ull },
		{ .t_ns = 3000000000ull, .dt_ns = 2000000000ull,
		  .bytes = 193 * 1048576ull, .dbytes = 124 * 1048576ull },
		{ .t_ns = 5000000000ull, .dt_ns = 2000000000ull,
		  .bytes = 289 * 1048576ull, .dbytes = 96 * 1048576ull },
	};
	struct ws_phase ph[3] = {
		{ 0, 69 * 1048576ull, 0, 1000000000ull, 0, 0, 0 },
		{ 69 * 1048576ull, 193 * 1048576ull, 1000000000ull, 3000000000ull, 0, 1, 1 },
		{ 193 * 1048576ull, 289 * 1048576ull, 3000000000ull, 5000000000ull, 0, 2, 2 },
	};
	unsigned int n = analysis_merge_similar(spans, ph, 3, 15.0);

	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(ph[0].to_bytes, 193 * 1048576ull);
	ck_assert_double_eq_tol(ph[0].mibps, 193.0 / 3.0, 1e-9);
	ck_assert_double_eq_tol(ph[1].mibps, 48.0, 1e-9);
}
END_TEST

/* ---- a lasting change is a phase (record/phases.h) ---- */

/* Marks of spans given as (seconds, MiB): the run's points. */
struct span_row {
	double secs, mib;
};

static size_t build_spans(const struct span_row *s, size_t n)
{
	uint64_t bytes = 0, t = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t dt = (uint64_t)(s[i].secs * 1e9 + 0.5);
		uint64_t db = (uint64_t)(s[i].mib * MIB + 0.5);

		bytes += db;
		t += dt;
		pts[i] = (struct ws_point){ .t_ns = t, .dt_ns = dt, .bytes = bytes,
					    .dbytes = db, .mibps = (double)db / MIB * 1e9 / (double)dt };
	}
	return n;
}

/* The whole pipeline on pts[0..n), intervals of interval_ns. */
static void run_pts(size_t n, uint64_t interval_ns, struct ws_analysis *a)
{
	struct ws_analysis_params p;
	struct ws_analysis_input in = {
		.marks = pts, .nmarks = n, .writing_ns = pts[n - 1].t_ns,
		.elapsed_ns = pts[n - 1].t_ns, .end_bytes = pts[n - 1].bytes,
	};

	analysis_defaults(&p);
	p.interval_ns = interval_ns;
	ck_assert_int_eq(analysis_run(&in, &p, a), 0);
}

/*
 * More than 2x: a first level of 10 s at 100 MiB/s, then 10 s (half the
 * run, lasting) at the rate in the row; one span each, so the only
 * stretch the rule can see is the second.  50 and 200 MiB/s are 2x
 * exactly: no change; 50.1 and 199.9 under it; 49.9 and 200.1 over it.
 * The pipeline makes two phases of it, or says the one throughout.
 */
static const struct x_row {
	double mib;
	bool change;
} x_rows[] = {
	{ 50, false }, { 50.1, false }, { 49.9, true },
	{ 200, false }, { 199.9, false }, { 200.1, true },
};

START_TEST(test_lasting_2x)
{
	const struct x_row *row = &x_rows[_i];
	const struct span_row s[] = { { 10, 1000 }, { 10, row->mib * 10 } };
	struct ws_phase ph = { .first = 0, .last = 1 };
	struct ws_lasting_rule r = { .run_ns = 20 * SEC, .level_ns = SEC };
	struct ws_analysis a;
	unsigned int at_phase = 9;
	size_t at = 9;

	build_spans(s, 2);
	r.run_bytes = pts[1].bytes;
	ck_assert_int_eq(analysis_hidden_change(pts, 2, &ph, 1, &r, &at_phase, &at),
			 row->change);
	if (row->change) {
		ck_assert_uint_eq(at_phase, 0);
		ck_assert_uint_eq(at, 1);
	}
	run_pts(2, SEC, &a);
	ck_assert_int_eq(a.phases_verdict, WS_PHASES_JUDGED);
	ck_assert_uint_eq(a.nphases, row->change ? 2 : 1);
	if (row->change) {
		ck_assert_uint_eq(a.phases[1].from_bytes, 1000 * (uint64_t)MIB);
		ck_assert_uint_eq(a.phases[1].from_ns, 10 * SEC);
		ck_assert_double_eq_tol(a.phases[0].mibps, 100, 1e-9);
		ck_assert_double_eq_tol(a.phases[1].mibps, (double)pts[1].dbytes / MIB / 10, 1e-9);
	}
	analysis_release(&a);
}
END_TEST

/*
 * Lasting a third of the run: 20 s at 100 MiB/s, then the row's seconds
 * at 40 (2.5x apart): 10 s of 30 is a third exactly, a change; 9.9 s of
 * 29.9 is under a third; 10.1 s of 30.1 over it.
 */
static const struct third_row {
	double secs;
	bool change;
} third_rows[] = {
	{ 10, true }, { 9.9, false }, { 10.1, true },
};

START_TEST(test_lasting_third)
{
	const struct third_row *row = &third_rows[_i];
	const struct span_row s[] = { { 20, 2000 }, { row->secs, 40 * row->secs } };
	struct ws_phase ph = { .first = 0, .last = 1 };
	struct ws_lasting_rule r = { .level_ns = SEC };
	struct ws_analysis a;
	unsigned int at_phase;
	size_t at;

	build_spans(s, 2);
	r.run_ns = pts[1].t_ns;
	r.run_bytes = pts[1].bytes;
	ck_assert_int_eq(analysis_hidden_change(pts, 2, &ph, 1, &r, &at_phase, &at),
			 row->change);
	run_pts(2, SEC, &a);
	ck_assert_uint_eq(a.nphases, row->change ? 2 : 1);
	/* the change is a slowdown too, at the same offset */
	ck_assert_int_eq(a.slowed, row->change);
	if (row->change) {
		ck_assert_uint_eq(a.slowdown_bytes, a.phases[1].from_bytes);
		ck_assert_uint_eq(a.slowdown_ns, 20 * SEC);
	}
	analysis_release(&a);
}
END_TEST

/*
 * The level before a change: an interval long at least, or a third of
 * the run's bytes; a burst of one buffer is none.  A first span of the
 * row's seconds and MiB, then 12 s of the row's MiB: 1 s at 100 MiB/s,
 * then 30 (a level by its time); 0.999 s at 100 (not: 99.9 MiB is under
 * a third of 459.9); 0.5 s of 60 MiB, then 120 MiB in 12 s: a third of
 * the 180 MiB exactly, a level; 59.9 MiB of 179.9 not.
 */
static const struct level_row {
	double secs, mib, then_mib;
	bool change;
} level_rows[] = {
	{ 1, 100, 360, true }, { 0.999, 99.9, 360, false },
	{ 0.5, 60, 120, true }, { 0.5, 59.9, 120, false },
};

START_TEST(test_lasting_level)
{
	const struct level_row *row = &level_rows[_i];
	const struct span_row s[] = { { row->secs, row->mib }, { 12, row->then_mib } };
	struct ws_phase ph = { .first = 0, .last = 1 };
	struct ws_lasting_rule r = { .level_ns = SEC };
	unsigned int at_phase;
	size_t at;

	build_spans(s, 2);
	r.run_ns = pts[1].t_ns;
	r.run_bytes = pts[1].bytes;
	ck_assert_int_eq(analysis_hidden_change(pts, 2, &ph, 1, &r, &at_phase, &at),
			 row->change);
}
END_TEST

/*
 * Too short to judge: under 6 intervals (a third of the run shorter than
 * the two intervals a phase lasts), or under 2 spans.  Two spans of a
 * run of 6 s exactly with intervals of 1 s are judged; of 5.999999999 s
 * not; of 6.000000001 s they are.  Intervals of 250 ms: 1.5 s the edge.
 * One span of 60 s is too short; two are not.
 */
static const struct short_row {
	uint64_t run_ns, interval_ns;
	size_t spans;
	bool too_short;
} short_rows[] = {
	{ 6000000000ull, 1000000000ull, 2, false },
	{ 5999999999ull, 1000000000ull, 2, true },
	{ 6000000001ull, 1000000000ull, 2, false },
	{ 1500000000ull, 250000000ull, 2, false },
	{ 1499999999ull, 250000000ull, 2, true },
	{ 60000000000ull, 1000000000ull, 1, true },
	{ 60000000000ull, 1000000000ull, 2, false },
};

START_TEST(test_too_short)
{
	const struct short_row *row = &short_rows[_i];
	struct ws_analysis a;
	char buf[160];

	ck_assert_int_eq(analysis_too_short(row->run_ns, row->interval_ns, row->spans),
			 row->too_short);
	/* the pipeline: a tmpfs's first interval 10x the rest */
	if (row->spans == 1) {
		pts[0] = (struct ws_point){ .t_ns = row->run_ns, .dt_ns = row->run_ns,
					    .bytes = 100 * (uint64_t)MIB, .dbytes = 100 * (uint64_t)MIB };
	} else {
		uint64_t first = row->run_ns / 3;

		pts[0] = (struct ws_point){ .t_ns = first, .dt_ns = first,
					    .bytes = 1000 * (uint64_t)MIB, .dbytes = 1000 * (uint64_t)MIB };
		pts[1] = (struct ws_point){ .t_ns = row->run_ns, .dt_ns = row->run_ns - first,
					    .bytes = 1200 * (uint64_t)MIB, .dbytes = 200 * (uint64_t)MIB };
		pts[1].mibps = ws_mibps(pts[1].dbytes, pts[1].dt_ns);
	}
	pts[0].mibps = ws_mibps(pts[0].dbytes, pts[0].dt_ns);
	run_pts(row->spans, row->interval_ns, &a);
	ck_assert_int_eq(a.phases_verdict, row->too_short ? WS_PHASES_TOO_SHORT : WS_PHASES_JUDGED);
	ck_assert_uint_eq(a.phases_spans, row->spans);
	ck_assert_uint_eq(a.phases_run_ns, row->run_ns);
	if (row->too_short) {
		/* one phase, the run's rate; no slowdown; the words say so */
		ck_assert_uint_eq(a.nphases, 1);
		ck_assert(!a.slowed);
		ck_assert_ptr_nonnull(ws_phases_verdict_words(&a, buf, sizeof(buf)));
		ck_assert_msg(!strncmp(buf, "too short to judge phases: ", 27), "%s", buf);
	} else {
		ck_assert_uint_eq(a.nphases, 2);
		ck_assert(a.slowed);
		ck_assert_ptr_null(ws_phases_verdict_words(&a, buf, sizeof(buf)));
	}
	analysis_release(&a);
}
END_TEST

/* The verdict's words at the edges of their figures. */
START_TEST(test_verdict_words)
{
	struct ws_analysis a = { .params = { .interval_ns = SEC } };
	char buf[160];

	a.phases_verdict = WS_PHASES_TOO_SHORT;
	a.phases_spans = 4;
	a.phases_run_ns = 5999999999ull;	/* cut, not rounded up to 6.0 */
	ck_assert_str_eq(ws_phases_verdict_words(&a, buf, sizeof(buf)),
			 "too short to judge phases: 5.9 intervals of 1.00 s, phases need 6");
	a.phases_spans = 1;
	a.phases_run_ns = 60 * SEC;
	ck_assert_str_eq(ws_phases_verdict_words(&a, buf, sizeof(buf)),
			 "too short to judge phases: 1 span of progress, phases need 2");
	a.phases_verdict = WS_PHASES_JUDGED;
	a.nphases = 1;
	a.phases[0].mibps = 19.64;
	ck_assert_str_eq(ws_phases_verdict_words(&a, buf, sizeof(buf)),
			 "19.6 MiB/s throughout, no lasting change");
	a.nphases = 2;
	ck_assert_ptr_null(ws_phases_verdict_words(&a, buf, sizeof(buf)));
	a.phases_verdict = WS_PHASES_TOO_MANY;
	ck_assert_str_eq(ws_phases_verdict_words(&a, buf, sizeof(buf)),
			 "not judged: more lasting changes than 8 phases can name");
	a.phases_verdict = WS_PHASES_NONE;
	ck_assert_ptr_null(ws_phases_verdict_words(&a, buf, sizeof(buf)));
	ck_assert_str_eq(ws_phases_verdict_key(WS_PHASES_TOO_SHORT), "too_short");
	ck_assert_str_eq(ws_phases_verdict_key(WS_PHASES_NR), "?");
}
END_TEST

/*
 * One event at one offset (issue 40: "phases ... from 275 MiB" beside
 * "slowed from 267 MiB"): 100 MiB/s, then two points at 78 (under 80%
 * of 100, lastingly), then 30, points of the row's length.  The
 * segmentation puts the 78s in the phase before; the slowdown walks back
 * over them.  Of 250 ms each they are no level (half an interval): the
 * boundary moves back with the slowdown, two phases.  Of 1 s each they
 * are one (2.6x the 30 after them): a phase of their own, the slowdown
 * at its start.
 */
static const struct walked_row {
	uint64_t dt_ns;
	unsigned int nphases;
} walked_rows[] = {
	{ 250 * MS_NS, 2 }, { SEC, 3 },
};

START_TEST(test_slowdown_is_a_boundary)
{
	const struct walked_row *row = &walked_rows[_i];
	struct ws_analysis a;
	size_t i;

	for (i = 0; i < 60; i++)
		rates[i] = i < 30 ? 100 : i < 32 ? 78 : 30;
	build_dt(60, row->dt_ns);
	/* the segmentation, tidied, alone: the 78s in the first phase, and
	 * the slowdown where no phase starts */
	{
		struct ws_phase ph[WS_MAX_PHASES];
		uint64_t at_bytes, at_ns;
		unsigned int k = analysis_phases(pts, 60, ph, WS_MAX_PHASES);

		k = analysis_merge_short(ph, k, 2 * SEC);
		k = analysis_merge_similar(pts, ph, k, 15);
		ck_assert_uint_eq(k, 2);
		ck_assert_uint_eq(ph[1].first, 32);
		ck_assert(analysis_slowdown(pts, 60, ph, k, 0.8, &at_bytes, &at_ns));
		ck_assert_uint_eq(at_bytes, start_bytes(30));
	}
	run_pts(60, SEC, &a);
	ck_assert_uint_eq(a.nphases, row->nphases);
	ck_assert(a.slowed);
	ck_assert_uint_eq(a.slowdown_bytes, start_bytes(30));
	ck_assert_uint_eq(a.slowdown_ns, 30 * row->dt_ns);
	ck_assert_uint_eq(a.slowdown_phase, 1);
	ck_assert_uint_eq(a.phases[1].from_bytes, a.slowdown_bytes);
	ck_assert_uint_eq(a.phases[1].from_ns, a.slowdown_ns);
	ck_assert_uint_eq(a.phases[1].first, 30);
	ck_assert_uint_eq(a.phases[row->nphases - 1].first, row->nphases == 2 ? 30 : 32);
	ck_assert_double_eq_tol(a.phases[0].mibps, 100, 1e-6);
	ck_assert_double_eq_tol(a.initial_mibps, 100, 1e-6);
	analysis_release(&a);
}
END_TEST

/*
 * Steady state from the round after the change starts at the change:
 * 100 MiB/s, then 40 from the row's second, rounds of 10 s.  At 57 s the
 * first steady round is the sixth (60 s): steady from 57 s, the phase
 * boundary.  At 60 s it is already on a round's edge.  At 47 s the
 * stretch starts at 50 s: the round before it (40-50 s) holds the change,
 * so from 47 s too.
 */
static const struct steady_row {
	size_t change;		/* the first point at 40 */
	uint64_t from_s;
} steady_rows[] = {
	{ 57, 57 }, { 60, 60 }, { 47, 47 },
};

START_TEST(test_steady_from_the_change)
{
	const struct steady_row *row = &steady_rows[_i];
	struct ws_analysis a;
	size_t i;

	for (i = 0; i < 150; i++)
		rates[i] = i < row->change ? 100 : 40;
	build(150);
	run_pts(150, SEC, &a);
	ck_assert_uint_eq(a.nphases, 2);
	ck_assert(a.slowed);
	ck_assert_uint_eq(a.slowdown_ns, row->change * SEC);
	ck_assert(a.steady.reached);
	ck_assert_uint_eq(a.steady.final.from_ns, row->from_s * SEC);
	ck_assert_uint_eq(a.steady.final.from_bytes, a.slowdown_bytes);
	ck_assert_double_eq_tol(a.steady.final.mibps, 40, 1e-6);
	analysis_release(&a);
}
END_TEST

/*
 * The shapes issue 40 named: an unpaced 100 MiB written in a second,
 * then the final wait, 5 s in all: too short; the same wait over 10 s:
 * a phase at the page cache's rate, then the wait, a span of its own
 * (0 MiB/s: writing had ended), and the slowdown there.  A tmpfs's 3 s at 1480, 152 and 144 MiB/s: too short; 30 s of
 * it: 1480 MiB/s for its first second's bytes, then 144.
 */
START_TEST(test_issue_shapes)
{
	struct ws_analysis a;
	size_t n = 0;

	for (int i = 0; i < 4; i++)
		pts[n++] = (struct ws_point){ .t_ns = (uint64_t)(i + 1) * 250 * MS_NS,
					      .dt_ns = 250 * MS_NS,
					      .bytes = (uint64_t)(i + 1) * 25 * (uint64_t)MIB,
					      .dbytes = 25 * (uint64_t)MIB, .mibps = 100 };
	pts[n++] = (struct ws_point){ .t_ns = 5 * SEC, .dt_ns = 4 * SEC, .bytes = 100 * (uint64_t)MIB };
	run_pts(n, SEC, &a);
	ck_assert_int_eq(a.phases_verdict, WS_PHASES_TOO_SHORT);
	ck_assert_uint_eq(a.nphases, 1);
	analysis_release(&a);
	pts[n - 1].t_ns = 10 * SEC;
	pts[n - 1].dt_ns = 9 * SEC;
	run_pts(n, SEC, &a);
	ck_assert_int_eq(a.phases_verdict, WS_PHASES_JUDGED);
	ck_assert_uint_eq(a.nphases, 2);
	ck_assert_uint_eq(a.phases[1].from_bytes, 100 * (uint64_t)MIB);
	ck_assert_uint_eq(a.phases[1].from_ns, SEC);
	ck_assert_double_eq_tol(a.phases[0].mibps, 100, 1e-9);
	ck_assert_double_eq(a.phases[1].mibps, 0);
	ck_assert(a.slowed);
	ck_assert_uint_eq(a.slowdown_bytes, 100 * (uint64_t)MIB);
	analysis_release(&a);

	for (int len = 3; len <= 30; len += 27) {
		for (n = 0; n < (size_t)len; n++)
			rates[n] = n == 0 ? 1480 : n == 1 ? 152 : 144;
		build(n);
		run_pts(n, SEC, &a);
		if (len == 3) {
			ck_assert_int_eq(a.phases_verdict, WS_PHASES_TOO_SHORT);
			ck_assert_uint_eq(a.nphases, 1);
		} else {
			ck_assert_int_eq(a.phases_verdict, WS_PHASES_JUDGED);
			ck_assert_uint_eq(a.nphases, 2);
			ck_assert_uint_eq(a.phases[1].first, 1);
			ck_assert_double_eq_tol(a.phases[0].mibps, 1480, 0.01);
			ck_assert(a.slowed);
			ck_assert_uint_eq(a.slowdown_ns, SEC);
		}
		analysis_release(&a);
	}
}
END_TEST

/* Eight phases and one more lasting change: the two neighbours of the
 * shortest time are one, and the change gets its phase. */
START_TEST(test_lasting_when_full)
{
	struct ws_phase ph[WS_MAX_PHASES];
	struct ws_lasting_rule r = { .level_ns = SEC };
	unsigned int n = 8, at_phase;
	bool unresolved = true;
	size_t at, i;

	/* eight levels of 3 s alternating 100/50 (each 2x: no change), then
	 * 100 MiB/s for 15 s and 10 for 15 s inside the last */
	for (i = 0; i < 24; i++)
		rates[i] = (i / 3) % 2 ? 50 : 100;
	for (; i < 54; i++)
		rates[i] = i < 39 ? 100 : 10;
	build(54);
	for (i = 0; i < 8; i++)
		ph[i] = (struct ws_phase){ .first = 3 * i, .last = i == 7 ? 53 : 3 * i + 2 };
	r.run_ns = pts[53].t_ns;
	r.run_bytes = pts[53].bytes;
	analysis_phase_rates(pts, ph, 8);
	for (i = 0; i < 8; i++) {
		ph[i].from_bytes = start_bytes(ph[i].first);
		ph[i].from_ns = pts[ph[i].first].t_ns - pts[ph[i].first].dt_ns;
		ph[i].to_bytes = pts[ph[i].last].bytes;
		ph[i].to_ns = pts[ph[i].last].t_ns;
	}
	ck_assert_int_eq(analysis_hidden_change(pts, 54, ph, 8, &r, &at_phase, &at), 1);
	ck_assert_uint_eq(at_phase, 7);
	ck_assert_int_eq(analysis_split_lasting(pts, 54, ph, &n, WS_MAX_PHASES, &r, &unresolved), 0);
	ck_assert(!unresolved);
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(ph[7].first, 39);
	ck_assert_ptr_null(tiling_error(ph, n, 54));
	ck_assert_int_eq(analysis_hidden_change(pts, 54, ph, n, &r, &at_phase, &at), 0);
}
END_TEST

Suite *analysis_suite(void)
{
	Suite *s = suite_create("analysis");
	TCase *phases = tcase_create("phases");
	TCase *slow = tcase_create("slowdown");
	TCase *run = tcase_create("run");
	TCase *lasting = tcase_create("lasting");

	/* thousands of series per row; slow under sanitizers */
	tcase_set_timeout(phases, 60);
	tcase_add_loop_test(phases, test_steps, 0, N_ROWS(steps));
	tcase_add_test(phases, test_ten_percent_not_forced);
	tcase_add_loop_test(phases, test_ramp, 0, N_ROWS(ramps));
	tcase_add_test(phases, test_cap);
	tcase_add_test(phases, test_short);
	tcase_add_test(phases, test_two_point_bursts);
	tcase_add_test(phases, test_alternating);
	tcase_add_test(phases, test_unequal_points);
	tcase_add_test(phases, test_merge_short_and_rates);
	tcase_add_test(run, test_merge_similar);
	suite_add_tcase(s, phases);

	tcase_set_timeout(slow, 60);
	tcase_add_loop_test(slow, test_slowdown, 0, N_ROWS(slows));
	tcase_add_loop_test(slow, test_slowdown_ramp, 0, 2);
	tcase_add_test(slow, test_slowdown_one_phase);
	tcase_add_loop_test(slow, test_slowdown_walk_back, 0, N_ROWS(walks));
	tcase_add_test(slow, test_extend_to_end);
	suite_add_tcase(s, slow);

	tcase_add_test(run, test_defaults);
	tcase_add_loop_test(run, test_run, 0, N_ROWS(runs));
	tcase_add_test(run, test_run_empty);
	tcase_add_test(run, test_compact);
	suite_add_tcase(s, run);

	tcase_add_loop_test(lasting, test_lasting_2x, 0, N_ROWS(x_rows));
	tcase_add_loop_test(lasting, test_lasting_third, 0, N_ROWS(third_rows));
	tcase_add_loop_test(lasting, test_lasting_level, 0, N_ROWS(level_rows));
	tcase_add_loop_test(lasting, test_too_short, 0, N_ROWS(short_rows));
	tcase_add_test(lasting, test_verdict_words);
	tcase_add_loop_test(lasting, test_slowdown_is_a_boundary, 0, N_ROWS(walked_rows));
	tcase_add_loop_test(lasting, test_steady_from_the_change, 0, N_ROWS(steady_rows));
	tcase_add_test(lasting, test_issue_shapes);
	tcase_add_test(lasting, test_lasting_when_full);
	suite_add_tcase(s, lasting);
	return s;
}
