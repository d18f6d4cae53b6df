/* human_analysis.c - the summary's analysis lines (see human_analysis.h). */
#include <stdio.h>
#include <string.h>

#include "human_analysis.h"
#include "lib/units.h"

/* "80.0 MiB/s for 0–1.00 GiB → 32.0 MiB/s at 1.00–3.90 GiB → ..." */
static void print_phases(FILE *out, const struct ws_analysis *a)
{
	char r[32], f[32], t[32], v[128];
	const char *verdict = ws_phases_verdict_words(a, v, sizeof(v));

	fputs("  phases   ", out);
	if (verdict) {
		fprintf(out, "%s\n", verdict);
		return;
	}
	for (unsigned int i = 0; i < a->nphases; i++) {
		const struct ws_phase *p = &a->phases[i];

		units_format_size(f, sizeof(f), p->from_bytes);
		units_format_size(t, sizeof(t), p->to_bytes);
		snprintf(r, sizeof(r), "%.1f MiB/s", p->mibps);
		if (i == 0)
			fprintf(out, "%s for %s–%s", r, f, t);
		else if (i + 1 == a->nphases)
			fprintf(out, " → %s from %s", r, f);
		else
			fprintf(out, " → %s at %s–%s", r, f, t);
	}
	fputc('\n', out);
}

/* cols 0: with the cell's size and the top; else what fits in cols */
void human_analysis_curve(FILE *out, const struct ws_summary *sum, unsigned int cols)
{
	static const char *const bars[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	char a[32], b[32], tail[160];

	if (sum->ncurve < 2)
		return;
	units_format_size(a, sizeof(a), sum->bytes);
	if (!cols)
		snprintf(tail, sizeof(tail), "  MiB/s over %s written, %s a cell, top %.1f MiB/s",
			 a, units_format_size(b, sizeof(b), sum->curve_bytes), sum->curve_top);
	else if (11 + sum->ncurve + 31 + strlen(a) <= cols)
		snprintf(tail, sizeof(tail), "  MiB/s over %s, top %.0f MiB/s", a, sum->curve_top);
	else
		snprintf(tail, sizeof(tail), "  MiB/s over %s", a);
	fputs("  curve    ", out);
	for (size_t i = 0; i < sum->ncurve; i++) {
		double f = sum->curve_top > 0 ? sum->curve[i].mibps / sum->curve_top : 0;
		int level = (int)(f * 7.0 + 0.5);

		fputs(bars[level < 0 ? 0 : level > 7 ? 7 : level], out);
	}
	fprintf(out, "%s\n", tail);
}

/* "15.0 MiB/s for 0 B–190 MiB" */
static char *describe_stretch(char *buf, size_t len, const struct ws_stretch *st)
{
	char f[32], t[32];

	snprintf(buf, len, "%.1f MiB/s for %s–%s", st->mibps,
		 units_format_size(f, sizeof(f), st->from_bytes),
		 units_format_size(t, sizeof(t), st->to_bytes));
	return buf;
}

/* Latency beside bandwidth, as SNIA PTS reports them. */
static void print_stretch_device(FILE *out, const struct ws_steady *st,
				 const struct ws_stretch *s)
{
	unsigned int rounds = s->last_round - s->first_round + 1;
	char a[32], b[32], c[32], d[32], n[48];

	if (!st->has_dev || !s->dev_rounds)
		return;
	if (s->dev_rounds == rounds)
		snprintf(n, sizeof(n), "its %u rounds", rounds);
	else
		snprintf(n, sizeof(n), "%u of its %u rounds had any", s->dev_rounds, rounds);
	fprintf(out, "           device writes per round (%s): p50 %s–%s, p99 %s–%s, issue to completion\n",
		n,
		units_format_duration(a, sizeof(a), s->dev_p50_lo_ns),
		units_format_duration(b, sizeof(b), s->dev_p50_hi_ns),
		units_format_duration(c, sizeof(c), s->dev_p99_lo_ns),
		units_format_duration(d, sizeof(d), s->dev_p99_hi_ns));
}

static void print_steady(FILE *out, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	const struct ws_steady *st = &sum->analysis->steady;
	const struct ws_analysis_params *p = &sum->analysis->params;
	char fig[96], rule[256], x[32], y[32], z[64], crit[96], worst[96];

	ws_steady_criterion_words(&run->params, crit, sizeof(crit));
	units_format_duration(y, sizeof(y), st->round_ns ? st->round_ns : p->round_ns);
	if (p->precondition_bytes)
		snprintf(z, sizeof(z), "after %s of preconditioning",
			 units_format_size(x, sizeof(x), p->precondition_bytes));
	else
		snprintf(z, sizeof(z), "not preconditioned");
	snprintf(rule, sizeof(rule), "%s; %u rounds of %s, %s", crit,
		 p->steady_window, y, z);
	if (!st->judged) {
		fprintf(out, "  steady   %s: %s\n", ws_steady_outcome_words(WS_STEADY_NOT_JUDGED),
			ws_steady_unjudged_words(p->steady_window, st->round_ns ? st->round_ns : p->round_ns,
						 p->precondition_bytes, crit, rule, sizeof(rule)));
		return;
	}
	if (st->reached) {
		fprintf(out, "  steady   from %s (%s) to the end: %.1f MiB/s, %s (%s)\n",
			units_format_size(x, sizeof(x), st->final.from_bytes),
			units_format_duration(z, sizeof(z), st->final.from_ns),
			st->final.mibps,
			ws_steady_figures_words(&run->params, &st->final, worst, sizeof(worst)),
			rule);
		print_stretch_device(out, st, &st->final);
		if (st->earlier)
			fprintf(out, "           earlier steady at %s, then changed\n",
				describe_stretch(fig, sizeof(fig), &st->before));
		return;
	}
	if (st->earlier)
		fprintf(out, "  steady   at %s, then changed; not steady at the end (%s)\n",
			describe_stretch(fig, sizeof(fig), &st->before), rule);
	else
		fprintf(out, "  steady   %s (%s)\n", ws_steady_outcome_words(WS_STEADY_NOT_REACHED), rule);
}

void human_analysis_print(FILE *out, const struct ws_run *run,
			  const struct ws_summary *sum)
{
	const struct ws_analysis *a = sum->analysis;
	char x[32], y[32];

	if (a->nphases)
		print_phases(out, a);
	if (a->slowed)
		fprintf(out, "  slowed   below %.0f%% of the initial %.1f MiB/s from %s written (%s)%s\n",
			a->params.slowdown_fraction * 100, a->initial_mibps,
			units_format_size(x, sizeof(x), a->slowdown_bytes),
			units_format_duration(y, sizeof(y), a->slowdown_ns),
			run->marks_accepted ?
			": --pace none measures write(), which runs at page-cache speed until the dirty limit" : "");
	print_steady(out, run, sum);
	human_analysis_curve(out, sum, 0);
}

