/* sink_human.c - the human sinks: a live line on a terminal, or key=value
 * lines in a pipe, between the header and the summary. */
#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human_header.h"
#include "outputs/human_summary.h"
#include "live_line.h"
#include "outputs/sink.h"
#include "lib/term.h"
#include "lib/units.h"

/* If stdout's reader has gone (| head), the rest goes to stderr; the
 * SIGPIPE stops the run as a ^C does. */
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

/* Only a terminal gets lines wrapped at words. */
static void print_fitted(struct sink *s, void (*print)(FILE *, const void *),
			 const void *arg)
{
	unsigned int cols = s->ops == &sink_live_ops && !s->reader_gone ?
			    term_columns(s->out) : 0;
	char *text = NULL;
	size_t len = 0;
	FILE *m = cols ? open_memstream(&text, &len) : NULL;

	if (!m) {
		print(s->out, arg);
		return;
	}
	print(m, arg);
	if (fclose(m))
		print(s->out, arg);
	else
		term_wrap(s->out, text, cols);
	free(text);
}

static void header_text(FILE *out, const void *run)
{
	human_header_print(out, run);
}

static void human_header(struct sink *s, const struct ws_run *run)
{
	print_fitted(s, header_text, run);
	flush_out(s);
}

static void live_line(struct sink *s, const struct ws_run *run,
		      const struct ws_interval *iv)
{
	unsigned int cols = term_columns(s->out);
	/* a line filling the last column wraps on some terminals and scrolls */
	struct live_style style = {
		.room = cols ? cols - 1 : 0,
		.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8"),
		.colour = s->colour,
		.watch = run->set.watch,
	};

	if (iv->precondition_eta_ns) {
		fputs("\r\033[K", s->out);
		human_header_precondition_eta(s->out, run, iv);
	}
	fputc('\r', s->out);
	live_line_print(s->out, iv, &style);
	fputs("\033[K", s->out);
	flush_out(s);
	s->dirty_line = 1;
}

/* Said once, in the first interval that carries it whatever its time:
 * the verdict can reach the recorder an interval late. */
static void out_of_reach_note(FILE *out, const struct ws_run *run,
			      const struct ws_interval *iv, bool clear,
			      unsigned int *said, unsigned int bit)
{
	const struct ws_adapt_figures *a = &iv->adapt;
	char t[32], fl[32], least[32], who[48] = "";
	int p = a->floor_probe;

	if (!iv->have_adapt || !a->unreachable_at_ns || (*said & bit))
		return;
	*said |= bit;
	if (iv->number)
		snprintf(who, sizeof(who), " (target %u)", iv->number);
	if (clear)	/* the live line is redrawn below it */
		fputs("\r\033[K", out);
	fprintf(out, "writestress: --target-latency %s is out of reach on this disk%s: %s took ≥ %s with %s under writeback, the least the writer keeps; holding that floor\n",
		units_format_duration(t, sizeof(t), run->set.pacing.target_latency_ns), who,
		p >= 0 && (unsigned int)p < run->probes.n ? run->probes.names[p] : "a probe",
		units_format_duration(fl, sizeof(fl), a->floor_ns),
		units_format_size(least, sizeof(least), (uint64_t)a->chunk * a->window));
}

static void out_of_reach_notes(struct sink *s, FILE *out, const struct ws_run *run,
			       const struct ws_interval *iv, bool clear)
{
	if (!iv->ntargets)
		out_of_reach_note(out, run, iv, clear, &s->reach_said, 1u);
	for (unsigned int i = 0; i < iv->ntargets; i++)
		out_of_reach_note(out, run, &iv->targets[i], clear,
				  &s->reach_said, 2u << i);
}

static void live_interval(struct sink *s, const struct ws_run *run,
			  const struct ws_interval *iv)
{
	if (s->reader_gone)	/* the line was for stdout's terminal */
		return;
	out_of_reach_notes(s, s->out, run, iv, s->dirty_line);
	live_line(s, run, iv);
}

/* The CSV's column names; a figure the interval has not got is empty. */
static void plain_probe(FILE *out, const struct ws_probe_interval *pi)
{
	fprintf(out, " %s_n=%llu %s_p50_ms=", pi->name, (unsigned long long)pi->count, pi->name);
	if (ws_probe_has_percentiles(pi))
		fprintf(out, "%.3f", (double)pi->p50_ns / 1e6);
	fprintf(out, " %s_p99_ms=", pi->name);
	if (ws_probe_has_percentiles(pi))
		fprintf(out, "%.3f", (double)pi->p99_ns / 1e6);
	fprintf(out, " %s_max_ms=", pi->name);
	if (ws_probe_has_max(pi))
		fprintf(out, "%.3f", (double)pi->max_ns / 1e6);
	fprintf(out, " %s_stalls=%llu %s_inflight_ms=%.1f", pi->name,
		(unsigned long long)pi->stalls, pi->name, (double)pi->inflight_ns / 1e6);
	if (pi->errors)
		fprintf(out, " %s_errors=%llu", pi->name, (unsigned long long)pi->errors);
}

/* Other processes' writes, traced: their bytes, and the top two's
 * commands (a command's blanks become '_', so a line stays key=value). */
static void plain_writers(FILE *out, const struct ws_writers_now *w)
{
	if (!w->traced)
		return;
	fprintf(out, " others_bytes=%llu", (unsigned long long)w->total_written);
	for (unsigned int i = 0; i < w->n; i++) {
		char comm[WS_COMM_LEN];

		snprintf(comm, sizeof(comm), "%s", w->top[i].comm);
		for (char *c = comm; *c; c++)
			if (*c == ' ' || *c == '=' || (unsigned char)*c < 0x21)
				*c = '_';
		fprintf(out, " writer%u=%s writer%u_pid=%d writer%u_bytes=%llu", i + 1, comm,
			i + 1, (int)w->top[i].pid, i + 1, (unsigned long long)w->top[i].written);
	}
}

static void plain_line(struct sink *s, const struct ws_run *run,
		       const struct ws_interval *iv, bool several);

static void plain_interval(struct sink *s, const struct ws_run *run,
			   const struct ws_interval *iv)
{
	if (s->reader_gone)
		return;		/* stderr gets only the summary */
	out_of_reach_notes(s, stderr, run, iv, false);	/* stdout's lines stay key=value */
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
		fprintf(s->out, " dirty_bytes=%llu writeback_bytes=%llu",
			(unsigned long long)iv->dirty,
			(unsigned long long)iv->writeback);
	if (iv->have_device)
		fprintf(s->out, " dev_mibps=%.1f dev_inflight=%llu dev_busy_pct=%.0f",
			iv->dev_mibps, (unsigned long long)iv->dev_inflight,
			iv->dev_busy_pct);
	if (iv->have_psi)
		fprintf(s->out, " psi_some_pct=%.1f psi_full_pct=%.1f",
			iv->psi_some_pct, iv->psi_full_pct);
	if (iv->have_adapt)
		fprintf(s->out, " adapt_chunk_bytes=%llu adapt_window=%u adapt_inflight_bytes=%llu adapt_sojourn_ms=%.1f adapt_setpoint_ms=%.1f adapt_settled=%d",
			(unsigned long long)iv->adapt.chunk, iv->adapt.window,
			(unsigned long long)iv->adapt.inflight,
			(double)iv->adapt.sojourn_ns / 1e6,
			(double)iv->adapt.setpoint_ns / 1e6, iv->adapt.settled);
	if (iv->have_adapt)
		fprintf(s->out, " adapt_why=%s adapt_unreachable=%d",
			ws_adapt_why_key(iv->adapt.why), iv->adapt.unreachable);
	if (iv->have_adapt && iv->adapt.cap_bps)
		fprintf(s->out, " adapt_disk_mibps=%.1f adapt_rate_cap_mibps=%.1f",
			(double)iv->adapt.disk_bps / WS_MIB,
			(double)iv->adapt.cap_bps / WS_MIB);
	for (unsigned int i = 0; i < iv->nprobes; i++)
		plain_probe(s->out, &iv->probes[i]);
	plain_writers(s->out, &iv->writers);
	fputc('\n', s->out);
}

struct summary_args {
	const struct ws_run *run;
	const struct ws_summary *sum;
	bool verbose;
};

static void summary_text(FILE *out, const void *arg)
{
	const struct summary_args *a = arg;

	human_summary_print(out, a->run, a->sum, a->verbose);
}

static void human_summary(struct sink *s, const struct ws_run *run,
			  const struct ws_summary *sum)
{
	struct summary_args args = { run, sum, s->verbose };
	bool gone = s->reader_gone;

	if (s->dirty_line)	/* the summary takes the live line's place */
		fputs("\r\033[K", s->out);
	s->dirty_line = 0;
	print_fitted(s, summary_text, &args);
	flush_out(s);
	if (s->reader_gone && !gone)	/* it left during the summary */
		human_summary_print(s->out, run, sum, s->verbose);
}

/* A full disk under a redirected stdout must not exit 0. */
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
