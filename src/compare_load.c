/* compare_load.c - reading a result file for `writestress compare`: the
 * whole file, one JSON document with nothing after it but blanks, of a
 * schema compare knows (see compare.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "c.h"
#include "cli.h"
#include "compare.h"
#include "units.h"

/* ---- reading a file ---------------------------------------------------- */

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

/* After the document, which ended at BUF[POS] (BUF holds N bytes read,
 * the first of them at byte BASE of the file): white space only, to the
 * end of the file. */
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

/* Feed F to TOK a chunk at a time; the document into *doc. */
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

int compare_load(const char *path, struct json_object **doc, char *why,
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

int compare_check_schema(const struct json_object *doc, char *why, size_t len)
{
	struct json_object *schema;

	if (!json_object_is_type(doc, json_type_object)) {
		snprintf(why, len, "is not a writestress result: not a JSON object");
		return -EINVAL;
	}
	if (!json_object_object_get_ex(doc, "schema", &schema)) {
		snprintf(why, len, "is not a writestress result: no \"schema\" field");
		return -EINVAL;
	}
	if (!json_object_is_type(schema, json_type_string)) {
		snprintf(why, len, "is not a writestress result: \"schema\" is not a string");
		return -EINVAL;
	}
	if (strcmp(json_object_get_string(schema), CMP_SCHEMA)) {
		snprintf(why, len, "has unsupported schema '%.64s': this writestress reads '%s'",
			 json_object_get_string(schema), CMP_SCHEMA);
		return -EINVAL;
	}
	return 0;
}
