/* sink_prom.c - --prom FILE: the run's live state in Prometheus's text
 * format for node_exporter's textfile collector (doc/metrics.md).  A
 * state, not a history: each interval replaces FILE by a rename, so a
 * reader never sees half of one.  The `target` label keeps several runs
 * apart; a figure the record has not got is absent, never 0.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint_show.h"
#include "outputs/sink.h"

#define MIB 1048576.0

struct prom {
	char target[WS_MAX_TARGETS * 64 + PATH_MAX];
	char device[32], model[128];
	struct ws_interval last;	/* for the summary */
	bool have_last;
	int err;			/* the first failed publication */
};

/* A label value as the format escapes it: \\, \" and \n. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

static void put_label(FILE *out, const char *key, const char *value)
{
	fprintf(out, ",%s=\"", key);
	put_escaped(out, value);
	fputc('"', out);
}

static void meta(FILE *out, const char *name, const char *type,
		 const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Leaves the braces open for more labels; key may be NULL. */
static void series_open(FILE *out, const struct prom *p, const char *name,
			const char *key, const char *value)
{
	fprintf(out, "%s{target=\"", name);
	put_escaped(out, p->target);
	fputc('"', out);
	if (key)
		put_label(out, key, value);
}

static void series(FILE *out, const struct prom *p, const char *name,
		   const char *key, const char *value)
{
	series_open(out, p, name, key, value);
	fputc('}', out);
}

static void gauge_u64(FILE *out, const struct prom *p, const char *name,
		      const char *help, uint64_t v)
{
	meta(out, name, "gauge", help);
	series(out, p, name, NULL, NULL);
	fprintf(out, " %llu\n", (unsigned long long)v);
}

static void gauge(FILE *out, const struct prom *p, const char *name,
		  const char *help, double v)
{
	meta(out, name, "gauge", help);
	series(out, p, name, NULL, NULL);
	fprintf(out, " %.10g\n", v);
}

static void counter(FILE *out, const struct prom *p, const char *name,
		    const char *help, uint64_t v)
{
	meta(out, name, "counter", help);
	series(out, p, name, NULL, NULL);
	fprintf(out, " %llu\n", (unsigned long long)v);
}

static struct prom *state_of(struct sink *s)
{
	if (!s->priv) {
		s->priv = calloc(1, sizeof(struct prom));
		if (!s->priv)
			abort();	/* a few KiB at start-up */
	}
	return s->priv;
}

static void prom_header(struct sink *s, const struct ws_run *run)
{
	struct prom *p = state_of(s);
	struct ws_buf b = WS_BUF(p->target);

	for (unsigned int i = 0; i < run->ntargets; i++)
		ws_buf_item(&b, ",", "%s", run->targets[i].target.path);
	if (!run->ntargets)
		ws_buf_printf(&b, "%s", run->target.path ? run->target.path : "");
	fingerprint_labels(run->fp, p->device, sizeof(p->device), p->model,
			   sizeof(p->model));
}

static void put_info(FILE *out, const struct prom *p, const struct ws_run *run)
{
	meta(out, "writestress_run_info", "gauge",
	     "The run's facts as labels: target, device, model, kernel, pace, fs, version; always 1.");
	series_open(out, p, "writestress_run_info", "device", p->device);
	put_label(out, "model", p->model);
	put_label(out, "kernel", run->release);
	put_label(out, "pace", run->pace_name ? run->pace_name : "");
	put_label(out, "fs", run->target.fs_type);
	put_label(out, "version", WS_VERSION);
	fputs("} 1\n", out);
	gauge_u64(out, p, "writestress_start_time_seconds",
		  "When the run started, in seconds since the Unix epoch.",
		  (uint64_t)run->started_at);
}

static void put_device(FILE *out, const struct prom *p,
		       const struct ws_interval *iv)
{
	if (iv->have_meminfo) {
		gauge_u64(out, p, "writestress_dirty_bytes",
			  "Dirty page cache of the machine (/proc/meminfo Dirty) at the interval's end.",
			  iv->dirty);
		gauge_u64(out, p, "writestress_writeback_bytes",
			  "Page cache under writeback (/proc/meminfo Writeback) at the interval's end.",
			  iv->writeback);
	}
	if (iv->have_device) {
		meta(out, "writestress_device_throughput_bytes_per_second", "gauge",
		     "Bytes the device under the file completed writing over the latest interval, a second.");
		series(out, p, "writestress_device_throughput_bytes_per_second",
		       "device", p->device);
		fprintf(out, " %.10g\n", iv->dev_mibps * MIB);
		meta(out, "writestress_device_inflight_requests", "gauge",
		     "Requests in flight on the device at the interval's end.");
		series(out, p, "writestress_device_inflight_requests", "device",
		       p->device);
		fprintf(out, " %llu\n", (unsigned long long)iv->dev_inflight);
		meta(out, "writestress_device_busy_ratio", "gauge",
		     "Share of the latest interval the device was busy, 0 to 1.");
		series(out, p, "writestress_device_busy_ratio", "device", p->device);
		fprintf(out, " %.10g\n", iv->dev_busy_pct / 100);
	}
	if (iv->have_psi) {
		gauge(out, p, "writestress_io_pressure_some_ratio",
		      "Share of the latest interval some tasks stalled on I/O (/proc/pressure/io), 0 to 1.",
		      iv->psi_some_pct / 100);
		gauge(out, p, "writestress_io_pressure_full_ratio",
		      "Share of the latest interval all non-idle tasks stalled on I/O, 0 to 1.",
		      iv->psi_full_pct / 100);
	}
}

static void device_counter(FILE *out, const struct prom *p, const char *name,
			   const char *key, const char *value, double v)
{
	series_open(out, p, name, "device", p->device);
	if (key)
		put_label(out, key, value);
	fprintf(out, "} %.10g\n", v);
}

static void hist_series(FILE *out, const struct prom *p, const char *name,
			const char *suffix, const char *const labels[4])
{
	char full[128];

	snprintf(full, sizeof(full), "%s%s", name, suffix);
	series_open(out, p, full, labels[0], labels[1]);
	if (labels[2])
		put_label(out, labels[2], labels[3]);
}

/* labels: one or two KEY, VALUE pairs. */
static void put_histogram(FILE *out, const struct prom *p, const char *name,
			  const char *const labels[4], const struct ws_latency_totals *t)
{
	for (unsigned int b = 0; b < WS_LATENCY_BUCKETS; b++) {
		hist_series(out, p, name, "_bucket", labels);
		fprintf(out, ",le=\"%g\"} %llu\n",
			(double)ws_latency_bounds_ns[b] / 1e9,
			(unsigned long long)t->le[b]);
	}
	hist_series(out, p, name, "_bucket", labels);
	fprintf(out, ",le=\"+Inf\"} %llu\n", (unsigned long long)t->count);
	hist_series(out, p, name, "_sum", labels);
	fprintf(out, "} %.10g\n", (double)t->sum_ns / 1e9);
	hist_series(out, p, name, "_count", labels);
	fprintf(out, "} %llu\n", (unsigned long long)t->count);
}

static void direction_counter(FILE *out, const struct prom *p, const char *name,
			      const char *help, double reads, double writes)
{
	meta(out, name, "counter", help);
	device_counter(out, p, name, "direction", "read", reads);
	device_counter(out, p, name, "direction", "write", writes);
}

/* Counters since the start: the record's block_run and journal_run. */
static void put_traced(FILE *out, const struct prom *p, const struct ws_interval *iv)
{
	static const char *const dirs[WS_BLK_NR] = { "read", "write" };
	const struct ws_block_figures *b = &iv->block_run;
	const struct ws_journal_figures *j = &iv->journal_run;

	if (!iv->block.on)
		return;
	direction_counter(out, p, "writestress_block_requests_total",
			  "Requests the traced device completed, by direction.",
			  (double)b->dir[WS_BLK_READ].requests,
			  (double)b->dir[WS_BLK_WRITE].requests);
	direction_counter(out, p, "writestress_block_bytes_total",
			  "Bytes of the requests the traced device completed, by direction.",
			  (double)b->dir[WS_BLK_READ].bytes,
			  (double)b->dir[WS_BLK_WRITE].bytes);
	direction_counter(out, p, "writestress_block_service_seconds_total",
			  "The device's own time for its requests, issue to completion, added up, by direction.",
			  (double)b->dir[WS_BLK_READ].service_ns / 1e9,
			  (double)b->dir[WS_BLK_WRITE].service_ns / 1e9);
	meta(out, "writestress_block_queue_wait_seconds", "histogram",
	     "The traced device's requests' wait in the queue, getrq to issue (0 when not seen), by direction (fixed buckets, exact).");
	for (int d = 0; d < WS_BLK_NR; d++) {
		const char *const labels[4] = { "device", p->device, "direction", dirs[d] };

		put_histogram(out, p, "writestress_block_queue_wait_seconds", labels,
			      &b->dir[d].queue);
	}
	meta(out, "writestress_block_request_service_seconds", "histogram",
	     "The traced device's time for each request, issue to completion, by direction (fixed buckets, exact).");
	for (int d = 0; d < WS_BLK_NR; d++) {
		const char *const labels[4] = { "device", p->device, "direction", dirs[d] };

		put_histogram(out, p, "writestress_block_request_service_seconds", labels,
			      &b->dir[d].service);
	}
	meta(out, "writestress_block_submitter_service_seconds_total", "counter",
	     "The device's time for the requests of each submitter: writer, probes, journal, flusher, other.");
	for (int k = 0; k < WS_SUB_NR; k++)
		device_counter(out, p, "writestress_block_submitter_service_seconds_total",
			       "submitter", ws_submitter_name((enum ws_submitter)k),
			       (double)b->by[k].service_ns / 1e9);
	meta(out, "writestress_block_flushes_total", "counter",
	     "Cache flushes the traced device completed.");
	device_counter(out, p, "writestress_block_flushes_total", NULL, NULL, (double)b->flushes);
	meta(out, "writestress_block_flush_seconds_total", "counter",
	     "The device's time for the cache flushes whose issue was traced, issue to completion, by who asked for them.");
	for (int k = 0; k < WS_SUB_NR; k++)
		device_counter(out, p, "writestress_block_flush_seconds_total",
			       "submitter", ws_submitter_name((enum ws_submitter)k),
			       (double)b->by[k].flush_ns / 1e9);
	if (b->wbt_on) {
		meta(out, "writestress_wbt_changes_total", "counter",
		     "Times writeback throttling changed its limits on the traced disk (wbt_step).");
		device_counter(out, p, "writestress_wbt_changes_total", NULL, NULL,
			       (double)b->wbt_changes);
	}
	if (b->bios_on) {
		direction_counter(out, p, "writestress_block_bios_total",
				  "Bios queued to the traced device (after any cgroup I/O limit), by direction.",
				  (double)b->dir[WS_BLK_READ].bios,
				  (double)b->dir[WS_BLK_WRITE].bios);
		direction_counter(out, p, "writestress_block_merged_total",
				  "Bios merged into a request and requests merged into another, by direction (the device's merges).",
				  (double)b->dir[WS_BLK_READ].merged,
				  (double)b->dir[WS_BLK_WRITE].merged);
		direction_counter(out, p, "writestress_block_request_wait_seconds_total",
				  "The time bios waited between being queued and getting a request (writeback throttling, a full queue), added up, by direction.",
				  (double)b->dir[WS_BLK_READ].request_wait_ns / 1e9,
				  (double)b->dir[WS_BLK_WRITE].request_wait_ns / 1e9);
	}
	meta(out, "writestress_trace_lost_events_total", "counter",
	     "Events the kernel's trace ring dropped: the traced figures are short by them.");
	device_counter(out, p, "writestress_trace_lost_events_total", NULL, NULL, (double)b->lost);
	if (j->on) {
		counter(out, p, "writestress_journal_commits_total",
			"Journal commits (jbd2) of the target's filesystem that ended.", j->commits);
		meta(out, "writestress_journal_commit_seconds_total", "counter",
		     "Their time, start to end, added up.");
		series(out, p, "writestress_journal_commit_seconds_total", NULL, NULL);
		fprintf(out, " %.10g\n", (double)j->time_ns / 1e9);
	}
	if (j->wb_on) {
		meta(out, "writestress_flusher_works_total", "counter",
		     "Writeback works of the kernel's flusher seen on the traced disk, by why they ran.");
		for (unsigned int r = 0; r < WS_WB_REASONS; r++)
			device_counter(out, p, "writestress_flusher_works_total", "reason",
				       ws_wb_reason_name(r), (double)j->wb_by_reason[r]);
		meta(out, "writestress_flusher_pages_total", "counter",
		     "Pages those works wrote (the passes whose start was traced).");
		device_counter(out, p, "writestress_flusher_pages_total", NULL, NULL,
			       (double)j->wb_pages);
	}
	if (j->dirty_on) {
		meta(out, "writestress_dirty_limit_paused_seconds_total", "counter",
		     "Time writestress's threads were paused by the dirty limit (balance_dirty_pages).");
		series(out, p, "writestress_dirty_limit_paused_seconds_total", NULL, NULL);
		fprintf(out, " %.10g\n", (double)j->dirty_paused_ns / 1e9);
	}
}

/* From the summary at the end, when nothing is in flight. */
static void put_probes(FILE *out, const struct prom *p,
		       const struct ws_interval *iv, const struct ws_summary *sum)
{
	unsigned int n = sum ? sum->nprobes : iv ? iv->nprobes : 0;

	if (!n)
		return;
	meta(out, "writestress_probe_latency_seconds", "histogram",
	     "Latency of each probe's operations since the start (fixed buckets, within 0.8% of a bound).");
	for (unsigned int i = 0; i < n; i++) {
		const char *name = sum ? sum->probes[i].name : iv->probes[i].name;
		const char *const labels[4] = { "probe", name, NULL, NULL };

		put_histogram(out, p, "writestress_probe_latency_seconds", labels,
			      sum ? &sum->probes[i].latency : &iv->probes[i].latency);
	}
	meta(out, "writestress_probe_stalls_total", "counter",
	     "Probe operations that took at least --stall, since the start.");
	for (unsigned int i = 0; i < n; i++) {
		series(out, p, "writestress_probe_stalls_total", "probe",
		       sum ? sum->probes[i].name : iv->probes[i].name);
		fprintf(out, " %llu\n", (unsigned long long)(sum ? sum->probes[i].nstalls :
							      iv->probes[i].stalls_total));
	}
	if (sum)
		return;
	meta(out, "writestress_probe_inflight_seconds", "gauge",
	     "Age of the probe operation in progress at the interval's end, 0 when none.");
	for (unsigned int i = 0; i < n; i++) {
		series(out, p, "writestress_probe_inflight_seconds", "probe",
		       iv->probes[i].name);
		fprintf(out, " %.10g\n", (double)iv->probes[i].inflight_ns / 1e9);
	}
	meta(out, "writestress_probe_blocked", "gauge",
	     "1 while a probe operation has been in flight for at least --stall, else 0.");
	for (unsigned int i = 0; i < n; i++) {
		series(out, p, "writestress_probe_blocked", "probe", iv->probes[i].name);
		fprintf(out, " %d\n", iv->probes[i].blocked);
	}
}

/* Other processes' writes to the disk, by command (a watch's
 * culprits): the top commands, then "others" for the rest.  A process
 * that leaves the tracer's table moves its bytes to "others": a counter
 * may go down, which Prometheus reads as a reset. */
static void put_commands(FILE *out, const struct prom *p, const struct ws_command_bytes *c)
{
	if (!c->traced)
		return;
	meta(out, "writestress_other_written_bytes_total", "counter",
	     "Bytes other processes wrote to the traced disk since the start, by command (theirs, and their pages' writeback).");
	for (unsigned int i = 0; i < c->n; i++) {
		series(out, p, "writestress_other_written_bytes_total", "command", c->cmd[i].comm);
		fprintf(out, " %llu\n", (unsigned long long)c->cmd[i].written);
	}
	series(out, p, "writestress_other_written_bytes_total", "command", "others");
	fprintf(out, " %llu\n", (unsigned long long)c->others);
}

static void put_analysis(FILE *out, const struct prom *p,
			 const struct ws_analysis *a)
{
	gauge_u64(out, p, "writestress_phases",
		  "Phases of throughput the run fell into.", a->nphases);
	gauge(out, p, "writestress_initial_throughput_bytes_per_second",
	      "The first phase's throughput.", a->initial_mibps * MIB);
	gauge_u64(out, p, "writestress_slowed",
		  "1 if throughput fell lastingly below the slowdown fraction of the initial rate, else 0.",
		  a->slowed);
	if (a->slowed) {
		gauge_u64(out, p, "writestress_slowdown_offset_bytes",
			  "Bytes written when the slowdown began.", a->slowdown_bytes);
		gauge(out, p, "writestress_slowdown_offset_seconds",
		      "Seconds into the run when the slowdown began.",
		      (double)a->slowdown_ns / 1e9);
	}
	gauge_u64(out, p, "writestress_steady_state_judged",
		  "1 if at least one window of rounds after preconditioning was judged, else 0.",
		  a->steady.judged);
	gauge_u64(out, p, "writestress_steady_state_reached",
		  "1 if throughput was in steady state at the end, else 0.",
		  a->steady.reached);
	if (a->steady.reached) {
		gauge(out, p, "writestress_steady_state_throughput_bytes_per_second",
		      "Throughput of the final steady stretch.",
		      a->steady.final.mibps * MIB);
		gauge_u64(out, p, "writestress_steady_state_offset_bytes",
			  "Bytes written when steady state was established.",
			  a->steady.at_bytes);
	}
}

static void put_ending(FILE *out, const struct prom *p, const struct ws_run *run,
		       const struct ws_summary *sum)
{
	const struct ws_ending *e = &sum->ending;

	meta(out, "writestress_ending_info", "gauge",
	     "How the run ended: reason (bound, time, signal, error, ...), signal, error; always 1.");
	series_open(out, p, "writestress_ending_info", "reason", ws_stop_key(e->reason));
	put_label(out, "signal", e->reason == WS_STOP_SIGNAL && e->signal ? e->signal : "");
	put_label(out, "error", e->reason == WS_STOP_ERROR ? strerror(e->err) : "");
	fputs("} 1\n", out);
	meta(out, "writestress_end_time_seconds", "gauge",
	     "When the data was on disk, in seconds since the Unix epoch.");
	series(out, p, "writestress_end_time_seconds", NULL, NULL);
	fprintf(out, " %.3f\n", (double)run->started_at + (double)sum->elapsed_ns / 1e9);
}

/* iv NULL: no interval yet; sum NULL: still running. */
static void put_state(FILE *out, const struct prom *p, const struct ws_run *run,
		      const struct ws_interval *iv, const struct ws_summary *sum)
{
	put_info(out, p, run);
	gauge_u64(out, p, "writestress_run_finished",
		  "1 once the run has ended (this file then holds its last state), 0 while it runs.",
		  sum != NULL);
	if (sum)
		put_ending(out, p, run, sum);
	gauge(out, p, "writestress_elapsed_seconds",
	      "Seconds since the writer started (at the end: until the data was on disk).",
	      sum ? (double)sum->elapsed_ns / 1e9 : iv ? (double)iv->t_ns / 1e9 : 0);
	counter(out, p, "writestress_written_bytes_total",
		"Bytes written to the target (all targets) since the start.",
		sum ? sum->bytes : iv ? iv->bytes : 0);
	/* several targets: the run's plan is each one's, not their sum */
	if (run->plan.total != WS_UNBOUNDED && !run->ntargets)
		gauge_u64(out, p, "writestress_planned_bytes",
			  "Bytes the run is to write (absent when bounded only by time or a signal).",
			  run->plan.total);
	if (iv) {
		gauge(out, p, "writestress_throughput_bytes_per_second",
		      "Bytes written over the latest interval, a second.",
		      iv->mibps * MIB);
		gauge(out, p, "writestress_interval_seconds",
		      "Length of the latest interval.", (double)iv->dt_ns / 1e9);
	}
	if (sum || iv)
		gauge(out, p, "writestress_average_throughput_bytes_per_second",
		      "Bytes written since the start, a second.",
		      sum ? sum->mibps * MIB : iv->avg_mibps * MIB);
	if (iv && !sum && iv->progress >= 0)
		gauge(out, p, "writestress_progress_ratio",
		      "Share of the planned bytes or time done, 0 to 1.", iv->progress);
	if (iv) {
		put_device(out, p, iv);
		put_traced(out, p, iv);
	}
	put_probes(out, p, iv, sum);
	if (sum) {
		struct ws_command_bytes c;

		ws_culprits_by_command(&sum->culprits, &c);
		put_commands(out, p, &c);
	} else if (iv) {
		put_commands(out, p, &iv->commands);
	}
	if (sum && sum->analysis)
		put_analysis(out, p, sum->analysis);
}

static void publish(struct sink *s, struct prom *p)
{
	int ret;

	if (!s->out)
		return;
	ret = sink_publish_file(s);
	if (ret && !p->err)
		p->err = ret;
}

static void prom_interval(struct sink *s, const struct ws_run *run,
			  const struct ws_interval *iv)
{
	struct prom *p = state_of(s);

	p->last = *iv;
	p->last.targets = NULL;		/* the recorder's, gone by the end */
	p->last.ntargets = 0;
	p->have_last = true;
	if (sink_reopen_file(s))	/* a failed publish left none */
		return;
	put_state(s->out, p, run, iv, NULL);
	publish(s, p);
}

static void prom_summary(struct sink *s, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	struct prom *p = state_of(s);

	/* close publishes it */
	if (!sink_reopen_file(s))
		put_state(s->out, p, run, p->have_last ? &p->last : NULL, sum);
}

static int prom_close(struct sink *s)
{
	struct prom *p = state_of(s);
	int ret = p->err;

	if (s->out) {
		int c = sink_close_file(s);

		if (!ret)
			ret = c;
	}
	free(s->priv);
	s->priv = NULL;
	return ret;
}

static void prom_abort(struct sink *s)
{
	free(s->priv);
	s->priv = NULL;
}

const struct sink_ops sink_prom_ops = {
	.name = "prom",
	.header = prom_header,
	.interval = prom_interval,
	.summary = prom_summary,
	.close = prom_close,
	.abort = prom_abort,
};
