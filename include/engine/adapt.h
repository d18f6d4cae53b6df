/* adapt.h - the controller of --pace adaptive: how much the writer may have
 * under writeback so that the desktop's probes wait about
 * --target-latency behind it, and no less, so throughput stays as high as
 * the device allows.
 *
 * The control law (documented in writestress(1) too):
 *
 *   Whatever queues behind the writer's writeback waits for it to drain,
 *   about as long as one of the writer's own chunks takes from the start
 *   of its writeback to on disk: its sojourn (smoothed, 1/4 per chunk:
 *   the fast signal).  Once a round trip (a sojourn, at least
 *   ADAPT_MIN_ROUND_NS) the writer scales what it keeps under writeback:
 *           inflight = inflight x sqrt(setpoint / sojourn)
 *   a gradient rule in the spirit of TCP Vegas: by Little's law the
 *   sojourn is inflight / bandwidth, so at the fixed point the sojourn is
 *   the setpoint and the disk is as busy as that allows.  The setpoint is
 *   the latency the writer's own chunks may see.  It starts at half the
 *   target and the probes correct it (the truth): once a period
 *   (ADAPT_PERIOD_NS, or ADAPT_PERIOD_PROBES probes) the slowest probe of
 *   the period is compared with the target.  Above ADAPT_HIGH_PCT % of it
 *   the setpoint is scaled by that over the slowest (at most halved); under
 *   half of it the setpoint grows by 1/ADAPT_GROW_FAST, under
 *   ADAPT_LOW_PCT % of it by 1/ADAPT_GROW.  Between, it holds: the slowest
 *   probe of a period is aimed a little under the target, so that the
 *   noise of a real disk (a block throttle's slices, a journal commit)
 *   leaves the p99 near it rather than over it.  What the probes do beyond waiting
 *   for the writer (their own I/O, a journal commit) is what the setpoint
 *   learns to leave room for.  The setpoint never exceeds the target:
 *   where the probes' requests often overtake the writer's (a throttle or
 *   scheduler that favours synchronous I/O) the ones that do not - a
 *   journal commit's cache flush waits for all of the writer's
 *   writeback - still wait a whole sojourn.
 *   One step never changes inflight by more than x1/2 or x2, and it stays
 *   within
 *   [ADAPT_CHUNK_MIN, ADAPT_WINDOW_MAX x buffer].  inflight is cut into a
 *   window of chunks: chunk = inflight / ADAPT_WINDOW_PREFERRED within
 *   [ADAPT_CHUNK_MIN, buffer] (a multiple of 64 KiB), window =
 *   inflight / chunk within [1, ADAPT_WINDOW_MAX].
 *
 *   Settled: over ADAPT_SETTLE_PERIODS periods in a row the slowest probe
 *   met the target and was never under half of it (the setpoint was not
 *   racing up; unless it was at its top, or inflight at the floor all
 *   period), and inflight stayed within +-ADAPT_BAND_PCT % of its mean
 *   over them; settled_ns is when that stretch began.  Small cuts and
 *   slow growth of the setpoint count as settled: the slowest probe of a
 *   period is noisy, the band says whether the writer's pace moved.  The
 *   unit tests hold the controller, on a simulated device, to that band
 *   once settled.
 *
 * Pure: the caller passes the time; one writer thread owns an adapt.
 */
#ifndef WS_ADAPT_H
#define WS_ADAPT_H

#include <stdbool.h>
#include <stdint.h>

#define ADAPT_CHUNK_MIN (64 * 1024ull)
#define ADAPT_CHUNK_ALIGN (64 * 1024ull)
#define ADAPT_WINDOW_MAX 64u
#define ADAPT_WINDOW_PREFERRED 4u
#define ADAPT_PERIOD_NS 1000000000ull	/* 1 s */
#define ADAPT_PERIOD_PROBES 8u
#define ADAPT_HIGH_PCT 90u
#define ADAPT_LOW_PCT 75u
#define ADAPT_GROW 16u
#define ADAPT_GROW_FAST 4u
#define ADAPT_BAND_PCT 35u
#define ADAPT_SETTLE_PERIODS 3u
#define ADAPT_MIN_ROUND_NS 10000000.0	/* 10 ms */

struct adapt {
	uint64_t target_ns;
	uint64_t chunk_max;		/* the buffer size */

	double setpoint_ns;		/* the writer's own latency goal */
	double inflight;		/* bytes allowed under writeback */
	uint64_t chunk;
	unsigned int window;
	double sojourn_ns;		/* the last chunks' sojourn, smoothed */
	uint64_t steered_ns;		/* inflight last scaled */

	/* the probes' period */
	uint64_t period_start_ns;
	uint64_t period_worst_ns;
	unsigned int period_probes;
	/* inflight over the last periods: for settling */
	struct adapt_band {
		double low, high, mean;
		uint64_t start_ns;
	} band[ADAPT_SETTLE_PERIODS];
	unsigned int nbands;		/* periods closed */
	unsigned int calm_periods;	/* in a row */
	double band_sum;
	unsigned int band_n;		/* chunks in this period */
	uint64_t settled_ns;		/* 0: not settled (yet) */
	bool settled;
};

/* target_ns > 0; buffer: the writer's buffer size (the largest chunk).
 * The first period begins with the first call below. */
void adapt_init(struct adapt *a, uint64_t target_ns, uint64_t buffer);

/* A chunk is on disk, sojourn_ns after its writeback was started. */
void adapt_retired(struct adapt *a, uint64_t now_ns, uint64_t sojourn_ns);

/* A probe on the writer's filesystem took latency_ns (the slowest of
 * those that ended since the last call). */
void adapt_probe(struct adapt *a, uint64_t now_ns, uint64_t latency_ns);

static inline uint64_t adapt_chunk(const struct adapt *a)
{
	return a->chunk;
}

static inline unsigned int adapt_window(const struct adapt *a)
{
	return a->window;
}

#endif
