/* jsonw.h - a small streaming JSON writer: objects and arrays nested up to
 * JSONW_DEPTH, commas and string escaping handled, numbers written so that
 * every parser reads them back exactly (integers as integers, doubles with
 * 17 significant digits, non-finite doubles as null).  One writer per
 * output file; not thread-safe.
 *
 * In an object pass the member's key; in an array pass NULL.
 */
#ifndef WS_JSONW_H
#define WS_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_DEPTH 16

struct jsonw {
	FILE *out;
	int depth;
	bool need_comma[JSONW_DEPTH];
	char closer[JSONW_DEPTH];
};

void jsonw_init(struct jsonw *w, FILE *out);
void jsonw_object(struct jsonw *w, const char *key);
void jsonw_array(struct jsonw *w, const char *key);
void jsonw_end(struct jsonw *w);	/* closes the innermost object/array */
void jsonw_str(struct jsonw *w, const char *key, const char *val);	/* NULL -> null */
/* "tool": {"name": "writestress", "version": WS_VERSION}: which program
 * wrote a file, as every file of writestress says it (doc/schema) */
void jsonw_tool(struct jsonw *w);
void jsonw_u64(struct jsonw *w, const char *key, uint64_t val);
void jsonw_i64(struct jsonw *w, const char *key, int64_t val);
void jsonw_double(struct jsonw *w, const char *key, double val);
void jsonw_bool(struct jsonw *w, const char *key, bool val);
void jsonw_null(struct jsonw *w, const char *key);

/* The shapes every result uses: a time in ns written as seconds or as
 * milliseconds (doubles); a figure that is null when unknown - a negative
 * count, an empty string, a tristate of -1. */
void jsonw_seconds(struct jsonw *w, const char *key, uint64_t ns);
void jsonw_ms(struct jsonw *w, const char *key, uint64_t ns);
void jsonw_count_or_null(struct jsonw *w, const char *key, int64_t v);
void jsonw_text_or_null(struct jsonw *w, const char *key, const char *s);
void jsonw_bool_or_null(struct jsonw *w, const char *key, int v);

#endif
