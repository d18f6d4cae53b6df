/* config.h - the run's configuration: the settings plus what only the
 * wiring needs.  Filled by opts_parse() before any other thread starts,
 * read-only after.
 */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/term.h"
#include "record/settings.h"

/* The fsync probe's file is emptied past this. */
#define WS_PROBE_FSYNC_WRAP (1024 * 1024)

struct ws_config {
	struct ws_settings set;

	/* FILE1 FILE2 ..., or --jobs N as FILE.1 ... FILE.N */
	const char *paths[WS_MAX_TARGETS];
	unsigned int ntargets;
	uint64_t file_size;	/* 0: derive */
	uint64_t reserve;
	bool reserve_set;	/* else derived from the filesystem */
	int steady_criterion;	/* enum ws_steady_criterion */
	double steady_limit_pct, steady_slope_pct;
	/* --precondition Nx: N times the device's capacity; 0: the
	 * set.steady.precondition_bytes */
	double precondition_mult;
	const char *probe_user;	/* NULL: nobody when root, else the caller */
	bool force;		/* may modify a file we did not create */
	bool remove_after;
	bool verify;
	bool quiet;
	bool verbose;
	enum ws_colour colour;
};

/* Every option's default (fields.h) as if given; the rest zero. */
void config_defaults(struct ws_config *cfg);

#endif
