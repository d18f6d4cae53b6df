/* thread.h - every writestress thread starts here: named, at its I/O
 * priority, SCHED_FIFO from creation if asked, on a small stack (it is
 * mlockall()ed), with no capabilities.  If that prologue fails the thread
 * never runs fn, so no run goes on with privileges (man page: CapEff 0).
 */
#ifndef WS_THREAD_H
#define WS_THREAD_H

#include <pthread.h>
#include <stdbool.h>

#include "lib/c.h"

#define WS_THREAD_STACK (256 * 1024)
#define WS_THREAD_RT_PRIO 10	/* above every normal task, below kernel RT */

struct ws_thread_spec {
	const char *name;	/* at most 15 bytes */
	int realtime;		/* SCHED_FIFO priority, or 0 */
	bool realtime_optional;	/* refused: run normal, set realtime_refused */
	bool realtime_refused;	/* out */
	int ioprio_class;	/* WS_IOPRIO_NONE: the creator's */
	int ioprio_level;
};

/* 0, or -errno: SCHED_FIFO refused (nothing started), or the prologue
 * failed (the thread did nothing and was joined). */
WS_MUST_CHECK
int ws_thread_start(pthread_t *tid, struct ws_thread_spec *spec,
		    void *(*fn)(void *), void *arg);

/* The prologue step that last failed, for the error message. */
const char *ws_thread_last_failure(void);

#endif
