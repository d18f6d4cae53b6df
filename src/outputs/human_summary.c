/* human_summary.c - the summary (see human_summary.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"

#include "human_adapt.h"
#include "human_analysis.h"
#include "human_culprits.h"
#include "human_trace.h"
#include "human_verdict.h"
#include "outputs/human_summary.h"
#include "outputs/sink.h"
#include "lib/term.h"
#include "lib/units.h"

static void print_split(FILE *out,
			const struct ws_summary *sum)
{
	char line[320], paused[32];
	struct ws_buf b = WS_BUF(line);

	for (int t = 0; t < WS_T_NR; t++) {
		/* write 0% says something, unless the writes were queued */
		if (!sum->time_ns[t] &&
		    (t != WS_T_WRITE || sum->time_ns[WS_T_SUBMIT]))
			continue;
		ws_buf_item(&b, " · ", "%s %.0f%%", ws_timer_words((enum ws_timer)t),
			    sum->writers_ns ? 100.0 * (double)sum->time_ns[t] /
					      (double)sum->writers_ns : 0.0);
		/* traced: how much of write() the dirty limit's pauses were */
		if (t == WS_T_WRITE && sum->block.on && sum->journal.dirty_on &&
		    sum->journal.writer_paused_ns)
			ws_buf_item(&b, " ", "(of it paused by the dirty limit %s)",
				    units_format_duration(paused, sizeof(paused),
							  sum->journal.writer_paused_ns));
	}
	fprintf(out, "  %-8s %s   → %s\n", sum->ntargets ? "writers" : "writer",
		line, ws_limit_words(sum->limit));
}

#define CAUSES_SHOWN 5	/* stalls explained one by one */

/* " (6.59 GiB written)" or " at 6.59 GiB written": where a stall fell
 * in the writer's bytes; "" in a watch, which writes nothing. */
static const char *written_words(char *buf, size_t len, bool watch, bool paren,
				 uint64_t bytes)
{
	char a[32];

	if (watch)
		buf[0] = '\0';
	else
		snprintf(buf, len, paren ? " (%s written)" : " at %s written",
			 units_format_size(a, sizeof(a), bytes));
	return buf;
}

/* A traced run: stalls by cause, then the first few with their evidence. */
static void print_causes(FILE *out, const struct ws_probe_summary *ps,
			 const struct ws_culprits *cul, bool watch)
{
	unsigned int count[WS_CAUSE_NR] = { 0 }, shown = 0;
	char a[32], b[32], c[32], why[WS_STALL_WORDS_LEN], who[WS_STALL_WORDS_LEN];
	const char *sep = "           why: ";

	for (unsigned int i = 0; i < ps->nrecorded; i++) {
		enum ws_stall_cause k = ps->stalls[i].reason.cause;

		count[k < WS_CAUSE_NR ? k : WS_CAUSE_UNKNOWN]++;
	}
	for (int k = WS_CAUSE_DEVICE; k < WS_CAUSE_NR; k++)
		if (count[k]) {
			fprintf(out, "%s%s %u", sep, ws_stall_cause_name((enum ws_stall_cause)k), count[k]);
			sep = ", ";
		}
	if (ps->nstalls > ps->nrecorded)
		fprintf(out, " (of the first %u stalls)", ps->nrecorded);
	fputc('\n', out);
	for (unsigned int i = 0; i < ps->nrecorded && shown < CAUSES_SHOWN; i++, shown++) {
		const struct ws_stall *st = &ps->stalls[i];

		ws_stall_culprit_words(&st->culprits, cul, watch, who, sizeof(who));
		fprintf(out, "           at %s%s, %s: %s: %s%s%s\n",
			units_format_duration(a, sizeof(a), st->start_ns),
			written_words(b, sizeof(b), watch, true, st->writer_bytes),
			units_format_duration(c, sizeof(c), st->duration_ns),
			ws_stall_cause_name(st->reason.cause),
			ws_stall_words(st, ps->name, why, sizeof(why)), who[0] ? "; " : "", who);
	}
	if (ps->nrecorded > shown)
		fprintf(out, "           and %u more (in the JSON result)\n", ps->nrecorded - shown);
}

static void print_stalls(FILE *out, const struct ws_run *run,
			 const struct ws_probe_summary *ps, const struct ws_culprits *cul)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	if (!ps->nstalls) {
		fprintf(out, "           no stalls ≥ %s\n",
			units_format_duration(a, sizeof(a), run->set.stall_ns));
		return;
	}
	fprintf(out, "           %llu stall%s ≥ %s, %s in total, longest %s%s (Dirty %s, Writeback %s)\n",
		(unsigned long long)ps->nstalls, ps->nstalls == 1 ? "" : "s",
		units_format_duration(a, sizeof(a), run->set.stall_ns),
		units_format_duration(b, sizeof(b), ps->stall_total_ns),
		units_format_duration(c, sizeof(c), ps->longest.duration_ns),
		written_words(d, sizeof(d), run->set.watch, false, ps->longest.writer_bytes),
		units_format_size(e, sizeof(e), ps->longest.dirty),
		units_format_size(f, sizeof(f), ps->longest.writeback));
	if (ps->nrecorded && ps->stalls[0].reason.cause) {
		print_causes(out, ps, cul, run->set.watch);
	} else if (ps->nrecorded) {
		unsigned int shown = ps->nrecorded < 5 ? ps->nrecorded : 5;

		fputs("           began at", out);
		for (unsigned int i = 0; i < shown; i++)
			fprintf(out, "%s %s (%s, %s)", i ? "," : "",
				units_format_duration(a, sizeof(a), ps->stalls[i].start_ns),
				units_format_size(b, sizeof(b), ps->stalls[i].writer_bytes),
				units_format_duration(c, sizeof(c), ps->stalls[i].duration_ns));
		if (ps->nstalls > shown)
			fprintf(out, " and %llu more", (unsigned long long)(ps->nstalls - shown));
		fputs("   (time, written, how long)\n", out);
	}
}

/* Only the percentiles n samples support (hist.h); returns the first
 * one it does not (its q), or 0. */
static double put_percentiles(FILE *out, uint64_t n, const uint64_t *v,
			      uint64_t max)
{
	static const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	static const char *const name[] = { "p50", "p90", "p99", "p99.9" };
	char a[32];

	if (n == 1) {
		fprintf(out, ", %s", units_format_duration(a, sizeof(a), max));
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
		if (!hist_percentile_shown(q[i], n))
			break;
		fprintf(out, ", %s %s", name[i], units_format_duration(a, sizeof(a), v[i]));
	}
	if (n)
		fprintf(out, ", max %s", units_format_duration(a, sizeof(a), max));
	for (size_t i = 0; n > 1 && i < ARRAY_SIZE(q); i++)
		if (!hist_percentile_shown(q[i], n))
			return q[i];
	return 0;
}

static void print_probe(FILE *out, const struct ws_run *run,
			const struct ws_probe_summary *ps,
			const struct ws_culprits *cul)
{
	const uint64_t raw[] = { ps->p50, ps->p90, ps->p99, ps->p999 };
	const uint64_t cor[] = { ps->c_p50, 0, ps->c_p99, ps->c_p999 };
	char a[32], why[128];
	double missing;

	fprintf(out, "  %-8s %llu probe%s", ps->name, (unsigned long long)ps->count,
		ps->count == 1 ? "" : "s");
	missing = put_percentiles(out, ps->count, raw, ps->max);
	if (ps->count > 1 && missing)
		fprintf(out, "   (raw; %s)\n", ws_percentile_needs_words(missing, a, sizeof(a)));
	else if (ps->count > 1)
		fputs("   (raw: as measured)\n", out);
	else
		fputc('\n', out);
	/* the corrected samples are made up of the raw ones: the raw count
	 * is the evidence */
	if (ps->c_count > ps->count && hist_percentile_shown(0.5, ps->count)) {
		fprintf(out, "           corrected for %llu probe%s that slow ones kept from running: p50 %s",
			(unsigned long long)(ps->c_count - ps->count),
			ps->c_count - ps->count == 1 ? "" : "s",
			units_format_duration(a, sizeof(a), cor[0]));
		if (hist_percentile_shown(0.99, ps->count))
			fprintf(out, ", p99 %s", units_format_duration(a, sizeof(a), cor[2]));
		if (hist_percentile_shown(0.999, ps->count))
			fprintf(out, ", p99.9 %s", units_format_duration(a, sizeof(a), cor[3]));
		fputc('\n', out);
		if (ps->c_p50 < ps->p50)
			fputs("           (each counted at what it would have waited, the later ones less: so the corrected p50 can be under the raw one)\n",
			      out);
	}
	print_stalls(out, run, ps, cul);
	if (ps->ntop) {
		fputs("           waiting in", out);
		for (unsigned int i = 0; i < ps->ntop; i++)
			fprintf(out, "%s %s ×%llu", i ? "," : "", ps->sites[i].name,
				(unsigned long long)ps->sites[i].samples);
		fputs(" (samples while stalled)\n", out);
	}
	if (ps->after_end)
		fprintf(out, "           %llu probe%s ended after the %s did, the longest taking %s (in the figures above, in no interval)\n",
			(unsigned long long)ps->after_end, ps->after_end == 1 ? "" : "s",
			run->set.watch ? "watch" : "writer",
			units_format_duration(a, sizeof(a), ps->after_end_max_ns));
	if (ps->errors)
		fprintf(out, "           %llu failed, counted apart from the latencies (last: %s%s%s)\n",
			(unsigned long long)ps->errors,
			ws_probe_failure_words(&ps->last_fail, ps->last_error, why, sizeof(why)),
			ps->last_stderr[0] ? ": " : "", ps->last_stderr);
}

static void print_results(FILE *out, const struct ws_settings *set,
			  const char *more)
{
	const char *files[] = { set->json_path, set->csv_path, set->svg_path,
				set->prom_path };
	char line[1024];
	struct ws_buf b = WS_BUF(line);

	static const char *const what[] = { "JSON", "CSV", "SVG", "metrics" };

	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (files[i] && !strcmp(files[i], "-"))
			ws_buf_item(&b, " · ", "%s on stdout", what[i]);
		else if (files[i])
			ws_buf_item(&b, " · ", "%s", files[i]);
	if (b.len)
		fprintf(out, "  results  %s%s%s\n", line, more ? "   " : "", more ? more : "");
	else if (more)
		fprintf(out, "  details  %s\n", more);
}

static void print_ending(FILE *out, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	const struct ws_ending *e = &sum->ending;
	char detail[192];

	switch (e->reason) {
	case WS_STOP_STEADY:
		fprintf(out, "  stopped  steady state held (--until-steady)\n");
		break;
	case WS_STOP_NOT_STEADY:
		fprintf(out, "  stopped  not steady after %u rounds (--steady-max-rounds)\n",
			sum->analysis ? sum->analysis->steady.judged_rounds : 0);
		break;
	case WS_STOP_SIGNAL:
		if (run->set.watch)
			fprintf(out, "  stopped  by %s\n", e->signal ? e->signal : "a signal");
		else
			fprintf(out, "  stopped  by %s; what was written was on disk when the clock stopped\n",
				e->signal ? e->signal : "a signal");
		break;
	case WS_STOP_ERROR:
		fprintf(out, "  failed   %s at offset %llu: %s%s%s\n",
			e->err_op ? e->err_op : "I/O",
			(unsigned long long)e->err_offset, strerror(e->err),
			e->detail ? "; " : "",
			ws_detail_words(e->detail, e->detail_bytes, run->set.pace,
					detail, sizeof(detail)));
		break;
	default:
		break;
	}
}

void human_verify_print(FILE *out, const char *lead, const char *path,
			const struct ws_verify *v)
{
	char a[32], b[32], c[32];

	if (!v->blocks && !v->err) {
		fprintf(out, "%sverify   %s: no whole 4 KiB block to check\n", lead, path);
		fprintf(out, "%sNOT verified: nothing to verify\n", lead);
		return;
	}
	fprintf(out, "%sverify   %s: %llu blocks of 4 KiB (%s); run %016llx wrote 0 B–%s, newest pass %u to %s\n",
		lead, path, (unsigned long long)v->blocks,
		units_format_size(a, sizeof(a), v->blocks * WS_BLOCK),
		(unsigned long long)v->run, units_format_size(c, sizeof(c), v->run_end),
		v->last_pass, units_format_size(b, sizeof(b), v->last_pass_end));
	fprintf(out, "%s         %llu ok, %llu corrupt, %llu misplaced, %llu lost (an older pass), %llu unstamped, %llu of another run\n",
		lead, (unsigned long long)v->count[WS_BLOCK_OK],
		(unsigned long long)v->count[WS_BLOCK_CORRUPT],
		(unsigned long long)v->count[WS_BLOCK_MISPLACED],
		(unsigned long long)v->stale,
		(unsigned long long)v->count[WS_BLOCK_UNSTAMPED],
		(unsigned long long)v->count[WS_BLOCK_OTHER_RUN]);
	for (unsigned int i = 0; i < v->nlisted; i++) {
		const struct ws_verify_bad *bad = &v->listed[i];

		fprintf(out, "%s         at %s: %s", lead,
			units_format_size(a, sizeof(a), bad->offset),
			bad->stale ? "lost: an older pass" : ws_block_state_words(bad->state));
		if (bad->state == WS_BLOCK_MISPLACED)
			fprintf(out, " (written for offset %s)",
				units_format_size(b, sizeof(b), bad->found));
		fputc('\n', out);
	}
	if (v->older_tail)
		fprintf(out, "%s         after %s: %llu blocks (%s) of an earlier run, %016llx, intact: its tail, past where this run rewrote the file in place (--truncate empties the file first)\n",
			lead, units_format_size(a, sizeof(a), v->run_end),
			(unsigned long long)v->older_tail,
			units_format_size(b, sizeof(b), v->older_tail * WS_BLOCK),
			(unsigned long long)v->older_run);
	if (v->err)
		fprintf(out, "%s         reading back failed: %s\n", lead, strerror(v->err));
	fprintf(out, "%s%s\n", lead, v->clean ? "verified: every block as written" :
		"NOT verified: some blocks are not as written");
}

/* What the tool itself cost: when it is near a core per GiB/s, the tool,
 * not the disk, may be the limit. */
static void print_cpu(FILE *out, const struct ws_summary *sum)
{
	uint64_t rest;

	if (!sum->cpu_ns)
		return;
	rest = sum->cpu_ns > sum->cpu_writer_ns + sum->cpu_probes_ns ?
	       sum->cpu_ns - sum->cpu_writer_ns - sum->cpu_probes_ns : 0;
	fprintf(out, "  cpu      %.2f s, %.3f s per GiB written: writer %.2f s, probes %.2f s, the rest %.2f s (setup, reporting)",
		(double)sum->cpu_ns / 1e9, sum->cpu_s_per_gib,
		(double)sum->cpu_writer_ns / 1e9, (double)sum->cpu_probes_ns / 1e9,
		(double)rest / 1e9);
	if (sum->verified)
		fprintf(out, "; reading back for --verify %.2f s more",
			(double)sum->cpu_verify_ns / 1e9);
	fputc('\n', out);
}

static void print_target(FILE *out, const struct ws_run *top,
			 const struct ws_run *run, const struct ws_summary *sum)
{
	char line[160];

	sink_format_result(line, sizeof(line), sum);
	fprintf(out, "  target %u %s: %s\n", run->number, run->target.path, line);
	print_split(out, sum);
	if (sum->have_adapt)
		human_adapt_state_print(out, &top->probes, sum);
	if (sum->analysis && sum->bytes)
		human_analysis_print(out, run, sum);
	print_ending(out, run, sum);
	if (sum->verified)
		human_verify_print(out, "  ", run->target.path, &sum->verify);
}

/* Everything: the verdict, then each layer's figures and evidence. */
static void print_details(FILE *out, const struct ws_run *run,
			  const struct ws_summary *sum)
{
	char a[32];

	if (!run->set.watch) {	/* a watch has no writer to split */
		print_split(out, sum);
		print_cpu(out, sum);
	}
	human_trace_print(out, sum);
	human_culprits_details(out, sum);
	if (sum->wraps)
		fprintf(out, "  file     %s, overwritten in place %llu time%s\n",
			units_format_size(a, sizeof(a), run->plan.file_size),
			(unsigned long long)sum->wraps, sum->wraps == 1 ? "" : "s");
	for (unsigned int i = 0; i < sum->nprobes; i++)
		print_probe(out, run, &sum->probes[i], &sum->culprits);
	human_adapt_print(out, run, sum);
	if (sum->analysis && sum->bytes)	/* nothing written: nothing to say */
		human_analysis_print(out, run, sum);
	for (unsigned int i = 0; i < sum->ntargets; i++)
		print_target(out, run, &run->targets[i], &sum->targets[i]);
	print_results(out, &run->set, NULL);
	if (sum->ntargets) {	/* each said its own */
		if (sum->ending.reason == WS_STOP_SIGNAL)
			print_ending(out, run, sum);
		if (sum->verified)
			fprintf(out, "  %s\n", sum->verify.clean ?
				"verified: every block of every target as written" :
				"NOT verified: some blocks are not as written");
		return;
	}
	print_ending(out, run, sum);
	if (sum->verified)
		human_verify_print(out, "  ", run->target.path, &sum->verify);
}

struct summary_ctx {
	const struct ws_run *run;
	const struct ws_summary *sum;
	unsigned int targets_shown;
};

static void verdict_part(FILE *out, const struct summary_ctx *c)
{
	human_verdict_print(out, c->run, c->sum);
	if (c->sum->have_adapt)
		human_adapt_brief(out, &c->run->probes, c->sum);
}

static void targets_part(FILE *out, const struct summary_ctx *c)
{
	char a[32];
	unsigned int n = c->sum->ntargets, shown = c->targets_shown;

	for (unsigned int i = 0; i < shown; i++) {
		const struct ws_summary *t = &c->sum->targets[i];

		fprintf(out, "  target %u %s: %s in %.2f s (%.1f MiB/s)%s\n",
			c->run->targets[i].number, c->run->targets[i].target.path,
			units_format_size(a, sizeof(a), t->bytes), (double)t->elapsed_ns / 1e9,
			t->mibps, t->ending.reason == WS_STOP_ERROR ? ", failed" : "");
	}
	if (shown < n)
		fprintf(out, "           and %u more targets (-v)\n", n - shown);
}

static void verify_brief(FILE *out, const struct ws_verify *v)
{
	if (v->clean) {
		fputs("  verified every block as written\n", out);
		return;
	}
	fprintf(out, "  NOT verified: %llu corrupt, %llu misplaced, %llu lost of %llu blocks\n",
		(unsigned long long)v->count[WS_BLOCK_CORRUPT],
		(unsigned long long)v->count[WS_BLOCK_MISPLACED],
		(unsigned long long)v->stale, (unsigned long long)v->blocks);
}

static void tail_part(FILE *out, const struct summary_ctx *c)
{
	const struct ws_summary *sum = c->sum;

	if (sum->analysis && sum->bytes)
		human_analysis_curve(out, sum, HUMAN_COLUMNS);
	print_ending(out, c->run, sum);
	if (sum->verified)
		verify_brief(out, &sum->verify);
	print_results(out, &c->run->set, "(-v: details)");
}

/* part's lines wrapped at HUMAN_COLUMNS, and how many */
static char *render(void (*part)(FILE *, const struct summary_ctx *),
		    const struct summary_ctx *c, unsigned int *lines)
{
	char *raw = NULL, *text = NULL;
	size_t rlen = 0, tlen = 0;
	FILE *m = open_memstream(&raw, &rlen);

	*lines = 0;
	if (!m)
		return NULL;
	part(m, c);
	if (fclose(m))
		return NULL;
	m = open_memstream(&text, &tlen);
	if (m) {
		term_wrap(m, raw, HUMAN_COLUMNS);
		if (fclose(m)) {
			free(text);
			text = NULL;
		}
	}
	free(raw);
	for (size_t i = 0; text && i < tlen; i++)
		*lines += text[i] == '\n';
	return text;
}

void human_summary_print(FILE *out, const struct ws_run *run,
			 const struct ws_summary *sum, bool verbose)
{
	struct summary_ctx c = { run, sum, sum->ntargets };
	unsigned int nv, nt, ntail, room;
	char *v, *t, *tail;

	if (verbose) {
		verdict_part(out, &c);
		print_details(out, run, sum);
		return;
	}
	v = render(verdict_part, &c, &nv);
	tail = render(tail_part, &c, &ntail);
	room = HUMAN_SUMMARY_LINES > nv + ntail ? HUMAN_SUMMARY_LINES - nv - ntail : 0;
	if (c.targets_shown > room)
		c.targets_shown = room ? room - 1 : 0;
	t = sum->ntargets ? render(targets_part, &c, &nt) : NULL;
	if (!v || !tail) {	/* no memory for the text: as it comes */
		human_verdict_print(out, run, sum);
		print_details(out, run, sum);
	} else {
		fputs(v, out);
		if (t)
			fputs(t, out);
		fputs(tail, out);
	}
	free(v);
	free(t);
	free(tail);
}
