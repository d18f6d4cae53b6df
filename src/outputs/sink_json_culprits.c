/* sink_json_culprits.c - the JSON of other processes' writes: the run's
 * culprits and each stall's (null when not traced). */
#include "record/culprit.h"
#include "sink_json.h"

static void put_row(struct jsonw *w, const struct ws_culprit *c)
{
	jsonw_object(w, NULL);
	jsonw_i64(w, "pid", c->pid);
	jsonw_str(w, "command", c->pid ? c->comm : NULL);
	jsonw_str(w, "cgroup", c->cgroup[0] ? c->cgroup : NULL);
	jsonw_bool(w, "kernel", c->kernel);
	jsonw_u64(w, "written_bytes", c->written);
	jsonw_u64(w, "dirtied_folios", c->dirtied);
	jsonw_u64(w, "stalls_first", c->stalls);
	jsonw_end(w);
}

void json_put_culprits(struct jsonw *w, const struct ws_culprits *c)
{
	if (!c->traced) {
		jsonw_null(w, "culprits");
		jsonw_null(w, "culprits_others");
		return;
	}
	jsonw_array(w, "culprits");
	for (unsigned int i = 0; i < c->n; i++)
		put_row(w, &c->row[i]);
	jsonw_end(w);
	jsonw_object(w, "culprits_others");
	jsonw_u64(w, "processes", c->others);
	jsonw_u64(w, "written_bytes", c->others_written);
	jsonw_u64(w, "dirtied_folios", c->others_dirtied);
	jsonw_u64(w, "before_trace_bytes", c->before_trace);
	jsonw_u64(w, "total_written_bytes", c->total_written);
	jsonw_end(w);
}

void json_put_stall_culprits(struct jsonw *w, const struct ws_stall_culprits *c,
			     const struct ws_culprits *run)
{
	if (!c->traced) {
		jsonw_null(w, "culprits");
		jsonw_null(w, "others_written_bytes");
		jsonw_null(w, "no_writer");
		return;
	}
	jsonw_array(w, "culprits");
	for (unsigned int i = 0; i < c->n; i++) {
		const struct ws_culprit *row = ws_culprit_of(run, c->top[i].pid);

		jsonw_object(w, NULL);
		jsonw_i64(w, "pid", c->top[i].pid);
		jsonw_str(w, "command", row ? row->comm : NULL);
		jsonw_str(w, "cgroup", row && row->cgroup[0] ? row->cgroup : NULL);
		jsonw_u64(w, "written_bytes", c->top[i].written);
		jsonw_u64(w, "dirtied_folios", c->top[i].dirtied);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_u64(w, "others_written_bytes", c->total_written);
	jsonw_bool(w, "no_writer", ws_stall_no_writer(c));
}

void json_put_writers(struct jsonw *w, const struct ws_writers_now *now)
{
	if (!now->traced)
		return;		/* an interval has only what it has */
	jsonw_object(w, "writers");
	jsonw_u64(w, "others_bytes", now->total_written);
	jsonw_array(w, "top");
	for (unsigned int i = 0; i < now->n; i++) {
		jsonw_object(w, NULL);
		jsonw_i64(w, "pid", now->top[i].pid);
		jsonw_str(w, "command", now->top[i].comm);
		jsonw_u64(w, "written_bytes", now->top[i].written);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}
