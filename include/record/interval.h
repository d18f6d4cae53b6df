/* record/interval.h - one reporting interval: the writer's, kernel's,
 * device's, probes' and controller's figures, and each target's. */
#ifndef WS_RECORD_INTERVAL_H
#define WS_RECORD_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "record/adapt.h"
#include "record/block.h"
#include "record/culprit.h"
#include "record/journal.h"
#include "record/kinds.h"
#include "record/probe.h"

struct ws_interval {
	uint64_t index;
	uint64_t t_ns;		/* elapsed at its end */
	uint64_t dt_ns;
	uint64_t bytes;		/* by its end */
	uint64_t dbytes;	/* during it */
	uint64_t time_ns[WS_T_NR];
	double mibps;		/* a short final one: with the one before */
	double avg_mibps;	/* since the start */
	double progress;	/* 0..1; -1: unbounded */
	uint64_t eta_ns;	/* when progress > 0 */
	enum ws_timer busiest;
	double busiest_share;	/* 0..1 */
	bool have_meminfo;
	uint64_t dirty, writeback;	/* at its end */
	/* the device's own counters: what reached it */
	bool have_device;
	double dev_mibps;
	uint64_t dev_bytes;		/* adds up; dev_mibps may be folded */
	uint64_t dev_inflight;		/* at its end */
	double dev_busy_pct;
	bool have_psi;
	double psi_some_pct, psi_full_pct;	/* /proc/pressure/io */
	struct ws_block_figures block;
	struct ws_journal_figures journal;
	struct ws_block_figures block_run;	/* since the start */
	struct ws_journal_figures journal_run;
	struct ws_writers_now writers;	/* other processes', traced */
	struct ws_command_bytes commands;	/* others' since the start, traced */
	uint64_t precondition_eta_ns;	/* first interval; 0: none */
	unsigned int nprobes;
	struct ws_probe_interval probes[WS_MAX_PROBES];
	bool have_adapt;
	struct ws_adapt_figures adapt;	/* at its end */
	/* several targets: each still writing; this one sums them */
	unsigned int ntargets;
	const struct ws_interval *targets;
	unsigned int number;		/* in targets[] */
	bool final;			/* in targets[]: its writer's last */
};

#endif
