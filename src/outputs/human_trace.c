/* human_trace.c - the summary's traced lines (see human_trace.h). */
#include <stdio.h>

#include "human_trace.h"
#include "lib/units.h"

/* Flushes count for the submitter that asked for them. */
static uint64_t device_time(const struct ws_block_sub *s)
{
	return s->service_ns + s->flush_ns;
}

/* Most first. */
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
		fprintf(out, "%s%s %.0f%% (%s", sep, ws_submitter_words((enum ws_submitter)best),
			100.0 * (double)device_time(&b->by[best]) / (double)total,
			units_format_size(size, sizeof(size), b->by[best].bytes));
		if (b->by[best].flushes)
			fprintf(out, ", %llu flushes", (unsigned long long)b->by[best].flushes);
		fputc(')', out);
		sep = ", ";
	}
	fputs("   (whose data the requests carried, a kernel worker's on the file the writer's; who asked for the flushes)\n", out);
}

/* What the probes' work at the device cost the writer (block.h: struct
 * ws_observer_cost).  Whether it was bound or negligible is the
 * estimate's call (trace/observer.c); this only words it. */
static void print_observer(FILE *out, const struct ws_summary *sum)
{
	const struct ws_observer_cost *o = &sum->observer;

	if (!o->on || !sum->nprobes)
		return;
	if (!o->judged) {
		fprintf(out, "           the probes' cost to the writer: not judged (%s)\n",
			ws_obs_why_name(o->why_not));
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

/* With what the device counted: whether the trace holds it all. */
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

/* Reasons in the kernel's order. */
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

void human_trace_print(FILE *out, const struct ws_summary *sum)
{
	print_block(out, sum);
	print_journal(out, sum);
	print_flusher(out, sum);
}
