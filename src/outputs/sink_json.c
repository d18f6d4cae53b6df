/* sink_json.c - the result as one JSON document (doc/result-json.md),
 * written as the run goes into a temporary that close renames: complete
 * and valid, or absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fingerprint_show.h"
#include "sink_json.h"
#include "lib/jsonw.h"
#include "lib/units.h"
#include "outputs/sink.h"

#define WS_JSON_SCHEMA "writestress-result/1"

static struct jsonw *writer_of(struct sink *s)
{
	if (!s->priv) {
		s->priv = calloc(1, sizeof(struct jsonw));
		if (!s->priv)
			abort();	/* 200 bytes at start-up */
		jsonw_init(s->priv, s->out);
	}
	return s->priv;
}

static void json_header(struct sink *s, const struct ws_run *run)
{
	struct jsonw *w = writer_of(s);
	char when[32];
	time_t t = (time_t)run->started_at;
	struct tm tm;

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	jsonw_object(w, NULL);
	jsonw_str(w, "schema", WS_JSON_SCHEMA);
	jsonw_tool(w);
	jsonw_array(w, "command_line");
	for (int i = 0; i < run->argc; i++)
		jsonw_str(w, NULL, run->argv[i]);
	jsonw_end(w);
	jsonw_str(w, "started_at", when);
	jsonw_str(w, "mode", run->set.watch ? "watch" : "run");
	json_put_config(w, run);
	json_put_system(w, run);
	if (run->fp)
		fingerprint_json(run->fp, w);
	jsonw_array(w, "intervals");
}

static void put_adapt_fields(struct jsonw *w, const struct ws_adapt_figures *a)
{
	jsonw_u64(w, "chunk_bytes", a->chunk);
	jsonw_u64(w, "window", a->window);
	jsonw_u64(w, "inflight_bytes", a->inflight);
	jsonw_ms(w, "sojourn_ms", a->sojourn_ns);
	jsonw_ms(w, "setpoint_ms", a->setpoint_ns);
	jsonw_bool(w, "settled", a->settled);
	jsonw_bool(w, "at_floor", a->at_floor);
	jsonw_str(w, "why", ws_adapt_why_key(a->why));
	jsonw_bool(w, "unreachable", a->unreachable);
	/* --headroom: null without one, or before the disk showed its rate */
	if (a->cap_bps) {
		jsonw_double(w, "disk_mibps", (double)a->disk_bps / WS_MIB);
		jsonw_double(w, "rate_cap_mibps", (double)a->cap_bps / WS_MIB);
	} else {
		jsonw_null(w, "disk_mibps");
		jsonw_null(w, "rate_cap_mibps");
	}
}

static const char *probe_name(const struct ws_probe_facts *pf, int i)
{
	return i >= 0 && (unsigned int)i < pf->n ? pf->names[i] : NULL;
}

/* Headroom tried before the target was called out of reach. */
static void put_adapt_attempts(struct jsonw *w, const struct ws_adapt_figures *a)
{
	jsonw_u64(w, "headroom_pct", a->headroom_pct);
	jsonw_array(w, "headroom_attempts");
	for (unsigned int i = 0; i < a->nattempts && i < WS_ADAPT_ATTEMPTS; i++) {
		jsonw_object(w, NULL);
		jsonw_u64(w, "headroom_pct", a->attempt[i].headroom_pct);
		jsonw_bool(w, "met", a->attempt[i].met);
		jsonw_ms(w, "worst_ms", a->attempt[i].worst_ns);
		jsonw_end(w);
	}
	jsonw_end(w);
	if (a->headroom_met_ns)
		jsonw_seconds(w, "headroom_met_since_s", a->headroom_met_ns);
	else
		jsonw_null(w, "headroom_met_since_s");
}

static void put_adapt_account(struct jsonw *w, const struct ws_adapt_figures *a,
			      const struct ws_probe_facts *pf)
{
	jsonw_str(w, "steered_by", probe_name(pf, a->steering));
	jsonw_object(w, "waits");
	for (unsigned int i = 0; i < pf->n && i < WS_MAX_PROBES; i++)
		if (a->waits[i] > 0)
			jsonw_double(w, pf->names[i], a->waits[i]);
	jsonw_end(w);
	jsonw_object(w, "idle_ms");
	for (unsigned int i = 0; i < pf->n && i < WS_MAX_PROBES; i++)
		if (a->waits[i] > 0)
			jsonw_ms(w, pf->names[i], a->idle_ns[i]);
	jsonw_end(w);
	put_adapt_attempts(w, a);
	if (!a->unreachable_at_ns) {
		jsonw_null(w, "out_of_reach");
		return;
	}
	jsonw_object(w, "out_of_reach");
	jsonw_seconds(w, "since_s", a->unreachable_at_ns);
	jsonw_str(w, "probe", probe_name(pf, a->floor_probe));
	jsonw_ms(w, "floor_ms", a->floor_ns);
	jsonw_bool(w, "until_the_end", a->unreachable);
	jsonw_end(w);
}

static void put_adapt(struct jsonw *w, const struct ws_adapt_figures *a)
{
	jsonw_object(w, "adaptive");
	put_adapt_fields(w, a);
	jsonw_end(w);
}

static void put_interval(struct jsonw *w, const struct ws_interval *iv)
{
	if (iv->number) {
		jsonw_u64(w, "number", iv->number);
		jsonw_bool(w, "final", iv->final);
	}
	jsonw_seconds(w, "t_s", iv->t_ns);
	jsonw_seconds(w, "dt_s", iv->dt_ns);
	jsonw_u64(w, "bytes", iv->bytes);
	jsonw_u64(w, "dbytes", iv->dbytes);
	jsonw_double(w, "mibps", iv->mibps);
	jsonw_object(w, "writer_ms");
	for (int t = 0; t < WS_T_NR; t++)
		jsonw_ms(w, ws_timer_json((enum ws_timer)t), iv->time_ns[t]);
	jsonw_end(w);
	if (iv->have_meminfo) {
		jsonw_u64(w, "dirty", iv->dirty);
		jsonw_u64(w, "writeback", iv->writeback);
	}
	if (iv->have_device) {
		jsonw_object(w, "device");
		jsonw_double(w, "write_mibps", iv->dev_mibps);
		jsonw_u64(w, "write_bytes", iv->dev_bytes);
		jsonw_u64(w, "in_flight", iv->dev_inflight);
		jsonw_double(w, "busy_pct", iv->dev_busy_pct);
		jsonw_end(w);
	}
	if (iv->block.on) {
		jsonw_object(w, "block");
		json_put_block(w, &iv->block);
		json_put_journal(w, &iv->journal);
		jsonw_end(w);
	}
	if (iv->have_adapt)
		put_adapt(w, &iv->adapt);
	if (iv->have_psi) {
		jsonw_object(w, "psi_io");
		jsonw_double(w, "some_pct", iv->psi_some_pct);
		jsonw_double(w, "full_pct", iv->psi_full_pct);
		jsonw_end(w);
	}
	jsonw_object(w, "probes");
	for (unsigned int i = 0; i < iv->nprobes; i++) {
		const struct ws_probe_interval *pi = &iv->probes[i];

		jsonw_object(w, pi->name);
		jsonw_u64(w, "count", pi->count);
		jsonw_u64(w, "n", pi->count);	/* count's older name */
		/* a figure the interval has not got is null, never 0 */
		if (ws_probe_has_percentiles(pi)) {
			jsonw_ms(w, "p50_ms", pi->p50_ns);
			jsonw_ms(w, "p99_ms", pi->p99_ns);
		} else {
			jsonw_null(w, "p50_ms");
			jsonw_null(w, "p99_ms");
		}
		if (ws_probe_has_max(pi))
			jsonw_ms(w, "max_ms", pi->max_ns);
		else
			jsonw_null(w, "max_ms");
		jsonw_u64(w, "stalls", pi->stalls);
		jsonw_u64(w, "errors", pi->errors);
		jsonw_ms(w, "inflight_ms", pi->inflight_ns);
		jsonw_end(w);
	}
	jsonw_end(w);
	if (!iv->number)	/* the disk's, not a target's */
		json_put_writers(w, &iv->writers);
	if (!iv->ntargets)
		return;
	jsonw_array(w, "targets");
	for (unsigned int i = 0; i < iv->ntargets; i++) {
		jsonw_object(w, NULL);
		put_interval(w, &iv->targets[i]);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void json_interval(struct sink *s, const struct ws_run *run,
			  const struct ws_interval *iv)
{
	struct jsonw *w = writer_of(s);

	(void)run;
	jsonw_object(w, NULL);
	put_interval(w, iv);
	jsonw_end(w);
}

static void put_stall(struct jsonw *w, const char *key, const struct ws_stall *st,
		      const char *probe, const struct ws_culprits *run)
{
	char why[WS_STALL_WORDS_LEN];
	enum ws_stall_cause cause = st->reason.cause;

	jsonw_object(w, key);
	jsonw_seconds(w, "start_s", st->start_ns);
	jsonw_ms(w, "duration_ms", st->duration_ns);
	jsonw_u64(w, "writer_bytes", st->writer_bytes);
	jsonw_u64(w, "dirty", st->dirty);
	jsonw_u64(w, "writeback", st->writeback);
	jsonw_str(w, "wait_site", st->site[0] ? st->site : NULL);
	/* null when the run was not traced */
	jsonw_str(w, "cause", cause ? ws_stall_cause_name(cause) : NULL);
	jsonw_str(w, "why", cause ? ws_stall_words(st, probe, why, sizeof(why)) : NULL);
	json_put_stall_culprits(w, &st->culprits, run);
	jsonw_end(w);
}

static void put_percentiles(struct jsonw *w, const char *key, uint64_t count,
			    uint64_t p50, uint64_t p90, uint64_t p99,
			    uint64_t p999)
{
	jsonw_object(w, key);
	jsonw_u64(w, "count", count);
	jsonw_ms(w, "p50_ms", p50);
	jsonw_ms(w, "p90_ms", p90);
	jsonw_ms(w, "p99_ms", p99);
	jsonw_ms(w, "p99_9_ms", p999);
	jsonw_end(w);
}

/* So a reader can recompute any percentile. */
static void put_hist(struct jsonw *w, const char *key, const struct hist *h)
{
	jsonw_array(w, key);
	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		if (!h->counts[b])
			continue;
		jsonw_array(w, NULL);
		jsonw_u64(w, NULL, hist_bucket_low(b));
		jsonw_u64(w, NULL, hist_bucket_high(b));
		jsonw_u64(w, NULL, h->counts[b]);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void put_failures(struct jsonw *w, const struct ws_probe_summary *ps)
{
	char why[128];

	jsonw_object(w, "failures");
	jsonw_u64(w, "count", ps->errors);
	if (ps->errors)
		jsonw_str(w, "last", ws_probe_failure_words(&ps->last_fail, ps->last_error,
							    why, sizeof(why)));
	else
		jsonw_null(w, "last");
	if (ps->last_stderr[0])
		jsonw_str(w, "last_stderr", ps->last_stderr);
	else
		jsonw_null(w, "last_stderr");
	jsonw_end(w);
}

static void put_probe(struct jsonw *w, const struct ws_probe_summary *ps,
		      const struct ws_culprits *run)
{
	char why[128];

	jsonw_object(w, NULL);
	jsonw_str(w, "name", ps->name);
	jsonw_u64(w, "count", ps->count);
	jsonw_u64(w, "errors", ps->errors);
	if (ps->errors)
		jsonw_str(w, "last_error", ws_probe_failure_words(&ps->last_fail, ps->last_error,
								  why, sizeof(why)));
	else
		jsonw_null(w, "last_error");
	put_failures(w, ps);
	put_percentiles(w, "raw", ps->count, ps->p50, ps->p90, ps->p99, ps->p999);
	jsonw_ms(w, "max_ms", ps->max);
	put_percentiles(w, "corrected", ps->c_count, ps->c_p50, ps->c_p90,
			ps->c_p99, ps->c_p999);
	jsonw_u64(w, "missed_slots", ps->sched_misses);
	jsonw_object(w, "after_end");
	jsonw_u64(w, "count", ps->after_end);
	jsonw_ms(w, "max_ms", ps->after_end_max_ns);
	jsonw_end(w);
	jsonw_object(w, "stalls");
	jsonw_u64(w, "count", ps->nstalls);
	jsonw_seconds(w, "total_s", ps->stall_total_ns);
	if (ps->nstalls)
		put_stall(w, "longest", &ps->longest, ps->name, run);
	else
		jsonw_null(w, "longest");
	jsonw_array(w, "records");
	for (unsigned int k = 0; k < ps->nrecorded; k++)
		put_stall(w, NULL, &ps->stalls[k], ps->name, run);
	jsonw_end(w);
	jsonw_u64(w, "records_dropped", ps->nstalls - ps->nrecorded);
	jsonw_end(w);
	jsonw_array(w, "wait_sites");
	for (unsigned int k = 0; k < ps->nsites; k++) {
		jsonw_object(w, NULL);
		jsonw_str(w, "name", ps->sites[k].name);
		jsonw_u64(w, "samples", ps->sites[k].samples);
		jsonw_u64(w, "stalls", ps->sites[k].stalls);
		jsonw_end(w);
	}
	jsonw_end(w);
	put_hist(w, "histogram_ns", &ps->raw);
	jsonw_end(w);
}

static void put_cpu(struct jsonw *w, const struct ws_summary *sum)
{
	jsonw_object(w, "cpu");
	if (sum->cpu_ns) {
		jsonw_seconds(w, "total_s", sum->cpu_ns);
		jsonw_double(w, "per_gib_s", sum->cpu_s_per_gib);
	} else {	/* a target's: only its writer's is its own */
		jsonw_null(w, "total_s");
		jsonw_null(w, "per_gib_s");
	}
	jsonw_seconds(w, "writer_s", sum->cpu_writer_ns);
	if (sum->cpu_ns) {
		jsonw_seconds(w, "probes_s", sum->cpu_probes_ns);
		jsonw_seconds(w, "other_s", sum->cpu_ns > sum->cpu_writer_ns + sum->cpu_probes_ns ?
			      sum->cpu_ns - sum->cpu_writer_ns - sum->cpu_probes_ns : 0);
	} else {
		jsonw_null(w, "probes_s");
		jsonw_null(w, "other_s");
	}
	if (sum->verified)
		jsonw_seconds(w, "verify_s", sum->cpu_verify_ns);
	else
		jsonw_null(w, "verify_s");
	jsonw_end(w);
}

static void put_verify(struct jsonw *w, const struct ws_summary *sum)
{
	const struct ws_verify *v = &sum->verify;

	if (!sum->verified) {
		jsonw_null(w, "verify");
		return;
	}
	jsonw_object(w, "verify");
	jsonw_u64(w, "run", v->run);
	jsonw_u64(w, "blocks", v->blocks);
	for (int s = 0; s < WS_BLOCK_NR; s++)
		jsonw_u64(w, ws_block_state_key((enum ws_block_state)s), v->count[s]);
	jsonw_u64(w, "lost", v->stale);
	jsonw_u64(w, "newest_pass", v->last_pass);
	jsonw_u64(w, "newest_pass_end", v->last_pass_end);
	jsonw_bool(w, "clean", v->clean);
	if (v->err)
		jsonw_str(w, "read_error", strerror(v->err));
	else
		jsonw_null(w, "read_error");
	jsonw_array(w, "bad");
	for (unsigned int i = 0; i < v->nlisted; i++) {
		const struct ws_verify_bad *b = &v->listed[i];

		jsonw_object(w, NULL);
		jsonw_u64(w, "offset", b->offset);
		jsonw_str(w, "state", b->stale ? "lost" : ws_block_state_key(b->state));
		if (b->state == WS_BLOCK_MISPLACED)
			jsonw_u64(w, "written_for", b->found);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

static void put_adapt_summary(struct jsonw *w, const struct ws_summary *sum,
			      const struct ws_probe_facts *pf)
{
	if (!sum->have_adapt) {
		jsonw_null(w, "adaptive");
		return;
	}
	jsonw_object(w, "adaptive");
	put_adapt_fields(w, &sum->adapt);
	put_adapt_account(w, &sum->adapt, pf);
	jsonw_ms(w, "target_latency_ms", sum->target_latency_ns);
	if (sum->adapt.settled)
		jsonw_seconds(w, "settled_s", sum->adapt_settled_ns);
	else
		jsonw_null(w, "settled_s");
	jsonw_object(w, "after_settling");
	for (unsigned int i = 0; i < sum->nprobes; i++) {
		jsonw_object(w, sum->probes[i].name);
		jsonw_u64(w, "count", sum->settled_count[i]);
		jsonw_u64(w, "n", sum->settled_count[i]);	/* count's older name */
		if (sum->settled_count[i]) {
			jsonw_ms(w, "p50_ms", sum->settled_p50_ns[i]);
			jsonw_ms(w, "p99_ms", sum->settled_p99_ns[i]);
			jsonw_ms(w, "max_ms", sum->settled_max_ns[i]);
		} else {
			jsonw_null(w, "p50_ms");
			jsonw_null(w, "p99_ms");
			jsonw_null(w, "max_ms");
		}
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

static void put_summary(struct jsonw *w, const struct ws_summary *sum,
			const struct ws_probe_facts *pf, enum ws_pace pace)
{
	const struct ws_ending *o = &sum->ending;
	char detail[192];

	jsonw_object(w, "summary");
	jsonw_u64(w, "bytes", sum->bytes);
	jsonw_u64(w, "buffers", sum->buffers);
	jsonw_u64(w, "wraps", sum->wraps);
	jsonw_seconds(w, "elapsed_s", sum->elapsed_ns);
	jsonw_double(w, "mibps", sum->mibps);
	jsonw_object(w, "writer_s");
	for (int t = 0; t < WS_T_NR; t++)
		jsonw_seconds(w, ws_timer_json((enum ws_timer)t), sum->time_ns[t]);
	jsonw_end(w);
	if (sum->queue_peak)	/* 0: writes were not queued */
		jsonw_u64(w, "queue_peak", sum->queue_peak);
	else
		jsonw_null(w, "queue_peak");
	put_adapt_summary(w, sum, pf);
	jsonw_object(w, "writer_limit");
	jsonw_str(w, "kind", ws_limit_key(sum->limit));
	jsonw_str(w, "words", ws_limit_words(sum->limit));
	jsonw_end(w);
	jsonw_str(w, "exit_reason", ws_stop_key(o->reason));
	if (o->reason == WS_STOP_SIGNAL)
		jsonw_str(w, "signal", o->signal);
	if (o->reason == WS_STOP_ERROR) {
		jsonw_object(w, "error");
		jsonw_str(w, "operation", o->err_op);
		jsonw_u64(w, "offset", o->err_offset);
		jsonw_i64(w, "errno", o->err);
		jsonw_str(w, "message", strerror(o->err));
		jsonw_str(w, "detail", o->detail ?
			  ws_detail_words(o->detail, o->detail_bytes, pace,
					  detail, sizeof(detail)) : NULL);
		jsonw_end(w);
	} else {
		jsonw_null(w, "error");
	}
	put_cpu(w, sum);
	put_verify(w, sum);
	if (sum->block.on) {
		jsonw_object(w, "block");
		json_put_block_summary(w, sum);
		jsonw_end(w);
	} else {
		jsonw_null(w, "block");
	}
	json_put_culprits(w, &sum->culprits);
	jsonw_end(w);
}

static void put_targets(struct jsonw *w, const struct ws_run *run,
			const struct ws_summary *sum)
{
	jsonw_array(w, "targets");
	for (unsigned int i = 0; i < sum->ntargets; i++) {
		const struct ws_run *t = &run->targets[i];

		jsonw_object(w, NULL);
		jsonw_u64(w, "number", t->number);
		if (t->same_device_as)
			jsonw_u64(w, "same_device_as", t->same_device_as);
		else
			jsonw_null(w, "same_device_as");
		json_put_target(w, &t->target);
		jsonw_u64(w, "file_size", t->plan.file_size);
		jsonw_u64(w, "seed", t->set.seed);
		if (t->fp)
			fingerprint_json(t->fp, w);
		put_summary(w, &sum->targets[i], &run->probes, run->set.pace);
		if (sum->targets[i].analysis)
			json_put_analysis(w, t, &sum->targets[i]);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void json_summary(struct sink *s, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	struct jsonw *w = writer_of(s);

	jsonw_end(w);	/* intervals */
	put_summary(w, sum, &run->probes, run->set.pace);
	jsonw_array(w, "probes");
	for (unsigned int i = 0; i < sum->nprobes; i++)
		put_probe(w, &sum->probes[i], &sum->culprits);
	jsonw_end(w);
	if (sum->analysis)
		json_put_analysis(w, run, sum);
	if (sum->ntargets)
		put_targets(w, run, sum);
	jsonw_bool(w, "complete", true);
	jsonw_end(w);
	fputc('\n', s->out);
}

static void json_abort(struct sink *s)
{
	free(s->priv);
	s->priv = NULL;
}

static int json_close(struct sink *s)
{
	json_abort(s);
	return sink_close_file(s);
}

const struct sink_ops sink_json_ops = {
	.name = "json",
	.header = json_header,
	.interval = json_interval,
	.summary = json_summary,
	.close = json_close,
	.abort = json_abort,
};
