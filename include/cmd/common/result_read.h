/* result_read.h - result files (doc/result-json.md) read back, fields
 * looked up by dotted path, never assumed.
 *
 * result_load() is the only I/O.  Returned json-c pointers borrow from
 * the caller's tree.  Any thread, on its own tree.
 */
#ifndef WS_RESULT_READ_H
#define WS_RESULT_READ_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

#define RESULT_SCHEMA_FAMILY "writestress-result/"

/* Strict JSON, one value.  0 with *doc the caller's (json_object_put), or
 * -errno / -EINVAL with why ("empty file"). */
int result_load(const char *path, struct json_object **doc, char *why,
		size_t len);

/* N of "writestress-result/N": 0, or -EINVAL with why fit to follow
 * "'FILE' ". */
int result_schema_version(const struct json_object *doc, unsigned int *version,
			  char *why, size_t len);

/* A `writestress watch` result: probes, no writer ("mode" "watch"; a
 * result without "mode" is a run's, from before watch). */
bool result_is_watch(const struct json_object *doc);

/* json-c's null is a NULL pointer, hence three outcomes. */
enum result_found { RESULT_ABSENT, RESULT_NULL, RESULT_FOUND };

/* PATH "" is O itself; a NULL O is absent. */
enum result_found result_lookup(const struct json_object *o, const char *path,
				struct json_object **out);

bool result_is_number(const struct json_object *v);

/* NaN unless a number is there. */
double result_num(const struct json_object *o, const char *path);
/* NULL unless a string is there. */
const char *result_str(const struct json_object *o, const char *path);

/* NULL when absent; length 0 and element NULL past the end. */
struct json_object *result_array_at(const struct json_object *o, const char *path);
size_t result_array_len(const struct json_object *arr);
struct json_object *result_array_idx(const struct json_object *arr, size_t i);

/* Control characters and '|' become '?', in place, for a table. */
void result_sanitize(char *s);

#endif
