/* writer.h - the writer thread: streams buffers to the file, paced.  It
 * owns its buffers, datagen and pacing, talks only through the snapshot
 * and the stop flag it polls, and never prints.
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
	atomic_bool *stop;	/* &ws_stop, or a test's */
	int fd;

	const struct io_ops *io;
	void *io_ctx;
	/* free-space guard: 0 and *avail bytes, or -errno; NULL: none */
	int (*avail)(int fd, uint64_t *avail);
	const struct ws_clock *clock;

	struct datagen_feed feed;
	struct ws_verify verify;
	struct pace_ctx pace;
	const struct pace_ops *mode;
	/* every write; ioq_sync_ops over io (sync its ctx) unless --iodepth */
	struct write_queue queue;
	struct ioq_sync_ctx sync;
	uint64_t piece;		/* a buffer, or less for a smooth --rate */
	uint64_t rate_due;	/* --rate: when the next piece may start */
	uint64_t allocated;	/* highest offset written; past it, the guard */
};

/* --iodepth N > 1, from the thread that set the writer up.  0, or -errno:
 * the kernel refused (io_uring disabled, seccomp); writes stay synchronous. */
WS_MUST_CHECK int writer_open_queue(struct writer *w, const struct ioq_ops *ops,
				   void *ctx);

/* Tests, before writer_run; pacing reads it too. */
void writer_set_clock(struct writer *w, const struct ws_clock *clock);

/* 0 or -errno. */
WS_MUST_CHECK int writer_init(struct writer *w, const struct ws_config *cfg,
		const struct ws_plan *plan, struct ws_snapshot *snap,
		atomic_bool *stop, int fd, const struct io_ops *io,
		void *io_ctx);
void writer_destroy(struct writer *w);

/* Publishes the outcome (snapshot_finish); 0 or the failing -errno. */
int writer_run(struct writer *w);
void *writer_thread(void *w);

#endif
