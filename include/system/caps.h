/* caps.h - privileges checked with libcap before they are tried, and the
 * reason when missing.  Main thread before the others start; the _thread,
 * _self and _raise_ calls act on the calling thread (thread.h). */
#ifndef WS_CAPS_H
#define WS_CAPS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/c.h"
#include "record/run.h"

bool caps_effective(int cap);

/* So page faults never pollute a probe's latency.  0 or -errno, why set. */
int caps_lock_memory(struct ws_denial_why *why);

/* SCHED_FIFO at prio, so a probe measures the I/O, not the run queue. */
bool caps_can_realtime(int prio, struct ws_denial_why *why);

int caps_drop_caches(char *why, size_t len);

/* 0, or -EPERM naming OPT and the capability. */
int caps_ioprio_allowed(const char *opt, int class, char *why, size_t len);
int caps_ioprio_self(int class, int level, char *why, size_t len);

/* Threads drop every capability at start; main keeps what cleanup needs,
 * permitted but not effective, and raises it at the end.  0 or -errno. */
WS_MUST_CHECK int caps_drop_thread(void);
WS_MUST_CHECK int caps_drop_main(void);
int caps_raise_cleanup(void);

/* Saves the active scheduler in OLD for caps_restore_scheduler().
 * 0 or -errno, why set. */
int caps_set_scheduler(const char *queue_dir, const char *name, char *old,
		       size_t oldlen, char *why, size_t len);
int caps_restore_scheduler(const char *queue_dir, const char *old);

#endif
