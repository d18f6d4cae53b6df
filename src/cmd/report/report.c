/* report.c - many results in one table: the outlier rule, a result's row
 * and curve, the groups (see report.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/array.h"
#include "lib/c.h"
#include "cmd/compare/compare.h"
#include "cmd/report/report.h"
#include "cmd/common/result_read.h"
#include "lib/units.h"
#include "record/record.h"
#include "record/fields.h"

#define GIB ((double)WS_GIB)
#define MIB ((double)WS_MIB)

static const char *const by_names[] = {
	[REPORT_BY_MODEL] = "model", [REPORT_BY_KERNEL] = "kernel",
	[REPORT_BY_HOST] = "host", [REPORT_BY_FS] = "fs", NULL,
};

int report_parse_by(const char *s, enum report_by *by)
{
	for (size_t i = 0; by_names[i]; i++) {
		if (!strcmp(s, by_names[i])) {
			*by = (enum report_by)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *const *report_by_words(void)
{
	return by_names;
}

const char *report_by_name(enum report_by by)
{
	return by_names[by];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double report_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void report_spread(const double *v, size_t n, double *scratch,
		   struct report_spread *s)
{
	double sum = 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			scratch[m++] = v[i];
	*s = (struct report_spread){ .n = m, .median = report_median(scratch, m),
				     .mad = NAN, .judged = m >= REPORT_MIN_GROUP };
	if (!m)
		return;
	for (size_t i = 0; i < m; i++) {
		scratch[i] = fabs(scratch[i] - s->median);
		sum += scratch[i];
	}
	s->mad = report_median(scratch, m);
	s->scale = s->mad > 0 ? REPORT_MAD_SCALE * s->mad :
				REPORT_MEANAD_SCALE * sum / (double)m;
}

int report_outlier(const struct report_spread *s, double x, double k)
{
	if (!s->judged || !(s->scale > 0) || !isfinite(x))
		return 0;
	if (fabs(x - s->median) <= k * s->scale)
		return 0;
	return x > s->median ? 1 : -1;
}

static void text_at(char *buf, size_t len, const struct json_object *doc,
		    const char *path, const char *fallback)
{
	const char *s = result_str(doc, path);
	size_t n;

	if ((!s || !*s) && fallback)
		s = result_str(doc, fallback);
	while (s && (*s == ' ' || *s == '\t'))
		s++;
	snprintf(buf, len, "%s", s && *s ? s : "-");
	n = strlen(buf);
	while (n > 1 && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	result_sanitize(buf);
}

/* Added when new; -1: no room. */
static int probe_column(struct report *r, const char *name)
{
	for (unsigned int i = 0; i < r->nprobes; i++)
		if (!strcmp(r->probe_names[i], name))
			return (int)i;
	if (r->nprobes == REPORT_MAX_PROBES) {
		r->probes_dropped++;
		return -1;
	}
	snprintf(r->probe_names[r->nprobes], sizeof(r->probe_names[0]), "%s", name);
	result_sanitize(r->probe_names[r->nprobes]);
	return (int)r->nprobes++;
}

static void probes_of(struct report *r, const struct json_object *doc,
		      struct report_row *row)
{
	struct json_object *arr = result_array_at(doc, "probes");

	for (size_t i = 0; i < result_array_len(arr); i++) {
		struct json_object *p = result_array_idx(arr, i);
		const char *name = result_str(p, "name");
		int c;

		if (!name || !*name || (c = probe_column(r, name)) < 0)
			continue;
		row->p99_ms[c] = result_num(p, "raw.p99_ms");
		row->p99_count[c] = result_num(p, "raw.count");
		row->stalls[c] = result_num(p, "stalls.count");
		/* a p99 its probes do not support is neither shown nor judged */
		if (!isnan(row->p99_ms[c]) &&
		    !compare_percentile_shown(0.99, row->p99_count[c])) {
			row->p99_ms[c] = NAN;
			row->p99_hidden |= 1u << c;
		}
	}
}

/* "rate_bytes_per_s=10485760\npace=window\n...": the settings that change
 * the result, as compare lists them, by result key with the file's value
 * (the group's heading words them, report_group_settings()). */
static char *settings_of(const struct json_object *doc)
{
	size_t n, len = 0, cap = 256;
	const struct cmp_setting *s = compare_run_settings(&n);
	char *out = malloc(cap);

	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		struct json_object *v = NULL;
		const char *text;
		size_t need;

		if (strncmp(s[i].path, "config.", 7))
			continue;
		if (result_lookup(doc, s[i].path, &v) != RESULT_FOUND)
			text = "null";
		else
			text = json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
		need = strlen(s[i].path + 7) + strlen(text) + 3;
		if (len + need >= cap) {
			char *p = realloc(out, 2 * (len + need));

			if (!p) {
				free(out);
				return NULL;
			}
			out = p;
			cap = 2 * (len + need);
		}
		len += (size_t)snprintf(out + len, cap - len, "%s=%s\n", s[i].path + 7, text);
	}
	return out;
}

static bool bool_at(const struct json_object *o, const char *path, bool *b)
{
	struct json_object *v;

	if (result_lookup(o, path, &v) != RESULT_FOUND || !json_object_is_type(v, json_type_boolean))
		return false;
	*b = json_object_get_boolean(v);
	return true;
}

/* The steady state as the run words it; a file without "judged" was
 * judged (it predates the key). */
static void steady_of(const struct json_object *doc, struct report_row *row)
{
	struct json_object *v;
	bool judged = true, reached;
	double round_s = result_num(doc, "steady.round_s");

	row->steady_mibps = NAN;
	if (!bool_at(doc, "steady.reached", &reached))
		return;
	bool_at(doc, "steady.judged", &judged);
	row->steady_known = true;
	row->steady = (unsigned char)ws_steady_outcome_of(judged, reached,
		result_lookup(doc, "steady.earlier", &v) == RESULT_FOUND);
	if (row->steady == WS_STEADY_REACHED)
		row->steady_mibps = result_num(doc, "steady.mibps");
	if (row->steady == WS_STEADY_NOT_JUDGED && round_s > 0 && round_s < 1e9)
		ws_steady_unjudged_words((unsigned int)result_num(doc, "steady.window_rounds"),
					 (uint64_t)llround(round_s * 1e9),
					 (uint64_t)fmax(0, result_num(doc, "steady.precondition_bytes")),
					 NULL, row->steady_why, sizeof(row->steady_why));
}

void report_row_from(struct report *r, const struct json_object *doc,
		     struct report_row *row, struct report_point *pts,
		     size_t *npts)
{
	struct json_object *v;
	enum result_found f;

	*row = (struct report_row){ .mibps = NAN, .curve_off = -1 };
	for (int i = 0; i < REPORT_MAX_PROBES; i++)
		row->p99_ms[i] = row->p99_count[i] = row->stalls[i] = NAN;
	text_at(row->host, sizeof(row->host), doc, "system.hostname", NULL);
	v = result_array_idx(result_array_at(doc, "fingerprint.block.disks"), 0);
	text_at(row->model, sizeof(row->model), v, "model", NULL);
	text_at(row->firmware, sizeof(row->firmware), v, "firmware", NULL);
	text_at(row->kernel, sizeof(row->kernel), doc, "fingerprint.system.kernel",
		"system.release");
	text_at(row->fs, sizeof(row->fs), doc, "fingerprint.filesystem.type",
		"target.fs_type");
	text_at(row->pace, sizeof(row->pace), doc, "config.pace", NULL);
	row->mibps = result_num(doc, "summary.mibps");
	f = result_lookup(doc, "slowdown", &v);
	row->slowdown_none = f == RESULT_NULL;
	row->slowdown_gib = result_num(doc, "slowdown.at_bytes") / GIB;
	steady_of(doc, row);
	probes_of(r, doc, row);
	row->settings = settings_of(doc);
	if (pts)
		*npts = report_curve_from(doc, pts);
}

/* GROUP cells at a time: bytes over the time they took. */
static size_t curve_cells(const struct json_object *cells, struct report_point *pts)
{
	size_t n = result_array_len(cells), group = (n + REPORT_CURVE_MAX - 1) / REPORT_CURVE_MAX;
	size_t out = 0;

	for (size_t a = 0; a < n; a += group) {
		double from = NAN, to = NAN, bytes = 0, secs = 0;

		for (size_t i = a; i < a + group && i < n; i++) {
			struct json_object *c = result_array_idx(cells, i);
			double f = result_num(c, "from_bytes"), t = result_num(c, "to_bytes");
			double m = result_num(c, "mibps");

			if (!isfinite(f) || !isfinite(t) || !isfinite(m) || t <= f)
				continue;
			if (isnan(from))
				from = f;
			to = t;
			bytes += t - f;
			secs += (t - f) / MIB / (m > 0 ? m : 0);
		}
		if (isnan(from))
			continue;
		pts[out].gib = (float)((from + to) / 2 / GIB);
		pts[out++].mibps = (float)(secs > 0 && isfinite(secs) ? bytes / MIB / secs : 0);
	}
	return out;
}

static size_t curve_progress(const struct json_object *points, struct report_point *pts)
{
	size_t n = result_array_len(points), group = (n + REPORT_CURVE_MAX - 1) / REPORT_CURVE_MAX;
	double t0 = 0, b0 = 0;
	size_t out = 0;

	for (size_t a = 0; a < n; a += group) {
		size_t last = a + group < n ? a + group - 1 : n - 1;
		struct json_object *p = result_array_idx(points, last);
		double t = result_num(result_array_idx(p, 0), "");
		double b = result_num(result_array_idx(p, 1), "");
		double m = result_num(result_array_idx(p, 2), "");

		if (!isfinite(t) || !isfinite(b))
			continue;
		if (last > a || !isfinite(m))
			m = t > t0 ? (b - b0) / MIB / (t - t0) : 0;
		pts[out].gib = (float)((b0 + b) / 2 / GIB);
		pts[out++].mibps = (float)m;
		t0 = t;
		b0 = b;
	}
	return out;
}

size_t report_curve_from(const struct json_object *doc, struct report_point *pts)
{
	size_t n = curve_cells(result_array_at(doc, "by_bytes.cells"), pts);

	return n ? n : curve_progress(result_array_at(doc, "progress.points"), pts);
}

const char *report_key(const struct report_row *row, enum report_by by)
{
	switch (by) {
	case REPORT_BY_KERNEL:
		return row->kernel;
	case REPORT_BY_HOST:
		return row->host;
	case REPORT_BY_FS:
		return row->fs;
	case REPORT_BY_MODEL:
		break;
	}
	return row->model;
}

int report_add(struct report *r, struct report_row *row,
	       const struct report_point *pts, size_t npts)
{
	if (array_grow((void **)&r->rows, r->nrows, &r->rows_cap, sizeof(*r->rows)))
		goto out_free;
	row->seq = r->nrows;
	row->curve_off = -1;
	row->curve_n = 0;
	if (r->spill && npts) {
		row->curve_off = ftell(r->spill);
		if (row->curve_off < 0 || fwrite(pts, sizeof(*pts), npts, r->spill) != npts) {
			free(row->file);
			free(row->settings);
			return -EIO;
		}
		row->curve_n = (unsigned int)npts;
		for (size_t i = 0; i < npts; i++) {
			row->curve_gib = fmaxf(row->curve_gib, pts[i].gib);
			row->curve_mibps = fmaxf(row->curve_mibps, pts[i].mibps);
		}
	}
	r->rows[r->nrows++] = *row;
	return 0;
out_free:
	free(row->file);
	free(row->settings);
	return -ENOMEM;
}

size_t report_curve_of(const struct report *r, const struct report_row *row,
		       struct report_point *pts)
{
	if (!r->spill || row->curve_off < 0 || !row->curve_n)
		return 0;
	if (fseek(r->spill, row->curve_off, SEEK_SET) ||
	    fread(pts, sizeof(*pts), row->curve_n, r->spill) != row->curve_n)
		return 0;
	return row->curve_n;
}

static const char *settings(const struct report_row *row)
{
	return row->settings ? row->settings : "";
}

static int by_key(const void *a, const void *b, void *arg)
{
	const struct report_row *x = a, *y = b;
	enum report_by by = *(const enum report_by *)arg;
	int c = strcmp(report_key(x, by), report_key(y, by));

	if (!c)
		c = strcmp(settings(x), settings(y));
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static bool has_line(const char *s, const char *l, size_t n)
{
	for (const char *e; (e = strchr(s, '\n')); s = e + 1)
		if ((size_t)(e - s) == n && !strncmp(s, l, n))
			return true;
	return false;
}

static bool shared(const struct report *r, const char *l, size_t n)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!has_line(settings(&r->rows[i]), l, n))
			return false;
	return true;
}

/* A list as --probe takes one: "fsync,save". */
static const char *joined_of(const struct json_object *arr, char *buf, size_t len)
{
	struct ws_buf b = { .s = buf, .cap = len };

	buf[0] = '\0';
	for (size_t i = 0; i < result_array_len(arr); i++) {
		struct json_object *e = result_array_idx(arr, i);

		ws_buf_item(&b, ",", "%s", json_object_is_type(e, json_type_string) ?
			    json_object_get_string(e) :
			    json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
	}
	return buf;
}

/* KEY=VALUE (a result's JSON) as the option a person types, "" at its
 * default or unset. */
static void setting_words(char *out, size_t len, const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n);
	char key[48], value[256], joined[256];
	const struct ws_field *f;
	struct json_object *v;

	out[0] = '\0';
	if (!eq || (size_t)(eq - line) >= sizeof(key) || n - (size_t)(eq - line) > sizeof(value))
		return;
	snprintf(key, sizeof(key), "%.*s", (int)(eq - line), line);
	snprintf(value, sizeof(value), "%.*s", (int)(n - (size_t)(eq - line) - 1), eq + 1);
	if (!(f = ws_field_by_key(key)))
		return;
	v = json_tokener_parse(value);
	if (json_object_is_type(v, json_type_array))
		ws_field_typed(f, NAN, joined_of(v, joined, sizeof(joined)), out, len);
	else if (json_object_is_type(v, json_type_string))
		ws_field_typed(f, NAN, json_object_get_string(v), out, len);
	else if (v)
		ws_field_typed(f, json_object_get_double(v), NULL, out, len);
	json_object_put(v);
}

char *report_group_settings(const struct report *r, const struct report_group *g,
			    char *buf, size_t len)
{
	struct ws_buf b = { .s = buf, .cap = len };
	const char *p = g->settings ? g->settings : "";
	char words[160];

	buf[0] = '\0';
	for (const char *e; *p && (e = strchr(p, '\n')); p = e + 1) {
		if (shared(r, p, (size_t)(e - p)))
			continue;
		setting_words(words, sizeof(words), p, (size_t)(e - p));
		if (words[0])
			ws_buf_item(&b, ", ", "%s", words);
	}
	return buf;
}

static double metric_value(const struct report_row *row, int m)
{
	if (m == REPORT_M_MIBPS)
		return row->mibps;
	if (m == REPORT_M_STEADY)
		return row->steady_mibps;
	return row->p99_ms[m - REPORT_M_P99];
}

const char *report_metric_name(const struct report *r, int m, char *buf,
			       size_t len)
{
	if (m == REPORT_M_MIBPS)
		snprintf(buf, len, "mibps");
	else if (m == REPORT_M_STEADY)
		snprintf(buf, len, "steady_mibps");
	else
		snprintf(buf, len, "%s_p99_ms", r->probe_names[m - REPORT_M_P99]);
	return buf;
}

/* Of the finite values. */
static double report_median_of(const double *v, size_t n, double *scratch)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			scratch[m++] = v[i];
	return report_median(scratch, m);
}

/* SCRATCH and V hold g->n. */
static void judge_group(struct report *r, struct report_group *g, double *v,
			double *scratch)
{
	struct report_row *rows = r->rows + g->first;
	int nm = REPORT_M_P99 + (int)r->nprobes;

	for (int m = 0; m < nm; m++) {
		for (size_t i = 0; i < g->n; i++)
			v[i] = metric_value(&rows[i], m);
		report_spread(v, g->n, scratch, &g->spread[m]);
		for (size_t i = 0; i < g->n; i++) {
			int o = report_outlier(&g->spread[m], v[i], r->k);

			rows[i].high |= (o > 0) ? 1u << m : 0;
			rows[i].low |= (o < 0) ? 1u << m : 0;
		}
	}
	for (size_t i = 0; i < g->n; i++)
		v[i] = rows[i].slowdown_gib;
	g->median_slowdown_gib = report_median_of(v, g->n, scratch);
	for (unsigned int p = 0; p < r->nprobes; p++) {
		for (size_t i = 0; i < g->n; i++)
			v[i] = rows[i].stalls[p];
		g->median_stalls[p] = report_median_of(v, g->n, scratch);
	}
	for (size_t i = 0; i < g->n; i++) {
		g->outlier_rows += (rows[i].high | rows[i].low) != 0;
		g->max_gib = fmax(g->max_gib, rows[i].curve_gib);
		g->max_mibps = fmax(g->max_mibps, rows[i].curve_mibps);
	}
	g->judged = g->n >= REPORT_MIN_GROUP;
}

int report_finish(struct report *r)
{
	double *v, *scratch;
	size_t cap = 0;

	qsort_r(r->rows, r->nrows, sizeof(*r->rows), by_key, &r->by);
	for (size_t i = 0; i < r->nrows; i++) {
		if (!i || strcmp(report_key(&r->rows[i], r->by),
				 report_key(&r->rows[i - 1], r->by)) ||
		    strcmp(settings(&r->rows[i]), settings(&r->rows[i - 1]))) {
			if (array_grow((void **)&r->groups, r->ngroups, &cap, sizeof(*r->groups)))
				return -ENOMEM;
			r->groups[r->ngroups++] = (struct report_group){
				.key = report_key(&r->rows[i], r->by),
				.settings = r->rows[i].settings, .first = i };
			if (i && strcmp(settings(&r->rows[i]), settings(&r->rows[0])))
				r->settings_vary = true;
		}
		r->rows[i].group = r->ngroups - 1;
		r->groups[r->ngroups - 1].n++;
	}
	v = malloc((r->nrows + 1) * sizeof(*v));
	scratch = malloc((r->nrows + 1) * sizeof(*scratch));
	if (!v || !scratch) {
		free(v);
		free(scratch);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->ngroups; i++) {
		judge_group(r, &r->groups[i], v, scratch);
		r->outlier_rows += r->groups[i].outlier_rows;
		r->groups_unjudged += !r->groups[i].judged;
	}
	free(v);
	free(scratch);
	return 0;
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i].file);
		free(r->rows[i].settings);
	}
	free(r->rows);
	free(r->groups);
	if (r->spill)
		fclose(r->spill);
	*r = (struct report){ .by = r->by, .k = r->k };
}
