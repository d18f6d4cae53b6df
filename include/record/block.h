/* record/block.h - the traced device's block requests over an interval or the
 * run (trace.h reads them), who submitted them, writeback throttling's
 * limits, and what the probes' work at the device cost the writer. */
#ifndef WS_RECORD_BLOCK_H
#define WS_RECORD_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "record/probe.h"

/* The block requests of the target's device, as the kernel's tracepoints
 * saw them (trace.h; off without root or tracefs): over an interval, or
 * the whole run.  Requests are counted at completion, as the device's
 * own counters (/sys/block/.../stat) count them. */
enum ws_blk_dir { WS_BLK_READ, WS_BLK_WRITE, WS_BLK_NR };

struct ws_block_dir {
	uint64_t requests;	/* completed */
	uint64_t bytes;
	uint64_t time_ns;	/* summed, from insert (or issue, when the
				   request skipped the scheduler) to
				   completion: what the stat file's ticks add */
	uint64_t service_ns;	/* summed, issue to completion: the device's */
	uint64_t max_service_ns;
	uint64_t empty;		/* of the requests, those with no data (an
				   fsync's empty flush request): counted, as
				   the device counts them, and timed, but
				   never issued themselves: no service */
	/* the issued requests' time in the queue (getrq, or insert in
	 * older recordings, to issue; 0 when neither was seen) and at the
	 * device (issue to completion), in the fixed buckets: the split of
	 * time_ns, request by request */
	struct ws_latency_totals queue, service;
	/* the bios behind the requests (when bios_on): queued to the disk
	 * (after any cgroup limit held them), merged into a request rather
	 * than given their own (the device's merges also count a request
	 * merged into another: merged has those too), split at the disk's
	 * limits; and the time a bio waited between being queued and
	 * getting its request (writeback throttling, a full queue), summed
	 * over those whose wait was seen (request_waits; not a fsync's
	 * empty flush request's) */
	uint64_t bios, merged, splits;
	uint64_t request_waits, request_wait_ns, max_request_wait_ns;
};

/* Who submitted the requests (the task at getrq): anyone else first, so
 * a request whose getrq was not seen counts there. */
enum ws_submitter {
	WS_SUB_OTHER,
	WS_SUB_WRITER,		/* writestress's writer threads */
	WS_SUB_PROBES,		/* its probe threads */
	WS_SUB_JOURNAL,		/* the filesystem's journal (jbd2) */
	WS_SUB_FLUSHER,		/* the kernel's workers: writeback, mostly */
	WS_SUB_NR
};

/* Its name in outputs ("writer"). */
const char *ws_submitter_name(enum ws_submitter s);

/* Why the kernel's flusher ran a writeback work: the kernel's enum
 * wb_reason, by number (background 0, vmscan, sync, periodic,
 * laptop_timer, fs_free_space, forker_thread, foreign_flush 7). */
#define WS_WB_REASONS 8
const char *ws_wb_reason_name(unsigned int r);

struct ws_block_sub {
	uint64_t requests, bytes;
	uint64_t service_ns;	/* issue to completion, summed */
	uint64_t flushes, flush_ns;	/* the cache flushes it asked for
					   (timed ones), and their time */
};

/* Writeback throttling's limits as its latest change (wbt_step) set them
 * (known: once one was seen): step (above 0 cut down, below raised), the
 * writes it lets in flight at once for background writeback, for others,
 * and for writes someone waits for. */
struct ws_wbt_limits {
	bool known;
	int32_t step;
	uint32_t bg, normal, max;
};

/* ... and the latencies it last judged by (wbt_stat, when it scaled;
 * known once one was seen), in ns: reads' least and mean, writes' mean. */
struct ws_wbt_look {
	bool known;
	uint64_t read_min_ns, read_mean_ns, write_mean_ns;
};

struct ws_block_figures {
	bool on;		/* traced: the rest is meaningful */
	struct ws_block_dir dir[WS_BLK_NR];
	uint64_t flushes;	/* cache flushes completed */
	uint64_t flush_ns, max_flush_ns;	/* their time, issue to
					   completion, of those whose issue
					   was seen: summed, the longest */
	uint64_t fua;		/* writes with FUA */
	uint64_t lost;		/* events the kernel dropped: its ring was
				   full (the figures are then short) */
	uint64_t unmatched;	/* completions whose issue was not seen */
	bool bios_on;		/* the bios' events traced (ws_block_dir) */
	/* writeback throttling (wbt) on the disk, where it is on and its
	 * wbt_step events are traced: how often it changed its limits in the
	 * span, where they stood at its end and its last look at the
	 * latencies it steers by (each a state: carried from span to span) */
	bool wbt_on;
	uint64_t wbt_changes;
	struct ws_wbt_limits wbt;
	struct ws_wbt_look wbt_look;
	struct ws_block_sub by[WS_SUB_NR];	/* the requests (both
						   directions) by submitter */
	/* the device's own counters (/sys/block/.../stat) over the same
	 * span, for the run: what the trace should add up to */
	bool have_counted;
	struct {
		uint64_t requests, bytes, time_ns;
		uint64_t merges;	/* bios and requests merged */
	} counted[WS_BLK_NR];
	uint64_t counted_flushes, counted_flush_ns;
};

/* What the tool's own watching cost the writer at the traced device
 * (src/trace/observer.h): how much of the run the observer's work (the
 * probes' and the journal's requests, the flushes they asked for) was in
 * flight, and the writer's data the device completed per second with none
 * of it in flight and while it was, fitted over slots of the run.
 * judged: there was enough to say; else why_not says what was missing.
 * speedup: the first rate over the writer's overall one, at least 1 -
 * "without it the writer would have been about 1.5x faster" - or, bound
 * (its work in flight too little of the time to fit), 1 / (1 - its
 * share): at most that. */
struct ws_observer_cost {
	bool on;		/* traced: the rest is meaningful */
	bool judged;
	const char *why_not;
	bool bound;		/* judged by its share of the time alone */
	double busy_pct;	/* of the slots' time */
	double seconds;		/* the slots' time */
	double free_mibps, busy_mibps, mibps;
	double speedup;
	bool negligible;	/* fitted under OBS_NEGLIGIBLE_X: "little or
				   nothing" (observer.h) */
};

#endif
