/* caps.h - privileges the measurement needs, checked with libcap before
 * they are tried, and the reason when they are not there.
 * Main thread, before the other threads start; caps_drop_thread(),
 * caps_raise_cleanup() and caps_ioprio_self() act on the calling thread,
 * which is how the thread trampoline (thread.h) uses them.
 */
#ifndef WS_CAPS_H
#define WS_CAPS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/c.h"

/* Is `cap` (CAP_*) in the process's effective set? */
bool caps_effective(int cap);

/* mlockall(MCL_CURRENT | MCL_FUTURE), so page faults never pollute a
 * probe's latency.  Needs CAP_IPC_LOCK or an unlimited RLIMIT_MEMLOCK.
 * 0, or -errno with the reason in why. */
int caps_lock_memory(char *why, size_t len);

/* May threads run SCHED_FIFO at `prio`?  A probe must measure the I/O,
 * not the run queue.  Needs CAP_SYS_NICE or RLIMIT_RTPRIO >= prio; false
 * with the reason in why. */
bool caps_can_realtime(int prio, char *why, size_t len);

/* --drop-caches: sync, then drop the page cache (CAP_SYS_ADMIN). */
int caps_drop_caches(char *why, size_t len);

/* May this process give a thread I/O priority class `class` (asked for
 * by option opt)?  rt needs CAP_SYS_ADMIN.  0, or -EPERM with the reason. */
int caps_ioprio_allowed(const char *opt, int class, char *why, size_t len);
/* Set the calling thread's I/O priority (the thread trampoline does, for
 * the threads that ask).  0 or -errno with the reason. */
int caps_ioprio_self(int class, int level, char *why, size_t len);

/* After setup nothing privileged is left to do in the long main loop:
 * every thread drops every capability at its start (caps_drop_thread);
 * the main thread keeps only what cleanup may need, permitted but not
 * effective (caps_drop_main), and raises it for the cleanup at the end
 * (caps_raise_cleanup).  0 or -errno. */
WS_MUST_CHECK int caps_drop_thread(void);
WS_MUST_CHECK int caps_drop_main(void);
int caps_raise_cleanup(void);

/* --scheduler: switch queue_dir/scheduler to name (one the device offers;
 * CAP_SYS_ADMIN), saving the active one in old for the restore.  0 or
 * -errno with the reason. */
int caps_set_scheduler(const char *queue_dir, const char *name, char *old,
		       size_t oldlen, char *why, size_t len);
int caps_restore_scheduler(const char *queue_dir, const char *old);

#endif
