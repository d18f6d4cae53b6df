/* steady.c - steady state over rounds.  No libm; the arrays are the caller's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/steady.h"

/* Linear within a span: marks fall on buffer ends. */
static uint64_t bytes_at(const struct ws_point *pts, size_t n, size_t *at,
			 uint64_t t_ns)
{
	const struct ws_point *p;
	uint64_t t0;

	while (*at < n && pts[*at].t_ns < t_ns)
		(*at)++;
	if (*at == n)
		return n ? pts[n - 1].bytes : 0;
	p = &pts[*at];
	t0 = p->t_ns - p->dt_ns;
	if (t_ns <= t0 || !p->dt_ns)
		return p->bytes - p->dbytes;
	return p->bytes - p->dbytes +
	       (uint64_t)((double)p->dbytes * (double)(t_ns - t0) / (double)p->dt_ns);
}

static void measure_window(const struct ws_round *rounds, unsigned int s,
			   unsigned int win, struct ws_window *w)
{
	double avg = 0, lo = 0, hi = 0, dev = 0, sxy = 0, sxx = 0;
	double xbar = (double)(win - 1) / 2, slope;

	*w = (struct ws_window){ .first = s };
	for (unsigned int i = 0; i < win; i++) {
		double v = rounds[s + i].mibps;

		avg += v;
		lo = i && lo < v ? lo : v;
		hi = i && hi > v ? hi : v;
	}
	avg /= (double)win;
	w->mibps = avg;
	if (avg <= 0)
		return;
	for (unsigned int i = 0; i < win; i++) {
		double v = rounds[s + i].mibps, dx = (double)i - xbar;

		dev = ws_maxd(dev, ws_absd(v - avg));
		sxy += dx * (v - avg);
		sxx += dx * dx;
	}
	slope = sxx > 0 ? sxy / sxx : 0;
	w->range_pct = (hi - lo) / avg * 100;
	w->excursion_pct = ws_absd(slope) * (double)(win - 1) / avg * 100;
	w->slope_pct = ws_absd(slope) / avg * 100;
	w->dev_pct = dev / avg * 100;
}

static bool snia_holds(const struct ws_window *w, const struct ws_analysis_params *p)
{
	/* SNIA's bounds are inclusive */
	return w->range_pct <= p->limit_pct && w->excursion_pct <= p->slope_pct;
}

static bool slope_holds(const struct ws_window *w, const struct ws_analysis_params *p)
{
	return w->slope_pct < p->limit_pct;	/* fio's are strict */
}

static bool dev_holds(const struct ws_window *w, const struct ws_analysis_params *p)
{
	return w->dev_pct < p->limit_pct;
}

static const struct criterion {
	bool (*holds)(const struct ws_window *w, const struct ws_analysis_params *p);
} criteria[WS_STEADY_NR] = {
	[WS_STEADY_SNIA] = { snia_holds },
	[WS_STEADY_BW_SLOPE] = { slope_holds },
	[WS_STEADY_BW_DEV] = { dev_holds },
};

static const struct criterion *criterion_of(const struct ws_analysis_params *p)
{
	return (unsigned int)p->criterion < WS_STEADY_NR ? &criteria[p->criterion] : NULL;
}

bool steady_window_holds(const struct ws_window *w,
			   const struct ws_analysis_params *p)
{
	const struct criterion *c = criterion_of(p);

	if (!c || w->mibps <= 0 || p->steady_window < 2)
		return false;
	return c->holds(w, p);
}

/* Over windows [a, b], all holding. */
static void make_stretch(const struct ws_steady *st, unsigned int a,
			 unsigned int b, unsigned int win, struct ws_stretch *out)
{
	const struct ws_round *first = &st->rounds[a];
	const struct ws_round *last = &st->rounds[b + win - 1];

	*out = (struct ws_stretch){
		.first_round = a, .last_round = b + win - 1,
		.from_bytes = first->from_bytes, .to_bytes = last->to_bytes,
		.from_ns = first->from_ns, .to_ns = last->to_ns,
	};
	out->mibps = ws_mibps(out->to_bytes - out->from_bytes,
				out->to_ns - out->from_ns);
	for (unsigned int s = a; s <= b; s++) {
		const struct ws_window *w = &st->windows[s];

		out->range_pct = ws_maxd(out->range_pct, w->range_pct);
		out->excursion_pct = ws_maxd(out->excursion_pct, w->excursion_pct);
		out->slope_pct = ws_maxd(out->slope_pct, w->slope_pct);
		out->dev_pct = ws_maxd(out->dev_pct, w->dev_pct);
	}
}

/* The latest run of holding windows ending at or before window end. */
static bool latest_run(const struct ws_steady *st, size_t end,
		       unsigned int *a, unsigned int *b)
{
	size_t s = end + 1;

	while (s > 0 && st->windows[s - 1].verdict != WS_WINDOW_STEADY)
		s--;
	if (!s)
		return false;
	*b = (unsigned int)(s - 1);
	while (s > 0 && st->windows[s - 1].verdict == WS_WINDOW_STEADY)
		s--;
	*a = (unsigned int)s;
	return true;
}

/* Multiplied out, so whole rates at the bound are exactly on it. */
static bool similar(double a, double b, double pct)
{
	double hi = ws_maxd(a, b);

	return hi <= 0 || ws_absd(a - b) * 100 < pct * hi;
}

/* Steady at the end, since when, and at what level before (one noisy
 * window is not a change). */
static void judge_end(struct ws_steady *st, const struct ws_analysis_params *p)
{
	unsigned int win = p->steady_window, a, b;
	size_t last = st->nwindows - 1;

	if (latest_run(st, last, &a, &b) && b == last) {
		st->reached = true;
		make_stretch(st, a, b, win, &st->final);
		st->at_bytes = st->rounds[a + win - 1].to_bytes;
		st->at_ns = st->rounds[a + win - 1].to_ns;
		while (a > 0 && latest_run(st, a - 1, &a, &b)) {
			make_stretch(st, a, b, win, &st->before);
			if (!similar(st->before.mibps, st->final.mibps,
				     p->merge_similar_pct)) {
				st->earlier = true;
				return;
			}
		}
		st->before = (struct ws_stretch){ .first_round = 0 };
		return;
	}
	if (latest_run(st, last, &a, &b)) {
		st->earlier = true;
		make_stretch(st, a, b, win, &st->before);
	}
}

int steady_judge(const struct ws_point *pts, size_t n, uint64_t until_ns,
		    const struct ws_analysis_params *p, struct ws_steady *out)
{
	uint64_t round = p->round_ns ? p->round_ns : 1, end, prev = 0;
	unsigned int win = p->steady_window;
	size_t nrounds, at = 0;

	end = n ? pts[n - 1].t_ns : 0;
	if (end > until_ns)
		end = until_ns;
	nrounds = end / round;
	*out = (struct ws_steady){ .round_ns = round };
	if (nrounds > UINT32_MAX)
		nrounds = UINT32_MAX;
	out->nrounds = (unsigned int)nrounds;
	out->judged_from = out->nrounds;
	if (!nrounds)
		return 0;
	out->rounds = malloc(nrounds * sizeof(*out->rounds));
	if (!out->rounds)
		return -ENOMEM;
	for (size_t r = 0; r < nrounds; r++) {
		struct ws_round *rd = &out->rounds[r];
		uint64_t b = bytes_at(pts, n, &at, (r + 1) * round);

		*rd = (struct ws_round){ .from_bytes = prev, .to_bytes = b,
					 .from_ns = r * round, .to_ns = (r + 1) * round };
		rd->mibps = ws_mibps(b - prev, round);
		prev = b;
		if (out->judged_from == out->nrounds &&
		    rd->from_bytes >= p->precondition_bytes)
			out->judged_from = (unsigned int)r;
	}
	out->judged_rounds = out->nrounds - out->judged_from;
	if (win < 2 || nrounds < win)
		return 0;
	out->nwindows = nrounds - win + 1;
	out->windows = malloc(out->nwindows * sizeof(*out->windows));
	if (!out->windows) {
		out->nwindows = 0;
		return -ENOMEM;
	}
	for (size_t s = 0; s < out->nwindows; s++) {
		struct ws_window *w = &out->windows[s];

		measure_window(out->rounds, (unsigned int)s, win, w);
		if (s < out->judged_from)
			w->verdict = WS_WINDOW_PRECONDITION;
		else
			w->verdict = steady_window_holds(w, p) ? WS_WINDOW_STEADY
								 : WS_WINDOW_UNSTEADY;
	}
	out->judged = out->judged_from < out->nwindows;
	if (out->judged)
		judge_end(out, p);
	return 0;
}

static void stretch_device(const struct ws_steady *st, struct ws_stretch *s)
{
	s->dev_rounds = 0;
	for (unsigned int r = s->first_round; r <= s->last_round && r < st->nrounds; r++) {
		const struct ws_round_device *d = &st->rounds[r].dev;

		if (!d->writes)
			continue;
		if (!s->dev_rounds++) {
			s->dev_p50_lo_ns = s->dev_p50_hi_ns = d->p50_ns;
			s->dev_p99_lo_ns = s->dev_p99_hi_ns = d->p99_ns;
			continue;
		}
		s->dev_p50_lo_ns = d->p50_ns < s->dev_p50_lo_ns ? d->p50_ns : s->dev_p50_lo_ns;
		s->dev_p50_hi_ns = d->p50_ns > s->dev_p50_hi_ns ? d->p50_ns : s->dev_p50_hi_ns;
		s->dev_p99_lo_ns = d->p99_ns < s->dev_p99_lo_ns ? d->p99_ns : s->dev_p99_lo_ns;
		s->dev_p99_hi_ns = d->p99_ns > s->dev_p99_hi_ns ? d->p99_ns : s->dev_p99_hi_ns;
	}
}

void steady_add_device(struct ws_steady *st, const struct ws_round_device *dev,
		       size_t n)
{
	for (unsigned int r = 0; r < st->nrounds; r++)
		st->rounds[r].dev = r < n ? dev[r] : (struct ws_round_device){ 0 };
	st->has_dev = true;
	if (st->reached)
		stretch_device(st, &st->final);
	if (st->earlier)
		stretch_device(st, &st->before);
}
