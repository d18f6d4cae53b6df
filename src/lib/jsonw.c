/* jsonw.c - streaming JSON writer. */
#include <stdlib.h>

#include "lib/jsonw.h"

void jsonw_init(struct jsonw *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->need_comma[0] = false;
}

static void escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);	/* UTF-8 passes through */
	}
	fputc('"', out);
}

static void member(struct jsonw *w, const char *key)
{
	if (w->need_comma[w->depth])
		fputc(',', w->out);
	w->need_comma[w->depth] = true;
	if (key) {
		escaped(w->out, key);
		fputc(':', w->out);
	}
}

static void open_(struct jsonw *w, const char *key, char c)
{
	member(w, key);
	fputc(c, w->out);
	if (w->depth + 1 >= JSONW_DEPTH)
		abort();	/* a programming error */
	w->need_comma[++w->depth] = false;
	w->closer[w->depth] = c == '{' ? '}' : ']';
}

void jsonw_object(struct jsonw *w, const char *key)
{
	open_(w, key, '{');
}

void jsonw_array(struct jsonw *w, const char *key)
{
	open_(w, key, '[');
}

void jsonw_end(struct jsonw *w)
{
	if (w->depth <= 0)
		abort();	/* unbalanced: a programming error */
	fputc(w->closer[w->depth--], w->out);
}

void jsonw_tool(struct jsonw *w)
{
	jsonw_object(w, "tool");
	jsonw_str(w, "name", "writestress");
	jsonw_str(w, "version", WS_VERSION);
	jsonw_end(w);
}

void jsonw_str(struct jsonw *w, const char *key, const char *val)
{
	member(w, key);
	if (val)
		escaped(w->out, val);
	else
		fputs("null", w->out);
}

void jsonw_u64(struct jsonw *w, const char *key, uint64_t val)
{
	member(w, key);
	fprintf(w->out, "%llu", (unsigned long long)val);
}

void jsonw_i64(struct jsonw *w, const char *key, int64_t val)
{
	member(w, key);
	fprintf(w->out, "%lld", (long long)val);
}

void jsonw_double(struct jsonw *w, const char *key, double val)
{
	member(w, key);
	char buf[32];

	if (!__builtin_isfinite(val)) {
		fputs("null", w->out);
		return;
	}
	/* the shortest that reads back exactly: 0.1, not 0.10000000000000001 */
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, val);
		if (strtod(buf, NULL) == val)
			break;
	}
	fputs(buf, w->out);
}

void jsonw_bool(struct jsonw *w, const char *key, bool val)
{
	member(w, key);
	fputs(val ? "true" : "false", w->out);
}

void jsonw_null(struct jsonw *w, const char *key)
{
	member(w, key);
	fputs("null", w->out);
}

void jsonw_seconds(struct jsonw *w, const char *key, uint64_t ns)
{
	jsonw_double(w, key, (double)ns / 1e9);
}

void jsonw_ms(struct jsonw *w, const char *key, uint64_t ns)
{
	jsonw_double(w, key, (double)ns / 1e6);
}

void jsonw_count_or_null(struct jsonw *w, const char *key, int64_t v)
{
	if (v < 0)
		jsonw_null(w, key);
	else
		jsonw_i64(w, key, v);
}

void jsonw_text_or_null(struct jsonw *w, const char *key, const char *s)
{
	jsonw_str(w, key, s && s[0] ? s : NULL);
}

void jsonw_bool_or_null(struct jsonw *w, const char *key, int v)
{
	if (v < 0)
		jsonw_null(w, key);
	else
		jsonw_bool(w, key, v);
}
