/* record/block.h - the traced device's requests over an interval or the
 * run, counted at completion as /sys/block/.../stat counts them.
 */
#ifndef WS_RECORD_BLOCK_H
#define WS_RECORD_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "record/probe.h"

enum ws_blk_dir { WS_BLK_READ, WS_BLK_WRITE, WS_BLK_NR };

/* Times are summed. */
struct ws_block_dir {
	uint64_t requests;
	uint64_t bytes;
	uint64_t time_ns;	/* insert (or issue) to completion */
	uint64_t service_ns;	/* issue to completion */
	uint64_t max_service_ns;
	uint64_t empty;		/* flushes: timed, never issued */
	/* time_ns per issued request: getrq to issue, issue to done */
	struct ws_latency_totals queue, service;
	/* bios_on: bios queued, merged, split, and waits for a request */
	uint64_t bios, merged, splits;
	uint64_t request_waits, request_wait_ns, max_request_wait_ns;
};

/* The task at getrq; not seen: OTHER. */
enum ws_submitter {
	WS_SUB_OTHER,
	WS_SUB_WRITER,
	WS_SUB_PROBES,
	WS_SUB_JOURNAL,
	WS_SUB_FLUSHER,		/* kernel workers */
	WS_SUB_NR
};

const char *ws_submitter_name(enum ws_submitter s);
/* In the summary's words ("kernel workers"). */
const char *ws_submitter_words(enum ws_submitter s);

/* The kernel's enum wb_reason. */
#define WS_WB_REASONS 8
const char *ws_wb_reason_name(unsigned int r);

struct ws_block_sub {
	uint64_t requests, bytes;
	uint64_t service_ns;
	uint64_t flushes, flush_ns;
};

/* As the latest wbt_step set them: writes in flight; step > 0: cut. */
struct ws_wbt_limits {
	bool known;
	int32_t step;
	uint32_t bg, normal, max;
};

/* As the latest wbt_stat judged. */
struct ws_wbt_look {
	bool known;
	uint64_t read_min_ns, read_mean_ns, write_mean_ns;
};

struct ws_block_figures {
	bool on;		/* traced: the rest is meaningful */
	struct ws_block_dir dir[WS_BLK_NR];
	uint64_t flushes;
	uint64_t flush_ns, max_flush_ns;	/* issue seen */
	uint64_t fua;
	uint64_t lost;		/* events dropped: figures short */
	uint64_t unmatched;	/* completions, issue not seen */
	bool bios_on;
	/* wbt and wbt_look carry over spans */
	bool wbt_on;
	uint64_t wbt_changes;
	struct ws_wbt_limits wbt;
	struct ws_wbt_look wbt_look;
	struct ws_block_sub by[WS_SUB_NR];
	/* the run's: the device's own counters */
	bool have_counted;
	struct {
		uint64_t requests, bytes, time_ns;
		uint64_t merges;
	} counted[WS_BLK_NR];
	uint64_t counted_flushes, counted_flush_ns;
};

/* What the probes' and journal's I/O cost the writer (observer.h):
 * speedup is free_mibps over mibps, >= 1; bound: too little of the work
 * to say more than 1 / (1 - busy share). */
enum ws_obs_why {
	WS_OBS_JUDGED,
	WS_OBS_SHORT,
	WS_OBS_ALWAYS_BUSY,
	WS_OBS_NOTHING_FREE,
	WS_OBS_BEYOND_DEVICE,	/* busy_mibps over device_mibps */
};

struct ws_observer_cost {
	bool on;
	bool judged;
	enum ws_obs_why why_not;	/* !judged */
	double device_mibps;	/* the device's fastest interval, its counters */
	bool bound;
	double busy_pct;
	double seconds;
	double free_mibps, busy_mibps, mibps;
	double speedup;
	bool negligible;	/* under OBS_NEGLIGIBLE_X */
};

/* NULL when judged. */
const char *ws_obs_why_name(enum ws_obs_why w);
/* A rate while the work was in flight that the device never did (a
 * fastest interval of at least 0.5 s, /sys/block stat) is not judged: it
 * is the booking's, not the writer's. */
void ws_observer_within_device(struct ws_observer_cost *o, double device_mibps);

#endif
