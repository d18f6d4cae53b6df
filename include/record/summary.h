/* record/summary.h - the summary at a run's end: every figure, rule and verdict
 * derived over the whole run, each probe's, each target's. */
#ifndef WS_RECORD_SUMMARY_H
#define WS_RECORD_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/c.h"
#include "record/adapt.h"
#include "record/block.h"
#include "record/journal.h"
#include "record/kinds.h"
#include "record/phases.h"
#include "record/probe.h"
#include "record/series.h"
#include "record/verify.h"

/* What limited the writer, from where its time went. */
enum ws_limit {
	WS_LIMIT_NONE,		/* no single limit */
	WS_LIMIT_RATE,		/* --rate */
	WS_LIMIT_FILL,		/* generating data */
	WS_LIMIT_WRITEBACK,	/* the disk: waiting for writeback */
	WS_LIMIT_DIRECT,	/* the disk: O_DIRECT writes */
	WS_LIMIT_QUEUED,	/* the disk: waiting for queued writes */
	WS_LIMIT_WRITE,		/* write(): page cache and dirty throttling */
	WS_LIMIT_MEMORY,	/* any of the last four, on a target in memory */
	WS_LIMIT_NR
};

/* How the run ended. */
struct ws_ending {
	enum ws_stop_reason reason;
	int err;			/* positive errno for WS_STOP_ERROR */
	const char *err_op;		/* "write", "sync_file_range", ... */
	uint64_t err_offset;		/* file offset the failing call touched */
	char err_detail[160];		/* extra words, e.g. what --pace needs */
	int signo;			/* WS_STOP_SIGNAL */
	const char *signal;		/* "SIGINT", or NULL */
};

struct ws_summary {
	/* the device's requests over the run, traced (block.on), and its
	 * writes' service times */
	struct ws_block_figures block;
	uint64_t block_write_p50_ns, block_write_p99_ns;
	/* ... round by round (the steady state's rounds, from the writer's
	 * start; block_rounds_on: counted), the recorder's copy */
	bool block_rounds_on;
	const struct ws_round_device *block_rounds;
	size_t nblock_rounds;
	struct ws_observer_cost observer;	/* traced: what the probes'
						   work cost the writer */
	uint64_t block_rounds_outside;	/* writes in no round: completed
					   before they were counted, or read
					   after their round closed */
	struct ws_journal_figures journal;
	/* the cgroup write limits on the traced disk, bytes and requests a
	 * second (0: none) */
	uint64_t io_limit_bps, io_limit_iops;
	uint64_t bytes;
	uint64_t buffers;
	uint64_t wraps;
	uint64_t elapsed_ns;	/* to the moment the data was on disk */
	uint64_t time_ns[WS_T_NR];
	uint64_t writers_ns;	/* what time_ns are shares of: elapsed_ns, or
				   with several targets the sum of theirs */
	double mibps;
	struct ws_ending ending;
	enum ws_limit limit;
	const char *limit_key;	/* "disk", for files */
	const char *limit_words; /* "the disk was the limit (waiting for
				    writeback)", for people */
	unsigned int nprobes;
	struct ws_probe_summary *probes;	/* ws_summary_hold_probes() */
	const struct ws_series *series;		/* per interval, bounded */
	const struct ws_series *progress;	/* per buffer group: phases */
	const struct ws_analysis *analysis;	/* phases, slowdown, steady */
	char steady_figures[96];	/* the final stretch's figures under
					   the criterion: "range 4%, slope
					   excursion 3%" */
	/* throughput over bytes written: up to WS_MAX_CELLS cells of
	 * cell_bytes for the result files, and WS_CURVE_CELLS of
	 * curve_bytes for the one-line curve */
	uint64_t cell_bytes, curve_bytes;
	size_t ncells, ncurve;
	struct ws_cell cells[WS_MAX_CELLS];
	struct ws_cell curve[WS_CURVE_CELLS];
	double curve_top;		/* the curve's fastest cell */
	/* CPU time (user + system): the process's, the writer thread's, the
	 * monitor's (probe threads and the stall watcher); 0 unknown */
	uint64_t cpu_ns, cpu_writer_ns, cpu_probes_ns;
	uint64_t cpu_verify_ns;		/* --verify's read-back: not in cpu_ns */
	unsigned int queue_peak;	/* --iodepth: most writes in flight */
	/* --pace adaptive: where the controller ended, when it settled
	 * (since the start; settled false: it never did), and each probe's
	 * latencies from the first interval after it settled on */
	bool have_adapt;
	struct ws_adapt_figures adapt;
	uint64_t target_latency_ns;
	unsigned int headroom_pct;	/* --headroom, 0: none */
	uint64_t adapt_settled_ns;
	uint64_t settled_count[WS_MAX_PROBES];
	uint64_t settled_p50_ns[WS_MAX_PROBES], settled_p99_ns[WS_MAX_PROBES],
		 settled_max_ns[WS_MAX_PROBES];
	double cpu_s_per_gib;	/* the process's, per GiB written */
	/* --verify: the file read back after the run */
	bool verified;
	struct ws_verify verify;
	/* several targets: each one's summary (its ending, phases, slowdown
	 * and steady state, cells, verify); the aggregate sums bytes and
	 * times, its elapsed runs from the first start to the last end, its
	 * ending is the worst of theirs, its phases come from their progress
	 * added up, and it holds the probes */
	unsigned int ntargets;
	const struct ws_summary *targets;
	uint64_t start_offset_ns;	/* in targets[]: its writer started this
					   long after the first one */
};

/* Room for n probes' figures in sum (zeroed; nprobes stays as it is):
 * 0 or -ENOMEM.  ws_summary_release() gives back what a summary holds
 * on the heap (src/record/summary.c). */
WS_MUST_CHECK int ws_summary_hold_probes(struct ws_summary *sum, unsigned int n);
void ws_summary_release(struct ws_summary *sum);

#endif
