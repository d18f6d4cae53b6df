/* snapshot.h - the one door between threads.
 *
 * The writer publishes its progress here and nowhere else; the recorder
 * samples it and the monitor reads its byte count, without ever blocking
 * the writer; each probe thread hands its interval figures to the
 * recorder through its own ws_probe_door.  Counters are C11 atomics,
 * monotonic: the writer's progress written by the writer thread only, the
 * probes' latencies for adaptive pacing (snapshot_post_probe) by the
 * probe threads that steer it.  The end of the run is published once with release semantics
 * (snapshot_finish), after which the outcome fields are read-only; readers
 * that saw snapshot_finished() true may read them.
 *
 * The only process-wide flag is ws_stop (signals.h), which asks the writer
 * to end early.
 */
#ifndef WS_SNAPSHOT_H
#define WS_SNAPSHOT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/c.h"
#include "lib/hist.h"
#include "engine/adapt.h"

/* A progress mark: by t_ns after the start, `bytes` were known to be on
 * the disk (window and fdatasync pacing: waited for; direct and
 * dontcache: written; none: accepted by write(), which is all it knows).
 * Marks fall on buffer ends, so
 * rates between marks are free of the quantisation that cutting buffers
 * at interval ends gives (a few 8 MiB buffers a second make per-interval
 * rates jump by a buffer's worth); the analysis of phases works on them. */
struct ws_mark {
	uint64_t t_ns;
	uint64_t bytes;
	uint64_t pending;	/* written by then, not yet known on disk:
				   what the final wait will credit late */
};

/* one slot per monitor probe (WS_MAX_PROBES, settings.h) */
#define WS_SNAPSHOT_PROBES ADAPT_PROBES
#define WS_MARK_RING 8192		/* a power of two */
#define WS_MARK_SPACING_NS 10000000	/* at most 100 marks a second */

struct ws_verify;	/* record.h */

/* How a run ended.  Filled by the writer before snapshot_finish(). */
struct ws_outcome {
	enum ws_stop_reason reason;
	int err;		/* positive errno for WS_STOP_ERROR */
	const char *err_op;	/* "write", "sync_file_range", ... */
	uint64_t err_offset;	/* file offset the failing call touched */
	char err_detail[160];	/* extra words, e.g. what --pace needs */
	uint64_t end_ns;	/* after the last byte reached the disk */
	uint64_t writer_cpu_ns;	/* the writer thread's CPU time to end_ns */
	unsigned int queue_peak;	/* --iodepth: most writes in flight */
	uint64_t verify_cpu_ns;	/* --verify: the writer's CPU reading back */
	/* --verify: the writer's read-back after end_ns, or NULL */
	const struct ws_verify *verify;
};

struct ws_snapshot {
	_Atomic uint64_t start_ns;	/* 0 until the first write */
	_Atomic uint64_t bytes;		/* accepted by write() */
	_Atomic uint64_t buffers;	/* complete buffers written */
	_Atomic uint64_t offset;	/* file offset of the next write */
	_Atomic uint64_t wraps;		/* times the file wrapped to 0 */
	_Atomic uint64_t time_ns[WS_T_NR];

	/* progress marks: single producer (writer), single consumer
	 * (recorder); a full ring drops marks, which loses no bytes (marks
	 * are cumulative), only resolution.  WS_MARK_RING of them, allocated
	 * by snapshot_init and never moved while the threads run (the reader
	 * indexes it as the writer fills it) */
	struct ws_mark *marks;
	_Atomic uint64_t mark_head, mark_tail;
	uint64_t last_mark_ns;		/* writer's own */
	uint64_t mark_spacing_ns;	/* set before the run; 0: the minimum */

	/* --pace adaptive: what each steering probe on the writer's
	 * filesystem saw since the writer last took it, by the probe's
	 * slot in the monitor (probes post, the writer takes: the
	 * controller's truth); the slots' setup is written before the
	 * writer starts (monitor_setup_steering) and only read after */
	struct ws_steer_setup {
		bool steers;
		uint64_t idle_ns;	/* its median on the idle disk */
		unsigned int syncs;	/* synchronous calls an operation */
	} steer_setup[WS_SNAPSHOT_PROBES];
	pthread_mutex_t steer_lock;
	struct adapt_obs steer_obs[WS_SNAPSHOT_PROBES];
	atomic_bool steer_posted;	/* news since the last take */
	/* and the controller's state for the recorder (CLOCK_MONOTONIC
	 * times, 0: not (yet); unreachable_ns: when the target was first
	 * found unreachable; waits_milli: each slot's waits x 1000) */
	struct ws_adapt_state {
		_Atomic uint64_t chunk, window, inflight, sojourn_ns,
				 setpoint_ns, settled_ns;
		_Atomic uint64_t why, unreachable, floor_ns, unreachable_ns;
		atomic_int floor_probe, steering;
		_Atomic uint64_t waits_milli[WS_SNAPSHOT_PROBES];
		_Atomic uint64_t disk_bps, cap_bps;	/* --headroom */
	} adapt;
	/* the recorder's verdict asks the writer to end: 0, or
	 * WS_STOP_STEADY / WS_STOP_NOT_STEADY */
	atomic_int verdict;
	atomic_bool finished;
	struct ws_outcome outcome;	/* valid once finished */
	atomic_bool closed;		/* every producer has ended */

	pthread_mutex_t lock;		/* only for the wake-up below */
	pthread_cond_t changed;		/* finish() wakes sleepers */
};

/* 0, or -ENOMEM (no room for the marks) or a pthread call's -errno. */
WS_MUST_CHECK int snapshot_init(struct ws_snapshot *s);
/* Once no thread uses it any more (every snapshot_init'ed one). */
void snapshot_destroy(struct ws_snapshot *s);

/* Writer side. */
void snapshot_start(struct ws_snapshot *s, uint64_t now_ns);
void snapshot_add_time(struct ws_snapshot *s, enum ws_timer t, uint64_t ns);
void snapshot_add_bytes(struct ws_snapshot *s, uint64_t n, uint64_t next_off);
void snapshot_finish(struct ws_snapshot *s, const struct ws_outcome *o);
/* A buffer is done: publish a mark unless the last is under
 * mark_spacing_ns (at least WS_MARK_SPACING_NS) old.  t_ns since the
 * start; bytes known on disk, pending written beyond them. */
void snapshot_mark(struct ws_snapshot *s, uint64_t t_ns, uint64_t bytes,
		   uint64_t pending);

/* Probe side: the steering probe in `slot` took ns. */
void snapshot_post_probe(struct ws_snapshot *s, unsigned int slot, uint64_t ns);
/* Writer side: what each slot's probes saw since the last call (a slot
 * without news has n 0); false: nothing at all. */
bool snapshot_take_probes(struct ws_snapshot *s,
			  struct adapt_obs out[WS_SNAPSHOT_PROBES]);

/* Reader side. */
struct ws_sample {
	uint64_t start_ns, bytes, buffers, offset, wraps;
	uint64_t time_ns[WS_T_NR];
};
void snapshot_read(struct ws_snapshot *s, struct ws_sample *out);
bool snapshot_finished(struct ws_snapshot *s);
/* Move up to max published marks into out; returns how many. */
size_t snapshot_take_marks(struct ws_snapshot *s, struct ws_mark *out,
			   size_t max);
/* Sleep until the absolute CLOCK_MONOTONIC deadline or until the
 * snapshot is closed, whichever is first.  Returns snapshot_closed(). */
bool snapshot_wait(struct ws_snapshot *s, uint64_t deadline_ns);
/* The same, but also wakes when the writer has finished.  Returns
 * snapshot_finished(). */
bool snapshot_wait_writer(struct ws_snapshot *s, uint64_t deadline_ns);
/* Ask the writer to end for a verdict (WS_STOP_STEADY or
 * WS_STOP_NOT_STEADY); the first one asked stands. */
void snapshot_request_stop(struct ws_snapshot *s, enum ws_stop_reason why);
/* Whether a verdict was asked for already. */
bool snapshot_stop_requested(struct ws_snapshot *s);
/* Before the run: marks at most this often (0: WS_MARK_SPACING_NS). */
void snapshot_set_mark_spacing(struct ws_snapshot *s, uint64_t ns);
/* When the first write started (CLOCK_MONOTONIC), 0 before it. */
uint64_t snapshot_start_ns(struct ws_snapshot *s);
/* How the writer ended: valid once snapshot_finished(). */
const struct ws_outcome *snapshot_outcome(const struct ws_snapshot *s);
/* --pace adaptive: when its controller settled (CLOCK_MONOTONIC, 0 not
 * yet), and where it stands, its times on the clock of origin_ns (the
 * run's start). */
uint64_t snapshot_settled_ns(struct ws_snapshot *s);
void snapshot_adapt_figures(struct ws_snapshot *s, uint64_t origin_ns,
			    struct ws_adapt_figures *out);

/* One probe's door.  The probe thread publishes every latency into the
 * interval histogram under the mutex; the recorder swaps it out once per
 * interval (the one mutex-guarded swap).  inflight_since is lock-free so
 * a stuck probe is visible while it is stuck: 0 when idle, else the
 * CLOCK_MONOTONIC start of the operation in progress.  site is the wait
 * site the watcher saw most during the current stall ("" if none). */

struct ws_probe_door {
	_Atomic uint64_t inflight_since;
	pthread_mutex_t lock;
	struct hist interval;		/* guarded by lock */
	uint64_t interval_stalls;	/* guarded by lock */
	uint64_t interval_errors;	/* guarded by lock */
	char site[WS_SITE_LEN];		/* guarded by lock */
};

int probe_door_init(struct ws_probe_door *d);
void probe_door_destroy(struct ws_probe_door *d);
/* Probe side: an operation starts / ended with `ns` (a failed one,
 * error, is counted but its time is not a latency). */
void probe_door_begin(struct ws_probe_door *d, uint64_t now_ns);
void probe_door_end(struct ws_probe_door *d, uint64_t ns, bool stall,
		    bool error);
/* ... or did not count (cut short by the stop): nothing recorded. */
void probe_door_cancel(struct ws_probe_door *d);
/* Watcher side: name the current stall's wait site. */
void probe_door_set_site(struct ws_probe_door *d, const char *site);

/* Recorder side: move the interval's figures into *out (the door's
 * histogram starts empty again) and copy the current site. */
struct ws_probe_take {
	struct hist hist;
	uint64_t stalls, errors;
	uint64_t inflight_since;
	char site[WS_SITE_LEN];
};
void probe_door_take(struct ws_probe_door *d, struct ws_probe_take *out);

/* After the writer and the monitor have ended: wake the recorder for the
 * summary.  Only the main thread calls it. */
void snapshot_close(struct ws_snapshot *s);
bool snapshot_closed(struct ws_snapshot *s);

#endif
