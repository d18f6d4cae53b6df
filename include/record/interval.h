/* record/interval.h - one reporting interval: the writer's figures, the kernel's,
 * the device's, the probes', the controller's, and each target's. */
#ifndef WS_RECORD_INTERVAL_H
#define WS_RECORD_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "record/adapt.h"
#include "record/block.h"
#include "record/journal.h"
#include "record/kinds.h"
#include "record/probe.h"

struct ws_interval {
	uint64_t index;
	uint64_t t_ns;		/* elapsed at the interval's end */
	uint64_t dt_ns;		/* its length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	uint64_t time_ns[WS_T_NR];	/* writer time during it */
	double mibps;		/* during it (the final short one: with the
				   one before) */
	double avg_mibps;	/* since the start */
	double progress;	/* 0..1, or -1 when the run is unbounded */
	uint64_t eta_ns;	/* valid when progress > 0 */
	enum ws_timer busiest;	/* the timer that took most of it */
	double busiest_share;	/* its share of the interval, 0..1 */
	bool have_meminfo;
	uint64_t dirty, writeback;	/* /proc/meminfo at the interval's end */
	/* the device's own counters (/sys/block/.../stat) over the interval:
	 * what reached it, not what the page cache took */
	bool have_device;
	double dev_mibps;		/* written to the device */
	uint64_t dev_bytes;		/* ... in bytes (what a sum over
					   intervals adds up: the final one's
					   dev_mibps may be smoothed) */
	uint64_t dev_inflight;		/* requests in flight at the end */
	double dev_busy_pct;		/* share of the interval it was busy */
	/* /proc/pressure/io over the interval, % of time stalled on I/O */
	bool have_psi;
	double psi_some_pct, psi_full_pct;
	struct ws_block_figures block;	/* traced requests over it */
	struct ws_journal_figures journal;	/* traced commits over it */
	/* the same since the start, added up (what counters show) */
	struct ws_block_figures block_run;
	struct ws_journal_figures journal_run;
	/* the header's last word, on the first interval: how long the
	 * preconditioning takes at its rate (0: nothing to say) */
	uint64_t precondition_eta_ns;
	unsigned int nprobes;
	struct ws_probe_interval probes[WS_MAX_PROBES];
	/* --pace adaptive: the controller at the interval's end (adapt.h) */
	bool have_adapt;
	struct ws_adapt_figures adapt;
	/* several targets: this interval of each target still writing (its
	 * last one ends at its writer's end, flagged final); the aggregate's
	 * own figures are the sums */
	unsigned int ntargets;
	const struct ws_interval *targets;
	unsigned int number;		/* in targets[]: the target's number */
	bool final;			/* in targets[]: its writer's last */
};

#endif
