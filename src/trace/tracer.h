/* tracer.h - the tracer's own parts, shared by tracer.c (the instance,
 * its thread, the figures handed out) and tracer_events.c (which events,
 * their fields, each one read into the evidence).  Not for others: the
 * interface is include/trace/trace.h. */
#ifndef WS_TRACE_TRACER_H
#define WS_TRACE_TRACER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <tracefs.h>

#include "evidence.h"
#include "lostspans.h"
#include "system/iolimit.h"
#include "system/kstat.h"
#include "trace/trace.h"

#define TRACER_NEVENTS 21	/* tracer_events.c's table */

/* The fields read, by event; NULL where an event has not got it. */
struct event_fields {
	struct tep_format_field *sector, *nr_sector, *rwbs;	/* block */
	struct tep_format_field *new_sector;			/* split */
	struct tep_format_field *comm;				/* getrq */
	struct tep_format_field *tid, *blocks, *logged;		/* jbd2 */
	struct tep_format_field *lsn, *offset;			/* xfs iclogs */
	struct tep_format_field *pause;				/* dirty */
	struct tep_format_field *step, *window, *bg, *normal, *max;	/* wbt */
	struct tep_format_field *nr_pages, *reason, *cgroup_ino;	/* writeback */
	struct tep_format_field *rmin, *rmean, *rsamples, *wmean, *wsamples;	/* wbt_stat */
};

struct ws_trace {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	int id[TRACER_NEVENTS];	/* -1: not traced */
	struct event_fields f[TRACER_NEVENTS];
	pthread_t tid;
	bool started;
	atomic_bool stop;
	pthread_mutex_t lock;	/* ev, lost, ours */
	struct evidence ev;
	FILE *record;		/* WS_TRACE_RECORD: every event, a line */
	char sysdir[600];	/* the disk's, for its own counters */
	struct ws_diskstat stat0;	/* at the start */
	bool have_stat;
	/* xfs: its own count of its log writes, at the start */
	char xfs_name[64];
	uint64_t xlog_writes0, xlog_blocks0;
	bool have_xlog;
	/* jbd2: its own statistics, at the start ("loop3-8") */
	char jbd2_name[72];
	uint64_t jbd2_transactions0, jbd2_logging0;
	bool have_jbd2;
	struct io_limit limit;	/* the cgroup write limits on the disk */
	/* the spans between takes in which the ring dropped events, so a
	 * stall judged on short evidence says so */
	struct lostspans lost;
	/* threads of this process seen pausing, and others' (a small cache:
	 * the dirty limit's events are every process's on the disk) */
	int32_t ours[16], theirs[16];
	bool ours_writer[16];	/* ours[i] is a writer thread */
	unsigned int nours, ntheirs, ours_at, theirs_at;
};

/* Each event found, its fields, filtered to the disk (block, the dirty
 * limit's) or the filesystem (the journal's) and enabled; 0, or -ENOENT /
 * -EIO when a required one is missing or refused. */
int tracer_enable_events(struct ws_trace *t, const struct trace_disk *disk);
/* How to parse our events (tep), or NULL. */
struct tep_handle *tracer_read_formats(void);
/* One event of the ring into the evidence (and the record file). */
int tracer_on_event(struct tep_event *tev, struct tep_record *rec, int cpu, void *ctx);

#endif
