/* thread.h - every writestress thread starts here.
 *
 * One trampoline (ws_thread_start) gives each thread, before its first
 * instruction of work: its name (top -H, ionice -p), its I/O priority,
 * SCHED_FIFO when asked (set at creation, so it never runs a moment at the
 * wrong priority), a small stack, and no capabilities at all.  The creator
 * waits for that prologue: if any step fails the thread ends without
 * running fn and the creator gets the error, so a run whose threads could
 * not shed their privileges does not run (the README promises CapEff 0).
 *
 * Small stacks: the probe threads' stacks are locked by mlockall() with
 * everything else that exists then, and eight 8 MiB default stacks would
 * be most of writestress's memory.
 */
#ifndef WS_THREAD_H
#define WS_THREAD_H

#include <pthread.h>
#include <stdbool.h>

#include "lib/c.h"

#define WS_THREAD_STACK (256 * 1024)
#define WS_THREAD_RT_PRIO 10	/* above every normal task, below kernel RT */

/* What a thread is started with. */
struct ws_thread_spec {
	const char *name;	/* at most 15 bytes: "ws-writer" */
	int realtime;		/* SCHED_FIFO priority, or 0 */
	/* with realtime: if the kernel refuses SCHED_FIFO, start at normal
	 * priority and set realtime_refused, rather than fail */
	bool realtime_optional;
	bool realtime_refused;	/* out */
	int ioprio_class;	/* WS_IOPRIO_* (c.h); NONE: the creator's */
	int ioprio_level;
};

/* Start fn(arg) as spec says, once the prologue above has succeeded.
 * 0, or -errno: the kernel's refusal of SCHED_FIFO (nothing started), or
 * the error of setting the I/O priority or of dropping the capabilities
 * (the thread was started, did nothing and has been joined). */
WS_MUST_CHECK
int ws_thread_start(pthread_t *tid, struct ws_thread_spec *spec,
		    void *(*fn)(void *), void *arg);

/* Which step of the prologue failed last in this process ("dropping
 * capabilities", "setting the I/O priority"), for the error message. */
const char *ws_thread_last_failure(void);

#endif
