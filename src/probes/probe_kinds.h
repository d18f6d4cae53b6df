/* probe_kinds.h - the probes that live in files of their own, for
 * probe.c's table and their unit tests (probe.h is the interface; this is
 * not for others). */
#ifndef WS_PROBE_KINDS_H
#define WS_PROBE_KINDS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/probe.h"

/* The file probes' own state (fsync, dsync, read; probe.c). */
struct file_probe {
	uint64_t offset;	/* fsync: the file's size; dsync: where the
				   next overwrite goes; read: the block chosen */
	uint64_t read_blocks;	/* read: 4 KiB blocks in the file */
	bool direct;		/* read: O_DIRECT took */
	uint64_t rng;		/* read: block choice */
};

/* The sqlite probe's: its connection and its insert (probe_sqlite.c). */
struct sqlite3;
struct sqlite3_stmt;
struct sqlite_probe {
	struct sqlite3 *db;
	struct sqlite3_stmt *stmt;
	uint64_t appended;	/* bytes inserted since the table was emptied */
};

/* The cmd probe's: its command, the launcher and its end of the socket,
 * the user the command runs as ("" when not changed) and its
 * environment (probe_cmd.c). */
struct cmd_probe {
	const struct ws_probe_cmd *cmd;
	int sock;		/* valid while launcher > 0 */
	pid_t launcher;
	char user[64];
	char env_home[PATH_MAX + 8], env_user[80], env_logname[80];
};

/* probe_sqlite.c */
int probe_sqlite_setup(struct probe *p);
void probe_sqlite_prepare(struct probe *p);
int probe_sqlite_run(struct probe *p);
void probe_sqlite_cleanup(struct probe *p);
unsigned int probe_sqlite_syncs(const struct probe *p);

/* probe_cmd.c */
int probe_cmd_setup(struct probe *p);
int probe_cmd_run(struct probe *p);
void probe_cmd_cleanup(struct probe *p);
/* The command's stderr as the launcher keeps it: its last bytes. */
struct cmd_stderr {
	char tail[512];
	size_t len;
};
/* Read what fd (non-blocking) holds into t, keeping the last bytes.
 * 0 at its end (every writer closed it), 1 when it may hold more. */
int probe_cmd_drain(int fd, struct cmd_stderr *t);
/* t's last line with text in it (trailing white space cut, control
 * bytes shown as '?'), cut to fit out: "" when there is none. */
void probe_cmd_last_line(const struct cmd_stderr *t, char *out, size_t len);

/* The launcher's wait for a command where the kernel has no pidfd (before
 * Linux 5.3): pid's end, at most timeout_ms, or a stop (a byte, or the
 * end, on sock).  CMD_LOST: waitpid failed, the status is unknown (never
 * a success). */
enum cmd_wait { CMD_DONE, CMD_TIMED_OUT, CMD_STOPPED, CMD_LOST };
enum cmd_wait probe_cmd_wait_polling(pid_t pid, int timeout_ms, int sock,
				     int errfd, struct cmd_stderr *t, int *status);

#endif
