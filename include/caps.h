/* caps.h - privileges the measurement needs, checked with libcap before
 * they are tried, and the reason when they are not there.
 * Main thread only, before the other threads start.
 */
#ifndef WS_CAPS_H
#define WS_CAPS_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
