/* fields.h - one row for each setting a result records: its key under
 * "config" (doc/result-json.md), where it lives in struct ws_settings,
 * the option that sets it, its default as that option would be given,
 * its allowed words, and whether two runs that differ in it can still be
 * judged against each other.
 *
 * The one place these facts are written.  From it come: the defaults
 * (config_defaults parses each row's default through the option's own
 * row, so a default obeys the option's bounds), the "(default ...)" of
 * --help, the "config" object of the JSON result (in the rows' order),
 * the settings compare and report judge like for like, and the docs
 * check (tests/unit/cli/test_registry.c) that holds the man page and the
 * schema to them.  Plain constant data: any thread may read it.
 */
#ifndef WS_FIELDS_H
#define WS_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

/* What a row holds and how the result writes it: its unit. */
enum ws_field_type {
	WS_FIELD_COUNT,		/* uint64_t, a number of things */
	WS_FIELD_BYTES,		/* uint64_t bytes (or bytes a second) */
	WS_FIELD_UINT,		/* unsigned int */
	WS_FIELD_BOOL,		/* bool */
	WS_FIELD_SECONDS,	/* uint64_t ns, written in seconds */
	WS_FIELD_MS,		/* uint64_t ns, written in milliseconds */
	WS_FIELD_TEXT,		/* const char *, null when NULL */
	WS_FIELD_WORD,		/* bool, written as words[0] or words[1] */
	WS_FIELD_OWN,		/* derived, a list or an object: the JSON
				   sink writes it by its key */
};

struct ws_field {
	const char *key;	/* "buffer_size": the key under "config" */
	enum ws_field_type type;
	size_t offset;		/* in struct ws_settings (not WS_FIELD_OWN) */
	const char *option;	/* "--buffer-size"; NULL: writestress
				   chooses it, or several options make it */
	const char *def;	/* the default, as the option takes it
				   ("8M", "100ms"); NULL: none, 0, or a
				   rule decides (help says which) */
	const char *words[8];	/* the words the option takes, NULL-ended;
				   for WS_FIELD_WORD, false's then true's */
	bool changes_result;	/* runs that differ in it are not alike */
};

/* The rows, in the order of the result's "config" object. */
const struct ws_field *ws_fields(size_t *n);

/* The row for key ("window") or for option ("--window"; its first row
 * when several rows share it), or NULL. */
const struct ws_field *ws_field_by_key(const char *key);
const struct ws_field *ws_field_by_option(const char *option);

/* The default of the option NAME without dashes ("buffer-size": "8M"),
 * or NULL: the shape struct cli's default_of asks for. */
const char *ws_field_default(const char *name);

#endif
