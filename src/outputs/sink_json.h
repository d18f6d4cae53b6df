/* sink_json.h - inside the JSON sink only: the parts of the result
 * written by sink_json_facts.c (the run's settings and facts),
 * sink_json_block.c (the traced figures) and sink_json_analysis.c (what
 * the analysis found) for sink_json.c, which
 * writes the document around them.  Pure over the
 * record; the recorder thread (the header: the main thread).
 */
#ifndef WS_SINK_JSON_H
#define WS_SINK_JSON_H

#include "lib/jsonw.h"
#include "record/record.h"

/* "config": the settings and the plan, every key of doc/result-json.md. */
void json_put_config(struct jsonw *w, const struct ws_run *run);
/* One WS_FIELD_OWN row of the settings table (record/fields.h) by its own
 * writer; false when the row has none. */
bool json_put_own(struct jsonw *w, const char *key, const struct ws_run *run);
/* "target": the file and its filesystem as opened. */
void json_put_target(struct jsonw *w, const struct ws_target_facts *t);
/* "target" and "system" (uname, the probes' privileges). */
void json_put_system(struct jsonw *w, const struct ws_run *run);

/* The traced figures (sink_json_block.c): an interval's requests and
 * journal, members of its "block"; the run's, the summary's "block". */
void json_put_block(struct jsonw *w, const struct ws_block_figures *b);
void json_put_journal(struct jsonw *w, const struct ws_journal_figures *j);
void json_put_block_summary(struct jsonw *w, const struct ws_summary *sum);

/* "analysis": the series, phases, slowdown and steady state of a run
 * (or of one target), as the summary judged them. */
void json_put_analysis(struct jsonw *w, const struct ws_run *run,
		       const struct ws_summary *sum);

#endif
