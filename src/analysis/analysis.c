/* analysis.c - the one pipeline over a run's series, and the phases' tidying. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/steady.h"

#define NS_PER_S 1e9

void analysis_defaults(struct ws_analysis_params *p)
{
	*p = (struct ws_analysis_params){
		.interval_ns = (uint64_t)NS_PER_S,
		.min_phase_intervals = 2,
		.merge_similar_pct = 15,
		.slowdown_fraction = 0.8,
		.criterion = WS_STEADY_SNIA,
		.limit_pct = 20,
		.slope_pct = 10,
		.steady_window = 5,
		.round_ns = 10 * (uint64_t)NS_PER_S,
		.precondition_bytes = 0,
	};
}

size_t analysis_compact(const struct ws_point *in, size_t n,
			struct ws_point *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m && (!in[i].dbytes || !out[m - 1].dbytes))
			out[m - 1] = series_merge(&out[m - 1], &in[i]);
		else
			out[m++] = in[i];
	}
	return m;
}

size_t analysis_spans(const struct ws_point *pts, size_t n, uint64_t end_bytes,
		      uint64_t end_ns, struct ws_point *out)
{
	/* the final wait, a last point that wrote nothing after some that
	 * did: a span of its own, what was written is not slowed by it */
	bool wait = n > 1 && !pts[n - 1].dbytes;
	struct ws_point *last, tail;
	size_t m = analysis_compact(pts, n - wait, out);

	if (wait && out[m - 1].dbytes)
		out[m++] = pts[n - 1];
	else if (wait)
		out[m - 1] = series_merge(&out[m - 1], &pts[n - 1]);
	n = m;
	if (!n)
		return 0;
	last = &out[n - 1];
	/* an end before the last point's is no end of the run */
	if (end_ns < last->t_ns || end_bytes < last->bytes ||
	    (end_ns == last->t_ns && end_bytes == last->bytes))
		return n;
	tail = (struct ws_point){
		.t_ns = end_ns, .dt_ns = end_ns - last->t_ns, .bytes = end_bytes,
		.dbytes = end_bytes - last->bytes,
	};
	tail.mibps = ws_mibps(tail.dbytes, tail.dt_ns);
	/* no time, or the wait goes on: the last span's */
	if (!tail.dt_ns || !last->dbytes)
		*last = series_merge(last, &tail);
	else
		out[n++] = tail;
	return n;
}

/* Too short: one phase, the run's, not judged. */
static void one_phase(const struct ws_point *spans, size_t n,
		      struct ws_analysis *a)
{
	struct ws_phase *ph = &a->phases[0];

	*ph = (struct ws_phase){
		.first = 0, .last = n - 1,
		.from_bytes = spans[0].bytes - spans[0].dbytes,
		.from_ns = spans[0].t_ns - spans[0].dt_ns,
		.to_bytes = spans[n - 1].bytes, .to_ns = spans[n - 1].t_ns,
	};
	analysis_phase_rates(spans, ph, 1);
	a->nphases = 1;
}

/* The tidied segmentation of the points, covering every span. */
static void segment(const struct ws_point *pts, size_t n,
		    const struct ws_point *spans, size_t m,
		    const struct ws_analysis_input *in,
		    const struct ws_analysis_params *p, struct ws_analysis *a)
{
	uint64_t min_ns = p->min_phase_intervals * p->interval_ns;

	a->nphases = analysis_phases(pts, n, a->phases, WS_MAX_PHASES);
	if (in->elapsed_ns / 100 > min_ns)
		min_ns = in->elapsed_ns / 100;
	a->nphases = analysis_merge_short(a->phases, a->nphases, min_ns);
	a->nphases = analysis_merge_similar(pts, a->phases, a->nphases,
					    p->merge_similar_pct);
	a->nphases = analysis_extend_to_end(a->phases, a->nphases,
					    spans[m - 1].bytes, spans[m - 1].t_ns,
					    p->merge_similar_pct);
	if (!a->nphases) {	/* no memory to segment by */
		one_phase(spans, m, a);
		return;
	}
	/* the last phase holds the spans after the points, if any */
	a->phases[a->nphases - 1].last = m - 1;
	analysis_phase_rates(spans, a->phases, a->nphases);
}

static int find_phases(const struct ws_analysis_input *in,
		       const struct ws_analysis_params *p, struct ws_analysis *a)
{
	struct ws_point *pts, *spans;
	struct ws_lasting_rule rule;
	unsigned int j = 0;
	bool unresolved;
	size_t n, m;
	int ret;

	if (!in->nmarks)
		return 0;
	pts = malloc((2 * in->nmarks + 1) * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	spans = pts + in->nmarks;
	n = analysis_compact(in->marks, in->nmarks, pts);
	m = analysis_spans(in->marks, in->nmarks, in->end_bytes, in->elapsed_ns,
			   spans);
	a->phases_spans = m;
	a->phases_run_ns = m ? spans[m - 1].t_ns : 0;
	ret = 0;
	if (!m)
		goto out;
	if (analysis_too_short(a->phases_run_ns, p->interval_ns, m)) {
		a->phases_verdict = WS_PHASES_TOO_SHORT;
		one_phase(spans, m, a);
		a->initial_mibps = a->phases[0].mibps;
		goto out;
	}
	rule = (struct ws_lasting_rule){
		.run_ns = a->phases_run_ns, .level_ns = p->interval_ns,
		.run_bytes = spans[m - 1].bytes - (spans[0].bytes - spans[0].dbytes),
	};
	segment(pts, n, spans, m, in, p, a);
	ret = analysis_split_lasting(spans, m, a->phases, &a->nphases,
				     WS_MAX_PHASES, &rule, &unresolved);
	if (ret)
		goto out;
	a->phases_verdict = unresolved ? WS_PHASES_TOO_MANY : WS_PHASES_JUDGED;
	if (!unresolved) {
		ret = analysis_slowdown_phase(spans, m, a->phases, &a->nphases,
					      WS_MAX_PHASES, p->slowdown_fraction,
					      &rule, &j);
		a->slowed = ret > 0;
		ret = ret < 0 ? ret : 0;
	}
	a->initial_mibps = a->phases[0].mibps;
	if (a->slowed) {
		a->slowdown_phase = j;
		a->slowdown_bytes = a->phases[j].from_bytes;
		a->slowdown_ns = a->phases[j].from_ns;
	}
out:
	free(pts);
	return ret;
}

void analysis_steady_from_phase(struct ws_analysis *a)
{
	struct ws_stretch *f = &a->steady.final;
	unsigned int j = a->nphases;

	if (!a->steady.reached || a->phases_verdict != WS_PHASES_JUDGED)
		return;
	/* j: the phase the stretch starts in */
	while (j > 1 && a->phases[j - 1].from_ns > f->from_ns)
		j--;
	if (j < 2)
		return;
	j--;
	if (a->phases[j].from_ns == f->from_ns ||
	    a->phases[j].from_ns + a->steady.round_ns <= f->from_ns)
		return;
	f->from_bytes = a->phases[j].from_bytes;
	f->from_ns = a->phases[j].from_ns;
	f->mibps = ws_mibps(f->to_bytes - f->from_bytes, f->to_ns - f->from_ns);
}

int analysis_run(const struct ws_analysis_input *in,
		 const struct ws_analysis_params *p, struct ws_analysis *out)
{
	int ret = 0;

	*out = (struct ws_analysis){ .params = *p };
	if (!in->steady_only)
		ret = find_phases(in, p, out);
	if (!ret)
		ret = steady_judge(in->marks, in->nmarks, in->writing_ns, p,
				      &out->steady);
	if (!ret && in->dev_traced)
		steady_add_device(&out->steady, in->dev_rounds, in->ndev_rounds);
	if (!ret)
		analysis_steady_from_phase(out);
	return ret;
}

void analysis_release(struct ws_analysis *a)
{
	free(a->steady.rounds);
	free(a->steady.windows);
	a->steady.rounds = NULL;
	a->steady.windows = NULL;
	a->steady.nwindows = 0;
}

static unsigned int closer_neighbour(const struct ws_phase *ph, unsigned int n,
				     unsigned int i)
{
	double dl, dr;

	if (i == 0)
		return 1;
	if (i + 1 == n)
		return i - 1;
	dl = ph[i - 1].mibps - ph[i].mibps;
	dr = ph[i + 1].mibps - ph[i].mibps;
	return dl * dl <= dr * dr ? i - 1 : i + 1;
}

unsigned int analysis_merge_short(struct ws_phase *ph, unsigned int n,
				  uint64_t min_ns)
{
	for (;;) {
		unsigned int shortest = n, into;

		for (unsigned int i = 0; n > 1 && i < n; i++)
			if (ph[i].to_ns - ph[i].from_ns < min_ns &&
			    (shortest == n || ph[i].to_ns - ph[i].from_ns <
			     ph[shortest].to_ns - ph[shortest].from_ns))
				shortest = i;
		if (shortest == n)
			return n;
		into = closer_neighbour(ph, n, shortest);
		if (into > shortest) {	/* keep the earlier one's start */
			ph[into].from_bytes = ph[shortest].from_bytes;
			ph[into].from_ns = ph[shortest].from_ns;
			ph[into].first = ph[shortest].first;
		} else {
			ph[into].to_bytes = ph[shortest].to_bytes;
			ph[into].to_ns = ph[shortest].to_ns;
			ph[into].last = ph[shortest].last;
		}
		for (unsigned int i = shortest; i + 1 < n; i++)
			ph[i] = ph[i + 1];
		n--;
	}
}

static void span_rate(struct ws_phase *ph)
{
	if (ph->to_ns > ph->from_ns)
		ph->mibps = ws_mibps(ph->to_bytes - ph->from_bytes,
				     ph->to_ns - ph->from_ns);
}

unsigned int analysis_extend_to_end(struct ws_phase *ph, unsigned int n,
				    uint64_t end_bytes, uint64_t end_ns,
				    double pct)
{
	struct ws_phase *last = &ph[n ? n - 1 : 0];
	double hi, lo;

	if (!n || end_bytes < last->to_bytes || end_ns < last->to_ns ||
	    (end_bytes == last->to_bytes && end_ns == last->to_ns))
		return n;
	last->to_bytes = end_bytes;
	last->to_ns = end_ns;
	span_rate(last);
	if (n < 2)
		return n;
	/* the longer last phase may now be the level of the one before */
	hi = ph[n - 2].mibps > last->mibps ? ph[n - 2].mibps : last->mibps;
	lo = ph[n - 2].mibps > last->mibps ? last->mibps : ph[n - 2].mibps;
	if (hi <= 0 || (hi - lo) * 100 >= pct * hi)
		return n;
	ph[n - 2].to_bytes = last->to_bytes;
	ph[n - 2].to_ns = last->to_ns;
	ph[n - 2].last = last->last;
	span_rate(&ph[n - 2]);
	return n - 1;
}

void analysis_phase_rates(const struct ws_point *pts, struct ws_phase *ph,
			  unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t bytes = 0, ns = 0;

		for (size_t k = ph[i].first; k <= ph[i].last; k++) {
			bytes += pts[k].dbytes;
			ns += pts[k].dt_ns;
		}
		if (ns)
			ph[i].mibps = ws_mibps(bytes, ns);
	}
}

unsigned int analysis_merge_similar(const struct ws_point *pts,
				    struct ws_phase *ph, unsigned int n,
				    double pct)
{
	analysis_phase_rates(pts, ph, n);
	for (unsigned int i = 0; i + 1 < n;) {
		double hi = ph[i].mibps > ph[i + 1].mibps ? ph[i].mibps : ph[i + 1].mibps;
		double lo = ph[i].mibps > ph[i + 1].mibps ? ph[i + 1].mibps : ph[i].mibps;

		if (hi <= 0 || (hi - lo) / hi * 100.0 >= pct) {
			i++;
			continue;
		}
		ph[i].to_bytes = ph[i + 1].to_bytes;
		ph[i].to_ns = ph[i + 1].to_ns;
		ph[i].last = ph[i + 1].last;
		for (unsigned int k = i + 1; k + 1 < n; k++)
			ph[k] = ph[k + 1];
		n--;
		analysis_phase_rates(pts, &ph[i], 1);
		if (i)
			i--;	/* the merged phase may now resemble its left */
	}
	return n;
}
