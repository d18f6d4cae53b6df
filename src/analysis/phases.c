/* phases.c - phases and the slowdown point (method: analysis.h).  No libm. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* PH_FILTER 2 erases bursts of two points; PH_Z is in standard errors;
 * PH_SIGMA_MIN keeps a noise-free series from making every wiggle count;
 * RATE_VAR is the median's pi / 2; normal noise's median step is 0.954 s. */
#define PH_MIN_LEN 3
#define PH_FILTER 2
#define PH_MIN_REL 0.10
#define PH_Z 4.0
#define PH_SIGMA_MIN 0.01
#define PH_REFINE 3
#define RATE_VAR 1.5708
#define DIFF_TO_SIGMA 0.954

/* Lastingly below: the point and the median of the SLOW_WINDOW from it. */
#define SLOW_WINDOW 5

/* Hoare's FIND: a[k] becomes the k-th smallest, partitioned around it. */
static void select_kth(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = a[k];
		size_t i = lo, j = hi;

		do {
			while (a[i] < pivot)
				i++;
			while (pivot < a[j])
				j--;
			if (i <= j) {
				double t = a[i];

				a[i] = a[j];
				a[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		} while (i <= j);
		if (j < k)
			lo = i;
		if (k < i)
			hi = j;
	}
}

/* n > 0; tmp[0..n) is scratch. */
static double median(const double *src, size_t n, double *tmp)
{
	size_t i, k = n / 2;
	double hi, lo;

	for (i = 0; i < n; i++)
		tmp[i] = src[i];
	select_kth(tmp, n, k);
	hi = tmp[k];
	if (n % 2)
		return hi;
	lo = tmp[0];
	for (i = 1; i < k; i++)
		if (tmp[i] > lo)
			lo = tmp[i];
	return (lo + hi) / 2;
}

/* Rounded up (three points give their median): a fifth of spikes per side
 * do not move it, and on noise it is nearly as steady as a mean. */
static double trimmed_mean(const double *src, size_t n, double *tmp)
{
	size_t i, drop = (n + 4) / 5, keep = n - 2 * drop;
	double sum = 0;

	if (n < 3)
		return median(src, n, tmp);
	for (i = 0; i < n; i++)
		tmp[i] = src[i];
	select_kth(tmp, n, drop);
	select_kth(tmp + drop, n - drop, keep - 1);
	for (i = drop; i < drop + keep; i++)
		sum += tmp[i];
	return sum / (double)keep;
}

struct phase_work {
	void *mem;
	const double *x;
	size_t n;
	double *f;		/* x median-filtered */
	double *sum;
	double *tmp;
	size_t *start;		/* segment starts, then n */
	size_t *stack;		/* stage one's (from, to) pairs */
	double *rate;
	double *score;		/* for the boundary before segment j */
	unsigned char *cut;	/* stage one: a segment starts here */
	size_t nseg;
	double sigma;		/* relative noise */
};

static int work_alloc(struct phase_work *w, const struct ws_point *pts,
		      size_t n)
{
	size_t nstack = 2 * (n / PH_MIN_LEN + 2);
	size_t i, bytes;
	double *x;

	if (n > SIZE_MAX / 64)
		return -1;
	bytes = (6 * n + 1) * sizeof(double) + (n + 1 + nstack) * sizeof(size_t)
		+ n;
	w->mem = malloc(bytes);
	if (!w->mem)
		return -1;
	x = w->mem;
	w->f = x + n;
	w->sum = w->f + n;
	w->tmp = w->sum + n + 1;
	w->rate = w->tmp + n;
	w->score = w->rate + n;
	w->start = (size_t *)(w->score + n);
	w->stack = w->start + n + 1;
	w->cut = (unsigned char *)(w->stack + nstack);
	for (i = 0; i < n; i++)
		x[i] = pts[i].mibps > 0 ? pts[i].mibps : 0;
	w->x = x;
	w->n = n;
	return 0;
}

static void work_free(struct phase_work *w)
{
	free(w->mem);
}

/* From the median relative step: a real change's few steps hardly move it. */
static double noise_estimate(struct phase_work *w)
{
	size_t i, m = 0;
	double s;

	for (i = 0; i + 1 < w->n; i++) {
		double a = w->x[i], b = w->x[i + 1];

		if (a + b > 0)
			w->tmp[m++] = ws_absd(a - b) / ((a + b) / 2);
	}
	s = m ? median(w->tmp, m, w->f) / DIFF_TO_SIGMA : 0;
	return s > PH_SIGMA_MIN ? s : PH_SIGMA_MIN;
}

static void median_filter(struct phase_work *w)
{
	double win[2 * PH_FILTER + 1], tmp[2 * PH_FILTER + 1];
	size_t i;

	for (i = 0; i < w->n; i++) {
		size_t lo = i > PH_FILTER ? i - PH_FILTER : 0;
		size_t hi = i + PH_FILTER + 1 < w->n ? i + PH_FILTER + 1 : w->n;
		size_t j;

		for (j = lo; j < hi; j++)
			win[j - lo] = w->x[j];
		w->f[i] = median(win, hi - lo, tmp);
	}
	w->sum[0] = 0;
	for (i = 0; i < w->n; i++)
		w->sum[i + 1] = w->sum[i] + w->f[i];
}

/* The significant split that best separates the filtered means, else 0. */
static size_t best_split(const struct phase_work *w, size_t a, size_t b)
{
	double total = w->sum[b] - w->sum[a], m = (double)(b - a);
	double best = -1, level = total / m, noise;
	size_t k, at = 0;

	for (k = a + PH_MIN_LEN; k + PH_MIN_LEN <= b; k++) {
		double nl = (double)(k - a), nr = (double)(b - k);
		double d = (w->sum[k] - w->sum[a]) / nl
			   - (w->sum[b] - w->sum[k]) / nr;
		double stat = d * d * nl * nr / m;

		if (stat > best) {
			best = stat;
			at = k;
		}
	}
	noise = w->sigma * level;
	return best > PH_Z * PH_Z * noise * noise ? at : 0;
}

/* Stage one: deliberately generous binary segmentation; stage two prunes. */
static void over_segment(struct phase_work *w)
{
	size_t depth = 0, i;

	for (i = 0; i < w->n; i++)
		w->cut[i] = 0;
	w->stack[depth++] = 0;
	w->stack[depth++] = w->n;
	while (depth) {
		size_t b = w->stack[--depth], a = w->stack[--depth], k;

		if (b - a < 2 * PH_MIN_LEN)
			continue;
		k = best_split(w, a, b);
		if (!k)
			continue;
		w->cut[k] = 1;
		w->stack[depth++] = a;
		w->stack[depth++] = k;
		w->stack[depth++] = k;
		w->stack[depth++] = b;
	}
	w->nseg = 0;
	for (i = 0; i < w->n; i++)
		if (i == 0 || w->cut[i])
			w->start[w->nseg++] = i;
	w->start[w->nseg] = w->n;
}

static size_t seg_len(const struct phase_work *w, size_t j)
{
	return w->start[j + 1] - w->start[j];
}

static void seg_rate(struct phase_work *w, size_t j)
{
	w->rate[j] = trimmed_mean(w->x + w->start[j], seg_len(w, j), w->tmp);
}

/* 1 is the threshold: the lesser of relative difference / PH_MIN_REL and
 * standard errors / PH_Z, squared. */
static double boundary_score(const struct phase_work *w, size_t j)
{
	double l = w->rate[j - 1], r = w->rate[j], d = l - r, big = ws_maxd(l, r);
	double var, rel, z;

	if (big <= 0)
		return 0;
	rel = d / big / PH_MIN_REL;
	var = RATE_VAR * w->sigma * w->sigma *
	      (l * l / (double)seg_len(w, j - 1) + r * r / (double)seg_len(w, j));
	z = var > 0 ? d * d / (PH_Z * PH_Z * var) : 1e300;
	return rel * rel < z ? rel * rel : z;
}

/* Stage two: merge the closest neighbours until all pass, at most max. */
static void merge_segments(struct phase_work *w, unsigned int max)
{
	size_t j;

	for (j = 0; j < w->nseg; j++)
		seg_rate(w, j);
	for (j = 1; j < w->nseg; j++)
		w->score[j] = boundary_score(w, j);
	while (w->nseg > 1) {
		size_t weak = 1;

		for (j = 2; j < w->nseg; j++)
			if (w->score[j] < w->score[weak])
				weak = j;
		if (w->nseg <= max && w->score[weak] >= 1)
			break;
		for (j = weak; j < w->nseg; j++) {
			w->start[j] = w->start[j + 1];
			w->rate[j] = w->rate[j + 1];
			w->score[j] = w->score[j + 1];
		}
		w->nseg--;
		seg_rate(w, weak - 1);
		if (weak - 1 > 0)
			w->score[weak - 1] = boundary_score(w, weak - 1);
		if (weak < w->nseg)
			w->score[weak] = boundary_score(w, weak);
	}
}

/* To the least absolute deviation within PH_REFINE: stage one's filtered
 * data can blur it by a point. */
static void refine_boundary(struct phase_work *w, size_t j)
{
	size_t a = w->start[j - 1], b = w->start[j + 1], s = w->start[j];
	size_t lo = s > a + PH_MIN_LEN + PH_REFINE ? s - PH_REFINE
						   : a + PH_MIN_LEN;
	size_t hi = s + PH_REFINE + PH_MIN_LEN <= b ? s + PH_REFINE
						    : b - PH_MIN_LEN;
	double l = w->rate[j - 1], r = w->rate[j], cost = 0, best = 0;
	size_t k, at = s;

	/* each step moves one point to the other side */
	for (k = s; k > lo; k--) {
		double v = w->x[k - 1];

		cost += ws_absd(v - r) - ws_absd(v - l);
		if (cost < best) {
			best = cost;
			at = k - 1;
		}
	}
	for (cost = 0, k = s; k < hi; k++) {
		double v = w->x[k];

		cost += ws_absd(v - l) - ws_absd(v - r);
		if (cost < best) {
			best = cost;
			at = k + 1;
		}
	}
	w->start[j] = at;
}

static void refine_segments(struct phase_work *w)
{
	size_t j;

	for (j = 1; j < w->nseg; j++)
		refine_boundary(w, j);
	for (j = 0; j < w->nseg; j++)
		seg_rate(w, j);
}

static void fill_phase(const struct ws_point *pts, size_t first, size_t last,
		       double mibps, struct ws_phase *ph)
{
	ph->first = first;
	ph->last = last;
	ph->from_bytes = pts[first].bytes - pts[first].dbytes;
	ph->to_bytes = pts[last].bytes;
	ph->from_ns = pts[first].t_ns - pts[first].dt_ns;
	ph->to_ns = pts[last].t_ns;
	ph->mibps = mibps;
}

unsigned int analysis_phases(const struct ws_point *pts, size_t n,
			     struct ws_phase *out, unsigned int max)
{
	struct phase_work w;
	size_t j;

	if (!n || !max || work_alloc(&w, pts, n))
		return 0;
	w.sigma = noise_estimate(&w);
	median_filter(&w);
	over_segment(&w);
	merge_segments(&w, max);
	if (w.nseg > 1)
		refine_segments(&w);
	for (j = 0; j < w.nseg; j++)
		fill_phase(pts, w.start[j], w.start[j + 1] - 1, w.rate[j],
			   &out[j]);
	j = w.nseg;
	work_free(&w);
	return (unsigned int)j;
}

static bool below_from(const struct ws_point *pts, size_t n, size_t i,
		       double thr)
{
	double win[SLOW_WINDOW], tmp[SLOW_WINDOW];
	size_t j, m = n - i < SLOW_WINDOW ? n - i : SLOW_WINDOW;

	if (!(pts[i].mibps < thr))
		return false;
	for (j = 0; j < m; j++)
		win[j] = pts[i + j].mibps;
	return median(win, m, tmp) < thr;
}

bool analysis_slowdown_point(const struct ws_point *pts, size_t n,
			     const struct ws_phase *phases, unsigned int nphases,
			     double fraction, unsigned int *phase, size_t *at)
{
	double thr;
	unsigned int j;
	size_t i;

	if (nphases < 2 || !n)
		return false;
	thr = fraction * phases[0].mibps;
	/* j: the first phase from which all are below thr */
	for (j = nphases; j > 1 && phases[j - 1].mibps < thr; j--)
		;
	if (j == nphases || phases[j].first >= n)
		return false;
	/* a ramp crosses thr in the phase before: back over its lasting points */
	for (i = phases[j].first; i > phases[j - 1].first &&
	     below_from(pts, n, i - 1, thr); i--)
		;
	*phase = j;
	*at = i;
	return true;
}

bool analysis_slowdown(const struct ws_point *pts, size_t n,
		       const struct ws_phase *phases, unsigned int nphases,
		       double fraction, uint64_t *at_bytes, uint64_t *at_ns)
{
	unsigned int j;
	size_t i;

	if (!analysis_slowdown_point(pts, n, phases, nphases, fraction, &j, &i))
		return false;
	*at_bytes = pts[i].bytes - pts[i].dbytes;
	*at_ns = pts[i].t_ns - pts[i].dt_ns;
	return true;
}
