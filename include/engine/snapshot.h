/* snapshot.h - the one door between threads; nothing blocks the writer.
 * Who writes what:
 *  - the writer thread: the progress counters (monotonic atomics), the
 *    marks' head, adapt, the outcome (main's if the writer did not start);
 *  - probe threads: steer_obs and their door (the watcher thread its site);
 *  - the recorder thread: the marks' tail and verdict;
 *  - main: steer_setup and mark_spacing_ns before the threads start, and
 *    closed after they end.
 * The outcome is read-only once snapshot_finished() is seen true.
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

/* On disk by t_ns as far as the pace mode knows.  On buffer ends, so
 * rates between marks do not jump by a buffer as per-interval ones do. */
struct ws_mark {
	uint64_t t_ns;
	uint64_t bytes;
	uint64_t pending;	/* written, not yet known on disk */
};

#define WS_SNAPSHOT_PROBES ADAPT_PROBES
#define WS_MARK_RING 8192		/* a power of two */
#define WS_MARK_SPACING_NS 10000000

struct ws_verify;	/* record.h */

struct ws_outcome {
	enum ws_stop_reason reason;
	int err;		/* positive errno for WS_STOP_ERROR */
	const char *err_op;	/* "write", ... */
	uint64_t err_offset;
	enum ws_err_detail detail;
	uint64_t detail_bytes;
	uint64_t end_ns;	/* the last byte on disk */
	uint64_t writer_cpu_ns;
	unsigned int queue_peak;	/* --iodepth: most writes in flight */
	uint64_t verify_cpu_ns;
	const struct ws_verify *verify;	/* NULL: no --verify */
};

struct ws_snapshot {
	_Atomic uint64_t start_ns;	/* 0 until the first write */
	_Atomic uint64_t bytes;		/* accepted by write() */
	_Atomic uint64_t buffers;
	_Atomic uint64_t offset;	/* of the next write */
	_Atomic uint64_t wraps;
	_Atomic uint64_t time_ns[WS_T_NR];

	/* a ring; full, it drops marks: cumulative, they lose no bytes */
	struct ws_mark *marks;
	_Atomic uint64_t mark_head, mark_tail;
	uint64_t last_mark_ns;
	uint64_t mark_spacing_ns;	/* at least WS_MARK_SPACING_NS */

	/* --pace adaptive, by the probe's slot in the monitor */
	struct ws_steer_setup {
		bool steers;
		uint64_t idle_ns;	/* median on the idle disk */
		unsigned int syncs;	/* synchronous calls an operation */
	} steer_setup[WS_SNAPSHOT_PROBES];
	pthread_mutex_t steer_lock;
	struct adapt_obs steer_obs[WS_SNAPSHOT_PROBES];	/* under steer_lock */
	atomic_bool steer_posted;	/* spares the writer the lock */
	/* CLOCK_MONOTONIC times, 0: not (yet) */
	struct ws_adapt_state {
		_Atomic uint64_t chunk, window, inflight, sojourn_ns,
				 setpoint_ns, settled_ns;
		_Atomic uint64_t why, unreachable, floor_ns, unreachable_ns;
		atomic_int floor_probe, steering;
		_Atomic uint64_t waits_milli[WS_SNAPSHOT_PROBES];
		_Atomic uint64_t disk_bps, cap_bps;
		/* headroom's attempts, each worst_ns << 8 | met << 7 | pct:
		 * packed, as the recorder holds a snapshot per target */
		_Atomic uint64_t headroom_pct, nattempts, headroom_met_ns;
		_Atomic uint64_t attempt[WS_ADAPT_ATTEMPTS];
	} adapt;
	atomic_int verdict;	/* 0, WS_STOP_STEADY or WS_STOP_NOT_STEADY */
	atomic_bool finished;
	struct ws_outcome outcome;
	atomic_bool closed;

	pthread_mutex_t lock;		/* only for changed */
	pthread_cond_t changed;
};

/* 0 or -errno. */
WS_MUST_CHECK int snapshot_init(struct ws_snapshot *s);
void snapshot_destroy(struct ws_snapshot *s);

/* Writer side. */
void snapshot_start(struct ws_snapshot *s, uint64_t now_ns);
void snapshot_add_time(struct ws_snapshot *s, enum ws_timer t, uint64_t ns);
void snapshot_add_bytes(struct ws_snapshot *s, uint64_t n, uint64_t next_off);
void snapshot_finish(struct ws_snapshot *s, const struct ws_outcome *o);
/* A buffer is done: a mark, unless the last is under the spacing old. */
void snapshot_mark(struct ws_snapshot *s, uint64_t t_ns, uint64_t bytes,
		   uint64_t pending);
/* The last buffer is done, nothing pending: a mark whatever the spacing,
 * so the marks say where writing ended (the final flush after it is no
 * writing). */
void snapshot_mark_last(struct ws_snapshot *s, uint64_t t_ns, uint64_t bytes,
			uint64_t pending);

/* Probe side. */
void snapshot_post_probe(struct ws_snapshot *s, unsigned int slot, uint64_t ns);
/* Writer side: what each slot saw since the last call; false: nothing. */
bool snapshot_take_probes(struct ws_snapshot *s,
			  struct adapt_obs out[WS_SNAPSHOT_PROBES]);

/* Reader side. */
struct ws_sample {
	uint64_t start_ns, bytes, buffers, offset, wraps;
	uint64_t time_ns[WS_T_NR];
};
void snapshot_read(struct ws_snapshot *s, struct ws_sample *out);
bool snapshot_finished(struct ws_snapshot *s);
/* Returns how many marks were moved into out. */
size_t snapshot_take_marks(struct ws_snapshot *s, struct ws_mark *out,
			   size_t max);
/* Until the deadline or snapshot_closed(); returns the latter. */
bool snapshot_wait(struct ws_snapshot *s, uint64_t deadline_ns);
/* The same for snapshot_finished(). */
bool snapshot_wait_writer(struct ws_snapshot *s, uint64_t deadline_ns);
/* The first verdict asked for stands. */
void snapshot_request_stop(struct ws_snapshot *s, enum ws_stop_reason why);
bool snapshot_stop_requested(struct ws_snapshot *s);
/* Before the run; ns below WS_MARK_SPACING_NS count as it. */
void snapshot_set_mark_spacing(struct ws_snapshot *s, uint64_t ns);
/* CLOCK_MONOTONIC, 0 before the first write. */
uint64_t snapshot_start_ns(struct ws_snapshot *s);
/* Valid once snapshot_finished(). */
const struct ws_outcome *snapshot_outcome(const struct ws_snapshot *s);
/* --pace adaptive: when it settled (0: not yet); the figures' times are
 * since origin_ns. */
uint64_t snapshot_settled_ns(struct ws_snapshot *s);
void snapshot_adapt_figures(struct ws_snapshot *s, uint64_t origin_ns,
			    struct ws_adapt_figures *out);

/* Lock-free inflight_since shows a probe while it is stuck; 0: idle. */
struct ws_probe_door {
	_Atomic uint64_t inflight_since;
	pthread_mutex_t lock;		/* guards the rest */
	struct hist interval;
	uint64_t interval_stalls;
	uint64_t interval_errors;
	char site[WS_SITE_LEN];		/* the stall's wait site */
};

int probe_door_init(struct ws_probe_door *d);
void probe_door_destroy(struct ws_probe_door *d);
/* Probe side; a failed operation's time is no latency. */
void probe_door_begin(struct ws_probe_door *d, uint64_t now_ns);
void probe_door_end(struct ws_probe_door *d, uint64_t ns, bool stall,
		    bool error);
/* Cut short by the stop: nothing recorded. */
void probe_door_cancel(struct ws_probe_door *d);
/* Watcher side. */
void probe_door_set_site(struct ws_probe_door *d, const char *site);

/* Recorder side: empties the door's interval. */
struct ws_probe_take {
	struct hist hist;
	uint64_t stalls, errors;
	uint64_t inflight_since;
	char site[WS_SITE_LEN];
};
void probe_door_take(struct ws_probe_door *d, struct ws_probe_take *out);

/* Main, after the writers and the monitor: wakes the recorder. */
void snapshot_close(struct ws_snapshot *s);
bool snapshot_closed(struct ws_snapshot *s);

#endif
