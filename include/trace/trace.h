/* trace.h - the kernel's account of the target's disk and filesystem from
 * its tracepoints (listed in src/trace/README.md), in a private tracefs
 * instance: the machine's own tracing is never touched, a killed run's
 * instance is removed at the next start, dropped events are counted.
 * trace_start(), trace_run() and trace_stop() in the main thread, while it
 * may raise its capabilities; the rest in the recorder thread.
 */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

struct ws_trace;
struct ws_fingerprint;

/* The whole disk under the target: 0, or -errno with why (dm and md,
 * whose requests are their disks'). */
struct trace_disk {
	unsigned int major, minor;
	unsigned int fs_major, fs_minor;
	unsigned int fs_block;	/* the journal's unit (0: 4096) */
	enum trace_journal {
		TRACE_JOURNAL_NONE,
		TRACE_JOURNAL_JBD2,
		TRACE_JOURNAL_XFS,
	} journal;
	char fs_name[64];	/* "sda2": xfs counts its log writes under it */
	bool own_bdi;		/* btrfs: its writeback is not the disk's */
	char sysdir[600];
	/* the writer's file; its sectors from the filesystem's first */
	char file[512];
	uint64_t part_start;
};
int trace_disk_of(const struct ws_fingerprint *fp, struct trace_disk *disk,
		  char *why, size_t len);

/* Nothing recorded before trace_run().  0, or -errno with why. */
int trace_start(struct ws_trace **out, const struct trace_disk *disk,
		char *why, size_t len);

/* 0 or -errno (ws_thread_last_failure() says what). */
int trace_run(struct ws_trace *t);

/* The figures since the last take; writers: who wrote meanwhile, and
 * commands: others' bytes since the start (traced false when their
 * events are not). */
void trace_take(struct ws_trace *t, struct ws_block_figures *block,
		struct ws_journal_figures *journal, struct ws_writers_now *writers,
		struct ws_command_bytes *commands);

/* From the writers' start: latency by rounds, the observer's cost.
 * 0 or -ENOMEM. */
int trace_rounds(struct ws_trace *t, uint64_t origin_ns, uint64_t round_ns);

/* A copy: rounds is malloc'd, the caller's to free. */
struct trace_totals {
	struct ws_block_figures block;
	uint64_t write_p50_ns, write_p99_ns;
	bool rounds_on;
	struct ws_round_device *rounds;
	size_t nrounds;
	uint64_t rounds_outside;
	struct ws_observer_cost observer;
	struct ws_journal_figures journal;
	uint64_t io_limit_bps, io_limit_iops;	/* cgroup's; 0: none */
};

/* At the end.  0, or -ENOMEM: no rounds (rounds_on false). */
int trace_totals(struct ws_trace *t, struct trace_totals *out);

/* start_ns on CLOCK_MONOTONIC, site "" unknown.  After trace_totals. */
struct ws_stall_reason trace_explain(struct ws_trace *t, uint64_t start_ns,
				     uint64_t duration_ns, const char *site, int tid);

/* The processes that wrote to the disk, most first (culprits.h's rules);
 * traced false when their events are not. */
void trace_culprits(struct ws_trace *t, struct ws_culprits *out);
/* Who wrote to the disk during [start_ns, start_ns + duration_ns]
 * (CLOCK_MONOTONIC). */
void trace_stall_culprits(struct ws_trace *t, uint64_t start_ns, uint64_t duration_ns,
			  struct ws_stall_culprits *out);

/* NULL: nothing. */
void trace_stop(struct ws_trace *t);

/* Dead writestress processes' instances removed: how many. */
unsigned int trace_remove_stale(void);

#endif
