/* Recorded runs explained again from their events (trace/evidence.c,
 * trace/stallcause.c): each run recorded on a rig built for one cause
 * (tests/fixtures/trace/record.sh) is judged against that design, not
 * against what the tool said when it was recorded: every stall gets a
 * cause the rig was built to produce, the cause it was built for holds
 * at least the share of the stall time its design gives it, and a stall
 * that waited at that cause's own kernel site gets it.  Then, as a
 * regression check, the causes the run said; and commits that agree with
 * jbd2's own statistics of that run. */
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
/*
 * The design of each rig (record.sh), written here from how it is built:
 * the cause it was built for, the share of the stall time that cause must
 * hold, the kernel wait site that is that cause's own (a stall waiting
 * there gets it; NULL: no site is only its), and the other causes the
 * design admits, with why.
 *   limit    a flood under a cgroup limit: every stall is the limit's
 *   queue    a flood on a disk slow by itself: commits wait behind it
 *   device   a disk of 3 requests a second, the writer paced to 32 KiB/s:
 *            the disk's own answers; the journal commit's requests also
 *            queue behind the probe's, some in flight at once (queue)
 *   wbt      queue's disks and flood with wbt's target under the cold
 *            reads: the probe's write waits in rq_qos_wait (wbt), and its
 *            fsync behind the flood as on queue's rig (queue), which is
 *            most of the stall time: wbt's share is no figure of the
 *            design, its site is
 *   dirty    a strict dirty limit the probe's own write runs into
 *   journal  a journal on a slow device of its own
 *   unknown  a CPU limit on the whole run: no traced layer
 *   xfs      queue's disks and flood under xfs: its log queues
 */
static const struct {
	const char *file, *cause;
	unsigned int share_pct;	/* of the stall time, at least */
	const char *site;	/* the cause's own wait site, or NULL */
	const char *admitted;	/* other causes its design gives, or NULL */
	bool jbd2_counted;
} rigs[] = {
	{ "limit-ext4-loop.events", "cgroup I/O limit", 100, NULL, NULL, true },
	{ "queue-ext4-loop.events", "queue behind other writes", 100, NULL, NULL, true },
	{ "device-ext4-loop.events", "device", 50, NULL, "queue behind other writes", true },
	{ "wbt-ext4-loop.events", "writeback throttling", 0, "rq_qos_wait", "queue behind other writes", false },
	{ "dirty-ext4-loop.events", "dirty throttling", 100, "balance_dirty_pages", NULL, true },
	{ "journal-ext4-loop.events", "journal commit", 100, NULL, NULL, true },
	{ "unknown-ext4-loop.events", "unknown", 100, NULL, NULL, false },
	{ "xfs-loop.events", "queue behind other writes", 100, NULL, NULL, false },	/* xfs_counted: test_journal_xfs.c */
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

/* Explained again from the events, judged by the rig's design (above):
 * each stall a cause the design gives, the designed one's share of the
 * stall time, its own site; then what the run said, the same. */
START_TEST(test_recorded_causes)
{
	struct recorded r;
	struct evidence *ev;
	uint64_t total_ns = 0, designed_ns = 0;
	bool seen = false;

	recorded_load(rigs[_i].file, &r);
	ck_assert_uint_gt(r.nstalls, 0);
	ck_assert_uint_gt(r.origin_ns, 0);
	ev = replay(&r);
	ev->wbt_traced = r.wbt_lat_us > 0;	/* recorded since wbt's events were read */
	for (unsigned int i = 0; i < r.nstalls; i++) {
		const struct recorded_stall *s = &r.stalls[i];
		struct stall_query q = { s->start_ns, s->duration_ns, s->site,
					 s->tid, r.limit_bps, r.limit_iops };
		struct explained x;
		enum ws_stall_cause c = explain_stall(ev, &q, &x);
		const char *why = x.why;

		const char *name = ws_stall_cause_name(c);
		bool designed = !strcmp(name, rigs[_i].cause);
		bool dup = false;

		ck_assert_msg(designed || (rigs[_i].admitted && !strcmp(name, rigs[_i].admitted)),
			      "%s: stall %u: %s, a cause the rig was not built for (%s)",
			      rigs[_i].file, i, name, why);
		ck_assert_msg(!rigs[_i].site || strcmp(s->site, rigs[_i].site) || designed,
			      "%s: stall %u waited in %s, %s's own site, but reads %s (%s)",
			      rigs[_i].file, i, s->site, rigs[_i].cause, name, why);
		ck_assert_msg(!strcmp(name, s->cause),
			      "%s: stall %u: %s now, %s then (%s)", rigs[_i].file, i,
			      name, s->cause, why);
		/* a stall is recorded once a probe thread and once a site */
		for (unsigned int k = 0; k < i; k++)
			dup |= r.stalls[k].start_ns == s->start_ns &&
			       r.stalls[k].duration_ns == s->duration_ns;
		if (dup)
			continue;
		total_ns += s->duration_ns;
		designed_ns += designed ? s->duration_ns : 0;
		seen |= designed;
	}
	ck_assert_msg(seen, "%s: no stall of %s", rigs[_i].file, rigs[_i].cause);
	ck_assert_msg(designed_ns * 100 >= (uint64_t)rigs[_i].share_pct * total_ns,
		      "%s: %s held %.0f%% of the stall time, under the %u%% the rig was built for",
		      rigs[_i].file, rigs[_i].cause, 100.0 * (double)designed_ns / (double)total_ns,
		      rigs[_i].share_pct);
	recorded_free(&r);
	evidence_free(ev);
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
	evidence_free(ev);
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
