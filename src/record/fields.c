/* fields.c - the settings a result records, one row each (see fields.h).
 *
 * The rows are in the order of the result's "config" object; a new
 * setting is a new row here (and, when the result writes it by its own
 * code, a WS_FIELD_OWN writer in outputs/sink_json_facts.c).
 */
#include <string.h>

#include "lib/c.h"
#include "record/fields.h"
#include "record/settings.h"

#define AT(member) offsetof(struct ws_settings, member)

/*
 * changes_result: all else equal, another value moves the figures a
 * comparison judges (throughput, latency, stalls, the steady rate): how
 * fast, how and what the writer writes, for how long, how the steady
 * state is judged, what and how the probes measure.  Not: what merely
 * names things (paths, the probe directory), what changes only the
 * reporting (--interval, --bucket), what writestress chose by itself
 * (file size, reserve, the queue the kernel gave it, the preconditioning
 * derived from the capacity) and the system's own settings (scheduler,
 * I/O priorities, dropped caches): comparing those is what compare is
 * for.  A pace mode's own options keep their defaults under any other
 * mode (writestress refuses them there), so they differ only when they
 * matter.
 */
static const struct ws_field fields[] = {
	{ "file", WS_FIELD_TEXT, AT(path), NULL, NULL, { NULL }, false },
	{ "files", WS_FIELD_OWN, 0, NULL, NULL, { NULL }, false },
	{ "jobs", WS_FIELD_UINT, AT(jobs), "--jobs", NULL, { NULL }, true },
	{ "buffer_size", WS_FIELD_BYTES, AT(buffer_size), "--buffer-size", "8M", { NULL }, true },
	{ "total_bytes", WS_FIELD_OWN, 0, "--size", NULL, { NULL }, true },
	{ "buffers", WS_FIELD_COUNT, AT(buffers), "--buffers", NULL, { NULL }, false },
	{ "time_s", WS_FIELD_SECONDS, AT(duration_ns), "--time", NULL, { NULL }, true },
	{ "forever", WS_FIELD_BOOL, AT(forever), "--forever", NULL, { NULL }, true },
	{ "file_size", WS_FIELD_OWN, 0, "--file-size", NULL, { NULL }, false },
	{ "reserve", WS_FIELD_OWN, 0, "--reserve", NULL, { NULL }, false },
	{ "pace", WS_FIELD_OWN, 0, "--pace", "window",
	  { "window", "none", "fdatasync", "direct", "dontcache", "adaptive", NULL }, true },
	{ "fadvise", WS_FIELD_BOOL, AT(pacing.fadvise), "--fadvise", NULL, { NULL }, true },
	{ "window", WS_FIELD_UINT, AT(pacing.window), "--window", "1", { NULL }, true },
	{ "sync_every", WS_FIELD_UINT, AT(pacing.sync_every), "--sync-every", "1", { NULL }, true },
	{ "iodepth", WS_FIELD_UINT, AT(pacing.iodepth), "--iodepth", "1", { NULL }, true },
	{ "target_latency_ms", WS_FIELD_MS, AT(pacing.target_latency_ns), "--target-latency", "100ms", { NULL }, true },
	{ "steer_by", WS_FIELD_OWN, 0, "--steer-by", NULL,
	  { "fsync", "save", "read", "sqlite", "dsync", "cmd", NULL }, true },
	{ "headroom_pct", WS_FIELD_UINT, AT(pacing.headroom_pct), "--headroom", "0", { NULL }, true },
	{ "queue", WS_FIELD_OWN, 0, NULL, NULL, { NULL }, false },
	{ "rate_bytes_per_s", WS_FIELD_BYTES, AT(rate), "--rate", NULL, { NULL }, true },
	{ "data", WS_FIELD_OWN, 0, "--data", "random",
	  { "random", "fixed", "zero", "compressible", NULL }, true },
	{ "compress_pct", WS_FIELD_UINT, AT(compress_pct), "--data", NULL, { NULL }, true },
	{ "interval_s", WS_FIELD_SECONDS, AT(interval_ns), "--interval", "1s", { NULL }, false },
	{ "probe_size", WS_FIELD_BYTES, AT(probe_size), "--probe-size", "4k", { NULL }, true },
	{ "probe_interval_s", WS_FIELD_SECONDS, AT(probe_interval_ns), "--probe-interval", "100ms", { NULL }, true },
	{ "probe_fdatasync", WS_FIELD_BOOL, AT(probe_fdatasync), "--probe-sync", "fsync",
	  { "fsync", "fdatasync", NULL }, true },
	{ "stall_s", WS_FIELD_SECONDS, AT(stall_ns), "--stall", "500ms", { NULL }, true },
	{ "until_steady", WS_FIELD_BOOL, AT(steady.until), "--until-steady", NULL, { NULL }, true },
	{ "steady_window", WS_FIELD_UINT, AT(steady.window), "--steady-window", "5", { NULL }, true },
	{ "steady_round_s", WS_FIELD_SECONDS, AT(steady.round_ns), "--steady-round", "10s", { NULL }, true },
	{ "steady_criterion", WS_FIELD_OWN, 0, "--steady-criterion", "snia",
	  { "snia", "bw-slope", "bw-dev", NULL }, true },
	{ "precondition_bytes", WS_FIELD_OWN, 0, "--precondition", NULL, { NULL }, false },
	{ "precondition_capacity_x", WS_FIELD_OWN, 0, "--precondition", NULL, { NULL }, false },
	{ "steady_max_rounds", WS_FIELD_UINT, AT(steady.max_rounds), "--steady-max-rounds", NULL, { NULL }, true },
	{ "truncate", WS_FIELD_BOOL, AT(truncate), "--truncate", NULL, { NULL }, false },
	{ "bucket", WS_FIELD_BYTES, AT(bucket), "--bucket", NULL, { NULL }, false },
	{ "probes", WS_FIELD_OWN, 0, "--probe", "fsync",
	  { "fsync", "save", "read", "sqlite", "dsync", "cmd", NULL }, true },
	{ "probe_dir", WS_FIELD_TEXT, AT(probe_dir), "--probe-dir", NULL, { NULL }, false },
	{ "read_probe", WS_FIELD_TEXT, AT(read_probe), "--read-probe", NULL, { NULL }, false },
	{ "sqlite_journal", WS_FIELD_WORD, AT(sqlite.wal), "--sqlite-journal", "delete",
	  { "delete", "wal", NULL }, true },
	{ "sqlite_sync", WS_FIELD_WORD, AT(sqlite.sync_normal), "--sqlite-sync", "full",
	  { "full", "normal", NULL }, true },
	{ "probe_cmds", WS_FIELD_OWN, 0, "--probe-cmd", NULL, { NULL }, true },
	{ "probe_user", WS_FIELD_OWN, 0, "--probe-user", NULL, { NULL }, false },
	{ "probe_timeout_ms", WS_FIELD_MS, AT(cmds.timeout_ns), "--probe-timeout", "30s", { NULL }, false },
	{ "drop_caches", WS_FIELD_BOOL, AT(drop_caches), "--drop-caches", NULL, { NULL }, false },
	{ "scheduler", WS_FIELD_TEXT, AT(scheduler), "--scheduler", NULL, { NULL }, false },
	{ "ioprio", WS_FIELD_OWN, 0, "--ioprio", NULL, { NULL }, false },
	{ "probe_ioprio", WS_FIELD_OWN, 0, "--probe-ioprio", NULL, { NULL }, false },
	{ "trace", WS_FIELD_BOOL, AT(trace_required), "--trace", NULL, { NULL }, false },
	{ "no_trace", WS_FIELD_BOOL, AT(no_trace), "--no-trace", NULL, { NULL }, false },
};

const struct ws_field *ws_fields(size_t *n)
{
	*n = ARRAY_SIZE(fields);
	return fields;
}

const struct ws_field *ws_field_by_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(fields[i].key, key))
			return &fields[i];
	return NULL;
}

const struct ws_field *ws_field_by_option(const char *option)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].option && !strcmp(fields[i].option, option))
			return &fields[i];
	return NULL;
}

const char *ws_field_default(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].option && !strcmp(fields[i].option + 2, name))
			return fields[i].def;
	return NULL;
}
