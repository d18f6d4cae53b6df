/* The writer's bounds, wrapping, faults and stop handling, on the fake. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/clock.h"
#include "harness.h"
#include "recorder/recorder.h"
#include "suites.h"
#include "lib/units.h"

#define M WS_MIB

static struct harness *new_harness(uint64_t bufsize, uint64_t buffers,
				   uint64_t file_size)
{
	struct harness *h = calloc(1, sizeof(*h));

	ck_assert_ptr_nonnull(h);
	harness_setup(h, bufsize, buffers, file_size);
	return h;
}

static void free_harness(struct harness *h)
{
	harness_teardown(h);
	free(h);
}

START_TEST(test_enospc_mid_buffer)
{
	struct harness *h = new_harness(M, 8, 0);
	const struct ws_outcome *o = &h->snap.outcome;

	h->fake.fail_kind = IO_PWRITE;
	h->fake.fail_after = 3 * M + 12288;
	h->fake.fail_errno = ENOSPC;
	ck_assert_int_eq(harness_run(h), -ENOSPC);
	ck_assert_int_eq(o->reason, WS_STOP_ERROR);
	ck_assert_int_eq(o->err, ENOSPC);
	ck_assert_str_eq(o->err_op, "write");
	/* what fitted was written; the error names the first byte that did not */
	ck_assert_uint_eq(o->err_offset, 3 * M + 12288);
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 3 * M + 12288);
	/* and what was written still went through the drain and fdatasync */
	ck_assert_int_eq(h->fake.calls[h->fake.ncalls - 1].kind, IO_FDATASYNC);
	ck_assert_uint_gt(o->end_ns, 0);
	free_harness(h);
}
END_TEST

#define WAIT_FLAGS (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
		    SYNC_FILE_RANGE_WAIT_AFTER)

/* Starting writeback of buffer 5 fails (flags WRITE only). */
START_TEST(test_eio_on_start_writeback)
{
	struct harness *h = new_harness(M, 8, 0);
	const struct ws_outcome *o = &h->snap.outcome;

	h->fake.fail_kind = IO_SYNC_RANGE;
	h->fake.fail_flags = SYNC_FILE_RANGE_WRITE;
	h->fake.fail_after = 5 * M;
	h->fake.fail_errno = EIO;
	ck_assert_int_eq(harness_run(h), -EIO);
	ck_assert_int_eq(o->reason, WS_STOP_ERROR);
	ck_assert_int_eq(o->err, EIO);
	ck_assert_str_eq(o->err_op, "sync_file_range");
	ck_assert_uint_eq(o->err_offset, 5 * M);
	/* it stopped there: buffer 5 was written, buffer 6 never */
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 6 * M);
	free_harness(h);
}
END_TEST

/*
 * Waiting for a buffer fails (the window's retire: WAIT_BEFORE | WRITE |
 * WAIT_AFTER): the first wait is for buffer 0, made once buffer 1 was
 * written.  The run ends there with that buffer's offset, still drains and
 * fdatasyncs what it wrote, and the summary made of it is complete.
 */
START_TEST(test_eio_on_wait)
{
	struct harness *h = new_harness(M, 8, 0);
	const struct ws_outcome *o = &h->snap.outcome;
	struct ws_summary sum = { .nprobes = 0 };
	struct ws_sample s;
	unsigned int waits = 0;

	h->fake.fail_kind = IO_SYNC_RANGE;
	h->fake.fail_flags = WAIT_FLAGS;
	h->fake.fail_errno = EIO;
	ck_assert_int_eq(harness_run(h), -EIO);
	ck_assert_int_eq(o->reason, WS_STOP_ERROR);
	ck_assert_int_eq(o->err, EIO);
	ck_assert_str_eq(o->err_op, "sync_file_range");
	ck_assert_uint_eq(o->err_offset, 0);
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 2 * M);
	ck_assert_uint_eq(atomic_load(&h->snap.buffers), 1);
	for (unsigned int i = 0; i < h->fake.ncalls; i++)
		waits += h->fake.calls[i].kind == IO_SYNC_RANGE &&
			 h->fake.calls[i].flags == WAIT_FLAGS;
	/* the failed wait, then the drain's wait for buffer 1 */
	ck_assert_uint_eq(waits, 2);
	ck_assert_int_eq(h->fake.calls[h->fake.ncalls - 1].kind, IO_FDATASYNC);
	/* what the recorder makes of it */
	snapshot_read(&h->snap, &s);
	recorder_make_summary(&(struct ws_run){ .set = h->cfg.set }, &s, o, 0, &sum);
	ck_assert_int_eq(sum.ending.reason, WS_STOP_ERROR);
	ck_assert_str_eq(sum.ending.err_op, "sync_file_range");
	ck_assert_uint_eq(sum.ending.err_offset, 0);
	ck_assert_ptr_null(sum.ending.signal);
	ck_assert_uint_eq(sum.bytes, 2 * M);
	ck_assert_uint_eq(sum.elapsed_ns, o->end_ns - s.start_ns);
	free_harness(h);
}
END_TEST

START_TEST(test_eio_on_final_fdatasync)
{
	struct harness *h = new_harness(M, 4, 0);

	h->fake.fail_kind = IO_FDATASYNC;
	h->fake.fail_errno = EIO;
	ck_assert_int_eq(harness_run(h), -EIO);
	ck_assert_str_eq(h->snap.outcome.err_op, "fdatasync");
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 4 * M);
	free_harness(h);
}
END_TEST

START_TEST(test_short_writes_complete)
{
	struct harness *h = new_harness(M, 4, 0);

	h->fake.short_write_max = 100000;	/* not even page-sized */
	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_uint_eq(h->fake.bytes_written, 4 * M);
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 4 * M);
	ck_assert_uint_eq(atomic_load(&h->snap.buffers), 4);
	free_harness(h);
}
END_TEST

START_TEST(test_wrap_in_place)
{
	struct harness *h = new_harness(2 * M, 5, 3 * M);
	uint64_t max_end = 0;

	ck_assert_int_eq(harness_run(h), 0);
	for (unsigned int i = 0; i < h->fake.ncalls; i++) {
		const struct io_call *c = &h->fake.calls[i];

		if (c->kind == IO_PWRITE && c->off + c->len > max_end)
			max_end = c->off + c->len;
	}
	ck_assert_uint_eq(max_end, 3 * M);
	ck_assert_uint_eq(h->fake.bytes_written, 10 * M);
	/* extents: 0+2 2+1 | 0+2 2+1 | 0+2 2+1 | 0+2 2+1 | ... 10 MiB */
	ck_assert_uint_eq(atomic_load(&h->snap.wraps), 3);
	free_harness(h);
}
END_TEST

START_TEST(test_stop_before_start)
{
	struct harness *h = new_harness(M, 4, 0);

	atomic_store(&h->stop, true);
	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_int_eq(h->snap.outcome.reason, WS_STOP_SIGNAL);
	ck_assert_uint_eq(h->fake.bytes_written, 0);
	free_harness(h);
}
END_TEST

START_TEST(test_stop_mid_run_paces_partial)
{
	struct harness *h = new_harness(M, 1000, 0);
	uint64_t bytes;

	h->cfg.set.pacing.fadvise = true;
	h->cfg.set.rate = 8 * M;	/* 160 KiB pieces: the stop lands mid-buffer */
	h->fake.stop = &h->stop;
	h->fake.stop_after = 3 * M + 100 * 1024;
	ck_assert_int_eq(harness_run(h), 0);
	bytes = atomic_load(&h->snap.bytes);
	ck_assert_int_eq(h->snap.outcome.reason, WS_STOP_SIGNAL);
	ck_assert_uint_ge(bytes, 3 * M);
	ck_assert_uint_lt(bytes, 1000 * M);
	ck_assert_uint_eq(h->fake.bytes_written, bytes);
	/* the last thing dropped from the cache ends where writing ended */
	for (unsigned int i = h->fake.ncalls; i-- > 0;) {
		const struct io_call *c = &h->fake.calls[i];

		if (c->kind == IO_FADVISE) {
			ck_assert_uint_eq(c->off + c->len, bytes);
			break;
		}
	}
	free_harness(h);
}
END_TEST

/* --time 200ms with writes of 5 ms on the fake clock: the bound is
 * checked before each buffer, so exactly 40 of them. */
START_TEST(test_time_bound)
{
	struct harness *h = new_harness(M, 0, 64 * M);
	struct ws_sample s;

	h->cfg.set.duration_ns = 200 * WS_NSEC_PER_MSEC;
	h->fake.delay_ns = 5 * WS_NSEC_PER_MSEC;
	ck_assert_int_eq(harness_run(h), 0);
	snapshot_read(&h->snap, &s);
	ck_assert_int_eq(h->snap.outcome.reason, WS_STOP_TIME);
	ck_assert_uint_eq(s.bytes, 40 * M);
	ck_assert_uint_eq(h->snap.outcome.end_ns - s.start_ns, 200 * WS_NSEC_PER_MSEC);
	free_harness(h);
}
END_TEST

/*
 * --rate 32M/s over 8 MiB: pieces of 652 KiB (20 ms of the rate, 671088
 * bytes, down to a multiple of 4 KiB: 667648) and the 372 KiB left of each
 * MiB (380928), each booked at the rate in whole ns (19897460 and
 * 11352539), and writes take no time on the fake clock: the last piece
 * starts after 7 MiB and one piece, 7 x 31249999 + 19897460 ns, and the
 * run ends there, all of it asleep in the pacer.
 */
START_TEST(test_rate_cap)
{
	struct harness *h = new_harness(M, 8, 0);
	struct ws_sample s;
	const uint64_t want = 7 * (19897460 + 11352539) + 19897460;

	h->cfg.set.rate = 32 * M;
	ck_assert_int_eq(harness_run(h), 0);
	snapshot_read(&h->snap, &s);
	ck_assert_uint_eq(h->snap.outcome.end_ns - s.start_ns, want);
	ck_assert_uint_eq(s.time_ns[WS_T_RATE], want);
	ck_assert_uint_eq(s.bytes, 8 * M);
	free_harness(h);
}
END_TEST

/*
 * A writer that fell behind under --rate catches up when it is at most
 * 100 ms late, and forgets the debt when later (the man page's rule).  The
 * run of test_rate_cap, with the first piece of the fourth MiB (667648
 * bytes, booked at 19897460 ns) taking STALL: it ends LATE past the
 * schedule, 0 when the debt was caught up.
 */
static void rate_stall(uint64_t stall, uint64_t late)
{
	struct harness *h = new_harness(M, 8, 0);
	struct ws_sample s;
	const uint64_t want = 7 * (19897460 + 11352539) + 19897460;

	h->cfg.set.rate = 32 * M;
	h->fake.slow_at = 3 * M;
	h->fake.slow_ns = stall;
	ck_assert_int_eq(harness_run(h), 0);
	snapshot_read(&h->snap, &s);
	ck_assert_uint_eq(h->snap.outcome.end_ns - s.start_ns, want + late);
	free_harness(h);
}

START_TEST(test_rate_catches_up_100ms)
{
	rate_stall(19897460 + 50 * WS_NSEC_PER_MSEC, 0);	/* 50 ms late */
	rate_stall(19897460 + 100 * WS_NSEC_PER_MSEC, 0);	/* 100 ms: kept */
	/* 1 ns more: forgotten, the schedule starts again from there */
	rate_stall(19897460 + 100 * WS_NSEC_PER_MSEC + 1,
		   100 * WS_NSEC_PER_MSEC + 1);
}
END_TEST

/* The free-space guard: someone else fills the filesystem mid-run. */
static uint64_t fake_avail_left;

static int shrinking_avail(int fd, uint64_t *avail)
{
	(void)fd;
	*avail = fake_avail_left;
	fake_avail_left = fake_avail_left > 3 * M ? fake_avail_left - 3 * M : 0;
	return 0;
}

START_TEST(test_reserve_guard)
{
	struct harness *h = new_harness(M, 64, 0);

	h->plan.reserve = 4 * M;
	fake_avail_left = 20 * M;
	ck_assert_int_eq(writer_init(&h->w, &h->cfg, &h->plan, &h->snap,
				     &h->stop, 3, &io_fake_ops, &h->fake), 0);
	h->w.avail = shrinking_avail;
	ck_assert_int_eq(writer_run(&h->w), -ENOSPC);
	writer_destroy(&h->w);
	ck_assert_str_eq(h->snap.outcome.err_op, "reserve");
	ck_assert_int_eq(h->snap.outcome.detail, WS_DETAIL_RESERVE);
	ck_assert_uint_eq(h->snap.outcome.detail_bytes, 4 * M);
	/* free 20, 17, 14, 11, 8, 5 MiB each fit one more 1 MiB buffer above
	 * the 4 MiB reserve; at 2 MiB the guard stops the run: six buffers */
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 6 * M);
	free_harness(h);
}
END_TEST

/* ---- queued writes (--iodepth) ------------------------------------------ */

static struct harness *queued_harness(uint64_t bufsize, uint64_t buffers,
				      unsigned int depth, enum ws_data data)
{
	struct harness *h = new_harness(bufsize, buffers, 0);

	h->cfg.set.pace = WS_PACE_DIRECT;
	h->cfg.set.pacing.iodepth = depth;
	h->cfg.set.data = data;
	h->ioq.reap_ns = 1000000;
	return h;
}

static unsigned int pwrites(const struct io_fake *fake)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < fake->ncalls; i++)
		n += fake->calls[i].kind == IO_PWRITE;
	return n;
}

/* Four in flight, never five; completions come back newest first, and
 * no stamped slot is rewritten while its write is in flight. */
START_TEST(test_queue_keeps_depth)
{
	struct harness *h = queued_harness(64 * WS_KIB, 40, 4, WS_DATA_RANDOM);
	const struct ws_outcome *o = &h->snap.outcome;
	struct ws_sample s;

	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_int_eq(h->queue_ret, 0);
	ck_assert_uint_eq(h->ioq.depth, 4);
	ck_assert_uint_eq(h->ioq.peak, 4);
	ck_assert_uint_eq(h->ioq.overfull, 0);
	ck_assert_uint_eq(h->ioq.changed, 0);
	ck_assert_uint_eq(h->ioq.submits, 40);
	ck_assert_uint_eq(h->ioq.bytes, 40 * 64 * WS_KIB);
	ck_assert_uint_eq(o->queue_peak, 4);
	ck_assert_int_eq(o->reason, WS_STOP_BOUND);
	/* nothing went around the queue; the end is still an fdatasync */
	ck_assert_uint_eq(pwrites(&h->fake), 0);
	ck_assert_int_eq(h->fake.calls[h->fake.ncalls - 1].kind, IO_FDATASYNC);
	snapshot_read(&h->snap, &s);
	ck_assert_uint_eq(s.bytes, 40 * 64 * WS_KIB);
	/* waiting for completions is where the (fake) disk's time went */
	ck_assert_uint_eq(s.time_ns[WS_T_COMPLETE], (uint64_t)h->ioq.reaps * 1000000);
	ck_assert_uint_eq(s.time_ns[WS_T_WRITE], 0);
	free_harness(h);
}
END_TEST

/* The oldest write stays in flight while newer ones complete: its pool
 * slot comes round again and the writer waits for it instead of
 * restamping it under the write. */
START_TEST(test_queue_waits_for_a_busy_slot)
{
	struct harness *h = queued_harness(4 * M, 16, 4, WS_DATA_RANDOM);

	h->ioq.one_per_reap = true;
	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_uint_eq(h->w.feed.nslots, 5);
	ck_assert_uint_eq(h->ioq.peak, 4);
	ck_assert_uint_eq(h->ioq.changed, 0);
	ck_assert_uint_eq(h->ioq.bytes, 64 * M);
	free_harness(h);
}
END_TEST

/* Fixed data is never restamped: its one buffer may be in every write. */
START_TEST(test_queue_fixed_data_shares_its_buffer)
{
	struct harness *h = queued_harness(64 * WS_KIB, 16, 8, WS_DATA_FIXED);

	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_uint_eq(h->ioq.peak, 8);
	ck_assert_uint_eq(h->ioq.changed, 0);
	ck_assert_uint_eq(h->ioq.bytes, 16 * 64 * WS_KIB);
	free_harness(h);
}
END_TEST

/* A write that completes with EIO ends the run at its offset; what was in
 * flight is waited for, and only what completed is counted. */
START_TEST(test_queue_failed_completion)
{
	struct harness *h = queued_harness(M, 16, 4, WS_DATA_RANDOM);
	const struct ws_outcome *o = &h->snap.outcome;

	h->ioq.fail_after = 6 * M;
	h->ioq.fail_errno = EIO;
	ck_assert_int_eq(harness_run(h), -EIO);
	ck_assert_int_eq(o->reason, WS_STOP_ERROR);
	ck_assert_int_eq(o->err, EIO);
	ck_assert_str_eq(o->err_op, "write");
	ck_assert_uint_eq(o->err_offset % M, 0);
	ck_assert_uint_ge(o->err_offset, 6 * M);
	ck_assert_uint_eq(h->ioq.ninflight, 0);
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), h->ioq.bytes);
	ck_assert_uint_le(h->ioq.bytes, o->err_offset);
	ck_assert_int_eq(h->fake.calls[h->fake.ncalls - 1].kind, IO_FDATASYNC);
	free_harness(h);
}
END_TEST

/* A short completion is resubmitted for the rest, at the right place. */
START_TEST(test_queue_short_completion_resubmitted)
{
	struct harness *h = queued_harness(M, 8, 4, WS_DATA_RANDOM);

	h->ioq.short_max = 256 * WS_KIB;
	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_uint_eq(h->ioq.bytes, 8 * M);
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 8 * M);
	ck_assert_uint_eq(h->ioq.submits, 8 * 4);
	ck_assert_uint_eq(h->ioq.changed, 0);
	free_harness(h);
}
END_TEST

/* The kernel refuses io_uring: the writer says so and writes as before,
 * one synchronous write at a time. */
START_TEST(test_queue_refused_falls_back)
{
	struct harness *h = queued_harness(M, 8, 4, WS_DATA_RANDOM);

	h->ioq.open_errno = EPERM;
	ck_assert_int_eq(harness_run(h), 0);
	ck_assert_int_eq(h->queue_ret, -EPERM);
	ck_assert_uint_eq(h->ioq.submits, 0);
	ck_assert_uint_eq(pwrites(&h->fake), 8);
	ck_assert_uint_eq(atomic_load(&h->snap.bytes), 8 * M);
	ck_assert_uint_eq(h->snap.outcome.queue_peak, 0);
	free_harness(h);
}
END_TEST

/* Progress marks count what completed, not what was submitted. */
START_TEST(test_queue_marks_count_completed)
{
	struct harness *h = queued_harness(M, 12, 4, WS_DATA_RANDOM);
	uint64_t head, prev = 0;
	bool some_pending = false;

	h->ioq.reap_ns = 20 * WS_NSEC_PER_MSEC;	/* marks are >= 10 ms apart */
	ck_assert_int_eq(harness_run(h), 0);
	head = atomic_load(&h->snap.mark_head);
	ck_assert_uint_gt(head, 4);
	for (uint64_t i = 0; i < head; i++) {
		const struct ws_mark *m = &h->snap.marks[i % WS_MARK_RING];

		ck_assert_uint_ge(m->bytes, prev);
		ck_assert_uint_eq(m->bytes % M, 0);	/* whole completions */
		ck_assert_uint_le(m->pending, 4 * M);	/* at most the depth */
		ck_assert_uint_le(m->bytes + m->pending, 12 * M);
		some_pending |= m->pending > 0;
		prev = m->bytes;
	}
	ck_assert(some_pending);
	free_harness(h);
}
END_TEST

Suite *writer_suite(void)
{
	Suite *s = suite_create("writer");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_enospc_mid_buffer);
	tcase_add_test(tc, test_eio_on_start_writeback);
	tcase_add_test(tc, test_eio_on_wait);
	tcase_add_test(tc, test_eio_on_final_fdatasync);
	tcase_add_test(tc, test_short_writes_complete);
	tcase_add_test(tc, test_wrap_in_place);
	tcase_add_test(tc, test_stop_before_start);
	tcase_add_test(tc, test_stop_mid_run_paces_partial);
	tcase_add_test(tc, test_time_bound);
	tcase_add_test(tc, test_rate_cap);
	tcase_add_test(tc, test_rate_catches_up_100ms);
	tcase_add_test(tc, test_reserve_guard);
	suite_add_tcase(s, tc);
	tc = tcase_create("queued");
	tcase_add_test(tc, test_queue_keeps_depth);
	tcase_add_test(tc, test_queue_waits_for_a_busy_slot);
	tcase_add_test(tc, test_queue_fixed_data_shares_its_buffer);
	tcase_add_test(tc, test_queue_failed_completion);
	tcase_add_test(tc, test_queue_short_completion_resubmitted);
	tcase_add_test(tc, test_queue_refused_falls_back);
	tcase_add_test(tc, test_queue_marks_count_completed);
	suite_add_tcase(s, tc);
	return s;
}
