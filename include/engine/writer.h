/* writer.h - the writer thread: streams buffers to the file, paced.
 *
 * The writer owns its buffer, its datagen and its pacing state.  It talks
 * to the rest of the program only through the snapshot (progress and the
 * outcome) and the ws_stop flag (signals.h) it polls between calls.  It
 * never prints.
 */
#ifndef WS_WRITER_H
#define WS_WRITER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "system/clock.h"
#include "config/config.h"
#include "engine/datagen.h"
#include "engine/io.h"
#include "engine/pace.h"
#include "config/plan.h"
#include "engine/snapshot.h"
#include "engine/readback.h"
#include "engine/write_queue.h"

struct writer {
	const struct ws_config *cfg;
	const struct ws_plan *plan;
	struct ws_snapshot *snap;
	atomic_bool *stop;	/* &ws_stop, or a test's own flag */
	int fd;

	const struct io_ops *io;
	void *io_ctx;
	/* Free-space guard: returns bytes available, or -errno; NULL: none. */
	int (*avail)(int fd, uint64_t *avail);
	/* What it measures and sleeps with: ws_real_clock unless a test sets
	 * its own (before writer_run; writer_set_clock also tells pacing). */
	const struct ws_clock *clock;

	struct datagen_feed feed;	/* filled buffers, buffer_size bytes */
	struct ws_verify verify;	/* --verify: the read-back */
	struct pace_ctx pace;
	const struct pace_ops *mode;
	/* every write goes through it: one at a time (ioq_sync_ops over io,
	 * sync its context), or --iodepth N in flight */
	struct write_queue queue;
	struct ioq_sync_ctx sync;
	uint64_t piece;		/* bytes per write(): a buffer, or less
				   so that --rate is smooth */
	uint64_t rate_due;	/* --rate: when the next piece may start */
	uint64_t allocated;	/* highest file offset written: extending
				   past it needs the free-space guard */
};

/* --iodepth N > 1: queue the writes through ops (ioq.h; ctx is the
 * backend's), from the thread that set the writer up.  0, or -errno: the
 * kernel refused the queue (io_uring disabled, a seccomp filter) and the
 * writer stays with one synchronous write at a time. */
WS_MUST_CHECK int writer_open_queue(struct writer *w, const struct ioq_ops *ops,
				   void *ctx);

/* The clock the writer and its pacing read (tests). */
void writer_set_clock(struct writer *w, const struct ws_clock *clock);

/* 0 or -errno (-ENOMEM). */
WS_MUST_CHECK int writer_init(struct writer *w, const struct ws_config *cfg,
		const struct ws_plan *plan, struct ws_snapshot *snap,
		atomic_bool *stop, int fd, const struct io_ops *io,
		void *io_ctx);
void writer_destroy(struct writer *w);

/* Run to the end, publish the outcome with snapshot_finish() and return
 * 0 or the failing -errno.  writer_thread() is the pthread entry. */
int writer_run(struct writer *w);
void *writer_thread(void *w);

#endif
