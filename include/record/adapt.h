/* record/adapt.h - --pace adaptive's controller as the record holds it (adapt.h
 * runs it): where it stands, and why it is not settled. */
#ifndef WS_RECORD_ADAPT_H
#define WS_RECORD_ADAPT_H

#include <stdbool.h>
#include <stdint.h>

#include "record/settings.h"

/* --pace adaptive: why its controller is not settled (adapt.h), the
 * last period's verdict; WS_ADAPT_SETTLED once it is. */
enum ws_adapt_why {
	WS_ADAPT_SETTLED,
	WS_ADAPT_STARTING,	/* fewer calm periods than settling needs */
	WS_ADAPT_NO_PROBES,	/* a period without a probe: nothing to judge */
	WS_ADAPT_OVER,		/* the slowest probe was over the target */
	WS_ADAPT_RACING,	/* far under it: the setpoint still grows */
	WS_ADAPT_MOVING,	/* inflight left the band: the disk's pace moved */
	WS_ADAPT_UNREACHABLE,	/* over the target at the floor */
	WS_ADAPT_WHY_NR
};
/* "settled", "starting", "no_probes", "over_target", "racing",
 * "moving", "unreachable": the results' word (settings.c) */
const char *ws_adapt_why_key(enum ws_adapt_why why);

/* --pace adaptive: where its controller stands (adapt.h). */
struct ws_adapt_figures {
	uint64_t chunk;			/* bytes per write and writeback */
	unsigned int window;		/* chunks under writeback */
	uint64_t inflight;		/* bytes it allows under writeback */
	uint64_t sojourn_ns;		/* a chunk's writeback, smoothed */
	uint64_t setpoint_ns;		/* the sojourn it aims at */
	bool settled;
	bool at_floor;			/* the least writeback it keeps */
	enum ws_adapt_why why;
	/* the target out of reach: now, and since (the run's clock, from
	 * the first time; 0 never); the floor it found: the probe (index
	 * in the run's probes, -1 none) and its latency there */
	bool unreachable;
	uint64_t unreachable_at_ns;
	int floor_probe;
	uint64_t floor_ns;
	int steering;			/* the probe that steered most, -1 */
	/* each probe's waits behind the writer per operation (0: it does
	 * not steer) */
	double waits[WS_MAX_PROBES];
	/* and each one's median on the idle disk, what the target was
	 * checked against before the writer started */
	uint64_t idle_ns[WS_MAX_PROBES];
	/* --headroom: the disk's rate as the writer saw it unhindered, and
	 * the cap it kept to, bytes a second (0: not yet, or none) */
	uint64_t disk_bps, cap_bps;
};

#endif
