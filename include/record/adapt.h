/* record/adapt.h - --pace adaptive's controller (engine/adapt.h). */
#ifndef WS_RECORD_ADAPT_H
#define WS_RECORD_ADAPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/settings.h"

/* The last period's verdict. */
enum ws_adapt_why {
	WS_ADAPT_SETTLED,
	WS_ADAPT_STARTING,	/* too few calm periods */
	WS_ADAPT_NO_PROBES,	/* a period without a probe */
	WS_ADAPT_OVER,		/* the slowest probe over target */
	WS_ADAPT_RACING,	/* far under it: the setpoint still grows */
	WS_ADAPT_MOVING,	/* inflight left the band */
	WS_ADAPT_UNREACHABLE,	/* over the target at the floor */
	WS_ADAPT_WHY_NR
};
/* "over_target": the results' word. */
const char *ws_adapt_why_key(enum ws_adapt_why why);

/* Before the target is called out of reach at the floor, headroom is
 * tried (engine/adapt.h): each attempt's share, and for one that failed
 * the least its floor periods' slowest probe took, for one that met the
 * slowest probe of the periods that met it. */
#define WS_ADAPT_ATTEMPTS 3
struct ws_adapt_attempt {
	uint64_t worst_ns;
	uint8_t headroom_pct;
	bool met;
};

struct ws_adapt_figures {
	uint64_t chunk;			/* bytes a write */
	unsigned int window;		/* chunks under writeback */
	uint64_t inflight;		/* bytes */
	uint64_t sojourn_ns;		/* a chunk's writeback, smoothed */
	uint64_t setpoint_ns;		/* the sojourn's */
	bool settled;
	bool at_floor;
	uint8_t headroom_pct;		/* in force at the end */
	uint8_t nattempts;
	enum ws_adapt_why why;
	/* out of reach since unreachable_at_ns; floor_probe -1: none */
	bool unreachable;
	uint64_t unreachable_at_ns;
	int floor_probe;
	uint64_t floor_ns;
	int steering;			/* the probe that steered most, -1 */
	double waits[WS_MAX_PROBES];	/* behind the writer; 0: no steer */
	uint64_t idle_ns[WS_MAX_PROBES];	/* median on the idle disk */
	uint64_t disk_bps, cap_bps;	/* --headroom's; 0: none yet */
	struct ws_adapt_attempt attempt[WS_ADAPT_ATTEMPTS];
	uint64_t headroom_met_ns;	/* since, met with attempt's; 0: not */
};

/* Attempt i in words for the summary, without the floor probe's name
 * (given): "without headroom: sqlite took ≥ 203 ms at the floor".
 * user_pct: --headroom as given.  Returns buf. */
const char *ws_adapt_attempt_words(char *buf, size_t len,
				   const struct ws_adapt_figures *a,
				   unsigned int i, unsigned int user_pct,
				   const char *name);

#endif
