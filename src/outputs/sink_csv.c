/* sink_csv.c - the interval series as RFC 4180 CSV, streamed.  Several
 * targets: a row per target, then the run's (target "all"). */
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "outputs/sink.h"

static const char *const probe_cols[] = {
	"n", "p50_ms", "p99_ms", "max_ms", "stalls", "inflight_ms", "errors",
};

static void field(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	ws_csv_field(out, s);
}

static const char *const adapt_cols[] = {
	"adapt_chunk_bytes", "adapt_window", "adapt_inflight_bytes",
	"adapt_sojourn_ms", "adapt_setpoint_ms", "adapt_settled",
	"adapt_why", "adapt_unreachable",
	"adapt_disk_mibps", "adapt_rate_cap_mibps",	/* --headroom: empty without */
};

static bool adaptive(const struct ws_run *run)
{
	return run->set.pace == WS_PACE_ADAPTIVE;
}

/* Empty where not traced. */
static const char *const traced_cols[] = {
	"blk_write_requests", "blk_write_bytes", "blk_write_service_ms",
	"blk_max_service_ms", "blk_flushes", "blk_flush_ms", "blk_lost_events",
	"jbd2_commits", "jbd2_commit_ms", "jbd2_max_commit_ms", "dirty_paused_ms",
	"blk_write_bios", "blk_write_merged", "blk_write_request_wait_ms",
	"blk_write_max_request_wait_ms", "flusher_works", "flusher_pages",
	"wbt_changes", "wbt_normal_limit",
};

static void put_traced(FILE *out, const struct ws_interval *iv)
{
	const struct ws_block_dir *w = &iv->block.dir[WS_BLK_WRITE];
	const struct ws_journal_figures *j = &iv->journal;

	if (iv->block.on)
		fprintf(out, ",%llu,%llu,%.3f,%.3f,%llu,%.3f,%llu",
			(unsigned long long)w->requests, (unsigned long long)w->bytes,
			(double)w->service_ns / 1e6,
			(double)(w->max_service_ns > iv->block.dir[WS_BLK_READ].max_service_ns ?
				 w->max_service_ns : iv->block.dir[WS_BLK_READ].max_service_ns) / 1e6,
			(unsigned long long)iv->block.flushes, (double)iv->block.flush_ns / 1e6,
			(unsigned long long)iv->block.lost);
	else
		fputs(",,,,,,,", out);
	if (iv->block.on && j->on)
		fprintf(out, ",%llu,%.3f,%.3f", (unsigned long long)j->commits,
			(double)j->time_ns / 1e6, (double)j->max_ns / 1e6);
	else
		fputs(",,,", out);
	if (iv->block.on && j->dirty_on)
		fprintf(out, ",%.3f", (double)j->dirty_paused_ns / 1e6);
	else
		fputc(',', out);
	if (iv->block.on && iv->block.bios_on)
		fprintf(out, ",%llu,%llu,%.3f,%.3f", (unsigned long long)w->bios,
			(unsigned long long)w->merged, (double)w->request_wait_ns / 1e6,
			(double)w->max_request_wait_ns / 1e6);
	else
		fputs(",,,,", out);
	if (iv->block.on && j->wb_on)
		fprintf(out, ",%llu,%llu", (unsigned long long)j->wb_works,
			(unsigned long long)j->wb_pages);
	else
		fputs(",,", out);
	if (iv->block.on && iv->block.wbt_on) {
		fprintf(out, ",%llu,", (unsigned long long)iv->block.wbt_changes);
		if (iv->block.wbt.known)
			fprintf(out, "%u", iv->block.wbt.normal);
	} else {
		fputs(",,", out);
	}
}

/* Other processes' writes (watch, or a traced run), on the disk's rows
 * (as the JSON): empty where not traced and on a target's row, the
 * second writer's where the interval had only one. */
static const char *const writer_cols[] = {
	"others_bytes", "writer1", "writer1_pid", "writer1_bytes",
	"writer2", "writer2_pid", "writer2_bytes",
};
_Static_assert(ARRAY_SIZE(writer_cols) == 1 + 3 * WS_STALL_CULPRITS,
	       "a command, pid and bytes column for each writer an interval names");

/* Any process names itself: no control character in a cell, and no
 * leading = + - @, which a spreadsheet would run as a formula. */
static void put_command(FILE *out, const char *comm)
{
	char safe[WS_COMM_LEN + 1];
	size_t n = 0;

	if (strchr("=+-@", comm[0]) && comm[0])
		safe[n++] = '\'';
	for (const char *c = comm; *c && n < sizeof(safe) - 1; c++)
		safe[n++] = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
	safe[n] = '\0';
	ws_csv_field(out, safe);
}

static void put_writers(FILE *out, const struct ws_writers_now *w, bool target_row)
{
	unsigned int i;

	if (!w->traced || target_row) {
		fputs(",,,,,,,", out);
		return;
	}
	fprintf(out, ",%llu", (unsigned long long)w->total_written);
	for (i = 0; i < w->n && i < WS_STALL_CULPRITS; i++) {
		fputc(',', out);
		put_command(out, w->top[i].comm);
		fprintf(out, ",%d,%llu", (int)w->top[i].pid,
			(unsigned long long)w->top[i].written);
	}
	for (; i < WS_STALL_CULPRITS; i++)
		fputs(",,,", out);
}

static void csv_header(struct sink *s, const struct ws_run *run)
{
	static const char *const cols[] = {
		"interval", "t_s", "dt_s", "bytes", "dbytes", "mibps", "avg_mibps",
	};
	char name[64];

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++) {
		field(s->out, cols[i], i == 0);
		if (!i && run->ntargets)
			field(s->out, "target", false);
	}
	for (int t = 0; t < WS_T_NR; t++)
		field(s->out, ws_timer_key((enum ws_timer)t), false);
	field(s->out, "dirty_bytes", false);
	field(s->out, "writeback_bytes", false);
	field(s->out, "dev_mibps", false);
	field(s->out, "dev_bytes", false);
	field(s->out, "dev_inflight", false);
	field(s->out, "dev_busy_pct", false);
	field(s->out, "psi_some_pct", false);
	field(s->out, "psi_full_pct", false);
	for (size_t c = 0; c < ARRAY_SIZE(traced_cols); c++)
		field(s->out, traced_cols[c], false);
	for (size_t c = 0; c < ARRAY_SIZE(writer_cols); c++)
		field(s->out, writer_cols[c], false);
	if (adaptive(run))
		for (size_t c = 0; c < ARRAY_SIZE(adapt_cols); c++)
			field(s->out, adapt_cols[c], false);
	for (unsigned int p = 0; p < run->probes.n; p++) {
		for (size_t c = 0; c < ARRAY_SIZE(probe_cols); c++) {
			snprintf(name, sizeof(name), "%s_%s", run->probes.names[p],
				 probe_cols[c]);
			field(s->out, name, false);
		}
	}
	fputs("\r\n", s->out);
}

static void csv_row(struct sink *s, const struct ws_run *run,
		    const struct ws_interval *iv)
{
	fprintf(s->out, "%llu", (unsigned long long)iv->index);
	if (iv->number)
		fprintf(s->out, ",%u", iv->number);
	else if (run->ntargets)
		fputs(",all", s->out);
	fprintf(s->out, ",%.6f,%.6f,%llu,%llu,%.3f,%.3f", (double)iv->t_ns / 1e9,
		(double)iv->dt_ns / 1e9, (unsigned long long)iv->bytes,
		(unsigned long long)iv->dbytes, iv->mibps, iv->avg_mibps);
	for (int t = 0; t < WS_T_NR; t++)
		fprintf(s->out, ",%.3f", (double)iv->time_ns[t] / 1e6);
	if (iv->have_meminfo)
		fprintf(s->out, ",%llu,%llu", (unsigned long long)iv->dirty,
			(unsigned long long)iv->writeback);
	else
		fputs(",,", s->out);
	if (iv->have_device)
		fprintf(s->out, ",%.3f,%llu,%llu,%.1f", iv->dev_mibps,
			(unsigned long long)iv->dev_bytes,
			(unsigned long long)iv->dev_inflight, iv->dev_busy_pct);
	else
		fputs(",,,,", s->out);
	if (iv->have_psi)
		fprintf(s->out, ",%.2f,%.2f", iv->psi_some_pct, iv->psi_full_pct);
	else
		fputs(",,", s->out);
	put_traced(s->out, iv);
	put_writers(s->out, &iv->writers, iv->number != 0);
	if (adaptive(run) && iv->have_adapt)
		fprintf(s->out, ",%llu,%u,%llu,%.3f,%.3f,%d,%s,%d",
			(unsigned long long)iv->adapt.chunk, iv->adapt.window,
			(unsigned long long)iv->adapt.inflight,
			(double)iv->adapt.sojourn_ns / 1e6,
			(double)iv->adapt.setpoint_ns / 1e6, iv->adapt.settled,
			ws_adapt_why_key(iv->adapt.why), iv->adapt.unreachable);
	else if (adaptive(run))
		fputs(",,,,,,,,", s->out);
	if (adaptive(run) && iv->have_adapt && iv->adapt.cap_bps)
		fprintf(s->out, ",%.3f,%.3f", (double)iv->adapt.disk_bps / WS_MIB,
			(double)iv->adapt.cap_bps / WS_MIB);
	else if (adaptive(run))
		fputs(",,", s->out);
	for (unsigned int p = 0; p < iv->nprobes; p++) {
		const struct ws_probe_interval *pi = &iv->probes[p];

		/* a figure the interval has not got is an empty field */
		fprintf(s->out, ",%llu", (unsigned long long)pi->count);
		if (ws_probe_has_percentiles(pi))
			fprintf(s->out, ",%.3f,%.3f", (double)pi->p50_ns / 1e6,
				(double)pi->p99_ns / 1e6);
		else
			fputs(",,", s->out);
		fputc(',', s->out);
		if (ws_probe_has_max(pi))
			fprintf(s->out, "%.3f", (double)pi->max_ns / 1e6);
		fprintf(s->out, ",%llu,%.3f,%llu", (unsigned long long)pi->stalls,
			(double)pi->inflight_ns / 1e6, (unsigned long long)pi->errors);
	}
	/* a target's row: the probes' columns are the run's */
	for (unsigned int p = iv->nprobes; p < run->probes.n; p++)
		fputs(",,,,,,,", s->out);
	fputs("\r\n", s->out);
}

static void csv_interval(struct sink *s, const struct ws_run *run,
			 const struct ws_interval *iv)
{
	for (unsigned int i = 0; i < iv->ntargets; i++)
		csv_row(s, run, &iv->targets[i]);
	csv_row(s, run, iv);
}

static int csv_close(struct sink *s)
{
	return sink_close_file(s);
}

const struct sink_ops sink_csv_ops = {
	.name = "csv",
	.header = csv_header,
	.interval = csv_interval,
	.close = csv_close,
};
