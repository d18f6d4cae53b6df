/* Recorded runs explained again from their events (trace/evidence.c,
 * trace/stallcause.c): each run recorded on a rig built for one cause
 * (tests/fixtures/trace/record.sh) gets the same causes as the run said,
 * the cause the rig was built for among them, and commits that agree
 * with jbd2's own statistics of that run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace/stallcause.h"
#include "trace_fixture.h"

/* Recorded runs, each on a rig made for one cause (record.sh); jbd2's
 * counts beside them, except where the run's setup committed before the
 * trace started (wbt's dsync probe makes its file a commit a block;
 * unknown's start, under a CPU limit, takes a second and more). */
static const struct {
	const char *file, *cause;
	bool jbd2_counted;
} rigs[] = {
	{ "limit-ext4-loop.events", "cgroup I/O limit", true },
	{ "queue-ext4-loop.events", "queue behind other writes", true },
	{ "device-ext4-loop.events", "device", true },
	{ "wbt-ext4-loop.events", "writeback throttling", false },
	{ "dirty-ext4-loop.events", "dirty throttling", true },
	{ "journal-ext4-loop.events", "journal commit", true },
	{ "unknown-ext4-loop.events", "unknown", false },
	{ "xfs-loop.events", "queue behind other writes", false },	/* xfs_counted: test_journal_xfs.c */
};

static struct evidence *replay(const struct recorded *r)
{
	struct evidence *ev = malloc(sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, r->origin_ns);
	ev->wbt_lat_us = r->wbt_lat_us;
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
	ev->wbt_traced = r.wbt_lat_us > 0;	/* recorded since wbt's events were read */
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
 * phase's time within 10%, and a jiffy a commit besides (jbd2 times each
 * phase in jiffies, up to 10 ms at HZ=100, and prints an average of whole
 * jiffies: dirty's four commits logged 21 ms traced, 0 by jbd2). */
START_TEST(test_commits_agree_with_jbd2)
{
	struct recorded r;
	struct evidence *ev;
	double logging_ms;

	recorded_load(rigs[_i].file, &r);
	if (!rigs[_i].jbd2_counted) {
		ck_assert_uint_eq(r.transactions, 0);
		recorded_free(&r);
		return;
	}
	ck_assert_uint_gt(r.transactions, 0);
	ev = replay(&r);
	ck_assert_uint_le(ev->jn.run.commits, r.transactions);
	ck_assert_uint_ge(ev->jn.run.commits + 2, r.transactions);
	logging_ms = (double)ev->jn.run.logging_ns / 1e6;
	ck_assert_msg(logging_ms >= r.logging_ms * 0.9 - 10.0 * r.transactions &&
		      logging_ms <= r.logging_ms * 1.1 + 10.0 * r.transactions,
		      "%s: traced logging %.0f ms, jbd2 %lu ms", rigs[_i].file,
		      logging_ms, r.logging_ms);
	recorded_free(&r);
	free(ev);
}
END_TEST

#define NRIGS (int)(sizeof(rigs) / sizeof(rigs[0]))

Suite *recorded_causes_suite(void)
{
	Suite *s = suite_create("recorded_causes");
	TCase *tc = tcase_create("rigs");

	tcase_add_loop_test(tc, test_recorded_causes, 0, NRIGS);
	tcase_add_loop_test(tc, test_commits_agree_with_jbd2, 0, NRIGS);
	suite_add_tcase(s, tc);
	return s;
}
