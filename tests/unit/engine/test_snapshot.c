/* test_snapshot.c - the door between threads: counters as the reader
 * samples them, the marks ring (spacing, order, a full ring dropping the
 * newest, room again after a take), the first verdict standing, the
 * outcome published by snapshot_finish and the waits it and
 * snapshot_close end, and a probe's door (in-flight, site, take and swap).
 * Times are the test's own numbers; waits end by the event they wait for,
 * the test case's timeout being the only clock. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "lib/c.h"
#include "system/clock.h"
#include "lib/hist.h"
#include "engine/snapshot.h"
#include "suites.h"

#define MS UINT64_C(1000000)

static struct ws_snapshot snap;

static void setup(void)
{
	ck_assert_int_eq(snapshot_init(&snap), 0);
}

static void teardown(void)
{
	snapshot_destroy(&snap);
}

/* ---- counters ---- */

START_TEST(test_counters)
{
	struct ws_sample smp;

	memset(&smp, 0xff, sizeof(smp));
	snapshot_read(&snap, &smp);
	ck_assert_uint_eq(smp.start_ns, 0);	/* "not started" */
	ck_assert_uint_eq(smp.bytes, 0);
	ck_assert_uint_eq(smp.offset, 0);
	for (int t = 0; t < WS_T_NR; t++)
		ck_assert_uint_eq(smp.time_ns[t], 0);
	ck_assert(!snapshot_finished(&snap));
	ck_assert(!snapshot_closed(&snap));

	snapshot_start(&snap, 5000);
	snapshot_add_bytes(&snap, 4096, 4096);
	snapshot_add_bytes(&snap, 4096, 8192);
	snapshot_add_bytes(&snap, 100, 0);	/* wrapped: offset back to 0 */
	snapshot_add_time(&snap, WS_T_WRITE, 7);
	snapshot_add_time(&snap, WS_T_WRITE, 3);
	snapshot_add_time(&snap, WS_T_RATE, 11);
	snapshot_read(&snap, &smp);
	ck_assert_uint_eq(smp.start_ns, 5000);
	ck_assert_uint_eq(smp.bytes, 8292);	/* bytes add up ... */
	ck_assert_uint_eq(smp.offset, 0);	/* ... the offset is the latest */
	ck_assert_uint_eq(smp.time_ns[WS_T_WRITE], 10);
	ck_assert_uint_eq(smp.time_ns[WS_T_RATE], 11);
	ck_assert_uint_eq(smp.time_ns[WS_T_FILL], 0);
	ck_assert_uint_eq(smp.time_ns[WS_T_WAIT], 0);
}
END_TEST

/* ---- marks ---- */

/* Marks offered at times t (ms since the start) with spacing `spacing`
 * ms; the ones that must be kept. */
static const struct {
	uint64_t spacing;
	uint64_t t[8];
	uint64_t kept[8];
} spacings[] = {
	/* 0: the minimum, WS_MARK_SPACING_NS (10 ms) */
	{ 0, { 1, 5, 10, 11, 12, 20, 21, 40 }, { 1, 11, 21, 40 } },
	/* under the minimum counts as the minimum */
	{ 3, { 1, 5, 10, 11, 12, 20, 21, 40 }, { 1, 11, 21, 40 } },
	{ 50, { 1, 30, 50, 51, 60, 100, 101, 500 }, { 1, 51, 101, 500 } },
	/* every buffer a mark when they are far apart */
	{ 0, { 100, 200, 300 }, { 100, 200, 300 } },
};

START_TEST(test_mark_spacing)
{
	struct ws_mark out[16];
	size_t n, want = 0;

	snap.mark_spacing_ns = spacings[_i].spacing * MS;
	for (int k = 0; k < 8 && spacings[_i].t[k]; k++)
		snapshot_mark(&snap, spacings[_i].t[k] * MS, (uint64_t)k * 1000,
			      (uint64_t)k);
	while (want < 8 && spacings[_i].kept[want])
		want++;
	n = snapshot_take_marks(&snap, out, ARRAY_SIZE(out));
	ck_assert_uint_eq(n, want);
	for (size_t k = 0; k < n; k++)
		ck_assert_uint_eq(out[k].t_ns, spacings[_i].kept[k] * MS);
	/* taken: nothing more until the next mark */
	ck_assert_uint_eq(snapshot_take_marks(&snap, out, ARRAY_SIZE(out)), 0);
}
END_TEST

/* The last buffer's mark is kept whatever the spacing (1 ms after one
 * at 10 ms, spacing 50 ms), so the marks say where writing ended; at the
 * time of the one before it, it is that one. */
START_TEST(test_mark_last)
{
	struct ws_mark out[4];

	snap.mark_spacing_ns = 50 * MS;
	snapshot_mark(&snap, 10 * MS, 4096, 1);
	snapshot_mark(&snap, 11 * MS, 8192, 2);	/* under the spacing: dropped */
	snapshot_mark_last(&snap, 11 * MS, 8192, 2);
	snapshot_mark_last(&snap, 11 * MS, 8192, 2);	/* the same: once */
	ck_assert_uint_eq(snapshot_take_marks(&snap, out, ARRAY_SIZE(out)), 2);
	ck_assert_uint_eq(out[1].t_ns, 11 * MS);
	ck_assert_uint_eq(out[1].bytes, 8192);
	ck_assert_uint_eq(out[1].pending, 2);
}
END_TEST

/* The figures of a mark are carried as given, in order, across takes
 * smaller than what is waiting. */
START_TEST(test_mark_take_in_parts)
{
	struct ws_mark out[4];
	uint64_t next = 0;

	for (uint64_t k = 1; k <= 10; k++)
		snapshot_mark(&snap, k * 10 * MS, k * 4096, k * 7);
	ck_assert_uint_eq(snapshot_take_marks(&snap, out, 0), 0);
	for (size_t n; (n = snapshot_take_marks(&snap, out, 4)) > 0;) {
		ck_assert_uint_le(n, 4);
		for (size_t i = 0; i < n; i++) {
			next++;
			ck_assert_uint_eq(out[i].t_ns, next * 10 * MS);
			ck_assert_uint_eq(out[i].bytes, next * 4096);
			ck_assert_uint_eq(out[i].pending, next * 7);
		}
	}
	ck_assert_uint_eq(next, 10);
}
END_TEST

/* A full ring keeps the oldest marks and drops new ones until the reader
 * takes some; the next mark after that is published again. */
START_TEST(test_mark_ring_full)
{
	static struct ws_mark out[WS_MARK_RING + 8];
	uint64_t t = 0, k;

	for (k = 1; k <= WS_MARK_RING + 5; k++) {
		t = k * WS_MARK_SPACING_NS;
		snapshot_mark(&snap, t, k, 0);
	}
	ck_assert_uint_eq(snapshot_take_marks(&snap, out, 1), 1);
	ck_assert_uint_eq(out[0].bytes, 1);
	/* one slot free: the next mark is kept, and is the newest */
	snapshot_mark(&snap, t + WS_MARK_SPACING_NS, 999999, 0);
	ck_assert_uint_eq(snapshot_take_marks(&snap, out, ARRAY_SIZE(out)),
			  WS_MARK_RING);
	for (k = 0; k < WS_MARK_RING - 1; k++)
		ck_assert_uint_eq(out[k].bytes, k + 2);
	ck_assert_uint_eq(out[WS_MARK_RING - 1].bytes, 999999);
	ck_assert_uint_eq(out[WS_MARK_RING - 1].t_ns, t + WS_MARK_SPACING_NS);
}
END_TEST

/* The ring's size, 8192 marks (allocated once): as many as it holds are
 * all taken, one more is dropped (the newest). */
static const struct {
	uint64_t offered, taken;
} ring_bound[] = {
	{ 8191, 8191 }, { 8192, 8192 }, { 8193, 8192 },
};

START_TEST(test_mark_ring_bound)
{
	static struct ws_mark out[8200];
	size_t n;

	for (uint64_t k = 1; k <= ring_bound[_i].offered; k++)
		snapshot_mark(&snap, k * WS_MARK_SPACING_NS, k, 0);
	n = snapshot_take_marks(&snap, out, ARRAY_SIZE(out));
	ck_assert_uint_eq(n, ring_bound[_i].taken);
	ck_assert_uint_eq(out[0].bytes, 1);
	ck_assert_uint_eq(out[n - 1].bytes, ring_bound[_i].taken);
}
END_TEST

/* ---- verdicts ---- */

START_TEST(test_request_stop_first_wins)
{
	ck_assert_int_eq(atomic_load(&snap.verdict), 0);
	snapshot_request_stop(&snap, WS_STOP_NOT_STEADY);
	snapshot_request_stop(&snap, WS_STOP_STEADY);
	ck_assert_int_eq(atomic_load(&snap.verdict), WS_STOP_NOT_STEADY);
}
END_TEST

/* Racing requests: exactly one stands, and it is one that was asked. */
struct racer {
	struct ws_snapshot *s;
	enum ws_stop_reason why;
	atomic_int *go;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	while (!atomic_load(r->go))
		;
	snapshot_request_stop(r->s, r->why);
	return NULL;
}

START_TEST(test_request_stop_race)
{
	atomic_int go = 0;
	struct racer r[2] = {
		{ &snap, WS_STOP_STEADY, &go },
		{ &snap, WS_STOP_NOT_STEADY, &go },
	};
	pthread_t tid[2];
	int v;

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&tid[i], NULL, race, &r[i]), 0);
	atomic_store(&go, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	v = atomic_load(&snap.verdict);
	ck_assert(v == WS_STOP_STEADY || v == WS_STOP_NOT_STEADY);
	/* and a late one changes nothing */
	snapshot_request_stop(&snap, v == WS_STOP_STEADY ? WS_STOP_NOT_STEADY :
			      WS_STOP_STEADY);
	ck_assert_int_eq(atomic_load(&snap.verdict), v);
}
END_TEST

/* ---- finish, close and the waits ---- */

START_TEST(test_finish_publishes_outcome)
{
	struct ws_outcome o = {
		.reason = WS_STOP_ERROR, .err = 28, .err_op = "write",
		.err_offset = 1 << 20, .end_ns = 123,
	};

	o.detail = WS_DETAIL_RESERVE;
	o.detail_bytes = 4096;
	snapshot_finish(&snap, &o);
	/* a copy: the writer's own struct may go */
	memset(&o, 0, sizeof(o));
	ck_assert(snapshot_finished(&snap));
	ck_assert(!snapshot_closed(&snap));
	ck_assert_int_eq(snap.outcome.reason, WS_STOP_ERROR);
	ck_assert_int_eq(snap.outcome.err, 28);
	ck_assert_str_eq(snap.outcome.err_op, "write");
	ck_assert_uint_eq(snap.outcome.err_offset, 1 << 20);
	ck_assert_int_eq(snap.outcome.detail, WS_DETAIL_RESERVE);
	ck_assert_uint_eq(snap.outcome.detail_bytes, 4096);
	ck_assert_uint_eq(snap.outcome.end_ns, 123);
}
END_TEST

/* A deadline already past: the waits report the state and return. */
START_TEST(test_wait_past_deadline)
{
	struct ws_outcome o = { .reason = WS_STOP_BOUND };

	ck_assert(!snapshot_wait_writer(&snap, 0));
	ck_assert(!snapshot_wait(&snap, 0));
	snapshot_finish(&snap, &o);
	ck_assert(snapshot_wait_writer(&snap, 0));
	/* the writer's end is not the end of every producer */
	ck_assert(!snapshot_wait(&snap, 0));
	snapshot_close(&snap);
	ck_assert(snapshot_wait(&snap, 0));
	ck_assert(snapshot_closed(&snap));
}
END_TEST

/* A waiter with a far deadline is woken by the event itself. */
struct waiter {
	bool writer;		/* snapshot_wait_writer, else snapshot_wait */
	atomic_bool waiting;
	bool result;
};

static void *wait_far(void *arg)
{
	struct waiter *w = arg;
	uint64_t far = ws_now_ns() + 3600 * UINT64_C(1000000000);

	atomic_store(&w->waiting, true);
	w->result = w->writer ? snapshot_wait_writer(&snap, far) :
				snapshot_wait(&snap, far);
	return NULL;
}

START_TEST(test_wait_woken)
{
	struct waiter w = { .writer = _i == 0 };
	struct ws_outcome o = { .reason = WS_STOP_TIME };
	pthread_t tid;

	ck_assert_int_eq(pthread_create(&tid, NULL, wait_far, &w), 0);
	/* most runs wake a sleeping waiter; if the event comes first the
	 * wait must see it at once - either way it returns true */
	while (!atomic_load(&w.waiting))
		;
	if (w.writer)
		snapshot_finish(&snap, &o);
	else
		snapshot_close(&snap);
	pthread_join(tid, NULL);	/* the case's timeout says "hung" */
	ck_assert(w.result);
}
END_TEST

/* ---- a probe's door ---- */

static struct ws_probe_door door;

static void door_setup(void)
{
	ck_assert_int_eq(probe_door_init(&door), 0);
}

static void door_teardown(void)
{
	probe_door_destroy(&door);
}

START_TEST(test_door_inflight_and_site)
{
	struct ws_probe_take t;
	char longsite[2 * WS_SITE_LEN];

	ck_assert_uint_eq(atomic_load(&door.inflight_since), 0);
	/* idle: a late sample must not label the next operation */
	probe_door_set_site(&door, "jbd2_log_wait_commit");
	probe_door_take(&door, &t);
	ck_assert_str_eq(t.site, "");
	ck_assert_uint_eq(t.inflight_since, 0);

	probe_door_begin(&door, 777);
	probe_door_set_site(&door, "folio_wait_bit");
	probe_door_take(&door, &t);
	ck_assert_uint_eq(t.inflight_since, 777);	/* stuck and visible */
	ck_assert_str_eq(t.site, "folio_wait_bit");
	ck_assert_uint_eq(hist_count(&t.hist), 0);

	/* a site longer than the field is cut, terminated */
	memset(longsite, 'x', sizeof(longsite) - 1);
	longsite[sizeof(longsite) - 1] = '\0';
	probe_door_set_site(&door, longsite);
	probe_door_take(&door, &t);
	ck_assert_uint_eq(strlen(t.site), WS_SITE_LEN - 1);

	/* the end clears both */
	probe_door_end(&door, 5 * MS, false, false);
	ck_assert_uint_eq(atomic_load(&door.inflight_since), 0);
	probe_door_take(&door, &t);
	ck_assert_str_eq(t.site, "");
	ck_assert_uint_eq(t.inflight_since, 0);
}
END_TEST

START_TEST(test_door_take_swaps)
{
	struct ws_probe_take t;
	static const uint64_t lat[] = { 1 * MS, 2 * MS, 600 * MS, 3 * MS };

	for (size_t i = 0; i < ARRAY_SIZE(lat); i++) {
		probe_door_begin(&door, 1000 + i);
		probe_door_end(&door, lat[i], lat[i] >= 500 * MS, false);
	}
	probe_door_take(&door, &t);
	ck_assert_uint_eq(hist_count(&t.hist), 4);
	ck_assert_uint_eq(t.stalls, 1);
	ck_assert_uint_eq(t.errors, 0);
	/* min and max are exact in a histogram (hist.h) */
	ck_assert_uint_eq(hist_min(&t.hist), 1 * MS);
	ck_assert_uint_eq(hist_max(&t.hist), 600 * MS);

	/* the door starts the next interval empty */
	probe_door_take(&door, &t);
	ck_assert_uint_eq(hist_count(&t.hist), 0);
	ck_assert_uint_eq(t.stalls, 0);

	/* errors are counted apart, and reset by the take too */
	probe_door_begin(&door, 5);
	probe_door_end(&door, 2 * MS, false, true);
	probe_door_begin(&door, 6);
	probe_door_end(&door, 2 * MS, true, true);
	probe_door_take(&door, &t);
	ck_assert_uint_eq(t.errors, 2);
	ck_assert_uint_eq(t.stalls, 1);
	probe_door_take(&door, &t);
	ck_assert_uint_eq(t.errors, 0);
	ck_assert_uint_eq(t.stalls, 0);
}
END_TEST

/* A probe thread publishing while the recorder takes: every operation is
 * in exactly one take.  The taker pauses between takes, as the recorder
 * does: a take copies a whole histogram under the lock, and one that
 * never let go would starve the producer (under ThreadSanitizer, past
 * the test's timeout). */
#define DOOR_OPS 5000

static void *door_producer(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < DOOR_OPS; i++) {
		probe_door_begin(&door, i + 1);
		probe_door_end(&door, (i % 100 + 1) * 1000, i % 1000 == 0, false);
	}
	return NULL;
}

START_TEST(test_door_concurrent_takes)
{
	struct ws_probe_take t;
	uint64_t seen = 0, stalls = 0;
	pthread_t tid;

	ck_assert_int_eq(pthread_create(&tid, NULL, door_producer, NULL), 0);
	while (seen < DOOR_OPS) {
		struct timespec pause = { 0, 100 * 1000 };

		probe_door_take(&door, &t);
		seen += hist_count(&t.hist);
		stalls += t.stalls;
		nanosleep(&pause, NULL);
	}
	pthread_join(tid, NULL);
	probe_door_take(&door, &t);
	ck_assert_uint_eq(hist_count(&t.hist), 0);
	ck_assert_uint_eq(seen, DOOR_OPS);
	ck_assert_uint_eq(stalls, DOOR_OPS / 1000);
}
END_TEST

Suite *snapshot_suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *ctr = tcase_create("counters");
	TCase *marks = tcase_create("marks");
	TCase *end = tcase_create("end");
	TCase *dr = tcase_create("door");

	tcase_add_checked_fixture(ctr, setup, teardown);
	tcase_add_test(ctr, test_counters);
	tcase_add_checked_fixture(marks, setup, teardown);
	tcase_add_loop_test(marks, test_mark_spacing, 0, ARRAY_SIZE(spacings));
	tcase_add_test(marks, test_mark_take_in_parts);
	tcase_add_test(marks, test_mark_last);
	tcase_add_test(marks, test_mark_ring_full);
	tcase_add_loop_test(marks, test_mark_ring_bound, 0, ARRAY_SIZE(ring_bound));
	tcase_add_checked_fixture(end, setup, teardown);
	tcase_set_timeout(end, 30);
	tcase_add_test(end, test_request_stop_first_wins);
	tcase_add_test(end, test_request_stop_race);
	tcase_add_test(end, test_finish_publishes_outcome);
	tcase_add_test(end, test_wait_past_deadline);
	tcase_add_loop_test(end, test_wait_woken, 0, 2);
	tcase_add_checked_fixture(dr, door_setup, door_teardown);
	tcase_set_timeout(dr, 60);
	tcase_add_test(dr, test_door_inflight_and_site);
	tcase_add_test(dr, test_door_take_swaps);
	tcase_add_test(dr, test_door_concurrent_takes);
	suite_add_tcase(s, ctr);
	suite_add_tcase(s, marks);
	suite_add_tcase(s, end);
	suite_add_tcase(s, dr);
	return s;
}
