/* record/run.h - the run's facts, fixed before the first byte by
 * recorder_make_run(). */
#ifndef WS_RECORD_RUN_H
#define WS_RECORD_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "record/kinds.h"
#include "record/phases.h"
#include "record/settings.h"

struct ws_fingerprint;		/* fingerprint_facts.h */

struct ws_target_facts {
	const char *path;
	char fs_type[16];		/* "ext4", "tmpfs", "0x..." */
	bool in_memory;			/* tmpfs or ramfs */
	bool created;
	bool forced;			/* not ours: --force */
	bool truncated;
	bool xattr_unsupported;
	uint64_t size_at_open;
	uint64_t fs_size, fs_avail;	/* fs_avail counts its own blocks */
	const char *fs_holds;		/* "/", "/var", "/home" or NULL */
};

/* Why the probes went without real time or locked memory. */
enum ws_denial {
	WS_DENIED_NONE,
	WS_DENIED_RLIMIT,	/* no capability; limit: the rlimit's value */
	WS_DENIED_ERRNO,	/* err: the call's errno */
	WS_DENIED_KERNEL,	/* the kernel refused SCHED_FIFO */
};

struct ws_denial_why {
	enum ws_denial kind;
	uint64_t limit;
	int err;
};

/* In words, for real time (RLIMIT_RTPRIO) and for memory (RLIMIT_MEMLOCK,
 * mlockall).  Return buf. */
const char *ws_realtime_words(const struct ws_denial_why *w, char *buf, size_t len);
const char *ws_memory_words(const struct ws_denial_why *w, char *buf, size_t len);

struct ws_probe_facts {
	unsigned int n;
	char names[WS_MAX_PROBES][16];
	char dir[PATH_MAX];		/* the first one's files */
	char dirs[WS_MAX_PROBES][PATH_MAX];	/* "": all on one filesystem */
	bool realtime, memory_locked;
	struct ws_denial_why realtime_why, memory_why;
	char cmd_user[64];		/* "": the caller */
};

struct ws_priv_facts {
	bool caches_dropped;
	bool scheduler_set;
	char scheduler_old[32];		/* put back at exit */
};

/* Fixed by the job at setup. */
struct ws_queue_facts {
	unsigned int depth;	/* 1: synchronous */
	const char *engine;	/* "io_uring", "sync" */
	bool registered;	/* buffers */
	bool direct;
	/* marks count what write() took, not what reached the disk */
	bool marks_accepted;
	int refused_err;	/* io_uring refused: errno, depth 1; else 0 */
};

struct ws_run {
	struct ws_settings set;
	struct ws_plan plan;
	struct ws_target_facts target;
	const struct ws_fingerprint *fp;
	struct ws_probe_facts probes;
	struct ws_priv_facts priv;
	struct ws_analysis_params params;
	const char *criterion_key;
	const char *pace_name;
	const char *data;
	struct ws_queue_facts queue;
	bool timer_used[WS_T_NR];	/* plain lines show only these */
	bool marks_accepted;		/* the queue's */
	/* uname(2), hostname its nodename */
	char sysname[65], release[65], version[65], machine[65], hostname[65];
	int64_t started_at;		/* UTC */
	int argc;
	char **argv;
	/* several targets: each one's facts; 0 and NULL with one */
	unsigned int ntargets;
	const struct ws_run *targets;
	unsigned int number;		/* in targets[]: 1-based; else 0 */
	/* in targets[]: an earlier target on the same device, or 0 */
	unsigned int same_device_as;
};

/* How the run paces, in a few words: "window(1) + fadvise", "adaptive to
 * 100 ms", with the queue's engine and depth when it has one.  Returns buf. */
const char *ws_pace_label(const struct ws_run *run, char *buf, size_t len);

#endif
