/* job.h - one target of a run and everything that writes it: its file,
 * fingerprint, plan, snapshot, writer and queue (FILE1 FILE2 ..., or
 * --jobs N; a run of one FILE is one job).
 *
 * Wiring, like main.c, whose helper it is: these functions print what went
 * wrong (writestress: ..., hint: ...) and return the exit status to end
 * with, 0 to go on.  Main thread only, before the threads start and after
 * they are joined.
 */
#ifndef WS_JOB_H
#define WS_JOB_H

#include <stdbool.h>

#include "config/config.h"
#include "system/fingerprint.h"
#include "config/plan.h"
#include "record/record.h"
#include "engine/snapshot.h"
#include "run/target.h"
#include "engine/writer.h"

struct ws_job {
	unsigned int number;		/* 1, 2, ... */
	struct ws_config cfg;		/* the run's, with this target's path
					   and its own seed */
	struct ws_target target;
	bool opened;
	bool remove;			/* unlink at close */
	struct ws_fingerprint fp;
	struct ws_plan plan;
	struct ws_snapshot snap;
	bool snap_ready;
	struct writer writer;
	bool writer_ready;
	struct ws_queue_facts queue;
	/* the number of an earlier job on the same filesystem, on the
	 * same block device; 0: none */
	unsigned int same_fs_as, same_device_as;
};

/* Open every target of cfg safely (target.h) and fingerprint it: the
 * same file twice is refused.  On failure the jobs opened are closed
 * again (files this run created removed). */
int jobs_open(const struct ws_config *cfg, struct ws_job *jobs);
/* Plan each (targets on one filesystem share its room), precondition,
 * truncate or mark, check the pace mode; then the snapshot and the writer
 * with its queue (--iodepth). */
int jobs_prepare(struct ws_job *jobs, unsigned int n);
/* Free the writers and snapshots; close the files, removing those whose
 * remove is set: from jobs_open, the files this run created (it could not
 * use them); the caller sets it after a run (--remove). */
void jobs_close(struct ws_job *jobs, unsigned int n);

#endif
