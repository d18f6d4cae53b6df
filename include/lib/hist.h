/* hist.h - a fixed-memory log-linear latency histogram (HdrHistogram-like).
 *
 * A `struct hist` counts nanosecond latencies in buckets whose width grows
 * with the value, so that every value is known to within a fixed fraction
 * of itself, and reports count, min, max, mean and percentiles.
 *
 * The promise:
 *
 *  - Error bound.  Every value a histogram reports (a percentile) is within
 *    2^-8 = 0.390625 % of the true value it stands for:
 *        |reported - true| <= true / 256        (HIST_ERROR_DIV)
 *    This holds for every value from 0 to HIST_MAX_TRACKED.  It comes from
 *    128 sub-buckets per power of two: a bucket is at most 1/128 (0.78 %) of
 *    its lower edge wide, and a value is reported as its bucket's midpoint,
 *    at most half a width away.  Values 0..255 ns have buckets of their own
 *    and are exact.  min, max, count and the sum behind the mean are exact.
 *
 *  - Range.  0 to HIST_MAX_TRACKED = 2^43 - 1 ns (about 2 h 26 min) within
 *    the bound, which covers 1 us to 1 h with room to spare.  A larger value
 *    is not lost: it is counted in the last bucket, where a percentile that
 *    falls reports the bucket's midpoint (~2 h 26 min, or min if that is
 *    larger) rather than the value; but max stays exact, and so does p100.
 *
 *  - Memory.  Fixed: sizeof(struct hist) = 37,928 bytes (HIST_BUCKETS =
 *    4736 64-bit counters plus five words).  No function allocates; a
 *    histogram is embedded or allocated by its owner, and recording into it
 *    a million or a billion samples takes no more memory than one.
 *
 *  - Cost.  hist_record() is O(1): a count-leading-zeros, a shift, four
 *    adds.  hist_record_corrected() is O(HIST_BUCKETS) at worst, whatever
 *    the ratio of the latency to the interval.  hist_percentile() and
 *    hist_merge() walk the buckets once.
 *
 *  - Thread safety.  None.  A histogram has one owner, the only thread that
 *    may touch it; to hand figures to another thread, copy the whole struct
 *    (e.g. behind snapshot.h's mutex-guarded swap) and hist_merge() or read
 *    the copy there.
 *
 * The mapping between values and buckets is exposed as pure functions
 * (hist_bucket, hist_bucket_low, hist_bucket_high, hist_bucket_mid) so the
 * bound can be tested, and so sinks can print bucket edges.
 */
#ifndef WS_HIST_H
#define WS_HIST_H

#include <stdbool.h>
#include <stdint.h>

/* 2^HIST_SUB_BITS sub-buckets per power of two. */
#define HIST_SUB_BITS		7
#define HIST_SUB_BUCKETS	(1u << HIST_SUB_BITS)
/* Values below 2^HIST_TOP_BITS are tracked within the bound. */
#define HIST_TOP_BITS		43
#define HIST_MAX_TRACKED	((UINT64_C(1) << HIST_TOP_BITS) - 1)
/* Buckets 0..255 hold one value each; then 128 per power of two up to
 * 2^43: (43 - 7 + 1) * 128. */
#define HIST_BUCKETS	((HIST_TOP_BITS - HIST_SUB_BITS + 1) * HIST_SUB_BUCKETS)
/* The error bound as a divisor: |reported - true| * HIST_ERROR_DIV <= true. */
#define HIST_ERROR_DIV		(2u * HIST_SUB_BUCKETS)

/* The exact sum of all recorded values: hi * 2^64 + lo.  64 bits are not
 * enough: one hour-long stall corrected at 100 us adds 6.5e19 ns. */
struct hist_sum {
	uint64_t hi;
	uint64_t lo;
};

/*
 * A histogram.  The fields may be read directly (they are what the
 * accessors return) but are written only through the functions below.
 * Invariants: count is the sum of counts[]; when count is 0, min is
 * UINT64_MAX and max is 0; otherwise min and max are the exact extremes
 * of everything recorded (original values, not bucket edges).
 */
struct hist {
	uint64_t counts[HIST_BUCKETS];
	uint64_t count;
	uint64_t min;
	uint64_t max;
	struct hist_sum sum;
};

/*----- value <-> bucket mapping (pure, thread-safe) -----*/

/**
 * The bucket that counts `ns`: 0 <= result < HIST_BUCKETS, monotonic
 * (ns <= ns' implies bucket(ns) <= bucket(ns')).  Values above
 * HIST_MAX_TRACKED map to the last bucket.
 */
unsigned hist_bucket(uint64_t ns);

/**
 * The edges of bucket `b` (< HIST_BUCKETS), both inclusive: bucket b counts
 * exactly the values low..high (plus, for the last bucket, everything above
 * HIST_MAX_TRACKED).  Buckets are contiguous: high(b) + 1 == low(b + 1),
 * low(0) == 0, high(HIST_BUCKETS - 1) == HIST_MAX_TRACKED.
 */
uint64_t hist_bucket_low(unsigned b);
uint64_t hist_bucket_high(unsigned b);

/**
 * The value reported for bucket `b`: the midpoint of its edges, rounded
 * down.  For every v in b, |mid - v| * HIST_ERROR_DIV <= v.
 */
uint64_t hist_bucket_mid(unsigned b);

/*----- life cycle -----*/

/**
 * Make `h` an empty histogram.  hist_init() is for a fresh object,
 * hist_reset() to empty one in use (e.g. at the end of an interval); they do
 * the same.  There is nothing to release.
 */
void hist_init(struct hist *h);
void hist_reset(struct hist *h);

/*----- recording -----*/

/** Count one sample of `ns`. */
void hist_record(struct hist *h, uint64_t ns);

/** Count `n` samples of `ns` (n == 0 records nothing, min/max untouched). */
void hist_record_n(struct hist *h, uint64_t ns, uint64_t n);

/**
 * Count `ns` and the samples coordinated omission hid from us, exactly as
 * HdrHistogram's recordValueWithExpectedInterval: a probe meant to run every
 * `interval_ns` that took `ns` kept the ones due meanwhile from running; had
 * they run, they would have seen ns - interval, ns - 2 * interval, ...  So
 * this also records every ns - k * interval (k >= 1) that is >= interval:
 * floor(ns / interval) samples in all, the original included.  E.g. 1 s at
 * 100 ms records 1 s, 900 ms, 800 ms, ..., 100 ms (10 samples).
 * interval_ns == 0, or ns <= interval_ns, records `ns` alone.
 * Counts per bucket and the sum are computed arithmetically: O(HIST_BUCKETS)
 * at worst, even for 36 million synthetic samples.  Keep the corrected
 * histogram apart from the raw one and label which is which.
 */
void hist_record_corrected(struct hist *h, uint64_t ns, uint64_t interval_ns);

/** Add everything counted in `src` to `dst`, as if recorded there too. */
void hist_merge(struct hist *dst, const struct hist *src);

/*----- reading (const; empty histograms report 0) -----*/

uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h);
uint64_t hist_max(const struct hist *h);
/** The exact mean, rounded to a double. */
double hist_mean(const struct hist *h);

/**
 * The pct-th percentile, pct in [0, 100] (values outside are clamped): the
 * smallest recorded value v such that at least pct % of the samples are
 * <= v, i.e. the ceil(pct / 100 * count)-th smallest sample (at least the
 * first).  It is reported as its bucket's midpoint clamped to [min, max],
 * within the error bound; the first sample is reported as min and the last
 * as max, exactly, so p0 == min and p100 == max.  pct is taken as the
 * decimal it was written as: 99.9 of 1000 samples is the 999th, even though
 * 99.9 / 100 * 1000 is 999.0000000000001 in binary.
 */
uint64_t hist_percentile(const struct hist *h, double pct);

/**
 * The samples counted in the buckets up to the one that holds `ns`: every
 * sample <= ns, and those of ns's own bucket above it (at most ns / 128
 * above).  Monotonic in ns; hist_count_le(h, hist_max(h)) == count.
 * Fixed-bucket histograms (a Prometheus `le`) are read off with it.
 */
uint64_t hist_count_le(const struct hist *h, uint64_t ns);

/* A percentile pX means something with at least this many samples
 * beyond it, n * (1 - X) >= HIST_SAMPLES_BEYOND: with fewer, pX is one of
 * the last few samples (p99 of 80 is their maximum), an outlier's value.
 * The one rule for every output that shows a percentile, and for compare's
 * verdicts. */
#define HIST_SAMPLES_BEYOND 10

/* The samples percentile q (0 < q < 1) needs: HIST_SAMPLES_BEYOND /
 * (1 - q), rounded up: p50 20, p90 100, p99 1000, p99.9 10000. */
unsigned long hist_min_samples(double q);

/* Does a percentile q of n samples mean something (n >= the above)? */
static inline bool hist_percentile_shown(double q, uint64_t n)
{
	return n >= hist_min_samples(q);
}

#endif
