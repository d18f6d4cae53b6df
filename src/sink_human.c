/* sink_human.c - what a person reads: the header, a live line on a
 * terminal or key=value lines in a log, and the summary. */
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "datagen.h"
#include "pace.h"
#include "probe.h"
#include "signals.h"
#include "sink.h"
#include "units.h"

static const char *const timer_words[WS_T_NR] = {
	[WS_T_FILL] = "fill buffer",
	[WS_T_WRITE] = "write",
	[WS_T_START] = "start writeback",
	[WS_T_WAIT] = "wait writeback",
	[WS_T_FADVISE] = "fadvise",
	[WS_T_RATE] = "rate limit",
};

static const char *const timer_keys[WS_T_NR] = {
	[WS_T_FILL] = "fill_ms",
	[WS_T_WRITE] = "write_ms",
	[WS_T_START] = "start_ms",
	[WS_T_WAIT] = "wait_ms",
	[WS_T_FADVISE] = "fadvise_ms",
	[WS_T_RATE] = "rate_ms",
};

static void describe_bounds(char *buf, size_t len, const struct ws_run *run)
{
	const struct ws_config *cfg = run->cfg;
	char a[32], b[32], c[32];
	int n = 0;

	units_format_size(a, sizeof(a), run->plan->buffer_size);
	if (run->plan->total == WS_UNBOUNDED)
		n = snprintf(buf, len, "%s buffers until %s", a,
			     cfg->duration_ns ? "the time is up" : "interrupted");
	else if (run->plan->total % run->plan->buffer_size == 0)
		n = snprintf(buf, len, "%llu × %s = %s",
			     (unsigned long long)(run->plan->total / run->plan->buffer_size),
			     a, units_format_size(b, sizeof(b), run->plan->total));
	else
		n = snprintf(buf, len, "%s in %s buffers",
			     units_format_size(b, sizeof(b), run->plan->total), a);
	if (cfg->duration_ns && run->plan->total != WS_UNBOUNDED && n > 0 &&
	    (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " or %s",
			      units_format_duration(c, sizeof(c), cfg->duration_ns));
	(void)n;
}

static void print_probes_header(FILE *out, const struct ws_run *run)
{
	const struct monitor *mon = run->mon;
	const struct ws_config *cfg = run->cfg;
	char a[32], b[32], c[32], dir[PATH_MAX];
	const char *sep = "";

	if (!mon || !mon->nprobes) {
		fprintf(out, "  probes   none (--no-probe)\n");
		return;
	}
	fputs("  probes   ", out);
	for (unsigned int i = 0; i < mon->nprobes; i++) {
		fprintf(out, "%s%s", sep, mon->probes[i].probe.ops->name);
		sep = ", ";
	}
	probe_dir_of(cfg, dir, sizeof(dir));
	fprintf(out, " every %s in %s, %s each, stall ≥ %s\n",
		units_format_duration(a, sizeof(a), cfg->probe_interval_ns), dir,
		units_format_size(b, sizeof(b), cfg->probe_size),
		units_format_duration(c, sizeof(c), cfg->stall_ns));
	fprintf(out, "           %s%s%s, %s%s%s\n",
		mon->realtime ? "realtime priority (SCHED_FIFO)" : "normal priority",
		mon->realtime ? "" : ": ", mon->realtime ? "" : mon->realtime_why,
		mon->memory_locked ? "memory locked" : "memory not locked",
		mon->memory_locked ? "" : ": ",
		mon->memory_locked ? "" : mon->memory_why);
}

static void print_ioprio(FILE *out, const char *who, int class, int level,
			 const char **sep)
{
	static const char *const names[] = { "", "rt", "be", "idle" };

	if (!class)
		return;
	fprintf(out, "%s%s ioprio %s", *sep, who, names[class]);
	if (class != 3)
		fprintf(out, ":%d", level);
	*sep = " · ";
}

/* What the privileged options did; nothing when none was asked for. */
static void print_system_header(FILE *out, const struct ws_run *run)
{
	const struct ws_config *cfg = run->cfg;
	const struct ws_priv *priv = run->priv;
	const char *sep = "";

	if (!priv || (!cfg->drop_caches && !cfg->scheduler && !cfg->ioprio_class &&
		      !cfg->probe_ioprio_class))
		return;
	fputs("  system   ", out);
	if (priv->caches_dropped) {
		fputs("page cache dropped", out);
		sep = " · ";
	}
	if (priv->nsched) {
		fprintf(out, "%sscheduler %s (was %s, restored at exit)", sep,
			cfg->scheduler, priv->scheduler_old[0]);
		sep = " · ";
	}
	print_ioprio(out, "writer", cfg->ioprio_class, cfg->ioprio_level, &sep);
	print_ioprio(out, "probes", cfg->probe_ioprio_class, cfg->probe_ioprio_level, &sep);
	fprintf(out, "%scapabilities dropped after setup\n", sep);
}

/* New, rewritten in place (how much of it), or emptied first. */
static const char *describe_file(char *buf, size_t len,
				 const struct ws_target *t)
{
	char a[32];

	if (t->created)
		snprintf(buf, len, "new file");
	else if (t->truncated)
		snprintf(buf, len, "%s, emptied first by --truncate: a discard mount TRIMs its old blocks",
			 t->forced ? "existing file, --force" : "writestress file from an earlier run");
	else if (t->forced)
		snprintf(buf, len, "existing file, --force: rewriting its %s in place",
			 units_format_size(a, sizeof(a), t->size_at_open));
	else
		snprintf(buf, len, "rewriting %s written earlier, in place",
			 units_format_size(a, sizeof(a), t->size_at_open));
	return buf;
}

/* With --until-steady or --precondition: how steady state is judged and
 * what is written before it is. */
static void print_steady_header(FILE *out, const struct ws_run *run)
{
	const struct ws_config *cfg = run->cfg;
	char crit[96], a[32], b[32], c[32];

	if (!cfg->until_steady && !cfg->precondition_set)
		return;
	fprintf(out, "  steady   %s%s over %u rounds of %s, ",
		cfg->until_steady ? "until steady by " : "",
		analysis_describe_criterion(run->params, crit, sizeof(crit)),
		cfg->steady_window,
		units_format_duration(a, sizeof(a), cfg->steady_round_ns));
	if (!run->plan->precondition)
		fputs("not preconditioned", out);
	else if (cfg->precondition_mult > 0 || !cfg->precondition_set)
		fprintf(out, "judged after %s of preconditioning (%g× the %s device)",
			units_format_size(b, sizeof(b), run->plan->precondition),
			cfg->precondition_set ? cfg->precondition_mult : 2.0,
			units_format_size(c, sizeof(c), run->plan->capacity));
	else
		fprintf(out, "judged after %s of preconditioning",
			units_format_size(b, sizeof(b), run->plan->precondition));
	if (cfg->until_steady && cfg->steady_max_rounds)
		fprintf(out, "; gives up after %u rounds", cfg->steady_max_rounds);
	fputc('\n', out);
}

/* The header's last word, once the first interval measured a rate: how
 * long preconditioning will take. */
static void print_precondition_eta(FILE *out, const struct ws_run *run,
				   const struct ws_interval *iv)
{
	uint64_t pre = run->plan->precondition;
	char a[32], b[32];

	if (iv->index || !pre || pre == UINT64_MAX || !(iv->mibps > 0) ||
	    (!run->cfg->until_steady && !run->cfg->precondition_set))
		return;
	fprintf(out, "           at the first measured %.1f MiB/s, %s of preconditioning take about %s\n",
		iv->mibps, units_format_size(a, sizeof(a), pre),
		units_format_duration(b, sizeof(b),
				      (uint64_t)((double)pre / (iv->mibps * (double)WS_MIB) * 1e9)));
}

static void human_header(struct sink *s, const struct ws_run *run)
{
	const struct ws_config *cfg = run->cfg;
	const struct ws_target *t = run->target;
	char bounds[128], pace[64], a[32], b[32], c[32], where[512], file[160];

	describe_bounds(bounds, sizeof(bounds), run);
	pace_describe(cfg, pace, sizeof(pace));
	if (!run->fp || fingerprint_summary(run->fp, where, sizeof(where)) <= 0)
		snprintf(where, sizeof(where), "%s", t->fs_type);
	fprintf(s->out, "writestress %s — %s on %s (%s)\n", WS_VERSION,
		cfg->path, where, describe_file(file, sizeof(file), t));
	if (run->fp)
		fingerprint_header(run->fp, s->out);
	fprintf(s->out, "  run      %s, pace %s, data %s", bounds, pace,
		datagen_name(cfg->data));
	if (cfg->data == WS_DATA_COMPRESSIBLE)
		fprintf(s->out, "=%u%%", cfg->compress_pct);
	if (cfg->rate)
		fprintf(s->out, ", rate %s/s",
			units_format_size(a, sizeof(a), cfg->rate));
	fputc('\n', s->out);
	fprintf(s->out, "  space    %s free of %s, %s kept in reserve",
		units_format_size(a, sizeof(a), t->space.avail + t->space.reclaimed),
		units_format_size(b, sizeof(b), t->space.fs_size),
		units_format_size(c, sizeof(c), run->plan->reserve));
	if (run->plan->file_size < run->plan->total)
		fprintf(s->out, ", file wraps at %s",
			units_format_size(a, sizeof(a), run->plan->file_size));
	fputc('\n', s->out);
	print_probes_header(s->out, run);
	print_steady_header(s->out, run);
	print_system_header(s->out, run);
	if (t->created && t->xattr_unsupported)
		fprintf(s->out, "  note     %s keeps no user extended attributes: writestress cannot mark this file as its own, so a re-run on it needs --force\n",
			t->fs_type);
	fflush(s->out);
}

/* Which timer took the most of the interval, for the live line. */
static int busiest(const uint64_t *time_ns)
{
	int top = WS_T_WRITE;

	for (int t = 0; t < WS_T_NR; t++)
		if (time_ns[t] > time_ns[top])
			top = t;
	return top;
}

static void progress_bar(FILE *out, double f, bool utf8)
{
	/* eighth blocks give a 20-cell bar 160 steps */
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	const int cells = 20;
	int steps = (int)(f * cells * 8 + 0.5), i;

	fputc('[', out);
	for (i = 0; i < cells; i++, steps -= 8) {
		if (steps >= 8)
			fputs(utf8 ? "█" : "#", out);
		else if (steps > 0)
			fputs(utf8 ? eighths[steps] : "#", out);
		else
			fputc(utf8 ? ' ' : '.', out);
	}
	fputc(']', out);
}

static void live_probe(FILE *out, const struct ws_probe_interval *pi)
{
	char a[32], b[32];

	if (pi->blocked) {
		fprintf(out, "  %s BLOCKED %s%s%s%s", pi->name,
			units_format_duration(a, sizeof(a), pi->inflight_ns),
			pi->site[0] ? " (" : "", pi->site, pi->site[0] ? ")" : "");
	} else if (pi->count) {
		fprintf(out, "  %s p99 %s max %s", pi->name,
			units_format_duration(a, sizeof(a), pi->p99_ns),
			units_format_duration(b, sizeof(b), pi->max_ns));
	}
	if (pi->stalls_total)
		fprintf(out, " stalls %llu", (unsigned long long)pi->stalls_total);
}

/* Columns of the terminal, 0 if unknown. */
static unsigned int columns(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) || !ws.ws_col)
		return 0;
	return ws.ws_col;
}

/* Print at most `cols` characters of UTF-8 text (a wrapped line would
 * break the redraw in place). */
static void put_clipped(FILE *out, const char *text, unsigned int cols)
{
	unsigned int shown = 0;

	for (const char *p = text; *p; p++) {
		bool lead = ((unsigned char)*p & 0xC0) != 0x80;

		if (lead && cols && ++shown > cols)
			break;
		fputc(*p, out);
	}
}

/* The parts of the live line, most important first: what is left over
 * when the terminal is narrow is cut from the end. */
static void live_text(FILE *m, const struct ws_interval *iv, bool utf8)
{
	char a[32], b[32], c[32];
	int top = busiest(iv->time_ns);

	fprintf(m, " %s  %s  now %.1f MiB/s  avg %.1f MiB/s",
		units_format_size(a, sizeof(a), iv->bytes),
		units_format_duration(b, sizeof(b), iv->t_ns), iv->mibps,
		iv->avg_mibps);
	if (iv->progress >= 0.0) {
		fputs("  ", m);
		progress_bar(m, iv->progress, utf8);
		fprintf(m, " %3.0f%%", iv->progress * 100.0);
		if (iv->progress > 0.0)
			fprintf(m, "  ETA %s",
				units_format_duration(c, sizeof(c), iv->eta_ns));
	}
	for (unsigned int i = 0; i < iv->nprobes; i++)
		live_probe(m, &iv->probes[i]);
	if (iv->have_device)
		fprintf(m, "  dev %.1f MiB/s", iv->dev_mibps);
	if (iv->dt_ns) {
		double share = (double)iv->time_ns[top] / (double)iv->dt_ns;

		/* a call is booked when it returns, so one that began in
		 * the previous interval can overfill this one */
		fprintf(m, "  %s %.0f%%", timer_words[top],
			100.0 * (share > 1.0 ? 1.0 : share));
	}
}

static void live_interval(struct sink *s, const struct ws_run *run,
			  const struct ws_interval *iv)
{
	bool utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	unsigned int cols = columns(s->out);

	if (!m)
		return;		/* no memory for one line: skip this tick */
	if (!iv->index && run->plan->precondition) {
		fputc('\r', s->out);
		fputs("\033[K", s->out);
		print_precondition_eta(s->out, run, iv);
	}
	live_text(m, iv, utf8);
	fclose(m);
	fputc('\r', s->out);
	put_clipped(s->out, line, cols ? cols - 1 : 0);
	fputs("\033[K", s->out);
	fflush(s->out);
	free(line);
	s->dirty_line = 1;
}

static void plain_interval(struct sink *s, const struct ws_run *run,
			   const struct ws_interval *iv)
{
	print_precondition_eta(s->out, run, iv);
	fprintf(s->out, "t=%.3f bytes=%llu mibps=%.1f avg_mibps=%.1f",
		(double)iv->t_ns / 1e9, (unsigned long long)iv->bytes,
		iv->mibps, iv->avg_mibps);
	for (int t = 0; t < WS_T_NR; t++)
		fprintf(s->out, " %s=%.1f", timer_keys[t],
			(double)iv->time_ns[t] / 1e6);
	if (iv->have_meminfo)
		fprintf(s->out, " dirty_mib=%.1f writeback_mib=%.1f",
			(double)iv->dirty / (double)WS_MIB,
			(double)iv->writeback / (double)WS_MIB);
	if (iv->have_device)
		fprintf(s->out, " dev_mibps=%.1f dev_inflight=%llu dev_busy_pct=%.0f",
			iv->dev_mibps, (unsigned long long)iv->dev_inflight,
			iv->dev_busy_pct);
	if (iv->have_psi)
		fprintf(s->out, " psi_some_pct=%.1f psi_full_pct=%.1f",
			iv->psi_some_pct, iv->psi_full_pct);
	for (unsigned int i = 0; i < iv->nprobes; i++) {
		const struct ws_probe_interval *pi = &iv->probes[i];

		fprintf(s->out, " %s_n=%llu %s_p50_ms=%.3f %s_p99_ms=%.3f %s_max_ms=%.3f %s_stalls=%llu %s_inflight_ms=%.1f",
			pi->name, (unsigned long long)pi->count,
			pi->name, (double)pi->p50_ns / 1e6,
			pi->name, (double)pi->p99_ns / 1e6,
			pi->name, (double)pi->max_ns / 1e6,
			pi->name, (unsigned long long)pi->stalls,
			pi->name, (double)pi->inflight_ns / 1e6);
		if (pi->errors)
			fprintf(s->out, " %s_errors=%llu", pi->name,
				(unsigned long long)pi->errors);
	}
	fputc('\n', s->out);
	fflush(s->out);
}

/* One sentence on what limited the writer, from where its time went. */
static const char *verdict(const struct ws_run *run, const struct ws_summary *sum)
{
	uint64_t total = sum->elapsed_ns ? sum->elapsed_ns : 1;
	double wait = (double)(sum->time_ns[WS_T_WAIT] + sum->time_ns[WS_T_START]) / (double)total;
	double write = (double)sum->time_ns[WS_T_WRITE] / (double)total;

	if ((double)sum->time_ns[WS_T_RATE] / (double)total >= 0.5)
		return "--rate was the limit";
	if ((double)sum->time_ns[WS_T_FILL] / (double)total >= 0.5)
		return "generating data was the limit";
	if (wait >= 0.5)
		return "the disk was the limit (waiting for writeback)";
	if (write >= 0.5 && run->cfg->pace == WS_PACE_DIRECT)
		return "the disk was the limit (O_DIRECT writes)";
	if (write >= 0.5)
		return "write() was the limit: copying into the page cache and dirty-page throttling";
	return "no single limit";
}

static void print_split(FILE *out, const struct ws_run *run,
			const struct ws_summary *sum)
{
	const char *sep = "";

	fputs("  writer   ", out);
	for (int t = 0; t < WS_T_NR; t++) {
		if (!sum->time_ns[t] && t != WS_T_WRITE)
			continue;
		fprintf(out, "%s%s %.0f%%", sep, timer_words[t],
			sum->elapsed_ns ? 100.0 * (double)sum->time_ns[t] /
						  (double)sum->elapsed_ns : 0.0);
		sep = " · ";
	}
	fprintf(out, "   → %s\n", verdict(run, sum));
}

static void print_probe_summary(FILE *out, const struct ws_run *run,
				const struct ws_probe_summary *ps)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	fprintf(out, "  %-8s %llu probes, p50 %s, p90 %s, p99 %s, p99.9 %s, max %s   (raw: as measured)\n",
		ps->name, (unsigned long long)ps->count,
		units_format_duration(a, sizeof(a), ps->p50),
		units_format_duration(b, sizeof(b), ps->p90),
		units_format_duration(c, sizeof(c), ps->p99),
		units_format_duration(d, sizeof(d), ps->p999),
		units_format_duration(e, sizeof(e), ps->max));
	if (ps->c_count > ps->count)
		fprintf(out, "           corrected for %llu probe%s that slow ones kept from running: p50 %s, p99 %s, p99.9 %s\n",
			(unsigned long long)(ps->c_count - ps->count),
			ps->c_count - ps->count == 1 ? "" : "s",
			units_format_duration(a, sizeof(a), ps->c_p50),
			units_format_duration(b, sizeof(b), ps->c_p99),
			units_format_duration(c, sizeof(c), ps->c_p999));
	if (ps->nstalls)
		fprintf(out, "           %llu stall%s ≥ %s, %s in total, longest %s at %s written (Dirty %s, Writeback %s)\n",
			(unsigned long long)ps->nstalls, ps->nstalls == 1 ? "" : "s",
			units_format_duration(a, sizeof(a), run->cfg->stall_ns),
			units_format_duration(b, sizeof(b), ps->stall_total_ns),
			units_format_duration(c, sizeof(c), ps->longest.duration_ns),
			units_format_size(d, sizeof(d), ps->longest.writer_bytes),
			units_format_size(e, sizeof(e), ps->longest.dirty),
			units_format_size(f, sizeof(f), ps->longest.writeback));
	else
		fprintf(out, "           no stalls ≥ %s\n",
			units_format_duration(a, sizeof(a), run->cfg->stall_ns));
	if (ps->nrecorded) {
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
	if (ps->ntop) {
		fputs("           waiting in", out);
		for (unsigned int i = 0; i < ps->ntop; i++)
			fprintf(out, "%s %s ×%llu", i ? "," : "", ps->top_sites[i].name,
				(unsigned long long)ps->top_sites[i].samples);
		fputs(" (samples while stalled)\n", out);
	}
	if (ps->errors)
		fprintf(out, "           %llu probe operation%s failed (last: %s)\n",
			(unsigned long long)ps->errors, ps->errors == 1 ? "" : "s",
			strerror(-ps->last_error));
}

/* "80.0 MiB/s for 0–1.00 GiB → 32.0 MiB/s at 1.00–3.90 GiB → ..." */
static void print_phases(FILE *out, const struct ws_analysis *a)
{
	char r[32], f[32], t[32];

	fputs("  phases   ", out);
	for (unsigned int i = 0; i < a->nphases; i++) {
		const struct ws_phase *p = &a->phases[i];

		units_format_size(f, sizeof(f), p->from_bytes);
		units_format_size(t, sizeof(t), p->to_bytes);
		snprintf(r, sizeof(r), "%.1f MiB/s", p->mibps);
		if (a->nphases == 1)
			fprintf(out, "%s throughout, no lasting change", r);
		else if (i == 0)
			fprintf(out, "%s for %s–%s", r, f, t);
		else if (i + 1 == a->nphases)
			fprintf(out, " → %s from %s", r, f);
		else
			fprintf(out, " → %s at %s–%s", r, f, t);
	}
	fputc('\n', out);
}

/* Throughput over bytes written in one line of eighth blocks. */
static void print_curve(FILE *out, const struct ws_run *run,
			const struct ws_summary *sum)
{
	static const char *const bars[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	struct ws_cell cells[32];
	uint64_t cell = series_cell_size(sum->bytes, run->cfg->bucket, 32, 32);
	size_t n = series_cells(sum->progress, cell, cells, 32);
	double top = 0;
	char a[32], b[32];

	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		if (cells[i].mibps > top)
			top = cells[i].mibps;
	fputs("  curve    ", out);
	for (size_t i = 0; i < n; i++) {
		int level = top > 0 ? (int)(cells[i].mibps / top * 7.0 + 0.5) : 0;

		fputs(bars[level < 0 ? 0 : level > 7 ? 7 : level], out);
	}
	fprintf(out, "  MiB/s over %s written, %s a cell, top %.1f MiB/s\n",
		units_format_size(a, sizeof(a), sum->bytes),
		units_format_size(b, sizeof(b), cell), top);
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

/* The steady-state verdict, which describes the end of the run. */
static void print_steady(FILE *out, const struct ws_analysis *a)
{
	const struct ws_steady *st = &a->steady;
	const struct ws_analysis_params *p = &a->params;
	char crit[96], fig[96], rule[256], x[32], y[32], z[64];

	analysis_describe_criterion(p, crit, sizeof(crit));
	units_format_duration(y, sizeof(y), st->round_ns ? st->round_ns : p->round_ns);
	if (p->precondition_bytes)
		snprintf(z, sizeof(z), "after %s of preconditioning",
			 units_format_size(x, sizeof(x), p->precondition_bytes));
	else
		snprintf(z, sizeof(z), "not preconditioned");
	snprintf(rule, sizeof(rule), "%s; %u rounds of %s, %s", crit,
		 p->steady_window, y, z);
	if (!st->judged) {
		fprintf(out, "  steady   not judged: no window of %u rounds of %s %s (%s)\n",
			p->steady_window, y,
			p->precondition_bytes ? "after preconditioning" : "in the run",
			rule);
		return;
	}
	if (st->reached) {
		fprintf(out, "  steady   from %s (%s) to the end: %.1f MiB/s, %s (%s)\n",
			units_format_size(x, sizeof(x), st->final.from_bytes),
			units_format_duration(z, sizeof(z), st->final.from_ns),
			st->final.mibps,
			analysis_describe_figures(p, &st->final, fig, sizeof(fig)),
			rule);
		if (st->earlier)
			fprintf(out, "           earlier steady at %s, then changed\n",
				describe_stretch(fig, sizeof(fig), &st->before));
		return;
	}
	if (st->earlier)
		fprintf(out, "  steady   at %s, then changed; not steady at the end (%s)\n",
			describe_stretch(fig, sizeof(fig), &st->before), rule);
	else
		fprintf(out, "  steady   not reached (%s)\n", rule);
}

static void print_analysis(FILE *out, const struct ws_run *run,
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
			run->cfg->pace == WS_PACE_NONE ?
			": --pace none measures write(), which runs at page-cache speed until the dirty limit" : "");
	print_steady(out, a);
	print_curve(out, run, sum);
}

static void print_results(FILE *out, const struct ws_config *cfg)
{
	const char *files[] = { cfg->json_path, cfg->csv_path, cfg->svg_path };
	const char *sep = "";

	if (!files[0] && !files[1] && !files[2])
		return;
	fputs("  results  ", out);
	for (int i = 0; i < 3; i++) {
		if (files[i]) {
			fprintf(out, "%s%s", sep, files[i]);
			sep = " · ";
		}
	}
	fputc('\n', out);
}

static void human_summary(struct sink *s, const struct ws_run *run,
			  const struct ws_summary *sum)
{
	const struct ws_outcome *o = &sum->outcome;
	char line[160], a[32];

	if (s->dirty_line)
		fputc('\n', s->out);
	s->dirty_line = 0;
	sink_format_result(line, sizeof(line), sum);
	fprintf(s->out, "%s\n", line);
	print_split(s->out, run, sum);
	if (sum->wraps)
		fprintf(s->out, "  file     %s, overwritten in place %llu time%s\n",
			units_format_size(a, sizeof(a), run->plan->file_size),
			(unsigned long long)sum->wraps, sum->wraps == 1 ? "" : "s");
	for (unsigned int i = 0; i < sum->nprobes; i++)
		print_probe_summary(s->out, run, &sum->probes[i]);
	if (sum->analysis && sum->bytes)	/* nothing written: nothing to say */
		print_analysis(s->out, run, sum);
	print_results(s->out, run->cfg);
	switch (o->reason) {
	case WS_STOP_BOUND:
	case WS_STOP_TIME:
		break;
	case WS_STOP_STEADY:
		fprintf(s->out, "  stopped  steady state held (--until-steady)\n");
		break;
	case WS_STOP_NOT_STEADY:
		fprintf(s->out, "  stopped  not steady after %u rounds (--steady-max-rounds)\n",
			sum->analysis ? sum->analysis->steady.judged_rounds
				      : run->cfg->steady_max_rounds);
		break;
	case WS_STOP_NR:
		break;
	case WS_STOP_SIGNAL:
		fprintf(s->out, "  stopped  by %s; everything written reached the disk before the clock stopped\n",
			signals_name(sum->signo) ? signals_name(sum->signo) : "a signal");
		break;
	case WS_STOP_ERROR:
		fprintf(s->out, "  failed   %s at offset %llu: %s%s%s\n",
			o->err_op ? o->err_op : "I/O",
			(unsigned long long)o->err_offset, strerror(o->err),
			o->err_detail[0] ? "; " : "", o->err_detail);
		break;
	}
	fflush(s->out);
}

/* A report that could not be written is a failed run (a full disk under
 * a redirected stdout must not exit 0). */
static int human_close(struct sink *s)
{
	return fflush(s->out) || ferror(s->out) ? -EIO : 0;
}

const struct sink_ops sink_live_ops = {
	.name = "live",
	.header = human_header,
	.interval = live_interval,
	.summary = human_summary,
	.close = human_close,
};

const struct sink_ops sink_plain_ops = {
	.name = "plain",
	.header = human_header,
	.interval = plain_interval,
	.summary = human_summary,
	.close = human_close,
};

const struct sink_ops sink_quiet_ops = {
	.name = "quiet",
	.header = NULL,
	.interval = NULL,
	.summary = human_summary,
	.close = human_close,
};
