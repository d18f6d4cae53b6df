/* sink_json_facts.c - the result's facts fixed before the first byte:
 * "config" row by row of the settings table, "target" and "system".
 */
#include <string.h>

#include "lib/c.h"
#include "lib/jsonw.h"
#include "record/fields.h"
#include "record/record.h"
#include "sink_json.h"

/* ---- the settings the table cannot write by offset ----------------------- */

static void put_files(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_array(w, key);
	for (unsigned int i = 0; i < run->ntargets; i++)
		jsonw_str(w, NULL, run->targets[i].target.path);
	if (!run->ntargets)
		jsonw_str(w, NULL, run->set.path);
	jsonw_end(w);
}

static void put_total(struct jsonw *w, const char *key, const struct ws_run *run)
{
	if (run->plan.total == WS_UNBOUNDED)
		jsonw_null(w, key);
	else
		jsonw_u64(w, key, run->plan.total);
}

static void put_file_size(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_u64(w, key, run->plan.file_size);
}

static void put_reserve(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_u64(w, key, run->plan.reserve);
}

static void put_pace(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_str(w, key, run->pace_name);
}

static void put_queue(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_object(w, key);
	jsonw_str(w, "engine", run->queue.engine);
	jsonw_u64(w, "depth", run->queue.depth);
	jsonw_bool(w, "registered_buffers", run->queue.registered);
	if (run->queue.refused_err)
		jsonw_str(w, "refused", strerror(run->queue.refused_err));
	else
		jsonw_null(w, "refused");
	jsonw_end(w);
}

static void put_data(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_str(w, key, run->data);
}

static void put_criterion(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_str(w, key, run->criterion_key);
}

static void put_precondition(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_u64(w, key, run->plan.precondition);
}

static void put_precondition_x(struct jsonw *w, const char *key, const struct ws_run *run)
{
	if (run->plan.precondition_x > 0)
		jsonw_double(w, key, run->plan.precondition_x);
	else
		jsonw_null(w, key);
}

static void put_probes(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_array(w, key);
	for (unsigned int i = 0; i < run->probes.n; i++)
		jsonw_str(w, NULL, run->probes.names[i]);
	jsonw_end(w);
}

/* null: every probe but a command steers (or the run is not adaptive) */
static void put_steer_by(struct jsonw *w, const char *key, const struct ws_run *run)
{
	unsigned int bits = run->set.pacing.steer_by;

	if (!bits) {
		jsonw_null(w, key);
		return;
	}
	jsonw_array(w, key);
	for (int k = 0; k < WS_PROBE_NR; k++)
		if (bits & (1u << k))
			jsonw_str(w, NULL, ws_probe_kind_name((enum ws_probe_kind)k));
	jsonw_end(w);
}

static void put_probe_cmds(struct jsonw *w, const char *key, const struct ws_run *run)
{
	const struct ws_settings *c = &run->set;

	jsonw_array(w, key);
	for (unsigned int i = 0; i < c->cmds.n; i++) {
		jsonw_object(w, NULL);
		jsonw_str(w, "name", c->cmds.list[i].name);
		jsonw_str(w, "command", c->cmds.list[i].line);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void put_probe_user(struct jsonw *w, const char *key, const struct ws_run *run)
{
	jsonw_str(w, key, run->probes.cmd_user[0] ? run->probes.cmd_user : NULL);
}

/* "idle", "be:4", or null when not set. */
static void put_ioprio_of(struct jsonw *w, const char *key, int class, int level)
{
	char buf[16];

	jsonw_text_or_null(w, key, ws_ioprio_name(class, level, buf, sizeof(buf)));
}

static void put_ioprio(struct jsonw *w, const char *key, const struct ws_run *run)
{
	put_ioprio_of(w, key, run->set.ioprio_class, run->set.ioprio_level);
}

static void put_probe_ioprio(struct jsonw *w, const char *key, const struct ws_run *run)
{
	put_ioprio_of(w, key, run->set.probe_ioprio_class, run->set.probe_ioprio_level);
}

static const struct {
	const char *key;
	void (*put)(struct jsonw *w, const char *key, const struct ws_run *run);
} own_writers[] = {
	{ "files", put_files }, { "total_bytes", put_total },
	{ "file_size", put_file_size }, { "reserve", put_reserve },
	{ "pace", put_pace }, { "queue", put_queue }, { "data", put_data },
	{ "steady_criterion", put_criterion },
	{ "precondition_bytes", put_precondition },
	{ "precondition_capacity_x", put_precondition_x },
	{ "probes", put_probes }, { "probe_cmds", put_probe_cmds },
	{ "steer_by", put_steer_by },
	{ "probe_user", put_probe_user }, { "ioprio", put_ioprio },
	{ "probe_ioprio", put_probe_ioprio },
};

/* A WS_FIELD_OWN row by its writer; false when it has none (a row added
 * to the settings table without one, which test_sink_json catches). */
bool json_put_own(struct jsonw *w, const char *key, const struct ws_run *run)
{
	for (size_t i = 0; i < ARRAY_SIZE(own_writers); i++)
		if (!strcmp(own_writers[i].key, key)) {
			own_writers[i].put(w, key, run);
			return true;
		}
	return false;
}

/* One row of the settings table, by its result's type. */
static void put_field(struct jsonw *w, const struct ws_field *f, const struct ws_run *run)
{
	const char *at = (const char *)&run->set + f->opt.offset;
	const char *key = f->result.key;

	switch (f->result.type) {
	case WS_FIELD_COUNT:
	case WS_FIELD_BYTES:
		jsonw_u64(w, key, *(const uint64_t *)at);
		break;
	case WS_FIELD_UINT:
		jsonw_u64(w, key, *(const unsigned int *)at);
		break;
	case WS_FIELD_BOOL:
		jsonw_bool(w, key, *(const bool *)at);
		break;
	case WS_FIELD_SECONDS:
		jsonw_seconds(w, key, *(const uint64_t *)at);
		break;
	case WS_FIELD_MS:
		jsonw_ms(w, key, *(const uint64_t *)at);
		break;
	case WS_FIELD_TEXT:
		jsonw_str(w, key, *(const char *const *)at);
		break;
	case WS_FIELD_WORD:
		jsonw_str(w, key, f->words[*(const bool *)at]);
		break;
	case WS_FIELD_OWN:
		if (!json_put_own(w, key, run))
			jsonw_null(w, key);
		break;
	}
}

void json_put_config(struct jsonw *w, const struct ws_run *run)
{
	const struct ws_field *f;

	jsonw_object(w, "config");
	for (size_t i = 0; (f = ws_field_in_result(i)); i++)
		put_field(w, f, run);
	jsonw_end(w);
}

void json_put_target(struct jsonw *w, const struct ws_target_facts *t)
{
	jsonw_object(w, "target");
	jsonw_str(w, "path", t->path);
	jsonw_str(w, "fs_type", t->fs_type);
	jsonw_u64(w, "fs_size", t->fs_size);
	jsonw_u64(w, "fs_avail", t->fs_avail);
	if (t->fs_holds)
		jsonw_str(w, "fs_holds", t->fs_holds);
	else
		jsonw_null(w, "fs_holds");
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
