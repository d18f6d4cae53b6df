/* job.h - one target of a run and what writes it (a run of one FILE is one
 * job).  main.c's helper: these print what went wrong and return the exit
 * status to end with, 0 to go on.  Main thread, outside the run.
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
#include "engine/idle.h"
#include "engine/writer.h"

struct ws_job {
	unsigned int number;		/* 1-based */
	struct ws_config cfg;		/* with its own path and seed */
	struct ws_target target;
	bool opened;
	bool remove;			/* unlink at close */
	struct ws_fingerprint fp;
	struct ws_plan plan;
	struct ws_snapshot snap;
	bool snap_ready;
	struct writer writer;
	bool writer_ready;
	struct idle idle;		/* writestress watch's, instead */
	struct ws_queue_facts queue;
	/* an earlier job on the same filesystem, device; 0: none */
	unsigned int same_fs_as, same_device_as;
};

/* Open (target.h) and fingerprint every target; the same file twice is
 * refused.  A watch (set.watch) opens only its directory, one job.  On failure those opened are closed, files created removed. */
int jobs_open(const struct ws_config *cfg, struct ws_job *jobs);
/* Plan (a filesystem's targets share its room), precondition, truncate or
 * mark, check the pace; then the snapshot, writer and queue. */
int jobs_prepare(struct ws_job *jobs, unsigned int n);
/* Frees all, closes the files and removes those with remove set. */
void jobs_close(struct ws_job *jobs, unsigned int n);

#endif
