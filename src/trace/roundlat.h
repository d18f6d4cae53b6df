/* roundlat.h - device write latency (p50, p99) per steady-state round, as
 * SNIA PTS reports. */
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
	bool started;
	bool counting;			/* started and not finished */
	struct slotclock clock;
	struct hist *open;		/* round r's is open[r % nopen] */
	struct ws_round_device *done;
	size_t ndone, cap;
};

/* 0, or -ENOMEM (then it counts nothing). */
int roundlat_start(struct roundlat *rl, uint64_t origin_ns, uint64_t round_ns);
void roundlat_add(struct roundlat *rl, uint64_t ts_ns, uint64_t service_ns);
/* Closes every round up to the latest completion (the last partial). */
void roundlat_finish(struct roundlat *rl);
void roundlat_free(struct roundlat *rl);

#endif
