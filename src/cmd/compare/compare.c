/* compare.c - B judged against A: the rows of metrics (see compare.h).
 * A metric is a line of the tables below; fields are looked up, never
 * assumed, so an older file shows "-" where it lacks one. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/array.h"
#include "lib/c.h"
#include "lib/cli.h"
#include "cmd/compare/compare.h"
#include "compare_tree.h"
#include "cmd/common/result_read.h"
#include "lib/units.h"
#include "record/record.h"

#define GIB ((double)WS_GIB)

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

enum on_null { NULL_MISSING, NULL_ZERO, NULL_NONE };

struct row_spec {
	const char *metric;
	const char *path;
	enum cmp_better better;
	int decimals;
	double scale;		/* 0: 1 */
	bool text;
	enum on_null on_null;
	const char *gate;	/* a steady state that must be reached, else its words */
	bool why;		/* and why it was not judged, in a note */
	bool latency;		/* ms: the floor applies */
	double q;		/* 0: not a percentile */
	const char *count;	/* its samples, beside path; NULL: the caller's */
};

#define NUM(m, p, b, d) .metric = (m), .path = (p), .better = (b), .decimals = (d)
#define LAT(m, p) NUM(m, p, CMP_LOWER, 3), .latency = true
#define PCT(m, p, quant, c) LAT(m, p), .q = (quant), .count = (c)

static const struct row_spec head_rows[] = {
	{ NUM("throughput MiB/s", "summary.mibps", CMP_HIGHER, 1) },
	{ NUM("elapsed s", "summary.elapsed_s", CMP_INFO, 3) },
	{ NUM("written GiB", "summary.bytes", CMP_INFO, 3), .scale = 1 / GIB },
	{ NUM("exit reason", "summary.exit_reason", CMP_INFO, 0), .text = true },
	{ NUM("initial rate MiB/s", "initial_mibps", CMP_HIGHER, 1) },
};

/* A watch has no writer: how long it watched, and what the others wrote
 * (a fact of the machine, not better or worse). */
static const struct row_spec watch_rows[] = {
	{ NUM("watched s", "summary.elapsed_s", CMP_INFO, 3) },
	{ NUM("exit reason", "summary.exit_reason", CMP_INFO, 0), .text = true },
	{ NUM("others wrote GiB", "summary.culprits_others.total_written_bytes", CMP_INFO, 3),
	  .scale = 1 / GIB },	/* null: not traced */
};

static const struct row_spec phase_rows[] = {
	{ NUM("MiB/s", "mibps", CMP_HIGHER, 1) },
	{ NUM("until GiB", "to_bytes", CMP_INFO, 3), .scale = 1 / GIB },
};

static const struct row_spec tail_rows[] = {
	{ NUM("slowdown at GiB", "slowdown.at_bytes", CMP_INFO, 3), .scale = 1 / GIB,
	  .on_null = NULL_NONE },
	{ NUM("slowdown at s", "slowdown.at_s", CMP_INFO, 3), .on_null = NULL_NONE },
	{ NUM("steady rate MiB/s", "steady.mibps", CMP_HIGHER, 1), .gate = "steady", .why = true },
	{ NUM("steady from GiB", "steady.from_bytes", CMP_INFO, 3), .scale = 1 / GIB,
	  .gate = "steady" },
	{ NUM("free space GiB", "target.fs_avail", CMP_INFO, 3), .scale = 1 / GIB },
};

/* corrected.count has the samples coordinated omission hid */
static const struct row_spec probe_rows[] = {
	{ NUM("count", "count", CMP_INFO, 0) },
	{ PCT("raw p50 ms", "raw.p50_ms", 0.50, "raw.count") },
	{ PCT("raw p99 ms", "raw.p99_ms", 0.99, "raw.count") },
	{ PCT("raw p99.9 ms", "raw.p99_9_ms", 0.999, "raw.count") },
	{ LAT("max ms", "max_ms") },
	{ PCT("corrected p99 ms", "corrected.p99_ms", 0.99, "corrected.count") },
	{ NUM("stalls", "stalls.count", CMP_LOWER, 0) },
	{ NUM("stall total s", "stalls.total_s", CMP_LOWER, 3) },
	{ LAT("longest stall ms", "stalls.longest.duration_ms"), .on_null = NULL_ZERO },
};

/* A matrix's row: its percentiles' samples are in its runs. */
static const struct row_spec matrix_rows_spec[] = {
	{ NUM("MiB/s", "mibps", CMP_HIGHER, 1) },
	{ PCT("p50 ms", "p50_ms", 0.50, NULL) },
	{ PCT("p99 ms", "p99_ms", 0.99, NULL) },
	{ LAT("max ms", "max_ms") },
	{ NUM("stalls", "stalls", CMP_LOWER, 0) },
	{ .metric = "verdict", .path = "verdict", .better = CMP_INFO, .text = true },
};

#undef PCT
#undef LAT
#undef NUM

static bool bool_at(const struct json_object *o, const char *path, bool *b)
{
	struct json_object *v;

	if (result_lookup(o, path, &v) != RESULT_FOUND || !json_object_is_type(v, json_type_boolean))
		return false;
	*b = json_object_get_boolean(v);
	return true;
}

/* The steady state at S->gate not reached: VAL in the run's words, and
 * with S->why, why it was not judged.  False when reached or unknown. */
static bool steady_not_reached(const struct json_object *base, const struct row_spec *s,
			       struct cmp_value *val)
{
	struct json_object *st = NULL, *v;
	bool judged = true, reached;
	double round_s;
	enum ws_steady_outcome o;

	if (result_lookup(base, s->gate, &st) != RESULT_FOUND || !bool_at(st, "reached", &reached))
		return false;
	bool_at(st, "judged", &judged);		/* files before it was kept judged */
	o = ws_steady_outcome_of(judged, reached, result_lookup(st, "earlier", &v) == RESULT_FOUND);
	if (o == WS_STEADY_REACHED)
		return false;
	set_text(val, ws_steady_outcome_words(o));
	round_s = result_num(st, "round_s");
	if (o == WS_STEADY_NOT_JUDGED && s->why && round_s > 0 && round_s < 1e9)
		ws_steady_unjudged_words((unsigned int)result_num(st, "window_rounds"),
					 (uint64_t)llround(round_s * 1e9),
					 (uint64_t)fmax(0, result_num(st, "precondition_bytes")),
					 NULL, val->why, sizeof(val->why));
	return true;
}

static struct cmp_value value_of(const struct json_object *base,
				 const struct row_spec *s)
{
	struct cmp_value val = { .kind = CMP_MISSING };
	struct json_object *v = NULL;
	enum result_found f;

	if (s->gate && steady_not_reached(base, s, &val))
		return val;
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

/* A row's source in A and B (NULL: absent); the samples of a percentile
 * whose spec does not say (NaN: unknown). */
struct pair {
	const struct json_object *a, *b;
	double samples_a, samples_b;
};

static double samples_of(const struct json_object *base, const struct row_spec *s,
			 double dflt)
{
	double n = result_num(base, s->count);

	return isnan(n) ? dflt : n;
}

/* A percentile its samples do not support is not shown (hist.h): in its
 * place what it needs, as the run's summary says. */
static void hide_unshown(struct cmp_value *v, double q, double samples)
{
	char needs[32];

	if (v->kind != CMP_NUMBER || compare_percentile_shown(q, samples))
		return;
	set_text(v, ws_percentile_needs_words(q, needs, sizeof(needs)));
}

static int add_row(struct cmp_report *r, const char *prefix,
		   const struct row_spec *s, const struct pair *p)
{
	struct cmp_row *row;

	if (array_grow((void **)&r->rows, r->nrows, &r->rows_cap, sizeof(*row)))
		return -ENOMEM;
	row = &r->rows[r->nrows++];
	*row = (struct cmp_row){ .decimals = s->decimals, .better = s->better,
				 .latency = s->latency, .quantile = s->q };
	snprintf(row->metric, sizeof(row->metric), "%s%s", prefix, s->metric);
	result_sanitize(row->metric);
	row->a = value_of(p->a, s);
	row->b = value_of(p->b, s);
	row->samples_a = samples_of(p->a, s, p->samples_a);
	row->samples_b = samples_of(p->b, s, p->samples_b);
	if (s->q > 0) {
		hide_unshown(&row->a, s->q, row->samples_a);
		hide_unshown(&row->b, s->q, row->samples_b);
	}
	compare_judge(row, &r->rules, r->judged);
	if (row->flag == CMP_FLAG_REGRESSION)
		r->regressions++;
	else if (row->flag == CMP_FLAG_IMPROVED)
		r->improvements++;
	return 0;
}

static int add_rows(struct cmp_report *r, const char *prefix,
		    const struct row_spec *specs, size_t n, const struct pair *p)
{
	for (size_t i = 0; i < n; i++)
		if (add_row(r, prefix, &specs[i], p))
			return -ENOMEM;
	return 0;
}

static int add_phases(struct cmp_report *r, const struct json_object *a,
		      const struct json_object *b)
{
	static const struct row_spec count = { .metric = "phases", .path = "" };
	struct json_object *pa = result_array_at(a, "phases");
	struct json_object *pb = result_array_at(b, "phases");
	size_t na = result_array_len(pa), nb = result_array_len(pb);
	struct pair none = { NULL, NULL, NAN, NAN };
	struct cmp_row *row;
	char prefix[32];

	if (add_row(r, "", &count, &none))
		return -ENOMEM;
	row = &r->rows[r->nrows - 1];
	if (pa)
		row->a = (struct cmp_value){ .kind = CMP_NUMBER, .num = (double)na };
	if (pb)
		row->b = (struct cmp_value){ .kind = CMP_NUMBER, .num = (double)nb };
	for (size_t i = 0; i < na || i < nb; i++) {
		struct pair p = { result_array_idx(pa, i), result_array_idx(pb, i), NAN, NAN };

		snprintf(prefix, sizeof(prefix), "phase %zu ", i + 1);
		if (add_rows(r, prefix, phase_rows, ARRAY_SIZE(phase_rows), &p))
			return -ENOMEM;
	}
	return 0;
}

static const char *probe_name(const struct json_object *p)
{
	return result_str(p, "name");
}

/* Among the first LIMIT probes of ARR. */
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

/* Probes matched by name: A's in order, then B's own; unnamed ones left
 * out. */
static int add_probes(struct cmp_report *r, const struct json_object *a,
		      const struct json_object *b)
{
	struct json_object *pa = result_array_at(a, "probes");
	struct json_object *pb = result_array_at(b, "probes");
	const struct json_object *arrs[2] = { pa, pb };
	char prefix[32];

	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < result_array_len(arrs[side]); i++) {
			struct json_object *p = result_array_idx(arrs[side], i);
			const char *name = probe_name(p);
			struct pair both;

			if (!name || find_probe(arrs[side], name, i) ||
			    (side == 1 && find_probe(pa, name, SIZE_MAX)))
				continue;	/* unnamed, or done already */
			both.a = find_probe(pa, name, SIZE_MAX);
			both.b = find_probe(pb, name, SIZE_MAX);
			both.samples_a = result_num(both.a, "count");
			both.samples_b = result_num(both.b, "count");
			snprintf(prefix, sizeof(prefix), "%.24s ", name);
			if (add_rows(r, prefix, probe_rows, ARRAY_SIZE(probe_rows), &both))
				return -ENOMEM;
		}
	}
	return 0;
}

static void info_of(struct cmp_run_info *info, const struct json_object *doc)
{
	const char *version = result_str(doc, "tool.version");
	const char *started = result_str(doc, "started_at");

	snprintf(info->version, sizeof(info->version), "%s", version ? version : "-");
	snprintf(info->started_at, sizeof(info->started_at), "%s", started ? started : "-");
}

int compare_build(struct cmp_report *r, const struct json_object *a,
		  const struct json_object *b, const struct cmp_rules *rules)
{
	static const char *const system_keys[] = { "tool", "system", "target", "fingerprint" };
	struct pair runs = { a, b, NAN, NAN };

	*r = (struct cmp_report){ .rules = *rules };
	info_of(&r->info_a, a);
	info_of(&r->info_b, b);
	if (compare_diff_key(&r->config, &r->nconfig, &r->config_cap, "config", a, b))
		goto out_free;
	for (size_t i = 0; i < ARRAY_SIZE(system_keys); i++)
		if (compare_diff_key(&r->system, &r->nsystem, &r->system_cap,
				     system_keys[i], a, b))
			goto out_free;
	if (compare_settle_diffs(r, a, b, false))
		goto out_free;
	/* the caller compares a watch with a watch only */
	if (result_is_watch(a)) {
		if (add_rows(r, "", watch_rows, ARRAY_SIZE(watch_rows), &runs) ||
		    add_probes(r, a, b))
			goto out_free;
		return 0;
	}
	if (add_rows(r, "", head_rows, ARRAY_SIZE(head_rows), &runs) ||
	    add_phases(r, a, b) ||
	    add_rows(r, "", tail_rows, ARRAY_SIZE(tail_rows), &runs) ||
	    add_probes(r, a, b))
		goto out_free;
	return 0;
out_free:
	compare_free(r);
	return -ENOMEM;
}

/* "window" or "window (bfq)": a matrix row's name. */
static void matrix_row_name(const struct json_object *row, char *buf, size_t len)
{
	const char *st = result_str(row, "strategy"), *set = result_str(row, "setting");

	if (!st)
		st = "?";
	if (set)
		snprintf(buf, len, "%s (%s)", st, set);
	else
		snprintf(buf, len, "%s", st);
}

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

/* The fewest samples of the row's judged probe over its runs; NaN: none
 * says. */
static double matrix_samples(const struct json_object *doc,
			     const struct json_object *row)
{
	const char *probe = probe_name(result_array_idx(result_array_at(row, "probes"), 0));
	struct json_object *runs = result_array_at(doc, "runs");
	char name[96], other[96];
	double fewest = NAN;

	if (!row)
		return NAN;
	matrix_row_name(row, name, sizeof(name));
	for (size_t i = 0; i < result_array_len(runs); i++) {
		struct json_object *run = result_array_idx(runs, i), *probes, *p;
		double n;

		matrix_row_name(run, other, sizeof(other));
		if (strcmp(name, other))
			continue;
		probes = result_array_at(run, "result.probes");
		p = probe ? find_probe(probes, probe, SIZE_MAX) : result_array_idx(probes, 0);
		n = result_num(p, "raw.count");
		if (isnan(n))
			n = result_num(p, "count");
		/* a run without the count says nothing */
		if (isnan(fewest) || n < fewest)
			fewest = n;
	}
	return fewest;
}

static int add_matrix_side(struct cmp_report *r, const struct json_object *from,
			   const struct json_object *a, const struct json_object *b,
			   bool a_first)
{
	struct json_object *ta = result_array_at(a, "table");
	struct json_object *tb = result_array_at(b, "table");

	for (size_t i = 0; i < result_array_len(result_array_at(from, "table")); i++) {
		struct json_object *row = result_array_idx(result_array_at(from, "table"), i);
		char name[96], prefix[104];
		struct pair p;

		matrix_row_name(row, name, sizeof(name));
		/* rows in both were added from A's side */
		if (!a_first && matrix_row_named(ta, name))
			continue;
		p.a = matrix_row_named(ta, name);
		p.b = matrix_row_named(tb, name);
		p.samples_a = matrix_samples(a, p.a);
		p.samples_b = matrix_samples(b, p.b);
		snprintf(prefix, sizeof(prefix), "%s: ", name);
		if (add_rows(r, prefix, matrix_rows_spec, ARRAY_SIZE(matrix_rows_spec), &p))
			return -ENOMEM;
	}
	return 0;
}

int compare_build_matrix(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, const struct cmp_rules *rules)
{
	static const char *const keys[] = {
		"target_latency_ms", "each_bytes", "each_s", "setting_kind", "strategies",
	};

	*r = (struct cmp_report){ .rules = *rules };
	snprintf(r->info_a.version, sizeof(r->info_a.version), "matrix");
	snprintf(r->info_b.version, sizeof(r->info_b.version), "matrix");
	snprintf(r->info_a.started_at, sizeof(r->info_a.started_at), "-");
	snprintf(r->info_b.started_at, sizeof(r->info_b.started_at), "-");
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (compare_diff_key(&r->config, &r->nconfig, &r->config_cap, keys[i], a, b))
			goto out_free;
	if (compare_settle_diffs(r, a, b, true) ||
	    add_matrix_side(r, a, a, b, true) || add_matrix_side(r, b, a, b, false))
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

void compare_free(struct cmp_report *r)
{
	free(r->rows);
	compare_free_diffs(r->config, r->nconfig);
	compare_free_diffs(r->system, r->nsystem);
	*r = (struct cmp_report){ .rules = r->rules };
}

