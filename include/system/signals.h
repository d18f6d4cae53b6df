/* signals.h - SIGINT/SIGTERM end the run gracefully; a second SIGINT ends
 * the process at once (exit 130).
 *
 * ws_stop is the process's one shared flag: the signal handler sets it, and
 * the writer polls it between system calls.
 */
#ifndef WS_SIGNALS_H
#define WS_SIGNALS_H

#include <signal.h>
#include <stdatomic.h>

#include "record/settings.h"

extern atomic_bool ws_stop;

/* Files a second SIGINT can still remove: the result files' temporaries
 * and every probe's file. */
#define WS_MAX_UNLINK (WS_MAX_PROBES * 6 + 4)	/* PROBE_MAX_NAMES each */

/* Install the handlers.  0 or -errno. */
int signals_install(void);
/* Files (or empty directories, after their files) to remove if a second
 * SIGINT ends the process at once (probe files must not outlive any run).
 * name must stay valid; up to WS_MAX_UNLINK. */
void signals_unlink_at_exit(int dirfd, const char *name);

/* A sysfs value to write back if a second SIGINT ends the process at
 * once (--scheduler's original).  Both strings must stay valid; up to 4. */
void signals_restore_at_exit(const char *path, const char *value);

/* The signals that stop a run (SIGINT, SIGTERM, SIGPIPE), as a set. */
void signals_stop_set(sigset_t *set);

/* The run is over, its threads gone: a second SIGINT from here on would
 * end the process inside its own exit (in the coverage build both dump
 * the counts under one lock, and the exit hangs), so the stop signals
 * are held; the exit is near.  Call from the last thread. */
void signals_block_stop(void);

/* "SIGINT", "SIGTERM", or NULL for anything else. */
const char *signals_name(int signo);

/* The first stop signal received, or 0. */
int signals_received(void);

#endif
