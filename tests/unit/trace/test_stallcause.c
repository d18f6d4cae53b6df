/* Why a stall happened: trace/stallcause.c's rules at their boundaries
 * (50% of the span, 90% of the limit, two requests at once), the
 * evidence kept for them (timeline, journal, events'
 * text form), and recorded runs explained again from their events:
 * the same causes as the run said, the cause each rig was built for, and
 * commits that agree with jbd2's own statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace/stallcause.h"
#include "trace_fixture.h"

#define MS 1000000ull

/* A stall of 1 s in which nothing held anything. */
static struct stall_evidence quiet(void)
{
	return (struct stall_evidence){ .duration_ns = 1000 * MS, .what = "fsync",
					.site = "jbd2_log_wait_commit",
					.stall = { .span_ns = 1000 * MS } };
}

static enum ws_stall_cause cause_of(const struct stall_evidence *ev)
{
	char why[256];

	return stall_cause(ev, why, sizeof(why));
}

START_TEST(test_nothing_held_it)
{
	struct stall_evidence ev = quiet();
	char why[256];

	ck_assert_int_eq(stall_cause(&ev, why, sizeof(why)), WS_CAUSE_UNKNOWN);
	ck_assert_ptr_nonnull(strstr(why, "jbd2_log_wait_commit"));
}
END_TEST

/* Rule 1: paused by the dirty limit for half the stall, before all. */
START_TEST(test_dirty_at_half)
{
	struct stall_evidence ev = quiet();

	ev.paused_ns = 499 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.paused_ns = 500 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DIRTY);
	ev.paused_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DIRTY);
	ev.limit_bps = 1 << 20;
	ev.stall.bytes = 1 << 20;
	ev.stall.busy_ns = 5000 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DIRTY);
}
END_TEST

/* Rule 2: the device wrote at 90% of the cgroup's limit or more, in
 * bytes or in requests a second; before the span's judgement. */
START_TEST(test_limit_at_90_percent)
{
	struct stall_evidence ev = quiet();
	char why[256];

	ev.limit_bps = 100 << 20;	/* 100 MiB/s; the span is 1 s */
	ev.stall.bytes = 89 << 20;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.bytes = 90 << 20;
	ck_assert_int_eq(stall_cause(&ev, why, sizeof(why)), WS_CAUSE_LIMIT);
	ck_assert_ptr_nonnull(strstr(why, "limit of 100.0 MiB/s"));
	ev.stall.bytes = 91 << 20;
	ev.stall.busy_ns = 5000 * MS;	/* a queue too: the limit set it */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
	ev.limit_bps = 0;		/* no limit, no such cause */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
	ev = quiet();
	ev.limit_iops = 100;
	ev.stall.requests = 89;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.requests = 90;
	ck_assert_int_eq(stall_cause(&ev, why, sizeof(why)), WS_CAUSE_LIMIT);
	ck_assert_ptr_nonnull(strstr(why, "limit of 100/s"));
	ev.stall.requests = 91;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_LIMIT);
}
END_TEST

/* Rule 3 over the stall: two requests at once on average make a queue;
 * fewer, busy half the span, the device. */
START_TEST(test_queue_depth_of_two)
{
	struct stall_evidence ev = quiet();

	ev.stall.requests = 40;
	ev.stall.max_service_ns = 100 * MS;
	ev.stall.busy_ns = 1999 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DEVICE);
	ev.stall.busy_ns = 2000 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
	ev.stall.busy_ns = 2001 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
}
END_TEST

START_TEST(test_device_busy_half)
{
	struct stall_evidence ev = quiet();
	char why[256];

	ev.stall.requests = 2;
	ev.stall.max_service_ns = 450 * MS;
	ev.stall.busy_ns = 499 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.busy_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, why, sizeof(why)), WS_CAUSE_DEVICE);
	ck_assert_ptr_nonnull(strstr(why, "the longest 450 ms"));
	ev.stall.busy_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DEVICE);
}
END_TEST

/* A request that waited half the span to be issued: a queue. */
START_TEST(test_waited_to_be_issued)
{
	struct stall_evidence ev = quiet();

	ev.stall.max_queue_ns = 499 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_UNKNOWN);
	ev.stall.max_queue_ns = 500 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
	ev.stall.max_queue_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
}
END_TEST

/* Commits that covered half the stall: their span is judged, and with
 * neither a queue nor a busy device, the commit's own work. */
START_TEST(test_commits_judged)
{
	struct stall_evidence ev = quiet();
	char why[256];

	ev.commit_tid = 412;
	ev.commit_ns = 900 * MS;
	ev.logging_ns = 890 * MS;
	ev.commit.span_ns = 900 * MS;
	ev.commit.busy_ns = 100 * MS;
	ev.stall.busy_ns = 3000 * MS;	/* the stall's own span: a queue */
	ev.commit_covered_ns = 499 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
	ev.commit_covered_ns = 500 * MS;
	ck_assert_int_eq(stall_cause(&ev, why, sizeof(why)), WS_CAUSE_JOURNAL);
	ck_assert_ptr_nonnull(strstr(why, "commit 412 ran 900 ms (890 ms logging)"));
	ev.commit_covered_ns = 501 * MS;
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_JOURNAL);
	ev.commit.busy_ns = 450 * MS;	/* half the commit's span */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_DEVICE);
	ev.commit.busy_ns = 1800 * MS;	/* two at once */
	ck_assert_int_eq(cause_of(&ev), WS_CAUSE_QUEUE);
}
END_TEST

START_TEST(test_cause_names)
{
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_QUEUE), "queue behind other writes");
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_LIMIT), "cgroup I/O limit");
	ck_assert_str_eq(ws_stall_cause_name(WS_CAUSE_NOT_TRACED), "");
	for (int c = WS_CAUSE_DEVICE; c < WS_CAUSE_NR; c++)
		ck_assert_int_gt(strlen(ws_stall_cause_name((enum ws_stall_cause)c)), 0);
}
END_TEST

/* Buckets of 10 ms; a run that outgrows them merges pairs and keeps
 * every request and byte, and the longest service. */
START_TEST(test_timeline_buckets)
{
	static struct timeline tl;
	struct tl_window w;

	timeline_init(&tl, 1000 * MS);
	timeline_add(&tl, 1005 * MS, 4096, 2 * MS, 1 * MS);
	timeline_add(&tl, 1015 * MS, 8192, 7 * MS, 0);
	timeline_window(&tl, 1000 * MS, 1009 * MS, &w);
	ck_assert_uint_eq(w.requests, 1);
	ck_assert_uint_eq(w.bytes, 4096);
	ck_assert_uint_eq(w.to_ns - w.from_ns, 10 * MS);
	timeline_window(&tl, 1000 * MS, 1010 * MS, &w);
	ck_assert_uint_eq(w.requests, 2);
	ck_assert_uint_eq(w.max_service_ns, 7 * MS);
	ck_assert_uint_eq(w.service_ns, 9 * MS);
	/* the 4097th bucket: twice as wide, nothing lost */
	timeline_add(&tl, 1000 * MS + TL_BUCKETS * TL_FIRST_NS, 4096, 50 * MS, 0);
	ck_assert_uint_eq(tl.width_ns, 2 * TL_FIRST_NS);
	timeline_window(&tl, 0, UINT64_MAX / 2, &w);
	ck_assert_uint_eq(w.requests, 3);
	ck_assert_uint_eq(w.bytes, 16384);
	ck_assert_uint_eq(w.max_service_ns, 50 * MS);
	timeline_window(&tl, 1000 * MS, 1019 * MS, &w);
	ck_assert_uint_eq(w.requests, 2);	/* one merged bucket */
}
END_TEST

static void commit_event(struct journal *j, enum jnl_phase p, uint64_t ts, uint32_t tid)
{
	journal_event(j, &(struct jnl_event){ .phase = p, .ts_ns = ts, .tid = tid,
					      .blocks = 10, .logged = 12 });
}

/* Phases from one tracepoint to the next; a commit begun before the
 * trace is not counted; the one covering most of a span is named. */
START_TEST(test_journal_phases)
{
	static struct journal j;
	struct ws_journal_figures f;
	struct jnl_commit c;
	uint64_t covered;

	journal_init(&j);
	commit_event(&j, JNL_LOGGING, 1 * MS, 6);	/* begun before the trace */
	commit_event(&j, JNL_END, 2 * MS, 6);
	commit_event(&j, JNL_START, 10 * MS, 7);
	commit_event(&j, JNL_LOCKING, 11 * MS, 7);
	commit_event(&j, JNL_FLUSHING, 13 * MS, 7);
	commit_event(&j, JNL_LOGGING, 16 * MS, 7);
	commit_event(&j, JNL_STATS, 29 * MS, 7);
	commit_event(&j, JNL_END, 30 * MS, 7);
	commit_event(&j, JNL_START, 40 * MS, 8);
	commit_event(&j, JNL_LOCKING, 40 * MS, 8);
	commit_event(&j, JNL_FLUSHING, 40 * MS, 8);
	commit_event(&j, JNL_LOGGING, 41 * MS, 8);
	commit_event(&j, JNL_END, 100 * MS, 8);
	journal_take(&j, &f);
	ck_assert(f.on);
	ck_assert_uint_eq(f.commits, 2);
	ck_assert_uint_eq(f.time_ns, 20 * MS + 60 * MS);
	ck_assert_uint_eq(f.max_ns, 60 * MS);
	ck_assert_uint_eq(f.locked_ns, 2 * MS);
	ck_assert_uint_eq(f.flushing_ns, 3 * MS + 1 * MS);
	ck_assert_uint_eq(f.logging_ns, 14 * MS + 59 * MS);
	ck_assert_uint_eq(f.blocks, 10);
	journal_take(&j, &f);
	ck_assert_uint_eq(f.commits, 0);
	ck_assert_uint_eq(j.run.commits, 2);
	ck_assert(journal_overlap(&j, 25 * MS, 45 * MS, &c, &covered));
	ck_assert_uint_eq(covered, 5 * MS + 5 * MS);
	ck_assert_uint_eq(c.tid, 7);	/* 5 ms each: the first kept */
	ck_assert(journal_overlap(&j, 25 * MS, 50 * MS, &c, &covered));
	ck_assert_uint_eq(c.tid, 8);
	ck_assert(!journal_overlap(&j, 31 * MS, 39 * MS, &c, &covered));
	ck_assert_uint_eq(covered, 0);
}
END_TEST

/* Each kind of event to text and back. */
START_TEST(test_event_lines)
{
	struct trace_event in[3], out;
	char buf[256];
	FILE *f;

	memset(in, 0, sizeof(in));
	in[0].kind = TE_BLOCK;
	in[0].blk.kind = BLK_ISSUE;
	in[0].blk.ts_ns = 123456789;
	in[0].blk.sector = 4242;
	in[0].blk.nr_sector = 2048;
	strcpy(in[0].blk.rwbs, "WS");
	in[1].kind = TE_JOURNAL;
	in[1].jnl.phase = JNL_STATS;
	in[1].jnl.ts_ns = 5;
	in[1].jnl.tid = 77;
	in[1].jnl.blocks = 12;
	in[1].jnl.logged = 14;
	in[2].kind = TE_DIRTY;
	in[2].dirty.ts_ns = 9;
	in[2].dirty.tid = 4321;
	in[2].dirty.pause_ns = 200 * MS;
	for (int i = 0; i < 3; i++) {
		f = fmemopen(buf, sizeof(buf), "w");
		ck_assert_ptr_nonnull(f);
		trace_event_write(f, &in[i]);
		fclose(f);
		ck_assert_int_eq(trace_event_parse(buf, &out), 1);
		ck_assert_int_eq(out.kind, in[i].kind);
	}
	ck_assert_int_eq(trace_event_parse("D 123456789 4242 2048 WS\n", &out), 1);
	ck_assert(out.blk.kind == BLK_ISSUE && out.blk.ts_ns == 123456789 &&
		  out.blk.sector == 4242 && out.blk.nr_sector == 2048 &&
		  !strcmp(out.blk.rwbs, "WS"));
	ck_assert_int_eq(trace_event_parse("J B 5 77 12 14\n", &out), 1);
	ck_assert(out.jnl.phase == JNL_STATS && out.jnl.ts_ns == 5 && out.jnl.tid == 77 &&
		  out.jnl.blocks == 12 && out.jnl.logged == 14);
	ck_assert_int_eq(trace_event_parse("P 9 4321 200000000\n", &out), 1);
	ck_assert(out.dirty.ts_ns == 9 && out.dirty.tid == 4321 &&
		  out.dirty.pause_ns == 200 * MS);
	ck_assert_int_eq(trace_event_parse("# a comment\n", &out), 0);
	ck_assert_int_eq(trace_event_parse("\n", &out), 0);
	ck_assert_int_eq(trace_event_parse("J X 1 2\n", &out), -1);
	ck_assert_int_eq(trace_event_parse("J B 1 2\n", &out), -1);
	ck_assert_int_eq(trace_event_parse("Z 1\n", &out), -1);
}
END_TEST

/* A dirty pause counts for its own thread only, and only its part
 * inside the stall. */
START_TEST(test_pauses_by_thread)
{
	static struct evidence ev;
	struct trace_event e = { .kind = TE_DIRTY };
	struct stall_query q = { .start_ns = 1000 * MS, .duration_ns = 400 * MS,
				 .what = "fsync", .site = "", .tid = 11 };
	char why[256];

	evidence_init(&ev, 1000 * MS);
	e.dirty = (struct dirty_event){ 900 * MS, 11, 200 * MS };	/* 100 ms inside */
	evidence_event(&ev, &e);
	e.dirty = (struct dirty_event){ 1100 * MS, 12, 300 * MS };	/* another thread */
	evidence_event(&ev, &e);
	ck_assert_int_eq(evidence_explain(&ev, &q, why, sizeof(why)), WS_CAUSE_UNKNOWN);
	e.dirty = (struct dirty_event){ 1200 * MS, 11, 100 * MS };	/* 200 ms now */
	evidence_event(&ev, &e);
	ck_assert_int_eq(evidence_explain(&ev, &q, why, sizeof(why)), WS_CAUSE_DIRTY);
	ck_assert_ptr_nonnull(strstr(why, "paused 200 ms"));
	ck_assert_uint_eq(ev.jn.run.dirty_pauses, 3);
	ck_assert_uint_eq(ev.jn.run.dirty_paused_ns, 600 * MS);
}
END_TEST

/* Recorded runs, each on a rig made for one cause (record.sh). */
static const struct {
	const char *file, *cause;
} rigs[] = {
	{ "limit-ext4-loop.events", "cgroup I/O limit" },
	{ "queue-ext4-loop.events", "queue behind other writes" },
	{ "device-ext4-loop.events", "device" },
};

static struct evidence *replay(const struct recorded *r)
{
	struct evidence *ev = malloc(sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, r->origin_ns);
	for (size_t i = 0; i < r->n; i++)
		evidence_event(ev, &r->ev[i]);
	evidence_settle(ev, true);
	return ev;
}

/* Explained again from the events: what the run said, and the cause the
 * rig was built for among them. */
START_TEST(test_recorded_causes)
{
	struct recorded r;
	struct evidence *ev;
	bool seen = false;

	recorded_load(rigs[_i].file, &r);
	ck_assert_uint_gt(r.nstalls, 0);
	ck_assert_uint_gt(r.origin_ns, 0);
	ev = replay(&r);
	for (unsigned int i = 0; i < r.nstalls; i++) {
		const struct recorded_stall *s = &r.stalls[i];
		struct stall_query q = { s->start_ns, s->duration_ns, "fsync", s->site,
					 s->tid, r.limit_bps, r.limit_iops };
		char why[256];
		enum ws_stall_cause c = evidence_explain(ev, &q, why, sizeof(why));

		ck_assert_msg(!strcmp(ws_stall_cause_name(c), s->cause),
			      "%s: stall %u: %s now, %s then (%s)", rigs[_i].file, i,
			      ws_stall_cause_name(c), s->cause, why);
		seen |= !strcmp(s->cause, rigs[_i].cause);
	}
	ck_assert_msg(seen, "%s: no stall of %s", rigs[_i].file, rigs[_i].cause);
	recorded_free(&r);
	free(ev);
}
END_TEST

/* The traced commits against jbd2's own statistics over the run: one
 * commit at most at each end falls outside the traced span; the logging
 * phase's time within 10% (jbd2 counts it in jiffies and prints an
 * average in whole ms: up to 1 ms a commit besides). */
START_TEST(test_commits_agree_with_jbd2)
{
	struct recorded r;
	struct evidence *ev;
	double logging_ms;

	recorded_load(rigs[_i].file, &r);
	ck_assert_uint_gt(r.transactions, 0);
	ev = replay(&r);
	ck_assert_uint_le(ev->jn.run.commits, r.transactions);
	ck_assert_uint_ge(ev->jn.run.commits + 2, r.transactions);
	logging_ms = (double)ev->jn.run.logging_ns / 1e6;
	ck_assert_msg(logging_ms >= r.logging_ms * 0.9 - r.transactions &&
		      logging_ms <= r.logging_ms * 1.1 + r.transactions,
		      "%s: traced logging %.0f ms, jbd2 %lu ms", rigs[_i].file,
		      logging_ms, r.logging_ms);
	recorded_free(&r);
	free(ev);
}
END_TEST

#define NRIGS (int)(sizeof(rigs) / sizeof(rigs[0]))

Suite *stallcause_suite(void)
{
	Suite *s = suite_create("stallcause");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_nothing_held_it);
	tcase_add_test(tc, test_dirty_at_half);
	tcase_add_test(tc, test_limit_at_90_percent);
	tcase_add_test(tc, test_queue_depth_of_two);
	tcase_add_test(tc, test_device_busy_half);
	tcase_add_test(tc, test_waited_to_be_issued);
	tcase_add_test(tc, test_commits_judged);
	tcase_add_test(tc, test_cause_names);
	tcase_add_test(tc, test_timeline_buckets);
	tcase_add_test(tc, test_journal_phases);
	tcase_add_test(tc, test_event_lines);
	tcase_add_test(tc, test_pauses_by_thread);
	tcase_add_loop_test(tc, test_recorded_causes, 0, NRIGS);
	tcase_add_loop_test(tc, test_commits_agree_with_jbd2, 0, NRIGS);
	suite_add_tcase(s, tc);
	return s;
}
