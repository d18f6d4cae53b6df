/* sink_json.h - the JSON sink's own: the parts of the result sink_json.c
 * writes the document around.  Recorder thread (the header: main thread).
 */
#ifndef WS_SINK_JSON_H
#define WS_SINK_JSON_H

#include "lib/jsonw.h"
#include "record/record.h"

void json_put_config(struct jsonw *w, const struct ws_run *run);
/* A WS_FIELD_OWN row (record/fields.h); false when it has no writer. */
bool json_put_own(struct jsonw *w, const char *key, const struct ws_run *run);
void json_put_target(struct jsonw *w, const struct ws_target_facts *t);
void json_put_system(struct jsonw *w, const struct ws_run *run);

/* An interval's "block", and the summary's. */
void json_put_block(struct jsonw *w, const struct ws_block_figures *b);
void json_put_journal(struct jsonw *w, const struct ws_journal_figures *j);
void json_put_block_summary(struct jsonw *w, const struct ws_summary *sum);

/* "culprits" and "culprits_others"; a stall's "culprits", its others'
 * bytes and "no_writer" (names from run's table). */
void json_put_culprits(struct jsonw *w, const struct ws_culprits *c);
void json_put_stall_culprits(struct jsonw *w, const struct ws_stall_culprits *c,
			     const struct ws_culprits *run);
/* An interval's "writers", when traced. */
void json_put_writers(struct jsonw *w, const struct ws_writers_now *now);

void json_put_analysis(struct jsonw *w, const struct ws_run *run,
		       const struct ws_summary *sum);

#endif
