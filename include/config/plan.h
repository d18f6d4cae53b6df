/* plan.h - the arithmetic of a run: how much, where, and whether it fits.
 *
 * Pure functions over numbers, so bound, wrap and reserve rules are tested
 * exhaustively without a filesystem.
 */
#ifndef WS_PLAN_H
#define WS_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

/* struct ws_plan, what this computes, is the record's: settings.h. */

/* What the filesystem offers, from fstatvfs() and the target's fstat(). */
struct ws_space {
	uint64_t fs_size;	/* f_blocks * f_frsize */
	uint64_t avail;		/* f_bavail * f_frsize: free to non-root */
	uint64_t reclaimed;	/* bytes our own old file frees on truncation */
	/* targets still to be planned on this filesystem, this one
	 * included (0 counts as 1): an unbounded run leaves each its share */
	unsigned int sharers;
	/* "/", "/var" or "/home" when the filesystem holds it (the system
	 * needs room there to go on working), else NULL */
	const char *holds;
};

/* Why a plan was refused: the figures for the message. */
struct ws_plan_refusal {
	uint64_t needed;	/* bytes the file would occupy */
	uint64_t usable;	/* avail + reclaimed */
	uint64_t reserve;
	uint64_t fits;		/* the largest --file-size that would fit */
};

/* Default reserve: 10% of a filesystem that holds /, /var or /home
 * (system); else 5% of it, at most 1 GiB. */
uint64_t plan_default_reserve(uint64_t fs_size, bool system);

/* Build the plan.  Returns 0, or -ENOSPC and fills *why when the file the
 * run needs would eat into the reserve (nothing may be written then). */
int plan_make(const struct ws_config *cfg, const struct ws_space *sp,
	      struct ws_plan *plan, struct ws_plan_refusal *why);

/* The bytes to write before steady state is judged: --precondition
 * SIZE, or its multiple (default 2 with --until-steady, else none) of
 * `capacity`, the bytes of the device under the file (0: unknown).  0, or
 * -ENODEV when a multiple was wanted and the capacity is unknown. */
int plan_precondition(const struct ws_config *cfg, uint64_t capacity,
		      struct ws_plan *plan);

/* One buffer's place in the file. */
struct ws_extent {
	uint64_t off, len;
};

/* The extent of the write that starts after `pos` bytes of the run: at
 * pos modulo file_size, as long as a buffer, cut at the end of the file
 * (the next write wraps to 0) and at the end of the run.  Returns false
 * when pos has reached plan->total. */
bool plan_next(const struct ws_plan *plan, uint64_t pos, struct ws_extent *e);

#endif
