/* record/run.h - the run's facts, fixed before the first byte: what it was
 * asked, its plan, its target, its probes, what the privileged options did
 * (recorder_make_run() fills it). */
#ifndef WS_RECORD_RUN_H
#define WS_RECORD_RUN_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "record/kinds.h"
#include "record/phases.h"
#include "record/settings.h"

struct ws_fingerprint;		/* fingerprint_facts.h; shown by fingerprint_show.h */

struct ws_target_facts {
	const char *path;
	char fs_type[16];		/* "ext4", "tmpfs", "0x..." */
	bool in_memory;			/* tmpfs or ramfs: memory, not a disk */
	bool created;			/* a new file */
	bool forced;			/* not ours: taken with --force */
	bool truncated;			/* emptied first: --truncate */
	bool xattr_unsupported;		/* cannot be marked as ours */
	uint64_t size_at_open;		/* what is rewritten in place */
	uint64_t fs_size, fs_avail;	/* fs_avail counts its own blocks */
	const char *fs_holds;		/* "/", "/var", "/home" or NULL: the
					   system's, so a tenth is kept free */
};

/* The probes that run, and what the header says of the measurement's own
 * quality. */
struct ws_probe_facts {
	unsigned int n;
	const char *names[WS_MAX_PROBES];	/* in the order of the summaries */
	char dir[PATH_MAX];		/* where their files are (the first's) */
	const char *dirs[WS_MAX_PROBES];	/* each one's, with several
						   filesystems; else NULL */
	bool realtime, memory_locked;
	char realtime_why[128], memory_why[128];
	char cmd_user[64];		/* --probe-cmd runs as; "": the caller */
};

/* What the privileged options did. */
struct ws_priv_facts {
	bool caches_dropped;
	bool scheduler_set;
	char scheduler_old[32];		/* the first disk's, put back at exit */
};

/* How the writes were issued: one synchronous write at a time, or queued
 * (--iodepth); the job fixes these at setup. */
struct ws_queue_facts {
	unsigned int depth;	/* writes in flight; 1: synchronous */
	const char *engine;	/* "io_uring", or "sync" */
	bool registered;	/* io_uring with registered buffers */
	bool direct;		/* O_DIRECT: no page cache in between */
	/* progress marks count what write() accepted, not what reached
	 * the disk (--pace none waits for nothing) */
	bool marks_accepted;
	/* --iodepth N > 1 asked for, the kernel refused io_uring: its
	 * errno (then depth is 1 and engine "sync"); 0 otherwise */
	int refused_err;
};

struct ws_run {
	struct ws_settings set;		/* what the run was asked to do */
	struct ws_plan plan;
	struct ws_target_facts target;
	const struct ws_fingerprint *fp;	/* kernel, filesystem, devices */
	struct ws_probe_facts probes;
	struct ws_priv_facts priv;
	struct ws_analysis_params params;	/* how the run is judged */
	const char *criterion_key;	/* "snia", "bw-slope", "bw-dev" */
	char criterion_words[96];	/* "SNIA: range ≤ 20%, slope ..." */
	const char *pace_name;		/* "window" */
	char pace[64];			/* "window(1) + fadvise" */
	const char *data;		/* "random", "compressible" */
	struct ws_queue_facts queue;
	/* the writer's timers this run can book time in: plain lines leave
	 * out the others (CSV and JSON keep every column) */
	bool timer_used[WS_T_NR];
	/* --pace none: marks count what write() took, not what reached
	 * the disk (the summary says so where it matters) */
	bool marks_accepted;
	/* uname(2) (hostname: its nodename), and when the run started (UTC),
	 * for result files */
	char sysname[65], release[65], version[65], machine[65], hostname[65];
	int64_t started_at;
	int argc;
	char **argv;			/* the command line, for result files */
	/* several targets: each one's own facts (path, target, plan,
	 * fingerprint; number = its place, 1-based), ntargets of them; 0 and
	 * NULL with one target */
	unsigned int ntargets;
	const struct ws_run *targets;
	unsigned int number;		/* in targets[]: 1, 2, ...; else 0 */
	/* in targets[]: the number of an earlier target on the same block
	 * device (they compete for it: flagged), or 0 */
	unsigned int same_device_as;
};

#endif
