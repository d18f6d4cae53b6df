/* human_verdict.c - the summary's first lines: what was written and how
 * fast, what the probes felt and why, in at most HUMAN_VERDICT_LINES
 * lines of at most 80 columns (see human_verdict.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"

#include "human_culprits.h"
#include "human_verdict.h"
#include "outputs/sink.h"
#include "lib/term.h"
#include "lib/units.h"

/* The first of n texts that fits the line after its key (the last if
 * none does). */
static void put_fitting(FILE *out, const char *key, char (*text)[256], int n)
{
	int i = 0;

	while (i + 1 < n && 11 + term_width(text[i], strlen(text[i])) > HUMAN_COLUMNS)
		i++;
	fprintf(out, "  %-8s %s\n", key, text[i]);
}

enum { SAY_P50 = 1, SAY_TAIL = 2, SAY_WORD = 4 };

/* p50 and the highest of p99 and p90 the sample supports, then max;
 * say: which of them (SAY_*). */
static void probe_figures(char *line, size_t len, const struct ws_probe_summary *ps,
			  unsigned int say)
{
	struct ws_buf b = ws_buf_init(line, len);
	char a[32];

	if (!ps->count) {
		ws_buf_printf(&b, "no probe ended");
	} else if (ps->count == 1) {
		ws_buf_printf(&b, "1 probe: %s", units_format_duration(a, sizeof(a), ps->max));
	} else {
		ws_buf_printf(&b, "%llu%s:", (unsigned long long)ps->count,
			      say & SAY_WORD ? " probes" : "");
		if ((say & SAY_P50) && hist_percentile_shown(0.5, ps->count))
			ws_buf_printf(&b, " p50 %s,", units_format_duration(a, sizeof(a), ps->p50));
		if ((say & SAY_TAIL) && hist_percentile_shown(0.99, ps->count))
			ws_buf_printf(&b, " p99 %s,", units_format_duration(a, sizeof(a), ps->p99));
		else if ((say & SAY_TAIL) && hist_percentile_shown(0.9, ps->count))
			ws_buf_printf(&b, " p90 %s,", units_format_duration(a, sizeof(a), ps->p90));
		ws_buf_printf(&b, " max %s", units_format_duration(a, sizeof(a), ps->max));
	}
	if (ps->nstalls)
		ws_buf_printf(&b, ", %llu stall%s", (unsigned long long)ps->nstalls,
			      ps->nstalls == 1 ? "" : "s");
	if (ps->errors)
		ws_buf_printf(&b, ", %llu failed", (unsigned long long)ps->errors);
}

/* room: the lines left; probes beyond it share one line */
static unsigned int print_probes(FILE *out, const struct ws_summary *sum,
				 unsigned int room)
{
	char rest[256], a[32];
	struct ws_buf b = WS_BUF(rest);
	uint64_t max = 0, stalls = 0;
	unsigned int alone = sum->nprobes <= room ? sum->nprobes : room ? room - 1 : 0;

	for (unsigned int i = 0; i < alone; i++) {
		static const unsigned int says[] = {
			SAY_P50 | SAY_TAIL | SAY_WORD, SAY_TAIL | SAY_WORD, SAY_TAIL, 0,
		};
		char text[ARRAY_SIZE(says)][256];

		for (size_t k = 0; k < ARRAY_SIZE(says); k++)
			probe_figures(text[k], sizeof(text[k]), &sum->probes[i], says[k]);
		put_fitting(out, sum->probes[i].name, text, ARRAY_SIZE(says));
	}
	if (alone == sum->nprobes)
		return alone;
	for (unsigned int i = alone; i < sum->nprobes; i++) {
		ws_buf_item(&b, ", ", "%s", sum->probes[i].name);
		max = sum->probes[i].max > max ? sum->probes[i].max : max;
		stalls += sum->probes[i].nstalls;
	}
	ws_buf_printf(&b, ": the longest %s, %llu stall%s (-v)",
		      units_format_duration(a, sizeof(a), max),
		      (unsigned long long)stalls, stalls == 1 ? "" : "s");
	if (11 + term_width(rest, strlen(rest)) > HUMAN_COLUMNS)	/* their count, not names */
		snprintf(rest, sizeof(rest), "%u probes: the longest %s, %llu stall%s (-v)",
			 sum->nprobes - alone, a, (unsigned long long)stalls,
			 stalls == 1 ? "" : "s");
	fprintf(out, "  %-8s %s\n", alone ? "others" : "probes", rest);
	return alone + 1;
}

/* Untraced: where the stalled probes waited most, sampled. */
static unsigned int print_sites(FILE *out, const struct ws_summary *sum)
{
	const struct ws_site_count *top = NULL;
	char text[3][256];

	for (unsigned int i = 0; i < sum->nprobes; i++)
		if (sum->probes[i].ntop &&
		    (!top || sum->probes[i].sites[0].samples > top->samples))
			top = &sum->probes[i].sites[0];
	if (!top)
		return 0;
	snprintf(text[0], sizeof(text[0]), "not traced; the stalled probes waited most in %s", top->name);
	snprintf(text[1], sizeof(text[1]), "not traced; waited most in %s", top->name);
	snprintf(text[2], sizeof(text[2]), "not traced (-v: where they waited)");
	put_fitting(out, "", text, 3);
	return 1;
}

static unsigned int print_stalls(FILE *out, const struct ws_run *run,
				 const struct ws_summary *sum)
{
	struct ws_stall_tally t;
	char text[3][256], a[32], b[32], c[32], d[48] = "";

	ws_stall_tally(sum, &t);
	if (!t.n)
		return 0;
	units_format_duration(a, sizeof(a), run->set.stall_ns);
	units_format_duration(b, sizeof(b), t.total_ns);
	units_format_duration(c, sizeof(c), t.longest_ns);
	/* " at 6.59 GiB"; a watch has no bytes of its own to place it at */
	if (!run->set.watch)
		units_format_size(stpcpy(d, " at "), sizeof(d) - 4, t.longest_bytes);
	snprintf(text[0], sizeof(text[0]), "%llu ≥ %s, %s in all, longest %s (%s)%s",
		 (unsigned long long)t.n, a, b, c, t.longest_probe, d);
	snprintf(text[1], sizeof(text[1]), "%llu ≥ %s, %s in all, longest %s%s",
		 (unsigned long long)t.n, a, b, c, d);
	snprintf(text[2], sizeof(text[2]), "%llu ≥ %s, longest %s%s",
		 (unsigned long long)t.n, a, c, d);
	put_fitting(out, "stalls", text, 3);
	if (!t.traced)
		return 1 + print_sites(out, sum);
	fprintf(out, "           %s%s: %u of %u %sstalls, %s of %s\n",
		2 * t.main_ns > t.judged_ns ? "mostly " : "the most: ",
		ws_stall_cause_name(t.main), t.main_n, t.judged_n,
		t.judged_n < t.n ? "traced " : "",
		units_format_duration(a, sizeof(a), t.main_ns),
		units_format_duration(b, sizeof(b), t.judged_ns));
	return 2;
}

/* "240.0 MiB/s to 5.86 GiB → 56.4 MiB/s after"; middle phases give way
 * to "…" until the line fits. */
static void phases_words(struct ws_buf *b, const struct ws_analysis *a, unsigned int skip)
{
	char r[32];
	unsigned int keep_head = 1, n = a->nphases;

	for (unsigned int i = 0; i < n; i++) {
		const struct ws_phase *p = &a->phases[i];

		if (skip && i >= keep_head && i < keep_head + skip) {
			if (i == keep_head)
				ws_buf_printf(b, " → …");
			continue;
		}
		if (i)
			ws_buf_printf(b, " → ");
		if (i + 1 == n)
			ws_buf_printf(b, "%.1f MiB/s after", p->mibps);
		else
			ws_buf_printf(b, "%.1f MiB/s to %s", p->mibps,
				      units_format_size(r, sizeof(r), p->to_bytes));
	}
}

static unsigned int print_phases(FILE *out, const struct ws_summary *sum)
{
	const struct ws_analysis *a = sum->analysis;
	char line[512], x[32], y[32];

	if (a->nphases >= 2) {
		for (unsigned int skip = 0; skip + 2 <= a->nphases; skip++) {
			struct ws_buf b = WS_BUF(line);

			phases_words(&b, a, skip);
			if (term_width(line, strlen(line)) <= HUMAN_COLUMNS - 11)
				break;
		}
		fprintf(out, "  %-8s %s\n", "phases", line);
		return 1;
	}
	if (a->phases_verdict == WS_PHASES_TOO_SHORT || a->phases_verdict == WS_PHASES_TOO_MANY) {
		fprintf(out, "  %-8s %s\n", "phases", ws_phases_verdict_words(a, line, sizeof(line)));
		return 1;
	}
	if (!a->slowed)
		return 0;
	fprintf(out, "  slowed   below %.0f%% of the first %.1f MiB/s from %s (%s)\n",
		a->params.slowdown_fraction * 100, a->initial_mibps,
		units_format_size(x, sizeof(x), a->slowdown_bytes),
		units_format_duration(y, sizeof(y), a->slowdown_ns));
	return 1;
}

static unsigned int print_steady(FILE *out, const struct ws_run *run,
				 const struct ws_summary *sum)
{
	const struct ws_steady *st = &sum->analysis->steady;
	char x[32], fig[96], crit[96];

	if (!ws_steady_asked(&run->set))
		return 0;
	if (!st->judged)
		fprintf(out, "  steady   not judged: no window of %u rounds after preconditioning\n",
			sum->analysis->params.steady_window);
	else if (st->reached)
		fprintf(out, "  steady   from %s: %.1f MiB/s (%s)\n",
			units_format_size(x, sizeof(x), st->final.from_bytes), st->final.mibps,
			ws_steady_figures_words(&run->params, &st->final, fig, sizeof(fig)));
	else
		fprintf(out, "  steady   not reached (%s)\n",
			ws_steady_criterion_words(&run->params, crit, sizeof(crit)));
	return 1;
}

static unsigned int print_cost(FILE *out, const struct ws_summary *sum)
{
	const struct ws_observer_cost *o = &sum->observer;

	if (!sum->nprobes || !ws_observer_cost_shown(o))
		return 0;
	fprintf(out, "  cost     the probes slowed the writer %s %.1fx (estimated)\n",
		o->bound ? "at most" : "about", o->speedup);
	return 1;
}

/* "watched /home for 1h00m: 18.2 GiB from other processes" */
static void watch_headline(FILE *out, const struct ws_run *run, const struct ws_summary *sum)
{
	char d[24], b[24];

	fprintf(out, "watched %s for %s", run->target.path,
		units_format_duration(d, sizeof(d), sum->elapsed_ns));
	if (sum->culprits.traced)
		fprintf(out, ": %s written by other processes\n",
			units_format_size(b, sizeof(b), ws_culprits_others_written(&sum->culprits)));
	else
		fprintf(out, " (not traced: no culprits)\n");
}

/* The culprits' lines: what the probes (a line each, up to 3) leave, but
 * at least a row and the longest stall's line in a watch. */
static unsigned int culprit_room(const struct ws_run *run, const struct ws_summary *sum,
				 unsigned int used)
{
	unsigned int free = HUMAN_VERDICT_LINES > used ? HUMAN_VERDICT_LINES - used : 0;
	unsigned int probes = sum->nprobes < 3 ? sum->nprobes : 3;
	unsigned int least = run->set.watch ? 2 : 1;
	unsigned int room = free > probes ? free - probes : 0;

	if (room < least)	/* one line for the probes stays */
		room = free > 1 ? (least < free - 1 ? least : free - 1) : 0;
	return room;
}

unsigned int human_verdict_print(FILE *out, const struct ws_run *run,
				 const struct ws_summary *sum)
{
	char line[192], *after = NULL;
	size_t alen = 0;
	unsigned int n = 1, nafter = 0;
	FILE *m;

	sink_format_result(line, sizeof(line), sum);
	if (run->set.watch)
		watch_headline(out, run, sum);
	else if (sum->ntargets)
		fprintf(out, "%s by %u targets\n", line, sum->ntargets);
	else
		fprintf(out, "%s: %s\n", line, ws_limit_brief(sum->limit));
	if (sum->analysis && sum->bytes && !run->set.watch) {
		n += print_phases(out, sum);
		n += print_steady(out, run, sum);
	}
	/* what follows the probes first: they get the lines it leaves */
	m = open_memstream(&after, &alen);
	if (m) {
		nafter = print_stalls(m, run, sum) + print_cost(m, sum);
		nafter += human_culprits_verdict(m, run, sum, culprit_room(run, sum, n + nafter));
		if (fclose(m)) {
			free(after);
			after = NULL;
		}
	}
	if (!m || !after)	/* no memory: the probes get two lines */
		return n + print_probes(out, sum, 2) + print_stalls(out, run, sum) +
		       print_cost(out, sum);
	n += print_probes(out, sum, HUMAN_VERDICT_LINES > n + nafter ?
				    HUMAN_VERDICT_LINES - n - nafter : 1);
	fputs(after, out);
	free(after);
	return n + nafter;
}
