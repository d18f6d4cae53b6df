/* trace.h - the kernel's own account of the target's block requests,
 * read from its tracepoints (block_rq_insert, block_rq_issue,
 * block_rq_complete) through a private tracefs instance with libtracefs
 * and libtraceevent, the trace-cmd project's libraries.
 *
 * The instance is writestress's alone ("writestress-PID", filtered to the
 * target's disk, its ring bounded per CPU): the machine's own tracing is
 * never touched.  trace_stop() removes it, also at the end of a run
 * stopped by a signal; one left by a writestress that was killed is
 * removed by the next start.  A tracer thread drains the ring every
 * 50 ms into the figures (blockstat.h); events the ring dropped are
 * counted, never silent.
 *
 * trace_start() and trace_stop() in the main thread, while it may still
 * raise its capabilities; trace_take() from the recorder thread.
 */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

struct ws_trace;
struct ws_fingerprint;

/* The whole disk under the target (a partition's disk), whose requests
 * are traced: 0, or -errno with why (not on a block device; on dm or md,
 * whose requests are their disks'). */
struct trace_disk {
	unsigned int major, minor;
	char sysdir[600];	/* its /sys/devices/... directory */
};
int trace_disk_of(const struct ws_fingerprint *fp, struct trace_disk *disk,
		  char *why, size_t len);

/* Ready a trace of the disk (the whole disk, not a partition): the
 * instance made, filtered, its events chosen; nothing recorded before
 * trace_run().  0 with *out set, or -errno with why (a line for the
 * user: what is missing). */
int trace_start(struct ws_trace **out, const struct trace_disk *disk,
		char *why, size_t len);

/* Start tracing: the events on, the tracer thread started (it drops every
 * capability first).  0 or -errno (ws_thread_last_failure() says what). */
int trace_run(struct ws_trace *t);

/* The figures since the last take (the first: since the start). */
void trace_take(struct ws_trace *t, struct ws_block_figures *out);

/* The run's figures so far, the ring drained first, and its writes'
 * service times (p50, p99; 0 when none): the recorder's, at the end. */
void trace_totals(struct ws_trace *t, struct ws_block_figures *run,
		  uint64_t *write_p50_ns, uint64_t *write_p99_ns);

/* Stop the thread and remove the instance.  NULL: nothing. */
void trace_stop(struct ws_trace *t);

/* Remove the instances of writestress processes that no longer exist;
 * how many. */
unsigned int trace_remove_stale(void);

#endif
