/* jsonw.h - a streaming JSON writer: nesting to JSONW_DEPTH, escaping,
 * numbers that read back exactly (doubles to 17 digits, non-finite as
 * null).  key: the member's in an object, NULL in an array.  One writer a
 * file; not thread-safe.
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
void jsonw_end(struct jsonw *w);
/* val NULL: null */
void jsonw_str(struct jsonw *w, const char *key, const char *val);
/* "tool": {"name": "writestress", "version": WS_VERSION} */
void jsonw_tool(struct jsonw *w);
void jsonw_u64(struct jsonw *w, const char *key, uint64_t val);
void jsonw_i64(struct jsonw *w, const char *key, int64_t val);
void jsonw_double(struct jsonw *w, const char *key, double val);
void jsonw_bool(struct jsonw *w, const char *key, bool val);
void jsonw_null(struct jsonw *w, const char *key);

/* ns as seconds or ms; null for a negative count, "" or a tristate -1. */
void jsonw_seconds(struct jsonw *w, const char *key, uint64_t ns);
void jsonw_ms(struct jsonw *w, const char *key, uint64_t ns);
void jsonw_count_or_null(struct jsonw *w, const char *key, int64_t v);
void jsonw_text_or_null(struct jsonw *w, const char *key, const char *s);
void jsonw_bool_or_null(struct jsonw *w, const char *key, int v);

#endif
