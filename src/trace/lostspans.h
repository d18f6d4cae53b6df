/* lostspans.h - where the ring dropped events, so a stall judged on short
 * evidence says so. */
#ifndef WS_TRACE_LOSTSPANS_H
#define WS_TRACE_LOSTSPANS_H

#include <stdint.h>

#include "record/stall.h"

#define LOST_SPANS 64

struct lost_span {
	uint64_t from_ns, to_ns, lost;
};

struct lostspans {
	struct lost_span span[LOST_SPANS];
	unsigned int n;				/* noted, ever */
	uint64_t taken;		/* the ring's count at the last take */
	uint64_t last_ns;
	uint64_t start_ns;
};

void lostspans_init(struct lostspans *l, uint64_t start_ns);
/* lost_total: the ring's count since the start; returns the new losses. */
uint64_t lostspans_note(struct lostspans *l, uint64_t lost_total, uint64_t now_ns);
uint64_t lostspans_within(const struct lostspans *l, uint64_t from_ns, uint64_t to_ns);
/* Adds the span's losses to r, and whether it began before the trace. */
void lostspans_judge(const struct lostspans *l, uint64_t from_ns, uint64_t to_ns,
		     struct ws_stall_reason *r);

#endif
