/* test_analysis.c - the analysis suite: phases on synthetic series with
 * known answers (clean and noisy steps, a 2009 SSD's three phases, a
 * dip, a stall, slow ramps, flat series with spikes), the slowdown point,
 * and SNIA steady state against hand-computed windows.
 *
 * Every series is one point a second (unless a test says otherwise),
 * built from a table of rates; noise comes from a seeded PRNG, and each
 * noisy row is checked over many seeds, so a rule that holds only for a
 * lucky draw fails here. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <check.h>

#include "analysis.h"
#include "suites.h"

/* Loop tests take an int count. */
#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define MIB 1048576.0
#define SEC UINT64_C(1000000000)
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

/* ---- steady state ---- */

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

#define ROUNDS_MAX 32

static const struct steady_row {
	const char *name;
	double r[ROUNDS_MAX];
	size_t nr;
	unsigned int window;
	bool reached;
	size_t first;		/* the first round of the window */
	double mibps, dev, excursion;
} steadies[] = {
	/*
	 * Window 5: [0,5) avg 80, dev 25%; [1,6) 70, 28.6%; [2,7) 62,
	 * 29.0%; [3,8) 56.2, 24.6%: all fail on deviation.  [4,9) = 60 50
	 * 50 51 49: avg 52, dev 8/52 = 15.4% holds, but the slope is
	 * sum((x - 2)(y - 52)) / 10 = (-16 + 2 + 0 - 1 - 6) / 10 = -2.1,
	 * excursion 2.1 x 4 / 52 = 16.2%: fails.  [5,10) = 50 50 51 49 50:
	 * avg 50, dev 1/50 = 2%, slope -1/10, excursion 0.4 / 50 = 0.8%.
	 */
	{ "settling, window 5",
	  { 100, 90, 80, 70, 60, 50, 50, 51, 49, 50, 50 }, 11, 5,
	  true, 5, 50, 2, 0.8 },
	/*
	 * Window 3: [0,3) dev 11.1% holds, excursion 20/90 fails; so do
	 * [1,4) .. [3,6); [4,7) = 60 50 50: dev 12.5%, excursion 10/53.3 =
	 * 18.75% fails; [5,8) = 50 50 51: avg 151/3, dev (2/3)/(151/3) =
	 * 2/151, slope 1/2, excursion 1/(151/3) = 3/151.
	 */
	{ "settling, window 3",
	  { 100, 90, 80, 70, 60, 50, 50, 51, 49, 50, 50 }, 11, 3,
	  true, 5, 151.0 / 3, 200.0 / 151, 300.0 / 151 },
	/*
	 * Round 4 at 37.5, 25% under the rest: every window holding it has
	 * avg 47.5 and dev 10/47.5 = 21.1%; [5,10) is the first without.
	 */
	{ "a round 25% low",
	  { 50, 50, 50, 50, 37.5, 50, 50, 50, 50, 50, 50, 50 }, 12, 5,
	  true, 5, 50, 0, 0 },
	/*
	 * Round 4 at 62.5, 25% over: windows holding it have avg 52.5 and
	 * dev 10/52.5 = 19.05%, which holds.  In [0,5) it is last: slope
	 * (2 x 12.5) / 10 = 2.5, excursion 10/52.5 = 19.05% fails; in [1,6)
	 * it is fourth: slope 1.25, excursion 5/52.5 = 9.52% holds.
	 */
	{ "a round 25% high",
	  { 50, 50, 50, 50, 62.5, 50, 50, 50, 50, 50, 50, 50 }, 12, 5,
	  true, 1, 52.5, 1000.0 / 52.5, 500.0 / 52.5 },
	{ "too few rounds",
	  { 50, 50, 50, 50 }, 4, 5, false, 0, 0, 0, 0 },
	{ "window of one is no window",
	  { 50, 50, 50, 50 }, 4, 1, false, 0, 0, 0, 0 },
};

static void assert_steady(const struct steady_row *row, unsigned int rp)
{
	struct ws_analysis_params p;
	struct ws_steady st;
	size_t n = build_rounds(row->r, row->nr, rp);
	const struct ws_point *end;

	analysis_defaults(&p);
	p.steady_window = row->window;
	p.round_points = rp;
	ck_assert_int_eq(analysis_steady(pts, n, &p, &st), row->reached);
	ck_assert_int_eq(st.reached, row->reached);
	ck_assert_uint_eq(st.window, row->window);
	if (!row->reached)
		return;
	end = &pts[(row->first + row->window) * rp - 1];
	ck_assert_uint_eq(st.at_bytes, end->bytes);
	ck_assert_uint_eq(st.at_ns, end->t_ns);
	ck_assert_double_eq_tol(st.mibps, row->mibps, 1e-9);
	ck_assert_double_eq_tol(st.max_dev_pct, row->dev, 1e-9);
	ck_assert_double_eq_tol(st.excursion_pct, row->excursion, 1e-9);
}

START_TEST(test_steady)
{
	assert_steady(&steadies[_i], 1);
	assert_steady(&steadies[_i], 3);
}
END_TEST

/*
 * A geometric decline by d per round: every round is within a few % of
 * the window's average, so only the excursion decides, and it is about
 * d x (window - 1) of the average: 3% x 4 = 12% never settles, 2% x 4 =
 * 8% does at once, 2% x 6 = 12% (window 7) never.
 */
static const struct decline_row {
	double per_round;
	unsigned int window;
	bool reached;
} declines[] = {
	{ 0.03, 5, false }, { 0.02, 5, true }, { 0.02, 7, false },
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
	analysis_defaults(&p);
	p.steady_window = row->window;
	ck_assert_int_eq(analysis_steady(pts, build_rounds(r, ROUNDS_MAX, 1),
					 &p, &st), row->reached);
	if (!row->reached)
		return;
	ck_assert_uint_eq(st.at_bytes, pts[row->window - 1].bytes);
	ck_assert_double_lt(st.max_dev_pct, 5);
	ck_assert_double_gt(st.excursion_pct, 7.5);
	ck_assert_double_lt(st.excursion_pct, 8.5);
}
END_TEST

/* ---- defaults and the whole ---- */

START_TEST(test_defaults)
{
	struct ws_analysis_params p;

	memset(&p, 0xff, sizeof(p));
	analysis_defaults(&p);
	ck_assert_double_eq(p.slowdown_fraction, 0.8);
	ck_assert_uint_eq(p.steady_window, 5);
	ck_assert_uint_eq(p.round_points, 1);
	ck_assert_double_eq(p.steady_dev_pct, 20);
	ck_assert_double_eq(p.steady_excursion_pct, 10);
}
END_TEST

START_TEST(test_run)
{
	const struct levels l = { 150, 3, { 0, 25, 70 }, { 80, 32, 23 },
				  UNIFORM, 0.05, 2 };
	struct ws_analysis_params p;
	struct ws_analysis a;
	struct ws_phase ph[WS_MAX_PHASES];
	struct ws_steady st;
	uint64_t b, t;
	unsigned int k, j;

	make_levels(&l, 3);
	analysis_defaults(&p);
	p.round_points = 10;
	analysis_run(pts, l.n, &p, &a);
	k = analysis_phases(pts, l.n, ph, WS_MAX_PHASES);
	ck_assert_uint_eq(a.nphases, 3);
	ck_assert_uint_eq(a.nphases, k);
	for (j = 0; j < k; j++) {
		ck_assert_uint_eq(a.phases[j].first, ph[j].first);
		ck_assert_uint_eq(a.phases[j].last, ph[j].last);
	}
	ck_assert_double_eq(a.initial_mibps, ph[0].mibps);
	ck_assert(a.slowed);
	ck_assert(analysis_slowdown(pts, l.n, ph, k, 0.8, &b, &t));
	ck_assert_uint_eq(a.slowdown_bytes, b);
	ck_assert_uint_eq(a.slowdown_ns, t);
	/* rounds of 10 points: 80 80 56 32 32 32 32 23 23 23 23 23 ...:
	 * windows from rounds 0..6 fail on deviation or excursion (by 19%
	 * at least, more than noise over 10 points moves them); rounds 7..11
	 * at 23 are the first that hold */
	ck_assert(analysis_steady(pts, l.n, &p, &st));
	ck_assert(a.steady.reached);
	ck_assert_uint_eq(a.steady.at_bytes, st.at_bytes);
	ck_assert_double_eq(a.steady.mibps, st.mibps);
	ck_assert_double_eq_tol(a.steady.mibps, 23, 23 * 0.03);

	analysis_run(pts, 0, &p, &a);
	ck_assert_uint_eq(a.nphases, 0);
	ck_assert(!a.slowed);
	ck_assert(!a.steady.reached);
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

Suite *analysis_suite(void)
{
	Suite *s = suite_create("analysis");
	TCase *phases = tcase_create("phases");
	TCase *slow = tcase_create("slowdown");
	TCase *steady = tcase_create("steady");
	TCase *run = tcase_create("run");

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
	suite_add_tcase(s, slow);

	tcase_add_loop_test(steady, test_steady, 0, N_ROWS(steadies));
	tcase_add_loop_test(steady, test_steady_decline, 0, N_ROWS(declines));
	suite_add_tcase(s, steady);

	tcase_add_test(run, test_defaults);
	tcase_add_test(run, test_run);
	suite_add_tcase(s, run);
	return s;
}
