/* record/summary.h - what was derived over the whole run. */
#ifndef WS_RECORD_SUMMARY_H
#define WS_RECORD_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/c.h"
#include "record/adapt.h"
#include "record/block.h"
#include "record/culprit.h"
#include "record/journal.h"
#include "record/kinds.h"
#include "record/phases.h"
#include "record/probe.h"
#include "record/series.h"
#include "record/verify.h"

/* What limited the writer, from where its time went. */
enum ws_limit {
	WS_LIMIT_NONE,		/* no single limit */
	WS_LIMIT_RATE,
	WS_LIMIT_FILL,
	WS_LIMIT_WRITEBACK,
	WS_LIMIT_DIRECT,
	WS_LIMIT_QUEUED,
	WS_LIMIT_WRITE,		/* page cache, dirty throttling */
	WS_LIMIT_MEMORY,	/* the last four, on a target in memory */
	WS_LIMIT_NR
};

/* Its key in the result ("disk") and its words in the summary. */
const char *ws_limit_key(enum ws_limit l);
const char *ws_limit_words(enum ws_limit l);
/* Its words in the summary's first line: "the disk was the limit". */
const char *ws_limit_brief(enum ws_limit l);

/* An error's detail in words ("" for none); pace: the run's.  Returns buf. */
const char *ws_detail_words(enum ws_err_detail d, uint64_t bytes,
			    enum ws_pace pace, char *buf, size_t len);

struct ws_ending {
	enum ws_stop_reason reason;
	int err;			/* WS_STOP_ERROR: positive errno */
	const char *err_op;		/* "write" */
	uint64_t err_offset;
	enum ws_err_detail detail;
	uint64_t detail_bytes;
	int signo;
	const char *signal;		/* "SIGINT", or NULL */
};

struct ws_summary {
	/* traced if block.on */
	struct ws_block_figures block;
	uint64_t block_write_p50_ns, block_write_p99_ns;
	/* per steady-state round, the recorder's copy */
	bool block_rounds_on;
	const struct ws_round_device *block_rounds;
	size_t nblock_rounds;
	struct ws_observer_cost observer;
	uint64_t block_rounds_outside;
	struct ws_journal_figures journal;
	uint64_t io_limit_bps, io_limit_iops;	/* cgroup's; 0: none */
	struct ws_culprits culprits;	/* other processes' writes, traced */
	uint64_t bytes;
	uint64_t buffers;
	uint64_t wraps;
	uint64_t elapsed_ns;	/* until the data was on disk */
	uint64_t time_ns[WS_T_NR];
	uint64_t writers_ns;	/* time_ns's whole; targets' summed */
	double mibps;
	struct ws_ending ending;
	enum ws_limit limit;
	unsigned int nprobes;
	struct ws_probe_summary *probes;	/* ws_summary_hold_probes() */
	const struct ws_series *series;
	const struct ws_series *progress;	/* per mark */
	const struct ws_analysis *analysis;
	/* for the files; curve: the summary's line */
	uint64_t cell_bytes, curve_bytes;
	size_t ncells, ncurve;
	struct ws_cell cells[WS_MAX_CELLS];
	struct ws_cell curve[WS_CURVE_CELLS];
	double curve_top;		/* the fastest cell's */
	/* user + system; 0: unknown */
	uint64_t cpu_ns, cpu_writer_ns, cpu_probes_ns;
	uint64_t cpu_verify_ns;		/* not in cpu_ns */
	unsigned int queue_peak;	/* writes in flight */
	/* settled_*: the probes after every controller settled */
	bool have_adapt;
	struct ws_adapt_figures adapt;
	uint64_t target_latency_ns;
	unsigned int headroom_pct;	/* 0: none */
	uint64_t adapt_settled_ns;
	uint64_t settled_count[WS_MAX_PROBES];
	uint64_t settled_p50_ns[WS_MAX_PROBES], settled_p99_ns[WS_MAX_PROBES],
		 settled_max_ns[WS_MAX_PROBES];
	double cpu_s_per_gib;
	bool verified;
	struct ws_verify verify;
	/* several targets: this one sums theirs, first start to last end,
	 * with the worst ending and the probes */
	unsigned int ntargets;
	const struct ws_summary *targets;
	uint64_t start_offset_ns;	/* in targets[]: after the first */
};

/* Zeroed, nprobes unchanged: 0 or -ENOMEM. */
WS_MUST_CHECK int ws_summary_hold_probes(struct ws_summary *sum, unsigned int n);
void ws_summary_release(struct ws_summary *sum);

/* Each culprit's stalls: the recorded stalls it was the first writer of
 * (a stall with no writer is nobody's). */
void ws_summary_count_culprit_stalls(struct ws_summary *sum);

#endif
