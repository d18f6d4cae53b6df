/* harness.h - run the writer against the recording fake backend, on a
 * fake clock: every time it measures is what the fake's delays and the
 * rate pacer's sleeps made it, exactly. */
#ifndef WS_TEST_HARNESS_H
#define WS_TEST_HARNESS_H

#include <check.h>
#include <stdatomic.h>

#include "config/config.h"
#include "fake_clock.h"
#include "io_fake.h"
#include "ioq_fake.h"
#include "config/plan.h"
#include "engine/snapshot.h"
#include "engine/writer.h"

struct harness {
	struct ws_config cfg;
	struct ws_plan plan;
	struct ws_snapshot snap;
	struct io_fake fake;
	struct ioq_fake ioq;	/* the queue, with cfg.set.pacing.iodepth > 1 */
	int queue_ret;		/* what opening it returned */
	struct fake_clock clock;
	struct writer w;
	atomic_bool stop;
};

/* A config writing `buffers` buffers of `bufsize` bytes into a file that
 * wraps at `file_size` (0: no wrap). */
static inline void harness_setup(struct harness *h, uint64_t bufsize,
				 uint64_t buffers, uint64_t file_size)
{
	config_defaults(&h->cfg);
	h->cfg.set.path = "fake";
	h->cfg.set.buffer_size = bufsize;
	h->cfg.set.buffers = buffers;
	h->cfg.set.seed = 42;
	/* What the buffers hold is not what these tests are about: fixed
	 * data (one random buffer, as overwrite.c) costs one buffer's fill,
	 * where the default's stamped pool is 16 MiB filled and hashed at
	 * every writer_init (0.3 s a test under TSan, most of the writer and
	 * pace suites' time there).  The tests about the stamped pool ask
	 * for it (test_writer.c's queued_harness). */
	h->cfg.set.data = WS_DATA_FIXED;
	h->plan = (struct ws_plan){
		.buffer_size = bufsize,
		.total = buffers ? buffers * bufsize : WS_UNBOUNDED,
		.file_size = file_size ? file_size : buffers * bufsize,
	};
	io_fake_init(&h->fake);
	fake_clock_init(&h->clock, 1000000000u);
	h->fake.clock = &h->clock;
	h->ioq.clock = &h->clock;
	atomic_init(&h->stop, false);
	ck_assert_int_eq(snapshot_init(&h->snap), 0);
}

/* Run to the end; returns writer_run()'s result. */
static inline int harness_run(struct harness *h)
{
	int ret;

	ck_assert_int_eq(writer_init(&h->w, &h->cfg, &h->plan, &h->snap,
				     &h->stop, 3, &io_fake_ops, &h->fake), 0);
	if (h->cfg.set.pacing.iodepth > 1)
		h->queue_ret = writer_open_queue(&h->w, &ioq_fake_ops, &h->ioq);
	writer_set_clock(&h->w, &h->clock.ops);
	ret = writer_run(&h->w);
	ck_assert(snapshot_finished(&h->snap));
	writer_destroy(&h->w);
	return ret;
}

static inline void harness_teardown(struct harness *h)
{
	snapshot_destroy(&h->snap);
}

#endif
