/* The kernel's flusher at work on the traced disk: trace/flusher.c on
 * made streams (a work's pages from its start to its end, matched by its
 * cgroup; the kernel's reasons; a start never ended; an end whose start
 * came before the trace) and the events' text form. */
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

/* A work counts as it begins; a background work starts at LONG_MAX pages
 * and ends with what is left: it wrote the difference; a sync work its
 * own count's difference; one still running at the end is said. */
START_TEST(test_works_and_pages)
{
	struct rig r = { 0 };

	flusher_init(&r.f);
	wb(&r, false, 100, INT64_MAX, 0, 1);
	ck_assert_uint_eq(r.run.wb_works, 1);
	ck_assert_uint_eq(flusher_running(&r.f), 1);
	wb(&r, true, 900, INT64_MAX - 2560, 0, 1);
	wb(&r, false, 1000, 1024, 2, 1);
	wb(&r, true, 1100, 24, 2, 1);
	ck_assert_uint_eq(r.run.wb_works, 2);
	ck_assert_uint_eq(r.run.wb_ended, 2);
	ck_assert_uint_eq(r.run.wb_pages, 2560 + 1000);
	ck_assert_uint_eq(flusher_running(&r.f), 0);
	ck_assert_uint_eq(r.run.wb_by_reason[0], 1);	/* background */
	ck_assert_uint_eq(r.run.wb_by_reason[2], 1);	/* sync */
	ck_assert_uint_eq(r.iv.wb_works, 2);
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
}
END_TEST

/* An end whose start came before the trace: a work seen, of unknown pages; a
 * reason newer than the kernel's list counts as the last one; a start
 * whose end was lost gives way to its cgroup's next; 16 cgroups' works at
 * most, the oldest going for a 17th. */
START_TEST(test_edges)
{
	struct rig r = { 0 };

	flusher_init(&r.f);
	wb(&r, true, 50, 10, 1, 5);
	ck_assert_uint_eq(r.run.wb_works, 1);
	ck_assert_uint_eq(r.run.wb_ended, 0);
	ck_assert_uint_eq(r.run.wb_pages, 0);
	wb(&r, true, 60, 10, 42, 5);
	ck_assert_uint_eq(r.run.wb_by_reason[WS_WB_REASONS - 1], 1);
	wb(&r, false, 100, 9000, 0, 5);
	wb(&r, false, 200, 500, 0, 5);		/* the first's end lost */
	wb(&r, true, 300, 100, 0, 5);
	ck_assert_uint_eq(r.run.wb_pages, 400);
	ck_assert_uint_eq(r.run.wb_works, 4);
	ck_assert_uint_eq(r.run.wb_ended, 1);
	ck_assert_uint_eq(FLUSHER_OPEN, 16);
	for (uint64_t c = 0; c < 17; c++)
		wb(&r, false, 1000 + c, 100, 0, 100 + c);
	wb(&r, true, 2000, 0, 0, 100);		/* the oldest: gone */
	wb(&r, true, 2001, 0, 0, 101);
	wb(&r, true, 2002, 0, 0, 116);
	ck_assert_uint_eq(r.run.wb_pages, 400 + 100 + 100);
	ck_assert_uint_eq(r.run.wb_works, 4 + 17 + 1);	/* 100's end: seen anew */
	ck_assert_uint_eq(r.run.wb_ended, 3);
	ck_assert_uint_eq(flusher_running(&r.f), 14);
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
	ck_assert_uint_eq(j.wb_ended, 1);
	ck_assert_uint_eq(j.wb_pages, 10240);
	evidence_take(ev, &block, &j);
	ck_assert(j.wb_on);
	ck_assert_uint_eq(j.wb_works, 0);
	free(ev);
}
END_TEST

Suite *flusher_suite(void)
{
	Suite *s = suite_create("flusher");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_works_and_pages);
	tcase_add_test(tc, test_by_cgroup);
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_text_and_evidence);
	suite_add_tcase(s, tc);
	return s;
}
