/* test_compare.c - the compare suite: the flag rule on numbers (the 10%
 * edges, zero, missing), --threshold parsing, the other rules (samples a
 * percentile needs, the latency floor, settings that make two runs not
 * comparable, values in units), rows and differences built from small
 * in-memory results, reading files (bad JSON, foreign schema) and the
 * printed report and verdict.
 *
 * JSON is written here with ' for " so that it reads as JSON; json() turns
 * it back before json_tokener_parse(). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <json-c/json.h>

#include "cmd/compare/compare.h"
#include "lib/hist.h"
#include "json_literal.h"
#include "cmd/common/result_read.h"
#include "suites.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The rules of the command line; FORCE judges runs whose settings
 * differ (run_a and run_b below differ in --pace). */
static struct cmp_rules rules(double threshold, bool force)
{
	return (struct cmp_rules){ .threshold_pct = threshold,
				   .floor_ms = 10.0, .force = force };
}

/* compare_build() by RULES, the trees released at once: the report keeps
 * no pointer into them. */
static void build(struct cmp_report *r, const char *ja, const char *jb,
		  struct cmp_rules how)
{
	struct json_object *a = json(ja), *b = json(jb);

	ck_assert_int_eq(compare_build(r, a, b, &how), 0);
	json_object_put(a);
	json_object_put(b);
}

/* ---- the flag rule ----------------------------------------------------- */

static const struct flag_case {
	double a, b;
	enum cmp_better better;
	double threshold;
	enum cmp_flag want;
} flag_cases[] = {
	/* throughput: lower is worse; exactly 10% is not beyond 10% */
	{ 100, 90, CMP_HIGHER, 10, CMP_FLAG_NONE },
	{ 100, 89.9, CMP_HIGHER, 10, CMP_FLAG_REGRESSION },
	{ 100, 110, CMP_HIGHER, 10, CMP_FLAG_NONE },
	{ 100, 110.1, CMP_HIGHER, 10, CMP_FLAG_IMPROVED },
	{ 248, 223.2, CMP_HIGHER, 10, CMP_FLAG_NONE },	/* 10%, inexact in binary */
	{ 248, 223.19, CMP_HIGHER, 10, CMP_FLAG_REGRESSION },
	{ 248, 45, CMP_HIGHER, 10, CMP_FLAG_REGRESSION },
	{ 5, 0, CMP_HIGHER, 10, CMP_FLAG_REGRESSION },
	/* latency: higher is worse */
	{ 100, 110, CMP_LOWER, 10, CMP_FLAG_NONE },
	{ 100, 110.1, CMP_LOWER, 10, CMP_FLAG_REGRESSION },
	{ 100, 90, CMP_LOWER, 10, CMP_FLAG_NONE },
	{ 100, 89.9, CMP_LOWER, 10, CMP_FLAG_IMPROVED },
	{ 3.5, 35, CMP_LOWER, 10, CMP_FLAG_REGRESSION },
	{ 5, 0, CMP_LOWER, 10, CMP_FLAG_IMPROVED },
	{ 100, 100, CMP_LOWER, 10, CMP_FLAG_NONE },
	/* A == 0: no percentage; flagged only when latency or stalls appear */
	{ 0, 0, CMP_LOWER, 10, CMP_FLAG_NONE },
	{ 0, 2, CMP_LOWER, 10, CMP_FLAG_REGRESSION },
	{ 0, 0.001, CMP_LOWER, 1000, CMP_FLAG_REGRESSION },
	{ 0, 5, CMP_HIGHER, 10, CMP_FLAG_NONE },
	{ 0, 0, CMP_HIGHER, 10, CMP_FLAG_NONE },
	/* missing on either side: never flagged */
	{ NAN, 5, CMP_LOWER, 10, CMP_FLAG_NONE },
	{ 5, NAN, CMP_HIGHER, 10, CMP_FLAG_NONE },
	{ NAN, NAN, CMP_LOWER, 10, CMP_FLAG_NONE },
	{ 0, NAN, CMP_LOWER, 10, CMP_FLAG_NONE },
	/* not judged */
	{ 100, 1, CMP_INFO, 10, CMP_FLAG_NONE },
	{ 0, 100, CMP_INFO, 10, CMP_FLAG_NONE },
	/* other thresholds */
	{ 100, 100, CMP_HIGHER, 0, CMP_FLAG_NONE },
	{ 100, 100.001, CMP_LOWER, 0, CMP_FLAG_REGRESSION },
	{ 100, 60, CMP_HIGHER, 50, CMP_FLAG_NONE },
	{ 100, 49, CMP_HIGHER, 50, CMP_FLAG_REGRESSION },
	{ 3.5, 35, CMP_LOWER, 900, CMP_FLAG_NONE },	/* +900% is not beyond 900% */
	{ 100, 102.6, CMP_LOWER, 2.5, CMP_FLAG_REGRESSION },
};

START_TEST(test_flag)
{
	const struct flag_case *c = &flag_cases[_i];

	ck_assert_msg(compare_metric(c->a, c->b, c->better, c->threshold) == c->want,
		      "A %g, B %g, better %d, threshold %g: expected flag %d",
		      c->a, c->b, c->better, c->threshold, c->want);
}
END_TEST

static const struct change_case {
	double a, b;
	bool has;
	double pct;
} change_cases[] = {
	{ 100, 90, true, -10 },
	{ 50, 75, true, 50 },
	{ 248, 45, true, -81.8548387 },
	{ 7, 7, true, 0 },
	{ 0, 5, false, 0 },
	{ 0, 0, false, 0 },
	{ NAN, 1, false, 0 },
	{ 1, NAN, false, 0 },
};

START_TEST(test_change)
{
	const struct change_case *c = &change_cases[_i];
	double pct = 12345;

	ck_assert_int_eq(compare_change(c->a, c->b, &pct), c->has);
	if (c->has)
		ck_assert_double_eq_tol(pct, c->pct, 1e-6);
	else
		ck_assert_double_eq(pct, 12345);
}
END_TEST

static const struct threshold_case {
	const char *s;
	int ret;
	double pct;
} threshold_cases[] = {
	{ "10", 0, 10 }, { "2.5", 0, 2.5 }, { "10%", 0, 10 }, { "0", 0, 0 },
	{ ".5", 0, 0.5 }, { "150", 0, 150 }, { "007", 0, 7 },
	{ "", -EINVAL, 0 }, { "%", -EINVAL, 0 }, { "-5", -EINVAL, 0 },
	{ "+5", -EINVAL, 0 }, { " 5", -EINVAL, 0 }, { "5 ", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 }, { "1e3", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
	{ "nan", -EINVAL, 0 }, { "10%%", -EINVAL, 0 }, { "1.2.3", -EINVAL, 0 },
	{ ".", -EINVAL, 0 }, { "5%x", -EINVAL, 0 }, { "5x", -EINVAL, 0 },
};

START_TEST(test_threshold)
{
	const struct threshold_case *c = &threshold_cases[_i];
	double pct = -1;

	ck_assert_msg(compare_parse_threshold(c->s, &pct) == c->ret,
		      "'%s': expected %d", c->s, c->ret);
	if (!c->ret)
		ck_assert_double_eq(pct, c->pct);
	else
		ck_assert_double_eq(pct, -1);
}
END_TEST

/* ---- the other rules ---------------------------------------------------- */

static const struct samples_case {
	double q;
	unsigned long n;
} samples_cases[] = {
	{ 0.5, 20 }, { 0.9, 100 }, { 0.99, 1000 }, { 0.999, 10000 }, { 0.75, 40 },
};

START_TEST(test_min_samples)
{
	const struct samples_case *c = &samples_cases[_i];

	ck_assert_uint_eq(hist_min_samples(c->q), c->n);
}
END_TEST

#define LATENCY true
#define OTHER false

static const struct judge_case {
	double a, b;
	enum cmp_better better;
	bool latency;
	double q, na, nb;	/* q 0: not a percentile */
	double floor_ms;
	bool comparable;
	enum cmp_flag would;
	enum cmp_skip skip;
} judge_cases[] = {
	/* the user's p99 of ~80 probes: the maximum, not judged */
	{ 22, 95, CMP_LOWER, LATENCY, 0.99, 80, 80, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	{ 22, 95, CMP_LOWER, LATENCY, 0.99, 1000, 999, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	{ 22, 95, CMP_LOWER, LATENCY, 0.99, 999, 5000, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	{ 22, 95, CMP_LOWER, LATENCY, 0.99, 1000, 1000, 10, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	{ 95, 22, CMP_LOWER, LATENCY, 0.99, 1000, 1000, 10, true, CMP_FLAG_IMPROVED, CMP_JUDGED },
	{ 95, 22, CMP_LOWER, LATENCY, 0.99, 10, 1000, 10, true, CMP_FLAG_IMPROVED, CMP_SKIP_SAMPLES },
	{ 22, 95, CMP_LOWER, LATENCY, 0.5, 20, 20, 10, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	{ 22, 95, CMP_LOWER, LATENCY, 0.5, 19, 20, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	{ 22, 95, CMP_LOWER, LATENCY, 0.999, 9999, 10000, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	{ 22, 95, CMP_LOWER, LATENCY, 0.999, 10000, 10000, 10, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	/* a count the file lacks proves nothing */
	{ 22, 95, CMP_LOWER, LATENCY, 0.99, NAN, 5000, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	/* the maximum is no percentile: its samples do not matter */
	{ 22, 95, CMP_LOWER, LATENCY, 0, 3, 3, 10, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	/* the floor: 2.2 -> 9.5 ms stays under 10 ms; at 10 it is not under */
	{ 2.2, 9.5, CMP_LOWER, LATENCY, 0, NAN, NAN, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_FLOOR },
	{ 2.2, 10, CMP_LOWER, LATENCY, 0, NAN, NAN, 10, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	{ 9.5, 2.2, CMP_LOWER, LATENCY, 0, NAN, NAN, 10, true, CMP_FLAG_IMPROVED, CMP_SKIP_FLOOR },
	{ 12, 2.2, CMP_LOWER, LATENCY, 0, NAN, NAN, 10, true, CMP_FLAG_IMPROVED, CMP_JUDGED },
	{ 0, 9.5, CMP_LOWER, LATENCY, 0, NAN, NAN, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_FLOOR },
	{ 2.2, 9.5, CMP_LOWER, LATENCY, 0, NAN, NAN, 0, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	{ 2.2, 9.5, CMP_LOWER, LATENCY, 0.5, 5000, 5000, 2, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	/* a percentile short of samples says so before the floor does */
	{ 2.2, 9.5, CMP_LOWER, LATENCY, 0.99, 80, 80, 10, true, CMP_FLAG_REGRESSION, CMP_SKIP_SAMPLES },
	/* no floor for what is not a latency: stalls appear */
	{ 0, 2, CMP_LOWER, OTHER, 0, NAN, NAN, 10, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	{ 248, 45, CMP_HIGHER, OTHER, 0, NAN, NAN, 1000, true, CMP_FLAG_REGRESSION, CMP_JUDGED },
	/* not comparable: nothing judged, whatever the threshold says */
	{ 248, 45, CMP_HIGHER, OTHER, 0, NAN, NAN, 10, false, CMP_FLAG_REGRESSION, CMP_SKIP_CONFIG },
	{ 22, 95, CMP_LOWER, LATENCY, 0.99, 5000, 5000, 10, false, CMP_FLAG_REGRESSION, CMP_SKIP_CONFIG },
	{ 100, 101, CMP_HIGHER, OTHER, 0, NAN, NAN, 10, true, CMP_FLAG_NONE, CMP_JUDGED },
};

START_TEST(test_judge)
{
	const struct judge_case *c = &judge_cases[_i];
	struct cmp_rules how = { .threshold_pct = 10, .floor_ms = c->floor_ms };
	struct cmp_row row = {
		.better = c->better, .latency = c->latency, .quantile = c->q,
		.samples_a = c->na, .samples_b = c->nb,
		.a = { .kind = CMP_NUMBER, .num = c->a },
		.b = { .kind = CMP_NUMBER, .num = c->b },
	};

	compare_judge(&row, &how, c->comparable);
	ck_assert_msg(row.would == c->would && row.skip == c->skip,
		      "case %d (%g -> %g): would %d skip %d, expected %d %d", _i,
		      c->a, c->b, row.would, row.skip, c->would, c->skip);
	ck_assert_int_eq(row.flag, c->skip == CMP_JUDGED ? c->would : CMP_FLAG_NONE);
}
END_TEST

static const struct unit_case {
	const char *path;
	double v;
	const char *text;	/* NULL: shown as written */
} unit_cases[] = {
	/* the user's auto-chosen file sizes */
	{ "config.file_size", 70447529984, "65.6 GiB" },
	{ "config.file_size", 70070042624, "65.3 GiB" },
	{ "config.buffer_size", 8388608, "8.00 MiB" },
	{ "config.total_bytes", 67108864, "64.0 MiB" },
	{ "config.reserve", 1073741824, "1.00 GiB" },
	{ "config.probe_size", 4096, "4.00 KiB" },
	{ "config.precondition_bytes", 0, "0 B" },
	{ "config.rate_bytes_per_s", 26214400, "25.0 MiB/s" },
	{ "config.rate_bytes_per_s", 0, "none" },
	{ "target.fs_size", 1000202043392, "932 GiB" },
	{ "target.size_at_open", 512, "512 B" },
	{ "fingerprint.system.mem_total", 33370501120, "31.1 GiB" },
	{ "fingerprint.system.vm.dirty_bytes", 268435456, "256 MiB" },
	{ "fingerprint.filesystem.block_size", 4096, "4.00 KiB" },
	{ "fingerprint.block.disks[0].size", 1000204886016, "932 GiB" },
	{ "fingerprint.block.disks[1].queue.read_ahead_kb", 128, "128 KiB" },
	{ "fingerprint.block.disks[0].queue.max_sectors_kb", 4096, "4.00 MiB" },
	{ "fingerprint.block.disks[0].queue.discard_granularity", 512, "512 B" },
	{ "each_bytes", 1073741824, "1.00 GiB" },
	/* not bytes */
	{ "config.window", 4096, NULL },
	{ "config.compress_pct", 50, NULL },
	{ "fingerprint.block.disks[0].queue.nr_requests", 1023, NULL },
	{ "fingerprint.block.disks[0].partition.start_sector", 2048, NULL },
	{ "fingerprint.system.vm.dirty_ratio", 20, NULL },
	{ "fingerprint.cpus[0]", 4, NULL },
	{ "config.steady_window", 5, NULL },
	/* bytes, but not a byte count the file could hold */
	{ "config.file_size", 1.5, NULL },
	{ "config.file_size", -4096, NULL },
	{ "config.file_size", 1e30, NULL },
};

START_TEST(test_units)
{
	const struct unit_case *c = &unit_cases[_i];
	char buf[32] = "untouched";
	bool shown = compare_format_unit(buf, sizeof(buf), c->v, compare_unit_of(c->path));

	ck_assert_msg(shown == !!c->text, "%s = %g: %s", c->path, c->v, buf);
	ck_assert_str_eq(buf, c->text ? c->text : "untouched");
}
END_TEST

static const struct setting_case {
	const char *path;
	bool matrix;
	const char *label;	/* NULL: information only */
} setting_cases[] = {
	{ "config.rate_bytes_per_s", false, "--rate" },
	{ "config.pace", false, "--pace" },
	{ "config.buffer_size", false, "--buffer-size" },
	{ "config.data", false, "--data" },
	{ "config.compress_pct", false, "--data" },
	{ "config.iodepth", false, "--iodepth" },
	{ "config.target_latency_ms", false, "--target-latency" },
	{ "config.probes", false, "--probe" },
	{ "config.probes[1]", false, "--probe" },
	{ "config.probe_cmds[0].command", false, "--probe-cmd" },
	{ "config.probe_size", false, "--probe-size" },
	{ "target.fs_type", false, "filesystem" },
	{ "fingerprint.filesystem.type", false, "filesystem" },
	{ "fingerprint.block.kind", false, "device" },
	{ "fingerprint.block.disks[0].model", false, "device" },
	{ "fingerprint.block.disks[12].model", false, "device" },
	/* what people compare, names, what writestress chose */
	{ "config.file", false, NULL },
	{ "config.files[0]", false, NULL },
	{ "config.file_size", false, NULL },
	{ "config.reserve", false, NULL },
	{ "config.interval_s", false, NULL },
	{ "config.queue.engine", false, NULL },
	{ "config.scheduler", false, NULL },
	{ "config.ioprio", false, NULL },
	{ "config.drop_caches", false, NULL },
	{ "config.probe_dir", false, NULL },
	{ "system.release", false, NULL },
	{ "fingerprint.system.kernel", false, NULL },
	{ "fingerprint.system.vm.dirty_bytes", false, NULL },
	{ "fingerprint.filesystem.options", false, NULL },
	{ "fingerprint.block.device", false, NULL },
	{ "fingerprint.block.disks[0].queue.scheduler", false, NULL },
	{ "fingerprint.block.disks[0].queue.wbt_lat_usec", false, NULL },
	{ "fingerprint.block.disks[0].modelx", false, NULL },
	{ "config.pacer", false, NULL },
	{ "config", false, NULL },
	/* a matrix's own */
	{ "target_latency_ms", true, "--target-latency" },
	{ "each_s", true, "--each" },
	{ "strategies[2]", true, NULL },
	{ "setting_kind", true, NULL },
	{ "target_latency_ms", false, NULL },
	{ "config.pace", true, NULL },
};

START_TEST(test_settings)
{
	const struct setting_case *c = &setting_cases[_i];
	const struct cmp_setting *s = compare_setting_of(c->path, c->matrix);

	if (c->label)
		ck_assert_msg(s && !strcmp(s->label, c->label), "%s: %s, expected %s",
			      c->path, s ? s->label : "none", c->label);
	else
		ck_assert_msg(!s, "%s changes the result (%s)", c->path, s->label);
}
END_TEST

/* ---- rows and differences ---------------------------------------------- */

/* A run at 248 MiB/s that settled, and one at 45 MiB/s with stalls, a
 * third phase, a slowdown, another pace and kernel, a save probe and a
 * fingerprint. */
static const char run_a[] =
	"{'schema':'writestress-result/1','tool':{'name':'writestress','version':'0.1.0'},"
	"'started_at':'2026-01-01T00:00:00Z',"
	"'config':{'file':'f','pace':'window','window':1,'interval_s':0.20000000000000001},"
	"'target':{'path':'f','fs_type':'ext4','fs_avail':10737418240,'file':'created'},"
	"'system':{'sysname':'Linux','release':'6.1.0'},"
	"'summary':{'bytes':2684354560,'elapsed_s':10.25,'mibps':248,'exit_reason':'bound'},"
	"'probes':[{'name':'fsync','count':10000,"
	"  'raw':{'count':10000,'p50_ms':1,'p90_ms':2,'p99_ms':3.5,'p99_9_ms':5},'max_ms':6,"
	"  'corrected':{'count':10000,'p99_ms':4},"
	"  'stalls':{'count':0,'total_s':0,'longest':null}}],"
	"'phases':[{'to_bytes':1073741824,'mibps':250},{'to_bytes':2684354560,'mibps':240}],"
	"'initial_mibps':250,'slowdown':null,"
	"'steady':{'reached':true,'mibps':240,'from_bytes':2147483648,'at_bytes':2415919104},'complete':true}";

static const char run_b[] =
	"{'schema':'writestress-result/1','tool':{'name':'writestress','version':'0.1.0'},"
	"'started_at':'2026-01-02T00:00:00Z',"
	"'config':{'file':'f','pace':'none','interval_s':0.2,'fadvise':true},"
	"'target':{'path':'g','fs_type':'ext4','fs_avail':5368709120,'file':'reused'},"
	"'system':{'sysname':'Linux','release':'6.2.0'},"
	"'fingerprint':{'disk':{'model':'X 870','rotational':false},'cpus':[4,8]},"
	"'summary':{'bytes':2684354560,'elapsed_s':56.9,'mibps':45,'exit_reason':'signal'},"
	"'probes':[{'name':'save','count':3},"
	"  {'name':'fsync','count':12000,"
	"  'raw':{'count':12000,'p50_ms':1.05,'p90_ms':2,'p99_ms':35,'p99_9_ms':5.4},'max_ms':900,"
	"  'corrected':{'count':12050,'p99_ms':4.3},"
	"  'stalls':{'count':2,'total_s':1.5,'longest':{'duration_ms':900}}}],"
	"'phases':[{'to_bytes':536870912,'mibps':250},{'to_bytes':1073741824,'mibps':100},"
	"  {'to_bytes':2684354560,'mibps':40}],"
	"'initial_mibps':250,'slowdown':{'at_bytes':536870912,'at_s':2.5},"
	"'steady':{'reached':false},'complete':true}";

#define M CMP_MISSING
#define N CMP_NUMBER
#define T CMP_TEXT
#define GIB 1073741824.0

static const struct row_case {
	const char *metric;
	enum cmp_kind ka;
	double a;		/* or, for CMP_TEXT, the text in ta */
	const char *ta;
	enum cmp_kind kb;
	double b;
	const char *tb;
	enum cmp_flag flag;
} row_cases[] = {
	{ "throughput MiB/s", N, 248, NULL, N, 45, NULL, CMP_FLAG_REGRESSION },
	{ "elapsed s", N, 10.25, NULL, N, 56.9, NULL, CMP_FLAG_NONE },
	{ "written GiB", N, 2.5, NULL, N, 2.5, NULL, CMP_FLAG_NONE },
	{ "exit reason", T, 0, "bound", T, 0, "signal", CMP_FLAG_NONE },
	{ "initial rate MiB/s", N, 250, NULL, N, 250, NULL, CMP_FLAG_NONE },
	{ "phases", N, 2, NULL, N, 3, NULL, CMP_FLAG_NONE },
	{ "phase 1 MiB/s", N, 250, NULL, N, 250, NULL, CMP_FLAG_NONE },
	{ "phase 1 until GiB", N, 1, NULL, N, 0.5, NULL, CMP_FLAG_NONE },
	{ "phase 2 MiB/s", N, 240, NULL, N, 100, NULL, CMP_FLAG_REGRESSION },
	{ "phase 3 MiB/s", M, 0, NULL, N, 40, NULL, CMP_FLAG_NONE },
	{ "phase 3 until GiB", M, 0, NULL, N, 2.5, NULL, CMP_FLAG_NONE },
	{ "slowdown at GiB", T, 0, "none", N, 0.5, NULL, CMP_FLAG_NONE },
	{ "slowdown at s", T, 0, "none", N, 2.5, NULL, CMP_FLAG_NONE },
	{ "steady rate MiB/s", N, 240, NULL, T, 0, "not reached", CMP_FLAG_NONE },
	{ "steady from GiB", N, 2, NULL, T, 0, "not reached", CMP_FLAG_NONE },
	{ "free space GiB", N, 10, NULL, N, 5, NULL, CMP_FLAG_NONE },
	{ "fsync count", N, 10000, NULL, N, 12000, NULL, CMP_FLAG_NONE },
	{ "fsync raw p50 ms", N, 1, NULL, N, 1.05, NULL, CMP_FLAG_NONE },
	{ "fsync raw p99 ms", N, 3.5, NULL, N, 35, NULL, CMP_FLAG_REGRESSION },
	{ "fsync raw p99.9 ms", N, 5, NULL, N, 5.4, NULL, CMP_FLAG_NONE },
	{ "fsync max ms", N, 6, NULL, N, 900, NULL, CMP_FLAG_REGRESSION },
	{ "fsync corrected p99 ms", N, 4, NULL, N, 4.3, NULL, CMP_FLAG_NONE },
	{ "fsync stalls", N, 0, NULL, N, 2, NULL, CMP_FLAG_REGRESSION },
	{ "fsync stall total s", N, 0, NULL, N, 1.5, NULL, CMP_FLAG_REGRESSION },
	{ "fsync longest stall ms", N, 0, NULL, N, 900, NULL, CMP_FLAG_REGRESSION },
	{ "save count", M, 0, NULL, N, 3, NULL, CMP_FLAG_NONE },
	{ "save raw p99 ms", M, 0, NULL, M, 0, NULL, CMP_FLAG_NONE },
	{ "save longest stall ms", M, 0, NULL, M, 0, NULL, CMP_FLAG_NONE },
};

static void check_value(const char *metric, char side, const struct cmp_value *v,
			enum cmp_kind kind, double num, const char *text)
{
	ck_assert_msg(v->kind == kind, "%s, %c: kind %d, expected %d", metric,
		      side, v->kind, kind);
	if (kind == CMP_NUMBER)
		ck_assert_msg(fabs(v->num - num) < 1e-9, "%s, %c: %g, expected %g",
			      metric, side, v->num, num);
	if (kind == CMP_TEXT)
		ck_assert_str_eq(v->text, text);
}

START_TEST(test_rows)
{
	const struct row_case *c = &row_cases[_i];
	struct cmp_report r;
	const struct cmp_row *row;

	/* the runs differ in --pace: judged only with --force */
	build(&r, run_a, run_b, rules(10, true));
	row = compare_find_row(&r, c->metric);
	ck_assert_msg(row, "no row '%s'", c->metric);
	check_value(c->metric, 'A', &row->a, c->ka, c->a, c->ta);
	check_value(c->metric, 'B', &row->b, c->kb, c->b, c->tb);
	ck_assert_msg(row->flag == c->flag, "%s: flag %d, expected %d", c->metric,
		      row->flag, c->flag);
	compare_free(&r);
}
END_TEST

START_TEST(test_counts_and_order)
{
	struct cmp_report r;
	unsigned int regressions = 0;

	build(&r, run_a, run_b, rules(10, true));
	for (int i = 0; i < N_ROWS(row_cases); i++)
		regressions += row_cases[i].flag == CMP_FLAG_REGRESSION;
	ck_assert_uint_eq(r.regressions, regressions);
	ck_assert_uint_eq(r.improvements, 0);
	/* A's probes first, then those only B has */
	ck_assert(compare_find_row(&r, "fsync count") <
		  compare_find_row(&r, "save count"));
	ck_assert_str_eq(r.info_a.version, "0.1.0");
	ck_assert_str_eq(r.info_b.started_at, "2026-01-02T00:00:00Z");
	compare_free(&r);
	/* the other way round, every regression is an improvement, and
	   A's third phase, which B lacks, is not judged */
	build(&r, run_b, run_a, rules(10, true));
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.improvements, regressions);
	ck_assert(compare_find_row(&r, "fsync stalls")->flag == CMP_FLAG_IMPROVED);
	ck_assert(compare_find_row(&r, "phase 3 MiB/s")->flag == CMP_FLAG_NONE);
	compare_free(&r);
	/* without --force nothing is judged: another --pace */
	build(&r, run_a, run_b, rules(10, false));
	ck_assert(!r.judged);
	ck_assert_uint_eq(r.changing, 1);
	ck_assert_uint_eq(r.regressions + r.improvements, 0);
	for (size_t i = 0; i < r.nrows; i++)
		ck_assert_msg(r.rows[i].flag == CMP_FLAG_NONE, "%s flagged",
			      r.rows[i].metric);
	ck_assert_int_eq(compare_find_row(&r, "throughput MiB/s")->would,
			 CMP_FLAG_REGRESSION);
	ck_assert_int_eq(compare_find_row(&r, "throughput MiB/s")->skip, CMP_SKIP_CONFIG);
	compare_free(&r);
}
END_TEST

static const struct diff_case {
	int system;		/* 0: configuration, 1: system */
	const char *path, *a, *b;
	const char *changes;	/* NULL: information only */
} diff_cases[] = {
	{ 0, "config.pace", "window", "none", "--pace" },
	/* a setting one file lacks: an older file, not another setting */
	{ 0, "config.window", "1", "-", NULL },
	{ 0, "config.fadvise", "-", "true", NULL },
	/* another kernel is what compare is for */
	{ 1, "system.release", "6.1.0", "6.2.0", NULL },
	{ 1, "target.file", "created", "reused", NULL },
	{ 1, "fingerprint.disk.model", "-", "X 870", NULL },
	{ 1, "fingerprint.disk.rotational", "-", "false", NULL },
	{ 1, "fingerprint.cpus[0]", "-", "4", NULL },
	{ 1, "fingerprint.cpus[1]", "-", "8", NULL },
};

/* Paths that must not be listed: equal values (0.2 written two ways),
 * and the fields that differ on every run or repeat another. */
static const char *const not_listed[] = {
	"config.file", "config.interval_s", "target.path", "target.fs_avail",
	"target.fs_type", "system.sysname", "tool.version", "tool.name",
};

static const struct cmp_diff *find_diff(const struct cmp_diff *d, size_t n,
					const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].path, path))
			return &d[i];
	return NULL;
}

START_TEST(test_diffs)
{
	struct cmp_report r;

	build(&r, run_a, run_b, rules(10, false));
	for (int i = 0; i < N_ROWS(diff_cases); i++) {
		const struct diff_case *c = &diff_cases[i];
		const struct cmp_diff *d = c->system ?
			find_diff(r.system, r.nsystem, c->path) :
			find_diff(r.config, r.nconfig, c->path);

		ck_assert_msg(d, "no difference listed at %s", c->path);
		ck_assert_str_eq(d->a, c->a);
		ck_assert_str_eq(d->b, c->b);
		if (c->changes)
			ck_assert_pstr_eq(d->changes, c->changes);
		else
			ck_assert_msg(!d->changes, "%s changes the result", c->path);
		ck_assert_ptr_null(d->note);
	}
	for (int i = 0; i < N_ROWS(not_listed); i++) {
		ck_assert_msg(!find_diff(r.config, r.nconfig, not_listed[i]) &&
			      !find_diff(r.system, r.nsystem, not_listed[i]),
			      "%s listed as a difference", not_listed[i]);
	}
	ck_assert_uint_eq(r.nconfig, 3);
	ck_assert_uint_eq(r.nsystem, 6);
	ck_assert_uint_eq(r.changing, 1);
	compare_free(&r);
}
END_TEST

START_TEST(test_identical)
{
	struct cmp_report r;

	build(&r, run_b, run_b, rules(10, false));
	ck_assert(r.judged);
	ck_assert_uint_eq(r.changing, 0);
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.improvements, 0);
	ck_assert_uint_eq(r.nconfig, 0);
	ck_assert_uint_eq(r.nsystem, 0);
	for (size_t i = 0; i < r.nrows; i++)
		ck_assert_msg(r.rows[i].flag == CMP_FLAG_NONE, "%s flagged",
			      r.rows[i].metric);
	compare_free(&r);
}
END_TEST

/* Older, partial or damaged files: "-" where a value is missing or of the
 * wrong type, no crash, no flag. */
static const char *const odd_files[] = {
	"{'schema':'writestress-result/1'}",
	"{'schema':'writestress-result/1','summary':null,'probes':null,'phases':null,"
	" 'steady':null,'slowdown':7,'config':null,'system':[]}",
	"{'schema':'writestress-result/1','summary':{'mibps':'fast','bytes':true},"
	" 'probes':{'name':'fsync'},'phases':{'mibps':1},'steady':{'reached':'yes'}}",
	"{'schema':'writestress-result/1','probes':[null,7,{'count':3},{'name':5},"
	" {'name':'fsync','raw':[],'stalls':{'longest':{'duration_ms':null}}},"
	" {'name':'fsync','count':1}],'phases':[null,{'mibps':null}],"
	" 'config':{'a':{'b':[1,{'c':null}]}},'fingerprint':'flat'}",
};

START_TEST(test_missing_fields)
{
	struct json_object *odd = json(odd_files[_i]), *full = json(run_a);
	struct cmp_rules how = rules(10, false);
	struct cmp_report r;
	const struct cmp_row *row;

	/* what an older file lacks makes no difference that counts */
	ck_assert_int_eq(compare_build(&r, odd, full, &how), 0);
	ck_assert(r.judged);
	row = compare_find_row(&r, "throughput MiB/s");
	ck_assert_ptr_nonnull(row);
	ck_assert_int_eq(row->a.kind, CMP_MISSING);
	ck_assert_int_eq(row->b.kind, CMP_NUMBER);
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.improvements, 0);
	compare_free(&r);
	ck_assert_int_eq(compare_build(&r, full, odd, &how), 0);
	ck_assert(r.judged);
	ck_assert_uint_eq(r.regressions, 0);
	compare_free(&r);
	ck_assert_int_eq(compare_build(&r, odd, odd, &how), 0);
	ck_assert_uint_eq(r.regressions + r.improvements, 0);
	ck_assert_uint_eq(r.nconfig + r.nsystem, 0);
	compare_free(&r);
	json_object_put(odd);
	json_object_put(full);
}
END_TEST

START_TEST(test_missing_details)
{
	struct json_object *odd = json(odd_files[3]), *full = json(run_a);
	struct cmp_rules how = rules(10, false);
	struct cmp_report r;
	const struct cmp_row *row;

	ck_assert_int_eq(compare_build(&r, odd, full, &how), 0);
	/* the first fsync counts; the unnamed and the duplicate do not */
	row = compare_find_row(&r, "fsync count");
	ck_assert_int_eq(row->a.kind, CMP_MISSING);
	ck_assert_int_eq(row->b.kind, CMP_NUMBER);
	/* a null anywhere on the way to the longest stall means none */
	ck_assert_int_eq(compare_find_row(&r, "fsync longest stall ms")->a.kind,
			 CMP_NUMBER);
	ck_assert_int_eq(compare_find_row(&r, "phases")->a.num, 2);
	ck_assert_int_eq(compare_find_row(&r, "phase 1 MiB/s")->a.kind, CMP_MISSING);
	ck_assert_ptr_null(compare_find_row(&r, "5 count"));
	ck_assert_ptr_nonnull(find_diff(r.config, r.nconfig, "config.a.b[1].c"));
	ck_assert_str_eq(find_diff(r.config, r.nconfig, "config.a.b[1].c")->a, "null");
	ck_assert_str_eq(find_diff(r.config, r.nconfig, "config.pace")->a, "-");
	ck_assert_str_eq(find_diff(r.system, r.nsystem, "fingerprint")->a, "flat");
	compare_free(&r);
	json_object_put(odd);
	json_object_put(full);
}
END_TEST

/* The user's runs: --rate 25M/s, then 15M/s, each for a minute with the
 * file size chosen from the free space, 80 fsync probes, and the second
 * on another kernel. */
static const char rate25[] =
	"{'schema':'writestress-result/1',"
	"'command_line':['writestress','--rate','25M/s','--time','60','--','--file-size'],"
	"'config':{'file':'f','rate_bytes_per_s':26214400,'pace':'window','total_bytes':null,"
	"  'time_s':60,'file_size':70447529984,'reserve':1073741824},"
	"'system':{'release':'6.1.0'},'summary':{'mibps':25},"
	"'probes':[{'name':'fsync','count':80,'raw':{'count':80,'p50_ms':1.1,'p99_ms':22},"
	"  'max_ms':22}]}";

static const char rate15[] =
	"{'schema':'writestress-result/1',"
	"'command_line':['writestress','--rate=15M/s','--time','60','--res','2G','f'],"
	"'config':{'file':'f','rate_bytes_per_s':15728640,'pace':'window','total_bytes':null,"
	"  'time_s':60,'file_size':70070042624,'reserve':2147483648},"
	"'system':{'release':'6.2.0'},'summary':{'mibps':15},"
	"'probes':[{'name':'fsync','count':80,'raw':{'count':80,'p50_ms':1.1,'p99_ms':95},"
	"  'max_ms':95}]}";

START_TEST(test_not_comparable)
{
	struct cmp_report r;
	const struct cmp_diff *d;

	build(&r, rate25, rate15, rules(10, false));
	ck_assert(!r.judged);
	ck_assert_uint_eq(r.changing, 1);
	ck_assert_uint_eq(r.regressions + r.improvements, 0);
	d = find_diff(r.config, r.nconfig, "config.rate_bytes_per_s");
	ck_assert_ptr_nonnull(d);
	ck_assert_pstr_eq(d->changes, "--rate");
	ck_assert_str_eq(d->a, "25.0 MiB/s");
	ck_assert_str_eq(d->b, "15.0 MiB/s");
	/* chosen by writestress: information, in units, said so; the
	   "--file-size" after "--" is a file's name */
	d = find_diff(r.config, r.nconfig, "config.file_size");
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_null(d->changes);
	ck_assert_str_eq(d->a, "65.6 GiB");
	ck_assert_str_eq(d->b, "65.3 GiB");
	ck_assert_pstr_eq(d->note, "chosen by writestress in A and B");
	/* "--res" is --reserve */
	d = find_diff(r.config, r.nconfig, "config.reserve");
	ck_assert_ptr_nonnull(d);
	ck_assert_str_eq(d->b, "2.00 GiB");
	ck_assert_pstr_eq(d->note, "chosen by writestress in A");
	ck_assert_ptr_null(find_diff(r.system, r.nsystem, "system.release")->changes);
	ck_assert_int_eq(compare_find_row(&r, "throughput MiB/s")->skip, CMP_SKIP_CONFIG);
	compare_free(&r);

	/* --force: judged as before, the settings still counted */
	build(&r, rate25, rate15, rules(10, true));
	ck_assert(r.judged);
	ck_assert_uint_eq(r.changing, 1);
	ck_assert_uint_eq(r.regressions, 2);
	ck_assert_int_eq(compare_find_row(&r, "throughput MiB/s")->flag, CMP_FLAG_REGRESSION);
	/* p99 of 80 probes is their maximum; the maximum is judged */
	ck_assert_int_eq(compare_find_row(&r, "fsync raw p99 ms")->skip, CMP_SKIP_SAMPLES);
	ck_assert_int_eq(compare_find_row(&r, "fsync max ms")->flag, CMP_FLAG_REGRESSION);
	compare_free(&r);
}
END_TEST

/* Another kernel, scheduler, dirty limit, I/O priority, read-ahead:
 * what people compare, so judged; figures in units.  Another device or
 * filesystem, or another set of probes, is not comparable. */
static const char kernel_a[] =
	"{'schema':'writestress-result/1','started_at':'2026-01-01T00:00:00Z',"
	"'config':{'pace':'window','probes':['fsync'],'scheduler':null,'ioprio':'be:4'},"
	"'system':{'release':'6.1.0','version':'#1'},'target':{'fs_type':'ext4'},"
	"'fingerprint':{'system':{'kernel':'6.1.0','vm':{'dirty_bytes':0}},"
	"  'filesystem':{'type':'ext4','options':'rw'},"
	"  'block':{'kind':'partition','device':'sda2','disks':[{'model':'X','size':1000204886016,"
	"    'queue':{'scheduler':'mq-deadline','read_ahead_kb':128}}]}},"
	"'summary':{'mibps':100},"
	"'probes':[{'name':'fsync','count':5000,'raw':{'count':5000,'p99_ms':20}}]}";

static const char kernel_b[] =
	"{'schema':'writestress-result/1','started_at':'2026-02-01T00:00:00Z',"
	"'config':{'pace':'window','probes':['fsync'],'scheduler':'bfq','ioprio':'be:7'},"
	"'system':{'release':'6.6.0','version':'#2'},'target':{'fs_type':'ext4'},"
	"'fingerprint':{'system':{'kernel':'6.6.0','vm':{'dirty_bytes':268435456}},"
	"  'filesystem':{'type':'ext4','options':'rw,noatime'},"
	"  'block':{'kind':'partition','device':'sdb2','disks':[{'model':'X','size':1000204886016,"
	"    'queue':{'scheduler':'bfq','read_ahead_kb':4096}}]}},"
	"'summary':{'mibps':100},"
	"'probes':[{'name':'fsync','count':5000,'raw':{'count':5000,'p99_ms':40}}]}";

START_TEST(test_kernel_comparable)
{
	struct cmp_report r;

	build(&r, kernel_a, kernel_b, rules(10, false));
	ck_assert(r.judged);
	ck_assert_uint_eq(r.changing, 0);
	ck_assert_uint_eq(r.nconfig, 2);
	ck_assert_uint_eq(r.nsystem, 8);
	ck_assert_uint_eq(r.regressions, 1);
	ck_assert_int_eq(compare_find_row(&r, "fsync raw p99 ms")->flag, CMP_FLAG_REGRESSION);
	ck_assert_str_eq(find_diff(r.system, r.nsystem, "fingerprint.system.vm.dirty_bytes")->a, "0 B");
	ck_assert_str_eq(find_diff(r.system, r.nsystem, "fingerprint.system.vm.dirty_bytes")->b, "256 MiB");
	ck_assert_str_eq(find_diff(r.system, r.nsystem,
				   "fingerprint.block.disks[0].queue.read_ahead_kb")->b, "4.00 MiB");
	compare_free(&r);
}
END_TEST

/* kernel_a's file with FROM replaced by TO (once). */
static char *kernel_a_with(const char *from, const char *to)
{
	const char *at = strstr(kernel_a, from);
	char *s;

	ck_assert_ptr_nonnull(at);
	ck_assert_int_ge(asprintf(&s, "%.*s%s%s", (int)(at - kernel_a), kernel_a, to,
				  at + strlen(from)), 0);
	return s;
}

static const struct unlike_case {
	const char *from, *to;
	const char *path, *label;
} unlike_cases[] = {
	{ "'kind':'partition'", "'kind':'loop'", "fingerprint.block.kind", "device" },
	{ "'model':'X'", "'model':'Y'", "fingerprint.block.disks[0].model", "device" },
	{ "'read_ahead_kb':128}}]", "'read_ahead_kb':128}},{'model':'Z'}]",
	  "fingerprint.block.disks[1].model", "device" },
	{ "'filesystem':{'type':'ext4'", "'filesystem':{'type':'xfs'",
	  "fingerprint.filesystem.type", "filesystem" },
	{ "'probes':['fsync']", "'probes':['fsync','save']", "config.probes[1]", "--probe" },
	{ "'probes':['fsync']", "'probes':['save']", "config.probes[0]", "--probe" },
	{ "'pace':'window'", "'pace':'adaptive'", "config.pace", "--pace" },
	{ "'pace':'window'", "'pace':'window','buffer_size':8388608", NULL, NULL },
};

START_TEST(test_unlike)
{
	const struct unlike_case *c = &unlike_cases[_i];
	char *other = kernel_a_with(c->from, c->to);
	struct cmp_report r;
	const struct cmp_diff *d;

	build(&r, kernel_a, other, rules(10, false));
	if (!c->path) {
		/* a setting A's file does not have: an older file */
		ck_assert(r.judged);
		ck_assert_uint_eq(r.changing, 0);
	} else {
		ck_assert(!r.judged);
		ck_assert_uint_eq(r.changing, 1);
		d = find_diff(r.config, r.nconfig, c->path);
		if (!d)
			d = find_diff(r.system, r.nsystem, c->path);
		ck_assert_msg(d, "no difference at %s", c->path);
		ck_assert_pstr_eq(d->changes, c->label);
	}
	compare_free(&r);
	free(other);
}
END_TEST

/* ---- reading files ----------------------------------------------------- */

static const struct load_case {
	const char *content;
	int ret;
	const char *why;	/* a part of the reason */
} load_cases[] = {
	{ "{'schema':'writestress-result/1'}", 0, NULL },
	{ "  {'a':[1,2.5,null]} \n\n\t", 0, NULL },
	{ "42\n", 0, NULL },	/* valid JSON; the schema check refuses it */
	{ "", -EINVAL, "empty file" },
	{ "  \n", -EINVAL, "invalid JSON at byte 3: unexpected end of data" },
	{ "{'schema':", -EINVAL, "invalid JSON at byte 10: unexpected end of data" },
	{ "{'schema':'wri", -EINVAL, "invalid JSON at byte 14: unexpected end of data" },
	{ "{'n':12", -EINVAL, "invalid JSON at byte 7: unexpected end of data" },
	{ "{'a':1} {'b':2}", -EINVAL, "invalid JSON at byte 8: data after the document" },
	{ "{'a':1}x", -EINVAL, "invalid JSON at byte 7: data after the document" },
	{ "{'a':1,}", -EINVAL, "invalid JSON at byte 7" },
	{ "nul", -EINVAL, "invalid JSON" },
};

/* A temporary file holding S (' turned into "); its name into path. */
static void temp_file(char *path, size_t len, const char *s)
{
	int fd;
	FILE *f;

	snprintf(path, len, "/tmp/ws-compare-test.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	for (const char *p = s; *p; p++)
		fputc(*p == '\'' ? '"' : *p, f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_load)
{
	const struct load_case *c = &load_cases[_i];
	struct json_object *doc = (struct json_object *)1;
	char path[64], why[256] = "";
	int ret;

	temp_file(path, sizeof(path), c->content);
	ret = result_load(path, &doc, why, sizeof(why));
	unlink(path);
	ck_assert_msg(ret == c->ret, "'%s': %d (%s), expected %d", c->content, ret,
		      why, c->ret);
	if (c->ret) {
		ck_assert_ptr_null(doc);
		ck_assert_msg(strstr(why, c->why), "'%s': reason '%s', expected '%s'",
			      c->content, why, c->why);
	} else {
		ck_assert_ptr_nonnull(doc);
		json_object_put(doc);
	}
}
END_TEST

/* A document longer than one read, with trailing data in a later one. */
START_TEST(test_load_long)
{
	size_t n = 100000;
	char *s = malloc(n + 64), path[64], why[256];
	struct json_object *doc;

	ck_assert_ptr_nonnull(s);
	strcpy(s, "{'schema':'writestress-result/1','pad':'");
	memset(s + strlen(s), 'x', n);
	strcpy(s + 40 + n, "'}");
	ck_assert_uint_eq(strlen(s), 42 + n);
	temp_file(path, sizeof(path), s);
	ck_assert_int_eq(result_load(path, &doc, why, sizeof(why)), 0);
	ck_assert_int_eq(compare_check_schema(doc, why, sizeof(why)), 0);
	json_object_put(doc);
	unlink(path);

	memset(s, ' ', n);
	strcpy(s + n, "{}x");
	temp_file(path, sizeof(path), s);
	ck_assert_int_eq(result_load(path, &doc, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "invalid JSON at byte 100002: data after the document");
	unlink(path);
	free(s);
}
END_TEST

START_TEST(test_load_unreadable)
{
	struct json_object *doc;
	char why[256];

	ck_assert_int_eq(result_load("/nonexistent/ws.json", &doc, why, sizeof(why)),
			 -ENOENT);
	ck_assert_str_eq(why, strerror(ENOENT));
	ck_assert_ptr_null(doc);
	ck_assert_int_eq(result_load("/", &doc, why, sizeof(why)), -EISDIR);
	ck_assert_str_eq(why, strerror(EISDIR));
	ck_assert_ptr_null(doc);
}
END_TEST

static const struct schema_case {
	const char *doc;
	int ret;
	const char *why;
} schema_cases[] = {
	{ "{'schema':'writestress-result/1'}", 0, "" },
	{ "{'schema':'writestress-result/2'}", -EINVAL,
	  "has unsupported schema 'writestress-result/2': this writestress reads 'writestress-result/1'" },
	{ "{'schema':'writestress-result/10'}", -EINVAL, "unsupported schema" },
	{ "{'schema':''}", -EINVAL, "unsupported schema ''" },
	{ "{'schema':1}", -EINVAL, "is not a writestress result: \"schema\" is not a string" },
	{ "{'schema':null}", -EINVAL, "\"schema\" is not a string" },
	{ "{'tool':{'schema':'writestress-result/1'}}", -EINVAL,
	  "is not a writestress result: no \"schema\" field" },
	{ "[{'schema':'writestress-result/1'}]", -EINVAL,
	  "is not a writestress result: not a JSON object" },
	{ "'writestress-result/1'", -EINVAL, "not a JSON object" },
};

START_TEST(test_schema)
{
	const struct schema_case *c = &schema_cases[_i];
	struct json_object *doc = json(c->doc);
	char why[256] = "";

	ck_assert_int_eq(compare_check_schema(doc, why, sizeof(why)), c->ret);
	ck_assert_msg(strstr(why, c->why), "reason '%s', expected '%s'", why, c->why);
	json_object_put(doc);
}
END_TEST

/* ---- the printed report ------------------------------------------------ */

/* The report on A and B judged by HOW, as text (caller frees). */
static char *printed(const char *ja, const char *jb, struct cmp_rules how)
{
	struct cmp_report r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	build(&r, ja, jb, how);
	compare_print(f, &r, "a.json", "b.json");
	ck_assert_int_eq(fclose(f), 0);
	compare_free(&r);
	return text;
}

/* Where LINE (one or more whole lines) starts in TEXT; fails without. */
static const char *line_at(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return p;
		p++;
	}
	ck_abort_msg("no line '%s' in:\n%s", line, text);
	return NULL;
}

static void assert_line(const char *text, const char *line)
{
	line_at(text, line);
}

START_TEST(test_print)
{
	char *t = printed(run_a, run_b, rules(10, true));

	assert_line(t, "A: a.json (writestress 0.1.0, started 2026-01-01T00:00:00Z)");
	assert_line(t, "B: b.json (writestress 0.1.0, started 2026-01-02T00:00:00Z)");
	/* columns padded to the widest cell; a blank flag leaves '|' last */
	assert_line(t, "metric                 |      A |           B |    change | flag");
	assert_line(t, "-----------------------+--------+-------------+-----------+------------");
	assert_line(t, "throughput MiB/s       |  248.0 |        45.0 |    -81.9% | REGRESSION");
	assert_line(t, "elapsed s              | 10.250 |      56.900 |   +455.1% |");
	assert_line(t, "exit reason            |  bound |      signal |         - |");
	assert_line(t, "phase 3 MiB/s          |      - |        40.0 |         - |");
	assert_line(t, "slowdown at GiB        |   none |       0.500 |         - |");
	assert_line(t, "steady rate MiB/s      |  240.0 | not reached |         - |");
	assert_line(t, "fsync count            |  10000 |       12000 |    +20.0% |");
	assert_line(t, "fsync raw p50 ms       |  1.000 |       1.050 |     +5.0% |");
	assert_line(t, "fsync stalls           |      0 |           2 |         - | REGRESSION");
	assert_line(t, "fsync longest stall ms |  0.000 |     900.000 |         - | REGRESSION");
	assert_line(t, "save count             |      - |           3 |         - |");
	/* another --pace first, judged anyway; the rest after the table */
	ck_assert_ptr_eq(line_at(t, "settings that change the result differ:\n"
				 "  config.pace = window vs none\n"
				 "judged anyway (--force): they may explain any change below"),
			 strstr(t, "settings"));
	ck_assert(strstr(t, "settings") < strstr(t, "\nmetric "));
	assert_line(t, "configuration differences:\n  config.window = 1 vs -\n"
		    "  config.fadvise = - vs true");
	assert_line(t, "  fingerprint.disk.model = - vs X 870");
	assert_line(t, "verdict: 7 regressions beyond 10% (B vs A), with different --pace (--force)");
	free(t);
}
END_TEST

/* The sample rule (hist.h) on both sides: a percentile is shown, and
 * judged, only where its run has 10/(1-X) samples; A 22 ms, B 95 ms. */
static const struct shown_case {
	const char *key;	/* raw's */
	double q;
	unsigned int na, nb;
	const char *cell_a, *cell_b;	/* NULL: the figure */
	enum cmp_flag flag;
} shown_cases[] = {
	{ "p99_ms", 0.99, 999, 1000, "p99 needs 1000 probes", NULL, CMP_FLAG_NONE },
	{ "p99_ms", 0.99, 1000, 999, NULL, "p99 needs 1000 probes", CMP_FLAG_NONE },
	{ "p99_ms", 0.99, 1000, 1000, NULL, NULL, CMP_FLAG_REGRESSION },
	{ "p99_ms", 0.99, 1001, 5000, NULL, NULL, CMP_FLAG_REGRESSION },
	/* the p99.9 of 10 samples compare once printed */
	{ "p99_9_ms", 0.999, 10, 10, "p99.9 needs 10000 probes", "p99.9 needs 10000 probes",
	  CMP_FLAG_NONE },
	{ "p99_9_ms", 0.999, 9999, 10000, "p99.9 needs 10000 probes", NULL, CMP_FLAG_NONE },
	{ "p99_9_ms", 0.999, 10000, 10000, NULL, NULL, CMP_FLAG_REGRESSION },
	{ "p50_ms", 0.5, 19, 20, "p50 needs 20 probes", NULL, CMP_FLAG_NONE },
	{ "p50_ms", 0.5, 20, 20, NULL, NULL, CMP_FLAG_REGRESSION },
};

START_TEST(test_percentile_shown)
{
	const struct shown_case *c = &shown_cases[_i];
	char ja[256], jb[256], metric[64];
	struct cmp_report r;
	const struct cmp_row *row;

	snprintf(ja, sizeof(ja), "{'probes':[{'name':'fsync','raw':{'count':%u,'%s':22}}]}",
		 c->na, c->key);
	snprintf(jb, sizeof(jb), "{'probes':[{'name':'fsync','raw':{'count':%u,'%s':95}}]}",
		 c->nb, c->key);
	build(&r, ja, jb, rules(10, false));
	snprintf(metric, sizeof(metric), "fsync raw p%g ms", c->q * 100);
	row = compare_find_row(&r, metric);
	ck_assert_ptr_nonnull(row);
	if (c->cell_a)
		ck_assert_str_eq(row->a.text, c->cell_a);
	else
		ck_assert_double_eq(compare_value_num(&row->a), 22);
	if (c->cell_b)
		ck_assert_str_eq(row->b.text, c->cell_b);
	else
		ck_assert_double_eq(compare_value_num(&row->b), 95);
	ck_assert_int_eq(row->flag, c->flag);
	ck_assert_uint_eq(r.regressions, c->flag == CMP_FLAG_REGRESSION);
	compare_free(&r);
}
END_TEST

/* A steady state in the run's words: not judged (its reason in a note),
 * not steady at the end; never "not reached" for either. */
START_TEST(test_steady_words)
{
	static const char unjudged[] =
		"{'steady':{'judged':false,'reached':false,'window_rounds':5,'round_s':10,"
		"'precondition_bytes':0,'earlier':null}}";
	static const char changed[] =
		"{'steady':{'judged':true,'reached':false,'window_rounds':5,'round_s':10,"
		"'precondition_bytes':0,'earlier':{'mibps':80}}}";
	static const char preconditioned[] =
		"{'steady':{'judged':false,'reached':false,'window_rounds':3,'round_s':0.5,"
		"'precondition_bytes':4294967296,'earlier':null}}";
	char *t = printed(unjudged, changed, rules(10, false));

	assert_line(t, "steady rate MiB/s  | not judged | not steady at the end |      - |");
	assert_line(t, "notes:\n  steady rate MiB/s not judged in A: no window of 5 rounds of 10.0 s in the run");
	ck_assert_ptr_null(strstr(t, "not reached"));
	free(t);
	t = printed(preconditioned, preconditioned, rules(10, false));
	assert_line(t, "notes:\n  steady rate MiB/s not judged in A and B: no window of 3 rounds of "
		    "500 ms after preconditioning (4.00 GiB of it)");
	ck_assert_ptr_null(strstr(t, "not reached"));
	free(t);
	t = printed(changed, unjudged, rules(10, false));
	assert_line(t, "notes:\n  steady rate MiB/s not judged in B: no window of 5 rounds of 10.0 s in the run");
	free(t);
}
END_TEST

START_TEST(test_print_verdicts)
{
	char *t = printed(run_a, run_a, rules(10, false));

	assert_line(t, "configuration differences:\n  (none)");
	assert_line(t, "system differences:\n  (none)");
	assert_line(t, "verdict: no regression beyond 10%");
	ck_assert_ptr_null(strstr(t, "REGRESSION"));
	ck_assert_ptr_null(strstr(t, "improved"));
	ck_assert_ptr_null(strstr(t, "settings that change"));
	ck_assert_ptr_null(strstr(t, "notes:"));
	free(t);
	/* p50, p99.9 and corrected p99 move 5 to 8%, all under 10 ms */
	t = printed(run_a, run_b, rules(2.5, true));
	assert_line(t, "verdict: 7 regressions beyond 2.5% (B vs A), with different --pace (--force)");
	assert_line(t, "notes:\n"
		    "  fsync raw p50 ms not flagged: under the 10 ms floor in both runs\n"
		    "  fsync raw p99.9 ms not flagged: under the 10 ms floor in both runs\n"
		    "  fsync corrected p99 ms not flagged: under the 10 ms floor in both runs");
	free(t);
	t = printed(run_a, run_b, (struct cmp_rules){ .threshold_pct = 2.5, .force = true });
	assert_line(t, "verdict: 10 regressions beyond 2.5% (B vs A), with different --pace (--force)");
	assert_line(t, "  every latency, however short (--floor 0)");
	ck_assert_ptr_null(strstr(t, "notes:"));
	free(t);
	/* an older file without the probes' counts: no p99 is shown or judged */
	t = printed("{'probes':[{'name':'fsync','raw':{'p99_ms':20}}]}",
		    "{'probes':[{'name':'fsync','raw':{'p99_ms':40}}]}", rules(10, false));
	assert_line(t, "fsync raw p99 ms       | p99 needs 1000 probes | p99 needs 1000 probes |      - |");
	ck_assert_ptr_null(strstr(t, "notes:"));
	assert_line(t, "verdict: no regression beyond 10%");
	free(t);
	t = printed("{'summary':{'mibps':100}}", "{'summary':{'mibps':80}}", rules(10, false));
	assert_line(t, "verdict: 1 regression beyond 10% (B vs A)");
	free(t);
	t = printed("{'summary':{'mibps':100}}", "{'summary':{'mibps':130}}", rules(10, false));
	assert_line(t, "throughput MiB/s   | 100.0 | 130.0 | +30.0% | improved");
	assert_line(t, "verdict: no regression beyond 10%");
	free(t);
}
END_TEST

/* The user's --rate 25M/s against 15M/s: the setting first, the table
 * unjudged, the verdict says why; with --force, judged. */
START_TEST(test_print_not_comparable)
{
	char *t = printed(rate25, rate15, rules(10, false));
	const char *first = line_at(t, "settings that change the result differ:\n"
				    "  config.rate_bytes_per_s = 25.0 MiB/s vs 15.0 MiB/s\n"
				    "not comparable: the table is not judged (--force judges it anyway)");

	ck_assert(first < line_at(t, "metric                 |                     A |                     B |  change | flag"));
	assert_line(t, "throughput MiB/s       |                  25.0 |                  15.0 |  -40.0% |");
	ck_assert_ptr_null(strstr(t, "REGRESSION"));
	ck_assert_ptr_null(strstr(t, "judged by:"));
	ck_assert_ptr_null(strstr(t, "notes:"));
	assert_line(t, "configuration differences:\n"
		    "  config.file_size = 65.6 GiB vs 65.3 GiB (chosen by writestress in A and B)\n"
		    "  config.reserve = 1.00 GiB vs 2.00 GiB (chosen by writestress in A)");
	assert_line(t, "system differences:\n  system.release = 6.1.0 vs 6.2.0");
	assert_line(t, "verdict: not comparable: different --rate (--force judges anyway)");
	free(t);

	t = printed(rate25, rate15, rules(10, true));
	assert_line(t, "settings that change the result differ:\n"
		    "  config.rate_bytes_per_s = 25.0 MiB/s vs 15.0 MiB/s\n"
		    "judged anyway (--force): they may explain any change below");
	assert_line(t, "throughput MiB/s       |                  25.0 |                  15.0 |  -40.0% | REGRESSION");
	assert_line(t, "judged by:\n"
		    "  a change beyond 10% of A (--threshold)\n"
		    "  a latency under 10 ms in both runs is not flagged (--floor)\n"
		    "  pX shown and judged only with 10/(1-X) samples in each run: p50 20, p99 1000, p99.9 10000");
	/* p99 of 80 probes: neither shown nor judged, whatever it moved */
	assert_line(t, "fsync raw p99 ms       | p99 needs 1000 probes | p99 needs 1000 probes |       - |");
	ck_assert_ptr_null(strstr(t, "notes:"));
	assert_line(t, "verdict: 2 regressions beyond 10% (B vs A), with different --rate (--force)");
	free(t);
}
END_TEST

/* Two matrices: strategy by strategy; a strategy in one only has its
 * other side missing; their own settings are the configuration, and
 * another target latency changes the result; a row's percentiles count
 * the fewest samples of its judged probe over its runs. */
static const char matrix_a[] =
	"{'schema':'writestress-matrix/1','target_latency_ms':100,'table':["
	"{'strategy':'none','setting':null,'mibps':20,'p50_ms':1,'p99_ms':8000,'max_ms':8000,'stalls':1,'verdict':'frozen',"
	" 'probes':[{'name':'fsync'}]},"
	"{'strategy':'window','setting':null,'mibps':20,'p50_ms':700,'p99_ms':720,'max_ms':730,'stalls':10,'verdict':'frozen',"
	" 'probes':[{'name':'save'},{'name':'fsync'}]}],"
	"'runs':[{'strategy':'window','setting':null,'result':{'probes':[{'name':'fsync','count':5},"
	"  {'name':'save','count':2000,'raw':{'count':2000}}]}},"
	" {'strategy':'window','setting':null,'result':null},"
	" {'strategy':'window','setting':null,'result':{'probes':[{'name':'save','count':1500}]}},"
	" {'strategy':'none','setting':null,'result':{'probes':[{'name':'fsync','count':900}]}}]}";

static const char matrix_b[] =
	"{'schema':'writestress-matrix/1','target_latency_ms':50,'table':["
	"{'strategy':'window','setting':null,'mibps':20.5,'p50_ms':40,'p99_ms':45,'max_ms':50,'stalls':0,'verdict':'responsive',"
	" 'probes':[{'name':'save'}]},"
	"{'strategy':'adaptive','setting':null,'mibps':19,'p50_ms':30,'p99_ms':48,'max_ms':49,'stalls':0,'verdict':'responsive'}],"
	"'runs':[{'strategy':'window','setting':null,'result':{'probes':[{'name':'save','count':3000}]}}]}";

static void build_matrix(struct cmp_report *r, const char *ja, const char *jb,
			 struct cmp_rules how)
{
	struct json_object *a = json(ja), *b = json(jb);

	ck_assert_int_eq(compare_build_matrix(r, a, b, &how), 0);
	json_object_put(a);
	json_object_put(b);
}

START_TEST(test_matrix)
{
	struct cmp_report r;
	const struct cmp_row *row;

	build_matrix(&r, matrix_a, matrix_b, rules(10, true));
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: p99 ms"));
	ck_assert_int_eq(row->flag, CMP_FLAG_IMPROVED);
	/* save's, not fsync's; the failed run left none */
	ck_assert_double_eq(row->samples_a, 1500);
	ck_assert_double_eq(row->samples_b, 3000);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: p50 ms"));
	ck_assert_int_eq(row->flag, CMP_FLAG_IMPROVED);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: MiB/s"));
	ck_assert_int_eq(row->flag, CMP_FLAG_NONE);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "none: MiB/s"));
	ck_assert_int_eq(row->b.kind, CMP_MISSING);
	ck_assert_double_eq(compare_find_row(&r, "none: p99 ms")->samples_a, 900);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "adaptive: p99 ms"));
	ck_assert_int_eq(row->a.kind, CMP_MISSING);
	ck_assert(isnan(row->samples_b));	/* no run of it in B */
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: verdict"));
	ck_assert_str_eq(row->b.text, "responsive");
	ck_assert_uint_eq(r.regressions, 0);
	/* window's p50, p99, max and stalls; its MiB/s is within 10% */
	ck_assert_uint_eq(r.improvements, 4);
	ck_assert_uint_eq(r.nconfig, 1);
	ck_assert_str_eq(r.config[0].path, "target_latency_ms");
	ck_assert_pstr_eq(r.config[0].changes, "--target-latency");
	ck_assert_uint_eq(r.changing, 1);
	compare_free(&r);

	build_matrix(&r, matrix_a, matrix_b, rules(10, false));
	ck_assert(!r.judged);
	ck_assert_uint_eq(r.improvements + r.regressions, 0);
	compare_free(&r);

	/* the same latency target; too few samples, or none known */
	build_matrix(&r, matrix_a, matrix_a, rules(10, false));
	ck_assert(r.judged);
	ck_assert_int_eq(compare_find_row(&r, "none: p99 ms")->skip, CMP_SKIP_SAMPLES);
	compare_free(&r);
}
END_TEST

/* Two watches (no writer): how long each watched, what the others wrote
 * (null: not traced), the probes; a writer's rows are not there, though
 * a watch's file has its empty phases and steady state. */
static const char watch_a[] =
	"{'schema': 'writestress-result/1', 'mode': 'watch',"
	" 'summary': {'bytes': 0, 'mibps': 0, 'elapsed_s': 60, 'exit_reason': 'time',"
	"  'culprits_others': {'total_written_bytes': 1073741824}},"
	" 'phases': [{'mibps': 0, 'to_bytes': 0}], 'steady': {'reached': false},"
	" 'probes': [{'name': 'fsync', 'count': 600, 'max_ms': 5,"
	"  'stalls': {'count': 0, 'total_s': 0}}]}";
static const char watch_b[] =
	"{'schema': 'writestress-result/1', 'mode': 'watch',"
	" 'summary': {'bytes': 0, 'mibps': 0, 'elapsed_s': 60, 'exit_reason': 'signal',"
	"  'culprits_others': null},"
	" 'phases': [{'mibps': 0, 'to_bytes': 0}], 'steady': {'reached': false},"
	" 'probes': [{'name': 'fsync', 'count': 590, 'max_ms': 900,"
	"  'stalls': {'count': 2, 'total_s': 1.5}}]}";

START_TEST(test_watch)
{
	static const char *const writers[] = {
		"throughput MiB/s", "elapsed s", "written GiB", "initial rate MiB/s",
		"phases", "phase 1 MiB/s", "slowdown at GiB", "steady rate MiB/s",
		"free space GiB",
	};
	struct json_object *a = json(watch_a), *run = json(run_a);
	struct cmp_report r;
	const struct cmp_row *row;

	ck_assert(result_is_watch(a));
	ck_assert(!result_is_watch(run));	/* a run's file, "mode" or not */
	json_object_put(a);
	json_object_put(run);
	build(&r, watch_a, watch_b, rules(10, false));
	ck_assert(r.judged);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "watched s"));
	check_value("watched s", 'A', &row->a, CMP_NUMBER, 60, NULL);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "exit reason"));
	check_value("exit reason", 'B', &row->b, CMP_TEXT, 0, "signal");
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "others wrote GiB"));
	check_value("others wrote GiB", 'A', &row->a, CMP_NUMBER, 1, NULL);
	check_value("others wrote GiB", 'B', &row->b, CMP_MISSING, 0, NULL);
	ck_assert_int_eq(row->flag, CMP_FLAG_NONE);
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		ck_assert_msg(!compare_find_row(&r, writers[i]), "a writer's row '%s'", writers[i]);
	ck_assert_int_eq(compare_find_row(&r, "fsync max ms")->flag, CMP_FLAG_REGRESSION);
	ck_assert_int_eq(compare_find_row(&r, "fsync stalls")->flag, CMP_FLAG_REGRESSION);
	ck_assert_uint_eq(r.regressions, 3);	/* max, stalls, stall total */
	compare_free(&r);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("flags");

	tcase_add_loop_test(tc, test_flag, 0, N_ROWS(flag_cases));
	tcase_add_loop_test(tc, test_change, 0, N_ROWS(change_cases));
	tcase_add_loop_test(tc, test_threshold, 0, N_ROWS(threshold_cases));
	tcase_add_loop_test(tc, test_min_samples, 0, N_ROWS(samples_cases));
	tcase_add_loop_test(tc, test_judge, 0, N_ROWS(judge_cases));
	tcase_add_loop_test(tc, test_units, 0, N_ROWS(unit_cases));
	tcase_add_loop_test(tc, test_settings, 0, N_ROWS(setting_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("rows");
	tcase_add_loop_test(tc, test_rows, 0, N_ROWS(row_cases));
	tcase_add_test(tc, test_counts_and_order);
	tcase_add_test(tc, test_diffs);
	tcase_add_test(tc, test_identical);
	tcase_add_loop_test(tc, test_missing_fields, 0, N_ROWS(odd_files));
	tcase_add_test(tc, test_missing_details);
	tcase_add_test(tc, test_matrix);
	tcase_add_test(tc, test_watch);
	tcase_add_test(tc, test_not_comparable);
	tcase_add_test(tc, test_kernel_comparable);
	tcase_add_loop_test(tc, test_unlike, 0, N_ROWS(unlike_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("files");
	tcase_add_loop_test(tc, test_load, 0, N_ROWS(load_cases));
	tcase_add_test(tc, test_load_long);
	tcase_add_test(tc, test_load_unreadable);
	tcase_add_loop_test(tc, test_schema, 0, N_ROWS(schema_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("print");
	tcase_add_test(tc, test_print);
	tcase_add_test(tc, test_print_verdicts);
	tcase_add_loop_test(tc, test_percentile_shown, 0, N_ROWS(shown_cases));
	tcase_add_test(tc, test_steady_words);
	tcase_add_test(tc, test_print_not_comparable);
	suite_add_tcase(s, tc);
	return s;
}
