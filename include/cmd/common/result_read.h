/* result_read.h - reading result files (doc/result-json.md) back: a file
 * into a json-c tree, its schema, and fields looked up by dotted path,
 * never assumed.  Shared by `writestress compare`, `writestress report`
 * and `writestress matrix` (which reads its runs' results).
 *
 * result_load() is the only I/O; everything else is pure and looks at a
 * tree the caller owns.  Returned json-c pointers borrow from that tree.
 * Any thread may call these on its own tree; messages go into the
 * caller's buffer, never to a stream.
 *
 * json-c types appear here only as an incomplete struct, so including this
 * header does not need json-c's headers.
 */
#ifndef WS_RESULT_READ_H
#define WS_RESULT_READ_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

#define RESULT_SCHEMA_FAMILY "writestress-result/"

/* Read and parse PATH (strict JSON, one value and nothing after it but
 * white space).  0 with *doc owned by the caller (json_object_put), or
 * -errno / -EINVAL with why filled: "No such file or directory",
 * "invalid JSON at byte 17: unexpected character", "empty file". */
int result_load(const char *path, struct json_object **doc, char *why,
		size_t len);

/* The N of a "writestress-result/N" schema (N >= 1, plain decimal, no
 * leading zero): 0 with *version set, or -EINVAL and why says what DOC is
 * instead, in words fit to follow "'FILE' " ("has schema
 * 'writestress-matrix/1', not writestress-result/N", "is not a writestress
 * result: no \"schema\" field"). */
int result_schema_version(const struct json_object *doc, unsigned int *version,
			  char *why, size_t len);

/* json-c's JSON null is a NULL pointer, hence three outcomes. */
enum result_found { RESULT_ABSENT, RESULT_NULL, RESULT_FOUND };

/* The value at a dotted PATH under O ("summary.mibps"; "" is O itself).
 * A NULL O is absent; a null on the way is RESULT_NULL. */
enum result_found result_lookup(const struct json_object *o, const char *path,
				struct json_object **out);

bool result_is_number(const struct json_object *v);

/* The number at PATH, NaN when absent, null or not a number (or PATH is
 * NULL). */
double result_num(const struct json_object *o, const char *path);
/* The string at PATH, or NULL when absent, null or not a string. */
const char *result_str(const struct json_object *o, const char *path);

/* The array at PATH of O, or NULL; its length (0 for NULL) and element I
 * (NULL past the end). */
struct json_object *result_array_at(const struct json_object *o, const char *path);
size_t result_array_len(const struct json_object *arr);
struct json_object *result_array_idx(const struct json_object *arr, size_t i);

/* Text from a file goes into a table: control characters and '|' become
 * '?', in place. */
void result_sanitize(char *s);

#endif
