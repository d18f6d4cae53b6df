/* sink_human.c - what a person reads: the header and the summary
 * (human_header.c, human_summary.c) around a live line redrawn on a
 * terminal, or one key=value line an interval in a pipe or a log. */
#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "human_header.h"
#include "human_summary.h"
#include "sink.h"
#include "units.h"

/* Flush; if the reader of stdout has gone (| head), what is left - the
 * summary above all - goes to stderr.  The SIGPIPE that came with it stops
 * the run as a ^C does (signals.c). */
static void flush_out(struct sink *s)
{
	/* an automatic flush inside a print may have failed already */
	if ((fflush(s->out) == EOF || ferror(s->out)) && errno == EPIPE &&
	    s->out != stderr) {
		s->out = stderr;
		s->dirty_line = 0;
		s->reader_gone = true;
	}
}

static void human_header(struct sink *s, const struct ws_run *run)
{
	human_header_print(s->out, run);
	flush_out(s);
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

	fprintf(m, " %s  %s  now %.1f MiB/s  avg %.1f MiB/s",
		units_format_size(a, sizeof(a), iv->bytes),
		units_format_duration(b, sizeof(b), iv->t_ns), iv->mibps,
		iv->avg_mibps);
	if (iv->ntargets > 1) {	/* the aggregate, and who holds it back */
		const struct ws_interval *slow = &iv->targets[0];

		for (unsigned int i = 1; i < iv->ntargets; i++)
			if (iv->targets[i].mibps < slow->mibps)
				slow = &iv->targets[i];
		fprintf(m, " (%u targets, slowest #%u %.1f MiB/s)", iv->ntargets,
			slow->number, slow->mibps);
	}
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
	if (iv->dt_ns)
		fprintf(m, "  %s %.0f%%", ws_timer_words(iv->busiest),
			100.0 * iv->busiest_share);
}

static void live_line(struct sink *s, const struct ws_run *run,
		      const struct ws_interval *iv)
{
	bool utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	unsigned int cols = columns(s->out);

	if (!m)
		return;		/* no memory for one line: skip this tick */
	if (iv->precondition_eta_ns) {
		fputs("\r\033[K", s->out);
		human_header_precondition_eta(s->out, run, iv);
	}
	live_text(m, iv, utf8);
	fclose(m);
	fputc('\r', s->out);
	put_clipped(s->out, line, cols ? cols - 1 : 0);
	fputs("\033[K", s->out);
	flush_out(s);
	free(line);
	s->dirty_line = 1;
}

static void live_interval(struct sink *s, const struct ws_run *run,
			  const struct ws_interval *iv)
{
	if (!s->reader_gone)	/* the line was for stdout's terminal */
		live_line(s, run, iv);
}

/* One key=value line; with several targets the run's comes after one
 * line per target, and each starts with target=N (the run's: all). */
static void plain_line(struct sink *s, const struct ws_run *run,
		       const struct ws_interval *iv, bool several);

static void plain_interval(struct sink *s, const struct ws_run *run,
			   const struct ws_interval *iv)
{
	if (s->reader_gone)
		return;		/* the lines were for stdout; stderr gets the summary */
	human_header_precondition_eta(s->out, run, iv);
	for (unsigned int i = 0; i < iv->ntargets; i++)
		plain_line(s, run, &iv->targets[i], true);
	plain_line(s, run, iv, run->ntargets > 0);
	flush_out(s);
}

static void plain_line(struct sink *s, const struct ws_run *run,
		       const struct ws_interval *iv, bool several)
{
	if (several && iv->number)
		fprintf(s->out, "target=%u ", iv->number);
	else if (several)
		fputs("target=all ", s->out);
	fprintf(s->out, "t=%.3f bytes=%llu mibps=%.1f avg_mibps=%.1f",
		(double)iv->t_ns / 1e9, (unsigned long long)iv->bytes,
		iv->mibps, iv->avg_mibps);
	if (several && iv->final)
		fputs(" final=1", s->out);
	for (int t = 0; t < WS_T_NR; t++)
		if (run->timer_used[t])
			fprintf(s->out, " %s=%.1f", ws_timer_key((enum ws_timer)t),
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
	if (iv->have_adapt)
		fprintf(s->out, " adapt_chunk_kib=%llu adapt_window=%u adapt_inflight_kib=%llu adapt_sojourn_ms=%.1f adapt_setpoint_ms=%.1f adapt_settled=%d",
			(unsigned long long)(iv->adapt.chunk / WS_KIB), iv->adapt.window,
			(unsigned long long)(iv->adapt.inflight / WS_KIB),
			(double)iv->adapt.sojourn_ns / 1e6,
			(double)iv->adapt.setpoint_ns / 1e6, iv->adapt.settled);
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
}

static void human_summary(struct sink *s, const struct ws_run *run,
			  const struct ws_summary *sum)
{
	bool gone = s->reader_gone;

	if (s->dirty_line)
		fputc('\n', s->out);
	s->dirty_line = 0;
	human_summary_print(s->out, run, sum);
	flush_out(s);
	if (s->reader_gone && !gone)	/* it left during the summary */
		human_summary_print(s->out, run, sum);
}

/* A report that could not be written is a failed run (a full disk under
 * a redirected stdout must not exit 0); a reader that left is a stop by
 * SIGPIPE, the summary on stderr. */
static int human_close(struct sink *s)
{
	if (s->reader_gone)
		return fflush(s->out) ? -EIO : 0;
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
