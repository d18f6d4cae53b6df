/* thread.h - how writestress starts its threads.
 *
 * Small stacks: the probe threads' stacks are locked by mlockall() with
 * everything else that exists then, and eight 8 MiB default stacks would
 * be most of writestress's memory.  Optionally SCHED_FIFO, set at
 * creation so a thread never runs a moment at the wrong priority.
 */
#ifndef WS_THREAD_H
#define WS_THREAD_H

#include <pthread.h>

#define WS_THREAD_STACK (256 * 1024)
#define WS_THREAD_RT_PRIO 10	/* above every normal task, below kernel RT */

/* 0 or -errno.  With realtime > 0, SCHED_FIFO at that priority; fails
 * (-EPERM) rather than silently starting the thread at normal priority. */
int ws_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg,
		    int realtime);

#endif
