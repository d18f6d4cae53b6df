/* hist.h - a fixed-memory log-linear latency histogram (HdrHistogram-like)
 * of nanoseconds.
 *
 * Error bound: a reported value is within 1/256 of the true one,
 * |reported - true| * HIST_ERROR_DIV <= true, up to HIST_MAX_TRACKED
 * (~2 h 26 min): 128 sub-buckets a power of two, reported at midpoints.
 * Below 256 ns, and min, max, count and sum, are exact; a value beyond the
 * range lands in the last bucket.  37,928 bytes, nothing allocated;
 * hist_record() is O(1), the rest O(HIST_BUCKETS).  One owner thread; hand
 * a copy to another (snapshot.h's probe door).
 */
#ifndef WS_HIST_H
#define WS_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_SUB_BITS		7
#define HIST_SUB_BUCKETS	(1u << HIST_SUB_BITS)
#define HIST_TOP_BITS		43
#define HIST_MAX_TRACKED	((UINT64_C(1) << HIST_TOP_BITS) - 1)
#define HIST_BUCKETS	((HIST_TOP_BITS - HIST_SUB_BITS + 1) * HIST_SUB_BUCKETS)
#define HIST_ERROR_DIV		(2u * HIST_SUB_BUCKETS)

/* hi * 2^64 + lo: an hour's stall corrected at 100 us adds 6.5e19 ns. */
struct hist_sum {
	uint64_t hi;
	uint64_t lo;
};

/* Read directly if need be; written only through the functions below.
 * Empty: min UINT64_MAX, max 0. */
struct hist {
	uint64_t counts[HIST_BUCKETS];
	uint64_t count;
	uint64_t min;
	uint64_t max;
	struct hist_sum sum;
};

/* Pure, so the bound can be tested: edges inclusive, contiguous; a bucket
 * reports its midpoint. */
unsigned hist_bucket(uint64_t ns);
uint64_t hist_bucket_low(unsigned b);
uint64_t hist_bucket_high(unsigned b);
uint64_t hist_bucket_mid(unsigned b);

/* Either empties h; nothing to release. */
void hist_init(struct hist *h);
void hist_reset(struct hist *h);

void hist_record(struct hist *h, uint64_t ns);
void hist_record_n(struct hist *h, uint64_t ns, uint64_t n);

/* Adds the samples coordinated omission hid, as HdrHistogram's
 * recordValueWithExpectedInterval.  Keep apart from the raw histogram. */
void hist_record_corrected(struct hist *h, uint64_t ns, uint64_t interval_ns);

void hist_merge(struct hist *dst, const struct hist *src);

/* Empty histograms report 0. */
uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h);
uint64_t hist_max(const struct hist *h);
double hist_mean(const struct hist *h);

/* The ceil(pct / 100 * count)-th smallest sample, pct in [0, 100] taken
 * as the decimal written (99.9 of 1000 is the 999th); p0 == min and
 * p100 == max exactly. */
uint64_t hist_percentile(const struct hist *h, double pct);

/* Up to ns's bucket, all of it (a Prometheus `le`). */
uint64_t hist_count_le(const struct hist *h, uint64_t ns);

/* pX is shown only with HIST_SAMPLES_BEYOND samples beyond it (p99 of 80
 * is their maximum), in every output and verdict. */
#define HIST_SAMPLES_BEYOND 10

/* 0 < q < 1: p99 needs 1000. */
unsigned long hist_min_samples(double q);

static inline bool hist_percentile_shown(double q, uint64_t n)
{
	return n >= hist_min_samples(q);
}

/* The one sample rule, for every output and verdict: a q-quantile of n
 * samples, of which over lie above a bound, is within the bound only
 * where it is shown (above) and its sample value is within; it is over
 * the bound where its sample value is over and it is shown, or, on
 * fewer samples, where so many are over that samples of a quantile
 * within the bound would give as many under HIST_OVER_CHANCE of the time
 * (all 6 of 6 over is over a p99; 1 of 6 is not judged). */
enum hist_verdict {
	HIST_NOT_JUDGED,
	HIST_WITHIN,
	HIST_OVER,
};

#define HIST_OVER_CHANCE 0.01

enum hist_verdict hist_judge(double q, uint64_t n, uint64_t over);

/* P(X >= k) for X ~ Binomial(n, p), 0 < p < 1. */
double hist_binomial_tail(uint64_t n, double p, uint64_t k);

#endif
