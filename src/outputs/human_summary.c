/* human_summary.c - the summary (see human_summary.h). */
#include <stdio.h>
#include <string.h>

#include "lib/hist.h"

#include "human_analysis.h"
#include "outputs/human_summary.h"
#include "outputs/sink.h"
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
		line, sum->limit_words);
}

#define CAUSES_SHOWN 5	/* stalls explained one by one */

/* A traced run: how many stalls each layer held, then the first few one
 * a line, each with its evidence (trace/stallcause.h's rules). */
static void print_causes(FILE *out, const struct ws_probe_summary *ps)
{
	unsigned int count[WS_CAUSE_NR] = { 0 }, shown = 0;
	char a[32], b[32], c[32], why[WS_STALL_WORDS_LEN];
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

		fprintf(out, "           at %s (%s written), %s: %s: %s\n",
			units_format_duration(a, sizeof(a), st->start_ns),
			units_format_size(b, sizeof(b), st->writer_bytes),
			units_format_duration(c, sizeof(c), st->duration_ns),
			ws_stall_cause_name(st->reason.cause),
			ws_stall_words(st, ps->name, why, sizeof(why)));
	}
	if (ps->nrecorded > shown)
		fprintf(out, "           and %u more (in the JSON result)\n", ps->nrecorded - shown);
}

static void print_stalls(FILE *out, const struct ws_run *run,
			 const struct ws_probe_summary *ps)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	if (!ps->nstalls) {
		fprintf(out, "           no stalls ≥ %s\n",
			units_format_duration(a, sizeof(a), run->set.stall_ns));
		return;
	}
	fprintf(out, "           %llu stall%s ≥ %s, %s in total, longest %s at %s written (Dirty %s, Writeback %s)\n",
		(unsigned long long)ps->nstalls, ps->nstalls == 1 ? "" : "s",
		units_format_duration(a, sizeof(a), run->set.stall_ns),
		units_format_duration(b, sizeof(b), ps->stall_total_ns),
		units_format_duration(c, sizeof(c), ps->longest.duration_ns),
		units_format_size(d, sizeof(d), ps->longest.writer_bytes),
		units_format_size(e, sizeof(e), ps->longest.dirty),
		units_format_size(f, sizeof(f), ps->longest.writeback));
	if (ps->nrecorded && ps->stalls[0].reason.cause) {
		print_causes(out, ps);
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

/* ", p50 X, p90 Y": the percentiles n samples support (hist.h: 10 beyond
 * each), then ", max M"; with one sample, that sample alone.  Returns
 * the first percentile n does not support (its q), or 0. */
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
			const struct ws_probe_summary *ps)
{
	const uint64_t raw[] = { ps->p50, ps->p90, ps->p99, ps->p999 };
	const uint64_t cor[] = { ps->c_p50, 0, ps->c_p99, ps->c_p999 };
	char a[32];
	double missing;

	fprintf(out, "  %-8s %llu probe%s", ps->name, (unsigned long long)ps->count,
		ps->count == 1 ? "" : "s");
	missing = put_percentiles(out, ps->count, raw, ps->max);
	if (ps->count > 1 && missing)
		fprintf(out, "   (raw; p%g needs %lu probes)\n", missing * 100,
			hist_min_samples(missing));
	else if (ps->count > 1)
		fputs("   (raw: as measured)\n", out);
	else
		fputc('\n', out);
	if (ps->c_count > ps->count && hist_percentile_shown(0.5, ps->c_count)) {
		fprintf(out, "           corrected for %llu probe%s that slow ones kept from running: p50 %s",
			(unsigned long long)(ps->c_count - ps->count),
			ps->c_count - ps->count == 1 ? "" : "s",
			units_format_duration(a, sizeof(a), cor[0]));
		if (hist_percentile_shown(0.99, ps->c_count))
			fprintf(out, ", p99 %s", units_format_duration(a, sizeof(a), cor[2]));
		if (hist_percentile_shown(0.999, ps->c_count))
			fprintf(out, ", p99.9 %s", units_format_duration(a, sizeof(a), cor[3]));
		fputc('\n', out);
		if (ps->c_p50 < ps->p50)
			fputs("           (each counted at what it would have waited, the later ones less: so the corrected p50 can be under the raw one)\n",
			      out);
	}
	print_stalls(out, run, ps);
	if (ps->ntop) {
		fputs("           waiting in", out);
		for (unsigned int i = 0; i < ps->ntop; i++)
			fprintf(out, "%s %s ×%llu", i ? "," : "", ps->sites[i].name,
				(unsigned long long)ps->sites[i].samples);
		fputs(" (samples while stalled)\n", out);
	}
	if (ps->after_end)
		fprintf(out, "           %llu probe%s ended after the writer did, the longest taking %s (in the figures above, in no interval)\n",
			(unsigned long long)ps->after_end, ps->after_end == 1 ? "" : "s",
			units_format_duration(a, sizeof(a), ps->after_end_max_ns));
	if (ps->errors)
		fprintf(out, "           %llu failed, counted apart from the latencies (last: %s%s%s)\n",
			(unsigned long long)ps->errors,
			ps->last_fail[0] ? ps->last_fail : strerror(-ps->last_error),
			ps->last_stderr[0] ? ": " : "", ps->last_stderr);
}

static void print_results(FILE *out, const struct ws_settings *set)
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
		fprintf(out, "  results  %s\n", line);
}

static void print_ending(FILE *out, const struct ws_summary *sum)
{
	const struct ws_ending *e = &sum->ending;

	switch (e->reason) {
	case WS_STOP_STEADY:
		fprintf(out, "  stopped  steady state held (--until-steady)\n");
		break;
	case WS_STOP_NOT_STEADY:
		fprintf(out, "  stopped  not steady after %u rounds (--steady-max-rounds)\n",
			sum->analysis ? sum->analysis->steady.judged_rounds : 0);
		break;
	case WS_STOP_SIGNAL:
		fprintf(out, "  stopped  by %s; everything written reached the disk before the clock stopped\n",
			e->signal ? e->signal : "a signal");
		break;
	case WS_STOP_ERROR:
		fprintf(out, "  failed   %s at offset %llu: %s%s%s\n",
			e->err_op ? e->err_op : "I/O",
			(unsigned long long)e->err_offset, strerror(e->err),
			e->err_detail[0] ? "; " : "", e->err_detail);
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

/* A submitter's share of the device's time: its requests' and the
 * flushes it asked for. */
static uint64_t device_time(const struct ws_block_sub *s)
{
	return s->service_ns + s->flush_ns;
}

/* Whose requests took the device's time, most first (the observer's
 * share among them: the probes' and the journal's). */
static void print_submitters(FILE *out, const struct ws_block_figures *b)
{
	uint64_t total = 0;
	bool shown[WS_SUB_NR] = { false };
	const char *sep = "           device time: ";

	for (int k = 0; k < WS_SUB_NR; k++)
		total += device_time(&b->by[k]);
	if (!total)
		return;
	for (int n = 0; n < WS_SUB_NR; n++) {
		int best = -1;
		char size[32];

		for (int k = 0; k < WS_SUB_NR; k++)
			if (!shown[k] && (b->by[k].requests || b->by[k].flushes) &&
			    (best < 0 || device_time(&b->by[k]) > device_time(&b->by[best])))
				best = k;
		if (best < 0)
			break;
		shown[best] = true;
		fprintf(out, "%s%s %.0f%% (%s", sep, ws_submitter_name((enum ws_submitter)best),
			100.0 * (double)device_time(&b->by[best]) / (double)total,
			units_format_size(size, sizeof(size), b->by[best].bytes));
		if (b->by[best].flushes)
			fprintf(out, ", %llu flushes", (unsigned long long)b->by[best].flushes);
		fputc(')', out);
		sep = ", ";
	}
	fputs("   (who submitted the requests and asked for the flushes)\n", out);
}

/* What the probes' work at the device (theirs and the journal's requests,
 * the flushes they asked for) cost the writer, as measured in the run
 * (record.h: struct ws_observer_cost): the writer's rate with none of it
 * in flight against its rate overall.  Under 5% is within what the fit
 * can tell. */
static void print_observer(FILE *out, const struct ws_summary *sum)
{
	const struct ws_observer_cost *o = &sum->observer;

	if (!o->on || !sum->nprobes)
		return;
	if (!o->judged) {
		fprintf(out, "           the probes' cost to the writer: not judged (%s)\n", o->why_not);
		return;
	}
	if (o->bound) {
		fprintf(out, "           the probes' work at the device (with the journal's and the flushes they asked for) was in flight %.1f%% of the time: it cost the writer at most that (%.2fx)\n",
			o->busy_pct, o->speedup);
		return;
	}
	fprintf(out, "           the probes' work at the device (with the journal's and the flushes they asked for) was in flight %.0f%% of the time; the writer's data went at %.1f MiB/s without it, %.1f MiB/s while it was",
		o->busy_pct, o->free_mibps, o->busy_mibps);
	if (o->negligible)
		fprintf(out, ": it cost the writer little or nothing (%.2fx)\n", o->speedup);
	else
		fprintf(out, ": without it the writer would have been about %.1fx faster\n", o->speedup);
}

/* The bios behind the write requests: merged into them, split, and how
 * long they waited to get one (writeback throttling, a full queue). */
static void print_bios(FILE *out, const struct ws_block_figures *b)
{
	const struct ws_block_dir *w = &b->dir[WS_BLK_WRITE];
	char mean[32], max[32];

	if (!b->bios_on || !w->bios)
		return;
	fprintf(out, "           %llu write bios (%llu merged into requests, %llu split)",
		(unsigned long long)w->bios, (unsigned long long)w->merged,
		(unsigned long long)w->splits);
	if (w->request_waits)
		fprintf(out, "; a bio waited %s on average for its request, the longest %s (writeback throttling, a full queue)",
			units_format_duration(mean, sizeof(mean), w->request_wait_ns / w->request_waits),
			units_format_duration(max, sizeof(max), w->max_request_wait_ns));
	if (b->have_counted)
		fprintf(out, "; the device counted %llu merges",
			(unsigned long long)b->counted[WS_BLK_WRITE].merges);
	fputc('\n', out);
}

/* Writeback throttling on the disk: how often it changed its limits, where
 * they ended, and the read latency it last judged by. */
static void print_wbt(FILE *out, const struct ws_block_figures *b)
{
	char rmin[32];

	if (!b->wbt_on)
		return;
	fprintf(out, "           wbt changed its limits %llu time%s", (unsigned long long)b->wbt_changes,
		b->wbt_changes == 1 ? "" : "s");
	if (b->wbt.known)
		fprintf(out, "; at the end it let %u writes in flight (%u of background writeback), step %d",
			b->wbt.normal, b->wbt.bg, b->wbt.step);
	if (b->wbt_look.known)
		fprintf(out, "; reads took at least %s at its last look",
			units_format_duration(rmin, sizeof(rmin), b->wbt_look.read_min_ns));
	fputc('\n', out);
}

/* The device's requests as traced: what reached it, how long it took, and
 * whether the trace holds all the device counted. */
static void print_block(FILE *out, const struct ws_summary *sum)
{
	const struct ws_block_figures *b = &sum->block;
	const struct ws_block_dir *w = &b->dir[WS_BLK_WRITE];
	char size[32], mean[32], p50[32], p99[32];

	if (!b->on)
		return;
	units_format_size(size, sizeof(size), w->bytes);
	units_format_duration(mean, sizeof(mean), w->requests ? w->time_ns / w->requests : 0);
	units_format_duration(p50, sizeof(p50), sum->block_write_p50_ns);
	units_format_duration(p99, sizeof(p99), sum->block_write_p99_ns);
	fprintf(out, "  device   %llu write requests, %s, each %s on average (the device answered in %s at p50, %s at p99), %llu cache flushes",
		(unsigned long long)w->requests, size, mean, p50, p99,
		(unsigned long long)b->flushes);
	if (b->flushes && b->flush_ns)
		fprintf(out, " taking %s (the longest %s)",
			units_format_duration(mean, sizeof(mean), b->flush_ns),
			units_format_duration(p50, sizeof(p50), b->max_flush_ns));
	if (b->lost)
		fprintf(out, "; %llu events LOST: the figures are short",
			(unsigned long long)b->lost);
	else if (b->have_counted)
		fprintf(out, "; the device counted %llu", (unsigned long long)b->counted[WS_BLK_WRITE].requests);
	fputc('\n', out);
	print_bios(out, b);
	print_wbt(out, b);
	print_submitters(out, b);
	print_observer(out, sum);
}

/* The journal's commits and the dirty limit's pauses as traced: how
 * long the filesystem took to commit, and how long writestress's own
 * threads were held back before their writes reached the page cache. */
static void print_journal(FILE *out, const struct ws_summary *sum)
{
	const struct ws_journal_figures *j = &sum->journal;
	char a[32], b[32], c[32], d[32], e[32];

	if (!sum->block.on || (!j->on && !j->dirty_on))
		return;
	fputs("  journal  ", out);
	if (j->on && j->xfs && j->commits)
		fprintf(out, "xfs log written %llu times (%llu iclogs, %s), %s on average, longest %s, %s in all",
			(unsigned long long)j->commits, (unsigned long long)j->iclogs,
			units_format_size(a, sizeof(a), j->log_bytes),
			units_format_duration(b, sizeof(b), j->time_ns / j->commits),
			units_format_duration(c, sizeof(c), j->max_ns),
			units_format_duration(d, sizeof(d), j->time_ns));
	else if (j->on && j->commits)
		fprintf(out, "%llu commits, %s on average, longest %s (in all: locked %s, flushing %s, logging %s)",
			(unsigned long long)j->commits,
			units_format_duration(a, sizeof(a), j->time_ns / j->commits),
			units_format_duration(b, sizeof(b), j->max_ns),
			units_format_duration(c, sizeof(c), j->locked_ns),
			units_format_duration(d, sizeof(d), j->flushing_ns),
			units_format_duration(e, sizeof(e), j->logging_ns));
	else
		fputs(!j->on ? "none traced (no jbd2 journal or xfs log)" :
		      j->xfs ? "xfs log never written" : "no commits", out);
	if (j->dirty_on && !j->dirty_pauses)
		fputs("; the dirty limit never paused writestress", out);
	else if (j->dirty_on)
		fprintf(out, "; the dirty limit paused writestress %llu time%s, %s in all",
			(unsigned long long)j->dirty_pauses, j->dirty_pauses == 1 ? "" : "s",
			units_format_duration(a, sizeof(a), j->dirty_paused_ns));
	fputc('\n', out);
}

/* The kernel's flusher on the disk: its works, why they ran (each reason
 * that ran any, in the kernel's order), the pages they wrote. */
static void print_flusher(FILE *out, const struct ws_summary *sum)
{
	const struct ws_journal_figures *j = &sum->journal;
	const char *sep = " (";

	if (!sum->block.on || !j->wb_on)
		return;
	fprintf(out, "  flusher  %llu writeback work%s", (unsigned long long)j->wb_works,
		j->wb_works == 1 ? "" : "s");
	for (unsigned int r = 0; r < WS_WB_REASONS; r++)
		if (j->wb_by_reason[r]) {
			fprintf(out, "%s%s %llu", sep, ws_wb_reason_name(r),
				(unsigned long long)j->wb_by_reason[r]);
			sep = ", ";
		}
	fprintf(out, "%s, writing %llu pages", sep[0] == ',' ? ")" : "",
		(unsigned long long)j->wb_pages);
	if (j->wb_running)
		fprintf(out, "; %llu still running", (unsigned long long)j->wb_running);
	fputc('\n', out);
}

/* Why a controller never settled, in words a user can act on. */
static const char *adapt_why_words(enum ws_adapt_why why)
{
	switch (why) {
	case WS_ADAPT_STARTING:
		return "the run ended before 3 calm periods in a row (1 s each): run longer";
	case WS_ADAPT_NO_PROBES:
		return "no steering probe ended in its last period: a probe stuck, or --probe-interval too long";
	case WS_ADAPT_OVER:
		return "its last period's slowest probe was over the target: it was still cutting back";
	case WS_ADAPT_RACING:
		return "the probes were far under the target: it was still adding writeback";
	case WS_ADAPT_MOVING:
		return "its writeback moved beyond ±35% over 3 periods: the disk's pace did not hold";
	default:
		return "";
	}
}

static const char *name_of(const struct ws_probe_facts *pf, int i)
{
	return i >= 0 && (unsigned int)i < pf->n ? pf->names[i] : "a probe";
}

/* Who steered and what the controller learned of it: how often one of
 * its operations waits behind the writer, hence what the writer's own
 * chunks may take. */
static void print_steering(FILE *out, const struct ws_probe_facts *pf,
			   const struct ws_adapt_figures *a)
{
	char sp[32];

	if (a->steering < 0 || a->steering >= WS_MAX_PROBES)
		return;
	fprintf(out, "           steered by %s, which waited behind the writer about %.1f times an operation",
		name_of(pf, a->steering), a->waits[a->steering]);
	if (a->unreachable)	/* at the floor: what it aims at is moot */
		fputc('\n', out);
	else
		fprintf(out, ": the writer's chunks aimed at %s on the disk\n",
			units_format_duration(sp, sizeof(sp), a->setpoint_ns));
}

/* The target out of reach: now (it held the floor), or for a while. */
static void print_out_of_reach(FILE *out, const struct ws_probe_facts *pf,
			       const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	char t[32], fl[32], at[32], least[32], idle[32];

	units_format_duration(t, sizeof(t), sum->target_latency_ns);
	units_format_duration(fl, sizeof(fl), a->floor_ns);
	units_format_duration(at, sizeof(at), a->unreachable_at_ns);
	units_format_size(least, sizeof(least), (uint64_t)a->chunk * a->window);
	if (a->unreachable) {
		bool known = a->floor_probe >= 0 && a->floor_probe < WS_MAX_PROBES;

		units_format_duration(idle, sizeof(idle), known ? a->idle_ns[a->floor_probe] : 0);
		fprintf(out, "  adaptive target %s out of reach on this disk: %s took ≥ %s with %s under writeback, the least the writer keeps (from %s on); it held that floor\n",
			t, name_of(pf, a->floor_probe), fl, least, at);
		fprintf(out, "           that wait is the disk's and the probe's own (on the idle disk %s took %s): no pace of the writer's brings it under %s\n",
			name_of(pf, a->floor_probe), idle, fl);
		return;
	}
	fprintf(out, "           the target was out of reach from %s (%s ≥ %s at the floor), and met again later\n",
		at, name_of(pf, a->floor_probe), fl);
}

/* --headroom: the cap the writer kept to, and the disk's rate it is the
 * share of. */
static void print_headroom(FILE *out, const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;

	if (!sum->headroom_pct)
		return;
	if (!a->cap_bps) {
		fprintf(out, "           headroom %u%%: no cap yet: the writer had not run a whole second to show the disk's rate\n",
			sum->headroom_pct);
		return;
	}
	fprintf(out, "           headroom %u%%: the writer kept under %.1f MiB/s, %u%% of the %.1f MiB/s the disk did without the cap (one second in eight)\n",
		sum->headroom_pct, (double)a->cap_bps / WS_MIB, 100 - sum->headroom_pct,
		(double)a->disk_bps / WS_MIB);
}

/* --pace adaptive: whether the controller settled (or why not, or that
 * the target was out of reach) and where. */
static void print_adapt_state(FILE *out, const struct ws_probe_facts *pf,
			      const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	char chunk[32], inflight[32], at[32], t[32];

	units_format_size(chunk, sizeof(chunk), a->chunk);
	units_format_size(inflight, sizeof(inflight), a->inflight);
	units_format_duration(t, sizeof(t), sum->target_latency_ns);
	if (a->unreachable) {
		print_out_of_reach(out, pf, sum);
		print_steering(out, pf, a);
		print_headroom(out, sum);
		return;
	}
	if (!a->settled) {
		fprintf(out, "  adaptive never settled (target %s): %s; it ended at %s × %u (%s under writeback)\n",
			t, adapt_why_words(a->why), chunk, a->window, inflight);
	} else {
		fprintf(out, "  adaptive settled after %s at about %s × %u (%s under writeback), target %s\n",
			units_format_duration(at, sizeof(at), sum->adapt_settled_ns),
			chunk, a->window, inflight, t);
		if (a->at_floor)
			fprintf(out, "           at its floor: the probes took longer than the target with the least writeback it keeps; the wait is not the writer's\n");
	}
	print_steering(out, pf, a);
	print_headroom(out, sum);
	if (a->unreachable_at_ns)
		print_out_of_reach(out, pf, sum);
}

/* --pace adaptive: the controller (with several targets each target's
 * is under it) and what the probes saw once every one had settled. */
static void print_adapt(FILE *out, const struct ws_run *run,
			const struct ws_summary *sum)
{
	char p99[32], max[32];

	if (!sum->have_adapt)
		return;
	if (sum->ntargets)
		fprintf(out, "  adaptive each target's writer steered by the probes of its filesystem (below)%s\n",
			sum->adapt.settled ? "" : "; not every one settled");
	else
		print_adapt_state(out, &run->probes, sum);
	for (unsigned int i = 0; sum->adapt.settled && i < sum->nprobes; i++) {
		if (!sum->settled_count[i]) {
			fprintf(out, "           %s: no probe ended after settling\n",
				sum->probes[i].name);
			continue;
		}
		fprintf(out, "           %s after settling: %llu probes, p99 %s, max %s\n",
			sum->probes[i].name,
			(unsigned long long)sum->settled_count[i],
			units_format_duration(p99, sizeof(p99), sum->settled_p99_ns[i]),
			units_format_duration(max, sizeof(max), sum->settled_max_ns[i]));
	}
}

/* Several targets: each one's result, time split, phases and verdicts,
 * ending and read-back. */
static void print_target(FILE *out, const struct ws_run *top,
			 const struct ws_run *run, const struct ws_summary *sum)
{
	char line[160];

	sink_format_result(line, sizeof(line), sum);
	fprintf(out, "  target %u %s: %s\n", run->number, run->target.path, line);
	print_split(out, sum);
	if (sum->have_adapt)
		print_adapt_state(out, &top->probes, sum);
	if (sum->analysis && sum->bytes)
		human_analysis_print(out, run, sum);
	print_ending(out, sum);
	if (sum->verified)
		human_verify_print(out, "  ", run->target.path, &sum->verify);
}

void human_summary_print(FILE *out, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	char line[160], a[32];

	sink_format_result(line, sizeof(line), sum);
	if (sum->ntargets)
		fprintf(out, "%s by %u targets\n", line, sum->ntargets);
	else
		fprintf(out, "%s\n", line);
	print_split(out, sum);
	print_cpu(out, sum);
	print_block(out, sum);
	print_journal(out, sum);
	print_flusher(out, sum);
	if (sum->wraps)
		fprintf(out, "  file     %s, overwritten in place %llu time%s\n",
			units_format_size(a, sizeof(a), run->plan.file_size),
			(unsigned long long)sum->wraps, sum->wraps == 1 ? "" : "s");
	for (unsigned int i = 0; i < sum->nprobes; i++)
		print_probe(out, run, &sum->probes[i]);
	print_adapt(out, run, sum);
	if (sum->analysis && sum->bytes)	/* nothing written: nothing to say */
		human_analysis_print(out, run, sum);
	for (unsigned int i = 0; i < sum->ntargets; i++)
		print_target(out, run, &run->targets[i], &sum->targets[i]);
	print_results(out, &run->set);
	if (sum->ntargets) {	/* each said its own */
		if (sum->ending.reason == WS_STOP_SIGNAL)
			print_ending(out, sum);
		if (sum->verified)
			fprintf(out, "  %s\n", sum->verify.clean ?
				"verified: every block of every target as written" :
				"NOT verified: some blocks are not as written");
		return;
	}
	print_ending(out, sum);
	if (sum->verified)
		human_verify_print(out, "  ", run->target.path, &sum->verify);
}
