/* matrix_judge.c - the matrix's rows: medians over repeats, the Pareto
 * front, the verdicts (see matrix.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "cmd/matrix/matrix.h"

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void fill_probes(const struct matrix_outcome *o, size_t n, struct matrix_row *r)
{
	for (unsigned int k = 0; k < MATRIX_MAX_PROBES; k++) {
		double v[5][MATRIX_MAX_REPEAT];
		size_t m = 0;
		const char *name = NULL;
		struct matrix_probe *rp = &r->probes[k];

		for (size_t i = 0; i < n && m < MATRIX_MAX_REPEAT; i++) {
			const struct matrix_probe *p = &o[i].probes[k];

			if (o[i].strategy != r->strategy || o[i].setting != r->setting ||
			    !o[i].have || k >= o[i].nprobes)
				continue;
			name = p->name;
			v[0][m] = p->p50_ms;
			v[1][m] = p->p99_ms;
			v[2][m] = p->max_ms;
			v[3][m] = p->p99_corrected_ms;
			v[4][m] = p->stalls;
			/* alike runs pool their probes for a verdict */
			rp->count += p->count;
			rp->over += p->over;
			rp->over_frozen += p->over_frozen;
			if (!m || p->count < rp->min_count)
				rp->min_count = p->count;
			m++;
		}
		if (!m)
			break;
		snprintf(rp->name, sizeof(rp->name), "%s", name);
		rp->p50_ms = median(v[0], m);
		rp->p99_ms = median(v[1], m);
		rp->max_ms = median(v[2], m);
		rp->p99_corrected_ms = median(v[3], m);
		rp->stalls = median(v[4], m);
		r->nprobes = k + 1;
	}
}

static void fill_row(const struct matrix_outcome *o, size_t n, struct matrix_row *r)
{
	double p90[MATRIX_MAX_REPEAT], dev[MATRIX_MAX_REPEAT];
	double mibps[MATRIX_MAX_REPEAT], p50[MATRIX_MAX_REPEAT], p99[MATRIX_MAX_REPEAT],
	       max[MATRIX_MAX_REPEAT], cp99[MATRIX_MAX_REPEAT], stalls[MATRIX_MAX_REPEAT],
	       dirty[MATRIX_MAX_REPEAT], cpu[MATRIX_MAX_REPEAT];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct matrix_outcome *x = &o[i];

		if (x->strategy != r->strategy || x->setting != r->setting)
			continue;
		if (x->unsupported)
			r->unsupported = true;
		if (!x->have) {
			r->failed |= !x->unsupported;
			continue;
		}
		if (k == MATRIX_MAX_REPEAT)
			continue;
		mibps[k] = x->mibps;
		p50[k] = x->p50_ms;
		p90[k] = x->p90_ms;
		dev[k] = x->dev_mibps;
		if (!k || (double)x->count < r->min_count)
			r->min_count = (double)x->count;
		r->count += (double)x->count;
		r->over += x->over;
		r->over_frozen += x->over_frozen;
		r->page_cache |= !matrix_rate_is_disks(x->mibps, x->have_device,
						       x->dev_mibps);
		p99[k] = x->p99_ms;
		max[k] = x->max_ms;
		cp99[k] = x->p99_corrected_ms;
		stalls[k] = (double)x->stalls;
		for (int c = 0; c < WS_CAUSE_NR; c++)
			r->causes[c] += x->causes[c];
		dirty[k] = (double)x->peak_dirty;
		cpu[k] = x->cpu_s_per_gib;
		k++;
	}
	r->runs = (unsigned int)k;
	if (!k)
		return;
	r->failed = false;	/* a run that worked is the figure */
	r->mibps = median(mibps, k);
	r->mibps_lo = mibps[0];
	r->mibps_hi = mibps[k - 1];
	r->p50_ms = median(p50, k);
	r->p90_ms = median(p90, k);
	r->dev_mibps = median(dev, k);
	r->p99_ms = median(p99, k);
	r->p99_lo = p99[0];
	r->p99_hi = p99[k - 1];
	r->max_ms = median(max, k);
	r->p99_corrected_ms = median(cp99, k);
	r->stalls = median(stalls, k);
	r->peak_dirty = (uint64_t)median(dirty, k);
	r->cpu_s_per_gib = median(cpu, k);
	fill_probes(o, n, r);
}

size_t matrix_rows(const struct matrix_outcome *o, size_t n,
		   const struct matrix_strategy *s, unsigned int nstrategies,
		   unsigned int nsettings, struct matrix_row *rows)
{
	size_t nrows = 0;

	(void)s;
	for (unsigned int set = 0; set < (nsettings ? nsettings : 1); set++) {
		for (unsigned int st = 0; st < nstrategies; st++) {
			struct matrix_row *r = &rows[nrows];
			bool ran = false;

			for (size_t i = 0; i < n; i++)
				ran |= o[i].strategy == st && o[i].setting == set;
			if (!ran)
				continue;	/* a matrix cut short */
			memset(r, 0, sizeof(*r));
			r->strategy = st;
			r->setting = set;
			fill_row(o, n, r);
			nrows++;
		}
	}
	return nrows;
}

static const char *const verdict_words[MX_VERDICT_NR] = {
	[MX_BASELINE] = "baseline", [MX_UNSUPPORTED] = "unsupported",
	[MX_FAILED] = "failed", [MX_RESPONSIVE] = "within the target",
	[MX_SLUGGISH] = "over the target", [MX_FROZEN] = "frozen",
	[MX_NOT_JUDGED] = "not judged",
};

const char *matrix_verdict_word(enum matrix_verdict v)
{
	return v < MX_VERDICT_NR ? verdict_words[v] : "?";
}

/* A row the others are weighed against: it wrote, at the disk's rate. */
static bool judged(const struct matrix_row *r, const struct matrix_strategy *s)
{
	return r->runs && !s[r->strategy].idle && !r->page_cache;
}

bool matrix_row_p99_shown(const struct matrix_row *r)
{
	return hist_percentile_shown(0.99, (uint64_t)r->min_count);
}

double matrix_row_tail_ms(const struct matrix_row *r)
{
	return matrix_row_p99_shown(r) ? r->p99_ms : r->max_ms;
}

static enum matrix_verdict evidence(const struct matrix_row *r)
{
	uint64_t n = (uint64_t)r->count;

	if (hist_judge(0.99, n, r->over_frozen) == HIST_OVER)
		return MX_FROZEN;
	switch (hist_judge(0.99, n, r->over)) {
	case HIST_OVER:
		return MX_SLUGGISH;
	case HIST_WITHIN:
		return MX_RESPONSIVE;
	default:
		return MX_NOT_JUDGED;
	}
}

int matrix_judge(struct matrix_row *rows, size_t n, const struct matrix_strategy *s)
{
	double fastest = 0;
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (judged(&rows[i], s) && rows[i].mibps > fastest)
			fastest = rows[i].mibps;
	for (size_t i = 0; i < n; i++) {
		struct matrix_row *r = &rows[i];

		r->ratio = fastest > 0 && judged(r, s) ? r->mibps / fastest : 0;
		if (s[r->strategy].idle)
			r->verdict = r->runs ? MX_BASELINE : MX_FAILED;
		else if (r->unsupported && !r->runs)
			r->verdict = MX_UNSUPPORTED;
		else if (!r->runs)
			r->verdict = MX_FAILED;
		else
			r->verdict = evidence(r);
		r->front = judged(r, s);
		for (size_t j = 0; j < n && r->front; j++) {
			const struct matrix_row *q = &rows[j];

			/* rates this close are equal: a disk's noise is no
			 * merit */
			double same = r->mibps * MATRIX_SAME_RATE_PCT / 100.0;

			if (j == i || !judged(q, s) || q->setting != r->setting)
				continue;
			double qt = matrix_row_tail_ms(q), rt = matrix_row_tail_ms(r);

			if (q->mibps >= r->mibps - same && qt <= rt &&
			    (q->mibps > r->mibps + same || qt < rt))
				r->front = false;
		}
		if (judged(r, s) && r->verdict == MX_RESPONSIVE &&
		    (best < 0 || r->mibps > rows[best].mibps))
			best = (int)i;
	}
	return best;
}
