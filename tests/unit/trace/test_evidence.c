/* What the tracer keeps of a run and a stall's evidence gathered from
 * it (trace/evidence.c): the timeline's buckets, the journal's commits
 * and phases, the events' text form, the pauses and wbt's changes, each
 * into the figures a stall's reason keeps (the rules that judge them:
 * test_stallcause.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace/stallcause.h"

#define MS 1000000ull

static void commit_event(struct journal *j, enum jnl_phase p, uint64_t ts, uint32_t tid)
{
	journal_event(j, &(struct jnl_event){ .phase = p, .ts_ns = ts, .tid = tid,
					      .blocks = 10, .logged = 12 });
}

/* Buckets of 10 ms; a run that outgrows them merges pairs and keeps
 * every request and byte, and the longest service; a request's time at
 * the device counts in the buckets it was spent in; a span ending on an
 * edge takes no more bucket; a span the timeline has not reached is an
 * empty window with the span's own edges. */
START_TEST(test_timeline_buckets)
{
	static struct timeline tl;
	struct tl_window w;

	timeline_init(&tl, 1000 * MS);
	timeline_add(&tl, 1005 * MS, 4096, true, 2 * MS, 1 * MS);
	timeline_add(&tl, 1015 * MS, 8192, false, 7 * MS, 0);
	timeline_window(&tl, 1000 * MS, 1010 * MS, &w);
	ck_assert_uint_eq(w.requests, 1);
	ck_assert_uint_eq(w.bytes, 4096);
	ck_assert_uint_eq(w.wbytes, 4096);
	ck_assert_uint_eq(w.to_ns - w.from_ns, 10 * MS);
	/* the read's 7 ms: 2 of them in [1000, 1010), 5 in the next */
	ck_assert_uint_eq(w.service_ns, 2 * MS + 2 * MS);
	timeline_window(&tl, 1000 * MS, 1011 * MS, &w);
	ck_assert_uint_eq(w.requests, 2);
	ck_assert_uint_eq(w.wrequests, 1);
	ck_assert_uint_eq(w.max_service_ns, 7 * MS);
	ck_assert_uint_eq(w.service_ns, 9 * MS);
	/* the 4097th bucket: twice as wide, nothing lost */
	timeline_add(&tl, 1000 * MS + TL_BUCKETS * TL_FIRST_NS, 4096, true, 50 * MS, 0);
	ck_assert_uint_eq(tl.width_ns, 2 * TL_FIRST_NS);
	timeline_window(&tl, 0, UINT64_MAX / 2, &w);
	ck_assert_uint_eq(w.requests, 3);
	ck_assert_uint_eq(w.bytes, 16384);
	ck_assert_uint_eq(w.max_service_ns, 50 * MS);
	ck_assert_uint_eq(w.service_ns, 59 * MS);
	timeline_window(&tl, 1000 * MS, 1019 * MS, &w);
	ck_assert_uint_eq(w.requests, 2);	/* one merged bucket */
	/* a bio's wait for its request, in the bucket where it got one */
	timeline_request_wait(&tl, 1005 * MS, 3 * MS);
	timeline_request_wait(&tl, 1006 * MS, 2 * MS);
	timeline_window(&tl, 1000 * MS, 1010 * MS, &w);
	ck_assert_uint_eq(w.request_waits, 2);
	ck_assert_uint_eq(w.max_request_wait_ns, 3 * MS);
	/* long after the last completion: nothing, over the span itself */
	timeline_window(&tl, 200000 * MS, 215000 * MS, &w);
	ck_assert_uint_eq(w.requests, 0);
	ck_assert_uint_eq(w.from_ns, 200000 * MS);
	ck_assert_uint_eq(w.to_ns, 215000 * MS);
	timeline_free(&tl);
}
END_TEST

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
	journal_free(&j);
}
END_TEST

/* Each kind of event to text and back. */
START_TEST(test_event_lines)
{
	struct trace_event in[5], out;
	char buf[256];
	FILE *f;

	memset(in, 0, sizeof(in));
	in[0].kind = TE_BLOCK;
	in[0].blk.kind = BLK_GETRQ;
	in[0].blk.ts_ns = 123456789;
	in[0].blk.sector = 4242;
	in[0].blk.nr_sector = 2048;
	strcpy(in[0].blk.rwbs, "WS");
	strcpy(in[0].blk.comm, "kworker/u8:2");
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
	in[2].dirty.writer = true;
	in[3].kind = TE_WBT;
	in[3].wbt = (struct wbt_event){ 11, -2, 100000, 16, 32, 64 };
	in[4].kind = TE_EXTENT;
	in[4].ext = (struct extent_event){ 278528, 65536 };
	for (int i = 0; i < 5; i++) {
		f = fmemopen(buf, sizeof(buf), "w");
		ck_assert_ptr_nonnull(f);
		trace_event_write(f, &in[i]);
		fclose(f);
		ck_assert_int_eq(trace_event_parse(buf, &out), 1);
		ck_assert_int_eq(out.kind, in[i].kind);
		switch (out.kind) {
		case TE_CULPRIT:	/* never written */
			ck_abort();
			break;
		case TE_BLOCK:
			ck_assert(out.blk.kind == in[i].blk.kind && out.blk.ts_ns == in[i].blk.ts_ns &&
				  out.blk.sector == in[i].blk.sector &&
				  out.blk.nr_sector == in[i].blk.nr_sector);
			ck_assert_str_eq(out.blk.rwbs, in[i].blk.rwbs);
			ck_assert_str_eq(out.blk.comm, "kworker/u8:2");
			break;
		case TE_JOURNAL:
			ck_assert(out.jnl.phase == in[i].jnl.phase && out.jnl.ts_ns == in[i].jnl.ts_ns &&
				  out.jnl.tid == in[i].jnl.tid && out.jnl.blocks == in[i].jnl.blocks &&
				  out.jnl.logged == in[i].jnl.logged);
			break;
		case TE_DIRTY:
			ck_assert(out.dirty.ts_ns == in[i].dirty.ts_ns && out.dirty.tid == in[i].dirty.tid &&
				  out.dirty.pause_ns == in[i].dirty.pause_ns && out.dirty.writer);
			break;
		case TE_WBT:
			ck_assert(out.wbt.ts_ns == 11 && out.wbt.step == -2 &&
				  out.wbt.window_us == 100000 && out.wbt.bg == 16 &&
				  out.wbt.normal == 32 && out.wbt.max == 64);
			break;
		case TE_EXTENT:
			ck_assert(out.ext.sector == 278528 && out.ext.nr_sector == 65536);
			break;
		case TE_WBT_STAT:	/* test_wbt_figures's */
		case TE_WB:	/* test_flusher.c's */
		case TE_BIO:	/* test_biostat.c's text form */
			ck_abort_msg("no bio event written here");
			break;
		}
	}
	/* a task name with a blank is one word on the line */
	strcpy(in[0].blk.comm, "Web Content");
	f = fmemopen(buf, sizeof(buf), "w");
	trace_event_write(f, &in[0]);
	fclose(f);
	ck_assert_int_eq(trace_event_parse(buf, &out), 1);
	ck_assert_str_eq(out.blk.comm, "Web_Content");
	ck_assert_int_eq(trace_event_parse("D 123456789 4242 2048 WS\n", &out), 1);
	ck_assert(out.blk.kind == BLK_ISSUE && out.blk.ts_ns == 123456789 &&
		  out.blk.sector == 4242 && out.blk.nr_sector == 2048 &&
		  !strcmp(out.blk.rwbs, "WS"));
	ck_assert_int_eq(trace_event_parse("J B 5 77 12 14\n", &out), 1);
	ck_assert(out.jnl.phase == JNL_STATS && out.jnl.ts_ns == 5 && out.jnl.tid == 77 &&
		  out.jnl.blocks == 12 && out.jnl.logged == 14);
	ck_assert_int_eq(trace_event_parse("P 9 4321 200000000\n", &out), 1);
	ck_assert(out.dirty.ts_ns == 9 && out.dirty.tid == 4321 &&
		  out.dirty.pause_ns == 200 * MS && !out.dirty.writer);
	ck_assert_int_eq(trace_event_parse("P 9 4321 200000000 w\n", &out), 1);
	ck_assert(out.dirty.writer);
	ck_assert_int_eq(trace_event_parse("P 9 4321 200000000 x\n", &out), -1);
	ck_assert_int_eq(trace_event_parse("# a comment\n", &out), 0);
	ck_assert_int_eq(trace_event_parse("\n", &out), 0);
	ck_assert_int_eq(trace_event_parse("J X 1 2\n", &out), -1);
	ck_assert_int_eq(trace_event_parse("J B 1 2\n", &out), -1);
	ck_assert_int_eq(trace_event_parse("Z 1\n", &out), -1);
	ck_assert_int_eq(trace_event_parse("W 1 2 3 4 5\n", &out), -1);
}
END_TEST

/* One request that took the device 8 s, completing inside a 600 ms stall:
 * the device's time inside the stall is the stall's, one request at
 * once, not 13: the device, not a queue. */
START_TEST(test_one_slow_request)
{
	static struct evidence ev;
	struct trace_event e = { .kind = TE_BLOCK };
	struct stall_query q = { .start_ns = 9000 * MS, .duration_ns = 600 * MS,
				 .site = "folio_wait_bit", .tid = 1 };
	struct ws_stall_reason r;

	evidence_init(&ev, 1000 * MS);
	e.blk = (struct blk_event){ .kind = BLK_GETRQ, .ts_ns = 1500 * MS, .sector = 8,
				    .nr_sector = 8, .rwbs = "WS" };
	evidence_event(&ev, &e);
	e.blk.kind = BLK_ISSUE;
	e.blk.ts_ns = 1550 * MS;
	evidence_event(&ev, &e);
	e.blk.kind = BLK_COMPLETE;
	e.blk.ts_ns = 9550 * MS;
	evidence_event(&ev, &e);
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_DEVICE);
	ck_assert_int_eq(r.span.finding, WS_SPAN_BUSY);
	ck_assert_uint_eq(r.span.dev.busy_ns, 550 * MS);
	ck_assert_uint_eq(r.span.dev.span_ns, 600 * MS);
	ck_assert_uint_eq(r.span.dev.max_service_ns, 8000 * MS);
	/* a stall after the last completion: the device did nothing in it */
	q.start_ns = 45000 * MS;
	q.duration_ns = 15000 * MS;
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_UNKNOWN);
	ck_assert_uint_eq(r.span.dev.busy_ns, 0);
	ck_assert_uint_eq(r.span.dev.span_ns, 15000 * MS);
	evidence_free(&ev);
}
END_TEST

/* Two commits in a 1 s stall in jbd2_log_wait_commit, 300 and 150 ms of
 * it: together under half, the stall judged on its own span, the longer
 * one named with its own share, not the two's. */
START_TEST(test_commits_share_a_stall)
{
	static struct evidence ev;
	struct stall_query q = { .start_ns = 2000 * MS, .duration_ns = 1000 * MS,
				 .site = "jbd2_log_wait_commit", .tid = 1 };
	struct ws_stall_reason r;

	evidence_init(&ev, 1000 * MS);
	commit_event(&ev.jn, JNL_START, 1900 * MS, 411);
	commit_event(&ev.jn, JNL_LOGGING, 1950 * MS, 411);
	commit_event(&ev.jn, JNL_END, 2300 * MS, 411);
	commit_event(&ev.jn, JNL_START, 2500 * MS, 412);
	commit_event(&ev.jn, JNL_LOGGING, 2510 * MS, 412);
	commit_event(&ev.jn, JNL_END, 2650 * MS, 412);
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_UNKNOWN);
	ck_assert(r.span.named && !r.span.on_commit);
	ck_assert_uint_eq(r.span.tid, 411);
	ck_assert_uint_eq(r.span.commit_ns, 400 * MS);
	ck_assert_uint_eq(r.span.own_ns, 300 * MS);
	evidence_free(&ev);
}
END_TEST

/* The rings keep the last commits and pauses: a stall from before the
 * oldest kept is judged without them, and its reason says so. */
START_TEST(test_overwritten_evidence)
{
	static struct evidence ev;
	struct trace_event e = { .kind = TE_JOURNAL };
	struct stall_query q = { .start_ns = 5 * MS, .duration_ns = 2 * MS,
				 .site = "", .tid = 1 };
	struct ws_stall_reason r;

	evidence_init(&ev, 1 * MS);
	for (uint32_t tid = 1; tid <= JNL_KEPT; tid++) {
		e.jnl = (struct jnl_event){ .phase = JNL_START, .ts_ns = tid * 10 * MS, .tid = tid };
		evidence_event(&ev, &e);
		e.jnl.phase = JNL_END;
		e.jnl.ts_ns += MS;
		evidence_event(&ev, &e);
	}
	evidence_explain(&ev, &q, &r);
	ck_assert_msg(!r.overwritten, "all kept");
	e.jnl = (struct jnl_event){ .phase = JNL_START, .ts_ns = (JNL_KEPT + 1) * 10 * MS,
				    .tid = JNL_KEPT + 1 };
	evidence_event(&ev, &e);
	e.jnl.phase = JNL_END;
	e.jnl.ts_ns += MS;
	evidence_event(&ev, &e);
	evidence_explain(&ev, &q, &r);
	ck_assert(r.overwritten);
	q.start_ns = 30 * MS;	/* the oldest kept began at 20 ms */
	evidence_explain(&ev, &q, &r);
	ck_assert(!r.overwritten);
	evidence_free(&ev);
}
END_TEST

/* wbt's limits as they stood at the stall's end: the last change before
 * it, and the changes while it lasted; kept in a ring of WBT_KEPT. */
START_TEST(test_wbt_evidence)
{
	static struct evidence ev;
	struct trace_event e = { .kind = TE_WBT };
	struct stall_query q = { .start_ns = 1000 * MS, .duration_ns = 400 * MS,
				 .site = "rq_qos_wait", .tid = 11 };
	struct ws_stall_reason r;

	evidence_init(&ev, 1000 * MS);
	ev.wbt_lat_us = 2000;
	ev.wbt_traced = true;
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_WBT);
	ck_assert(r.wbt.traced && !r.wbt.known);
	e.wbt = (struct wbt_event){ 900 * MS, 1, 100000, 8, 16, 32 };	/* before */
	evidence_event(&ev, &e);
	e.wbt = (struct wbt_event){ 1200 * MS, 2, 100000, 4, 8, 16 };	/* inside */
	evidence_event(&ev, &e);
	e.wbt = (struct wbt_event){ 1400 * MS, 3, 100000, 2, 4, 8 };	/* at its end: after */
	evidence_event(&ev, &e);
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_WBT);
	ck_assert(r.wbt.known);
	ck_assert_uint_eq(r.wbt.normal, 8);
	ck_assert_uint_eq(r.wbt.bg, 4);
	ck_assert_int_eq(r.wbt.step, 2);
	ck_assert_uint_eq(r.wbt.changes, 1);
	/* a ring: the oldest go, the order stays */
	for (unsigned int i = 0; i < WBT_KEPT; i++) {
		e.wbt = (struct wbt_event){ 1300 * MS + i, -1, 100000, 1, 2, 3 };
		evidence_event(&ev, &e);
	}
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_WBT);
	ck_assert_uint_eq(r.wbt.normal, 2);
	ck_assert_uint_eq(r.wbt.bg, 1);
	ck_assert_int_eq(r.wbt.step, -1);
	ck_assert_uint_eq(r.wbt.changes, 1024);
	ck_assert(!r.wbt.bios_waited);	/* no bio traced */
	/* bios that got their request while it lasted: the longest wait
	 * among them, measured; one before the stall's bucket is not */
	e = (struct trace_event){ .kind = TE_BIO };
	e.bio = (struct bio_event){ .kind = BIO_QUEUE, .ts_ns = 900 * MS, .sector = 8, .nr_sector = 8 };
	strcpy(e.bio.rwbs, "WS");
	evidence_event(&ev, &e);
	e.bio.ts_ns = 1050 * MS;
	e.bio.sector = 64;
	evidence_event(&ev, &e);
	e = (struct trace_event){ .kind = TE_BLOCK };
	e.blk = (struct blk_event){ .kind = BLK_GETRQ, .ts_ns = 990 * MS, .sector = 8, .nr_sector = 8 };
	strcpy(e.blk.rwbs, "WS");
	evidence_event(&ev, &e);	/* 90 ms, before the stall */
	e.blk.ts_ns = 1350 * MS;
	e.blk.sector = 64;
	evidence_event(&ev, &e);	/* 300 ms, inside */
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_WBT);
	ck_assert(r.wbt.bios_waited);
	ck_assert_uint_eq(r.wbt.max_bio_wait_ns, 300 * MS);
	evidence_free(&ev);
}
END_TEST

/* A dirty pause counts for its own thread only, and only its part
 * inside the stall. */
START_TEST(test_pauses_by_thread)
{
	static struct evidence ev;
	struct trace_event e = { .kind = TE_DIRTY };
	struct stall_query q = { .start_ns = 1000 * MS, .duration_ns = 400 * MS,
				 .site = "", .tid = 11 };
	struct ws_stall_reason r;

	evidence_init(&ev, 1000 * MS);
	e.dirty = (struct dirty_event){ 900 * MS, 11, 200 * MS, false };	/* 100 ms inside */
	evidence_event(&ev, &e);
	e.dirty = (struct dirty_event){ 1100 * MS, 12, 300 * MS, false };	/* another thread */
	evidence_event(&ev, &e);
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_UNKNOWN);
	e.dirty = (struct dirty_event){ 1200 * MS, 11, 100 * MS, true };	/* 200 ms now */
	evidence_event(&ev, &e);
	ck_assert_int_eq(evidence_explain(&ev, &q, &r), WS_CAUSE_DIRTY);
	ck_assert_uint_eq(r.dirty.paused_ns, 200 * MS);
	ck_assert_uint_eq(ev.jn.run.dirty_pauses, 3);
	ck_assert_uint_eq(ev.jn.run.dirty_paused_ns, 600 * MS);
	/* of them a writer thread's (11 is one, in this made stream) */
	ck_assert_uint_eq(ev.jn.run.writer_paused_ns, 100 * MS);
	evidence_free(&ev);
}
END_TEST

Suite *evidence_suite(void)
{
	Suite *s = suite_create("evidence");
	TCase *tc = tcase_create("kept");

	tcase_add_test(tc, test_timeline_buckets);
	tcase_add_test(tc, test_journal_phases);
	tcase_add_test(tc, test_event_lines);
	tcase_add_test(tc, test_one_slow_request);
	tcase_add_test(tc, test_commits_share_a_stall);
	tcase_add_test(tc, test_overwritten_evidence);
	tcase_add_test(tc, test_wbt_evidence);
	tcase_add_test(tc, test_pauses_by_thread);
	suite_add_tcase(s, tc);
	return s;
}
