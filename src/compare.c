/* compare.c - judging B against A: the rows of metrics, the differences
 * in configuration and system (see compare.h; reading a file and looking
 * fields up is result_read.c, the command and its printing compare_main.c).
 *
 * The result files are read with json-c; the metrics shown are listed in
 * the tables below (a path into the file per row), so a new metric is one
 * line.  Fields are looked up, never assumed: an older or partial file
 * shows "-" where it lacks something.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "c.h"
#include "cli.h"
#include "compare.h"
#include "result_read.h"
#include "units.h"

#define GIB ((double)WS_GIB)

/* ---- judging one number ------------------------------------------------ */

enum cmp_flag compare_metric(double a, double b, enum cmp_better better,
			     double threshold_pct)
{
	double limit;

	if (better == CMP_INFO || isnan(a) || isnan(b))
		return CMP_FLAG_NONE;
	if (a == 0)
		return better == CMP_LOWER && b > 0 ? CMP_FLAG_REGRESSION :
						      CMP_FLAG_NONE;
	/* The slack keeps 100 -> 90 at 10% unflagged despite rounding. */
	limit = fabs(a) * threshold_pct / 100 * (1 + 1e-9);
	if (fabs(b - a) <= limit)
		return CMP_FLAG_NONE;
	if ((b > a) == (better == CMP_HIGHER))
		return CMP_FLAG_IMPROVED;
	return CMP_FLAG_REGRESSION;
}

bool compare_change(double a, double b, double *pct)
{
	if (isnan(a) || isnan(b) || a == 0)
		return false;
	*pct = (b - a) / fabs(a) * 100;
	return true;
}

int compare_parse_threshold(const char *s, double *pct)
{
	size_t digits = strspn(s, "0123456789.");
	char *end;
	double v;

	/* strtod alone would take " 5", "-5", "0x10", "inf" and "1e3" */
	if (!digits || (s[digits] && strcmp(s + digits, "%")))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end != s + digits || !isfinite(v))
		return -EINVAL;
	*pct = v;
	return 0;
}

/* ---- the schema ------------------------------------------------------- */

int compare_check_schema(const struct json_object *doc, char *why, size_t len)
{
	struct json_object *schema;

	if (!json_object_is_type(doc, json_type_object)) {
		snprintf(why, len, "is not a writestress result: not a JSON object");
		return -EINVAL;
	}
	if (!json_object_object_get_ex(doc, "schema", &schema)) {
		snprintf(why, len, "is not a writestress result: no \"schema\" field");
		return -EINVAL;
	}
	if (!json_object_is_type(schema, json_type_string)) {
		snprintf(why, len, "is not a writestress result: \"schema\" is not a string");
		return -EINVAL;
	}
	if (strcmp(json_object_get_string(schema), CMP_SCHEMA)) {
		snprintf(why, len, "has unsupported schema '%.64s': this writestress reads '%s'",
			 json_object_get_string(schema), CMP_SCHEMA);
		return -EINVAL;
	}
	return 0;
}

static void set_text(struct cmp_value *val, const char *s)
{
	val->kind = CMP_TEXT;
	snprintf(val->text, sizeof(val->text), "%s", s);
	result_sanitize(val->text);
}

/* ---- the rows ---------------------------------------------------------- */

enum on_null { NULL_MISSING, NULL_ZERO, NULL_NONE };

/* One metric: where it is and how it is judged and shown. */
struct row_spec {
	const char *metric;
	const char *path;	/* from the run, or from the probe or phase */
	enum cmp_better better;
	int decimals;
	double scale;		/* 0: 1 */
	bool text;		/* a word, not a number */
	enum on_null on_null;	/* a JSON null on the path (at its end too) */
	const char *gate;	/* a bool that must be true, else "not reached" */
};

#define NUM(m, p, b, d) .metric = (m), .path = (p), .better = (b), .decimals = (d)

static const struct row_spec head_rows[] = {
	{ NUM("throughput MiB/s", "summary.mibps", CMP_HIGHER, 1) },
	{ NUM("elapsed s", "summary.elapsed_s", CMP_INFO, 3) },
	{ NUM("written GiB", "summary.bytes", CMP_INFO, 3), .scale = 1 / GIB },
	{ NUM("exit reason", "summary.exit_reason", CMP_INFO, 0), .text = true },
	{ NUM("initial rate MiB/s", "initial_mibps", CMP_HIGHER, 1) },
};

static const struct row_spec phase_rows[] = {
	{ NUM("MiB/s", "mibps", CMP_HIGHER, 1) },
	{ NUM("until GiB", "to_bytes", CMP_INFO, 3), .scale = 1 / GIB },
};

static const struct row_spec tail_rows[] = {
	{ NUM("slowdown at GiB", "slowdown.at_bytes", CMP_INFO, 3), .scale = 1 / GIB,
	  .on_null = NULL_NONE },
	{ NUM("slowdown at s", "slowdown.at_s", CMP_INFO, 3), .on_null = NULL_NONE },
	{ NUM("steady rate MiB/s", "steady.mibps", CMP_HIGHER, 1), .gate = "steady.reached" },
	{ NUM("steady from GiB", "steady.from_bytes", CMP_INFO, 3), .scale = 1 / GIB,
	  .gate = "steady.reached" },
	{ NUM("free space GiB", "target.fs_avail", CMP_INFO, 3), .scale = 1 / GIB },
};

static const struct row_spec probe_rows[] = {
	{ NUM("count", "count", CMP_INFO, 0) },
	{ NUM("raw p50 ms", "raw.p50_ms", CMP_LOWER, 3) },
	{ NUM("raw p99 ms", "raw.p99_ms", CMP_LOWER, 3) },
	{ NUM("raw p99.9 ms", "raw.p99_9_ms", CMP_LOWER, 3) },
	{ NUM("max ms", "max_ms", CMP_LOWER, 3) },
	{ NUM("corrected p99 ms", "corrected.p99_ms", CMP_LOWER, 3) },
	{ NUM("stalls", "stalls.count", CMP_LOWER, 0) },
	{ NUM("stall total s", "stalls.total_s", CMP_LOWER, 3) },
	/* longest is null when there was no stall: then it is 0 */
	{ NUM("longest stall ms", "stalls.longest.duration_ms", CMP_LOWER, 3),
	  .on_null = NULL_ZERO },
};

/* A matrix's table row (writestress-matrix/1), strategy by strategy. */
static const struct row_spec matrix_rows_spec[] = {
	{ NUM("MiB/s", "mibps", CMP_HIGHER, 1) },
	{ NUM("p50 ms", "p50_ms", CMP_LOWER, 3) },
	{ NUM("p99 ms", "p99_ms", CMP_LOWER, 3) },
	{ NUM("max ms", "max_ms", CMP_LOWER, 3) },
	{ NUM("stalls", "stalls", CMP_LOWER, 0) },
	{ .metric = "verdict", .path = "verdict", .better = CMP_INFO, .text = true },
};

#undef NUM


static struct cmp_value value_of(const struct json_object *base,
				 const struct row_spec *s)
{
	struct cmp_value val = { .kind = CMP_MISSING };
	struct json_object *v = NULL;
	enum result_found f;

	if (s->gate && result_lookup(base, s->gate, &v) == RESULT_FOUND &&
	    json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v)) {
		set_text(&val, "not reached");
		return val;
	}
	f = result_lookup(base, s->path, &v);
	if (f == RESULT_NULL && s->on_null == NULL_ZERO) {
		val.kind = CMP_NUMBER;
	} else if (f == RESULT_NULL && s->on_null == NULL_NONE) {
		set_text(&val, "none");
	} else if (f == RESULT_FOUND && s->text && json_object_is_type(v, json_type_string)) {
		set_text(&val, json_object_get_string(v));
	} else if (f == RESULT_FOUND && !s->text && result_is_number(v)) {
		val.kind = CMP_NUMBER;
		val.num = json_object_get_double(v) * (s->scale ? s->scale : 1);
	}
	return val;
}

double compare_value_num(const struct cmp_value *v)
{
	return v->kind == CMP_NUMBER ? v->num : NAN;
}

/* Grow *v (n used of *cap, elements of SIZE) for one more.  0 or -ENOMEM. */
static int grow(void **v, size_t n, size_t *cap, size_t size)
{
	void *p;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? 2 * *cap : 32;
	p = realloc(*v, ncap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}

static int add_row(struct cmp_report *r, const char *prefix,
		   const struct row_spec *s, const struct json_object *a,
		   const struct json_object *b)
{
	struct cmp_row *row;

	if (grow((void **)&r->rows, r->nrows, &r->rows_cap, sizeof(*row)))
		return -ENOMEM;
	row = &r->rows[r->nrows++];
	snprintf(row->metric, sizeof(row->metric), "%s%s", prefix, s->metric);
	result_sanitize(row->metric);
	row->decimals = s->decimals;
	row->better = s->better;
	row->a = value_of(a, s);
	row->b = value_of(b, s);
	row->flag = compare_metric(compare_value_num(&row->a), compare_value_num(&row->b),
				   s->better, r->threshold_pct);
	if (row->flag == CMP_FLAG_REGRESSION)
		r->regressions++;
	else if (row->flag == CMP_FLAG_IMPROVED)
		r->improvements++;
	return 0;
}

static int add_rows(struct cmp_report *r, const char *prefix,
		    const struct row_spec *specs, size_t n,
		    const struct json_object *a, const struct json_object *b)
{
	for (size_t i = 0; i < n; i++)
		if (add_row(r, prefix, &specs[i], a, b))
			return -ENOMEM;
	return 0;
}

static int add_phases(struct cmp_report *r, const struct json_object *a,
		      const struct json_object *b)
{
	static const struct row_spec count = { .metric = "phases", .path = "" };
	struct json_object *pa = result_array_at(a, "phases"), *pb = result_array_at(b, "phases");
	size_t n = result_array_len(pa) > result_array_len(pb) ? result_array_len(pa) : result_array_len(pb);
	struct cmp_row *row;
	char prefix[32];

	if (add_row(r, "", &count, NULL, NULL))
		return -ENOMEM;
	row = &r->rows[r->nrows - 1];
	if (pa)
		row->a = (struct cmp_value){ .kind = CMP_NUMBER, .num = (double)result_array_len(pa) };
	if (pb)
		row->b = (struct cmp_value){ .kind = CMP_NUMBER, .num = (double)result_array_len(pb) };
	for (size_t i = 0; i < n; i++) {
		snprintf(prefix, sizeof(prefix), "phase %zu ", i + 1);
		if (add_rows(r, prefix, phase_rows, ARRAY_SIZE(phase_rows),
			     result_array_idx(pa, i), result_array_idx(pb, i)))
			return -ENOMEM;
	}
	return 0;
}

static const char *probe_name(const struct json_object *p)
{
	struct json_object *v;

	if (result_lookup(p, "name", &v) != RESULT_FOUND || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* The first probe of ARR called NAME, among the first LIMIT; or NULL. */
static struct json_object *find_probe(const struct json_object *arr,
				      const char *name, size_t limit)
{
	for (size_t i = 0; i < result_array_len(arr) && i < limit; i++) {
		struct json_object *p = result_array_idx(arr, i);
		const char *n = probe_name(p);

		if (n && !strcmp(n, name))
			return p;
	}
	return NULL;
}

/* Probes matched by name: A's in A's order, then those only B has.  An
 * unnamed probe cannot be matched and is left out. */
static int add_probes(struct cmp_report *r, const struct json_object *a,
		      const struct json_object *b)
{
	struct json_object *pa = result_array_at(a, "probes"), *pb = result_array_at(b, "probes");
	const struct json_object *arrs[2] = { pa, pb };
	char prefix[32];

	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < result_array_len(arrs[side]); i++) {
			struct json_object *p = result_array_idx(arrs[side], i);
			const char *name = probe_name(p);

			if (!name || find_probe(arrs[side], name, i) ||
			    (side == 1 && find_probe(pa, name, SIZE_MAX)))
				continue;	/* unnamed, or done already */
			snprintf(prefix, sizeof(prefix), "%.24s ", name);
			if (add_rows(r, prefix, probe_rows, ARRAY_SIZE(probe_rows),
				     find_probe(pa, name, SIZE_MAX),
				     find_probe(pb, name, SIZE_MAX)))
				return -ENOMEM;
		}
	}
	return 0;
}

/* ---- differences ------------------------------------------------------- */

struct diff_list {
	struct cmp_diff **v;
	size_t *n, *cap;
};

/* Printable form of a scalar: strings as they are (control characters
 * and '|' as '?'), fractions to 15 digits (the file's 0.20000000000000001
 * is 0.2), other numbers and booleans as written. */
static char *printable(const struct json_object *v, enum result_found f)
{
	char num[32];
	const char *s = num;
	char *out;

	if (f == RESULT_ABSENT)
		s = "-";
	else if (f == RESULT_NULL)
		s = "null";
	else if (json_object_is_type(v, json_type_double))
		snprintf(num, sizeof(num), "%.15g", json_object_get_double(v));
	else
		s = json_object_get_string((struct json_object *)v);
	out = strdup(s ? s : "");
	if (out)
		result_sanitize(out);
	return out;
}

static bool same_scalar(const struct json_object *a, enum result_found fa,
			const struct json_object *b, enum result_found fb)
{
	if (fa != RESULT_FOUND || fb != RESULT_FOUND)
		return fa == fb;
	if (result_is_number(a) && result_is_number(b)) {
		if (json_object_is_type(a, json_type_int) &&
		    json_object_is_type(b, json_type_int))
			return json_object_get_int64(a) == json_object_get_int64(b);
		return json_object_get_double(a) == json_object_get_double(b);
	}
	return json_object_get_type(a) == json_object_get_type(b) &&
	       !strcmp(json_object_get_string((struct json_object *)a),
		       json_object_get_string((struct json_object *)b));
}

static int add_diff(struct diff_list *l, const char *path,
		    const struct json_object *a, enum result_found fa,
		    const struct json_object *b, enum result_found fb)
{
	struct cmp_diff *d;

	if (same_scalar(a, fa, b, fb))
		return 0;
	if (grow((void **)l->v, *l->n, l->cap, sizeof(*d)))
		return -ENOMEM;
	d = &(*l->v)[*l->n];
	d->path = strdup(path);
	d->a = printable(a, fa);
	d->b = printable(b, fb);
	if (!d->path || !d->a || !d->b) {
		free(d->path);
		free(d->a);
		free(d->b);
		return -ENOMEM;
	}
	(*l->n)++;
	return 0;
}

static bool is_container(const struct json_object *v, enum result_found f)
{
	return f == RESULT_FOUND && (json_object_is_type(v, json_type_object) ||
			      json_object_is_type(v, json_type_array));
}

static int diff_leaves(struct diff_list *l, const char *path,
		       const struct json_object *a, enum result_found fa,
		       const struct json_object *b, enum result_found fb);

/* Members of objects: A's keys in A's order, then B's that A lacks. */
static int diff_objects(struct diff_list *l, const char *path,
			const struct json_object *a, const struct json_object *b)
{
	const struct json_object *objs[2] = { a, b };

	for (int side = 0; side < 2; side++) {
		const struct json_object *o = objs[side], *other = objs[!side];
		struct json_object_iterator it, end;

		if (!json_object_is_type(o, json_type_object))
			continue;
		it = json_object_iter_begin((struct json_object *)o);
		end = json_object_iter_end(o);
		for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
			const char *key = json_object_iter_peek_name(&it);
			struct json_object *v = json_object_iter_peek_value(&it), *w = NULL;
			enum result_found fw = RESULT_ABSENT;
			char *sub;
			int ret;

			if (json_object_is_type(other, json_type_object) &&
			    json_object_object_get_ex(other, key, &w))
				fw = w ? RESULT_FOUND : RESULT_NULL;
			if (side == 1 && fw != RESULT_ABSENT)
				continue;	/* compared from A's side */
			if (asprintf(&sub, "%s.%s", path, key) < 0)
				return -ENOMEM;
			if (side == 0)
				ret = diff_leaves(l, sub, v, v ? RESULT_FOUND : RESULT_NULL, w, fw);
			else
				ret = diff_leaves(l, sub, w, fw, v, v ? RESULT_FOUND : RESULT_NULL);
			free(sub);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int diff_arrays(struct diff_list *l, const char *path,
		       const struct json_object *a, const struct json_object *b)
{
	size_t na = json_object_is_type(a, json_type_array) ? result_array_len(a) : 0;
	size_t nb = json_object_is_type(b, json_type_array) ? result_array_len(b) : 0;

	for (size_t i = 0; i < na || i < nb; i++) {
		struct json_object *va = i < na ? result_array_idx(a, i) : NULL;
		struct json_object *vb = i < nb ? result_array_idx(b, i) : NULL;
		enum result_found fa = i >= na ? RESULT_ABSENT : va ? RESULT_FOUND : RESULT_NULL;
		enum result_found fb = i >= nb ? RESULT_ABSENT : vb ? RESULT_FOUND : RESULT_NULL;
		char *sub;
		int ret;

		if (asprintf(&sub, "%s[%zu]", path, i) < 0)
			return -ENOMEM;
		ret = diff_leaves(l, sub, va, fa, vb, fb);
		free(sub);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every scalar leaf under PATH that differs.  Where only one side is a
 * container, its leaves are compared with absent ones, and the other
 * side's scalar (if any) is listed against an absent one. */
static int diff_leaves(struct diff_list *l, const char *path,
		       const struct json_object *a, enum result_found fa,
		       const struct json_object *b, enum result_found fb)
{
	bool ca = is_container(a, fa), cb = is_container(b, fb);
	int ret = 0;

	if (!ca && !cb)
		return add_diff(l, path, a, fa, b, fb);
	if (ca != cb)
		ret = ca ? add_diff(l, path, NULL, RESULT_ABSENT, b, fb) :
			   add_diff(l, path, a, fa, NULL, RESULT_ABSENT);
	if (ret)
		return ret;
	if (!ca)
		a = NULL;
	if (!cb)
		b = NULL;
	if (json_object_is_type(a, json_type_object) ||
	    json_object_is_type(b, json_type_object))
		ret = diff_objects(l, path, a, b);
	if (!ret && (json_object_is_type(a, json_type_array) ||
		     json_object_is_type(b, json_type_array)))
		ret = diff_arrays(l, path, a, b);
	return ret;
}

/* Figures that differ on every run, or repeat another field. */
static const char *const not_system[] = { "target.path", "target.fs_avail" };

static bool skipped(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(not_system); i++)
		if (!strcmp(path, not_system[i]))
			return true;
	return false;
}

/* Drop the differences from index FROM on whose path is skipped. */
static void drop_skipped(struct diff_list *l, size_t from)
{
	struct cmp_diff *d = *l->v;
	size_t j = from;

	for (size_t i = from; i < *l->n; i++) {
		if (skipped(d[i].path)) {
			free(d[i].path);
			free(d[i].a);
			free(d[i].b);
		} else {
			d[j++] = d[i];
		}
	}
	*l->n = j;
}

static int diff_top(struct diff_list *l, const char *key,
		    const struct json_object *a, const struct json_object *b)
{
	struct json_object *va = NULL, *vb = NULL;
	enum result_found fa = result_lookup(a, key, &va), fb = result_lookup(b, key, &vb);
	size_t before = *l->n;
	int ret;

	if (fa == RESULT_ABSENT && fb == RESULT_ABSENT)
		return 0;
	ret = diff_leaves(l, key, va, fa, vb, fb);
	drop_skipped(l, before);
	return ret;
}

static void info_of(struct cmp_run_info *info, const struct json_object *doc)
{
	struct json_object *v;

	snprintf(info->version, sizeof(info->version), "-");
	snprintf(info->started_at, sizeof(info->started_at), "-");
	if (result_lookup(doc, "tool.version", &v) == RESULT_FOUND && json_object_is_type(v, json_type_string))
		snprintf(info->version, sizeof(info->version), "%s", json_object_get_string(v));
	if (result_lookup(doc, "started_at", &v) == RESULT_FOUND && json_object_is_type(v, json_type_string))
		snprintf(info->started_at, sizeof(info->started_at), "%s", json_object_get_string(v));
}

int compare_build(struct cmp_report *r, const struct json_object *a,
		  const struct json_object *b, double threshold_pct)
{
	static const char *const system_keys[] = { "tool", "system", "target", "fingerprint" };
	struct diff_list config = { &r->config, &r->nconfig, &r->config_cap };
	struct diff_list sys = { &r->system, &r->nsystem, &r->system_cap };

	*r = (struct cmp_report){ .threshold_pct = threshold_pct };
	info_of(&r->info_a, a);
	info_of(&r->info_b, b);
	if (add_rows(r, "", head_rows, ARRAY_SIZE(head_rows), a, b) ||
	    add_phases(r, a, b) ||
	    add_rows(r, "", tail_rows, ARRAY_SIZE(tail_rows), a, b) ||
	    add_probes(r, a, b) ||
	    diff_top(&config, "config", a, b))
		goto out_free;
	for (size_t i = 0; i < ARRAY_SIZE(system_keys); i++)
		if (diff_top(&sys, system_keys[i], a, b))
			goto out_free;
	return 0;
out_free:
	compare_free(r);
	return -ENOMEM;
}

/* "window" or "window (bfq)": a matrix row's name. */
static void matrix_row_name(const struct json_object *row, char *buf, size_t len)
{
	struct json_object *v;
	const char *st = "?", *set = NULL;

	if (result_lookup(row, "strategy", &v) == RESULT_FOUND && json_object_is_type(v, json_type_string))
		st = json_object_get_string(v);
	if (result_lookup(row, "setting", &v) == RESULT_FOUND && json_object_is_type(v, json_type_string))
		set = json_object_get_string(v);
	if (set)
		snprintf(buf, len, "%s (%s)", st, set);
	else
		snprintf(buf, len, "%s", st);
}

/* The row of TABLE named NAME, or NULL. */
static struct json_object *matrix_row_named(const struct json_object *table,
					    const char *name)
{
	char other[96];

	for (size_t i = 0; i < result_array_len(table); i++) {
		matrix_row_name(result_array_idx(table, i), other, sizeof(other));
		if (!strcmp(other, name))
			return result_array_idx(table, i);
	}
	return NULL;
}

static int add_matrix_side(struct cmp_report *r, const struct json_object *from,
			   const struct json_object *a, const struct json_object *b,
			   bool a_first)
{
	struct json_object *ta = result_array_at(a, "table"), *tb = result_array_at(b, "table");

	for (size_t i = 0; i < result_array_len(result_array_at(from, "table")); i++) {
		struct json_object *row = result_array_idx(result_array_at(from, "table"), i);
		char name[96], prefix[104];

		matrix_row_name(row, name, sizeof(name));
		/* rows in both were added from A's side */
		if (!a_first && matrix_row_named(ta, name))
			continue;
		snprintf(prefix, sizeof(prefix), "%s: ", name);
		if (add_rows(r, prefix, matrix_rows_spec, ARRAY_SIZE(matrix_rows_spec),
			     matrix_row_named(ta, name), matrix_row_named(tb, name)))
			return -ENOMEM;
	}
	return 0;
}

int compare_build_matrix(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, double threshold_pct)
{
	struct diff_list config = { &r->config, &r->nconfig, &r->config_cap };
	static const char *const keys[] = {
		"target_latency_ms", "each_bytes", "each_s", "setting_kind", "strategies",
	};

	*r = (struct cmp_report){ .threshold_pct = threshold_pct };
	snprintf(r->info_a.version, sizeof(r->info_a.version), "matrix");
	snprintf(r->info_b.version, sizeof(r->info_b.version), "matrix");
	snprintf(r->info_a.started_at, sizeof(r->info_a.started_at), "-");
	snprintf(r->info_b.started_at, sizeof(r->info_b.started_at), "-");
	if (add_matrix_side(r, a, a, b, true) || add_matrix_side(r, b, a, b, false))
		goto out_free;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (diff_top(&config, keys[i], a, b))
			goto out_free;
	return 0;
out_free:
	compare_free(r);
	return -ENOMEM;
}

const struct cmp_row *compare_find_row(const struct cmp_report *r,
				       const char *metric)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].metric, metric))
			return &r->rows[i];
	return NULL;
}

static void free_diffs(struct cmp_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(d[i].path);
		free(d[i].a);
		free(d[i].b);
	}
	free(d);
}

void compare_free(struct cmp_report *r)
{
	free(r->rows);
	free_diffs(r->config, r->nconfig);
	free_diffs(r->system, r->nsystem);
	*r = (struct cmp_report){ .threshold_pct = r->threshold_pct };
}

