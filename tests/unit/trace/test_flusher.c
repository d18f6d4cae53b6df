/* The kernel's flusher at work on the traced disk: trace/flusher.c on
 * made streams (a work's passes and their pages, matched by its cgroup;
 * the kernel's reasons; events read out of order; an end whose start came
 * before the trace; the bound) and the events' text form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"

struct rig {
	struct flusher f;
	struct ws_journal_figures iv, run;
};

static void wb(struct rig *r, bool end, uint64_t ts, int64_t pages, int32_t reason,
	       uint64_t ino)
{
	struct wb_event e = { .ts_ns = ts, .end = end, .nr_pages = pages, .reason = reason,
			      .cgroup_ino = ino };

	flusher_event(&r->f, &e, &r->iv, &r->run);
}

/* A background work's passes: its count starts at LONG_MAX and each pass
 * ends with what is left, the next starting there: one work, its pages
 * each pass's difference; a sync work after it is another; one in a pass
 * at the end is running. */
START_TEST(test_passes_of_a_work)
{
	struct rig r = { 0 };

	flusher_init(&r.f);
	wb(&r, false, 100, INT64_MAX, 0, 1);
	ck_assert_uint_eq(r.run.wb_works, 1);
	ck_assert_uint_eq(flusher_running(&r.f), 1);
	wb(&r, true, 200, INT64_MAX - 2560, 0, 1);
	ck_assert_uint_eq(flusher_running(&r.f), 0);
	wb(&r, false, 210, INT64_MAX - 2560, 0, 1);	/* its next pass */
	wb(&r, true, 300, INT64_MAX - 3000, 0, 1);
	ck_assert_uint_eq(r.run.wb_works, 1);
	ck_assert_uint_eq(r.run.wb_pages, 3000);
	wb(&r, false, 400, 1024, 2, 1);			/* a sync work */
	wb(&r, true, 500, 24, 2, 1);
	wb(&r, false, 600, INT64_MAX, 0, 1);		/* a new background one */
	ck_assert_uint_eq(r.run.wb_works, 3);
	ck_assert_uint_eq(r.run.wb_pages, 4000);
	ck_assert_uint_eq(r.run.wb_by_reason[0], 2);	/* background */
	ck_assert_uint_eq(r.run.wb_by_reason[2], 1);	/* sync */
	ck_assert_uint_eq(r.iv.wb_works, 3);
	ck_assert_uint_eq(flusher_running(&r.f), 1);
	/* the same count after an end but another reason: another work */
	wb(&r, true, 700, 500, 0, 1);
	wb(&r, false, 800, 500, 3, 1);
	ck_assert_uint_eq(r.run.wb_works, 4);
	ck_assert_str_eq(ws_wb_reason_name(0), "background");
	ck_assert_str_eq(ws_wb_reason_name(3), "periodic");
	ck_assert_str_eq(ws_wb_reason_name(7), "foreign_flush");
	ck_assert_str_eq(ws_wb_reason_name(8), "?");
}
END_TEST

/* Two cgroups' works at once on one disk: each end is its own start's. */
START_TEST(test_by_cgroup)
{
	struct rig r = { 0 };

	flusher_init(&r.f);
	wb(&r, false, 100, 5000, 3, 11);
	wb(&r, false, 110, 800, 3, 22);
	wb(&r, true, 200, 700, 3, 22);
	wb(&r, true, 300, 4000, 3, 11);
	ck_assert_uint_eq(r.run.wb_works, 2);
	ck_assert_uint_eq(r.run.wb_pages, 100 + 1000);
	ck_assert_uint_eq(r.run.wb_by_reason[3], 2);
	ck_assert_uint_eq(flusher_running(&r.f), 0);
}
END_TEST

/* The rings are read CPU by CPU: a pass's end read before its start (the
 * worker moved) is one work, its pages whole once the start comes, even
 * with the next pass's start read between them. */
START_TEST(test_end_read_first)
{
	struct rig r = { 0 };

	flusher_init(&r.f);
	wb(&r, true, 200, INT64_MAX - 100, 0, 7);	/* pass 1's end */
	ck_assert_uint_eq(r.run.wb_works, 1);
	wb(&r, false, 210, INT64_MAX - 100, 0, 7);	/* pass 2's start */
	ck_assert_uint_eq(r.run.wb_works, 1);
	wb(&r, false, 100, INT64_MAX, 0, 7);		/* pass 1's start */
	ck_assert_uint_eq(r.run.wb_works, 1);
	ck_assert_uint_eq(r.run.wb_pages, 100);
	ck_assert_uint_eq(flusher_running(&r.f), 1);	/* pass 2 */
	wb(&r, true, 300, INT64_MAX - 150, 0, 7);
	ck_assert_uint_eq(r.run.wb_pages, 150);
	ck_assert_uint_eq(flusher_running(&r.f), 0);
}
END_TEST

/* An end whose start came before the trace: a work seen, of unknown
 * pages; a reason newer than the kernel's list counts as the last one; a
 * start whose end was lost gives way to the next start; 16 cgroups' wbs
 * at most, the one seen longest ago going for a 17th. */
START_TEST(test_edges)
{
	struct rig r = { 0 };

	flusher_init(&r.f);
	wb(&r, true, 50, 10, 1, 5);
	ck_assert_uint_eq(r.run.wb_works, 1);
	ck_assert_uint_eq(r.run.wb_pages, 0);
	wb(&r, true, 60, 10, 42, 5);
	ck_assert_uint_eq(r.run.wb_works, 2);
	ck_assert_uint_eq(r.run.wb_by_reason[WS_WB_REASONS - 1], 1);
	wb(&r, false, 100, 9000, 0, 5);
	wb(&r, false, 200, 500, 0, 5);		/* the first's end lost */
	wb(&r, true, 300, 100, 0, 5);
	ck_assert_uint_eq(r.run.wb_pages, 400);
	ck_assert_uint_eq(r.run.wb_works, 4);
	ck_assert_uint_eq(FLUSHER_WBS, 16);
	for (uint64_t c = 0; c < 16; c++)
		wb(&r, false, 1000 + c, 100, 0, 100 + c);	/* 5 the oldest: goes */
	ck_assert_uint_eq(flusher_running(&r.f), 16);
	wb(&r, false, 2000, 100, 0, 200);		/* 100, the oldest now, goes */
	ck_assert_uint_eq(flusher_running(&r.f), 16);
	wb(&r, true, 2001, 0, 0, 115);			/* kept: its pages */
	ck_assert_uint_eq(r.run.wb_pages, 400 + 100);
	wb(&r, true, 2002, 0, 0, 100);			/* its start forgotten */
	ck_assert_uint_eq(r.run.wb_pages, 400 + 100);
	ck_assert_uint_eq(r.run.wb_works, 4 + 17 + 1);	/* 100's end: seen anew */
}
END_TEST

/* The lines: written and read back; the evidence routes them into the
 * journal's figures and keeps them on in the next interval. */
START_TEST(test_text_and_evidence)
{
	static const char *const lines[] = {
		"F S 41720474011547 9223372036854775807 0 1\n",
		"F E 41720474011999 9223372036854765567 0 1\n",
	};
	struct evidence *ev = malloc(sizeof(*ev));
	struct ws_block_figures block;
	struct ws_journal_figures j;
	struct trace_event e;
	char buf[128];

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, 0);
	for (size_t i = 0; i < 2; i++) {
		FILE *f = fmemopen(buf, sizeof(buf), "w");

		ck_assert_int_eq(trace_event_parse(lines[i], &e), 1);
		ck_assert_int_eq(e.kind, TE_WB);
		trace_event_write(f, &e);
		fclose(f);
		ck_assert_str_eq(buf, lines[i]);
		evidence_event(ev, &e);
	}
	ck_assert_int_eq(trace_event_parse("F X 1 2 0 1\n", &e), -1);
	ck_assert_int_eq(trace_event_parse("F S 1 2 0\n", &e), -1);
	evidence_take(ev, &block, &j);
	ck_assert(j.wb_on);
	ck_assert_uint_eq(j.wb_works, 1);
	ck_assert_uint_eq(j.wb_pages, 10240);
	evidence_take(ev, &block, &j);
	ck_assert(j.wb_on);
	ck_assert_uint_eq(j.wb_works, 0);
	evidence_free(ev);
	free(ev);
}
END_TEST

Suite *flusher_suite(void)
{
	Suite *s = suite_create("flusher");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_passes_of_a_work);
	tcase_add_test(tc, test_by_cgroup);
	tcase_add_test(tc, test_end_read_first);
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_text_and_evidence);
	suite_add_tcase(s, tc);
	return s;
}
