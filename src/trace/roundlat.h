/* roundlat.h - the device's write latency round by round: for each round
 * of the steady-state judgement (round_ns of the run, counted from the
 * writer's start), how many writes completed and their time at the
 * device, issue to completion, at p50 and p99 - the response time SNIA
 * PTS reports beside each round's bandwidth.
 *
 * Completions are not in time order (slotclock.h): the rounds of the
 * last RL_OPEN_NS stay open (a histogram each; RL_OPEN of them at least,
 * RL_OPEN_MAX at most), and a round closes when a completion that many
 * rounds later arrives, or at the end.  A completion for a round already
 * closed is counted as late, never put into another round.  Pure; one
 * owner at a time (the tracer's lock).
 */
#ifndef WS_TRACE_ROUNDLAT_H
#define WS_TRACE_ROUNDLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hist.h"
#include "record/record.h"
#include "slotclock.h"

#define RL_OPEN 8
#define RL_OPEN_MAX 128		/* 4.7 MiB of histograms: 10 ms rounds */
#define RL_OPEN_NS 1200000000ull	/* a second's wait and two drains */

struct roundlat {
	bool started;			/* roundlat_start succeeded */
	bool counting;			/* started and not finished */
	struct slotclock clock;		/* rounds of round_ns from the
					   writer's start, nopen of them open;
					   its early, late: completions before
					   the origin, for a round closed */
	struct hist *open;		/* a ring of nopen: round r's is
					   open[r % nopen] */
	struct ws_round_device *done;	/* rounds [0, ndone) */
	size_t ndone, cap;
};

/* Count rounds of round_ns from origin_ns (CLOCK_MONOTONIC).  0, or
 * -ENOMEM (then it counts nothing). */
int roundlat_start(struct roundlat *rl, uint64_t origin_ns, uint64_t round_ns);
/* A write completed at ts_ns after service_ns at the device. */
void roundlat_add(struct roundlat *rl, uint64_t ts_ns, uint64_t service_ns);
/* At the end: every round up to the latest completion's closed (the
 * last one partial). */
void roundlat_finish(struct roundlat *rl);
void roundlat_free(struct roundlat *rl);

#endif
