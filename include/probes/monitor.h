/* monitor.h - the monitor: desktop-latency probes timed while the writer
 * streams, stalls caught as they happen, and where they wait.
 *
 * Threads: one probe thread per probe kind, each on its own schedule
 * (--probe-interval, absolute deadlines), and one watcher thread that looks
 * at operations in flight every WATCH_NS and, once one has passed --stall,
 * samples where its thread waits in the kernel (/proc/self/task/TID/wchan,
 * or the first telling frame of .../stack).  The threads publish through
 * each probe's ws_probe_door (snapshot.h); everything else in struct
 * monitor belongs to the probe thread that owns it and is read by others
 * only after monitor_stop() has joined it.
 *
 * Memory is bounded: one monitor_probe a probe, fixed-size histograms,
 * stall records kept up to WS_MAX_STALLS (then only counted), wait sites
 * up to WS_MAX_SITES names per probe (then "other").
 */
#ifndef WS_MONITOR_H
#define WS_MONITOR_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "system/clock.h"
#include "config/config.h"
#include "lib/hist.h"
#include "probes/probe.h"
#include "record/record.h"
#include "engine/snapshot.h"

/* One probe: its operation, its door and its own results. */
struct monitor_probe {
	struct probe probe;
	char name[16];		/* "fsync", or "fsync@2" on the filesystem of
				   target 2 when there are several; a
				   --probe-cmd's own name */
	struct ws_snapshot *snap;	/* the writer on its filesystem */
	bool own_time;		/* a command's: its time is its own */
	/* --pace adaptive: whether it steers (--steer-by; by default every
	 * probe but a command), the writers it steers (those on its
	 * filesystem, every one for --probe-dir or a command) and its
	 * median on the idle disk (monitor_idle_ns) */
	bool steers;
	struct ws_snapshot *steer[WS_MAX_TARGETS];
	unsigned int nsteer;
	uint64_t idle_ns;
	struct ws_probe_door door;
	struct monitor *mon;
	pthread_t thread;
	atomic_int tid;		/* kernel thread id, for /proc/.../wchan */

	/* owned by the probe thread */
	struct hist raw;		/* what was measured */
	struct hist corrected;		/* plus what coordinated omission hid */
	uint64_t errors;
	int last_error;			/* -errno of the latest failure */
	char last_fail[96];		/* and what the probe said of it */
	char last_stderr[WS_STDERR_LINE];	/* a command's own words */
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	struct ws_stall stalls[WS_MAX_STALLS];
	unsigned int nrecorded;		/* stalls[] used; nstalls may be more */
	uint64_t sched_misses;		/* slots skipped because the last ran long */
	uint64_t cpu_ns;		/* the thread's CPU time, once it ended */

	/* owned by the watcher, under door.lock: this stall's sampled sites */
	struct ws_site_count sites[WS_MAX_SITES];
	unsigned int nsites;
	struct ws_site_count current[4];	/* the stall in progress */
	unsigned int ncurrent;
	uint64_t current_since;			/* which operation current[] is for */
};

/* Where a set of probes runs: in a target's directory (or --probe-dir),
 * beside its writer. */
struct monitor_site {
	const struct ws_config *cfg;	/* the target's (its path) */
	struct ws_snapshot *snap;	/* its writer's progress, read-only */
	/* the writers its probes steer under --pace adaptive */
	struct ws_snapshot *steer[WS_MAX_TARGETS];
	unsigned int nsteer;
	unsigned int number;		/* its target's number; 0: the only
					   site, probe names carry none */
};

struct monitor {
	const struct ws_config *cfg;
	const char *proc_root;		/* "" live; tests may redirect */
	/* what probe latencies and schedules are measured with:
	 * ws_real_clock, or a test's (set before monitor_start) */
	const struct ws_clock *clock;
	struct monitor_probe *probes;	/* nprobes, made by monitor_init */
	unsigned int nprobes;
	atomic_bool stop;
	pthread_mutex_t lock;		/* with wake: monitor_stop wakes sleepers */
	pthread_cond_t wake;
	bool wake_ready;
	pthread_t watcher;
	bool started;

	/* what the header says about the measurement's own quality */
	bool memory_locked, realtime;
	char memory_why[128], realtime_why[128];
	atomic_int realtime_failures;	/* probe threads that could not */
	uint64_t watcher_cpu_ns;	/* the watcher's CPU time, once it ended */
};

/* Set up the probes cfg->set.probes asks for (files, buffers) at each of
 * nsites sites: once per filesystem the targets are on.  0, -E2BIG when
 * that makes more than WS_MAX_PROBES, or -errno with the message in err
 * and what to try in *hint (may be NULL).  Main thread. */
WS_MUST_CHECK int monitor_init(struct monitor *m, const struct ws_config *cfg,
		 const struct monitor_site *sites, unsigned int nsites,
		 char *err, size_t errlen, const char **hint);
/* Before monitor_start, on the caller's thread: each steering probe run
 * n times back to back (at most MONITOR_IDLE_MAX) on the still idle disk,
 * its median kept in idle_ns; returns the slowest one's and sets *name to
 * it (0: no probe steers). */
#define MONITOR_IDLE_MAX 16
uint64_t monitor_idle_ns(struct monitor *m, unsigned int n, const char **name);
/* Before the writers start: tell each steering probe's writers its slot,
 * idle time and synchronous calls (snapshot.h's steer_setup). */
void monitor_setup_steering(struct monitor *m);
/* Before monitor_start: real-time priority where allowed. */
void monitor_harden(struct monitor *m);
/* After monitor_start, once the probe threads and every buffer exist:
 * mlockall(MCL_CURRENT), so a probe never waits on a page fault.  The
 * header says whether it worked and why not. */
void monitor_lock_memory(struct monitor *m);
/* Start the probe threads and the watcher.  0 or -errno. */
WS_MUST_CHECK int monitor_start(struct monitor *m);
/* Ask the threads to end and join them (a probe stuck in the kernel is
 * waited for: its latency is the point). */
void monitor_stop(struct monitor *m);
/* Remove probe files, free.  Safe after a failed init. */
void monitor_cleanup(struct monitor *m);

/* Book one finished operation that started at t0 and took ns (ret: its
 * 0 or -errno), with the writer's progress and the backlog at its start.
 * A failed one (ret) is counted apart: in no latency, stall or steering.
 * The probe thread's own bookkeeping, exposed for tests. */
struct ws_meminfo;
void monitor_record(struct monitor_probe *mp, uint64_t t0, uint64_t ns,
		    int ret, uint64_t writer_bytes, const struct ws_meminfo *mi);

/* One probe's figures over the run, copied out of the monitor: the
 * recorder builds the record's probe summary from them. */
struct monitor_probe_figures {
	char name[16];
	struct hist raw, corrected;
	uint64_t errors;
	int last_error;
	char last_fail[96];
	char last_stderr[WS_STDERR_LINE];
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	struct ws_stall stalls[WS_MAX_STALLS];	/* the first nrecorded */
	unsigned int nrecorded;
	struct ws_site_count sites[WS_MAX_SITES];	/* in the order first seen */
	unsigned int nsites;
	uint64_t sched_misses, cpu_ns;
};

/* Copy mp's figures into *f (about 130 KiB: the caller's, not on a
 * thread's stack).  Once the monitor has stopped. */
void monitor_copy_figures(const struct monitor_probe *mp,
			  struct monitor_probe_figures *f);

/* Wait-site parsing, pure, for tests: the wait site in a wchan file's
 * text or, failing that, the first frame of a stack file's text that is
 * not generic scheduling.  Returns false if neither names one. */
bool monitor_parse_site(const char *wchan, const char *stack, char *out,
			size_t len);

#endif
