/* adapt.c - the adaptive pacer's controller (see adapt.h for the law). */
#include <math.h>
#include <string.h>

#include "engine/adapt.h"

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

static bool at_floor(const struct adapt *a)
{
	return a->chunk * a->window <= ADAPT_CHUNK_MIN;
}

void adapt_init(struct adapt *a, uint64_t target_ns, uint64_t buffer)
{
	memset(a, 0, sizeof(*a));
	a->target_ns = target_ns;
	a->chunk_max = buffer < ADAPT_CHUNK_MIN ? ADAPT_CHUNK_MIN : buffer;
	a->setpoint_ns = (double)target_ns / 2;
	/* a cautious start, grown by what the disk shows */
	a->inflight = (double)(ADAPT_WINDOW_PREFERRED * ADAPT_CHUNK_MIN);
	a->why = WS_ADAPT_STARTING;
	a->floor_probe = a->unreachable_probe = -1;
	cut(a);
}

/* What of the target a probe's idle time leaves, per wait (at least 1%). */
static double probe_room(const struct adapt *a, const struct adapt_probe *p,
			 double of_target)
{
	double room = ((double)a->target_ns * of_target - (double)p->idle_ns) / p->waits;

	return room > (double)a->target_ns / 100 ? room : (double)a->target_ns / 100;
}

static double setpoint_top(const struct adapt *a)
{
	double top = (double)a->target_ns;

	for (unsigned int i = 0; i < ADAPT_PROBES; i++)
		if (a->probe[i].steers)
			top = fmin(top, probe_room(a, &a->probe[i], 1.0));
	return top;
}

void adapt_steer_by(struct adapt *a, unsigned int slot, uint64_t idle_ns,
		    unsigned int syncs)
{
	struct adapt_probe *p;

	if (slot >= ADAPT_PROBES)
		return;
	p = &a->probe[slot];
	p->steers = true;
	p->idle_ns = idle_ns;
	p->waits = clampd(syncs, ADAPT_WAITS_MIN, ADAPT_WAITS_MAX);
	a->setpoint_ns = (double)a->target_ns / 2;
	for (unsigned int i = 0; i < ADAPT_PROBES; i++)
		if (a->probe[i].steers)
			a->setpoint_ns = fmin(a->setpoint_ns,
					      probe_room(a, &a->probe[i], 0.5));
}

/* Once a round trip: inflight x sqrt(setpoint / sojourn) (adapt.h). */
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

/* Settling: the period's band of inflight. */
static void band_track(struct adapt *a)
{
	struct adapt_band *b = &a->band[a->nbands % ADAPT_SETTLE_PERIODS];

	if (!a->band_n || a->inflight < b->low)
		b->low = a->inflight;
	if (!a->band_n || a->inflight > b->high)
		b->high = a->inflight;
	a->band_sum += a->inflight;
	a->band_n++;
	if (!at_floor(a))
		a->period_off_floor = true;
}

static bool within_band(const struct adapt *a)
{
	double mean = 0, reach;

	for (unsigned int i = 0; i < ADAPT_SETTLE_PERIODS; i++)
		mean += a->band[i].mean / ADAPT_SETTLE_PERIODS;
	reach = mean * ADAPT_BAND_PCT / 100.0;
	for (unsigned int i = 0; i < ADAPT_SETTLE_PERIODS; i++)
		if (a->band[i].low < mean - reach || a->band[i].high > mean + reach)
			return false;
	return true;
}

/* Settled after ADAPT_SETTLE_PERIODS calm periods all within the band. */
static void band_close(struct adapt *a, bool calm)
{
	struct adapt_band *b = &a->band[a->nbands % ADAPT_SETTLE_PERIODS];

	if (!a->band_n)
		return;
	b->mean = a->band_sum / a->band_n;
	b->start_ns = a->period_start_ns;
	a->band_n = 0;
	a->band_sum = 0;
	a->calm_periods = calm ? a->calm_periods + 1 : 0;
	if (++a->nbands < ADAPT_SETTLE_PERIODS || a->settled ||
	    a->calm_periods < ADAPT_SETTLE_PERIODS) {
		if (calm && !a->settled)
			a->why = WS_ADAPT_STARTING;
		return;
	}
	if (!within_band(a)) {
		a->why = WS_ADAPT_MOVING;
		return;
	}
	a->settled = true;
	a->why = WS_ADAPT_SETTLED;
	/* the oldest of the periods judged */
	a->settled_ns = a->band[a->nbands % ADAPT_SETTLE_PERIODS].start_ns;
}

/* Not at the floor, nor with sojourns too short to divide by: there the
 * probes' time is not the writer's. */
static void learn_waits(struct adapt *a)
{
	double sojourn;

	if (!a->period_off_floor || !a->period_sojourns)
		return;
	sojourn = a->period_sojourn_sum / a->period_sojourns;
	if (sojourn < ADAPT_LEARN_MIN_SOJOURN_NS)
		return;
	for (unsigned int i = 0; i < ADAPT_PROBES; i++) {
		struct adapt_probe *p = &a->probe[i];
		double seen;

		if (!p->steers || !p->period.n)
			continue;
		seen = clampd(((double)p->period.worst_ns - (double)p->idle_ns) / sojourn,
			      ADAPT_WAITS_MIN, ADAPT_WAITS_MAX);
		p->waits += (seen - p->waits) / ADAPT_LEARN;
		p->learned++;
	}
}

/* What growth is judged by: the slowest of the last few periods. */
static uint64_t recent_worst(struct adapt *a, uint64_t worst)
{
	uint64_t most = worst;

	a->recent_worst_ns[a->nrecent++ % ADAPT_TAIL_PERIODS] = worst;
	for (unsigned int i = 0; i < ADAPT_TAIL_PERIODS && i < a->nrecent; i++)
		if (a->recent_worst_ns[i] > most)
			most = a->recent_worst_ns[i];
	return most;
}

/* A cut answers this period; growth waits until the last few periods
 * all left room, so the probes' tail stays under the target. */
static void correct(struct adapt *a, const struct adapt_probe *p, double worst,
		    double recent)
{
	double target = (double)a->target_ns;
	double high = target * ADAPT_HIGH_PCT / 100.0;
	double low = target * ADAPT_LOW_PCT / 100.0;
	double sp = a->setpoint_ns;

	if (worst > high)
		sp = fmax(sp / 2, sp - (worst - high) / p->waits);
	else if (recent > high)		/* the tail still over: ease off */
		sp -= sp / ADAPT_GROW;
	else if (adapt_rate_cap(a))
		;	/* grown under the cap, it would flood the disk when lifted */
	else if (recent < target / 2)
		sp += fmin(sp / ADAPT_GROW_FAST, (low - recent) / p->waits);
	else if (recent < low)
		sp += fmin(sp / ADAPT_GROW, (low - recent) / p->waits);
	a->setpoint_ns = clampd(sp, target / 100, setpoint_top(a));
}

/* An attempt ended: kept, or the last one's place taken when its share
 * met the target and later failed. */
static void attempt_close(struct adapt *a, uint64_t worst_ns, bool met)
{
	unsigned int n = a->nattempts;

	if (n && a->attempt[n - 1].headroom_pct == a->headroom_pct)
		n--;
	if (n >= WS_ADAPT_ATTEMPTS)
		return;
	a->attempt[n] = (struct ws_adapt_attempt){
		.worst_ns = worst_ns, .headroom_pct = (uint8_t)a->headroom_pct, .met = met,
	};
	a->nattempts = n + 1;
}

/* The next share of the disk left idle, while one is left and the disk's
 * rate is known to cap by. */
static bool headroom_next(struct adapt *a)
{
	unsigned int pct = (a->headroom_pct / ADAPT_HEADROOM_STEP_PCT + 1) *
			   ADAPT_HEADROOM_STEP_PCT;

	if (a->headroom_pct >= ADAPT_HEADROOM_MAX_PCT || !a->disk_bps)
		return false;
	a->headroom_pct = pct < ADAPT_HEADROOM_MAX_PCT ? pct : ADAPT_HEADROOM_MAX_PCT;
	a->cap_bps = a->disk_bps * (100 - a->headroom_pct) / 100.0;
	a->chosen = a->trying = true;
	a->cap_lifted = false;
	a->capped_run = 0;
	a->headroom_met_ns = 0;
	a->floor_periods = a->met_periods = 0;
	return true;
}

/* Under the target: an attempt's share meets it after calm periods in a
 * row; an unreachable target is met again the same way. */
static void judge_met(struct adapt *a, uint64_t now_ns, uint64_t worst)
{
	a->floor_periods = 0;
	if (!a->met_periods || worst > a->met_worst_ns)
		a->met_worst_ns = worst;
	if (++a->met_periods < ADAPT_SETTLE_PERIODS)
		return;
	a->met_periods = 0;
	if (a->trying) {
		attempt_close(a, a->met_worst_ns, true);
		a->trying = false;
		a->headroom_met_ns = now_ns;
	}
	a->unreachable = false;
}

static void judge_floor(struct adapt *a, uint64_t now_ns, int slot,
			uint64_t worst)
{
	if (worst <= a->target_ns) {
		if (a->trying || a->unreachable)
			judge_met(a, now_ns, worst);
		else
			a->floor_periods = 0;
		return;
	}
	a->met_periods = 0;
	if (a->period_off_floor) {
		a->floor_periods = 0;
		return;
	}
	if (!a->floor_periods++ || worst < a->floor_worst_ns) {
		a->floor_worst_ns = worst;
		a->floor_probe = slot;
	}
	if (a->floor_periods < ADAPT_SETTLE_PERIODS || a->unreachable)
		return;
	attempt_close(a, a->floor_worst_ns, false);
	if (headroom_next(a))
		return;
	a->trying = false;
	a->headroom_met_ns = 0;
	a->unreachable = true;
	if (!a->unreachable_ns) {
		a->unreachable_ns = now_ns;
		a->unreachable_floor_ns = a->floor_worst_ns;
		a->unreachable_probe = a->floor_probe;
	}
}

/* Small cuts and slow growth are calm: a period's slowest probe is noisy
 * (a throttle's slice), and the band judges whether the pace moved. */
static bool period_calm(struct adapt *a, uint64_t worst, double setpoint_before)
{
	const struct adapt_band *b = &a->band[a->nbands % ADAPT_SETTLE_PERIODS];
	bool raced = a->setpoint_ns > setpoint_before * (1 + 2.0 / ADAPT_GROW) &&
		     !(a->band_n && b->high < 2.0 * ADAPT_CHUNK_MIN);

	if (a->settled)
		return worst <= a->target_ns && !raced;
	a->why = a->unreachable ? WS_ADAPT_UNREACHABLE :
		 worst > a->target_ns ? WS_ADAPT_OVER :
		 raced ? WS_ADAPT_RACING : WS_ADAPT_STARTING;
	return a->why == WS_ADAPT_STARTING;
}

static void period_close(struct adapt *a, uint64_t now_ns)
{
	double before = a->setpoint_ns;
	uint64_t worst = 0;
	int slot = -1;
	bool calm = false;

	if (at_floor(a) == false)
		a->period_off_floor = true;
	for (unsigned int i = 0; i < ADAPT_PROBES; i++)
		if (a->probe[i].steers && a->probe[i].period.n &&
		    a->probe[i].period.worst_ns >= worst) {
			worst = a->probe[i].period.worst_ns;
			slot = (int)i;
		}
	if (slot >= 0) {
		double recent = (double)recent_worst(a, worst);

		learn_waits(a);
		a->probe[slot].steered++;
		correct(a, &a->probe[slot], (double)worst, recent);
		judge_floor(a, now_ns, slot, worst);
		calm = period_calm(a, worst, before);
	} else if (!a->settled) {
		a->why = WS_ADAPT_NO_PROBES;
	}
	if (a->lift_seen) {
		/* a period without the cap measures the disk, not the pace */
		a->band_n = 0;
		a->band_sum = 0;
		a->lift_seen = a->cap_lifted;
	} else {
		band_close(a, calm);
	}
	for (unsigned int i = 0; i < ADAPT_PROBES; i++)
		a->probe[i].period = (struct adapt_obs){ 0 };
	a->period_start_ns = now_ns;
	a->period_probes = 0;
	a->period_sojourn_sum = 0;
	a->period_sojourns = 0;
	a->period_off_floor = false;
}

static void maybe_close(struct adapt *a, uint64_t now_ns)
{
	if (!a->period_start_ns)
		a->period_start_ns = now_ns;
	if (now_ns - a->period_start_ns >= ADAPT_PERIOD_NS ||
	    a->period_probes >= ADAPT_PERIOD_PROBES)
		period_close(a, now_ns);
}

void adapt_set_headroom(struct adapt *a, unsigned int pct)
{
	a->headroom_pct = pct > ADAPT_HEADROOM_MAX_PCT ? ADAPT_HEADROOM_MAX_PCT : pct;
}

/* Relearning the disk's rate uncapped costs the probes the floor's wait:
 * only while the last periods left them room, never under an attempt's
 * headroom (adapt.h). */
static bool may_lift(const struct adapt *a)
{
	double low = (double)a->target_ns * ADAPT_LOW_PCT / 100.0;

	if (a->chosen)
		return false;
	for (unsigned int i = 0; i < ADAPT_TAIL_PERIODS && i < a->nrecent; i++)
		if ((double)a->recent_worst_ns[i] >= low)
			return false;
	return true;
}

/* The disk's rate from the periods the cap did not hold back (adapt.h),
 * learned with or without --headroom: an attempt may need it. */
static void rate_period(struct adapt *a, uint64_t now_ns, uint64_t bytes)
{
	double did, most = 0;
	bool capped;

	if (!a->rate_start_ns) {
		a->rate_start_ns = now_ns;
		return;		/* the first chunk's time is not a period's */
	}
	a->rate_bytes += bytes;
	if (now_ns - a->rate_start_ns < ADAPT_PERIOD_NS)
		return;
	did = (double)a->rate_bytes * 1e9 / (double)(now_ns - a->rate_start_ns);
	a->rate_start_ns = now_ns;
	a->rate_bytes = 0;
	capped = adapt_rate_cap(a) != 0;
	/* held back by the cap: not the disk's rate */
	a->period_bps[a->nperiods++ % ADAPT_TAIL_PERIODS] =
		capped && did >= a->cap_bps * ADAPT_CAP_BINDING_PCT / 100.0 ? 0 : did;
	for (unsigned int i = 0; i < ADAPT_TAIL_PERIODS && i < a->nperiods; i++)
		most = fmax(most, a->period_bps[i]);
	if (most > 0) {
		a->disk_bps = most;
		a->cap_bps = a->headroom_pct ?
			     most * (100 - a->headroom_pct) / 100.0 : 0;
	}
	a->capped_run = capped ? a->capped_run + 1 : 0;
	a->cap_lifted = a->capped_run >= ADAPT_PROBE_EVERY - 1 && may_lift(a);
	if (a->cap_lifted)
		a->lift_seen = true;
}

void adapt_retired(struct adapt *a, uint64_t now_ns, uint64_t sojourn_ns,
		   uint64_t bytes)
{
	rate_period(a, now_ns, bytes);
	a->sojourn_ns = a->sojourn_ns > 0 ?
			a->sojourn_ns + ((double)sojourn_ns - a->sojourn_ns) / 4 :
			(double)sojourn_ns;
	a->period_sojourn_sum += (double)sojourn_ns;
	a->period_sojourns++;
	if (!a->steered_ns)
		a->steered_ns = now_ns;
	steer(a, now_ns);
	band_track(a);
	maybe_close(a, now_ns);
}

void adapt_probe(struct adapt *a, uint64_t now_ns, unsigned int slot,
		 const struct adapt_obs *o)
{
	struct adapt_probe *p;

	if (slot >= ADAPT_PROBES || !o->n)
		return;
	p = &a->probe[slot];
	if (!p->steers) {	/* never set up: idle 0, one wait */
		p->steers = true;
		p->waits = ADAPT_WAITS_MIN;
	}
	if (o->worst_ns > p->period.worst_ns)
		p->period.worst_ns = o->worst_ns;
	p->period.sum_ns += o->sum_ns;
	p->period.n += o->n;
	a->period_probes += o->n;
	maybe_close(a, now_ns);
}

int adapt_steering_probe(const struct adapt *a)
{
	int best = -1;

	for (unsigned int i = 0; i < ADAPT_PROBES; i++)
		if (a->probe[i].steered &&
		    (best < 0 || a->probe[i].steered > a->probe[best].steered))
			best = (int)i;
	return best;
}
