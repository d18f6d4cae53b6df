/* run.h - what every output sink is told about the run: the configuration
 * and the facts established before the first byte, then one record per
 * interval and a summary.  Built by the main thread (ws_run) and the
 * reporter thread (records); sinks only read them.
 */
#ifndef WS_RUN_H
#define WS_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "plan.h"
#include "snapshot.h"
#include "target.h"

struct ws_run {
	const struct ws_config *cfg;
	const struct ws_plan *plan;
	const struct ws_target *target;
	const char *argv0;
};

/* One reporting interval. */
struct ws_interval {
	uint64_t index;
	uint64_t t_ns;		/* elapsed at the interval's end */
	uint64_t dt_ns;		/* its length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	uint64_t time_ns[WS_T_NR];	/* writer time during it */
	double mibps;		/* during it */
	double avg_mibps;	/* since the start */
	double progress;	/* 0..1, or -1 when the run is unbounded */
	uint64_t eta_ns;	/* valid when progress > 0 */
};

struct ws_summary {
	uint64_t bytes;
	uint64_t buffers;
	uint64_t wraps;
	uint64_t elapsed_ns;	/* to the moment the data was on disk */
	uint64_t time_ns[WS_T_NR];
	double mibps;
	struct ws_outcome outcome;
	int signo;		/* for WS_STOP_SIGNAL */
};

#endif
