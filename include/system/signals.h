/* signals.h - SIGINT/SIGTERM end the run gracefully; a second SIGINT ends
 * the process at once (exit 130).  ws_stop is set by the handler and
 * polled by the writer between system calls.
 */
#ifndef WS_SIGNALS_H
#define WS_SIGNALS_H

#include <signal.h>
#include <stdatomic.h>

#include "record/settings.h"

extern atomic_bool ws_stop;

/* Result temporaries and PROBE_MAX_NAMES per probe. */
#define WS_MAX_UNLINK (WS_MAX_PROBES * 6 + 4)

/* 0 or -errno. */
int signals_install(void);
/* Removed if a second SIGINT ends the process: probe files must not
 * outlive a run.  NAME must stay valid. */
void signals_unlink_at_exit(int dirfd, const char *name);
/* Before dirfd is closed and the names registered with it are freed: a
 * second ^C no longer unlinks them. */
void signals_unlink_forget(int dirfd);

/* Written back on a second SIGINT.  Both must stay valid; up to 4. */
void signals_restore_at_exit(const char *path, const char *value);

void signals_stop_set(sigset_t *set);

/* Hold the stop signals once the other threads are gone: a second SIGINT
 * inside exit() would hang the coverage build on its dump lock. */
void signals_block_stop(void);

/* NULL but for SIGINT and SIGTERM. */
const char *signals_name(int signo);

/* The first stop signal received, or 0. */
int signals_received(void);

#endif
