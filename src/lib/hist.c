/* hist.c - HdrHistogram's layout with 256 sub-buckets and a lowest value
 * of 1: values below 256 exact, then 128 buckets per power of two. */
#include <math.h>
#include <string.h>

#include "lib/hist.h"

#define LAST_BUCKET (HIST_BUCKETS - 1)

_Static_assert(HIST_BUCKETS == 4736, "hist.h states the bucket count");
_Static_assert(sizeof(struct hist) == 37928, "hist.h states the size");

unsigned hist_bucket(uint64_t ns)
{
	unsigned e, k;

	if (ns < HIST_SUB_BUCKETS)
		return (unsigned)ns;
	if (ns > HIST_MAX_TRACKED)
		return LAST_BUCKET;
	e = 63u - (unsigned)__builtin_clzll(ns);
	k = e - HIST_SUB_BITS + 1;
	return (k << HIST_SUB_BITS) + (unsigned)(ns >> (k - 1)) -
	       HIST_SUB_BUCKETS;
}

uint64_t hist_bucket_low(unsigned b)
{
	unsigned k = b >> HIST_SUB_BITS;
	uint64_t sub = b & (HIST_SUB_BUCKETS - 1);

	if (k == 0)
		return b;
	return (HIST_SUB_BUCKETS + sub) << (k - 1);
}

uint64_t hist_bucket_high(unsigned b)
{
	unsigned k = b >> HIST_SUB_BITS;

	if (k == 0)
		return b;
	return hist_bucket_low(b) + (UINT64_C(1) << (k - 1)) - 1;
}

uint64_t hist_bucket_mid(unsigned b)
{
	uint64_t low = hist_bucket_low(b);

	return low + (hist_bucket_high(b) - low) / 2;
}

static void sum_add(struct hist_sum *s, struct hist_sum v)
{
	s->lo += v.lo;
	s->hi += v.hi + (s->lo < v.lo);
}

/* By 32-bit halves: no __int128 in C11. */
static struct hist_sum mul64(uint64_t a, uint64_t b)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32;
	uint64_t bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	return (struct hist_sum){
		.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32),
		.lo = (mid << 32) | (ll & 0xffffffffu),
	};
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_reset(struct hist *h)
{
	hist_init(h);
}

static void note_extremes(struct hist *h, uint64_t lo, uint64_t hi)
{
	if (lo < h->min)
		h->min = lo;
	if (hi > h->max)
		h->max = hi;
}

void hist_record_n(struct hist *h, uint64_t ns, uint64_t n)
{
	if (!n)
		return;
	h->counts[hist_bucket(ns)] += n;
	h->count += n;
	note_extremes(h, ns, ns);
	sum_add(&h->sum, mul64(ns, n));
}

void hist_record(struct hist *h, uint64_t ns)
{
	hist_record_n(h, ns, 1);
}

/* Samples rem + j * iv, j = 1..n: one division per bucket touched. */
static void record_sequence(struct hist *h, uint64_t rem, uint64_t iv,
			    uint64_t n)
{
	uint64_t j = 1, last, high;
	unsigned b;

	while (j <= n) {
		b = hist_bucket(rem + j * iv);
		high = b == LAST_BUCKET ? UINT64_MAX : hist_bucket_high(b);
		last = (high - rem) / iv;
		if (last > n)
			last = n;
		h->counts[b] += last - j + 1;
		j = last + 1;
	}
}

/* Halving the even factor first keeps each product in 64 bits. */
static struct hist_sum sequence_sum(uint64_t rem, uint64_t iv, uint64_t n)
{
	struct hist_sum s = mul64(n, rem);

	if (n % 2 == 0)
		sum_add(&s, mul64(n / 2 * iv, n + 1));
	else
		sum_add(&s, mul64(n * iv, (n + 1) / 2));
	return s;
}

void hist_record_corrected(struct hist *h, uint64_t ns, uint64_t interval_ns)
{
	uint64_t rem, n;

	hist_record(h, ns);
	if (!interval_ns || ns / interval_ns < 2)
		return;
	rem = ns % interval_ns;
	n = ns / interval_ns - 1;
	record_sequence(h, rem, interval_ns, n);
	h->count += n;
	note_extremes(h, rem + interval_ns, ns);
	sum_add(&h->sum, sequence_sum(rem, interval_ns, n));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned b;

	if (!src->count)
		return;
	for (b = 0; b < HIST_BUCKETS; b++)
		dst->counts[b] += src->counts[b];
	dst->count += src->count;
	note_extremes(dst, src->min, src->max);
	sum_add(&dst->sum, src->sum);
}

uint64_t hist_count(const struct hist *h)
{
	return h->count;
}

uint64_t hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t hist_max(const struct hist *h)
{
	return h->max;
}

double hist_mean(const struct hist *h)
{
	if (!h->count)
		return 0.0;
	return ((double)h->sum.hi * 0x1p64 + (double)h->sum.lo) /
	       (double)h->count;
}

/* ceil(pct / 100 * count) in 1..count, forgiving 1e-14 relative: 16.1 *
 * 1000 / 100 is 161.00000000000003. */
static uint64_t percentile_rank(uint64_t count, double pct)
{
	double x;
	uint64_t rank;

	if (!(pct > 0.0))
		return 1;
	if (pct >= 100.0)
		return count;
	x = pct * (double)count / 100.0;
	x -= x * 1e-14;
	if (x >= (double)count)
		return count;
	rank = (uint64_t)x;	/* ceil without libm */
	if ((double)rank < x)
		rank++;
	return rank ? rank : 1;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0, v;
	unsigned b;

	if (!h->count)
		return 0;
	rank = percentile_rank(h->count, pct);
	if (rank == 1)
		return h->min;
	if (rank == h->count)
		return h->max;
	for (b = 0; b < LAST_BUCKET; b++) {
		seen += h->counts[b];
		if (seen >= rank)
			break;
	}
	v = hist_bucket_mid(b);
	if (v < h->min)
		return h->min;
	if (v > h->max)
		return h->max;
	return v;
}

uint64_t hist_count_le(const struct hist *h, uint64_t ns)
{
	unsigned last = hist_bucket(ns);
	uint64_t n = 0;

	if (ns >= h->max)
		return h->count;
	for (unsigned b = 0; b <= last; b++)
		n += h->counts[b];
	return n;
}

unsigned long hist_min_samples(double q)
{
	/* 1 - 0.99 is 0.010000000000000009: 999.9999999, which is 1000 */
	return (unsigned long)ceil(HIST_SAMPLES_BEYOND / (1 - q) - 1e-6);
}

static double binomial_term(uint64_t n, uint64_t i, double lp, double lq)
{
	return exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
		   lgamma((double)(n - i) + 1) + (double)i * lp + (double)(n - i) * lq);
}

double hist_binomial_tail(uint64_t n, double p, uint64_t k)
{
	double lp = log(p), lq = log1p(-p), sum = 0;

	if (!k)
		return 1;
	if (k > n)
		return 0;
	if ((double)k <= (double)n * p) {	/* the short side is below k */
		for (uint64_t i = 0; i < k; i++)
			sum += binomial_term(n, i, lp, lq);
		return sum < 1 ? 1 - sum : 0;
	}
	/* past the mode the terms only fall: stop once they vanish */
	for (uint64_t i = k; i <= n; i++) {
		double t = binomial_term(n, i, lp, lq);

		sum += t;
		if (t < sum * 1e-12)
			break;
	}
	return sum < 1 ? sum : 1;
}

enum hist_verdict hist_judge(double q, uint64_t n, uint64_t over)
{
	/* the sample q-quantile is the ceil(q n)-th smallest */
	uint64_t within_at_most = n - (uint64_t)ceil(q * (double)n - 1e-9);

	if (!n || over > n)
		return HIST_NOT_JUDGED;
	if (hist_percentile_shown(q, n))
		return over > within_at_most ? HIST_OVER : HIST_WITHIN;
	if (over > within_at_most &&
	    hist_binomial_tail(n, 1 - q, over) < HIST_OVER_CHANCE)
		return HIST_OVER;
	return HIST_NOT_JUDGED;
}
