/* events.h - the traced events in one type, and their line form
 * (WS_TRACE_RECORD, tests/fixtures/trace/): the kind's letter, then what
 * trace_event_write prints.  G/Q/D/C a request's getrq, insert, issue,
 * complete; B/M/R/S bio queue, bio merge, request merge, split; J S/K/F/L/E
 * commit phases, J B run_stats, J I/O xfs iclog write, done; P dirty pause;
 * W/V wbt_step, wbt_stat; F S/E flusher work; X the writer's file's
 * sectors.  '#' lines are skipped.
 */
#ifndef WS_TRACE_EVENTS_H
#define WS_TRACE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blockstat.h"
#include "flusher.h"

enum jnl_phase {
	JNL_START,
	JNL_LOCKING,	/* waiting for handles */
	JNL_FLUSHING,	/* ordered data submitted */
	JNL_LOGGING,	/* the log written, data waited on */
	JNL_END,
	JNL_STATS,	/* jbd2_run_stats */
	JNL_ICLOG,	/* xlog_iclog_syncing */
	JNL_ICLOG_DONE,	/* xlog_iclog_sync_done */
	JNL_NR
};

struct jnl_event {
	enum jnl_phase phase;
	uint64_t ts_ns;
	uint32_t tid;
	uint32_t blocks, logged;	/* JNL_STATS only */
	uint64_t lsn;		/* JNL_ICLOG, _DONE */
	uint32_t bytes;		/* JNL_ICLOG only */
};

struct dirty_event {
	uint64_t ts_ns;		/* when the pause began */
	int32_t tid;
	uint64_t pause_ns;
	bool writer;		/* the thread is one of our writers */
};

/* step > 0: limits cut (reads missed the target); limits on requests in
 * flight for background, other, and waited-for writes. */
struct wbt_event {
	uint64_t ts_ns;
	int32_t step;
	uint64_t window_us;
	uint32_t bg, normal, max;
};

enum bio_event_kind {
	BIO_QUEUE,	/* after any cgroup limit held it */
	BIO_MERGE,
	BIO_RQ_MERGE,
	BIO_SPLIT,
};

struct bio_event {
	enum bio_event_kind kind;
	uint64_t ts_ns;
	uint64_t sector;
	uint64_t nr_sector;	/* BIO_SPLIT: the rest's sector */
	char rwbs[10];
};

/* wbt_stat: the latencies (ns) wbt judged its window by. */
struct wbt_stat_event {
	uint64_t ts_ns;
	uint64_t rmin, rmean, wmean;
	int64_t rsamples, wsamples;
};

/* A place of the writer's file on the disk, as read then. */
struct extent_event {
	uint64_t sector, nr_sector;
};

/* Culprits' events (culprits.h): not recorded, not evidence. */
enum trace_kind { TE_BLOCK, TE_JOURNAL, TE_DIRTY, TE_WBT, TE_BIO, TE_WB, TE_WBT_STAT,
		  TE_EXTENT, TE_CULPRIT };
#define TE_KINDS (TE_CULPRIT + 1)

struct trace_event {
	enum trace_kind kind;
	union {
		struct blk_event blk;
		struct jnl_event jnl;
		struct dirty_event dirty;
		struct wbt_event wbt;
		struct bio_event bio;
		struct wb_event wb;
		struct wbt_stat_event wbt_stat;
		struct extent_event ext;
	};
};

/* Writes the line with its '\n'. */
void trace_event_write(FILE *f, const struct trace_event *e);
/* 1 an event, 0 a comment or blank line, -1 not an event. */
int trace_event_parse(const char *line, struct trace_event *e);

#endif
