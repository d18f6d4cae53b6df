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

static int find_phases(const struct ws_analysis_input *in,
		       const struct ws_analysis_params *p, struct ws_analysis *a)
{
	uint64_t min_ns = p->min_phase_intervals * p->interval_ns;
	struct ws_point *pts;
	size_t n;

	if (!in->nmarks)
		return 0;
	pts = malloc(in->nmarks * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	n = analysis_compact(in->marks, in->nmarks, pts);
	a->nphases = analysis_phases(pts, n, a->phases, WS_MAX_PHASES);
	if (in->elapsed_ns / 100 > min_ns)
		min_ns = in->elapsed_ns / 100;
	a->nphases = analysis_merge_short(a->phases, a->nphases, min_ns);
	a->nphases = analysis_merge_similar(pts, a->phases, a->nphases,
					    p->merge_similar_pct);
	a->nphases = analysis_extend_to_end(a->phases, a->nphases, in->end_bytes,
					    in->elapsed_ns, p->merge_similar_pct);
	if (a->nphases) {
		a->initial_mibps = a->phases[0].mibps;
		a->slowed = analysis_slowdown(pts, n, a->phases, a->nphases,
					      p->slowdown_fraction,
					      &a->slowdown_bytes, &a->slowdown_ns);
	}
	free(pts);
	return 0;
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
