/* lasting.c - a lasting change is a phase; the slowdown is where a phase
 * starts (the rules: record/phases.h, analysis.h).  No libm. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* Bytes and time of spans [0, i): sums[i]. */
struct span_sums {
	uint64_t *bytes, *ns;
};

static int sums_make(const struct ws_point *spans, size_t n,
		     struct span_sums *s)
{
	s->bytes = malloc(2 * (n + 1) * sizeof(uint64_t));
	if (!s->bytes)
		return -ENOMEM;
	s->ns = s->bytes + n + 1;
	s->bytes[0] = s->ns[0] = 0;
	for (size_t i = 0; i < n; i++) {
		s->bytes[i + 1] = s->bytes[i] + spans[i].dbytes;
		s->ns[i + 1] = s->ns[i] + spans[i].dt_ns;
	}
	return 0;
}

static void sums_free(struct span_sums *s)
{
	free(s->bytes);
}

/* How far apart two rates are, as the larger over the smaller (1e300 for
 * one of nothing), each its bytes over its time, multiplied out so that
 * rates exactly WS_PHASE_CHANGE_X apart are exactly that. */
static double apart(uint64_t b1, uint64_t t1, uint64_t b2, uint64_t t2)
{
	double x = (double)b1 * (double)t2, y = (double)b2 * (double)t1;

	if (x < y) {
		double t = x;

		x = y;
		y = t;
	}
	if (x <= WS_PHASE_CHANGE_X * y)
		return 1;	/* not a change by the rule */
	return y > 0 ? x / y : 1e300;
}

/* The strongest change in phase ph by the rule: a stretch [k, c) of at
 * least a WS_PHASE_LASTING_PART of the run's time whose rate is more than
 * WS_PHASE_CHANGE_X apart from the phase's before it, [first, k), itself
 * a level: an interval long at least, or a WS_PHASE_LASTING_PART of the
 * run's bytes (a burst of a buffer is none).  Returns its strength (1:
 * none) and k in *at. */
static double phase_hidden(const struct span_sums *s, const struct ws_phase *ph,
			   const struct ws_lasting_rule *r, size_t *at)
{
	size_t f = ph->first, end = ph->last + 1, c = f + 1;
	uint64_t run_ns = r->run_ns;
	double best = 1;

	for (size_t k = f + 1; k < end; k++) {
		if (s->ns[k] - s->ns[f] < r->level_ns &&
		    (s->bytes[k] - s->bytes[f]) * WS_PHASE_LASTING_PART < r->run_bytes)
			continue;
		if (c <= k)
			c = k + 1;
		/* the shortest lasting stretch from k; later ones are longer */
		while (c <= end && (s->ns[c] - s->ns[k]) * WS_PHASE_LASTING_PART < run_ns)
			c++;
		for (size_t e = c; e <= end; e++) {
			double x = apart(s->bytes[k] - s->bytes[f], s->ns[k] - s->ns[f],
					 s->bytes[e] - s->bytes[k], s->ns[e] - s->ns[k]);

			if (x > best) {
				best = x;
				*at = k;
			}
		}
	}
	return best;
}

/* The strongest over all phases. */
static double hidden_change(const struct span_sums *s, const struct ws_phase *ph,
			    unsigned int nph, const struct ws_lasting_rule *r,
			    unsigned int *phase, size_t *at)
{
	double best = 1;

	for (unsigned int i = 0; i < nph; i++) {
		size_t k = 0;
		double x = phase_hidden(s, &ph[i], r, &k);

		if (x > best) {
			best = x;
			*phase = i;
			*at = k;
		}
	}
	return best;
}

int analysis_hidden_change(const struct ws_point *spans, size_t n,
			   const struct ws_phase *ph, unsigned int nph,
			   const struct ws_lasting_rule *r, unsigned int *phase,
			   size_t *at)
{
	struct span_sums s;
	int found;

	if (sums_make(spans, n, &s))
		return -ENOMEM;
	found = hidden_change(&s, ph, nph, r, phase, at) > 1;
	sums_free(&s);
	return found;
}

/* Spans [first, last] as phase ph, at their bytes over their time. */
static void span_phase(const struct ws_point *spans, size_t first, size_t last,
		       struct ws_phase *ph)
{
	uint64_t bytes = 0, ns = 0;

	ph->first = first;
	ph->last = last;
	ph->from_bytes = spans[first].bytes - spans[first].dbytes;
	ph->from_ns = spans[first].t_ns - spans[first].dt_ns;
	ph->to_bytes = spans[last].bytes;
	ph->to_ns = spans[last].t_ns;
	for (size_t k = first; k <= last; k++) {
		bytes += spans[k].dbytes;
		ns += spans[k].dt_ns;
	}
	ph->mibps = ws_mibps(bytes, ns);
}

/* Room for one more: the neighbours of the shortest time together whose
 * union hides no change.  Of eight phases, some two together last under
 * a third of the run (seven pairs cover it at most twice), so they can. */
static bool make_room(const struct ws_point *spans, const struct span_sums *s,
		      struct ws_phase *ph, unsigned int *nph,
		      const struct ws_lasting_rule *r)
{
	unsigned int best = *nph;
	uint64_t best_ns = UINT64_MAX;

	for (unsigned int i = 0; i + 1 < *nph; i++) {
		struct ws_phase u;
		size_t k;
		uint64_t ns = ph[i + 1].to_ns - ph[i].from_ns;

		if (ns >= best_ns)
			continue;
		span_phase(spans, ph[i].first, ph[i + 1].last, &u);
		if (phase_hidden(s, &u, r, &k) > 1)
			continue;
		best = i;
		best_ns = ns;
	}
	if (best == *nph)
		return false;
	span_phase(spans, ph[best].first, ph[best + 1].last, &ph[best]);
	for (unsigned int i = best + 1; i + 1 < *nph; i++)
		ph[i] = ph[i + 1];
	(*nph)--;
	return true;
}

static double own_rate(const struct ws_point *p)
{
	return ws_mibps(p->dbytes, p->dt_ns);
}

/* The split of phase [f, l] at k moved to where the spans sit best on
 * either side (the least time-weighted absolute deviation from the two
 * sides' rates, as phases.c refines a boundary): the stretch that lasts
 * from k may have had to take in some of the level before to last a
 * third of the run.  Unless that leaves a change hidden on either side. */
static size_t refine_split(const struct ws_point *spans, const struct span_sums *s,
			   size_t f, size_t k, size_t l, const struct ws_lasting_rule *r)
{
	struct ws_phase a, b;
	double lr, rr, cost = 0, best = 0;
	size_t at = k, i;

	span_phase(spans, f, k - 1, &a);
	span_phase(spans, k, l, &b);
	lr = a.mibps;
	rr = b.mibps;
	for (i = k; i > f + 1; i--) {	/* span i - 1 goes right */
		double x = own_rate(&spans[i - 1]), w = (double)spans[i - 1].dt_ns;

		cost += w * (ws_absd(x - rr) - ws_absd(x - lr));
		if (cost < best) {
			best = cost;
			at = i - 1;
		}
	}
	for (cost = 0, i = k; i < l; i++) {	/* span i goes left */
		double x = own_rate(&spans[i]), w = (double)spans[i].dt_ns;

		cost += w * (ws_absd(x - lr) - ws_absd(x - rr));
		if (cost < best) {
			best = cost;
			at = i + 1;
		}
	}
	if (at == k)
		return k;
	span_phase(spans, f, at - 1, &a);
	span_phase(spans, at, l, &b);
	if (phase_hidden(s, &a, r, &i) > 1 || phase_hidden(s, &b, r, &i) > 1)
		return k;
	return at;
}

int analysis_split_lasting(const struct ws_point *spans, size_t n,
			   struct ws_phase *ph, unsigned int *nph,
			   unsigned int max, const struct ws_lasting_rule *r,
			   bool *unresolved)
{
	struct span_sums s;
	unsigned int tries;

	*unresolved = false;
	if (!*nph)
		return 0;
	if (sums_make(spans, n, &s))
		return -ENOMEM;
	for (tries = 0; tries < 4 * WS_MAX_PHASES; tries++) {
		unsigned int i = 0;
		size_t k = 0;

		if (!(hidden_change(&s, ph, *nph, r, &i, &k) > 1))
			break;
		if (*nph == max) {
			if (!make_room(spans, &s, ph, nph, r))
				break;
			/* the change may now be in the union */
			if (!(hidden_change(&s, ph, *nph, r, &i, &k) > 1))
				continue;
		}
		k = refine_split(spans, &s, ph[i].first, k, ph[i].last, r);
		for (unsigned int j = *nph; j > i + 1; j--)
			ph[j] = ph[j - 1];
		span_phase(spans, k, ph[i].last, &ph[i + 1]);
		span_phase(spans, ph[i].first, k - 1, &ph[i]);
		(*nph)++;
	}
	*unresolved = hidden_change(&s, ph, *nph, r, &(unsigned int){ 0 },
				    &(size_t){ 0 }) > 1;
	sums_free(&s);
	return 0;
}

bool analysis_too_short(uint64_t run_ns, uint64_t interval_ns, size_t nspans)
{
	return nspans < WS_PHASES_MIN_SPANS ||
	       run_ns < (uint64_t)WS_PHASES_MIN_INTERVALS * interval_ns;
}

/* ---- the slowdown is where a phase starts ---- */

/* Phases j - 1 and j meet at span i instead. */
static void move_boundary(const struct ws_point *spans, struct ws_phase *ph,
			  unsigned int j, size_t i)
{
	span_phase(spans, ph[j - 1].first, i - 1, &ph[j - 1]);
	span_phase(spans, i, ph[j].last, &ph[j]);
}

static bool hides(const struct ws_point *spans, size_t n, const struct ws_phase *ph,
		  unsigned int nph, const struct ws_lasting_rule *r)
{
	return analysis_hidden_change(spans, n, ph, nph, r, &(unsigned int){ 0 },
				      &(size_t){ 0 }) != 0;
}

int analysis_slowdown_phase(const struct ws_point *spans, size_t n,
			    struct ws_phase *ph, unsigned int *nph,
			    unsigned int max, double fraction,
			    const struct ws_lasting_rule *r, unsigned int *phase)
{
	struct ws_phase was[WS_MAX_PHASES];
	unsigned int j, j0, n0 = *nph;
	size_t i, at, steps = 0, from;

	if (!analysis_slowdown_point(spans, n, ph, n0, fraction, &j, &i))
		return 0;
	memcpy(was, ph, n0 * sizeof(*ph));
	j0 = j;
	from = ph[j].first;
	/* the walk back moves the boundary; phases[0]'s rate may rise with
	 * it, so the walk may go on: it only ever goes back.  (A walk over
	 * the whole phase before would empty it: its points' rates are then
	 * not its own, and it stops.) */
	while (i != ph[j].first && i > ph[j - 1].first && steps++ < n) {
		move_boundary(spans, ph, j, i);
		if (!analysis_slowdown_point(spans, n, ph, n0, fraction, &j, &i) || j != j0)
			break;
	}
	*phase = j0;
	if (i == from || (i == ph[j0].first && j == j0 && !hides(spans, n, ph, n0, r)))
		return 1;
	/* the stretch walked over is a level of its own, more than 2x the
	 * rate after it: its own phase, the slowdown at its start */
	memcpy(ph, was, n0 * sizeof(*ph));
	if (i < from && i > ph[j0 - 1].first && n0 < max) {
		for (unsigned int k = n0; k > j0; k--)
			ph[k] = ph[k - 1];
		span_phase(spans, i, from - 1, &ph[j0]);
		span_phase(spans, ph[j0 - 1].first, i - 1, &ph[j0 - 1]);
		if (analysis_slowdown_point(spans, n, ph, n0 + 1, fraction, &j, &at) &&
		    j == j0 && at == i && !hides(spans, n, ph, n0 + 1, r)) {
			*nph = n0 + 1;
			return 1;
		}
		memcpy(ph, was, n0 * sizeof(*ph));
	}
	/* else the slowdown is the phase's own start */
	return 1;
}
