/* sink_json_facts.c - the result's facts fixed before the first byte:
 * "config" (what the run was asked to do and what that came to),
 * "target" and "system" (see sink_json.h; the schema is
 * doc/result-json.md).
 */
#include <string.h>

#include "lib/jsonw.h"
#include "record/record.h"
#include "sink_json.h"

/* "idle", "be:4", or null when not set. */
static void put_ioprio(struct jsonw *w, const char *key, int class, int level)
{
	char buf[16];

	jsonw_text_or_null(w, key, ws_ioprio_name(class, level, buf, sizeof(buf)));
}

void json_put_config(struct jsonw *w, const struct ws_run *run)
{
	const struct ws_settings *c = &run->set;
	const struct ws_plan *p = &run->plan;

	jsonw_object(w, "config");
	jsonw_str(w, "file", c->path);
	jsonw_array(w, "files");
	for (unsigned int i = 0; i < run->ntargets; i++)
		jsonw_str(w, NULL, run->targets[i].target.path);
	if (!run->ntargets)
		jsonw_str(w, NULL, c->path);
	jsonw_end(w);
	jsonw_u64(w, "jobs", c->jobs);
	jsonw_u64(w, "buffer_size", c->buffer_size);
	if (p->total == WS_UNBOUNDED)
		jsonw_null(w, "total_bytes");
	else
		jsonw_u64(w, "total_bytes", p->total);
	jsonw_u64(w, "buffers", c->buffers);
	jsonw_seconds(w, "time_s", c->duration_ns);
	jsonw_u64(w, "file_size", p->file_size);
	jsonw_u64(w, "reserve", p->reserve);
	jsonw_str(w, "pace", run->pace_name);
	jsonw_bool(w, "fadvise", c->fadvise);
	jsonw_u64(w, "window", c->window);
	jsonw_u64(w, "sync_every", c->sync_every);
	jsonw_u64(w, "iodepth", c->iodepth);
	jsonw_ms(w, "target_latency_ms", c->target_latency_ns);
	jsonw_object(w, "queue");
	jsonw_str(w, "engine", run->queue.engine);
	jsonw_u64(w, "depth", run->queue.depth);
	jsonw_bool(w, "registered_buffers", run->queue.registered);
	if (run->queue.refused_err)
		jsonw_str(w, "refused", strerror(run->queue.refused_err));
	else
		jsonw_null(w, "refused");
	jsonw_end(w);
	jsonw_u64(w, "rate_bytes_per_s", c->rate);
	jsonw_str(w, "data", run->data);
	jsonw_u64(w, "compress_pct", c->compress_pct);
	jsonw_seconds(w, "interval_s", c->interval_ns);
	jsonw_u64(w, "probe_size", c->probe_size);
	jsonw_seconds(w, "probe_interval_s", c->probe_interval_ns);
	jsonw_bool(w, "probe_fdatasync", c->probe_fdatasync);
	jsonw_seconds(w, "stall_s", c->stall_ns);
	jsonw_bool(w, "until_steady", c->until_steady);
	jsonw_u64(w, "steady_window", c->steady_window);
	jsonw_seconds(w, "steady_round_s", c->steady_round_ns);
	jsonw_str(w, "steady_criterion", run->criterion_key);
	jsonw_u64(w, "precondition_bytes", p->precondition);
	if (p->precondition_x > 0)
		jsonw_double(w, "precondition_capacity_x", p->precondition_x);
	else
		jsonw_null(w, "precondition_capacity_x");
	jsonw_u64(w, "steady_max_rounds", c->steady_max_rounds);
	jsonw_bool(w, "truncate", c->truncate);
	jsonw_u64(w, "bucket", c->bucket);
	jsonw_array(w, "probes");
	for (unsigned int i = 0; i < run->probes.n; i++)
		jsonw_str(w, NULL, run->probes.names[i]);
	jsonw_end(w);
	jsonw_str(w, "probe_dir", c->probe_dir);
	jsonw_str(w, "read_probe", c->read_probe);
	jsonw_str(w, "sqlite_journal", c->sqlite_wal ? "wal" : "delete");
	jsonw_str(w, "sqlite_sync", c->sqlite_sync_normal ? "normal" : "full");
	jsonw_array(w, "probe_cmds");
	for (unsigned int i = 0; i < c->nprobe_cmds; i++) {
		jsonw_object(w, NULL);
		jsonw_str(w, "name", c->probe_cmds[i].name);
		jsonw_str(w, "command", c->probe_cmds[i].line);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_str(w, "probe_user", run->probes.cmd_user[0] ? run->probes.cmd_user : NULL);
	jsonw_ms(w, "probe_timeout_ms", c->probe_timeout_ns);
	jsonw_bool(w, "drop_caches", c->drop_caches);
	jsonw_str(w, "scheduler", c->scheduler);
	put_ioprio(w, "ioprio", c->ioprio_class, c->ioprio_level);
	put_ioprio(w, "probe_ioprio", c->probe_ioprio_class, c->probe_ioprio_level);
	jsonw_end(w);
}

void json_put_target(struct jsonw *w, const struct ws_target_facts *t)
{
	jsonw_object(w, "target");
	jsonw_str(w, "path", t->path);
	jsonw_str(w, "fs_type", t->fs_type);
	jsonw_u64(w, "fs_size", t->fs_size);
	jsonw_u64(w, "fs_avail", t->fs_avail);
	jsonw_str(w, "file", t->created ? "created" : t->forced ? "forced" : "reused");
	jsonw_u64(w, "size_at_open", t->size_at_open);
	jsonw_bool(w, "truncated", t->truncated);
	jsonw_end(w);
}

void json_put_system(struct jsonw *w, const struct ws_run *run)
{
	json_put_target(w, &run->target);
	jsonw_object(w, "system");
	jsonw_text_or_null(w, "sysname", run->sysname);
	jsonw_text_or_null(w, "hostname", run->hostname);
	jsonw_text_or_null(w, "release", run->release);
	jsonw_text_or_null(w, "version", run->version);
	jsonw_text_or_null(w, "machine", run->machine);
	if (run->probes.n) {
		jsonw_bool(w, "memory_locked", run->probes.memory_locked);
		jsonw_bool(w, "realtime_probes", run->probes.realtime);
	}
	jsonw_end(w);
}
