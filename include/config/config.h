/* config.h - the run's configuration, as the command line left it.
 *
 * Filled once by opts_parse() in the main thread before any other thread
 * starts; read-only afterwards, so every thread may read it without locks.
 */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/term.h"
#include "record/settings.h"

/* The fsync probe's file is emptied when it would grow past this. */
#define WS_PROBE_FSYNC_WRAP (1024 * 1024)

struct ws_config {
	/* what the run does, as its result records it (settings.h) */
	struct ws_settings set;

	/* every target: FILE1 FILE2 ..., or --jobs N copies of FILE as
	 * FILE.1 ... FILE.N; one writer each (set.path: the first) */
	const char *paths[WS_MAX_TARGETS];
	unsigned int ntargets;
	uint64_t file_size;	/* --file-size: wrap at; 0 = derive */
	uint64_t reserve;	/* --reserve: bytes kept free */
	bool reserve_set;	/* false: derive from the filesystem size */
	/* --steady-criterion: enum ws_steady_criterion (record.h) and its
	 * limits in %; SNIA (20, 10) by default */
	int steady_criterion;
	double steady_limit_pct, steady_slope_pct;
	/* --precondition Nx: windows are judged only after N times the
	 * capacity of the device under FILE was written (when > 0; else
	 * set.steady.precondition_bytes) */
	double precondition_mult;
	const char *probe_user;	/* --probe-user: commands run as; NULL:
				   nobody when root, else the caller */
	bool force;		/* may modify a file we did not create */
	bool remove_after;	/* --remove: unlink our file at the end */
	bool verify;		/* --verify: read the file back at the end */
	bool quiet;		/* no live or interval lines, summary only */
	enum ws_colour colour;	/* --color */
};

/* The defaults documented in --help: every option's default (the
 * settings table's, record/fields.h) set as if it were given, the rest
 * zero (config.c). */
void config_defaults(struct ws_config *cfg);

#endif
