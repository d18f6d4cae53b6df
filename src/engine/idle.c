/* idle.c - no writer, a run's clock (idle.h). */
#include <time.h>

#include "engine/idle.h"
#include "system/clock.h"

#define IDLE_NAP_NS 20000000	/* a signal is seen within this */

void idle_run(struct idle *w)
{
	struct ws_outcome o = { .reason = WS_STOP_TIME };
	uint64_t start = ws_now_ns(), now = start;

	snapshot_start(w->snap, start);
	for (;;) {
		struct timespec nap = { 0, IDLE_NAP_NS };

		if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
			o.reason = WS_STOP_SIGNAL;
			break;
		}
		if (snapshot_stop_requested(w->snap)) {
			o.reason = (enum ws_stop_reason)atomic_load_explicit(&w->snap->verdict,
									memory_order_relaxed);
			break;
		}
		now = ws_now_ns();
		if (w->duration_ns && now - start >= w->duration_ns)
			break;
		if (w->duration_ns && w->duration_ns - (now - start) < IDLE_NAP_NS)
			nap.tv_nsec = (long)(w->duration_ns - (now - start));
		nanosleep(&nap, NULL);
	}
	snapshot_mark_last(w->snap, ws_now_ns() - start, 0, 0);
	o.end_ns = ws_now_ns();
	snapshot_finish(w->snap, &o);
}

void *idle_thread(void *arg)
{
	idle_run(arg);
	return NULL;
}
