/* record/culprit.h - the processes whose writes reached the watched disk
 * (pid, command, cgroup, bytes): the run's table and each stall's top
 * writers, filled by the tracer (src/trace/culprits.h); culprit.c words
 * them for every output.  The writestress process itself is never one.
 */
#ifndef WS_RECORD_CULPRIT_H
#define WS_RECORD_CULPRIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_COMM_LEN 16
#define WS_CGROUP_LEN 96
#define WS_CULPRITS_KEPT 16	/* the run's rows; the rest in "others" */
#define WS_STALL_CULPRITS 2	/* a stall's top writers (its record's room) */

/* Less than this reached the disk from other processes during a stall:
 * "no writer" was behind it. */
#define WS_CULPRIT_NO_WRITER_BYTES (1024 * 1024)

struct ws_culprit {
	int32_t pid;		/* the process (thread group); 0: none known */
	bool kernel;		/* a kernel thread's own writes (a journal's) */
	char comm[WS_COMM_LEN];
	char cgroup[WS_CGROUP_LEN];	/* "" unknown */
	/* bytes that reached the disk for it: its own requests, and the
	 * kernel workers' writeback of pages it dirtied (by inode) */
	uint64_t written;
	uint64_t dirtied;	/* page-cache folios it dirtied on the disk */
	uint32_t stalls;	/* the stalls it was the first culprit of */
};

struct ws_culprits {
	bool traced;
	unsigned int n;		/* most written first */
	struct ws_culprit row[WS_CULPRITS_KEPT];
	/* processes past the table, their sum */
	uint32_t others;
	uint64_t others_written, others_dirtied;
	/* pages whose dirtier is unknown (dirtied before the trace began,
	 * or by one the tracer forgot), written back in it */
	uint64_t before_trace;
	/* written: every process's but ours, the table's and others' */
	uint64_t total_written;
};

/* One stall's: who wrote to the disk while it waited.  Names come from
 * the run's table (a pid past it is named by its pid alone). */
struct ws_stall_culprits {
	struct ws_stall_culprit {
		int32_t pid;	/* 0: an unknown writer */
		uint32_t dirtied;
		uint64_t written;
	} top[WS_STALL_CULPRITS];
	uint64_t total_written;	/* every other process's */
	bool traced;
	uint8_t n;
};

/* An interval's top writers, named. */
struct ws_writers_now {
	bool traced;
	unsigned int n;
	struct {
		int32_t pid;
		char comm[WS_COMM_LEN];
		uint64_t written;
	} top[WS_STALL_CULPRITS];
	uint64_t total_written;
};

/* Other processes' bytes since the start by command, most first (the
 * table's commands; the rest, and pages dirtied before the trace, in
 * others): what an interval carries for Prometheus. */
#define WS_COMMANDS_KEPT 8
struct ws_command_bytes {
	bool traced;
	unsigned int n;
	struct {
		char comm[WS_COMM_LEN];
		uint64_t written;
	} cmd[WS_COMMANDS_KEPT];
	uint64_t others;
};
void ws_culprits_by_command(const struct ws_culprits *run, struct ws_command_bytes *out);

/* Under WS_CULPRIT_NO_WRITER_BYTES from others: nobody's writes stood
 * in the way. */
bool ws_stall_no_writer(const struct ws_stall_culprits *c);

/* "812 MiB written by rsync (pid 4242, user.slice) and 40 MiB by firefox
 * (pid 1881)", or with say_none "no writer: 120 KiB from other
 * processes" (else ""); the cgroup is looked up in run (may be NULL).
 * Returns buf. */
char *ws_stall_culprit_words(const struct ws_stall_culprits *c,
			     const struct ws_culprits *run, bool say_none,
			     char *buf, size_t len);

/* "rsync (pid 4242, user.slice)": a culprit's name.  Returns buf. */
char *ws_culprit_name(const struct ws_culprit *c, char *buf, size_t len);

/* The last part of a cgroup path ("user.slice/.../x.scope" gives
 * "x.scope"); "" stays "". */
const char *ws_cgroup_leaf(const char *path);

/* What other processes wrote to the disk: the rows but kernel threads'
 * (a journal writes for everyone), and others'. */
uint64_t ws_culprits_others_written(const struct ws_culprits *run);

/* A run disturbed by others: they wrote at least
 * WS_CULPRIT_NO_WRITER_BYTES, and at least WS_CULPRIT_DISTURBED_PCT % of
 * what the run's writer wrote. */
#define WS_CULPRIT_DISTURBED_PCT 1
bool ws_culprits_disturbed(const struct ws_culprits *run, uint64_t writer_bytes);

/* The run's row of pid, or NULL. */
const struct ws_culprit *ws_culprit_of(const struct ws_culprits *run, int32_t pid);

#endif
