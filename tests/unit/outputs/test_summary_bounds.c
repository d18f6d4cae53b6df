/* The default summary's bounds (human_verdict.h), held over every record
 * fixture's ending and over records grown from them to their extremes:
 * at most 15 lines, none wider than 80 columns, the verdict block at
 * most 8; and what the verdict says of the stalls agrees with the
 * probes' own figures. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/term.h"
#include "lib/units.h"
#include "outputs/human_verdict.h"
#include "record_fixture.h"
#include "suites.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static unsigned int count_lines(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Every line of text within cols; the widest's text on failure. */
static void assert_width(const char *what, const char *text, unsigned int cols)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		ck_assert_msg(term_width(text, n) <= cols, "%s: %zu columns: %.*s", what,
			      term_width(text, n), (int)n, text);
		text += n + (text[n] == '\n');
	}
}

static void assert_bounds(const char *what, const struct record_fixture *f)
{
	char *verdict = NULL, *text;
	size_t vlen = 0, len;
	FILE *m = open_memstream(&verdict, &vlen);
	unsigned int said;

	ck_assert_ptr_nonnull(m);
	said = human_verdict_print(m, &f->run, &f->sum);
	ck_assert_int_eq(fclose(m), 0);
	ck_assert_uint_eq(said, count_lines(verdict));
	ck_assert_msg(said <= 8, "%s: a verdict of %u lines:\n%s", what, said, verdict);
	text = record_fixture_render(f, &sink_quiet_ops, &len);
	ck_assert_msg(count_lines(text) <= 15, "%s: %u lines:\n%s", what,
		      count_lines(text), text);
	assert_width(what, text, 80);
	/* the verdict opens the summary as it stands */
	ck_assert_msg(!strncmp(text, verdict, strlen(verdict)), "%s:\n%s", what, text);
	free(text);
	free(verdict);
}

static const enum fixture_ending endings[] = {
	FIXTURE_BOUND, FIXTURE_SIGNAL, FIXTURE_ERROR, FIXTURE_TWO_TARGETS,
};

START_TEST(test_fixture_bounds)
{
	assert_bounds("fixture", record_fixture_shared(endings[_i]));
}
END_TEST

/* Each probe's figures at an extreme: counts, latencies, stalls. */
static const struct extreme {
	uint64_t count, max_ns, nstalls, stall_ns;
} extremes[] = {
	{ 1, 3 * WS_NSEC_PER_SEC, 1, 3 * WS_NSEC_PER_SEC },
	{ 19, 999 * WS_NSEC_PER_MSEC, 0, 0 },
	{ 20, 999 * WS_NSEC_PER_MSEC, 0, 0 },
	{ 999, 2 * WS_NSEC_PER_SEC, 12, 9 * WS_NSEC_PER_SEC },
	{ 1000, 2 * WS_NSEC_PER_SEC, 12, 9 * WS_NSEC_PER_SEC },
	{ 123456789, 7200 * WS_NSEC_PER_SEC, 9999999, 99999 * WS_NSEC_PER_SEC },
};

START_TEST(test_extreme_probes)
{
	const struct extreme *x = &extremes[_i % N_ROWS(extremes)];

	for (int e = 0; e < N_ROWS(endings); e++) {
		struct record_fixture *f = record_fixture_make(endings[e]);

		for (unsigned int i = 0; i < f->sum.nprobes; i++) {
			struct ws_probe_summary *ps = &f->sum.probes[i];

			ps->count = x->count;
			ps->max = ps->p999 = ps->p99 = x->max_ns;
			ps->nstalls = x->nstalls;
			ps->stall_total_ns = x->stall_ns;
			ps->longest.duration_ns = x->max_ns;
			ps->errors = x->count;
		}
		f->sum.bytes = x->count * WS_GIB;
		f->sum.elapsed_ns = x->max_ns * 1000;
		assert_bounds("extreme", f);
		record_fixture_free(f);
	}
}
END_TEST

/* Every probe kind at once: the verdict keeps its bound. */
START_TEST(test_every_probe)
{
	static const char *const names[] = { "fsync", "save", "read", "sqlite", "dsync", "cmd" };

	for (int e = 0; e < N_ROWS(endings); e++) {
		struct record_fixture *f = record_fixture_make(endings[e]);
		struct ws_probe_summary *was = f->sum.probes;
		unsigned int had = f->sum.nprobes;

		f->sum.probes = calloc(N_ROWS(names), sizeof(*f->sum.probes));
		ck_assert_ptr_nonnull(f->sum.probes);
		for (int i = 0; i < N_ROWS(names); i++) {
			f->sum.probes[i] = was[(unsigned int)i % had];
			f->sum.probes[i].name = names[i];
		}
		for (unsigned int n = 1; n <= N_ROWS(names); n++) {
			f->sum.nprobes = n;
			assert_bounds("probes", f);
			/* the cost's line too */
			f->sum.observer = (struct ws_observer_cost){ .on = true, .judged = true,
								     .speedup = 2.5 };
			assert_bounds("probes and cost", f);
			f->sum.observer.on = false;
		}
		free(f->sum.probes);
		f->sum.probes = was;
		f->sum.nprobes = had;
		record_fixture_free(f);
	}
}
END_TEST

/* A watch: its culprits at their longest (16 rows, 15-character
 * commands, 7-digit pids, long cgroups, 2 writers in each stall), with
 * 1 to 6 probes; no culprit at all; not traced. */
START_TEST(test_watch)
{
	struct record_fixture *f = record_fixture_make(FIXTURE_BOUND);
	struct ws_probe_summary *was = f->sum.probes;
	unsigned int had = f->sum.nprobes;
	struct ws_culprits *c = &f->sum.culprits;

	f->run.set.watch = true;
	f->sum.bytes = 0;
	*c = (struct ws_culprits){ .traced = true, .n = WS_CULPRITS_KEPT, .others = 99 };
	for (unsigned int i = 0; i < c->n; i++) {
		c->row[i] = (struct ws_culprit){ .pid = 4194000 + (int32_t)i,
			.written = (uint64_t)(WS_CULPRITS_KEPT - i) * 1000 * WS_GIB, .stalls = 123456 };
		snprintf(c->row[i].comm, WS_COMM_LEN, "a-long-command%u", i % 10);
		memset(c->row[i].cgroup, 'c', WS_CGROUP_LEN - 1);
		c->row[i].cgroup[0] = '/';
	}
	for (unsigned int i = 0; i < had; i++) {
		struct ws_probe_summary *ps = &was[i];

		for (unsigned int k = 0; k < ps->nrecorded; k++)
			ps->stalls[k].culprits = (struct ws_stall_culprits){ .traced = true, .n = 2,
				.top = { { 4194000, 1, 999 * WS_GIB }, { 4194001, 1, 998 * WS_GIB } },
				.total_written = 1997 * WS_GIB };
		ps->longest.culprits = ps->stalls[0].culprits;
	}
	assert_bounds("watch", f);
	f->sum.probes = calloc(6, sizeof(*f->sum.probes));
	ck_assert_ptr_nonnull(f->sum.probes);
	for (unsigned int i = 0; i < 6; i++)
		f->sum.probes[i] = was[i % had];
	for (f->sum.nprobes = 1; f->sum.nprobes <= 6; f->sum.nprobes++)
		assert_bounds("watch, probes", f);
	f->sum.nprobes = had;
	free(f->sum.probes);
	f->sum.probes = was;
	c->n = 0;
	assert_bounds("watch, no culprit", f);
	c->traced = false;
	assert_bounds("watch, not traced", f);
	record_fixture_free(f);
}
END_TEST

/* Many targets: the ones that do not fit are counted, not printed. */
START_TEST(test_many_targets)
{
	struct record_fixture *f = record_fixture_make(FIXTURE_TWO_TARGETS);
	struct ws_run runs[WS_MAX_TARGETS];
	struct ws_summary sums[WS_MAX_TARGETS];
	const struct ws_run *was_runs = f->run.targets;
	const struct ws_summary *was_sums = f->sum.targets;
	unsigned int had = f->sum.ntargets;

	for (unsigned int i = 0; i < WS_MAX_TARGETS; i++) {
		runs[i] = was_runs[i % had];
		runs[i].number = i + 1;
		sums[i] = was_sums[i % had];
	}
	f->run.targets = runs;
	f->sum.targets = sums;
	for (unsigned int n = 2; n <= WS_MAX_TARGETS; n++) {
		size_t len;
		char *text;

		f->run.ntargets = f->sum.ntargets = n;
		assert_bounds("targets", f);
		text = record_fixture_render(f, &sink_quiet_ops, &len);
		ck_assert_msg(strstr(text, "  target 1 ") && (n <= 2 || strstr(text, "more targets (-v)") ||
			      strstr(text, "  target 3 ")), "%u targets:\n%s", n, text);
		free(text);
	}
	f->run.targets = was_runs;
	f->sum.targets = was_sums;
	f->run.ntargets = f->sum.ntargets = had;
	record_fixture_free(f);
}
END_TEST

/* The stall line's count and time are the probes' own, summed. */
START_TEST(test_stalls_agree)
{
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	struct ws_stall_tally t;
	uint64_t n = 0, ns = 0;

	for (unsigned int i = 0; i < f->sum.nprobes; i++) {
		n += f->sum.probes[i].nstalls;
		ns += f->sum.probes[i].stall_total_ns;
	}
	ws_stall_tally(&f->sum, &t);
	ck_assert_uint_eq(t.n, n);
	ck_assert_uint_eq(t.total_ns, ns);
	ck_assert_uint_le(t.main_ns, t.judged_ns);
	ck_assert_uint_le(t.main_n, t.judged_n);
	ck_assert_uint_le(t.judged_ns, t.total_ns);
}
END_TEST

/* The probes' cost opens the summary from 1.10x on, when judged. */
static const struct {
	bool judged;
	double speedup;
	bool shown;
} costs[] = {
	{ true, 1.09, false }, { true, 1.10, true }, { true, 1.11, true },
	{ false, 3.0, false },
};

START_TEST(test_cost_shown)
{
	struct ws_observer_cost o = { .on = true, .judged = costs[_i].judged,
				      .speedup = costs[_i].speedup };

	ck_assert_int_eq(ws_observer_cost_shown(&o), costs[_i].shown);
	o.on = false;
	ck_assert(!ws_observer_cost_shown(&o));
}
END_TEST

Suite *summary_bounds_suite(void)
{
	Suite *s = suite_create("summary_bounds");
	TCase *tc = tcase_create("bounds");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_fixture_bounds, 0, N_ROWS(endings));
	tcase_add_loop_test(tc, test_extreme_probes, 0, N_ROWS(extremes));
	tcase_add_test(tc, test_every_probe);
	tcase_add_test(tc, test_many_targets);
	tcase_add_test(tc, test_watch);
	tcase_add_test(tc, test_stalls_agree);
	tcase_add_loop_test(tc, test_cost_shown, 0, N_ROWS(costs));
	suite_add_tcase(s, tc);
	return s;
}
