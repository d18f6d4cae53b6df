/* probe_kinds.h - the probes that live in files of their own, for
 * probe.c's table and their unit tests (probe.h is the interface; this is
 * not for others). */
#ifndef WS_PROBE_KINDS_H
#define WS_PROBE_KINDS_H

#include <sys/types.h>

#include "probes/probe.h"

/* probe_sqlite.c */
int probe_sqlite_setup(struct probe *p);
void probe_sqlite_prepare(struct probe *p);
int probe_sqlite_run(struct probe *p);
void probe_sqlite_cleanup(struct probe *p);

/* probe_cmd.c */
int probe_cmd_setup(struct probe *p);
int probe_cmd_run(struct probe *p);
void probe_cmd_cleanup(struct probe *p);
/* The launcher's wait for a command where the kernel has no pidfd (before
 * Linux 5.3): pid's end, at most timeout_ms, or a stop (a byte, or the
 * end, on sock).  CMD_LOST: waitpid failed, the status is unknown (never
 * a success). */
enum cmd_wait { CMD_DONE, CMD_TIMED_OUT, CMD_STOPPED, CMD_LOST };
enum cmd_wait probe_cmd_wait_polling(pid_t pid, int timeout_ms, int sock,
				     int *status);

#endif
