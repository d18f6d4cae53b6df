/* Where the trace ring dropped events: trace/lostspans.c on made takes
 * (spans, their growth, the ring's bound, a stall's reason) and on a run
 * recorded with a ring too small for its events (record.sh lost): the
 * figures short of the device's own count, every event lost in a span,
 * and each stall while events were lost saying its evidence is short. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace/lostspans.h"
#include "trace_fixture.h"

/* A take that lost nothing makes no span; losses take after take make one
 * growing span; after a clean take a new one begins; the fresh count is
 * what each take hands out. */
START_TEST(test_spans)
{
	struct lostspans l;

	lostspans_init(&l, 1000);
	ck_assert_uint_eq(lostspans_note(&l, 0, 2000), 0);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_uint_eq(lostspans_note(&l, 5, 3000), 5);
	ck_assert_uint_eq(lostspans_note(&l, 12, 4000), 7);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_uint_eq(l.span[0].from_ns, 2000);
	ck_assert_uint_eq(l.span[0].to_ns, 4000);
	ck_assert_uint_eq(l.span[0].lost, 12);
	ck_assert_uint_eq(lostspans_note(&l, 12, 5000), 0);
	ck_assert_uint_eq(lostspans_note(&l, 20, 6000), 8);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.span[1].from_ns, 5000);
	/* overlap, edges included */
	ck_assert_uint_eq(lostspans_within(&l, 4000, 4000), 12);
	ck_assert_uint_eq(lostspans_within(&l, 4001, 4999), 0);
	ck_assert_uint_eq(lostspans_within(&l, 0, 10000), 20);
	ck_assert_uint_eq(lostspans_within(&l, 6001, 7000), 0);
}
END_TEST

/* The last 64 spans are kept: the 65th takes the oldest's place. */
START_TEST(test_bounded)
{
	struct lostspans l;
	uint64_t total = 0;

	ck_assert_uint_eq(LOST_SPANS, 64);
	lostspans_init(&l, 0);
	for (uint64_t i = 0; i < 65; i++) {
		lostspans_note(&l, total, 100 * i + 50);	/* clean */
		lostspans_note(&l, ++total, 100 * i + 100);	/* one lost */
	}
	ck_assert_uint_eq(l.n, 65);
	ck_assert_uint_eq(lostspans_within(&l, 0, 100), 0);	/* the first: gone */
	ck_assert_uint_eq(lostspans_within(&l, 150, 200), 1);
	ck_assert_uint_eq(lostspans_within(&l, 0, 1000000), 64);
}
END_TEST

/* A stall the tracer found nothing in, as its words say it. */
#define NOTHING_HELD "waited in folio_wait_bit; no traced layer held it: " \
		     "the device was busy 0 s of 1.00 s, each request in <= 0 s"

static struct ws_stall nothing_held(void)
{
	return (struct ws_stall){
		.duration_ns = 1000000000, .site = "folio_wait_bit",
		.reason = { .cause = WS_CAUSE_UNKNOWN,
			    .span = { .dev = { .span_ns = 1000000000 } } },
	};
}

/* A stall's reason counts the events lost in it, and only there; its
 * words say so. */
START_TEST(test_lost_in_a_stall)
{
	struct lostspans l;
	struct ws_stall st = nothing_held();
	char why[WS_STALL_WORDS_LEN];

	lostspans_init(&l, 0);
	lostspans_note(&l, 30, 1000);
	lostspans_judge(&l, 2000, 3000, &st.reason);
	ck_assert_uint_eq(st.reason.lost_events, 0);
	ck_assert(!st.reason.before_trace);
	ck_assert_str_eq(ws_stall_words(&st, "fsync", why, sizeof(why)), NOTHING_HELD);
	lostspans_judge(&l, 500, 3000, &st.reason);
	ck_assert_uint_eq(st.reason.lost_events, 30);
	ck_assert_str_eq(ws_stall_words(&st, "fsync", why, sizeof(why)), NOTHING_HELD
			 " (the trace lost 30 events meanwhile: judged on part of the evidence)");
}
END_TEST

/* A stall that began before the trace started is marked so, and its
 * words say so: at its start and after it, nothing. */
static const struct before_row {
	uint64_t from_ns;
	bool said;
} before_rows[] = { { 999, true }, { 1000, false }, { 1001, false } };

START_TEST(test_began_before_the_trace)
{
	struct lostspans l;
	struct ws_stall st = nothing_held();
	char why[WS_STALL_WORDS_LEN];

	lostspans_init(&l, 1000);
	lostspans_judge(&l, before_rows[_i].from_ns, 5000, &st.reason);
	ck_assert_int_eq(st.reason.before_trace, before_rows[_i].said);
	ck_assert_str_eq(ws_stall_words(&st, "fsync", why, sizeof(why)), before_rows[_i].said ?
			 NOTHING_HELD " (it began before the trace started: judged on part of the evidence)" :
			 NOTHING_HELD);
}
END_TEST

/* The recorded run with a ring of one page a CPU: events were lost (the
 * ring's own count), the traced writes fall short of the device's count
 * by them, nothing overflows the tables, and each stall explained again
 * from the events has the cause the run gave it and, where the run's
 * takes saw events lost in it, says its evidence is short. */
START_TEST(test_recorded_lost_run)
{
	struct recorded rec;
	struct evidence *ev = malloc(sizeof(*ev));
	struct lostspans l;
	unsigned int said = 0;
	uint64_t lost;

	ck_assert_ptr_nonnull(ev);
	recorded_load("lost-ext4-loop.events", &rec);
	ck_assert_uint_gt(rec.nlost, 1);
	evidence_init(ev, rec.origin_ns);
	ev->wbt_lat_us = rec.wbt_lat_us;
	for (size_t i = 0; i < rec.n; i++)
		evidence_event(ev, &rec.ev[i]);
	evidence_settle(ev, true);
	lostspans_init(&l, rec.origin_ns);
	for (unsigned int i = 0; i < rec.nlost; i++)
		lostspans_note(&l, rec.lost[i].total, rec.lost[i].ts_ns);
	lost = rec.lost[rec.nlost - 1].total;
	ck_assert_uint_gt(lost, 1000);
	ck_assert_uint_eq(lostspans_within(&l, 0, UINT64_MAX), lost);
	ck_assert_uint_lt(ev->bs.run.dir[WS_BLK_WRITE].requests + ev->bs.run.unmatched,
			  rec.writes);
	ck_assert_uint_lt(ev->bs.used, BLK_INFLIGHT);
	ck_assert_uint_gt(rec.nstalls, 0);
	for (unsigned int k = 0; k < rec.nstalls; k++) {
		const struct recorded_stall *s = &rec.stalls[k];
		struct stall_query q = { s->start_ns, s->duration_ns, s->site, s->tid,
					 rec.limit_bps, rec.limit_iops };
		struct explained x;
		enum ws_stall_cause c = explain_stall(ev, &q, &x);

		ck_assert_msg(!strcmp(ws_stall_cause_name(c), s->cause), "stall %u: %s, the run said %s",
			      k, ws_stall_cause_name(c), s->cause);
		lostspans_judge(&l, s->start_ns, s->start_ns + s->duration_ns, &x.st.reason);
		explained_words(&x);
		/* the test's own reading of the takes: events were lost in
		 * the stall when a take's count grew over a span (the last
		 * take to it) that overlaps the stall */
		bool lossy = false;

		for (unsigned int i = 0; i < rec.nlost; i++) {
			uint64_t from = i ? rec.lost[i - 1].ts_ns : rec.origin_ns;
			uint64_t before = i ? rec.lost[i - 1].total : 0;

			lossy |= rec.lost[i].total > before && from <= s->start_ns + s->duration_ns &&
				 rec.lost[i].ts_ns >= s->start_ns;
		}
		ck_assert_msg(lossy == (x.st.reason.lost_events > 0) &&
			      lossy == (strstr(x.why, " (the trace lost ") != NULL),
			      "stall %u at %llu: lost in it %d, said: %s", k,
			      (unsigned long long)s->start_ns, lossy, x.why);
		said += lossy;
	}
	ck_assert_uint_gt(said, 0);
	recorded_free(&rec);
	evidence_free(ev);
	free(ev);
}
END_TEST

Suite *lostspans_suite(void)
{
	Suite *s = suite_create("lostspans");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_spans);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_lost_in_a_stall);
	tcase_add_loop_test(tc, test_began_before_the_trace, 0, 3);
	tcase_add_test(tc, test_recorded_lost_run);
	suite_add_tcase(s, tc);
	return s;
}
