/* test_hist.c - the hist suite: the value <-> bucket mapping over the whole
 * range, the stated error bound (exhaustively at bucket edges and by
 * sampling 1 us..1 h), percentiles on known data, merge, and the
 * coordinated-omission correction against hand-computed answers and
 * against HdrHistogram's one-sample-at-a-time loop. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "lib/hist.h"
#include "suites.h"

/* Loop tests take an int count. */
#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)
#define HOUR (3600 * SEC)
#define LAST (HIST_BUCKETS - 1)
#define TOP HIST_MAX_TRACKED

/* splitmix64: reproducible values, no libc state. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Spread over magnitudes: a random number of bits 0..max_bits, then a
 * random value of that many bits, so small values are as common as big. */
static uint64_t log_rand(uint64_t *s, unsigned max_bits)
{
	unsigned bits = (unsigned)(next_rand(s) % (max_bits + 1));

	return bits ? next_rand(s) >> (64 - bits) : 0;
}

/* What a percentile landing on v's bucket (not first or last) reports. */
static uint64_t reported(uint64_t v)
{
	return hist_bucket_mid(hist_bucket(v));
}

static uint64_t abs_diff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * The helpers called in loops of a million test first and call Check only
 * on failure: every passing ck_assert is a write to the runner's pipe,
 * which would make these loops slow enough to time out under ASan.
 */
/* The bound the man page states, as a literal: a change of the header's
 * macro must fail here (tests/claims.tsv holds the man page to it). */
#define STATED_ERROR_DIV 256
#define STATED_TOP_NS ((UINT64_C(1) << 43) - 1)

static void assert_within_bound(uint64_t got, uint64_t want)
{
	if (abs_diff(got, want) * STATED_ERROR_DIV <= want)
		return;
	ck_abort_msg("reported %llu for %llu: beyond 1/%u",
		     (unsigned long long)got, (unsigned long long)want,
		     STATED_ERROR_DIV);
}

static void assert_round_trip(uint64_t v)
{
	unsigned b = hist_bucket(v);

	if (v > TOP ? b == LAST :
	    b < HIST_BUCKETS && hist_bucket_low(b) <= v &&
	    v <= hist_bucket_high(b))
		return;
	ck_abort_msg("%llu in bucket %u [%llu, %llu]", (unsigned long long)v,
		     b, (unsigned long long)hist_bucket_low(b),
		     (unsigned long long)hist_bucket_high(b));
}

static void assert_same_hist(const struct hist *a, const struct hist *b)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		if (a->counts[i] != b->counts[i])
			ck_abort_msg("bucket %u: %llu != %llu", i,
				     (unsigned long long)a->counts[i],
				     (unsigned long long)b->counts[i]);
	ck_assert_uint_eq(hist_count(a), hist_count(b));
	ck_assert_uint_eq(hist_min(a), hist_min(b));
	ck_assert_uint_eq(hist_max(a), hist_max(b));
	ck_assert_uint_eq(a->sum.hi, b->sum.hi);
	ck_assert_uint_eq(a->sum.lo, b->sum.lo);
	ck_assert(!memcmp(a, b, sizeof(*a)));
}

/* The percentile is want itself (exact: min or max) or what want's bucket
 * reports, and either way within the bound. */
static void assert_pct(const struct hist *h, double pct, uint64_t want,
		       int exact)
{
	uint64_t got = hist_percentile(h, pct);

	assert_within_bound(got, want);
	ck_assert_uint_eq(got, exact ? want : reported(want));
}

/*----- mapping -----*/

/* 2^_i and its neighbours, _i = 0..44: all of the range and past its top. */
START_TEST(test_pow2_neighbours)
{
	uint64_t v = UINT64_C(1) << _i;

	assert_round_trip(v - 1);
	assert_round_trip(v);
	assert_round_trip(v + 1);
	ck_assert_uint_le(hist_bucket(v - 1), hist_bucket(v));
	ck_assert_uint_le(hist_bucket(v), hist_bucket(v + 1));
	if (v <= TOP)	/* a power of two starts a bucket */
		ck_assert_uint_eq(hist_bucket_low(hist_bucket(v)), v);
}
END_TEST

/* A million values spread over all magnitudes; where the bucket changes
 * between v and v + 1, v is its bucket's upper edge. */
START_TEST(test_random_round_trip)
{
	uint64_t seed = 1, v;
	unsigned b;
	int i;

	for (i = 0; i < 1000000; i++) {
		v = log_rand(&seed, HIST_TOP_BITS);
		assert_round_trip(v);
		b = hist_bucket(v);
		if (v == TOP || b == hist_bucket(v + 1))
			continue;
		if (b > hist_bucket(v + 1) || v != hist_bucket_high(b))
			ck_abort_msg("%llu in bucket %u, %llu in %u",
				     (unsigned long long)v, b,
				     (unsigned long long)v + 1,
				     hist_bucket(v + 1));
	}
}
END_TEST

START_TEST(test_contiguous)
{
	uint64_t low, high;
	unsigned b;

	ck_assert_uint_eq(hist_bucket_low(0), 0);
	ck_assert_uint_eq(hist_bucket_high(LAST), TOP);
	for (b = 0; b < HIST_BUCKETS; b++) {
		low = hist_bucket_low(b);
		high = hist_bucket_high(b);
		if (low > hist_bucket_mid(b) || hist_bucket_mid(b) > high ||
		    hist_bucket(low) != b || hist_bucket(high) != b ||
		    (b < LAST && high + 1 != hist_bucket_low(b + 1)))
			ck_abort_msg("bucket %u [%llu, %llu] mid %llu, next from %llu",
				     b, (unsigned long long)low,
				     (unsigned long long)high,
				     (unsigned long long)hist_bucket_mid(b),
				     (unsigned long long)hist_bucket_low(b + 1));
	}
}
END_TEST

/* 0..255 ns have buckets of their own; above, a bucket is at most 1/128
 * of its lower edge wide. */
START_TEST(test_widths)
{
	uint64_t width;
	unsigned b;

	for (b = 0; b < 2 * HIST_SUB_BUCKETS; b++)
		if (hist_bucket(b) != b || hist_bucket_low(b) != b ||
		    hist_bucket_high(b) != b)
			ck_abort_msg("value %u is not exact", b);
	for (; b < HIST_BUCKETS; b++) {
		width = hist_bucket_high(b) - hist_bucket_low(b) + 1;
		if (width & (width - 1) ||
		    width * HIST_SUB_BUCKETS > hist_bucket_low(b))
			ck_abort_msg("bucket %u: width %llu from %llu", b,
				     (unsigned long long)width,
				     (unsigned long long)hist_bucket_low(b));
	}
}
END_TEST

static const uint64_t above_top[] = {
	TOP + 1, TOP + 2, UINT64_C(1) << 50, UINT64_MAX - 1, UINT64_MAX,
};

/* Too big to track within the bound, but not lost: counted in the last
 * bucket, with max (hence p100) and the sum exact. */
START_TEST(test_above_top)
{
	uint64_t v = above_top[_i];
	struct hist h;

	ck_assert_uint_eq(hist_bucket(v), LAST);
	hist_init(&h);
	hist_record(&h, 5 * SEC);
	hist_record(&h, v);
	hist_record(&h, v);
	ck_assert_uint_eq(h.counts[LAST], 2);
	ck_assert_uint_eq(hist_count(&h), 3);
	ck_assert_uint_eq(hist_max(&h), v);
	ck_assert_uint_eq(hist_percentile(&h, 100), v);
	ck_assert_uint_eq(hist_percentile(&h, 0), 5 * SEC);
	/* 5 s + 2v, carried into the high word when it overflows */
	ck_assert_uint_eq(h.sum.lo, 5 * SEC + 2 * v);
	ck_assert_uint_eq(h.sum.hi, (v >> 63) + (5 * SEC + 2 * v < 2 * v));
}
END_TEST

/*----- the error bound -----*/

/*
 * Within a bucket, |mid - v| / v falls as v rises to mid and rises as v goes
 * on to high, so it peaks at an edge: checking both edges of every bucket
 * proves the bound for every value 1..HIST_MAX_TRACKED.  The worst case
 * comes within 1 % of 1/256, so 2^-8 is the exact figure, not a loose one.
 */
START_TEST(test_bound_every_bucket)
{
	uint64_t edge[2], mid;
	double rel, worst = 0.0;
	unsigned b, i;

	for (b = 1; b < HIST_BUCKETS; b++) {
		edge[0] = hist_bucket_low(b);
		edge[1] = hist_bucket_high(b);
		mid = hist_bucket_mid(b);
		for (i = 0; i < 2; i++) {
			assert_within_bound(mid, edge[i]);
			rel = (double)abs_diff(mid, edge[i]) / (double)edge[i];
			if (rel > worst)
				worst = rel;
		}
	}
	ck_assert_uint_eq(hist_bucket_mid(0), 0);
	ck_assert_double_le(worst, 1.0 / STATED_ERROR_DIV);
	ck_assert_double_gt(worst, 0.99 / STATED_ERROR_DIV);
	ck_assert_uint_eq(HIST_MAX_TRACKED, STATED_TOP_NS);
}
END_TEST

/* [from, to): one decade each from 1 us to 1 h. */
static const struct { uint64_t from, to; } decades[] = {
	{ US, 10 * US }, { 10 * US, 100 * US }, { 100 * US, MS },
	{ MS, 10 * MS }, { 10 * MS, 100 * MS }, { 100 * MS, SEC },
	{ SEC, 10 * SEC }, { 10 * SEC, 100 * SEC }, { 100 * SEC, 1000 * SEC },
	{ 1000 * SEC, HOUR + 1 },
};

/* Sampled values of the decade, through the mapping and through a
 * histogram's percentile (v as the middle of four samples). */
START_TEST(test_bound_sampled)
{
	uint64_t seed = (uint64_t)_i + 100, from = decades[_i].from, v;
	struct hist h;
	int i;

	for (i = 0; i < 200000; i++) {
		v = from + next_rand(&seed) % (decades[_i].to - from);
		assert_within_bound(reported(v), v);
	}
	for (i = 0; i < 500; i++) {
		v = from + next_rand(&seed) % (decades[_i].to - from);
		hist_reset(&h);
		hist_record(&h, 0);
		hist_record_n(&h, v, 2);
		hist_record(&h, TOP);
		assert_within_bound(hist_percentile(&h, 50), v);
		assert_within_bound(hist_percentile(&h, 75), v);
	}
	assert_within_bound(reported(decades[_i].to - 1),
			    decades[_i].to - 1);
	assert_within_bound(reported(from), from);
}
END_TEST

/*----- percentiles -----*/

/* 1, 2, ..., 10000 us, one each. */
static const struct { double pct; uint64_t want; int exact; } uniform[] = {
	{ 0, 1 * US, 1 },	/* min */
	{ 0.01, 1 * US, 1 },	/* the first sample is min */
	{ 0.02, 2 * US, 0 },
	{ 25, 2500 * US, 0 },
	{ 50, 5000 * US, 0 },
	{ 90, 9000 * US, 0 },
	{ 99, 9900 * US, 0 },
	{ 99.9, 9990 * US, 0 },
	{ 99.99, 9999 * US, 0 },	/* rank 9999, not the last */
	{ 100, 10000 * US, 1 },
	{ -5, 1 * US, 1 },	/* clamped */
	{ 250, 10000 * US, 1 },
};

START_TEST(test_uniform)
{
	struct hist h;
	uint64_t v;

	hist_init(&h);
	for (v = 1; v <= 10000; v++)
		hist_record(&h, v * US);
	ck_assert_uint_eq(hist_count(&h), 10000);
	ck_assert_uint_eq(hist_min(&h), 1 * US);
	ck_assert_uint_eq(hist_max(&h), 10000 * US);
	ck_assert_uint_eq(h.sum.lo, 10000 * 10001 / 2 * US);
	ck_assert_double_eq(hist_mean(&h), 5000.5 * US);
	assert_pct(&h, uniform[_i].pct, uniform[_i].want, uniform[_i].exact);
}
END_TEST

START_TEST(test_empty)
{
	static const double pcts[] = { 0, 50, 99.9, 100 };
	struct hist h;
	unsigned p;
	int i;

	hist_init(&h);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(hist_count(&h), 0);
		ck_assert_uint_eq(hist_min(&h), 0);
		ck_assert_uint_eq(hist_max(&h), 0);
		ck_assert_double_eq(hist_mean(&h), 0.0);
		for (p = 0; p < 4; p++)
			ck_assert_uint_eq(hist_percentile(&h, pcts[p]), 0);
		/* a used histogram, reset, is empty again */
		hist_record(&h, 42 * MS);
		hist_record_corrected(&h, 5 * SEC, 10 * MS);
		hist_reset(&h);
	}
}
END_TEST

static const uint64_t singles[] = {
	0, 1, 255, 1001, 123456789, HOUR, TOP, UINT64_MAX,
};

/* One sample: every percentile is that sample, exactly. */
START_TEST(test_single)
{
	static const double pcts[] = { 0, 1, 50, 99, 99.9, 100 };
	uint64_t v = singles[_i];
	struct hist h;
	unsigned p;

	hist_init(&h);
	hist_record(&h, v);
	ck_assert_uint_eq(hist_count(&h), 1);
	ck_assert_uint_eq(hist_min(&h), v);
	ck_assert_uint_eq(hist_max(&h), v);
	ck_assert_double_eq(hist_mean(&h), (double)v);
	for (p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++)
		ck_assert_uint_eq(hist_percentile(&h, pcts[p]), v);
}
END_TEST

/*
 * The definition, rank by rank: 0..249 ns four times each (exact buckets),
 * so the r-th smallest of the 1000 is (r - 1) / 4 and pct t/10 is rank t.
 * Includes the decimals that binary floating point puts just above an
 * integer (16.1, 32.2, 64.4 % of 1000), where a naive ceil is one rank off.
 */
START_TEST(test_rank_definition)
{
	struct hist h;
	uint64_t v;
	int t;

	hist_init(&h);
	for (v = 0; v < 250; v++)
		hist_record_n(&h, v, 4);
	for (t = 0; t <= 1000; t++)
		if (hist_percentile(&h, t / 10.0) !=
		    (t ? (uint64_t)(t - 1) / 4 : 0))
			ck_abort_msg("p%g = %llu", t / 10.0,
				     (unsigned long long)hist_percentile(&h, t / 10.0));
	ck_assert_uint_eq(hist_percentile(&h, 64.4), 160);
	ck_assert_uint_eq(hist_percentile(&h, 64.5), 161);
}
END_TEST

/* "At least pct %": of 10, 20, 30, p33 is 10 (1/3 >= 33 %), p34 is 20. */
START_TEST(test_at_least)
{
	struct hist h;

	hist_init(&h);
	hist_record(&h, 30);
	hist_record(&h, 10);
	hist_record(&h, 20);
	ck_assert_uint_eq(hist_percentile(&h, 33), 10);
	ck_assert_uint_eq(hist_percentile(&h, 34), 20);
	ck_assert_uint_eq(hist_percentile(&h, 66), 20);
	ck_assert_uint_eq(hist_percentile(&h, 200.0 / 3), 20);
	ck_assert_uint_eq(hist_percentile(&h, 67), 30);
	ck_assert_double_eq(hist_mean(&h), 20.0);
}
END_TEST

/* A midpoint outside [min, max] is clamped: never report a value that
 * cannot have been recorded. */
START_TEST(test_clamped_to_extremes)
{
	struct hist h;

	ck_assert_uint_eq(hist_bucket_low(hist_bucket(1000)), 1000);
	ck_assert_uint_eq(reported(1000), 1001);
	hist_init(&h);
	hist_record_n(&h, 1000, 3);
	ck_assert_uint_eq(hist_percentile(&h, 50), 1000);
	hist_reset(&h);
	hist_record_n(&h, 1003, 3);
	ck_assert_uint_eq(hist_percentile(&h, 50), 1003);
}
END_TEST

START_TEST(test_record_n)
{
	struct hist a, b;
	int i;

	hist_init(&a);
	hist_init(&b);
	hist_record_n(&a, 7 * MS, 0);
	assert_same_hist(&a, &b);
	hist_record_n(&a, 7 * MS, 1000);
	hist_record_n(&a, UINT64_MAX, 3);
	for (i = 0; i < 1000; i++)
		hist_record(&b, 7 * MS);
	for (i = 0; i < 3; i++)
		hist_record(&b, UINT64_MAX);
	assert_same_hist(&a, &b);
}
END_TEST

/* hist_count_le: every sample at or below the value, those of its own
 * bucket above it (within the bound), monotonic, all of them from max on. */
START_TEST(test_count_le)
{
	static const uint64_t v[] = { 0, 200, 999 * US, 1 * MS, 1 * MS + 1,
				      1010 * US, 250 * MS, 3 * SEC, 2 * HOUR,
				      TOP + 5 };
	struct hist h;
	uint64_t prev = 0, seed = 7;

	hist_init(&h);
	ck_assert_uint_eq(hist_count_le(&h, 1 * SEC), 0);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		hist_record(&h, v[i]);
	ck_assert_uint_eq(hist_count_le(&h, 0), 1);
	ck_assert_uint_eq(hist_count_le(&h, 199), 1);	/* exact below 256 */
	ck_assert_uint_eq(hist_count_le(&h, 200), 2);
	/* 1 ms + 1 shares 1 ms's bucket; 1.01 ms is past it */
	ck_assert_uint_eq(hist_count_le(&h, 1 * MS), 5);
	ck_assert_uint_eq(hist_count_le(&h, 1 * SEC), 7);
	ck_assert_uint_eq(hist_count_le(&h, 60 * SEC), 8);
	ck_assert_uint_eq(hist_count_le(&h, 2 * HOUR), 9);
	/* the last bucket holds everything past the top */
	ck_assert_uint_eq(hist_count_le(&h, TOP), 10);
	ck_assert_uint_eq(hist_count_le(&h, UINT64_MAX), 10);
	for (int i = 0; i < 2000; i++) {
		uint64_t x = next_rand(&seed) >> (next_rand(&seed) % 64);
		uint64_t n = hist_count_le(&h, prev + x % (10 * SEC));

		ck_assert_uint_ge(n, hist_count_le(&h, prev));
		prev += x % (10 * SEC);
	}
}
END_TEST

/*----- merge -----*/

static const struct { int na, nb; unsigned bits_a, bits_b; } merges[] = {
	{ 3000, 2000, 30, 43 },	/* overlapping */
	{ 1000, 1000, 20, 64 },	/* b reaches past the top */
	{ 0, 500, 0, 43 },	/* into an empty histogram */
	{ 500, 0, 43, 0 },	/* an empty one in */
	{ 0, 0, 0, 0 },
	{ 1, 1, 64, 64 },
};

/* Merging a and b gives what recording everything into one gives. */
START_TEST(test_merge)
{
	static const double pcts[] = { 0, 10, 50, 90, 99, 99.9, 100 };
	struct hist a, b, all;
	uint64_t seed = (uint64_t)_i, v;
	unsigned p;
	int i;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	for (i = 0; i < merges[_i].na; i++) {
		v = log_rand(&seed, merges[_i].bits_a);
		hist_record(&a, v);
		hist_record(&all, v);
	}
	for (i = 0; i < merges[_i].nb; i++) {
		v = log_rand(&seed, merges[_i].bits_b);
		hist_record(&b, v);
		hist_record(&all, v);
	}
	hist_merge(&a, &b);
	assert_same_hist(&a, &all);
	ck_assert_double_eq(hist_mean(&a), hist_mean(&all));
	for (p = 0; p < sizeof(pcts) / sizeof(pcts[0]); p++)
		ck_assert_uint_eq(hist_percentile(&a, pcts[p]),
				  hist_percentile(&all, pcts[p]));
}
END_TEST

/*----- coordinated omission -----*/

/*
 * Probes due every 100 ms: 99 take 1 ms, then one takes 1 s.  The nine
 * probes that could not run during that second would have seen 900, 800,
 * ..., 100 ms, so the corrected data is 99 x 1 ms, 100 ms .. 900 ms, 1 s
 * (109 samples, sum 5599 ms).  By hand, with rank = ceil(pct * 109 / 100):
 *   p50: rank 55  -> 1 ms      p90: rank 99  -> 1 ms (the last 1 ms)
 *   p91: rank 100 -> 100 ms    p95: rank 104 -> 500 ms
 *   p99: rank 108 -> 900 ms    p99.9: rank 109 -> 1 s
 * Raw, the 1 s is one sample in 100: p99 is rank 99, 1 ms.  The first and
 * last ranks report min and max exactly ('=' below); the others, their
 * bucket's midpoint ('~', within the bound).
 */
#define EXACT(v) (v), 1
#define NEAR(v) (v), 0
static const struct {
	double pct;
	uint64_t cor;
	int cor_exact;
	uint64_t raw;
	int raw_exact;
} co_known[] = {
	{ 0, EXACT(1 * MS), EXACT(1 * MS) },
	{ 50, NEAR(1 * MS), NEAR(1 * MS) },
	{ 90, NEAR(1 * MS), NEAR(1 * MS) },
	{ 91, NEAR(100 * MS), NEAR(1 * MS) },
	{ 95, NEAR(500 * MS), NEAR(1 * MS) },
	{ 99, NEAR(900 * MS), NEAR(1 * MS) },
	{ 99.9, EXACT(1 * SEC), EXACT(1 * SEC) },
	{ 100, EXACT(1 * SEC), EXACT(1 * SEC) },
};

START_TEST(test_co_known)
{
	struct hist raw, cor;
	int i;

	hist_init(&raw);
	hist_init(&cor);
	for (i = 0; i < 99; i++) {
		hist_record(&raw, 1 * MS);
		hist_record_corrected(&cor, 1 * MS, 100 * MS);
	}
	hist_record(&raw, 1 * SEC);
	hist_record_corrected(&cor, 1 * SEC, 100 * MS);

	ck_assert_uint_eq(hist_count(&raw), 100);
	ck_assert_uint_eq(hist_count(&cor), 109);
	ck_assert_uint_eq(cor.sum.hi, 0);
	ck_assert_uint_eq(cor.sum.lo, 5599 * MS);
	ck_assert_uint_eq(hist_min(&cor), 1 * MS);
	ck_assert_uint_eq(hist_max(&cor), 1 * SEC);
	for (i = 1; i <= 9; i++)
		ck_assert_uint_eq(cor.counts[hist_bucket((uint64_t)i * 100 * MS)],
				  1);

	assert_pct(&cor, co_known[_i].pct, co_known[_i].cor,
		   co_known[_i].cor_exact);
	assert_pct(&raw, co_known[_i].pct, co_known[_i].raw,
		   co_known[_i].raw_exact);
}
END_TEST

/* HdrHistogram's recordValueWithExpectedInterval, one sample at a time. */
static void record_corrected_slowly(struct hist *h, uint64_t ns,
				    uint64_t interval)
{
	uint64_t missing;

	hist_record(h, ns);
	if (!interval || ns <= interval)
		return;
	for (missing = ns - interval; missing >= interval; missing -= interval)
		hist_record(h, missing);
}

static const struct { uint64_t ns, interval; } co_rows[] = {
	{ 0, 0 }, { 5 * MS, 0 }, { 0, 100 }, { 5, 10 },
	{ 99, 100 }, { 100, 100 }, { 101, 100 }, { 199, 100 }, { 200, 100 },
	{ 201, 100 }, { 1000, 100 }, { 1000, 1 }, { 255, 1 }, { 70000, 7 },
	{ 12345678, 1000 }, { SEC, 100 * MS }, { SEC + 7, 100 * MS },
	{ 1000007, 3 },
	{ SEC, 1000 },			/* a million synthetic samples */
	{ 3 * SEC + 1, 77777 },
	{ TOP + 12345, UINT64_C(1) << 33 },	/* across the top */
	{ 3 * TOP, (UINT64_C(1) << 36) + 1 },	/* mostly above it */
	{ UINT64_MAX, UINT64_MAX / 1000 },	/* a sum past 2^64 */
	{ UINT64_MAX, UINT64_MAX / 2 },
	{ UINT64_MAX, UINT64_MAX },
};

/* The arithmetic correction equals the loop, bucket for bucket, on top
 * of samples already there. */
START_TEST(test_co_vs_loop)
{
	uint64_t ns = co_rows[_i].ns, interval = co_rows[_i].interval;
	struct hist fast, slow;

	hist_init(&fast);
	hist_init(&slow);
	hist_record(&fast, 150);
	hist_record(&slow, 150);
	hist_record_corrected(&fast, ns, interval);
	record_corrected_slowly(&slow, ns, interval);
	assert_same_hist(&fast, &slow);
	ck_assert_uint_eq(hist_count(&fast),
			  1 + (interval && ns / interval > 1 ?
			       ns / interval : 1));
}
END_TEST

/* Multiples of iv in [lo, hi]: the count of bucket [lo, hi] when 1 h is
 * corrected at iv, found another way than hist.c does. */
static uint64_t multiples_in(uint64_t lo, uint64_t hi, uint64_t iv)
{
	return hi / iv - (lo ? (lo - 1) / iv : 0);
}

/*
 * A one-hour stall at 100 us: 35,999,999 synthetic samples (3600 s - 100 us
 * down to 100 us) plus the original, 36,000,000 in all, counted bucket by
 * bucket (one by one they would take far longer than the test case's
 * timeout, which is what guards the speed: no wall clock is read here).
 * Sum: 3600 s + 100 us * (35999999 * 36000000 / 2)
 * = 64,800,001,800,000,000,000 ns = 3 * 2^64 + 9459769578871345152.
 */
START_TEST(test_co_huge)
{
	const uint64_t iv = 100 * US;
	struct hist h;
	uint64_t lo, hi, want, total = 0;
	unsigned b;

	hist_init(&h);
	hist_record_corrected(&h, HOUR, iv);

	ck_assert_uint_eq(hist_count(&h), 36000000);
	ck_assert_uint_eq(hist_max(&h), HOUR);
	ck_assert_uint_eq(hist_min(&h), iv);
	ck_assert_uint_eq(h.sum.hi, 3);
	ck_assert_uint_eq(h.sum.lo, UINT64_C(9459769578871345152));
	ck_assert_double_eq_tol(hist_mean(&h), 1800.00005 * SEC, 1.0);
	for (b = 0; b < HIST_BUCKETS; b++) {
		lo = hist_bucket_low(b);
		hi = hist_bucket_high(b);
		if (hi > HOUR - iv)
			hi = HOUR - iv;
		want = (lo <= hi ? multiples_in(lo, hi, iv) : 0) +
		       (b == hist_bucket(HOUR));
		if (h.counts[b] != want)
			ck_abort_msg("bucket %u: %llu, want %llu", b,
				     (unsigned long long)h.counts[b],
				     (unsigned long long)want);
		total += h.counts[b];
	}
	ck_assert_uint_eq(total, 36000000);
	/* rank 18,000,000 is 1800 s; rank 35,640,000 is 3564 s */
	ck_assert_uint_eq(hist_percentile(&h, 50), reported(1800 * SEC));
	ck_assert_uint_eq(hist_percentile(&h, 99), reported(3564 * SEC));
	ck_assert_uint_eq(hist_percentile(&h, 0), iv);
	ck_assert_uint_eq(hist_percentile(&h, 100), HOUR);
}
END_TEST

/* The extreme: 2^64 - 1 ns at 1 ns is every value 1..2^64 - 1, once
 * (2^64 samples: only bucket by bucket can it end at all); the sum
 * (2^64 - 1) * 2^63 needs all 128 bits' worth of carries. */
START_TEST(test_co_extreme)
{
	struct hist h;

	hist_init(&h);
	hist_record_corrected(&h, UINT64_MAX, 1);
	ck_assert_uint_eq(hist_count(&h), UINT64_MAX);
	ck_assert_uint_eq(h.sum.hi, (UINT64_C(1) << 63) - 1);
	ck_assert_uint_eq(h.sum.lo, UINT64_C(1) << 63);
	ck_assert_uint_eq(h.counts[0], 0);
	ck_assert_uint_eq(h.counts[1000], hist_bucket_high(1000) -
					  hist_bucket_low(1000) + 1);
	ck_assert_uint_eq(h.counts[LAST], UINT64_MAX - hist_bucket_low(LAST) + 1);
	ck_assert_uint_eq(hist_min(&h), 1);
	ck_assert_uint_eq(hist_max(&h), UINT64_MAX);
}
END_TEST

/* The sample rule (hist.h), each boundary on both sides. */
static const struct judge_case {
	double q;
	uint64_t n, over;
	enum hist_verdict want;
} judge_cases[] = {
	{ 0.99, 1000, 10, HIST_WITHIN },	/* shown: p99 is the 990th */
	{ 0.99, 1000, 11, HIST_OVER },
	{ 0.99, 1000, 0, HIST_WITHIN },
	{ 0.99, 999, 0, HIST_NOT_JUDGED },	/* never within unshown */
	{ 0.99, 999, 10, HIST_NOT_JUDGED },	/* a tail of 0.54 */
	{ 0.99, 6, 6, HIST_OVER },		/* all of 6: 1e-12 */
	{ 0.99, 6, 2, HIST_OVER },		/* 0.00146 */
	{ 0.99, 6, 1, HIST_NOT_JUDGED },	/* 0.0585 */
	{ 0.99, 6, 0, HIST_NOT_JUDGED },
	{ 0.99, 100, 5, HIST_OVER },		/* 0.00343 */
	{ 0.99, 100, 4, HIST_NOT_JUDGED },	/* 0.0184 */
	{ 0.5, 20, 10, HIST_WITHIN },
	{ 0.5, 20, 11, HIST_OVER },
	{ 0.5, 19, 0, HIST_NOT_JUDGED },
	{ 0.5, 7, 7, HIST_OVER },		/* 0.0078 */
	{ 0.5, 6, 6, HIST_NOT_JUDGED },		/* 0.0156 */
	{ 0.9, 100, 10, HIST_WITHIN },
	{ 0.9, 100, 11, HIST_OVER },
	{ 0.99, 0, 0, HIST_NOT_JUDGED },
	{ 0.99, 5, 6, HIST_NOT_JUDGED },	/* more over than samples */
};

START_TEST(test_judge)
{
	const struct judge_case *c = &judge_cases[_i];

	ck_assert_msg(hist_judge(c->q, c->n, c->over) == c->want,
		      "q %g, %llu over of %llu: %d, want %d", c->q,
		      (unsigned long long)c->over, (unsigned long long)c->n,
		      hist_judge(c->q, c->n, c->over), c->want);
}
END_TEST

START_TEST(test_binomial_tail)
{
	/* 1 - 0.99^6, 0.5^7, and against the sum of the terms below k */
	ck_assert_double_eq_tol(hist_binomial_tail(6, 0.01, 1), 0.058519850599, 1e-9);
	ck_assert_double_eq_tol(hist_binomial_tail(7, 0.5, 7), 0.0078125, 1e-12);
	ck_assert_double_eq_tol(hist_binomial_tail(100, 0.01, 5), 0.0034323, 1e-6);
	ck_assert_double_eq_tol(hist_binomial_tail(100000, 0.01, 1), 1, 1e-12);
	ck_assert_double_eq(hist_binomial_tail(10, 0.3, 0), 1);
	ck_assert_double_eq(hist_binomial_tail(10, 0.3, 11), 0);
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *map = tcase_create("mapping");
	TCase *bound = tcase_create("bound");
	TCase *pct = tcase_create("percentile");
	TCase *merge = tcase_create("merge");
	TCase *co = tcase_create("corrected");

	tcase_add_loop_test(map, test_pow2_neighbours, 0, HIST_TOP_BITS + 2);
	tcase_add_test(map, test_random_round_trip);
	tcase_add_test(map, test_contiguous);
	tcase_add_test(map, test_widths);
	tcase_add_loop_test(map, test_above_top, 0, N_ROWS(above_top));
	suite_add_tcase(s, map);

	tcase_add_test(bound, test_bound_every_bucket);
	tcase_add_loop_test(bound, test_bound_sampled, 0, N_ROWS(decades));
	suite_add_tcase(s, bound);

	tcase_add_loop_test(pct, test_uniform, 0, N_ROWS(uniform));
	tcase_add_test(pct, test_empty);
	tcase_add_loop_test(pct, test_single, 0, N_ROWS(singles));
	tcase_add_test(pct, test_rank_definition);
	tcase_add_test(pct, test_at_least);
	tcase_add_test(pct, test_clamped_to_extremes);
	tcase_add_test(pct, test_record_n);
	tcase_add_test(pct, test_count_le);
	tcase_add_loop_test(pct, test_judge, 0, N_ROWS(judge_cases));
	tcase_add_test(pct, test_binomial_tail);
	suite_add_tcase(s, pct);

	tcase_add_loop_test(merge, test_merge, 0, N_ROWS(merges));
	suite_add_tcase(s, merge);

	tcase_add_loop_test(co, test_co_known, 0, N_ROWS(co_known));
	tcase_add_loop_test(co, test_co_vs_loop, 0, N_ROWS(co_rows));
	tcase_add_test(co, test_co_huge);
	tcase_add_test(co, test_co_extreme);
	suite_add_tcase(s, co);
	return s;
}
