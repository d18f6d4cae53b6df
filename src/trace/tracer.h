/* tracer.h - private to tracer.c and tracer_events.c. */
#ifndef WS_TRACE_TRACER_H
#define WS_TRACE_TRACER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <tracefs.h>

#include "culprits.h"
#include "evidence.h"
#include "filewatch.h"
#include "lostspans.h"
#include "system/iolimit.h"
#include "system/kstat.h"
#include "trace/trace.h"

#define TRACER_NEVENTS 26	/* tracer_events.c's table */

/* NULL where an event has not got the field. */
struct event_fields {
	struct tep_format_field *sector, *nr_sector, *rwbs;
	struct tep_format_field *new_sector;
	struct tep_format_field *comm;
	struct tep_format_field *tid, *blocks, *logged;
	struct tep_format_field *lsn, *offset;
	struct tep_format_field *pause;
	struct tep_format_field *step, *window, *bg, *normal, *max;
	struct tep_format_field *nr_pages, *reason, *cgroup_ino;
	struct tep_format_field *rmin, *rmean, *rsamples, *wmean, *wsamples;
	struct tep_format_field *ino, *wrote, *parent, *child;
	struct tep_format_field *filename;	/* sched_process_exec's, dynamic */
	struct tep_format_field *pid;		/* task_rename's; NULL where the kernel dropped it: the current task */
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
	FILE *record;		/* WS_TRACE_RECORD */
	char sysdir[600];
	struct ws_diskstat stat0;	/* *0: the kernel's counters at the start */
	bool have_stat;
	char xfs_name[64];
	uint64_t xlog_writes0, xlog_blocks0;
	bool have_xlog;
	char jbd2_name[72];	/* "loop3-8" */
	uint64_t jbd2_transactions0, jbd2_logging0;
	bool have_jbd2;
	struct io_limit limit;
	char file[512];		/* the writer's, "" none */
	struct filewatch watch;	/* its extents, read off this thread */
	uint64_t file_asked_ns;	/* trace time of the last ask */
	struct lostspans lost;
	/* cache of tids seen pausing: dirty-limit events are every process's */
	int32_t ours[16], theirs[16];
	bool ours_writer[16];
	unsigned int nours, ntheirs, ours_at, theirs_at;
	struct culprits culprits;	/* under lock */
	bool culprits_on;		/* all three events traced */
};

/* 0, or -ENOENT / -EIO when a required event is missing or refused. */
int tracer_enable_events(struct ws_trace *t, const struct trace_disk *disk);
struct tep_handle *tracer_read_formats(void);
/* The field's number in the record; 0 when the event has not got it. */
static inline uint64_t tracer_field(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

/* ---- tracer_culprits.c ---- */
/* A string field into out ("" when absent or out of the record): a
 * fixed array (a fork's child_comm) or a __data_loc / __rel_loc one (an
 * exec's filename). */
void tracer_field_string(struct tep_format_field *fld, const struct tep_record *rec,
			 char *out, size_t len);
/* The culprits' events (their table's sub). */
enum culprit_event { CUL_DIRTIED, CUL_INODE_WB, CUL_FORK, CUL_EXEC, CUL_RENAME };
/* writestress's children (the probes' command launchers) are its own:
 * what they start is no culprit. */
void tracer_learn_ours(struct ws_trace *t);
/* A culprits' event into t->culprits. */
void tracer_culprit_event(struct ws_trace *t, enum culprit_event sub,
			  const struct event_fields *f, struct tep_record *rec);
/* A bio queued: a write is its thread's own, unless a worker's. */
struct bio_event;
void tracer_culprit_bio(struct ws_trace *t, const struct event_fields *f,
			const struct bio_event *b, struct tep_record *rec);
/* One ring event into the evidence (and the record file). */
int tracer_on_event(struct tep_event *tev, struct tep_record *rec, int cpu, void *ctx);

#endif
