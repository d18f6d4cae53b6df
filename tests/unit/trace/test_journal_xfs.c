/* xfs's log as the journal's commits (trace/journal.c): iclogs written
 * back to back are one log write - within 1 ms of each other, at the
 * edge and a nanosecond past it - an iclog's end read before its start
 * still matched, one begun before the trace or never done not counted,
 * a late one from an earlier write kept apart, the write still growing
 * counted at the end; and a stall that waited for one, in words. */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace/journal.h"
#include "trace_fixture.h"

#define MS 1000000ull

static void iclog(struct journal *j, uint64_t from, uint64_t to, uint64_t lsn,
		  uint32_t bytes)
{
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = from,
					      .lsn = lsn, .bytes = bytes });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = to,
					      .lsn = lsn });
}

static struct journal *fresh(void)
{
	static struct journal j;

	journal_free(&j);	/* the last test's */
	journal_init(&j);
	journal_traced(&j, true, true, true);
	return &j;
}

/* Three iclogs in flight together, a fourth starting as the third ends:
 * one write from the first start to the last end, all of it logging. */
START_TEST(test_back_to_back_is_one_write)
{
	struct journal *j = fresh();
	struct ws_journal_figures f;

	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 10 * MS, .lsn = 64, .bytes = 32768 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 11 * MS, .lsn = 128, .bytes = 32768 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 12 * MS, .lsn = 192, .bytes = 4096 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 15 * MS, .lsn = 128 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 14 * MS, .lsn = 64 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 20 * MS, .lsn = 192 });
	iclog(j, 20 * MS, 22 * MS, 200, 512);
	journal_settle(j, 22 * MS, true);
	journal_take(j, &f);
	ck_assert(f.on && f.xfs);
	ck_assert_uint_eq(f.commits, 1);
	ck_assert_uint_eq(f.iclogs, 4);
	ck_assert_uint_eq(f.log_bytes, 32768 + 32768 + 4096 + 512);
	ck_assert_uint_eq(f.time_ns, 12 * MS);
	ck_assert_uint_eq(f.logging_ns, 12 * MS);
	ck_assert_uint_eq(f.locked_ns + f.flushing_ns, 0);
}
END_TEST

/* The next iclog 1 ms after the last one's end belongs to the same
 * write; 1 ms and 1 ns after, to the next. */
START_TEST(test_gap_edge)
{
	static const struct { uint64_t gap_ns; uint64_t writes; } rows[] = {
		{ 999999, 1 }, { 1000000, 1 }, { 1000001, 2 },
	};
	struct journal *j = fresh();
	struct ws_journal_figures f;

	iclog(j, 10 * MS, 12 * MS, 8, 4096);
	iclog(j, 12 * MS + rows[_i].gap_ns, 14 * MS + rows[_i].gap_ns, 16, 4096);
	journal_settle(j, 0, true);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, rows[_i].writes);
	ck_assert_uint_eq(f.iclogs, 2);
	ck_assert_uint_eq(f.time_ns, rows[_i].writes == 1 ? 4 * MS + rows[_i].gap_ns : 4 * MS);
}
END_TEST

/* The CPUs' rings are read one by one: an iclog's end may come first.
 * An end with no start (begun before the trace) and a start with no end
 * count nothing. */
START_TEST(test_order_and_strays)
{
	struct journal *j = fresh();
	struct ws_journal_figures f;

	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 1 * MS, .lsn = 7 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 30 * MS, .lsn = 9 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 25 * MS, .lsn = 9, .bytes = 8192 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 90 * MS, .lsn = 11, .bytes = 8192 });
	journal_settle(j, 100 * MS, true);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 1);
	ck_assert_uint_eq(f.iclogs, 1);
	ck_assert_uint_eq(f.time_ns, 5 * MS);
}
END_TEST

/* An iclog of an earlier write read after the next write began is a
 * write of its own, not a stretch of the next one back to it. */
START_TEST(test_late_iclog_apart)
{
	struct journal *j = fresh();
	struct ws_journal_figures f;
	struct jnl_commit c;
	uint64_t covered;

	iclog(j, 50 * MS, 52 * MS, 2, 4096);
	iclog(j, 10 * MS, 12 * MS, 1, 4096);
	journal_settle(j, 60 * MS, true);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 2);
	ck_assert_uint_eq(f.time_ns, 4 * MS);
	ck_assert(journal_overlap(j, 0, 100 * MS, &c, &covered));
	ck_assert_uint_eq(covered, 4 * MS);
}
END_TEST

/* An iclog read late, from before the write counted already: 1 ms
 * before its start it extends it; a nanosecond further back it is a
 * write of its own (numbered after, in the order it was grouped). */
START_TEST(test_late_edge)
{
	static const struct { uint64_t gap_ns; uint64_t writes; } rows[] = {
		{ 1000000, 1 }, { 1000001, 2 },
	};
	struct journal *j = fresh();
	struct ws_journal_figures f;

	iclog(j, 50 * MS, 52 * MS, 2, 4096);
	journal_settle(j, 50 * MS, false);		/* grouped: the write open */
	iclog(j, 40 * MS, 50 * MS - rows[_i].gap_ns, 1, 4096);
	journal_settle(j, 0, true);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, rows[_i].writes);
	ck_assert_uint_eq(f.iclogs, 2);
}
END_TEST

/* A write goes on while an iclog that began in it is still in flight,
 * and while an end waits for its start (read in the next drain): after a
 * drain, neither closes it, and what comes next joins it. */
START_TEST(test_write_going)
{
	struct journal *j = fresh();
	struct ws_journal_figures f;

	iclog(j, 10 * MS, 11 * MS, 1, 4096);
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 10 * MS + 200000, .lsn = 2, .bytes = 4096 });
	journal_settle(j, 60 * MS, false);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 0);
	iclog(j, 50 * MS, 51 * MS, 3, 4096);
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 300 * MS, .lsn = 2 });
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 310 * MS, .lsn = 4 });
	journal_settle(j, 400 * MS, false);		/* 4's start not read yet */
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 0);
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 300 * MS + 500000, .lsn = 4, .bytes = 4096 });
	journal_settle(j, 400 * MS, false);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 1);
	ck_assert_uint_eq(f.iclogs, 4);
	ck_assert_uint_eq(f.time_ns, 300 * MS);
}
END_TEST

/* An iclog begun and never done is forgotten after 60 s, an end never
 * matched after 1 s: then the write they held open is counted. */
START_TEST(test_forgotten)
{
	struct journal *j = fresh();
	struct ws_journal_figures f;

	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = 5 * MS, .lsn = 9, .bytes = 4096 });
	iclog(j, 10 * MS, 11 * MS, 1, 4096);
	journal_settle(j, 60000 * MS + 5 * MS, false);	/* 60 s after it: kept */
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 0);
	journal_settle(j, 60000 * MS + 5 * MS + 1, false);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 1);
	journal_event(j, &(struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = 70000 * MS, .lsn = 7 });
	iclog(j, 70001 * MS, 70002 * MS, 8, 4096);
	journal_settle(j, 71000 * MS, false);		/* 1 s after the end: kept */
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 0);
	journal_settle(j, 71000 * MS + 1, false);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 1);
}
END_TEST

/* The write still growing counts once 1 ms has passed since its end,
 * or at the end of the run; not before. */
START_TEST(test_settle)
{
	struct journal *j = fresh();
	struct ws_journal_figures f;

	iclog(j, 10 * MS, 12 * MS, 1, 4096);
	journal_settle(j, 13 * MS, false);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 0);
	journal_settle(j, 13 * MS + 1, false);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 1);
	iclog(j, 20 * MS, 21 * MS, 2, 4096);
	journal_settle(j, 21 * MS, true);
	journal_take(j, &f);
	ck_assert_uint_eq(f.commits, 1);
	ck_assert_uint_eq(j->run.commits, 2);
}
END_TEST

/* An fsync that waited out a log write: named as the log write, with
 * its iclogs and bytes; the journal's cause when the device was neither
 * queued nor busy meanwhile. */
START_TEST(test_stall_on_a_log_write)
{
	static struct evidence ev;
	struct trace_event e = { .kind = TE_JOURNAL };
	struct stall_query q = { .start_ns = 100 * MS, .duration_ns = 400 * MS,
				 .site = "xlog_wait_on_iclog", .tid = 1 };
	struct explained x;

	evidence_init(&ev, 1 * MS);
	journal_traced(&ev.jn, true, true, true);
	for (uint32_t i = 0; i < 2; i++) {
		e.jnl = (struct jnl_event){ .phase = JNL_ICLOG, .ts_ns = (110 + i) * MS,
					    .lsn = 8 + i, .bytes = 262144 };
		evidence_event(&ev, &e);
		e.jnl = (struct jnl_event){ .phase = JNL_ICLOG_DONE, .ts_ns = (480 + i) * MS,
					    .lsn = 8 + i };
		evidence_event(&ev, &e);
	}
	evidence_settle(&ev, true);
	ck_assert_int_eq(explain_stall(&ev, &q, &x), WS_CAUSE_JOURNAL);
	ck_assert(x.st.reason.span.on_commit);
	ck_assert_uint_eq(x.st.reason.span.iclogs, 2);
	ck_assert_uint_eq(x.st.reason.span.log_bytes, 512 * 1024);
	ck_assert_msg(strstr(x.why, "waited in xlog_wait_on_iclog: log write 1 ran 371 ms (2 iclogs, 512 KiB)"),
		      "%s", x.why);
	evidence_free(&ev);
}
END_TEST

/* The recorded run's log writes, grouped once at its end. */
static uint64_t whole_commits(const struct recorded *r)
{
	static struct journal j;

	journal_init(&j);
	journal_traced(&j, true, true, true);
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == TE_JOURNAL)
			journal_event(&j, &r->ev[i].jnl);
	journal_settle(&j, 0, true);
	journal_free(&j);
	return j.run.commits;
}

/* A run recorded on xfs (record.sh xfs): the traced log writes against
 * xfs's own count of them over the run (/sys/fs/xfs/DEV/stats/stats):
 * as many iclogs, but one at each end that may fall outside the trace;
 * their bytes (the log records, without each iclog's header and padding
 * to the log's blocks) under what xfs wrote; settled after each drain of
 * 50 ms, as the tracer does, the same log writes as grouped at the end in
 * one go; the fsync that waited for the log named the log write it
 * waited out. */
START_TEST(test_recorded_xfs_log)
{
	static struct evidence ev;
	struct recorded r;
	bool named = false;
	uint64_t drained = 0;

	recorded_load("xfs-loop.events", &r);
	ck_assert_uint_gt(r.xfs_log_writes, 10);
	evidence_init(&ev, r.origin_ns);
	journal_traced(&ev.jn, true, true, true);
	for (size_t i = 0; i < r.n; i++) {
		/* settled as the tracer does, after each drain of 50 ms */
		if (i && r.ev[i].kind == TE_BLOCK && drained + 50 * MS < r.ev[i].blk.ts_ns) {
			evidence_settle(&ev, false);
			drained = r.ev[i].blk.ts_ns;
		}
		evidence_event(&ev, &r.ev[i]);
	}
	evidence_settle(&ev, true);
	ck_assert_uint_le(ev.jn.run.iclogs, r.xfs_log_writes);
	/* the writes as grouped at the end in one go: the same */
	ck_assert_uint_eq(ev.jn.run.commits, whole_commits(&r));
	ck_assert_uint_ge(ev.jn.run.iclogs + 2, r.xfs_log_writes);
	ck_assert_uint_lt(ev.jn.run.log_bytes, r.xfs_log_blocks * 512);
	ck_assert_uint_gt(ev.jn.run.log_bytes, r.xfs_log_blocks * 512 / 4);
	ck_assert_uint_gt(ev.jn.run.commits, 0);
	ck_assert_uint_le(ev.jn.run.commits, ev.jn.run.iclogs);
	for (unsigned int i = 0; i < r.nstalls; i++) {
		const struct recorded_stall *s = &r.stalls[i];
		struct stall_query q = { s->start_ns, s->duration_ns, s->site,
					 s->tid, r.limit_bps, r.limit_iops };
		struct explained x;

		explain_stall(&ev, &q, &x);
		if (!strcmp(s->site, "xlog_wait_on_iclog")) {
			ck_assert_msg(strstr(x.why, "waited in xlog_wait_on_iclog: log write "), "%s", x.why);
			named = true;
		}
	}
	ck_assert(named);
	recorded_free(&r);
	evidence_free(&ev);
}
END_TEST

Suite *journal_xfs_suite(void)
{
	Suite *s = suite_create("journal_xfs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_back_to_back_is_one_write);
	tcase_add_loop_test(tc, test_gap_edge, 0, 3);
	tcase_add_test(tc, test_order_and_strays);
	tcase_add_test(tc, test_late_iclog_apart);
	tcase_add_loop_test(tc, test_late_edge, 0, 2);
	tcase_add_test(tc, test_write_going);
	tcase_add_test(tc, test_forgotten);
	tcase_add_test(tc, test_settle);
	tcase_add_test(tc, test_stall_on_a_log_write);
	tcase_add_test(tc, test_recorded_xfs_log);
	suite_add_tcase(s, tc);
	return s;
}
