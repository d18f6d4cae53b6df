/* plan.h - the arithmetic of a run (struct ws_plan): pure, so tested
 * without a filesystem.
 */
#ifndef WS_PLAN_H
#define WS_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

/* Bytes. */
struct ws_space {
	uint64_t fs_size;
	uint64_t avail;		/* to non-root */
	uint64_t reclaimed;	/* by truncating our old file */
	/* targets left to plan here, this one too (0 as 1): each its share */
	unsigned int sharers;
	const char *holds;	/* "/", "/var", "/home", or NULL */
};

struct ws_plan_refusal {
	uint64_t needed;
	uint64_t usable;	/* avail + reclaimed */
	uint64_t reserve;
	uint64_t fits;		/* the largest --file-size */
};

/* 10% of a system filesystem, else 5% up to 1 GiB. */
uint64_t plan_default_reserve(uint64_t fs_size, bool system);

/* 0, or -ENOSPC with *why when the file would eat into the reserve. */
int plan_make(const struct ws_config *cfg, const struct ws_space *sp,
	      struct ws_plan *plan, struct ws_plan_refusal *why);

/* capacity 0: unknown.  0, or -ENODEV: a multiple of it was asked. */
int plan_precondition(const struct ws_config *cfg, uint64_t capacity,
		      struct ws_plan *plan);

struct ws_extent {
	uint64_t off, len;
};

/* At pos % file_size, cut at the file's end and the run's.  False at
 * total. */
bool plan_next(const struct ws_plan *plan, uint64_t pos, struct ws_extent *e);

#endif
