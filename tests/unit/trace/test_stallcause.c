/* Why a stall happened: trace/stallcause.c's rules at their boundaries
 * (50% of the span, 90% of the limit, two requests at once), each
 * judgement's cause and the figures it keeps; their words are tested
 * apart (record/test_stall_words.c), the evidence gathered for them too
 * (test_evidence.c), and recorded runs (test_recorded_causes.c). */
#include <string.h>

#include "lib/c.h"
#include "suites.h"
#include "trace/stallcause.h"

#define MS 1000000ull

/* A stall of 1 s in which nothing held anything. */
static struct stall_evidence quiet(void)
{
	return (struct stall_evidence){ .duration_ns = 1000 * MS,
					.site = "jbd2_log_wait_commit",
					.stall = { .span_ns = 1000 * MS } };
}

static enum ws_stall_cause cause_of(const struct stall_evidence *ev)
{
	struct ws_stall_reason r;

	return stall_cause(ev, &r);
}

/* Nothing held it: the stall's own span, as it was; nothing more said. */
START_TEST(test_nothing_held_it)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_UNKNOWN);
	ck_assert_int_eq(r.cause, WS_CAUSE_UNKNOWN);
	ck_assert_int_eq(r.span.finding, WS_SPAN_NOTHING);
	ck_assert(!r.span.on_commit && !r.span.named);
	ck_assert_uint_eq(r.span.dev.span_ns, 1000 * MS);
	ck_assert_uint_eq(r.span.dev.busy_ns, 0);
	ck_assert(!r.overwritten && !r.before_trace && !r.lost_events);
}
END_TEST

/* The reason is written whole: nothing of an earlier one stays (the
 * rules' figures share their room), and what lostspans.h adds is 0. */
START_TEST(test_reason_written_whole)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	memset(&r, 0xff, sizeof(r));
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_UNKNOWN);
	ck_assert(!r.span.named && !r.span.on_commit && !r.before_trace);
	ck_assert_uint_eq(r.span.tid, 0);
	ck_assert_uint_eq(r.span.commit_ns, 0);
	ck_assert_uint_eq(r.lost_events, 0);
	/* the run's early evidence gone, whatever the cause */
	ev.overwritten = true;
	ev.paused_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_DIRTY);
	ck_assert(r.overwritten);
}
END_TEST

/* Rule 1: paused by the dirty limit for half the stall, before all. */
START_TEST(test_dirty_at_half)
{
	struct stall_evidence ev = quiet();

	struct ws_stall_reason r;

	ev.paused_ns = 499 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.paused_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_DIRTY);
	ck_assert_uint_eq(r.dirty.paused_ns, 500 * MS);
	ev.paused_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DIRTY);
	ev.limit_bps = 1 << 20;
	ev.stall.wbytes = 1 << 20;
	ev.stall.busy_ns = 5000 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DIRTY);
}
END_TEST

/* Rule 2: the device wrote at 90% of the cgroup's limit or more, in
 * bytes or in requests a second; before the span's judgement. */
START_TEST(test_limit_at_90_percent)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.limit_bps = 100 << 20;	/* 100 MiB/s; the span is 1 s */
	ev.stall.wbytes = 89 << 20;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.wbytes = 90 << 20;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_LIMIT);
	ck_assert(!r.limit.requests);
	ck_assert_double_eq(r.limit.rate, 90 << 20);
	ck_assert_uint_eq(r.limit.limit, 100 << 20);
	ev.stall.wbytes = 91 << 20;
	ev.stall.busy_ns = 5000 * MS;	/* a queue too: the limit set it */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
	ev.stall.wbytes = 150 << 20;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
	ev.stall.wbytes = (150 << 20) + (1 << 20);
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
	ev.stall.wbytes = 91 << 20;
	ev.limit_bps = 0;		/* no limit, no such cause */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
	ev = quiet();
	ev.limit_iops = 100;
	ev.stall.wrequests = 89;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.wrequests = 90;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_LIMIT);
	ck_assert(r.limit.requests);
	ck_assert_double_eq(r.limit.rate, 90);
	ck_assert_uint_eq(r.limit.limit, 100);
	ev.stall.wrequests = 0;
	ev.stall.requests = 91;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);	/* reads */
	ev.stall.wrequests = 91;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
	/* at most 150% of it: far above, others' writes set the pace */
	ev.stall.wrequests = 150;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
	ev.stall.wrequests = 151;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
}
END_TEST

/* Rule 3 over the stall: two requests at once on average make a queue;
 * fewer, busy half the span, the device. */
START_TEST(test_queue_depth_of_two)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.stall.requests = 40;
	ev.stall.max_service_ns = 100 * MS;
	ev.stall.busy_ns = 1999 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_DEVICE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_BUSY);
	ev.stall.busy_ns = 2000 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_DEPTH);
	ck_assert_uint_eq(r.span.dev.busy_ns, 2000 * MS);
	ck_assert_uint_eq(r.span.dev.span_ns, 1000 * MS);
	ck_assert_uint_eq(r.span.dev.max_service_ns, 100 * MS);
	ev.stall.busy_ns = 2001 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
}
END_TEST

START_TEST(test_device_busy_half)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.stall.requests = 2;
	ev.stall.max_service_ns = 450 * MS;
	ev.stall.busy_ns = 499 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_UNKNOWN);
	ck_assert_int_eq(r.span.finding, WS_SPAN_NOTHING);
	ev.stall.busy_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_DEVICE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_BUSY);
	ck_assert_uint_eq(r.span.dev.max_service_ns, 450 * MS);
	ev.stall.busy_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DEVICE);
}
END_TEST

/* A request that waited half the span to be issued: a queue. */
START_TEST(test_waited_to_be_issued)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.stall.max_queue_ns = 499 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.max_queue_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_ISSUE_WAIT);
	ck_assert_uint_eq(r.span.dev.max_queue_ns, 500 * MS);
	ev.stall.max_queue_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
}
END_TEST

/* Commits that covered half the stall: their span is judged, and with
 * neither a queue nor a busy device, the commit's own work. */
START_TEST(test_commits_judged)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.commit_tid = 412;
	ev.commit_ns = 900 * MS;
	ev.logging_ns = 890 * MS;
	ev.commit_own_bytes = 48 * 4096;
	ev.commit.span_ns = 900 * MS;
	ev.commit.busy_ns = 100 * MS;
	ev.commit.wbytes = 1 << 20;
	ev.stall.busy_ns = 3000 * MS;	/* the stall's own span: a queue */
	ev.commit_covered_ns = 499 * MS;
	ev.commit_own_ns = 300 * MS;	/* the others' 199 ms are not its own */
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	/* under half together: judged on the stall's span, the longest
	 * commit named with its own share; an xfs log write as one */
	ck_assert(!r.span.on_commit && r.span.named);
	ck_assert_uint_eq(r.span.dev.busy_ns, 3000 * MS);
	ck_assert_uint_eq(r.span.tid, 412);
	ck_assert_uint_eq(r.span.commit_ns, 900 * MS);
	ck_assert_uint_eq(r.span.own_ns, 300 * MS);
	ck_assert_uint_eq(r.span.iclogs, 0);
	ev.commit_iclogs = 3;
	ev.site = "xlog_wait_on_iclog";
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	ck_assert(r.span.named);
	ck_assert_uint_eq(r.span.iclogs, 3);
	/* the probe waiting elsewhere (for its pages' writeback): not named */
	ev.site = "folio_wait_bit";
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	ck_assert(!r.span.named);
	ck_assert_uint_eq(r.span.tid, 0);
	ev.site = "jbd2_log_wait_commit";
	ev.commit_iclogs = 0;
	ev.commit_covered_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_JOURNAL);
	ck_assert(r.span.on_commit && !r.span.named);
	ck_assert_int_eq(r.span.finding, WS_SPAN_NOTHING);
	ck_assert_uint_eq(r.span.dev.span_ns, 900 * MS);	/* the commit's */
	ck_assert_uint_eq(r.span.dev.busy_ns, 100 * MS);
	ck_assert_uint_eq(r.span.tid, 412);
	ck_assert_uint_eq(r.span.commit_ns, 900 * MS);
	ck_assert_int_eq(r.span.phase, WS_PHASE_LOGGING);
	ck_assert_uint_eq(r.span.phase_ns, 890 * MS);
	ck_assert_uint_eq(r.span.log_bytes, 48 * 4096);
	ck_assert_uint_eq(r.span.wbytes, 1 << 20);
	ev.commit_covered_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_JOURNAL);
	ev.commit.busy_ns = 450 * MS;	/* half the commit's span */
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_DEVICE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_BUSY);
	ev.commit.busy_ns = 1800 * MS;	/* two at once */
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_DEPTH);
	ck_assert(r.span.on_commit);
	/* no commit ran (its time 0): none named, whatever it covered */
	ev.commit_ns = 0;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_QUEUE);
	ck_assert(!r.span.on_commit && !r.span.named);
}
END_TEST

/* The commit's longest phase: of equals, the one it runs first. */
static const struct phase_row {
	uint64_t locked, flushing, logging;
	enum ws_commit_phase phase;
	uint64_t ns;
} phase_rows[] = {
	{ 5, 3, 4, WS_PHASE_LOCKED, 5 },
	{ 5, 5, 4, WS_PHASE_LOCKED, 5 },
	{ 5, 4, 5, WS_PHASE_LOCKED, 5 },
	{ 4, 6, 5, WS_PHASE_FLUSHING, 6 },
	{ 4, 6, 6, WS_PHASE_FLUSHING, 6 },
	{ 4, 5, 6, WS_PHASE_LOGGING, 6 },
	{ 0, 0, 0, WS_PHASE_LOCKED, 0 },
};

START_TEST(test_longest_phase)
{
	const struct phase_row *row = &phase_rows[_i];
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.commit_ns = ev.commit_covered_ns = 1000 * MS;
	ev.locked_ns = row->locked * MS;
	ev.flushing_ns = row->flushing * MS;
	ev.logging_ns = row->logging * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_JOURNAL);
	ck_assert_int_eq(r.span.phase, row->phase);
	ck_assert_uint_eq(r.span.phase_ns, row->ns * MS);
}
END_TEST

/* Rule 3: the probe's write waited in rq_qos_wait (or a wbt_ function)
 * while wbt is on for the disk; after the dirty limit and the cgroup's,
 * before the journal and the device. */
START_TEST(test_wbt_held_it)
{
	struct stall_evidence ev = quiet();
	struct ws_stall_reason r;

	ev.site = "rq_qos_wait";
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);	/* wbt off */
	ev.wbt_lat_us = 2000;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_WBT);
	ck_assert_uint_eq(r.wbt.lat_us, 2000);
	ck_assert(!r.wbt.traced && !r.wbt.known);	/* no wbt_step read */
	ev.wbt_traced = true;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_WBT);
	ck_assert(r.wbt.traced && !r.wbt.known);
	ev.site = "wbt_wait";
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_WBT);
	ev.site = "rq_qos_waiter";	/* another function */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.site = "jbd2_log_wait_commit";
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	/* its limits as traced, in the words */
	ev.site = "rq_qos_wait";
	ev.wbt_known = true;
	ev.wbt_step = 3;
	ev.wbt_normal = 4;
	ev.wbt_bg = 2;
	ev.wbt_changes = 1;
	ev.stall.request_waits = 3;
	ev.stall.max_request_wait_ns = 70 * MS;
	ck_assert_int_eq(stall_cause(&ev, &r), WS_CAUSE_WBT);
	ck_assert(r.wbt.known);
	ck_assert_int_eq(r.wbt.step, 3);
	ck_assert_uint_eq(r.wbt.normal, 4);
	ck_assert_uint_eq(r.wbt.bg, 2);
	ck_assert_uint_eq(r.wbt.changes, 1);
	ck_assert(r.wbt.bios_waited);
	ck_assert_uint_eq(r.wbt.max_bio_wait_ns, 70 * MS);
	/* the rules before it still win */
	ev.limit_bps = 1 << 20;
	ev.stall.wbytes = 1 << 20;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
	ev.paused_ns = 500 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DIRTY);
}
END_TEST

Suite *stallcause_suite(void)
{
	Suite *s = suite_create("stallcause");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_nothing_held_it);
	tcase_add_test(tc, test_reason_written_whole);
	tcase_add_test(tc, test_dirty_at_half);
	tcase_add_test(tc, test_limit_at_90_percent);
	tcase_add_test(tc, test_queue_depth_of_two);
	tcase_add_test(tc, test_device_busy_half);
	tcase_add_test(tc, test_waited_to_be_issued);
	tcase_add_test(tc, test_commits_judged);
	tcase_add_loop_test(tc, test_longest_phase, 0, (int)ARRAY_SIZE(phase_rows));
	tcase_add_test(tc, test_wbt_held_it);
	suite_add_tcase(s, tc);
	return s;
}
