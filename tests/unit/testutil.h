/* testutil.h - small helpers several unit suites share: a file with
 * given contents, a member of a parsed JSON document by dotted path. */
#ifndef WS_TESTUTIL_H
#define WS_TESTUTIL_H

#include <stdbool.h>

#include <json-c/json.h>

/* dir/name holds text afterwards (created or truncated); fails the test
 * case if it cannot be written. */
void tu_write_file(const char *dir, const char *name, const char *text);

/* The member at a dotted path ("summary.writer_limit.kind"; numbers index
 * arrays), or NULL when absent (a JSON null is NULL too: check with
 * json_object_object_get_ex when it matters). */
struct json_object *tu_jget(struct json_object *o, const char *path);

/* Would a file holding text be taken for one writestress wrote
 * (sink_file_is_ours)?  For the outputs written to a memory stream. */
bool tu_text_is_ours(const char *text);

#endif
