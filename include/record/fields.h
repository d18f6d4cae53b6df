/* fields.h - the settings table: one row per setting of a run, holding
 * everything said about it.  The option (long name, short key, type,
 * metavariable, offset, bounds, help), its default as the option would
 * be given, the words it takes, its key under the result's "config"
 * (doc/result-json.md), how the result writes it, and whether two runs
 * that differ in it can still be judged against each other.
 *
 * The one place these facts are written; every reader takes them from
 * here.  The run's command line (config/options.h attaches what only the
 * configuration knows, cli/opts.c adds --help's frame and completion's
 * words) and its defaults (config_defaults parses each row's default
 * through the row, so a default obeys its own bounds), --help's
 * "(default ...)", the "config" object of the JSON result, the settings
 * compare and report judge like for like, matrix's run options (the
 * run's rows under matrix's letters and help), and the docs check
 * (tests/unit/cli/test_registry.c) that holds the man page and the schema
 * to them.  Plain constant data: any thread may read it.
 */
#ifndef WS_FIELDS_H
#define WS_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/cli.h"

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
	/* The option, as lib/cli.h reads it.  offset: in struct
	 * ws_settings (config.h's struct ws_config and matrix's arguments
	 * begin with one, so it is the same there); on a CLI_CUSTOM row,
	 * where its value is and the result reads it.  parse: NULL here,
	 * config/options.c attaches every CLI_CUSTOM row's by name (its
	 * parsers need the configuration).  name NULL and help set: a
	 * heading of --help; both NULL: a key no option of its own sets. */
	struct cli_option opt;
	/* The value is not a setting but the command line's own, beside
	 * the settings in struct ws_config (config.h): config/options.c
	 * says where it goes.  Such a row's key, if any, is WS_FIELD_OWN. */
	bool wiring;
	/* a row without an option: the option that makes its key ("data"
	 * for compress_pct), or NULL when writestress chooses it */
	const char *of;
	const char *def;	/* the default, as the option takes it
				   ("8M", "100ms"); NULL: none, 0, or a
				   rule decides (help says which) */
	/* the words the option takes, NULL-ended (NULL: none); for
	 * WS_FIELD_WORD, false's then true's */
	const char *const *words;
	struct {
		const char *key;	/* "buffer_size"; NULL: not recorded */
		enum ws_field_type type;	/* read at opt.offset */
		bool changes;		/* runs that differ in it are not
					   alike (fields.c says which) */
	} result;
};

/* Every row, in --help's order (headings and keys without an option
 * among them). */
const struct ws_field *ws_fields(size_t *n);

/* The rows the result's "config" object holds, in its order: the i-th,
 * or NULL past the last. */
const struct ws_field *ws_field_in_result(size_t i);

/* The row for result key ("window"), or for option NAME without dashes
 * ("window", "data"; the option's own row), or NULL. */
const struct ws_field *ws_field_by_key(const char *key);
const struct ws_field *ws_field_of(const char *name);

/* The option a row belongs to, without dashes (its own, or its `of`),
 * or NULL. */
const char *ws_field_option(const struct ws_field *f);

/* The default of the option NAME without dashes ("buffer-size": "8M"),
 * or NULL: the shape struct cli's default_of asks for. */
const char *ws_field_default(const char *name);

#endif
