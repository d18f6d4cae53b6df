/* idle.h - the watch's stand-in for a writer: it writes nothing, and
 * keeps the run's clock and ending (its bound, or a signal) in the
 * snapshot, so the probes, the tracer and the recorder run as in a run.
 * Its own thread; the snapshot is the only door.
 */
#ifndef WS_IDLE_H
#define WS_IDLE_H

#include <stdatomic.h>
#include <stdint.h>

#include "engine/snapshot.h"

struct idle {
	struct ws_snapshot *snap;
	const atomic_bool *stop;	/* a signal's */
	uint64_t duration_ns;		/* 0: until stop */
};

/* Until the bound or stop; the outcome in the snapshot. */
void idle_run(struct idle *w);
void *idle_thread(void *arg);

#endif
