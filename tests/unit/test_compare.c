/* test_compare.c - the compare suite: the flag rule on numbers (the 10%
 * edges, zero, missing), --threshold parsing, rows and differences built
 * from small in-memory results, reading files (bad JSON, foreign schema)
 * and the printed table and verdict.
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

#include "compare.h"
#include "result_read.h"
#include "suites.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static struct json_object *json(const char *single_quoted)
{
	char *s = strdup(single_quoted);
	struct json_object *o;

	ck_assert_ptr_nonnull(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	o = json_tokener_parse(s);
	ck_assert_msg(o, "test JSON does not parse: %s", s);
	free(s);
	return o;
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
	"'probes':[{'name':'fsync','count':100,"
	"  'raw':{'count':100,'p50_ms':1,'p90_ms':2,'p99_ms':3.5,'p99_9_ms':5},'max_ms':6,"
	"  'corrected':{'count':100,'p99_ms':4},"
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
	"  {'name':'fsync','count':90,"
	"  'raw':{'count':90,'p50_ms':1.05,'p90_ms':2,'p99_ms':35,'p99_9_ms':5.4},'max_ms':900,"
	"  'corrected':{'count':120,'p99_ms':4.3},"
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
	{ "fsync count", N, 100, NULL, N, 90, NULL, CMP_FLAG_NONE },
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
	struct json_object *a = json(run_a), *b = json(run_b);
	struct cmp_report r;
	const struct cmp_row *row;

	ck_assert_int_eq(compare_build(&r, a, b, 10), 0);
	/* the trees may go: the report keeps no pointer into them */
	json_object_put(a);
	json_object_put(b);
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
	struct json_object *a = json(run_a), *b = json(run_b);
	struct cmp_report r;
	unsigned int regressions = 0;

	ck_assert_int_eq(compare_build(&r, a, b, 10), 0);
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
	ck_assert_int_eq(compare_build(&r, b, a, 10), 0);
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.improvements, regressions);
	ck_assert(compare_find_row(&r, "fsync stalls")->flag == CMP_FLAG_IMPROVED);
	ck_assert(compare_find_row(&r, "phase 3 MiB/s")->flag == CMP_FLAG_NONE);
	compare_free(&r);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

static const struct diff_case {
	int system;		/* 0: configuration, 1: system */
	const char *path, *a, *b;
} diff_cases[] = {
	{ 0, "config.pace", "window", "none" },
	{ 0, "config.window", "1", "-" },
	{ 0, "config.fadvise", "-", "true" },
	{ 1, "system.release", "6.1.0", "6.2.0" },
	{ 1, "target.file", "created", "reused" },
	{ 1, "fingerprint.disk.model", "-", "X 870" },
	{ 1, "fingerprint.disk.rotational", "-", "false" },
	{ 1, "fingerprint.cpus[0]", "-", "4" },
	{ 1, "fingerprint.cpus[1]", "-", "8" },
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
	struct json_object *a = json(run_a), *b = json(run_b);
	struct cmp_report r;

	ck_assert_int_eq(compare_build(&r, a, b, 10), 0);
	json_object_put(a);
	json_object_put(b);
	for (int i = 0; i < N_ROWS(diff_cases); i++) {
		const struct diff_case *c = &diff_cases[i];
		const struct cmp_diff *d = c->system ?
			find_diff(r.system, r.nsystem, c->path) :
			find_diff(r.config, r.nconfig, c->path);

		ck_assert_msg(d, "no difference listed at %s", c->path);
		ck_assert_str_eq(d->a, c->a);
		ck_assert_str_eq(d->b, c->b);
	}
	for (int i = 0; i < N_ROWS(not_listed); i++) {
		ck_assert_msg(!find_diff(r.config, r.nconfig, not_listed[i]) &&
			      !find_diff(r.system, r.nsystem, not_listed[i]),
			      "%s listed as a difference", not_listed[i]);
	}
	ck_assert_uint_eq(r.nconfig, 3);
	ck_assert_uint_eq(r.nsystem, 6);
	compare_free(&r);
}
END_TEST

START_TEST(test_identical)
{
	struct json_object *a = json(run_b);
	struct cmp_report r;

	ck_assert_int_eq(compare_build(&r, a, a, 10), 0);
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.improvements, 0);
	ck_assert_uint_eq(r.nconfig, 0);
	ck_assert_uint_eq(r.nsystem, 0);
	for (size_t i = 0; i < r.nrows; i++)
		ck_assert_msg(r.rows[i].flag == CMP_FLAG_NONE, "%s flagged",
			      r.rows[i].metric);
	compare_free(&r);
	json_object_put(a);
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
	struct cmp_report r;
	const struct cmp_row *row;

	ck_assert_int_eq(compare_build(&r, odd, full, 10), 0);
	row = compare_find_row(&r, "throughput MiB/s");
	ck_assert_ptr_nonnull(row);
	ck_assert_int_eq(row->a.kind, CMP_MISSING);
	ck_assert_int_eq(row->b.kind, CMP_NUMBER);
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.improvements, 0);
	compare_free(&r);
	ck_assert_int_eq(compare_build(&r, full, odd, 10), 0);
	ck_assert_uint_eq(r.regressions, 0);
	compare_free(&r);
	ck_assert_int_eq(compare_build(&r, odd, odd, 10), 0);
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
	struct cmp_report r;
	const struct cmp_row *row;

	ck_assert_int_eq(compare_build(&r, odd, full, 10), 0);
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

/* The report on A and B as text (caller frees). */
static char *printed(const char *ja, const char *jb, double threshold)
{
	struct json_object *a = json(ja), *b = json(jb);
	struct cmp_report r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(compare_build(&r, a, b, threshold), 0);
	compare_print(f, &r, "a.json", "b.json");
	ck_assert_int_eq(fclose(f), 0);
	compare_free(&r);
	json_object_put(a);
	json_object_put(b);
	return text;
}

static void assert_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return;
		p++;
	}
	ck_abort_msg("no line '%s' in:\n%s", line, text);
}

START_TEST(test_print)
{
	char *t = printed(run_a, run_b, 10);

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
	assert_line(t, "fsync count            |    100 |          90 |    -10.0% |");
	assert_line(t, "fsync raw p50 ms       |  1.000 |       1.050 |     +5.0% |");
	assert_line(t, "fsync stalls           |      0 |           2 |         - | REGRESSION");
	assert_line(t, "fsync longest stall ms |  0.000 |     900.000 |         - | REGRESSION");
	assert_line(t, "save count             |      - |           3 |         - |");
	assert_line(t, "configuration differences:");
	assert_line(t, "  config.pace = window vs none");
	assert_line(t, "  fingerprint.disk.model = - vs X 870");
	assert_line(t, "verdict: 7 regressions beyond 10% (B vs A)");
	free(t);
}
END_TEST

START_TEST(test_print_verdicts)
{
	char *t = printed(run_a, run_a, 10);

	assert_line(t, "configuration differences:\n  (none)");
	assert_line(t, "system differences:\n  (none)");
	assert_line(t, "verdict: no regression beyond 10%");
	ck_assert_ptr_null(strstr(t, "REGRESSION"));
	ck_assert_ptr_null(strstr(t, "improved"));
	free(t);
	t = printed(run_a, run_b, 2.5);
	assert_line(t, "verdict: 10 regressions beyond 2.5% (B vs A)");
	free(t);
	t = printed("{'summary':{'mibps':100}}", "{'summary':{'mibps':80}}", 10);
	assert_line(t, "verdict: 1 regression beyond 10% (B vs A)");
	free(t);
	t = printed("{'summary':{'mibps':100}}", "{'summary':{'mibps':130}}", 10);
	assert_line(t, "throughput MiB/s   | 100.0 | 130.0 | +30.0% | improved");
	assert_line(t, "verdict: no regression beyond 10%");
	free(t);
}
END_TEST

/* Two matrices: strategy by strategy; a strategy in one only has its
 * other side missing; the settings differ as configuration. */
START_TEST(test_matrix)
{
	struct json_object *a = json(
		"{'schema':'writestress-matrix/1','target_latency_ms':100,'table':["
		"{'strategy':'none','setting':null,'mibps':20,'p50_ms':1,'p99_ms':8000,'max_ms':8000,'stalls':1,'verdict':'frozen'},"
		"{'strategy':'window','setting':null,'mibps':20,'p50_ms':700,'p99_ms':720,'max_ms':730,'stalls':10,'verdict':'frozen'}]}");
	struct json_object *b = json(
		"{'schema':'writestress-matrix/1','target_latency_ms':50,'table':["
		"{'strategy':'window','setting':null,'mibps':20.5,'p50_ms':40,'p99_ms':45,'max_ms':50,'stalls':0,'verdict':'responsive'},"
		"{'strategy':'adaptive','setting':null,'mibps':19,'p50_ms':30,'p99_ms':48,'max_ms':49,'stalls':0,'verdict':'responsive'}]}");
	struct cmp_report r;
	const struct cmp_row *row;

	ck_assert_int_eq(compare_build_matrix(&r, a, b, 10), 0);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: p99 ms"));
	ck_assert_int_eq(row->flag, CMP_FLAG_IMPROVED);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: MiB/s"));
	ck_assert_int_eq(row->flag, CMP_FLAG_NONE);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "none: MiB/s"));
	ck_assert_int_eq(row->b.kind, CMP_MISSING);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "adaptive: p99 ms"));
	ck_assert_int_eq(row->a.kind, CMP_MISSING);
	ck_assert_ptr_nonnull(row = compare_find_row(&r, "window: verdict"));
	ck_assert_str_eq(row->b.text, "responsive");
	ck_assert_uint_eq(r.regressions, 0);
	ck_assert_uint_eq(r.nconfig, 1);
	ck_assert_str_eq(r.config[0].path, "target_latency_ms");
	compare_free(&r);
	json_object_put(a);
	json_object_put(b);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("flags");

	tcase_add_loop_test(tc, test_flag, 0, N_ROWS(flag_cases));
	tcase_add_loop_test(tc, test_change, 0, N_ROWS(change_cases));
	tcase_add_loop_test(tc, test_threshold, 0, N_ROWS(threshold_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("rows");
	tcase_add_loop_test(tc, test_rows, 0, N_ROWS(row_cases));
	tcase_add_test(tc, test_counts_and_order);
	tcase_add_test(tc, test_diffs);
	tcase_add_test(tc, test_identical);
	tcase_add_loop_test(tc, test_missing_fields, 0, N_ROWS(odd_files));
	tcase_add_test(tc, test_missing_details);
	tcase_add_test(tc, test_matrix);
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
	suite_add_tcase(s, tc);
	return s;
}
