/* lostspans.h - where the kernel's trace ring dropped events: the spans
 * between the tracer's takes in which its count of lost events grew, so a
 * stall judged on short evidence says so.  Pure: the tracer hands it the
 * ring's count at each take (and a recording carries the same, "# lost"),
 * the unit tests a recorded run's.  Bounded: the last LOST_SPANS spans; a
 * run that loses events take after take keeps one growing span.
 */
#ifndef WS_TRACE_LOSTSPANS_H
#define WS_TRACE_LOSTSPANS_H

#include <stdint.h>

#include "record/stall.h"

#define LOST_SPANS 64

struct lost_span {
	uint64_t from_ns, to_ns, lost;
};

struct lostspans {
	struct lost_span span[LOST_SPANS];	/* a ring of the last */
	unsigned int n;				/* noted, ever */
	uint64_t taken;		/* the ring's count at the last take */
	uint64_t last_ns;	/* the last take's time */
	uint64_t start_ns;	/* the trace's start */
};

/* From the trace's start. */
void lostspans_init(struct lostspans *l, uint64_t start_ns);
/* The ring's count of events lost since the start, at a take at now_ns:
 * the events lost since the last take (0 when none). */
uint64_t lostspans_note(struct lostspans *l, uint64_t lost_total, uint64_t now_ns);
/* Events lost in spans that overlap [from_ns, to_ns]. */
uint64_t lostspans_within(const struct lostspans *l, uint64_t from_ns, uint64_t to_ns);
/* A stall's reason over [from_ns, to_ns] gains the events lost in it,
 * and whether it began before the trace started (a probe runs from
 * before the tracer is set up): judged on part of the evidence. */
void lostspans_judge(const struct lostspans *l, uint64_t from_ns, uint64_t to_ns,
		     struct ws_stall_reason *r);

#endif
