/* fields.h - the settings table: the one place each setting's option,
 * default, words, result key and comparability are written.  Constant.
 */
#ifndef WS_FIELDS_H
#define WS_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/cli.h"

enum ws_field_type {
	WS_FIELD_COUNT,
	WS_FIELD_BYTES,		/* or a rate */
	WS_FIELD_UINT,
	WS_FIELD_BOOL,
	WS_FIELD_SECONDS,	/* uint64_t ns */
	WS_FIELD_MS,		/* uint64_t ns */
	WS_FIELD_TEXT,
	WS_FIELD_WORD,		/* bool as words[0 or 1] */
	WS_FIELD_OWN,		/* the JSON sink's own */
};

struct ws_field {
	/* offset: in ws_settings.  name NULL: a heading, or with help NULL
	 * a key without option */
	struct cli_option opt;
	bool wiring;		/* a ws_config value, not a setting */
	const char *of;		/* no option: the one that sets it */
	const char *def;	/* NULL: 0 or a rule */
	const char *const *words;	/* NULL-ended */
	struct {
		const char *key;	/* NULL: not recorded */
		enum ws_field_type type;
		bool changes;		/* runs differing in it are not alike */
	} result;
};

/* In --help's order. */
const struct ws_field *ws_fields(size_t *n);

/* NULL past the last. */
const struct ws_field *ws_field_in_result(size_t i);

/* Names without dashes; or NULL. */
const struct ws_field *ws_field_by_key(const char *key);
const struct ws_field *ws_field_of(const char *name);

const char *ws_field_option(const struct ws_field *f);

/* struct cli's default_of. */
const char *ws_field_default(const char *name);

/* A setting as a person types it, from its value in a result: "-B 1.00
 * MiB", "--rate 40.0 MiB/s", "-t 5m00s", "--pace none", "--fadvise"; ""
 * when unset or at its default.  The value is a number (TEXT NULL; a
 * bool is 0 or 1) or a text; TEXT NULL and NUM NaN: unset (null).
 * Returns buf. */
char *ws_field_typed(const struct ws_field *f, double num, const char *text,
		     char *buf, size_t len);

#endif
