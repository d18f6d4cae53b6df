/* test_report.c - the report suite: the median and MAD, the outlier rule
 * on tables of values (MAD 0, small groups, missing values), --by, the
 * schema accepted (writestress-result/N, N >= 1), a row and its curve
 * from small in-memory results, grouping and flags, the spill of curves,
 * and the outputs parsing back.
 *
 * JSON is written here with ' for " so that it reads as JSON; json() turns
 * it back before json_tokener_parse(). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "json_literal.h"
#include "cmd/report/report.h"
#include "cmd/common/result_read.h"
#include "record/record.h"
#include "suites.h"
#include "testutil.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- median, MAD, the rule -------------------------------------------- */

static const struct {
	double v[8];
	size_t n;
	double median;
} median_cases[] = {
	{ { 3 }, 1, 3 },
	{ { 5, 1 }, 2, 3 },
	{ { 9, 1, 5 }, 3, 5 },
	{ { 4, 1, 3, 2 }, 4, 2.5 },
	{ { 7, 7, 7, 1, 100 }, 5, 7 },
	{ { -2, -8, 4 }, 3, -2 },
};

START_TEST(test_median)
{
	double v[8];

	memcpy(v, median_cases[_i].v, sizeof(v));
	ck_assert_double_eq_tol(report_median(v, median_cases[_i].n),
				median_cases[_i].median, 1e-12);
}
END_TEST

START_TEST(test_median_empty)
{
	ck_assert(isnan(report_median(NULL, 0)));
}
END_TEST

/* A group of values, the value tested, and what the rule says. */
static const struct {
	const char *what;
	double v[10];
	size_t n;
	double median, mad, scale;	/* scale NaN: don't check */
	bool judged;
	double x;
	int outlier;
} rule_cases[] = {
	/* median 100, |d| = 0 2 2 4 4 -> MAD 2, scale 2.9652, limit 10.38 */
	{ "within", { 100, 98, 102, 96, 104 }, 5, 100, 2, 2.9652, true, 110, 0 },
	{ "just beyond", { 100, 98, 102, 96, 104 }, 5, 100, 2, 2.9652, true, 110.4, 1 },
	{ "low", { 100, 98, 102, 96, 104 }, 5, 100, 2, 2.9652, true, 89, -1 },
	{ "limit itself is not beyond", { 100, 98, 102, 96, 104 }, 5, 100, 2, 2.9652,
	  true, 100 - 3.5 * 2.9652, 0 },
	/* a planted outlier does not move median or MAD much */
	{ "one wild value among five", { 400, 410, 405, 395, 40 }, 5, 400, 5, 7.413, true, 40, -1 },
	{ "its neighbours are fine", { 400, 410, 405, 395, 40 }, 5, 400, 5, 7.413, true, 410, 0 },
	/* MAD 0: more than half equal; the mean absolute deviation steps in:
	 * |d| = 0 0 0 0 6 -> mean 1.2, scale 1.504, limit 5.26 */
	{ "MAD 0, the odd one out", { 1, 1, 1, 1, 7 }, 5, 1, 0, 1.2533 * 1.2, true, 7, 1 },
	{ "MAD 0, an equal one", { 1, 1, 1, 1, 7 }, 5, 1, 0, 1.2533 * 1.2, true, 1, 0 },
	{ "all equal: nothing", { 5, 5, 5, 5 }, 4, 5, 0, 0, true, 5, 0 },
	{ "all equal, x elsewhere: still nothing (no spread)", { 5, 5, 5 }, 3, 5, 0, 0, true, 9, 0 },
	{ "two values: not judged", { 100, 1 }, 2, 50.5, 49.5, NAN, false, 1, 0 },
	{ "NaN values are left out", { 100, NAN, 102, NAN, 98 }, 5, 100, 2, 2.9652, true, 150, 1 },
	{ "NaN leaves too few", { 100, NAN, NAN, 98 }, 4, 99, 1, NAN, false, 500, 0 },
	{ "NaN x is never flagged", { 100, 98, 102 }, 3, 100, 2, 2.9652, true, NAN, 0 },
	{ "three, one far", { 10, 10.5, 30 }, 3, 10.5, 0.5, 0.7413, true, 30, 1 },
};

START_TEST(test_rule)
{
	const __typeof__(rule_cases[0]) *c = &rule_cases[_i];
	double v[10], scratch[10];
	struct report_spread s;

	memcpy(v, c->v, sizeof(v));
	report_spread(v, c->n, scratch, &s);
	ck_assert_msg(!memcmp(v, c->v, sizeof(v)), "%s: values changed", c->what);
	ck_assert_msg(fabs(s.median - c->median) < 1e-9, "%s: median %g", c->what, s.median);
	ck_assert_msg(fabs(s.mad - c->mad) < 1e-9, "%s: mad %g", c->what, s.mad);
	if (!isnan(c->scale))
		ck_assert_msg(fabs(s.scale - c->scale) < 1e-3, "%s: scale %g", c->what, s.scale);
	ck_assert_msg(s.judged == c->judged, "%s: judged", c->what);
	ck_assert_msg(report_outlier(&s, c->x, 3.5) == c->outlier,
		      "%s: outlier of %g", c->what, c->x);
}
END_TEST

START_TEST(test_by)
{
	static const char *const ok[] = { "model", "kernel", "host", "fs" };
	enum report_by by;

	for (int i = 0; i < N_ROWS(ok); i++) {
		ck_assert_int_eq(report_parse_by(ok[i], &by), 0);
		ck_assert_str_eq(report_by_name(by), ok[i]);
	}
	ck_assert_int_eq(report_parse_by("Model", &by), -EINVAL);
	ck_assert_int_eq(report_parse_by("", &by), -EINVAL);
	ck_assert_int_eq(report_parse_by("disk", &by), -EINVAL);
}
END_TEST

/* ---- schema ------------------------------------------------------------ */

static const struct {
	const char *doc;
	int ret;
	unsigned int version;
	const char *why;
} schema_cases[] = {
	{ "{'schema':'writestress-result/1'}", 0, 1, NULL },
	{ "{'schema':'writestress-result/2'}", 0, 2, NULL },
	{ "{'schema':'writestress-result/17'}", 0, 17, NULL },
	{ "{'schema':'writestress-result/0'}", -EINVAL, 0, "'writestress-result/0'" },
	{ "{'schema':'writestress-result/01'}", -EINVAL, 0, "not writestress-result/N" },
	{ "{'schema':'writestress-result/1a'}", -EINVAL, 0, "not writestress-result/N" },
	{ "{'schema':'writestress-result/'}", -EINVAL, 0, "not writestress-result/N" },
	{ "{'schema':'writestress-result/-1'}", -EINVAL, 0, "not writestress-result/N" },
	{ "{'schema':'writestress-matrix/1'}", -EINVAL, 0, "has schema 'writestress-matrix/1'" },
	{ "{'schema':'writestress-report/1'}", -EINVAL, 0, "has schema 'writestress-report/1'" },
	{ "{'schema':1}", -EINVAL, 0, "no \"schema\" string" },
	{ "{'tool':{}}", -EINVAL, 0, "no \"schema\" string" },
	{ "[1,2]", -EINVAL, 0, "not a JSON object" },
};

START_TEST(test_schema)
{
	struct json_object *doc = json(schema_cases[_i].doc);
	unsigned int version = 0;
	char why[160] = "";

	ck_assert_int_eq(result_schema_version(doc, &version, why, sizeof(why)),
			 schema_cases[_i].ret);
	if (!schema_cases[_i].ret)
		ck_assert_uint_eq(version, schema_cases[_i].version);
	else
		ck_assert_msg(strstr(why, schema_cases[_i].why), "why: %s", why);
	json_object_put(doc);
}
END_TEST

/* ---- rows -------------------------------------------------------------- */

/* A result with the fields a report reads; %s are model, host, MiB/s
 * and the fsync p99; 1000 probes each, the fewest a p99 is shown of. */
#define RESULT_FMT \
	"{'schema':'writestress-result/1','config':{'pace':'window'}," \
	"'system':{'hostname':'%s','release':'6.1.0'}," \
	"'fingerprint':{'system':{'kernel':'6.2.0'},'filesystem':{'type':'ext4'}," \
	"'block':{'disks':[{'model':'%s  ','firmware':'FW1'}]}}," \
	"'summary':{'mibps':%s},'slowdown':{'at_bytes':1073741824,'at_s':3}," \
	"'steady':{'reached':true,'mibps':100}," \
	"'probes':[{'name':'fsync','raw':{'count':1000,'p99_ms':%s},'stalls':{'count':2}}," \
	"{'name':'save','raw':{'count':1000,'p99_ms':4},'stalls':{'count':0}}]," \
	"'by_bytes':{'cell_bytes':536870912,'cells':[" \
	"{'from_bytes':0,'to_bytes':536870912,'mibps':200}," \
	"{'from_bytes':536870912,'to_bytes':1073741824,'mibps':100}]}}"

static struct json_object *result(const char *host, const char *model,
				  const char *mibps, const char *p99)
{
	char buf[2048];

	snprintf(buf, sizeof(buf), RESULT_FMT, host, model, mibps, p99);
	return json(buf);
}

START_TEST(test_row)
{
	struct json_object *doc = result("h1", "Disk A", "250.5", "12.5");
	struct report r = { .k = REPORT_K };
	struct report_point pts[REPORT_CURVE_MAX];
	struct report_row row;
	size_t n = 0;

	report_row_from(&r, doc, &row, pts, &n);
	ck_assert_str_eq(row.host, "h1");
	ck_assert_str_eq(row.model, "Disk A");	/* trailing blanks of sysfs gone */
	ck_assert_str_eq(row.firmware, "FW1");
	ck_assert_str_eq(row.kernel, "6.2.0");	/* the fingerprint's, before uname's */
	ck_assert_str_eq(row.fs, "ext4");
	ck_assert_str_eq(row.pace, "window");
	ck_assert_double_eq_tol(row.mibps, 250.5, 1e-9);
	ck_assert_double_eq_tol(row.slowdown_gib, 1, 1e-9);
	ck_assert(!row.slowdown_none);
	ck_assert_double_eq_tol(row.steady_mibps, 100, 1e-9);
	ck_assert_uint_eq(r.nprobes, 2);
	ck_assert_str_eq(r.probe_names[0], "fsync");
	ck_assert_double_eq_tol(row.p99_ms[0], 12.5, 1e-9);
	ck_assert_double_eq_tol(row.stalls[0], 2, 1e-9);
	ck_assert_double_eq_tol(row.p99_ms[1], 4, 1e-9);
	/* two cells, at their middles */
	ck_assert_uint_eq(n, 2);
	ck_assert_float_eq_tol(pts[0].gib, 0.25, 1e-6);
	ck_assert_float_eq_tol(pts[0].mibps, 200, 1e-3);
	ck_assert_float_eq_tol(pts[1].gib, 0.75, 1e-6);
	ck_assert_float_eq_tol(pts[1].mibps, 100, 1e-3);
	free(row.settings);	/* the row's until report_add takes it */
	json_object_put(doc);
}
END_TEST

/* An older or partial file: "-" and NaN, never a failure. */
START_TEST(test_row_sparse)
{
	struct json_object *doc = json("{'schema':'writestress-result/1','system':{'release':'5.10'},"
				       "'target':{'fs_type':'xfs'},'slowdown':null,"
				       "'steady':{'reached':false},'probes':[{'raw':{}}]}");
	struct report r = { .k = REPORT_K };
	struct report_point pts[REPORT_CURVE_MAX];
	struct report_row row;
	size_t n = 99;

	report_row_from(&r, doc, &row, pts, &n);
	ck_assert_str_eq(row.host, "-");
	ck_assert_str_eq(row.model, "-");
	ck_assert_str_eq(row.kernel, "5.10");
	ck_assert_str_eq(row.fs, "xfs");
	ck_assert(isnan(row.mibps));
	ck_assert(row.slowdown_none);
	/* judged, as a file before "judged" was kept was */
	ck_assert(row.steady_known && row.steady == WS_STEADY_NOT_REACHED);
	ck_assert(isnan(row.steady_mibps));
	ck_assert_uint_eq(r.nprobes, 0);	/* an unnamed probe has no column */
	ck_assert_uint_eq(n, 0);
	free(row.settings);
	json_object_put(doc);
}
END_TEST

/* Without by_bytes the progress points make the curve; more points than
 * REPORT_CURVE_MAX are merged, bytes over time, the whole run kept. */
START_TEST(test_curve_progress)
{
	struct json_object *doc = json("{'progress':{'points':[]}}"), *pts_arr;
	struct report_point pts[REPORT_CURVE_MAX];
	size_t n, total = 3 * REPORT_CURVE_MAX + 1;

	ck_assert(json_object_object_get_ex(json_object_object_get(doc, "progress"),
					    "points", &pts_arr));
	/* 1 MiB a step, the first half at 0.01 s a step, the second at 0.02 */
	for (size_t i = 1; i <= total; i++) {
		struct json_object *p = json_object_new_array();
		double t = i <= total / 2 ? i * 0.01 : (total / 2) * 0.01 + (i - total / 2) * 0.02;

		json_object_array_add(p, json_object_new_double(t));
		json_object_array_add(p, json_object_new_int64((int64_t)i << 20));
		json_object_array_add(p, json_object_new_double(i <= total / 2 ? 100 : 50));
		json_object_array_add(pts_arr, p);
	}
	n = report_curve_from(doc, pts);
	ck_assert_uint_le(n, REPORT_CURVE_MAX);
	ck_assert_uint_ge(n, REPORT_CURVE_MAX / 2);
	ck_assert_float_eq_tol(pts[0].mibps, 100, 1e-2);
	ck_assert_float_eq_tol(pts[n - 1].mibps, 50, 1e-2);
	ck_assert_float_lt(pts[n - 1].gib, total / 1024.0);
	ck_assert_float_gt(pts[n - 1].gib, (total - 8) / 1024.0);
	for (size_t i = 1; i < n; i++)
		ck_assert_float_gt(pts[i].gib, pts[i - 1].gib);
	json_object_put(doc);
}
END_TEST

/* by_bytes cells beyond REPORT_CURVE_MAX are merged a few at a time,
 * bytes over the time they took: 100, 100 and 50 MiB/s over a MiB each
 * are 75 MiB/s, not their mean 83.3. */
START_TEST(test_curve_cells)
{
	struct json_object *doc = json("{'by_bytes':{'cells':[]}}"), *cells;
	struct report_point pts[REPORT_CURVE_MAX];
	size_t n, total = 300;

	cells = result_array_at(doc, "by_bytes.cells");
	ck_assert_ptr_nonnull(cells);
	for (size_t i = 0; i < total; i++) {
		struct json_object *c = json_object_new_object();

		json_object_object_add(c, "from_bytes", json_object_new_int64((int64_t)i << 20));
		json_object_object_add(c, "to_bytes", json_object_new_int64((int64_t)(i + 1) << 20));
		json_object_object_add(c, "mibps", json_object_new_double(i % 3 == 2 ? 50 : 100));
		json_object_array_add(cells, c);
	}
	n = report_curve_from(doc, pts);
	ck_assert_uint_eq(n, 100);		/* 3 cells a point */
	for (size_t i = 0; i < n; i++) {
		ck_assert_float_eq_tol(pts[i].mibps, 75, 1e-3);
		ck_assert_float_eq_tol(pts[i].gib, (3 * i + 1.5) / 1024, 1e-6);
	}
	json_object_put(doc);
}
END_TEST

/* ---- grouping ---------------------------------------------------------- */

/* Results: model, host, MiB/s, fsync p99. */
static const char *const fleet[][4] = {
	{ "Disk B", "h1", "400", "10" },
	{ "Disk A", "h1", "200", "5" },
	{ "Disk B", "h2", "410", "11" },
	{ "Disk A", "h2", "205", "5.5" },
	{ "Disk B", "h3", "395", "9" },
	{ "Disk B", "h4", "40", "10.5" },	/* the outlier: MiB/s low */
	{ "Disk C", "h5", "1", "1000" },	/* alone: not judged */
	{ "Disk B", "h5", "405", "95" },	/* fsync p99 high */
	{ "Disk A", "h3", "198", "6" },
};

static void build(struct report *r, enum report_by by, bool spill)
{
	*r = (struct report){ .by = by, .k = REPORT_K };
	if (spill)
		ck_assert_ptr_nonnull(r->spill = tmpfile());
	for (int i = 0; i < N_ROWS(fleet); i++) {
		struct json_object *doc = result(fleet[i][1], fleet[i][0], fleet[i][2], fleet[i][3]);
		struct report_point pts[REPORT_CURVE_MAX];
		struct report_row row;
		size_t n = 0;

		report_row_from(r, doc, &row, pts, &n);
		json_object_put(doc);
		row.schema_version = 1;
		ck_assert_int_ne(asprintf(&row.file, "r%d.json", i), -1);
		ck_assert_int_eq(report_add(r, &row, pts, n), 0);
	}
	ck_assert_int_eq(report_finish(r), 0);
}

START_TEST(test_groups)
{
	struct report r;

	build(&r, REPORT_BY_MODEL, false);
	ck_assert_uint_eq(r.ngroups, 3);
	ck_assert_str_eq(r.groups[0].key, "Disk A");
	ck_assert_str_eq(r.groups[1].key, "Disk B");
	ck_assert_str_eq(r.groups[2].key, "Disk C");
	ck_assert_uint_eq(r.groups[0].n, 3);
	ck_assert_uint_eq(r.groups[1].n, 5);
	ck_assert(!r.groups[2].judged);
	ck_assert_uint_eq(r.groups_unjudged, 1);
	/* rows in the order added within a group */
	ck_assert_str_eq(r.rows[0].file, "r1.json");
	ck_assert_str_eq(r.rows[1].file, "r3.json");
	ck_assert_str_eq(r.rows[2].file, "r8.json");
	ck_assert_double_eq_tol(r.groups[0].spread[REPORT_M_MIBPS].median, 200, 1e-9);
	ck_assert_double_eq_tol(r.groups[1].spread[REPORT_M_MIBPS].median, 400, 1e-9);
	/* exactly the two planted outliers */
	ck_assert_uint_eq(r.outlier_rows, 2);
	for (size_t i = 0; i < r.nrows; i++) {
		const char *f = r.rows[i].file;

		if (!strcmp(f, "r5.json")) {
			ck_assert_uint_eq(r.rows[i].low, 1u << REPORT_M_MIBPS);
			ck_assert_uint_eq(r.rows[i].high, 0);
		} else if (!strcmp(f, "r7.json")) {
			ck_assert_uint_eq(r.rows[i].high, 1u << REPORT_M_P99);
			ck_assert_uint_eq(r.rows[i].low, 0);
		} else {
			ck_assert_msg(!(r.rows[i].high | r.rows[i].low), "%s flagged", f);
		}
	}
	report_free(&r);
}
END_TEST

/* By host, the same results fall into other groups and nothing is judged
 * against another model's figures. */
/* Runs whose settings change the result (compare's list: --rate, --pace
 * ...) are never one group: four runs of one disk, the fourth with --pace
 * none and a fifth of the speed, make a group of three (judged, nothing
 * flagged, where one group of four flagged the fifth-speed one) and one
 * of one (not judged), the header naming the setting that differs where
 * it is not at its default. */
START_TEST(test_groups_by_settings)
{
	static const char *const paces[] = { "window", "window", "window", "none" };
	static const char *const rates[] = { "250", "248", "252", "50" };
	struct report r = { .by = REPORT_BY_MODEL, .k = 3.5 };
	char text[128];

	for (int i = 0; i < 4; i++) {
		char buf[2048], *at;
		struct json_object *doc;
		struct report_row row;

		snprintf(buf, sizeof(buf), RESULT_FMT, "h1", "Disk A", rates[i], "10");
		at = strstr(buf, "'pace':'window'");
		ck_assert_ptr_nonnull(at);
		memmove(at + strlen("'pace':'") + strlen(paces[i]) + 1, at + strlen("'pace':'window'"),
			strlen(at + strlen("'pace':'window'")) + 1);
		memcpy(at + strlen("'pace':'"), paces[i], strlen(paces[i]));
		at[strlen("'pace':'") + strlen(paces[i])] = '\'';
		doc = json(buf);
		report_row_from(&r, doc, &row, NULL, NULL);
		json_object_put(doc);
		ck_assert_int_ne(asprintf(&row.file, "r%d.json", i), -1);
		ck_assert_int_eq(report_add(&r, &row, NULL, 0), 0);
	}
	ck_assert_int_eq(report_finish(&r), 0);
	ck_assert_uint_eq(r.ngroups, 2);
	ck_assert(r.settings_vary);
	ck_assert_uint_eq(r.outlier_rows, 0);
	for (size_t g = 0; g < 2; g++) {
		const struct report_group *gr = &r.groups[g];

		report_group_settings(&r, gr, text, sizeof(text));
		if (gr->n == 3) {
			ck_assert(gr->judged);
			ck_assert_str_eq(text, "");	/* window: the default */
		} else {
			ck_assert_uint_eq(gr->n, 1);
			ck_assert(!gr->judged);
			ck_assert_str_eq(text, "-p none");
		}
	}
	report_free(&r);
}
END_TEST

START_TEST(test_groups_by_host)
{
	struct report r;

	build(&r, REPORT_BY_HOST, false);
	ck_assert_uint_eq(r.ngroups, 5);
	ck_assert_str_eq(r.groups[4].key, "h5");
	ck_assert_uint_eq(r.groups_unjudged, 5);	/* two results each at most */
	ck_assert_uint_eq(r.outlier_rows, 0);
	report_free(&r);
}
END_TEST

/* Curves go to the spill file and come back as they were. */
START_TEST(test_spill)
{
	struct report_point pts[REPORT_CURVE_MAX];
	struct report r;

	build(&r, REPORT_BY_MODEL, true);
	for (size_t i = 0; i < r.nrows; i++) {
		ck_assert_uint_eq(report_curve_of(&r, &r.rows[i], pts), 2);
		ck_assert_float_eq_tol(pts[0].mibps, 200, 1e-3);
		ck_assert_float_eq_tol(pts[1].gib, 0.75, 1e-6);
	}
	ck_assert_double_eq_tol(r.groups[0].max_gib, 0.75, 1e-6);
	ck_assert_double_eq_tol(r.groups[0].max_mibps, 200, 1e-3);
	report_free(&r);
}
END_TEST

/* ---- outputs ----------------------------------------------------------- */

static char *output_of(void (*fn)(FILE *, const struct report *),
		       const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, r);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* ---- the sample rule, the run's words, the options typed -------------- */

/* A result of MiB/s and an fsync p99 of COUNT probes, its config and
 * steady state as given. */
static struct json_object *result_with(const char *config, const char *steady,
				       const char *mibps, const char *p99, unsigned int count)
{
	char buf[2048];

	snprintf(buf, sizeof(buf),
		 "{'schema':'writestress-result/1','config':%s,"
		 "'system':{'hostname':'h','release':'6.1.0'},"
		 "'fingerprint':{'block':{'disks':[{'model':'Disk A'}]}},"
		 "'summary':{'mibps':%s},'slowdown':null,'steady':%s,"
		 "'probes':[{'name':'fsync','count':%u,'raw':{'count':%u,'p99_ms':%s},"
		 "'stalls':{'count':0}}]}", config, mibps, steady, count, count, p99);
	return json(buf);
}

static void add_doc(struct report *r, struct json_object *doc, int i)
{
	struct report_row row;

	report_row_from(r, doc, &row, NULL, NULL);
	json_object_put(doc);
	ck_assert_int_ne(asprintf(&row.file, "r%d.json", i), -1);
	ck_assert_int_eq(report_add(r, &row, NULL, 0), 0);
}

#define REACHED "{'reached':true,'judged':true,'mibps':100,'earlier':null}"

/* Five runs, the fifth's fsync p99 19 times the others': flagged where
 * 1000 probes support each p99, neither shown nor flagged at 999 (the
 * sample rule, hist.h), the group's median of the four others then. */
START_TEST(test_p99_shown)
{
	static const unsigned int counts[] = { 999, 1000 };
	static const char *const p99[] = { "5", "5.2", "4.9", "5.1", "95" };
	struct report r = { .by = REPORT_BY_MODEL, .k = REPORT_K };
	unsigned int n = counts[_i];
	char *text;

	for (int i = 0; i < 5; i++)
		add_doc(&r, result_with("{}", REACHED, "200", p99[i], i == 4 ? n : 1000), i);
	ck_assert_int_eq(report_finish(&r), 0);
	text = output_of(report_print, &r);
	if (n == 999) {
		ck_assert(isnan(r.rows[4].p99_ms[0]));
		ck_assert_uint_eq(r.rows[4].p99_hidden, 1);
		ck_assert_uint_eq(r.outlier_rows, 0);
		ck_assert_uint_eq(r.groups[0].spread[REPORT_M_P99].n, 4);
		ck_assert_msg(strstr(text, "| p99 needs 1000 probes |"), "%s", text);
		ck_assert_ptr_null(strstr(text, "95.000"));
	} else {
		ck_assert_double_eq_tol(r.rows[4].p99_ms[0], 95, 1e-9);
		ck_assert_uint_eq(r.rows[4].p99_hidden, 0);
		ck_assert_uint_eq(r.rows[4].high, 1u << REPORT_M_P99);
		ck_assert_uint_eq(r.groups[0].spread[REPORT_M_P99].n, 5);
		ck_assert_ptr_null(strstr(text, "needs"));
	}
	free(text);
	report_free(&r);
}
END_TEST

/* The steady state in the run's words: not judged, with its reason once
 * under the table; not reached; never "not reached" for one not judged. */
START_TEST(test_steady_words)
{
	static const char unjudged[] =
		"{'reached':false,'judged':false,'window_rounds':5,'round_s':10,"
		"'precondition_bytes':0,'earlier':null}";
	struct report r = { .by = REPORT_BY_MODEL, .k = REPORT_K };
	char *text;

	for (int i = 0; i < 3; i++)
		add_doc(&r, result_with("{}", unjudged, "200", "5", 1000), i);
	ck_assert_int_eq(report_finish(&r), 0);
	ck_assert(r.rows[0].steady_known && r.rows[0].steady == WS_STEADY_NOT_JUDGED);
	ck_assert_str_eq(r.rows[0].steady_why, "no window of 5 rounds of 10.0 s in the run");
	text = output_of(report_print, &r);
	ck_assert_ptr_null(strstr(text, "not reached"));
	ck_assert_msg(strstr(text, "|   not judged |"), "%s", text);
	ck_assert_msg(strstr(text, "\nsteady not judged in 3 results: no window of 5 rounds of 10.0 s in the run\n"),
		      "%s", text);
	free(text);
	text = output_of(report_json, &r);
	ck_assert_ptr_nonnull(strstr(text, "\"steady_not_judged\":true"));
	ck_assert_ptr_null(strstr(text, "\"steady_not_reached\":true"));
	free(text);
	report_free(&r);

	r = (struct report){ .by = REPORT_BY_MODEL, .k = REPORT_K };
	add_doc(&r, result_with("{}", "{'reached':false,'judged':true,'earlier':null}", "200", "5", 1000), 0);
	ck_assert_int_eq(report_finish(&r), 0);
	text = output_of(report_print, &r);
	ck_assert_msg(strstr(text, "|  not reached |"), "%s", text);
	ck_assert_ptr_null(strstr(text, "not judged in"));
	free(text);
	report_free(&r);
}
END_TEST

/* A group's heading: the options a person types, with units, short
 * where there is one, none at its default or unset. */
static const struct heading_case {
	const char *config;
	const char *want;
} heading_cases[] = {
	{ "{'buffer_size':1048576,'total_bytes':314572800,'time_s':0}", "-B 1.00 MiB, -s 300 MiB" },
	{ "{'buffer_size':8388608,'total_bytes':null,'time_s':300}", "-t 5m00s" },
	{ "{'buffer_size':8388608,'total_bytes':null,'time_s':0,'rate_bytes_per_s':41943040,"
	  "'fadvise':true,'pace':'none'}", "-p none, -f, -r 40.0 MiB/s" },
};

START_TEST(test_group_heading)
{
	struct report r = { .by = REPORT_BY_MODEL, .k = REPORT_K };
	char text[256];

	for (int i = 0; i < N_ROWS(heading_cases); i++)
		add_doc(&r, result_with(heading_cases[i].config, REACHED, "200", "5", 1000), i);
	ck_assert_int_eq(report_finish(&r), 0);
	ck_assert_uint_eq(r.ngroups, N_ROWS(heading_cases));
	for (size_t g = 0; g < r.ngroups; g++) {
		const char *file = r.rows[r.groups[g].first].file;
		int i = file[1] - '0';

		report_group_settings(&r, &r.groups[g], text, sizeof(text));
		ck_assert_msg(!strcmp(text, heading_cases[i].want), "%s: '%s', not '%s'",
			      file, text, heading_cases[i].want);
	}
	report_free(&r);
}
END_TEST

START_TEST(test_json_out)
{
	struct json_object *doc, *groups, *v;
	struct report r;
	char *text;

	build(&r, REPORT_BY_MODEL, false);
	text = output_of(report_json, &r);
	ck_assert(tu_text_is_ours(text));	/* a later report may replace it */
	doc = json_tokener_parse(text);
	ck_assert_msg(doc, "report JSON does not parse");
	ck_assert_str_eq(result_str(doc, "schema"), REPORT_SCHEMA);
	ck_assert_str_eq(result_str(doc, "by"), "model");
	ck_assert_double_eq_tol(result_num(doc, "rule.k"), 3.5, 1e-12);
	ck_assert_double_eq_tol(result_num(doc, "count"), 9, 1e-9);
	ck_assert_double_eq_tol(result_num(doc, "outlier_results"), 2, 1e-9);
	groups = result_array_at(doc, "groups");
	ck_assert_uint_eq(result_array_len(groups), 3);
	v = result_array_idx(result_array_at(result_array_idx(groups, 1), "results"), 3);
	ck_assert_str_eq(result_str(v, "file"), "r5.json");
	ck_assert_str_eq(result_str(v, "outliers.mibps"), "low");
	ck_assert_double_eq_tol(result_num(result_array_idx(groups, 1), "median.mibps"), 400, 1e-9);
	json_object_put(doc);
	free(text);
	report_free(&r);
}
END_TEST

START_TEST(test_table_and_csv)
{
	struct report r;
	char *text;

	build(&r, REPORT_BY_MODEL, false);
	text = output_of(report_print, &r);
	ck_assert_ptr_nonnull(strstr(text, "\n== model Disk C: 1 result, not judged (fewer than 3) ==\n"));
	ck_assert_ptr_nonnull(strstr(text, "| 40.0! |"));
	ck_assert_ptr_nonnull(strstr(text, "| MiB/s low\n"));
	ck_assert_ptr_nonnull(strstr(text, "| fsync p99 high\n"));
	ck_assert_ptr_nonnull(strstr(text, "3.5 x 1.4826 x MAD"));
	ck_assert_ptr_nonnull(strstr(text, "9 results in 3 groups by model; 2 with outliers; 1 group not judged\n"));
	free(text);
	text = output_of(report_csv, &r);
	ck_assert(tu_text_is_ours(text));
	/* CRLF line ends, as the run's CSV */
	ck_assert_ptr_nonnull(strstr(text, "\r\nDisk B,r5.json,h4,Disk B,FW1,6.2.0,ext4,window,1,40,1,100,10.5,2,4,0,low,,,,mibps\r\n"));
	ck_assert_ptr_nonnull(strstr(text, ",fsync_p99_ms_outlier,save_p99_ms_outlier,outliers\r\n"));
	free(text);
	report_free(&r);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("rule");

	tcase_add_loop_test(tc, test_median, 0, N_ROWS(median_cases));
	tcase_add_test(tc, test_groups_by_settings);
	tcase_add_test(tc, test_median_empty);
	tcase_add_loop_test(tc, test_rule, 0, N_ROWS(rule_cases));
	tcase_add_test(tc, test_by);
	tcase_add_loop_test(tc, test_schema, 0, N_ROWS(schema_cases));
	suite_add_tcase(s, tc);

	tc = tcase_create("rows");
	tcase_add_test(tc, test_row);
	tcase_add_test(tc, test_row_sparse);
	tcase_add_test(tc, test_curve_progress);
	tcase_add_test(tc, test_curve_cells);
	tcase_add_test(tc, test_groups);
	tcase_add_test(tc, test_groups_by_host);
	tcase_add_test(tc, test_spill);
	tcase_add_loop_test(tc, test_p99_shown, 0, 2);
	tcase_add_test(tc, test_steady_words);
	tcase_add_test(tc, test_group_heading);
	suite_add_tcase(s, tc);

	tc = tcase_create("outputs");
	tcase_add_test(tc, test_json_out);
	tcase_add_test(tc, test_table_and_csv);
	suite_add_tcase(s, tc);
	return s;
}
