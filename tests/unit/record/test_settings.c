/* test_settings.c - the words of the settings read back: --data's
 * kinds, --probe's and --steer-by's lists (and the bad name pointed at),
 * --probe-cmd's [NAME=]COMMAND and --steady-criterion's rules; and every
 * word named once (record/settings.c). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <check.h>

#include "lib/c.h"
#include "record/fields.h"
#include "record/record.h"
#include "suites.h"

#define BIT(k) (1u << (k))
#define ALL (BIT(WS_PROBE_FSYNC) | BIT(WS_PROBE_SAVE) | BIT(WS_PROBE_READ))

/* ---- --probe and --steer-by: probe lists ---- */

static const struct {
	const char *s;
	int ret;
	unsigned int set;	/* on success */
	const char *bad;	/* on failure */
} lists[] = {
	{ "fsync", 0, BIT(WS_PROBE_FSYNC), NULL },
	{ "save", 0, BIT(WS_PROBE_SAVE), NULL },
	{ "read", 0, BIT(WS_PROBE_READ), NULL },
	{ "save,read", 0, BIT(WS_PROBE_SAVE) | BIT(WS_PROBE_READ), NULL },
	{ "read,fsync,save", 0, ALL, NULL },
	{ "fsync,fsync", 0, BIT(WS_PROBE_FSYNC), NULL },	/* once is enough */
	{ "", -EINVAL, 0, "" },
	{ "fsync,", -EINVAL, 0, "" },		/* trailing comma */
	{ ",fsync", -EINVAL, 0, "" },		/* empty first name */
	{ "fsync,,save", -EINVAL, 0, "" },
	{ "fsync,bogus", -EINVAL, 0, "bogus" },
	{ "bogus,fsync", -EINVAL, 0, "bogus" },	/* the bad one, not the rest */
	{ "fsyncx", -EINVAL, 0, "fsyncx" },
	{ "fsyn", -EINVAL, 0, "fsyn" },
	{ "FSYNC", -EINVAL, 0, "FSYNC" },		/* names are lower case */
	{ "save ,read", -EINVAL, 0, "save " },
};

START_TEST(test_parse_list)
{
	unsigned int set = 0xdead;
	char bad[32] = "untouched";

	ck_assert_int_eq(ws_probe_parse_list(lists[_i].s, &set, bad, sizeof(bad)),
			 lists[_i].ret);
	if (lists[_i].ret == 0) {
		ck_assert_uint_eq(set, lists[_i].set);
		ck_assert_str_eq(bad, "untouched");
	} else {
		ck_assert_uint_eq(set, 0xdead);		/* no half result */
		ck_assert_str_eq(bad, lists[_i].bad);
	}
}
END_TEST

START_TEST(test_parse_list_bad_cut)
{
	unsigned int set = 0;
	char bad[4];

	ck_assert_int_eq(ws_probe_parse_list("fsync,verylongname", &set, bad,
					  sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "ver");
}
END_TEST

static const struct {
	const char *arg;
	int ret;
	const char *name, *line, *why;
} cmds[] = {
	{ "mail=notmuch new", 0, "mail", "notmuch new", NULL },
	{ "ls -l", 0, "", "ls -l", NULL },
	{ "Mail=x y", 0, "", "Mail=x y", NULL },	/* not a name: the command */
	{ "a_1=true", 0, "a_1", "true", NULL },
	{ "abcdefghijklm=true", -EINVAL, NULL, NULL,
	  "the name 'abcdefghijklm' is longer than 12 characters" },
	{ "fsync=true", -EINVAL, NULL, NULL, "the name 'fsync' is a probe's own; choose another" },
	{ "mail=", -EINVAL, NULL, NULL, "expected [NAME=]COMMAND, e.g. mail='notmuch new'" },
	{ "  ", -EINVAL, NULL, NULL, "expected [NAME=]COMMAND, e.g. mail='notmuch new'" },
};

START_TEST(test_cmd_parse)
{
	struct ws_probe_cmd c;
	char why[128] = "";

	ck_assert_int_eq(ws_probe_cmd_parse(cmds[_i].arg, &c, why, sizeof(why)), cmds[_i].ret);
	if (cmds[_i].ret) {
		ck_assert_str_eq(why, cmds[_i].why);
		return;
	}
	ck_assert_str_eq(c.name, cmds[_i].name);
	ck_assert_str_eq(c.line, cmds[_i].line);
}
END_TEST

/* ---- --data ---- */

static const struct {
	const char *in;
	int ret;
	enum ws_data mode;
	unsigned int pct;
} parse_cases[] = {
	{ "random", 0, WS_DATA_RANDOM, 0 },
	{ "fixed", 0, WS_DATA_FIXED, 0 },
	{ "zero", 0, WS_DATA_ZERO, 0 },
	{ "compressible=0", 0, WS_DATA_COMPRESSIBLE, 0 },
	{ "compressible=75", 0, WS_DATA_COMPRESSIBLE, 75 },
	{ "compressible=100", 0, WS_DATA_COMPRESSIBLE, 100 },
	{ "compressible", -EINVAL, 0, 0 },
	{ "compressible=", -EINVAL, 0, 0 },
	{ "compressible=101", -EINVAL, 0, 0 },
	{ "compressible=5x", -EINVAL, 0, 0 },
	{ "compressible=-5", -EINVAL, 0, 0 },
	{ "Random", -EINVAL, 0, 0 },
	{ "", -EINVAL, 0, 0 },
};

START_TEST(test_data_parse)
{
	enum ws_data mode = WS_DATA_NR;
	unsigned int pct = 999;

	ck_assert_int_eq(ws_data_parse(parse_cases[_i].in, &mode, &pct),
			 parse_cases[_i].ret);
	if (!parse_cases[_i].ret) {
		ck_assert_int_eq(mode, parse_cases[_i].mode);
		ck_assert_uint_eq(pct, parse_cases[_i].pct);
	}
}
END_TEST

/* ---- --steady-criterion ---- */

START_TEST(test_parse_criterion)
{
	static const char *const bad[] = {
		"", "SNIA", "snia:20", "bw-slope", "bw-slope:", "bw-slope:0",
		"bw-slope:-1", "bw-dev:x", "bw-dev:5%%", "bw-dev:1001", "iops:5",
		"bw-dev:5 ",
	};
	struct ws_analysis_params p = { .criterion = WS_STEADY_BW_DEV };

	ck_assert_int_eq(ws_steady_criterion_parse("bw-slope:0.5%", &p), 0);
	ck_assert_int_eq(p.criterion, WS_STEADY_BW_SLOPE);
	ck_assert_double_eq_tol(p.limit_pct, 0.5, 1e-12);
	ck_assert_str_eq(ws_steady_criterion_name(p.criterion), "bw-slope");
	ck_assert_int_eq(ws_steady_criterion_parse("snia", &p), 0);
	ck_assert_int_eq(p.criterion, WS_STEADY_SNIA);
	ck_assert_double_eq(p.limit_pct, 20);
	ck_assert_double_eq(p.slope_pct, 10);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ws_steady_criterion_parse(bad[i], &p) == -EINVAL,
			      "'%s' was taken", bad[i]);
}
END_TEST

/* A criterion and a stretch's figures in words, from the numbers alone. */
START_TEST(test_criterion_words)
{
	struct ws_analysis_params p = { 0 };
	struct ws_stretch st = { .range_pct = 6.4, .excursion_pct = 2.0,
				 .slope_pct = 0.25, .dev_pct = 3.6 };
	char buf[96];

	ck_assert_int_eq(ws_steady_criterion_parse("snia", &p), 0);
	ck_assert_str_eq(ws_steady_criterion_words(&p, buf, sizeof(buf)),
			 "SNIA: range ≤ 20%, slope excursion ≤ 10%");
	ck_assert_str_eq(ws_steady_figures_words(&p, &st, buf, sizeof(buf)),
			 "range 6%, slope excursion 2%");
	ck_assert_int_eq(ws_steady_criterion_parse("bw-slope:0.5%", &p), 0);
	ck_assert_str_eq(ws_steady_criterion_words(&p, buf, sizeof(buf)),
			 "fio bw-slope: |slope| < 0.5% a round");
	ck_assert_str_eq(ws_steady_figures_words(&p, &st, buf, sizeof(buf)),
			 "|slope| 0.25% a round");
	ck_assert_int_eq(ws_steady_criterion_parse("bw-dev:5", &p), 0);
	ck_assert_str_eq(ws_steady_criterion_words(&p, buf, sizeof(buf)),
			 "fio bw-dev: every round within 5%");
	ck_assert_str_eq(ws_steady_figures_words(&p, &st, buf, sizeof(buf)),
			 "deviation 4%");
	p.criterion = WS_STEADY_NR;
	ck_assert_str_eq(ws_steady_criterion_words(&p, buf, sizeof(buf)), "?");
	ck_assert_str_eq(ws_steady_figures_words(&p, &st, buf, sizeof(buf)), "?");
}
END_TEST

/* The writer's limit: a key and words for each, none past the end. */
START_TEST(test_limit_words)
{
	for (int l = 0; l < WS_LIMIT_NR; l++) {
		ck_assert_int_gt(strlen(ws_limit_key((enum ws_limit)l)), 0);
		ck_assert_int_gt(strlen(ws_limit_words((enum ws_limit)l)), 0);
	}
	ck_assert_str_eq(ws_limit_key(WS_LIMIT_DIRECT), "disk");
	ck_assert_str_eq(ws_limit_words(WS_LIMIT_DIRECT),
			 "the disk was the limit (O_DIRECT writes)");
	ck_assert_str_eq(ws_limit_key(WS_LIMIT_NR), "none");
	ck_assert_str_eq(ws_limit_words(WS_LIMIT_NR), "no single limit");
}
END_TEST

/* A failed probe's reason from its kind and code, errno's words without. */
START_TEST(test_failure_words)
{
	static const struct {
		struct ws_probe_failure f;
		const char *want;
	} rows[] = {
		{ { .kind = WS_FAIL_EXIT, .code = 1 }, "exit status 1" },
		{ { .kind = WS_FAIL_EXIT, .code = 126 }, "exit status 126 (not executable)" },
		{ { .kind = WS_FAIL_EXIT, .code = 127 }, "exit status 127 (command not found)" },
		{ { .kind = WS_FAIL_EXIT, .code = 128 }, "exit status 128" },
		{ { .kind = WS_FAIL_SIGNAL, .code = 15 }, "killed by signal 15" },
		{ { .kind = WS_FAIL_TIMEOUT }, "killed after the --probe-timeout" },
		{ { .kind = WS_FAIL_LOST }, "its exit status was lost" },
		{ { .kind = WS_FAIL_SQLITE, .text = "disk I/O error" }, "SQLite: disk I/O error" },
		{ { .kind = WS_FAIL_NONE }, "No space left on device" },
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ck_assert_str_eq(ws_probe_failure_words(&rows[i].f, -ENOSPC, buf, sizeof(buf)),
				 rows[i].want);
}
END_TEST

/* An error's detail from its kind, the bytes and the run's pace. */
START_TEST(test_detail_words)
{
	char buf[192];

	ck_assert_str_eq(ws_detail_words(WS_DETAIL_RESERVE, 64 << 20, WS_PACE_WINDOW,
					 buf, sizeof(buf)),
			 "free space fell to the --reserve of 64.0 MiB");
	ck_assert_str_eq(ws_detail_words(WS_DETAIL_DONTCACHE, 0, WS_PACE_DONTCACHE,
					 buf, sizeof(buf)),
			 "--pace dontcache needs RWF_DONTCACHE: Linux 6.14 or later and a filesystem that supports it");
	ck_assert_str_eq(ws_detail_words(WS_DETAIL_NO_START, 0, WS_PACE_WINDOW, buf, sizeof(buf)),
			 "the writer could not start");
	ck_assert_str_eq(ws_detail_words(WS_DETAIL_NONE, 0, WS_PACE_WINDOW, buf, sizeof(buf)), "");
}
END_TEST

/* Why the probes went without real time or locked memory, in words. */
START_TEST(test_denial_words)
{
	struct ws_denial_why rl = { .kind = WS_DENIED_RLIMIT, .limit = 65536 };
	struct ws_denial_why kernel = { .kind = WS_DENIED_KERNEL };
	struct ws_denial_why err = { .kind = WS_DENIED_ERRNO, .err = ENOMEM };
	struct ws_denial_why none = { .kind = WS_DENIED_NONE };
	char buf[96];

	ck_assert_str_eq(ws_realtime_words(&rl, buf, sizeof(buf)),
			 "no CAP_SYS_NICE and RLIMIT_RTPRIO is 65536");
	ck_assert_str_eq(ws_realtime_words(&kernel, buf, sizeof(buf)),
			 "SCHED_FIFO refused by the kernel (cgroup real-time budget?)");
	ck_assert_str_eq(ws_memory_words(&rl, buf, sizeof(buf)),
			 "no CAP_IPC_LOCK and RLIMIT_MEMLOCK is 64 KiB");
	ck_assert_str_eq(ws_memory_words(&err, buf, sizeof(buf)),
			 "mlockall: Cannot allocate memory");
	ck_assert_str_eq(ws_memory_words(&none, buf, sizeof(buf)), "");
	ck_assert_str_eq(ws_realtime_words(&none, buf, sizeof(buf)), "");
}
END_TEST

/* Each table's words distinct, and a word read back is its own kind. */
START_TEST(test_words_round_trip)
{
	unsigned int set, pct;
	enum ws_data data;
	enum ws_pace pace;
	char bad[16];

	for (int k = 0; k < WS_PROBE_NR; k++) {
		ck_assert_int_eq(ws_probe_parse_list(ws_probe_kind_name((enum ws_probe_kind)k),
						     &set, bad, sizeof(bad)), 0);
		ck_assert_uint_eq(set, BIT(k));
	}
	for (int d = 0; d < WS_DATA_NR; d++)
		if (d != WS_DATA_COMPRESSIBLE) {
			ck_assert_int_eq(ws_data_parse(ws_data_name((enum ws_data)d), &data, &pct), 0);
			ck_assert_int_eq(data, d);
		}
	for (int m = 0; m < WS_PACE_NR; m++) {
		ck_assert(ws_pace_parse(ws_pace_name((enum ws_pace)m), &pace));
		ck_assert_int_eq(pace, m);
	}
	ck_assert_str_eq(ws_probe_kind_name(WS_PROBE_NR), "?");
	ck_assert_str_eq(ws_data_name(WS_DATA_NR), "?");
	ck_assert_str_eq(ws_steady_criterion_name(WS_STEADY_NR), "?");
}
END_TEST

/* The steady state's outcome and why it was not judged, as the summary,
 * compare and report word them. */
START_TEST(test_steady_outcome_words)
{
	char buf[160];

	ck_assert_str_eq(ws_steady_outcome_words(ws_steady_outcome_of(false, false, false)),
			 "not judged");
	ck_assert_str_eq(ws_steady_outcome_words(ws_steady_outcome_of(true, false, false)),
			 "not reached");
	ck_assert_str_eq(ws_steady_outcome_words(ws_steady_outcome_of(true, false, true)),
			 "not steady at the end");
	ck_assert_str_eq(ws_steady_outcome_words(ws_steady_outcome_of(true, true, false)),
			 "steady");
	ck_assert_str_eq(ws_steady_unjudged_words(5, 10000000000ull, 0, NULL, buf, sizeof(buf)),
			 "no window of 5 rounds of 10.0 s in the run");
	ck_assert_str_eq(ws_steady_unjudged_words(5, 500000000ull, 0, "SNIA", buf, sizeof(buf)),
			 "no window of 5 rounds of 500 ms in the run (SNIA)");
	ck_assert_str_eq(ws_steady_unjudged_words(3, 10000000000ull, 4ull << 30, NULL, buf,
						  sizeof(buf)),
			 "no window of 3 rounds of 10.0 s after preconditioning (4.00 GiB of it)");
	ck_assert_str_eq(ws_steady_unjudged_words(3, 10000000000ull, 4ull << 30, "SNIA", buf,
						  sizeof(buf)),
			 "no window of 3 rounds of 10.0 s after preconditioning (4.00 GiB of it; SNIA)");
}
END_TEST

/* A percentile not shown says what it needs (hist.h's rule). */
START_TEST(test_percentile_needs_words)
{
	char buf[64];

	ck_assert_str_eq(ws_percentile_needs_words(0.5, buf, sizeof(buf)), "p50 needs 20 probes");
	ck_assert_str_eq(ws_percentile_needs_words(0.99, buf, sizeof(buf)), "p99 needs 1000 probes");
	ck_assert_str_eq(ws_percentile_needs_words(0.999, buf, sizeof(buf)),
			 "p99.9 needs 10000 probes");
}
END_TEST

/* A setting as typed: short option, units, nothing at its default (both
 * sides of it) or unset. */
static const struct {
	const char *key;
	double num;
	const char *text, *want;
} typed_cases[] = {
	{ "buffer_size", 8388608, NULL, "" },
	{ "buffer_size", 8388608 + 4096, NULL, "-B 8.00 MiB" },
	{ "buffer_size", 1048576, NULL, "-B 1.00 MiB" },
	{ "total_bytes", 314572800, NULL, "-s 300 MiB" },
	{ "total_bytes", NAN, NULL, "" },
	{ "time_s", 0, NULL, "" },
	{ "time_s", 300, NULL, "-t 5m00s" },
	{ "rate_bytes_per_s", 41943040, NULL, "-r 40.0 MiB/s" },
	{ "fadvise", 0, NULL, "" },
	{ "fadvise", 1, NULL, "-f" },
	{ "pace", NAN, "window", "" },
	{ "pace", NAN, "none", "-p none" },
	{ "steady_window", 5, NULL, "" },
	{ "steady_window", 6, NULL, "--steady-window 6" },
	{ "stall_s", 0.5, NULL, "" },
	{ "stall_s", 0.25, NULL, "--stall 250 ms" },
};

START_TEST(test_field_typed)
{
	const struct ws_field *f = ws_field_by_key(typed_cases[_i].key);
	char buf[96];

	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(ws_field_typed(f, typed_cases[_i].num, typed_cases[_i].text, buf,
					sizeof(buf)), typed_cases[_i].want);
}
END_TEST

Suite *settings_suite(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("words");

	tcase_add_loop_test(tc, test_parse_list, 0, ARRAY_SIZE(lists));
	tcase_add_test(tc, test_parse_list_bad_cut);
	tcase_add_loop_test(tc, test_cmd_parse, 0, ARRAY_SIZE(cmds));
	tcase_add_loop_test(tc, test_data_parse, 0, ARRAY_SIZE(parse_cases));
	tcase_add_test(tc, test_parse_criterion);
	tcase_add_test(tc, test_words_round_trip);
	tcase_add_test(tc, test_criterion_words);
	tcase_add_test(tc, test_limit_words);
	tcase_add_test(tc, test_failure_words);
	tcase_add_test(tc, test_detail_words);
	tcase_add_test(tc, test_denial_words);
	tcase_add_test(tc, test_steady_outcome_words);
	tcase_add_test(tc, test_percentile_needs_words);
	tcase_add_loop_test(tc, test_field_typed, 0, ARRAY_SIZE(typed_cases));
	suite_add_tcase(s, tc);
	return s;
}
