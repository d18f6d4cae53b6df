/* Writeback throttling's figures (trace/evidence.c): each interval counts
 * wbt's changes of its limits and carries where they stood, and the
 * latencies it last judged by (wbt_stat), on made streams and on a run
 * recorded on wbt's rig; the stat's text form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace_fixture.h"

#define MS 1000000ull

static struct evidence *fresh(void)
{
	struct evidence *ev = malloc(sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, 0);
	return ev;
}

static void step(struct evidence *ev, uint64_t ts, int32_t s, uint32_t normal)
{
	struct trace_event e = { .kind = TE_WBT };

	e.wbt = (struct wbt_event){ ts, s, 100000, normal / 2, normal, normal * 2 };
	evidence_event(ev, &e);
}

/* Changes counted in the interval they fall in; the limits are the latest
 * change's in time (the rings are read CPU by CPU, not in time order) and
 * carry into the next interval, whose changes start from 0. */
START_TEST(test_changes_and_state)
{
	struct evidence *ev = fresh();
	struct ws_block_figures b;
	struct ws_journal_figures j;

	evidence_take(ev, &b, &j);
	ck_assert(!b.wbt_on);		/* off, or not traced: nothing said */
	step(ev, 30 * MS, 1, 16);
	step(ev, 10 * MS, -1, 64);	/* read later, happened earlier */
	evidence_take(ev, &b, &j);
	ck_assert(b.wbt_on && b.wbt.known);
	ck_assert_uint_eq(b.wbt_changes, 2);
	ck_assert_int_eq(b.wbt.step, 1);
	ck_assert_uint_eq(b.wbt.normal, 16);
	ck_assert_uint_eq(b.wbt.bg, 8);
	ck_assert_uint_eq(b.wbt.max, 32);
	evidence_take(ev, &b, &j);	/* no change: the same limits */
	ck_assert(b.wbt_on && b.wbt.known);
	ck_assert_uint_eq(b.wbt_changes, 0);
	ck_assert_uint_eq(b.wbt.normal, 16);
	step(ev, 40 * MS, 2, 8);
	evidence_take(ev, &b, &j);
	ck_assert_uint_eq(b.wbt_changes, 1);
	ck_assert_uint_eq(b.wbt.normal, 8);
	ck_assert_uint_eq(ev->bs.run.wbt_changes, 3);
	ck_assert_uint_eq(ev->bs.run.wbt.normal, 8);
	evidence_free(ev);
	free(ev);
}
END_TEST

/* wbt_stat: the latest look in time, carried as the limits are; its line
 * written and read back. */
START_TEST(test_stat)
{
	static const char *const line = "V 41720474011547 3100000 4200000 12 8800000 40\n";
	struct evidence *ev = fresh();
	struct ws_block_figures b;
	struct ws_journal_figures j;
	struct trace_event e;
	char buf[128];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	ck_assert_int_eq(trace_event_parse(line, &e), 1);
	ck_assert_int_eq(e.kind, TE_WBT_STAT);
	trace_event_write(f, &e);
	fclose(f);
	ck_assert_str_eq(buf, line);
	ck_assert_int_eq(trace_event_parse("V 1 2 3 4 5\n", &e), -1);
	ck_assert_int_eq(trace_event_parse(line, &e), 1);
	evidence_event(ev, &e);
	e.wbt_stat.ts_ns -= 1;		/* an older look, read later */
	e.wbt_stat.rmin = 1;
	evidence_event(ev, &e);
	evidence_take(ev, &b, &j);
	ck_assert(b.wbt_look.known);
	ck_assert_uint_eq(b.wbt_look.read_min_ns, 3100000);
	ck_assert_uint_eq(b.wbt_look.read_mean_ns, 4200000);
	ck_assert_uint_eq(b.wbt_look.write_mean_ns, 8800000);
	evidence_take(ev, &b, &j);
	ck_assert(b.wbt_look.known);
	ck_assert_uint_eq(b.wbt_look.read_min_ns, 3100000);
	evidence_free(ev);
	free(ev);
}
END_TEST

/* The run recorded on wbt's rig (record.sh wbt): every wbt_step it read
 * counted, and the limits at its end the latest one's. */
START_TEST(test_recorded)
{
	struct recorded rec;
	struct evidence *ev = fresh();
	uint64_t steps = 0, latest = 0;
	uint32_t normal = 0;

	recorded_load("wbt-ext4-loop.events", &rec);
	for (size_t i = 0; i < rec.n; i++) {
		if (rec.ev[i].kind == TE_WBT) {
			steps++;
			if (rec.ev[i].wbt.ts_ns >= latest) {
				latest = rec.ev[i].wbt.ts_ns;
				normal = rec.ev[i].wbt.normal;
			}
		}
		evidence_event(ev, &rec.ev[i]);
	}
	ck_assert_uint_gt(steps, 10);
	ck_assert(ev->bs.run.wbt_on);
	ck_assert_uint_eq(ev->bs.run.wbt_changes, steps);
	ck_assert_uint_eq(ev->bs.run.wbt.normal, normal);
	recorded_free(&rec);
	evidence_free(ev);
	free(ev);
}
END_TEST

Suite *wbt_suite(void)
{
	Suite *s = suite_create("wbt");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_changes_and_state);
	tcase_add_test(tc, test_stat);
	tcase_add_test(tc, test_recorded);
	suite_add_tcase(s, tc);
	return s;
}
