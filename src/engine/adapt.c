/* adapt.c - the adaptive pacer's controller (see adapt.h for the law). */
#include <math.h>
#include <string.h>

#include "engine/adapt.h"

#define NSEC_PER_SEC 1e9

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* inflight cut into a window of chunks */
static void cut(struct adapt *a)
{
	double lo = (double)ADAPT_CHUNK_MIN;
	double hi = (double)ADAPT_WINDOW_MAX * (double)a->chunk_max;
	uint64_t chunk, window;

	a->inflight = clampd(a->inflight, lo, hi);
	chunk = (uint64_t)(a->inflight / ADAPT_WINDOW_PREFERRED);
	chunk -= chunk % ADAPT_CHUNK_ALIGN;
	if (chunk < ADAPT_CHUNK_MIN)
		chunk = ADAPT_CHUNK_MIN;
	if (chunk > a->chunk_max)
		chunk = a->chunk_max;
	window = (uint64_t)(a->inflight / (double)chunk + 0.5);
	a->chunk = chunk;
	a->window = window < 1 ? 1 : window > ADAPT_WINDOW_MAX ?
		    ADAPT_WINDOW_MAX : (unsigned int)window;
}

void adapt_init(struct adapt *a, uint64_t target_ns, uint64_t buffer)
{
	memset(a, 0, sizeof(*a));
	a->target_ns = target_ns;
	a->chunk_max = buffer < ADAPT_CHUNK_MIN ? ADAPT_CHUNK_MIN : buffer;
	a->setpoint_ns = (double)target_ns / 2;
	/* a cautious start: 4 x 64 KiB, grown by what the disk shows */
	a->inflight = (double)(ADAPT_WINDOW_PREFERRED * ADAPT_CHUNK_MIN);
	cut(a);
}

/* Once a round trip (a sojourn): inflight x sqrt(setpoint / sojourn),
 * at most x2 or x1/2. */
static void steer(struct adapt *a, uint64_t now_ns)
{
	double rtt = a->sojourn_ns > ADAPT_MIN_ROUND_NS ? a->sojourn_ns
						       : ADAPT_MIN_ROUND_NS;

	if (a->sojourn_ns <= 0 || (double)(now_ns - a->steered_ns) < rtt)
		return;
	a->inflight *= clampd(sqrt(a->setpoint_ns / a->sojourn_ns), 0.5, 2.0);
	a->steered_ns = now_ns;
	cut(a);
}

/* Settling: the period's lowest, highest and mean inflight. */
static void band_track(struct adapt *a)
{
	struct adapt_band *b = &a->band[a->nbands % ADAPT_SETTLE_PERIODS];

	if (!a->band_n || a->inflight < b->low)
		b->low = a->inflight;
	if (!a->band_n || a->inflight > b->high)
		b->high = a->inflight;
	a->band_sum += a->inflight;
	a->band_n++;
}

/* Settled once the last ADAPT_SETTLE_PERIODS periods all stayed within
 * the band around their common mean. */
static void band_close(struct adapt *a, bool calm)
{
	struct adapt_band *b = &a->band[a->nbands % ADAPT_SETTLE_PERIODS];
	double mean = 0, reach;

	if (!a->band_n)
		return;		/* no chunk retired: nothing to judge */
	b->mean = a->band_sum / a->band_n;
	b->start_ns = a->period_start_ns;
	a->band_n = 0;
	a->band_sum = 0;
	a->calm_periods = calm ? a->calm_periods + 1 : 0;
	if (++a->nbands < ADAPT_SETTLE_PERIODS || a->settled ||
	    a->calm_periods < ADAPT_SETTLE_PERIODS)
		return;
	for (unsigned int i = 0; i < ADAPT_SETTLE_PERIODS; i++)
		mean += a->band[i].mean / ADAPT_SETTLE_PERIODS;
	reach = mean * ADAPT_BAND_PCT / 100.0;
	for (unsigned int i = 0; i < ADAPT_SETTLE_PERIODS; i++)
		if (a->band[i].low < mean - reach || a->band[i].high > mean + reach)
			return;
	a->settled = true;
	/* the oldest of the periods judged */
	a->settled_ns = a->band[a->nbands % ADAPT_SETTLE_PERIODS].start_ns;
}

/* Calm: the probes met the target, and the setpoint did not race up
 * because they were far under it - unless nothing followed it (it is at
 * its top, or inflight stayed at the floor all period).  Small cuts and
 * slow growth are calm: the slowest probe of a period is noisy (a block
 * throttle's slices hold one for a whole slice now and then), and the
 * band over the periods judges whether the writer's pace moved. */
static bool period_calm(const struct adapt *a, double setpoint_before)
{
	const struct adapt_band *b = &a->band[a->nbands % ADAPT_SETTLE_PERIODS];
	double worst = (double)a->period_worst_ns, target = (double)a->target_ns;
	bool raced = a->setpoint_ns > setpoint_before * (1 + 2.0 / ADAPT_GROW) &&
		     !(a->band_n && b->high < 2.0 * ADAPT_CHUNK_MIN);

	return a->period_probes && worst <= target && !raced;
}

/* The probes' verdict on the period that ends now. */
static void period_close(struct adapt *a, uint64_t now_ns)
{
	double target = (double)a->target_ns, worst = (double)a->period_worst_ns;
	double before = a->setpoint_ns;

	if (a->period_probes) {
		double high = target * ADAPT_HIGH_PCT / 100.0;

		if (worst > high)
			a->setpoint_ns *= clampd(high / worst, 0.5, 1.0);
		else if (worst < target / 2)
			a->setpoint_ns += a->setpoint_ns / ADAPT_GROW_FAST;
		else if (worst < target * ADAPT_LOW_PCT / 100.0)
			a->setpoint_ns += a->setpoint_ns / ADAPT_GROW;
		a->setpoint_ns = clampd(a->setpoint_ns, target / 100, target);
	}
	band_close(a, period_calm(a, before));
	a->period_start_ns = now_ns;
	a->period_worst_ns = 0;
	a->period_probes = 0;
}

static void maybe_close(struct adapt *a, uint64_t now_ns)
{
	if (!a->period_start_ns)
		a->period_start_ns = now_ns;
	if (now_ns - a->period_start_ns >= ADAPT_PERIOD_NS ||
	    a->period_probes >= ADAPT_PERIOD_PROBES)
		period_close(a, now_ns);
}

void adapt_retired(struct adapt *a, uint64_t now_ns, uint64_t sojourn_ns)
{
	a->sojourn_ns = a->sojourn_ns > 0 ?
			a->sojourn_ns + ((double)sojourn_ns - a->sojourn_ns) / 4 :
			(double)sojourn_ns;
	if (!a->steered_ns)
		a->steered_ns = now_ns;
	steer(a, now_ns);
	band_track(a);
	maybe_close(a, now_ns);
}

void adapt_probe(struct adapt *a, uint64_t now_ns, uint64_t latency_ns)
{
	if (latency_ns > a->period_worst_ns)
		a->period_worst_ns = latency_ns;
	a->period_probes++;
	maybe_close(a, now_ns);
}
