/* probe_kinds.h - the kinds' private state and the probes in files of
 * their own, for probe.c's table and their tests only. */
#ifndef WS_PROBE_KINDS_H
#define WS_PROBE_KINDS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/probe.h"

struct file_probe {
	uint64_t offset;	/* fsync: size; dsync: next write; read: block */
	uint64_t read_blocks;
	bool direct;
	uint64_t rng;
};

struct sqlite3;
struct sqlite3_stmt;
struct sqlite_probe {
	struct sqlite3 *db;
	struct sqlite3_stmt *stmt;
	uint64_t appended;	/* since the table was emptied */
};

struct cmd_probe {
	const struct ws_probe_cmd *cmd;
	int sock;		/* valid while launcher > 0 */
	pid_t launcher;
	char user[64];		/* "": not changed */
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
struct cmd_stderr {
	char tail[512];
	size_t len;
};
/* Keeps the last bytes.  0 at the end, 1 when fd may hold more. */
int probe_cmd_drain(int fd, struct cmd_stderr *t);
/* Control bytes shown as '?'; "" when none. */
void probe_cmd_last_line(const struct cmd_stderr *t, char *out, size_t len);

/* Without pidfd (before Linux 5.3).  CMD_LOST: waitpid failed, the
 * status unknown (never a success). */
enum cmd_wait { CMD_DONE, CMD_TIMED_OUT, CMD_STOPPED, CMD_LOST };
enum cmd_wait probe_cmd_wait_polling(pid_t pid, int timeout_ms, int sock,
				     int errfd, struct cmd_stderr *t, int *status);

#endif
