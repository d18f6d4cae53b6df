/* The write queue on its own, on the fake backend: what a failing
 * backend leaves, and that a drain ends whatever the backend does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io_fake.h"
#include "ioq_fake.h"
#include "suites.h"
#include "lib/units.h"
#include "engine/write_queue.h"

#define LEN (64 * WS_KIB)

struct rig {
	struct ioq_fake fake;
	struct ws_snapshot snap;
	struct write_queue wq;
	char *pool;
};

static struct rig *rig_new(void)
{
	struct rig *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	r->pool = calloc(4, LEN);
	ck_assert_ptr_nonnull(r->pool);
	ck_assert_int_eq(snapshot_init(&r->snap), 0);
	return r;
}

static void rig_free(struct rig *r)
{
	snapshot_destroy(&r->snap);
	free(r->pool);
	free(r);
}

/* Refused: nothing kept, nothing to close (ASan sees a leak otherwise). */
START_TEST(test_open_refused)
{
	struct rig *r = rig_new();

	r->fake.open_errno = ENOSYS;
	ck_assert_int_eq(wq_open(&r->wq, &ioq_fake_ops, &r->fake, 4, r->pool, 4,
				 LEN, 3, 0, &r->snap), -ENOSYS);
	ck_assert_ptr_null(r->wq.writes);
	ck_assert_ptr_null(r->wq.slot_users);
	rig_free(r);
}
END_TEST

/* The first failure is the story: later writes are refused with it, the
 * writes in flight are still waited for, and the flags reach the backend. */
START_TEST(test_first_failure_sticks)
{
	struct rig *r = rig_new();

	r->fake.fail_after = LEN;
	r->fake.fail_errno = EIO;
	ck_assert_int_eq(wq_open(&r->wq, &ioq_fake_ops, &r->fake, 2, r->pool, 4,
				 LEN, 3, 0x80, &r->snap), 0);
	ck_assert_int_eq(wq_write(&r->wq, r->pool, 0, LEN, 0), 0);
	ck_assert_int_eq(wq_write(&r->wq, r->pool + LEN, 1, LEN, LEN), 0);
	ck_assert_int_eq(r->fake.inflight[1].rwf, 0x80);
	ck_assert_uint_eq(r->wq.inflight_bytes, 2 * LEN);
	/* full: the third waits, sees the failure, is not submitted */
	ck_assert_int_eq(wq_write(&r->wq, r->pool + 2 * LEN, 2, LEN, 2 * LEN), -EIO);
	ck_assert_str_eq(r->wq.err_op, "write");
	ck_assert_uint_eq(r->wq.err_off, LEN);
	ck_assert_uint_eq(r->fake.submits, 2);
	ck_assert_int_eq(wq_drain(&r->wq), -EIO);
	ck_assert_uint_eq(r->wq.inflight, 0);
	ck_assert_uint_eq(r->wq.inflight_bytes, 0);
	ck_assert_uint_eq(atomic_load(&r->snap.bytes), LEN);
	for (unsigned int i = 0; i < 4; i++)
		ck_assert_uint_eq(r->wq.slot_users[i], 0);
	wq_close(&r->wq);
	rig_free(r);
}
END_TEST

/* A backend that cannot reap (the ring broke) ends a drain, not hangs it. */
START_TEST(test_broken_backend_ends_drain)
{
	struct rig *r = rig_new();

	ck_assert_int_eq(wq_open(&r->wq, &ioq_fake_ops, &r->fake, 4, r->pool, 4,
				 LEN, 3, 0, &r->snap), 0);
	ck_assert_int_eq(wq_write(&r->wq, r->pool, 0, LEN, 0), 0);
	r->fake.ninflight = 0;	/* lost by the backend: reap fails */
	ck_assert_int_eq(wq_drain(&r->wq), -EINVAL);
	ck_assert_str_eq(r->wq.err_op, "io_uring wait");
	ck_assert_int_eq(wq_slot_idle(&r->wq, 0), -EINVAL);
	wq_close(&r->wq);
	rig_free(r);
}
END_TEST

/* The synchronous backend: each write is done in wq_write, counted at
 * once as a write (not a submission), never in flight; a short write's
 * rest is written before wq_write returns; a failure is the write's, at
 * its offset. */
START_TEST(test_sync_completes_at_once)
{
	struct rig *r = rig_new();
	struct io_fake io;
	struct ioq_sync_ctx ctx = { .io = &io_fake_ops, .io_ctx = &io };

	io_fake_init(&io);
	io.short_write_max = LEN / 4;
	ck_assert_int_eq(wq_open(&r->wq, &ioq_sync_ops, &ctx, 1, r->pool, 4,
				 LEN, 3, 0, &r->snap), 0);
	ck_assert_int_eq(wq_write(&r->wq, r->pool, 0, LEN, 0), 0);
	/* four pwrites of a quarter each, all before it returned */
	ck_assert_uint_eq(io.ncalls, 4);
	ck_assert_uint_eq(io.calls[3].off, 3 * LEN / 4);
	ck_assert_uint_eq(atomic_load(&r->snap.bytes), LEN);
	ck_assert_uint_eq(atomic_load(&r->snap.offset), LEN);
	ck_assert_uint_eq(r->wq.inflight, 0);
	ck_assert_uint_eq(r->wq.inflight_bytes, 0);
	ck_assert_uint_eq(r->wq.slot_users[0], 0);
	ck_assert_uint_eq(r->wq.peak, 0);
	ck_assert_uint_eq(atomic_load(&r->snap.time_ns[WS_T_SUBMIT]), 0);
	ck_assert_uint_eq(atomic_load(&r->snap.time_ns[WS_T_COMPLETE]), 0);
	/* a failing write: its error, at its offset, and nothing counted */
	io.short_write_max = 0;
	io.fail_kind = IO_PWRITE;
	io.fail_after = LEN;
	io.fail_errno = ENOSPC;
	ck_assert_int_eq(wq_write(&r->wq, r->pool + LEN, 1, LEN, LEN), -ENOSPC);
	ck_assert_str_eq(r->wq.err_op, "write");
	ck_assert_uint_eq(r->wq.err_off, LEN);
	ck_assert_uint_eq(atomic_load(&r->snap.bytes), LEN);
	ck_assert_int_eq(wq_drain(&r->wq), -ENOSPC);
	/* only one write at a time */
	wq_close(&r->wq);
	ck_assert_int_eq(wq_open(&r->wq, &ioq_sync_ops, &ctx, 2, r->pool, 4,
				 LEN, 3, 0, &r->snap), -EINVAL);
	rig_free(r);
}
END_TEST

Suite *write_queue_suite(void)
{
	Suite *s = suite_create("write_queue");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_open_refused);
	tcase_add_test(tc, test_first_failure_sticks);
	tcase_add_test(tc, test_broken_backend_ends_drain);
	tcase_add_test(tc, test_sync_completes_at_once);
	suite_add_tcase(s, tc);
	return s;
}
