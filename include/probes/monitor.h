/* monitor.h - probes timed while the writer streams, their stalls and
 * where they wait.  A thread per probe on absolute deadlines, and a
 * watcher sampling the wait site of an operation past --stall; they
 * publish through each probe's door (snapshot.h).  The rest of a
 * monitor_probe is its thread's until monitor_stop().
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

/* A probe's run: kept by its monitor_probe, copied out for the recorder
 * (name set then). */
struct monitor_probe_figures {
	char name[16];
	struct hist raw, corrected;
	uint64_t errors;
	int last_error;
	struct ws_probe_failure last_fail;
	char last_stderr[WS_STDERR_LINE];
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	struct ws_stall stalls[WS_MAX_STALLS];
	unsigned int nrecorded;
	struct ws_site_count sites[WS_MAX_SITES];	/* in the order first seen */
	unsigned int nsites;
	uint64_t sched_misses, cpu_ns;
};

struct monitor_probe {
	struct probe probe;
	char name[16];		/* "fsync@2": on target 2's filesystem */
	struct ws_snapshot *snap;
	bool own_time;		/* a command's */
	/* --pace adaptive: the writers it steers, its idle median */
	bool steers;
	struct ws_snapshot *steer[WS_MAX_TARGETS];
	unsigned int nsteer;
	uint64_t idle_ns;
	struct ws_probe_door door;
	struct monitor *mon;
	pthread_t thread;
	atomic_int tid;

	/* the probe thread's; its sites the watcher's, under door.lock */
	struct monitor_probe_figures fig;

	/* the watcher's, under door.lock */
	struct ws_site_count current[4];	/* the stall in progress */
	unsigned int ncurrent;
	uint64_t current_since;
};

struct monitor_site {
	const struct ws_config *cfg;
	struct ws_snapshot *snap;
	struct ws_snapshot *steer[WS_MAX_TARGETS];
	unsigned int nsteer;
	unsigned int number;		/* 0: the only site, names carry none */
};

struct monitor {
	const struct ws_config *cfg;
	const char *proc_root;		/* "" live; tests may redirect */
	const struct ws_clock *clock;
	struct monitor_probe *probes;
	unsigned int nprobes;
	atomic_bool stop;
	pthread_mutex_t lock;		/* with wake: monitor_stop wakes sleepers */
	pthread_cond_t wake;
	bool wake_ready;
	pthread_t watcher;
	bool started;

	bool memory_locked, realtime;
	struct ws_denial_why memory_why, realtime_why;
	atomic_int realtime_failures;
	uint64_t watcher_cpu_ns;
};

/* The probes cfg asks for at each site (one a filesystem).  0, -E2BIG
 * past WS_MAX_PROBES, or -errno with err and *hint (may be NULL) said. */
WS_MUST_CHECK int monitor_init(struct monitor *m, const struct ws_config *cfg,
		 const struct monitor_site *sites, unsigned int nsites,
		 char *err, size_t errlen, const char **hint);
/* Before monitor_start, on the idle disk: each steering probe's median
 * of n runs; the slowest, named in *name. */
#define MONITOR_IDLE_MAX 16
uint64_t monitor_idle_ns(struct monitor *m, unsigned int n, const char **name);
void monitor_setup_steering(struct monitor *m);
void monitor_harden(struct monitor *m);
/* After monitor_start: mlockall, so a probe never waits on a fault. */
void monitor_lock_memory(struct monitor *m);
WS_MUST_CHECK int monitor_start(struct monitor *m);
/* Joins a probe stuck in the kernel too: its latency is the point. */
void monitor_stop(struct monitor *m);
/* Safe after a failed init. */
void monitor_cleanup(struct monitor *m);

/* One operation (ret 0 or -errno: a failure is in no latency, stall or
 * steering); exposed for tests. */
struct ws_meminfo;
void monitor_record(struct monitor_probe *mp, uint64_t t0, uint64_t ns,
		    int ret, uint64_t writer_bytes, const struct ws_meminfo *mi);


/* After monitor_stop.  f is 130 KiB: not for a thread's stack. */
void monitor_copy_figures(const struct monitor_probe *mp,
			  struct monitor_probe_figures *f);

/* wchan's, else the first frame of stack that is not scheduling. */
bool monitor_parse_site(const char *wchan, const char *stack, char *out,
			size_t len);

#endif
