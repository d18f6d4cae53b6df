/* sink_json_block.c - the result's traced figures (see sink_json.h). */
#include "lib/jsonw.h"
#include "record/record.h"
#include "sink_json.h"

/* Null with no probes, whose work it would be. */
static void put_observer(struct jsonw *w, const struct ws_summary *sum)
{
	const struct ws_observer_cost *o = &sum->observer;

	if (!o->on || !sum->nprobes) {
		jsonw_null(w, "observer");
		return;
	}
	jsonw_object(w, "observer");
	jsonw_bool(w, "judged", o->judged);
	jsonw_str(w, "why_not", ws_obs_why_name(o->why_not));
	jsonw_double(w, "seconds", o->seconds);
	jsonw_double(w, "busy_pct", o->busy_pct);
	jsonw_double(w, "writer_mibps", o->mibps);
	jsonw_str(w, "by", !o->judged ? NULL : o->bound ? "bound" : "fit");
	if (o->judged && o->bound) {
		jsonw_null(w, "writer_mibps_without");
		jsonw_null(w, "writer_mibps_while");
		jsonw_double(w, "speedup_without", o->speedup);
	} else if (o->judged) {
		jsonw_double(w, "writer_mibps_without", o->free_mibps);
		jsonw_double(w, "writer_mibps_while", o->busy_mibps);
		jsonw_double(w, "speedup_without", o->speedup);
	} else {
		jsonw_null(w, "writer_mibps_without");
		jsonw_null(w, "writer_mibps_while");
		jsonw_null(w, "speedup_without");
	}
	jsonw_end(w);
}

static const char *const block_dirs[WS_BLK_NR] = { "reads", "writes" };

/* Cumulative, as Prometheus's le. */
static void put_le(struct jsonw *w, const char *key, const struct ws_latency_totals *t)
{
	jsonw_array(w, key);
	for (unsigned int b = 0; b < WS_LATENCY_BUCKETS; b++)
		jsonw_u64(w, NULL, t->le[b]);
	jsonw_end(w);
}

static void put_bios(struct jsonw *w, const struct ws_block_figures *b,
		     const struct ws_block_dir *x)
{
	static const char *const keys[] = { "bios", "merged", "splits", "request_waits",
					     "request_wait_ms", "max_request_wait_ms" };

	if (!b->bios_on) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			jsonw_null(w, keys[k]);
		return;
	}
	jsonw_u64(w, "bios", x->bios);
	jsonw_u64(w, "merged", x->merged);
	jsonw_u64(w, "splits", x->splits);
	jsonw_u64(w, "request_waits", x->request_waits);
	jsonw_ms(w, "request_wait_ms", x->request_wait_ns);
	jsonw_ms(w, "max_request_wait_ms", x->max_request_wait_ns);
}

/* Its limits and latencies are null until seen. */
static void put_wbt(struct jsonw *w, const struct ws_block_figures *b)
{
	if (!b->wbt_on) {
		jsonw_null(w, "wbt");
		return;
	}
	jsonw_object(w, "wbt");
	jsonw_u64(w, "changes", b->wbt_changes);
	if (b->wbt.known) {
		jsonw_i64(w, "step", b->wbt.step);
		jsonw_u64(w, "background_limit", b->wbt.bg);
		jsonw_u64(w, "normal_limit", b->wbt.normal);
		jsonw_u64(w, "max_limit", b->wbt.max);
	} else {
		jsonw_null(w, "step");
		jsonw_null(w, "background_limit");
		jsonw_null(w, "normal_limit");
		jsonw_null(w, "max_limit");
	}
	if (b->wbt_look.known) {
		jsonw_ms(w, "read_min_ms", b->wbt_look.read_min_ns);
		jsonw_ms(w, "read_mean_ms", b->wbt_look.read_mean_ns);
		jsonw_ms(w, "write_mean_ms", b->wbt_look.write_mean_ns);
	} else {
		jsonw_null(w, "read_min_ms");
		jsonw_null(w, "read_mean_ms");
		jsonw_null(w, "write_mean_ms");
	}
	jsonw_end(w);
}

void json_put_block(struct jsonw *w, const struct ws_block_figures *b)
{

	for (int d = 0; d < WS_BLK_NR; d++) {
		const struct ws_block_dir *x = &b->dir[d];

		jsonw_object(w, block_dirs[d]);
		jsonw_u64(w, "requests", x->requests);
		jsonw_u64(w, "bytes", x->bytes);
		jsonw_ms(w, "time_ms", x->time_ns);
		jsonw_ms(w, "service_ms", x->service_ns);
		jsonw_ms(w, "max_service_ms", x->max_service_ns);
		put_le(w, "queue_le", &x->queue);
		put_le(w, "service_le", &x->service);
		put_bios(w, b, x);
		jsonw_end(w);
	}
	put_wbt(w, b);
	jsonw_u64(w, "flushes", b->flushes);
	jsonw_ms(w, "flush_ms", b->flush_ns);
	jsonw_ms(w, "max_flush_ms", b->max_flush_ns);
	jsonw_u64(w, "fua", b->fua);
	jsonw_u64(w, "lost_events", b->lost);
	jsonw_u64(w, "unmatched", b->unmatched);
	jsonw_object(w, "by_submitter");
	for (int k = 0; k < WS_SUB_NR; k++) {
		jsonw_object(w, ws_submitter_name((enum ws_submitter)k));
		jsonw_u64(w, "requests", b->by[k].requests);
		jsonw_u64(w, "bytes", b->by[k].bytes);
		jsonw_ms(w, "service_ms", b->by[k].service_ns);
		jsonw_u64(w, "flushes", b->by[k].flushes);
		jsonw_ms(w, "flush_ms", b->by[k].flush_ns);
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* What the trace should add up to. */
static void put_counted(struct jsonw *w, const struct ws_block_figures *b)
{

	if (!b->have_counted) {
		jsonw_null(w, "device_counted");
		return;
	}
	jsonw_object(w, "device_counted");
	for (int d = 0; d < WS_BLK_NR; d++) {
		jsonw_object(w, block_dirs[d]);
		jsonw_u64(w, "requests", b->counted[d].requests);
		jsonw_u64(w, "bytes", b->counted[d].bytes);
		jsonw_ms(w, "time_ms", b->counted[d].time_ns);
		jsonw_u64(w, "merges", b->counted[d].merges);
		jsonw_end(w);
	}
	jsonw_u64(w, "flushes", b->counted_flushes);
	jsonw_ms(w, "flush_ms", b->counted_flush_ns);
	jsonw_end(w);
}

void json_put_journal(struct jsonw *w, const struct ws_journal_figures *j)
{
	if (j->on) {
		jsonw_object(w, "journal");
		jsonw_str(w, "kind", j->xfs ? "xfs" : "jbd2");
		jsonw_u64(w, "commits", j->commits);
		jsonw_ms(w, "commit_ms", j->time_ns);
		jsonw_ms(w, "max_commit_ms", j->max_ns);
		jsonw_ms(w, "locked_ms", j->locked_ns);
		jsonw_ms(w, "flushing_ms", j->flushing_ns);
		jsonw_ms(w, "logging_ms", j->logging_ns);
		jsonw_u64(w, "blocks", j->blocks);
		jsonw_u64(w, "iclogs", j->iclogs);
		jsonw_u64(w, "log_bytes", j->log_bytes);
		if (j->have_counted) {
			jsonw_object(w, "xfs_counted");
			jsonw_u64(w, "log_writes", j->counted_log_writes);
			jsonw_u64(w, "log_blocks", j->counted_log_blocks);
			jsonw_end(w);
		} else {
			jsonw_null(w, "xfs_counted");
		}
		if (j->have_jbd2_counted) {
			jsonw_object(w, "jbd2_counted");
			jsonw_u64(w, "transactions", j->counted_transactions);
			jsonw_u64(w, "logging_ms", j->counted_logging_ms);
			jsonw_end(w);
		} else {
			jsonw_null(w, "jbd2_counted");
		}
		jsonw_end(w);
	} else {
		jsonw_null(w, "journal");
	}
	if (j->dirty_on) {
		jsonw_object(w, "dirty_limit");
		jsonw_u64(w, "pauses", j->dirty_pauses);
		jsonw_ms(w, "paused_ms", j->dirty_paused_ns);
		jsonw_ms(w, "writer_paused_ms", j->writer_paused_ns);
		jsonw_end(w);
	} else {
		jsonw_null(w, "dirty_limit");
	}
	if (j->wb_on) {
		jsonw_object(w, "flusher");
		jsonw_u64(w, "works", j->wb_works);
		jsonw_u64(w, "pages", j->wb_pages);
		if (j->wb_running_known)
			jsonw_u64(w, "running", j->wb_running);
		else
			jsonw_null(w, "running");	/* an interval's */
		jsonw_object(w, "by_reason");
		for (unsigned int r = 0; r < WS_WB_REASONS; r++)
			jsonw_u64(w, ws_wb_reason_name(r), j->wb_by_reason[r]);
		jsonw_end(w);
		jsonw_end(w);
	} else {
		jsonw_null(w, "flusher");
	}
}

static void put_limit(struct jsonw *w, const char *key, uint64_t v)
{
	if (v)
		jsonw_u64(w, key, v);
	else
		jsonw_null(w, key);
}

void json_put_block_summary(struct jsonw *w, const struct ws_summary *sum)
{
	json_put_block(w, &sum->block);
	jsonw_ms(w, "write_service_p50_ms", sum->block_write_p50_ns);
	jsonw_ms(w, "write_service_p99_ms", sum->block_write_p99_ns);
	put_observer(w, sum);
	/* the writes the steady state's rounds could not place */
	if (sum->block_rounds_on)
		jsonw_u64(w, "writes_outside_rounds", sum->block_rounds_outside);
	else
		jsonw_null(w, "writes_outside_rounds");
	/* the bounds of every queue_le and service_le */
	jsonw_array(w, "latency_bounds_ms");
	for (unsigned int b = 0; b < WS_LATENCY_BUCKETS; b++)
		jsonw_ms(w, NULL, ws_latency_bounds_ns[b]);
	jsonw_end(w);
	put_counted(w, &sum->block);
	json_put_journal(w, &sum->journal);
	put_limit(w, "cgroup_write_limit_bps", sum->io_limit_bps);
	put_limit(w, "cgroup_write_limit_iops", sum->io_limit_iops);
}
