/* result_read.c - result files read back and looked up (see
 * result_read.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmd/common/result_read.h"

#define CHUNK 16384

static size_t blank_prefix(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	return i;
}

static int read_error(char *why, size_t len)
{
	int err = errno ? errno : EIO;

	snprintf(why, len, "%s", strerror(err));
	return -err;
}

/* Blanks only after the document, which ended at BUF[POS] (BUF's first
 * byte is the file's BASE), to the end of the file. */
static int check_rest(FILE *f, char *buf, size_t n, size_t pos, size_t base,
		      char *why, size_t len)
{
	while (n) {
		size_t blank = blank_prefix(buf + pos, n - pos);

		if (pos + blank < n) {
			snprintf(why, len, "invalid JSON at byte %zu: data after the document",
				 base + pos + blank);
			return -EINVAL;
		}
		base += n;
		pos = 0;
		n = fread(buf, 1, CHUNK, f);
	}
	return ferror(f) ? read_error(why, len) : 0;
}

static int parse_stream(FILE *f, struct json_tokener *tok,
			struct json_object **doc, char *why, size_t len)
{
	enum json_tokener_error jerr = json_tokener_continue;
	size_t base = 0, n = 0;
	char buf[CHUNK];

	while (jerr == json_tokener_continue && (n = fread(buf, 1, CHUNK, f)) > 0) {
		*doc = json_tokener_parse_ex(tok, buf, (int)n);
		jerr = json_tokener_get_error(tok);
		if (jerr == json_tokener_continue)
			base += n;
	}
	if (ferror(f))
		return read_error(why, len);
	if (jerr == json_tokener_continue) {
		if (!base) {
			snprintf(why, len, "empty file");
			return -EINVAL;
		}
		/* the terminating NUL ends a value that has no end of its own */
		*doc = json_tokener_parse_ex(tok, "", 1);
		jerr = json_tokener_get_error(tok);
		if (jerr == json_tokener_success)
			return 0;
		snprintf(why, len, "invalid JSON at byte %zu: %s", base,
			 json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	if (jerr != json_tokener_success) {
		snprintf(why, len, "invalid JSON at byte %zu: %s",
			 base + json_tokener_get_parse_end(tok),
			 json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	return check_rest(f, buf, n, json_tokener_get_parse_end(tok), base, why, len);
}

int result_load(const char *path, struct json_object **doc, char *why,
		size_t len)
{
	struct json_tokener *tok;
	FILE *f;
	int ret;

	*doc = NULL;
	f = fopen(path, "r");
	if (!f) {
		ret = -errno;
		snprintf(why, len, "%s", strerror(-ret));
		return ret;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		ret = -ENOMEM;
		goto out_close;
	}
	/* trailing data is checked here, whichever chunk it is in */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	errno = 0;
	ret = parse_stream(f, tok, doc, why, len);
	if (ret) {
		json_object_put(*doc);
		*doc = NULL;
	}
	json_tokener_free(tok);
out_close:
	fclose(f);
	return ret;
}

int result_schema_version(const struct json_object *doc, unsigned int *version,
			  char *why, size_t len)
{
	const size_t fam = strlen(RESULT_SCHEMA_FAMILY);
	struct json_object *schema;
	const char *s, *n;

	if (!json_object_is_type(doc, json_type_object)) {
		snprintf(why, len, "is not a writestress result: not a JSON object");
		return -EINVAL;
	}
	if (!json_object_object_get_ex(doc, "schema", &schema) ||
	    !json_object_is_type(schema, json_type_string)) {
		snprintf(why, len, "is not a writestress result: no \"schema\" string");
		return -EINVAL;
	}
	s = json_object_get_string(schema);
	n = s + fam;
	if (strncmp(s, RESULT_SCHEMA_FAMILY, fam) || *n < '1' || *n > '9' ||
	    strspn(n, "0123456789") != strlen(n) || strlen(n) > 9) {
		snprintf(why, len, "has schema '%.64s', not %sN", s, RESULT_SCHEMA_FAMILY);
		return -EINVAL;
	}
	*version = (unsigned int)strtoul(n, NULL, 10);
	return 0;
}

enum result_found result_lookup(const struct json_object *o, const char *path,
				struct json_object **out)
{
	char key[64];
	struct json_object *v = (struct json_object *)o;

	if (!o)
		return RESULT_ABSENT;
	while (*path) {
		size_t n = strcspn(path, ".");

		if (!v)
			return RESULT_NULL;		/* a null on the way */
		if (n >= sizeof(key) || !json_object_is_type(v, json_type_object))
			return RESULT_ABSENT;
		memcpy(key, path, n);
		key[n] = '\0';
		path += n + (path[n] == '.');
		if (!json_object_object_get_ex(v, key, &v))
			return RESULT_ABSENT;
	}
	*out = v;
	return v ? RESULT_FOUND : RESULT_NULL;
}

bool result_is_number(const struct json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

double result_num(const struct json_object *o, const char *path)
{
	struct json_object *v;

	if (!path || result_lookup(o, path, &v) != RESULT_FOUND || !result_is_number(v))
		return NAN;
	return json_object_get_double(v);
}

const char *result_str(const struct json_object *o, const char *path)
{
	struct json_object *v;

	if (result_lookup(o, path, &v) != RESULT_FOUND ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool result_is_watch(const struct json_object *doc)
{
	const char *mode = result_str(doc, "mode");

	return mode && !strcmp(mode, "watch");
}

struct json_object *result_array_at(const struct json_object *o, const char *path)
{
	struct json_object *v;

	if (result_lookup(o, path, &v) != RESULT_FOUND ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

size_t result_array_len(const struct json_object *arr)
{
	return arr ? json_object_array_length(arr) : 0;
}

struct json_object *result_array_idx(const struct json_object *arr, size_t i)
{
	return i < result_array_len(arr) ? json_object_array_get_idx(arr, i) : NULL;
}

void result_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '|')
			*s = '?';
}
