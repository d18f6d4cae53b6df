/* test_matrix.c - the strategy matrix's pure parts (matrix.c,
 * matrix_files.c): strategies parsed and refused, the children's command
 * lines, a result read back, medians over repeats, the Pareto front, the
 * verdicts, the recommendation, the JSON document, the runs kept on the
 * heap, and the run's options matrix takes by the run's rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "cmd/matrix/matrix.h"
#include "cmd/matrix/matrix_files.h"
#include "cmd/matrix/matrix_runs.h"
#include "cmd/matrix/matrix_state.h"
#include "lib/cli.h"
#include "lib/svgplot.h"
#include "suites.h"
#include "testutil.h"
#include "lib/units.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

START_TEST(test_default_list)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n;
	char why[128];

	ck_assert_int_eq(matrix_parse_strategies(MATRIX_DEFAULT_LIST, s, &n, why,
						 sizeof(why)), 0);
	ck_assert_uint_eq(n, 8);
	ck_assert(s[0].idle);
	ck_assert_int_eq(s[1].pace, WS_PACE_NONE);
	ck_assert_int_eq(s[2].pace, WS_PACE_WINDOW);
	ck_assert(!s[2].fadvise);
	ck_assert(s[3].fadvise);
	ck_assert_str_eq(s[3].label, "window+fadvise");
	ck_assert_int_eq(s[7].pace, WS_PACE_ADAPTIVE);
}
END_TEST

START_TEST(test_parameters)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n;
	char why[128];

	ck_assert_int_eq(matrix_parse_strategies("window:B=1M:W=4,fdatasync:B=256K", s,
						 &n, why, sizeof(why)), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(s[0].label, "window:B=1M:W=4");
	ck_assert_uint_eq(s[0].buffer, WS_MIB);
	ck_assert_uint_eq(s[0].window, 4);
	ck_assert_uint_eq(s[1].buffer, 256 * WS_KIB);
	ck_assert_uint_eq(s[1].window, 0);
}
END_TEST

static const struct {
	const char *list, *why;
} bad_lists[] = {
	{ "bogus", "unknown strategy 'bogus'" },
	{ "window,window", "'window' is listed twice" },
	{ "window:W=0", "'W=0' in 'window'" },
	{ "none:W=2", "'W=2' in 'none'" },
	{ "window:B=3x", "'B=3x' in 'window'" },
	{ "window:B=1000", "'B=1000' in 'window'" },
	{ "idle:B=1M", "'B=1M' in 'idle'" },
	{ "", "no strategy" },
};

START_TEST(test_bad_lists)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n;
	char why[160] = "";

	ck_assert_int_ne(matrix_parse_strategies(bad_lists[_i].list, s, &n, why,
						 sizeof(why)), 0);
	ck_assert_msg(strstr(why, bad_lists[_i].why), "'%s': %s", bad_lists[_i].list, why);
}
END_TEST

static const char *arg_after(const struct matrix_argv *a, const char *opt)
{
	for (int i = 0; a->argv[i]; i++)
		if (!strcmp(a->argv[i], opt))
			return a->argv[i + 1];
	return NULL;
}

static bool has(const struct matrix_argv *a, const char *opt)
{
	for (int i = 0; a->argv[i]; i++)
		if (!strcmp(a->argv[i], opt))
			return true;
	return false;
}

START_TEST(test_child_args)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	struct matrix_cfg mc = {
		.self = "/bin/ws", .file = "/mnt/f", .each_ns = 15 * WS_NSEC_PER_SEC,
		.target_latency_ns = 50 * WS_NSEC_PER_MSEC, .file_size = 256 * WS_MIB,
		.passthrough = { "--probe", "fsync,save" }, .npassthrough = 2,
		.steer_by = "fsync",
	};
	struct matrix_argv a;
	unsigned int n;
	char why[128];
	int last;

	ck_assert_int_eq(matrix_parse_strategies("window+fadvise:B=1M:W=2,adaptive,idle",
						 s, &n, why, sizeof(why)), 0);
	matrix_child_args(&s[0], &mc, "bfq", "/tmp/r.json", &a);
	ck_assert_str_eq(a.argv[0], "/bin/ws");
	ck_assert(has(&a, "-q"));
	ck_assert(has(&a, "--fadvise"));
	ck_assert_str_eq(arg_after(&a, "--json"), "/tmp/r.json");
	ck_assert_str_eq(arg_after(&a, "--pace"), "window");
	ck_assert_str_eq(arg_after(&a, "--buffer-size"), "1048576");
	ck_assert_str_eq(arg_after(&a, "--window"), "2");
	ck_assert_str_eq(arg_after(&a, "--time"), "15000000000ns");
	ck_assert_str_eq(arg_after(&a, "--file-size"), "268435456");
	/* a timed run wraps at --file-size, as long as its time */
	ck_assert(!has(&a, "--size"));
	ck_assert_str_eq(arg_after(&a, "--scheduler"), "bfq");
	ck_assert_str_eq(arg_after(&a, "--probe"), "fsync,save");
	ck_assert(!has(&a, "--target-latency"));
	ck_assert(!has(&a, "--steer-by"));
	/* no --headroom given: none on any row */
	ck_assert(!has(&a, "--headroom"));
	for (last = 0; a.argv[last + 1]; last++)
		;
	ck_assert_str_eq(a.argv[last], "/mnt/f");
	ck_assert_str_eq(a.argv[last - 1], "--");

	matrix_child_args(&s[1], &mc, NULL, "/tmp/r.json", &a);
	ck_assert_str_eq(arg_after(&a, "--pace"), "adaptive");
	/* 80% of the target of 50 ms */
	ck_assert_str_eq(arg_after(&a, "--target-latency"), "40000000ns");
	/* the adaptive row steers by the probe the table judges */
	ck_assert_str_eq(arg_after(&a, "--steer-by"), "fsync");
	ck_assert(!has(&a, "--scheduler"));
	ck_assert(!has(&a, "--headroom"));

	/* --headroom is the adaptive row's alone: a window row paces by
	 * its window, and writestress refuses --headroom there */
	mc.headroom_pct = 8;
	matrix_child_args(&s[1], &mc, NULL, "/tmp/r.json", &a);
	ck_assert_str_eq(arg_after(&a, "--headroom"), "8");
	matrix_child_args(&s[0], &mc, NULL, "/tmp/r.json", &a);
	ck_assert(!has(&a, "--headroom"));
	mc.headroom_pct = 0;

	/* idle: a page a second, for the time */
	mc.each_bytes = 512 * WS_MIB;
	matrix_child_args(&s[2], &mc, NULL, "/tmp/r.json", &a);
	ck_assert_str_eq(arg_after(&a, "--rate"), "4K/s");
	ck_assert_str_eq(arg_after(&a, "--buffer-size"), "4K");
	ck_assert(!has(&a, "--size"));
	matrix_child_args(&s[1], &mc, NULL, "/tmp/r.json", &a);
	ck_assert_str_eq(arg_after(&a, "--size"), "536870912");
	ck_assert(!has(&a, "--time"));
}
END_TEST

START_TEST(test_outcome_from_result)
{
	const char *text =
		"{\"schema\":\"writestress-result/1\",\"summary\":{\"mibps\":19.5,"
		"\"bytes\":2147483648,\"cpu\":{\"per_gib_s\":9,\"writer_s\":1.4}},"
		"\"probes\":[{\"name\":\"fsync\",\"raw\":{\"p50_ms\":9,\"p99_ms\":45.5},"
		"\"max_ms\":60,\"corrected\":{\"p99_ms\":47},\"stalls\":{\"count\":2}},"
		"{\"name\":\"save\",\"raw\":{\"p50_ms\":20,\"p99_ms\":90},"
		"\"max_ms\":95,\"corrected\":{\"p99_ms\":91},\"stalls\":{\"count\":0}}],"
		"\"intervals\":[{\"dirty\":100,\"writeback\":50},{\"dirty\":10,\"writeback\":900}]}";
	struct json_object *doc = json_tokener_parse(text);
	struct matrix_outcome o = { 0 };

	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(matrix_outcome_from(doc, NULL, 100000000, &o), 0);
	ck_assert(o.have);
	ck_assert_double_eq_tol(o.mibps, 19.5, 1e-9);
	ck_assert_str_eq(o.probe, "fsync");
	ck_assert_double_eq_tol(o.p50_ms, 9, 1e-9);
	ck_assert_double_eq_tol(o.p99_ms, 45.5, 1e-9);
	ck_assert_double_eq_tol(o.max_ms, 60, 1e-9);
	ck_assert_double_eq_tol(o.p99_corrected_ms, 47, 1e-9);
	ck_assert_uint_eq(o.stalls, 2);
	ck_assert_uint_eq(o.peak_dirty, 910);
	ck_assert_double_eq_tol(o.cpu_s_per_gib, 0.7, 1e-9);
	/* every probe, the judged one first */
	ck_assert_uint_eq(o.nprobes, 2);
	ck_assert_str_eq(o.probes[1].name, "save");
	ck_assert_double_eq_tol(o.probes[1].p99_ms, 90, 1e-9);
	ck_assert_double_eq_tol(o.probes[1].p99_corrected_ms, 91, 1e-9);
	json_object_put(doc);

	/* a traced run: the judged probe's stalls counted by cause, the
	 * other probes' not */
	doc = json_tokener_parse(
		"{\"schema\":\"writestress-result/1\",\"summary\":{\"mibps\":1},"
		"\"probes\":[{\"name\":\"fsync\",\"stalls\":{\"count\":3,\"records\":["
		"{\"cause\":\"queue behind other writes\"},{\"cause\":\"device\"},"
		"{\"cause\":\"queue behind other writes\"},{\"cause\":null}]}},"
		"{\"name\":\"save\",\"stalls\":{\"count\":1,\"records\":["
		"{\"cause\":\"device\"}]}}]}");
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(matrix_outcome_from(doc, NULL, 100000000, &o), 0);
	ck_assert_uint_eq(o.causes[WS_CAUSE_QUEUE], 2);
	ck_assert_uint_eq(o.causes[WS_CAUSE_DEVICE], 1);
	ck_assert_uint_eq(o.causes[WS_CAUSE_NOT_TRACED], 0);
	json_object_put(doc);

	doc = json_tokener_parse("{\"schema\":\"x\"}");
	memset(&o, 0, sizeof(o));
	ck_assert_int_ne(matrix_outcome_from(doc, NULL, 100000000, &o), 0);
	ck_assert(!o.have);
	json_object_put(doc);
}
END_TEST

/* 1000 probes; as a target of 100 ms would count them: a p99 over it has
 * 11 over (10 may be, hist.h), over 1000 ms 11 over that too. */
static struct matrix_outcome run(unsigned int st, double mibps, double p99,
				 uint64_t stalls)
{
	uint64_t over = p99 > 100 ? 11 : 0, frozen = p99 > 1000 ? 11 : 0;

	return (struct matrix_outcome){
		.strategy = st, .have = true, .mibps = mibps, .p50_ms = p99 / 2,
		.p99_ms = p99, .max_ms = p99 * 1.2, .p99_corrected_ms = p99,
		.stalls = stalls, .probe = "fsync", .nprobes = 2,
		.count = 1000, .p90_ms = p99 * 0.9, .over = over, .over_frozen = frozen,
		.probes = {
			{ "fsync", p99 / 2, p99, p99 * 1.2, p99, 0, 1000, (double)stalls,
			  over, frozen, 1000 },
			{ "save", p99, 2 * p99, 3 * p99, 2 * p99, 0, 1000, 0, 0, 0, 1000 },
		},
	};
}

/* idle, none, window, adaptive, dontcache (unsupported), direct (failed) */
static unsigned int five(struct matrix_strategy *s)
{
	unsigned int n;
	char why[128];

	ck_assert_int_eq(matrix_parse_strategies("idle,none,window,adaptive,dontcache,direct",
						 s, &n, why, sizeof(why)), 0);
	return n;
}

START_TEST(test_rows_front_and_recommendation)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = {
		run(0, 0.01, 2, 0),
		run(1, 30, 15000, 3),	/* none: fastest, frozen */
		run(2, 18, 400, 0),	/* window: slower and worse than adaptive */
		run(3, 19.5, 48, 0),	/* adaptive */
		{ .strategy = 4, .status = 1, .unsupported = true },
		{ .strategy = 5, .status = 1 },
	};
	struct matrix_row rows[16];
	size_t nrows = matrix_rows(o, N_ROWS(o), s, n, 0, rows);
	int best;

	ck_assert_uint_eq(nrows, 6);
	best = matrix_judge(rows, nrows, s);
	ck_assert_int_eq(best, 3);
	ck_assert_int_eq(rows[0].verdict, MX_BASELINE);
	ck_assert_int_eq(rows[1].verdict, MX_FROZEN);
	ck_assert_int_eq(rows[2].verdict, MX_SLUGGISH);
	ck_assert_int_eq(rows[3].verdict, MX_RESPONSIVE);
	ck_assert_int_eq(rows[4].verdict, MX_UNSUPPORTED);
	ck_assert_int_eq(rows[5].verdict, MX_FAILED);
	ck_assert(!rows[0].front);
	ck_assert(rows[1].front);	/* nothing is faster */
	ck_assert(!rows[2].front);	/* adaptive beats it on both */
	ck_assert(rows[3].front);
	ck_assert_double_eq_tol(rows[1].ratio, 1.0, 1e-9);
	ck_assert_double_eq_tol(rows[3].ratio, 19.5 / 30, 1e-9);
	ck_assert_double_eq_tol(rows[0].ratio, 0, 1e-9);

	/* a rate a hair faster is no merit: 0.2% more but 40x the p99 */
	rows[1].mibps = 19.54;
	matrix_judge(rows, nrows, s);
	ck_assert(!rows[1].front);
	ck_assert(rows[3].front);
	rows[1].mibps = 30;

	/* a tighter target: adaptive's probes over it too, nothing meets it */
	rows[3].over = 11;
	ck_assert_int_eq(matrix_judge(rows, nrows, s), -1);
	ck_assert_int_eq(rows[3].verdict, MX_SLUGGISH);
}
END_TEST

/* Every verdict is hist_judge()'s on a row's probes (man page, MATRIX):
 * within the target from 1000 probes with at most 10 over; over it with
 * 11, or on fewer where the binomial tail says so (all 6 of 6, 2 of 6;
 * 1 of 6 is not judged); frozen the same over 10x the target; a stall
 * alone is no verdict. */
static const struct {
	uint64_t count, over, frozen, stalls;
	enum matrix_verdict want;
} verdicts[] = {
	{ 1000, 10, 0, 0, MX_RESPONSIVE }, { 1000, 11, 0, 0, MX_SLUGGISH },
	{ 1000, 0, 0, 0, MX_RESPONSIVE }, { 999, 0, 0, 0, MX_NOT_JUDGED },
	{ 6, 6, 0, 0, MX_SLUGGISH }, { 6, 2, 0, 0, MX_SLUGGISH },
	{ 6, 1, 0, 0, MX_NOT_JUDGED }, { 6, 0, 0, 0, MX_NOT_JUDGED },
	{ 1000, 11, 10, 0, MX_SLUGGISH }, { 1000, 11, 11, 0, MX_FROZEN },
	{ 6, 6, 6, 0, MX_FROZEN }, { 6, 6, 1, 0, MX_SLUGGISH },
	{ 35, 1, 1, 1, MX_NOT_JUDGED }, { 1, 0, 0, 0, MX_NOT_JUDGED },
};

START_TEST(test_verdict_bounds)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = { run(2, 20, 50, verdicts[_i].stalls) };
	struct matrix_row rows[4];
	size_t nrows;
	int best;

	o[0].count = verdicts[_i].count;
	o[0].over = verdicts[_i].over;
	o[0].over_frozen = verdicts[_i].frozen;
	nrows = matrix_rows(o, 1, s, n, 0, rows);
	ck_assert_uint_eq(nrows, 1);
	best = matrix_judge(rows, nrows, s);
	ck_assert_int_eq(rows[0].verdict, verdicts[_i].want);
	/* recommended: the fastest judged within the target */
	ck_assert_int_eq(best, verdicts[_i].want == MX_RESPONSIVE ? 0 : -1);
}
END_TEST

/* Alike runs (a strategy's repeats) pool their probes: two runs of 500
 * judge as 1000; the figures shown are their medians, so a p99 shows
 * only where each run has 1000. */
static const struct {
	uint64_t over_a, over_b;
	enum matrix_verdict want;
} pooled[] = {
	{ 5, 5, MX_RESPONSIVE }, { 5, 6, MX_SLUGGISH }, { 0, 11, MX_SLUGGISH },
};

START_TEST(test_verdict_pooled)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = { run(2, 20, 50, 0), run(2, 21, 60, 0) };
	struct matrix_row rows[4];
	size_t nrows;

	o[0].count = o[1].count = 500;
	o[0].probes[0].count = o[1].probes[0].count = 500;
	o[0].over = pooled[_i].over_a;
	o[1].over = pooled[_i].over_b;
	nrows = matrix_rows(o, 2, s, n, 0, rows);
	matrix_judge(rows, nrows, s);
	ck_assert_int_eq(rows[0].verdict, pooled[_i].want);
	ck_assert_double_eq_tol(rows[0].count, 1000, 1e-9);
	ck_assert_double_eq_tol(rows[0].min_count, 500, 1e-9);
	ck_assert(!matrix_row_p99_shown(&rows[0]));
	/* the tail it is placed by: the max (median of 60 and 72), p99 not
	 * shown */
	ck_assert_double_eq_tol(matrix_row_tail_ms(&rows[0]), 66, 1e-9);
	ck_assert_double_eq_tol(rows[0].probes[0].count, 1000, 1e-9);
	/* one run of 500 alone: 5 over is not judged, 11 is over */
	nrows = matrix_rows(o, 1, s, n, 0, rows);
	matrix_judge(rows, nrows, s);
	ck_assert_int_eq(rows[0].verdict, pooled[_i].over_a == 5 ? MX_NOT_JUDGED :
					  pooled[_i].over_a ? MX_SLUGGISH : MX_NOT_JUDGED);
}
END_TEST

/* A rate is the disk's while the device wrote within 10% of it in the
 * same run: 22 MiB/s over a device's 20 is, 22.01 is not (the page
 * cache took it); without device counters nothing says otherwise. */
static const struct {
	double mibps, dev;
	bool have, disks;
} rates[] = {
	{ 22.0, 20.0, true, true }, { 22.01, 20.0, true, false },
	{ 21.99, 20.0, true, true }, { 6976.9, 0.4, true, false },
	{ 6976.9, 0, false, true }, { 5, 20, true, true },
};

START_TEST(test_page_cache_rate)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = { run(1, rates[_i].mibps, 50, 0), run(2, 10, 60, 0) };
	struct matrix_row rows[4];
	size_t nrows;
	int best;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(matrix_rate_is_disks(rates[_i].mibps, rates[_i].have, rates[_i].dev),
			 rates[_i].disks);
	o[0].have_device = rates[_i].have;
	o[0].dev_mibps = rates[_i].dev;
	o[1].have_device = true;
	o[1].dev_mibps = 10;
	nrows = matrix_rows(o, 2, s, n, 0, rows);
	best = matrix_judge(rows, nrows, s);
	ck_assert_int_eq(rows[0].page_cache, !rates[_i].disks);
	/* off the front, not the fastest, never recommended */
	if (!rates[_i].disks) {
		ck_assert(!rows[0].front);
		ck_assert_int_eq(best, 1);
		ck_assert_double_eq_tol(rows[1].ratio, 1, 1e-9);
		ck_assert_double_eq_tol(rows[0].ratio, 0, 1e-9);
	} else {
		ck_assert_int_eq(best, rates[_i].mibps > 10 ? 0 : 1);
	}
	f = open_memstream(&text, &len);
	matrix_print(f, rows, nrows, s, NULL, NULL, best, 100);
	fclose(f);
	ck_assert_int_eq(!!strstr(text, "(page cache's rate)"), !rates[_i].disks);
	ck_assert_int_eq(!!strstr(text, "page cache: none: "), !rates[_i].disks);
	free(text);
}
END_TEST

/* Over the target: histogram buckets by their midpoint, as a percentile
 * there is shown; the judged probe is the one named, moved first; the
 * device's bytes over the run's time. */
START_TEST(test_count_over_and_judged_probe)
{
	/* [99000000, 99999999] has its midpoint 99499999.5 -> 99499999 */
	const char *text =
		"{\"summary\":{\"mibps\":50,\"elapsed_s\":2},"
		"\"intervals\":[{\"device\":{\"write_bytes\":10485760}},{\"dirty\":1},"
		"{\"device\":{\"write_bytes\":10485760}}],"
		"\"probes\":[{\"name\":\"fsync\",\"count\":1},"
		"{\"name\":\"save\",\"count\":9,\"histogram_ns\":["
		"[1000,1000,4],[99000000,99999999,2],[150000000,151000000,3]]}]}";
	struct json_object *doc = json_tokener_parse(text), *p;
	struct matrix_outcome o = { 0 };

	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "probes", &p));
	p = json_object_array_get_idx(p, 1);
	ck_assert_uint_eq(matrix_count_over(p, 99499998), 5);
	ck_assert_uint_eq(matrix_count_over(p, 99499999), 3);
	ck_assert_uint_eq(matrix_count_over(p, 150500000), 0);
	ck_assert_uint_eq(matrix_count_over(p, 150499999), 3);
	ck_assert_uint_eq(matrix_count_over(p, 999), 9);
	ck_assert_uint_eq(matrix_count_over(p, 1000), 5);

	ck_assert_int_eq(matrix_outcome_from(doc, "save", 100000000, &o), 0);
	ck_assert_str_eq(o.probe, "save");
	ck_assert_str_eq(o.probes[0].name, "save");
	ck_assert_str_eq(o.probes[1].name, "fsync");
	ck_assert_uint_eq(o.count, 9);
	ck_assert_uint_eq(o.over, 3);
	ck_assert_uint_eq(o.over_frozen, 0);
	ck_assert(o.have_device);
	ck_assert_double_eq_tol(o.dev_mibps, 10, 1e-9);
	ck_assert(!matrix_rate_is_disks(o.mibps, o.have_device, o.dev_mibps));
	/* none named, or one that did not run: the result's first */
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(matrix_outcome_from(doc, "dsync", 100000000, &o), 0);
	ck_assert_str_eq(o.probe, "fsync");
	ck_assert_str_eq(o.probes[1].name, "save");
	json_object_put(doc);
}
END_TEST

/* No recommendation says why, and hints adaptive only when it was not
 * in the table. */
static const struct {
	const char *list;
	uint64_t count, over;
	const char *want;
	bool adaptive_hint;
} no_recs[] = {
	{ "none,window", 6, 6, "no recommendation: every strategy was over the target of 100 ms", true },
	{ "none,adaptive", 6, 6, "no recommendation: every strategy was over the target of 100 ms", false },
	{ "none,window", 6, 1, "no recommendation: too few probes for a verdict on any strategy", true },
	{ "none,adaptive", 6, 0, "no recommendation: too few probes for a verdict on any strategy", false },
};

START_TEST(test_no_recommendation)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n;
	char why[128], *text = NULL;
	struct matrix_outcome o[] = { run(0, 20, 50, 0), run(1, 21, 60, 0) };
	struct matrix_row rows[4];
	size_t nrows, len = 0;
	FILE *f;

	ck_assert_int_eq(matrix_parse_strategies(no_recs[_i].list, s, &n, why, sizeof(why)), 0);
	for (int i = 0; i < 2; i++) {
		o[i].count = no_recs[_i].count;
		o[i].probes[0].count = o[i].probes[0].min_count = (double)no_recs[_i].count;
		o[i].over = no_recs[_i].over;
	}
	nrows = matrix_rows(o, 2, s, n, 0, rows);
	f = open_memstream(&text, &len);
	matrix_print(f, rows, nrows, s, NULL, NULL, matrix_judge(rows, nrows, s), 100);
	fclose(f);
	ck_assert_msg(strstr(text, no_recs[_i].want), "%s", text);
	ck_assert_int_eq(!!strstr(text, "try adaptive"), no_recs[_i].adaptive_hint);
	ck_assert_msg(!strstr(text, "recommendation: none"), "%s", text);
	/* six probes: no p99 shown, the max is */
	ck_assert_msg(strstr(text, "/-/"), "%s", text);
	free(text);
}
END_TEST

/* The front: rates within 1% of each other are equal.  window at 100
 * MiB/s, p99 50 ms; adaptive slower but p99 40 ms: at 99 (1% less, equal
 * in rate, better in p99) it pushes window off the front; at 98.9 it is
 * slower for real and both stay on it. */
static const struct {
	double other;
	bool window_on_front;
} same_rates[] = {
	{ 99.1, false }, { 99, false }, { 98.9, true },
};

START_TEST(test_front_same_rate)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = { run(2, 100, 50, 0), run(3, same_rates[_i].other, 40, 0) };
	struct matrix_row rows[4];
	size_t nrows = matrix_rows(o, 2, s, n, 0, rows);

	ck_assert_uint_eq(nrows, 2);
	matrix_judge(rows, nrows, s);
	ck_assert_int_eq(rows[0].front, same_rates[_i].window_on_front);
	ck_assert(rows[1].front);
}
END_TEST

/* The plot's texts, as drawn: class, box (svgplot's own measure). */
struct drawn {
	char cls[16];
	struct svg_box box;
};

static size_t texts_of(const char *path, struct drawn *out, size_t max)
{
	char line[512], cls[16], anchor[16], text[256];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	while (n < max && fgets(line, sizeof(line), f)) {
		struct svg_spot at;
		double size;

		if (sscanf(line, "<text x=\"%lf\" y=\"%lf\" class=\"%15[^\"]\" text-anchor=\"%15[^\"]\">%255[^<]",
			   &at.x, &at.y, cls, anchor, text) != 5)
			continue;
		at.anchor = !strcmp(anchor, "end") ? "end" : !strcmp(anchor, "middle") ? "middle" : "start";
		size = !strcmp(cls, "l") || !strcmp(cls, "tick") ? 11 : 12;
		snprintf(out[n].cls, sizeof(out[n].cls), "%s", cls);
		out[n++].box = svg_text_box(&at, size, text);
	}
	fclose(f);
	return n;
}

/* No point's label over a tick label, the target's or another's: points
 * at the left end, stacked at one throughput, and at the axes' corners. */
START_TEST(test_svg_labels_clear)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n;
	char why[128], path[] = "/tmp/ws-matrix-svg-XXXXXX";
	struct matrix_outcome o[] = {
		run(0, 0.05, 0.012, 0), run(1, 0.1, 0.011, 0), run(2, 20, 100, 0),
		run(3, 20, 101, 0), run(4, 20.2, 99, 0), run(5, 60, 100000, 2),
	};
	struct matrix_row rows[16];
	struct drawn t[128];
	size_t nrows, nt;
	struct matrix_doc d = { 0 };
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(matrix_parse_strategies("none,window,fdatasync,adaptive,direct,window+fadvise",
						 s, &n, why, sizeof(why)), 0);
	nrows = matrix_rows(o, N_ROWS(o), s, n, 0, rows);
	d = (struct matrix_doc){ .s = s, .ns = n, .o = o, .no = N_ROWS(o), .rows = rows,
				 .nrows = nrows, .best = matrix_judge(rows, nrows, s),
				 .target_ms = 100, .complete = true };
	ck_assert_int_eq(matrix_write_svg(path, &d, why, sizeof(why)), 0);
	nt = texts_of(path, t, 128);
	unlink(path);
	ck_assert_uint_gt(nt, 10);
	for (size_t i = 0; i < nt; i++) {
		if (strcmp(t[i].cls, "l"))
			continue;
		for (size_t j = 0; j < nt; j++)
			if (j != i && (!strcmp(t[j].cls, "tick") || !strcmp(t[j].cls, "l")))
				ck_assert_msg(!svg_boxes_meet(&t[i].box, &t[j].box),
					      "text %zu (%s) meets text %zu (%s)", i, t[i].cls, j, t[j].cls);
	}
}
END_TEST

/* Repeats: medians and spread; a run cut short by Ctrl-C leaves only the
 * strategies that ran. */
START_TEST(test_medians_and_partial)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = {
		run(1, 30, 900, 0), run(1, 10, 100, 0), run(1, 20, 500, 0),
		run(2, 18, 40, 0),
	};
	struct matrix_row rows[16];
	size_t nrows = matrix_rows(o, N_ROWS(o), s, n, 0, rows);

	ck_assert_uint_eq(nrows, 2);
	ck_assert_uint_eq(rows[0].strategy, 1);
	ck_assert_uint_eq(rows[0].runs, 3);
	ck_assert_double_eq_tol(rows[0].mibps, 20, 1e-9);
	ck_assert_double_eq_tol(rows[0].mibps_lo, 10, 1e-9);
	ck_assert_double_eq_tol(rows[0].mibps_hi, 30, 1e-9);
	ck_assert_double_eq_tol(rows[0].p99_ms, 500, 1e-9);
	ck_assert_double_eq_tol(rows[0].p99_lo, 100, 1e-9);
	ck_assert_double_eq_tol(rows[0].p99_hi, 900, 1e-9);
	/* each probe's medians */
	ck_assert_uint_eq(rows[0].nprobes, 2);
	ck_assert_str_eq(rows[0].probes[1].name, "save");
	ck_assert_double_eq_tol(rows[0].probes[1].p99_ms, 1000, 1e-9);
	ck_assert_uint_eq(rows[1].strategy, 2);
}
END_TEST

/* Settings (schedulers): rows per setting, fronts within a setting. */
START_TEST(test_settings)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = {
		run(1, 30, 900, 0), run(2, 18, 40, 0),
		run(1, 10, 1000, 0), run(2, 9, 80, 0),
	};
	struct matrix_row rows[16];
	size_t nrows;

	o[2].setting = o[3].setting = 1;
	nrows = matrix_rows(o, N_ROWS(o), s, n, 2, rows);
	ck_assert_uint_eq(nrows, 4);
	ck_assert_uint_eq(rows[2].setting, 1);
	ck_assert_int_eq(matrix_judge(rows, nrows, s), 1);
	/* in setting 1, window (9, 80) is not dominated by setting 0's rows */
	ck_assert(rows[3].front);
	ck_assert(rows[2].front);
}
END_TEST

START_TEST(test_json_document)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = { run(1, 30, 900, 0), run(2, 18, 40, 0) };
	struct json_object *res[2] = { json_tokener_parse("{\"schema\":\"writestress-result/1\"}"), NULL };
	struct matrix_row rows[16];
	size_t nrows = matrix_rows(o, 2, s, n, 0, rows);
	struct matrix_doc d = {
		.s = s, .ns = n, .o = o, .results = res, .no = 2, .rows = rows,
		.nrows = nrows, .target_ms = 100, .each_ns = 15 * WS_NSEC_PER_SEC,
	};
	struct json_object *doc, *v, *t, *p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	d.best = matrix_judge(rows, nrows, s);
	ck_assert_ptr_nonnull(f);
	matrix_json(f, &d);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert(tu_text_is_ours(text));	/* a later matrix may replace it */
	/* written by the JSON writer, read back by a parser */
	doc = json_tokener_parse(text);
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	matrix_svg(f, &d);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert(tu_text_is_ours(text));
	free(text);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "schema", &v));
	ck_assert_str_eq(json_object_get_string(v), MATRIX_SCHEMA);
	ck_assert(json_object_object_get_ex(doc, "complete", &v));
	ck_assert(!json_object_get_boolean(v));
	ck_assert(json_object_object_get_ex(doc, "table", &t));
	ck_assert_uint_eq(json_object_array_length(t), 2);
	v = json_object_array_get_idx(t, 1);
	ck_assert(json_object_object_get_ex(v, "probes", &p));
	ck_assert_uint_eq(json_object_array_length(p), 2);
	ck_assert(json_object_object_get_ex(v, "verdict", &v));
	ck_assert_str_eq(json_object_get_string(v), "within the target");
	ck_assert(json_object_object_get_ex(doc, "recommendation", &v));
	ck_assert(json_object_object_get_ex(v, "strategy", &v));
	ck_assert_str_eq(json_object_get_string(v), "window");
	ck_assert(json_object_object_get_ex(doc, "runs", &t));
	v = json_object_array_get_idx(t, 0);
	ck_assert(json_object_object_get_ex(v, "result", &v));
	ck_assert(json_object_object_get_ex(v, "schema", &v));
	v = json_object_array_get_idx(t, 1);
	ck_assert(json_object_object_get_ex(v, "result", &v));
	ck_assert_ptr_null(v);
	json_object_put(doc);
	json_object_put(res[0]);
}
END_TEST

/* The table names the front, the verdicts and the recommendation. */
START_TEST(test_table)
{
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int n = five(s);
	struct matrix_outcome o[] = { run(1, 30, 15000, 2), run(2, 18, 40, 0),
				      { .strategy = 4, .status = 1, .unsupported = true } };
	struct matrix_row rows[16];
	size_t nrows = matrix_rows(o, 3, s, n, 0, rows);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int best = matrix_judge(rows, nrows, s);

	matrix_print(f, rows, nrows, s, NULL, NULL, best, 100);
	fclose(f);
	ck_assert_msg(strstr(text, "*none"), "%s", text);
	ck_assert_msg(strstr(text, "frozen"), "%s", text);
	ck_assert_msg(strstr(text, "*window"), "%s", text);
	ck_assert_msg(strstr(text, "within the target <- recommended"), "%s", text);
	ck_assert_msg(strstr(text, "unsupported"), "%s", text);
	ck_assert_msg(strstr(text, "fsync p50/p99/max ms"), "%s", text);
	ck_assert_msg(strstr(text, "   + save"), "%s", text);
	ck_assert_msg(strstr(text, "recommendation: window, the fastest judged within the target of 100 ms"),
		      "%s", text);
	ck_assert_msg(!strstr(text, "(stalls:"), "not traced: no cause: %s", text);
	free(text);

	/* traced: the cause most of a row's stalls had, over its runs; a
	 * tie goes to the first in record.h's order */
	o[0].causes[WS_CAUSE_JOURNAL] = 1;
	o[0].causes[WS_CAUSE_QUEUE] = 1;
	nrows = matrix_rows(o, 3, s, n, 0, rows);
	ck_assert_str_eq(matrix_row_cause(&rows[0]), "queue behind other writes");
	o[0].causes[WS_CAUSE_JOURNAL] = 2;
	nrows = matrix_rows(o, 3, s, n, 0, rows);
	ck_assert_str_eq(matrix_row_cause(&rows[0]), "journal commit");
	ck_assert_ptr_null(matrix_row_cause(&rows[1]));
	best = matrix_judge(rows, nrows, s);
	text = NULL;
	f = open_memstream(&text, &len);
	matrix_print(f, rows, nrows, s, NULL, NULL, best, 100);
	fclose(f);
	ck_assert_msg(strstr(text, "frozen (stalls: journal commit)"), "%s", text);
	ck_assert_msg(strstr(text, "within the target <- recommended"), "%s", text);
	free(text);

	/* window with 150 probes, 1 over the target: not judged, and said
	 * why, with no recommendation */
	o[1].count = 150;
	o[1].over = 1;
	nrows = matrix_rows(o, 3, s, n, 0, rows);
	best = matrix_judge(rows, nrows, s);
	ck_assert_int_eq(best, -1);
	text = NULL;
	f = open_memstream(&text, &len);
	matrix_print(f, rows, nrows, s, NULL, NULL, best, 100);
	fclose(f);
	ck_assert_msg(strstr(text, "not judged: window: 150 fsync probes, 1 over the target: within it needs 1000 probes, over it 6 of these 150"),
		      "%s", text);
	ck_assert_msg(strstr(text, "no recommendation: no strategy was judged within the target of 100 ms (1 over it, 1 with too few probes, 0 at the page cache's rate); a longer --each"),
		      "%s", text);
	free(text);
}
END_TEST

/* The quiet wait's rule (man page, MATRIX): within 16 MiB of the idle
 * backlog, the device still 300 ms; gives up after 60 s.  Each at its
 * boundary and on both sides, as literals. */
START_TEST(test_quiet_rule)
{
	const uint64_t MiB = 1 << 20, ms = 1000000, idle = 5 * MiB;

	ck_assert(matrix_quiet(idle + 16 * MiB, idle, true, 300 * ms));
	ck_assert(!matrix_quiet(idle + 16 * MiB + 1, idle, true, 300 * ms));
	ck_assert(matrix_quiet(idle + 16 * MiB - 1, idle, true, 300 * ms));
	ck_assert(!matrix_quiet(idle, idle, true, 300 * ms - 1));
	ck_assert(matrix_quiet(idle, idle, true, 300 * ms + 1));
	ck_assert(matrix_quiet(idle, idle, false, 0));	/* no device counters */
	ck_assert(!matrix_quiet(idle + 17 * MiB, idle, false, 0));
	ck_assert(!matrix_quiet_gave_up(60 * 1000 * ms));
	ck_assert(matrix_quiet_gave_up(60 * 1000 * ms + 1));
	ck_assert(!matrix_quiet_gave_up(60 * 1000 * ms - 1));
}
END_TEST

/* The runs grow on the heap well past their first room, keep what they
 * hold as they move, stop at MATRIX_MAX_RUNS, and give their results
 * back when freed. */
START_TEST(test_runs_grow)
{
	struct matrix_runs r = { 0 };

	for (unsigned int i = 0; i < MATRIX_MAX_RUNS; i++) {
		ck_assert_int_eq(matrix_runs_add(&r), 0);
		ck_assert_uint_eq(r.n, i + 1);
		ck_assert_uint_eq(r.o[i].strategy, 0);
		ck_assert(!r.o[i].have);
		ck_assert_ptr_null(r.results[i]);
		r.o[i].strategy = i;
		if (i % 100 == 0)
			r.results[i] = json_object_new_int((int)i);
	}
	ck_assert_uint_gt(r.o_cap, 16);
	ck_assert_int_eq(matrix_runs_add(&r), -E2BIG);
	ck_assert_uint_eq(r.n, MATRIX_MAX_RUNS);
	for (unsigned int i = 0; i < MATRIX_MAX_RUNS; i++)
		ck_assert_uint_eq(r.o[i].strategy, i);
	ck_assert_int_eq(json_object_get_int(r.results[500]), 500);
	matrix_runs_free(&r);
	ck_assert_ptr_null(r.o);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(matrix_runs_add(&r), 0);	/* usable again */
	matrix_runs_free(&r);
}
END_TEST

/* Parse argv (after "writestress matrix") with matrix's table into m, its
 * defaults first; true if taken, the refusal in msg. */
static bool matrix_takes(struct matrix_state *m, char **args, int n, char *msg,
			 size_t len)
{
	char prog[] = "writestress", why[CLI_WHY_LEN];
	char *argv[16] = { prog };
	FILE *err = fmemopen(msg, len, "w");
	int first;
	enum cli_result r;

	ck_assert_int_lt(n, 15);
	for (int i = 0; i < n; i++)
		argv[i + 1] = args[i];
	memset(msg, 0, len);
	ck_assert_int_eq(cli_defaults(matrix_options(), &m->args, why), 0);
	r = cli_parse(matrix_options(), n + 1, argv, &m->args, m->seen, &first, err);
	fclose(err);
	return r == CLI_RUN;
}

/* --target-latency is the run's row, so the run's bounds: 1 ms to 60 s. */
static const struct {
	const char *value;
	uint64_t ns;		/* taken as, 0: refused */
	const char *why;
} target_latencies[] = {
	{ "60s", 60000000000, NULL },
	{ "60000000000ns", 60000000000, NULL },
	{ "60000000001ns", 0, "at most" },
	{ "61s", 0, "at most" },
	{ "1ms", 1000000, NULL },
	{ "999999ns", 0, "at least" },
};

START_TEST(test_target_latency_bounds)
{
	struct matrix_state *m = calloc(1, sizeof(*m));
	char opt[] = "--target-latency", val[32], msg[512];
	char *args[] = { opt, val };
	bool taken;

	snprintf(val, sizeof(val), "%s", target_latencies[_i].value);
	taken = matrix_takes(m, args, 2, msg, sizeof(msg));
	if (target_latencies[_i].ns) {
		ck_assert_msg(taken, "--target-latency %s: %s", val, msg);
		ck_assert_uint_eq(m->args.run.set.pacing.target_latency_ns,
				  target_latencies[_i].ns);
	} else {
		ck_assert_msg(!taken, "--target-latency %s taken", val);
		ck_assert_ptr_nonnull(strstr(msg, "--target-latency"));
		ck_assert_msg(strstr(msg, target_latencies[_i].why), "%s", msg);
	}
	free(m);
}
END_TEST

static const char *passed(const struct matrix_cfg *mc, const char *opt, int nth)
{
	for (unsigned int i = 0; i + 1 < mc->npassthrough; i++)
		if (!strcmp(mc->passthrough[i], opt) && !nth--)
			return mc->passthrough[i + 1];
	return NULL;
}

/* The run's options given reach every child as the run takes them; those
 * not given are left to the child's defaults; a value the run refuses is
 * refused before any run. */
START_TEST(test_run_options_passed_on)
{
	struct matrix_state *m = calloc(1, sizeof(*m));
	char a0[] = "--stall", a1[] = "2s", a2[] = "--probe", a3[] = "save,fsync",
	     a4[] = "--probe-cmd", a5[] = "a=true", a6[] = "--probe-cmd", a7[] = "false",
	     a8[] = "--sqlite-journal", a9[] = "wal", a10[] = "--headroom", a11[] = "8",
	     a12[] = "-T", a13[] = "250ms", bad[] = "0", msg[512];
	char *args[] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13 };

	ck_assert_msg(matrix_takes(m, args, 14, msg, sizeof(msg)), "%s", msg);
	matrix_pass_on(m);
	ck_assert_str_eq(passed(&m->mc, "--stall", 0), "2000000000ns");
	ck_assert_str_eq(passed(&m->mc, "--probe", 0), "save,fsync");
	ck_assert_str_eq(passed(&m->mc, "--probe-cmd", 0), "a=true");
	ck_assert_str_eq(passed(&m->mc, "--probe-cmd", 1), "false");
	ck_assert_str_eq(passed(&m->mc, "--sqlite-journal", 0), "wal");
	ck_assert_ptr_null(passed(&m->mc, "--sqlite-sync", 0));
	ck_assert_ptr_null(passed(&m->mc, "--probe-interval", 0));
	ck_assert_ptr_null(passed(&m->mc, "--headroom", 0));	/* adaptive's alone */
	ck_assert_str_eq(m->mc.steer_by, "save");
	ck_assert_uint_eq(m->mc.target_latency_ns, 250000000);
	ck_assert_uint_eq(m->mc.headroom_pct, 8);
	free(m);

	m = calloc(1, sizeof(*m));
	args[1] = bad;
	ck_assert(!matrix_takes(m, args, 2, msg, sizeof(msg)));
	ck_assert_msg(strstr(msg, "--stall '0'"), "%s", msg);
	free(m);
}
END_TEST

Suite *matrix_suite(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_quiet_rule);
	tcase_add_test(tc, test_default_list);
	tcase_add_test(tc, test_parameters);
	tcase_add_loop_test(tc, test_bad_lists, 0, N_ROWS(bad_lists));
	tcase_add_test(tc, test_child_args);
	tcase_add_test(tc, test_outcome_from_result);
	tcase_add_test(tc, test_rows_front_and_recommendation);
	tcase_add_loop_test(tc, test_verdict_bounds, 0, N_ROWS(verdicts));
	tcase_add_loop_test(tc, test_front_same_rate, 0, N_ROWS(same_rates));
	tcase_add_loop_test(tc, test_verdict_pooled, 0, N_ROWS(pooled));
	tcase_add_loop_test(tc, test_page_cache_rate, 0, N_ROWS(rates));
	tcase_add_test(tc, test_count_over_and_judged_probe);
	tcase_add_loop_test(tc, test_no_recommendation, 0, N_ROWS(no_recs));
	tcase_add_test(tc, test_svg_labels_clear);
	tcase_add_test(tc, test_medians_and_partial);
	tcase_add_test(tc, test_settings);
	tcase_add_test(tc, test_json_document);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_runs_grow);
	tcase_add_loop_test(tc, test_target_latency_bounds, 0, N_ROWS(target_latencies));
	tcase_add_test(tc, test_run_options_passed_on);
	suite_add_tcase(s, tc);
	return s;
}
