/* matrix_files.c - the matrix's JSON and SVG (see matrix_files.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "matrix_files.h"
#include "lib/svgplot.h"

static const char *setting_of(const struct matrix_doc *d, unsigned int set)
{
	return d->nsettings ? d->settings[set] : NULL;
}

static struct json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* Every probe's medians: the first is the judged one above. */
static struct json_object *probes_json(const struct matrix_row *r)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int k = 0; k < r->nprobes; k++) {
		const struct matrix_probe *p = &r->probes[k];
		struct json_object *o = json_object_new_object();

		put(o, "name", json_object_new_string(p->name));
		put(o, "p50_ms", json_object_new_double(p->p50_ms));
		put(o, "p99_ms", json_object_new_double(p->p99_ms));
		put(o, "max_ms", json_object_new_double(p->max_ms));
		put(o, "p99_corrected_ms", json_object_new_double(p->p99_corrected_ms));
		put(o, "stalls", json_object_new_double(p->stalls));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *row_json(const struct matrix_doc *d, const struct matrix_row *r)
{
	struct json_object *o = json_object_new_object();

	put(o, "strategy", json_object_new_string(d->s[r->strategy].label));
	put(o, "setting", str_or_null(setting_of(d, r->setting)));
	put(o, "runs", json_object_new_int((int)r->runs));
	put(o, "mibps", json_object_new_double(r->mibps));
	put(o, "mibps_min", json_object_new_double(r->mibps_lo));
	put(o, "mibps_max", json_object_new_double(r->mibps_hi));
	put(o, "ratio_to_fastest", json_object_new_double(r->ratio));
	put(o, "p50_ms", json_object_new_double(r->p50_ms));
	put(o, "p90_ms", json_object_new_double(r->p90_ms));
	put(o, "count", json_object_new_double(r->count));
	put(o, "p99_ms", json_object_new_double(r->p99_ms));
	put(o, "p99_min_ms", json_object_new_double(r->p99_lo));
	put(o, "p99_max_ms", json_object_new_double(r->p99_hi));
	put(o, "max_ms", json_object_new_double(r->max_ms));
	put(o, "p99_corrected_ms", json_object_new_double(r->p99_corrected_ms));
	put(o, "stalls", json_object_new_double(r->stalls));
	put(o, "peak_dirty_writeback", json_object_new_int64((int64_t)r->peak_dirty));
	put(o, "cpu_s_per_gib", json_object_new_double(r->cpu_s_per_gib));
	put(o, "probes", probes_json(r));
	put(o, "front", json_object_new_boolean(r->front));
	put(o, "verdict", json_object_new_string(matrix_verdict_word(r->verdict)));
	return o;
}

struct json_object *matrix_json(const struct matrix_doc *d)
{
	struct json_object *doc = json_object_new_object(), *a;

	if (!doc)
		return NULL;
	put(doc, "schema", json_object_new_string(MATRIX_SCHEMA));
	put(doc, "complete", json_object_new_boolean(d->complete));
	put(doc, "target_latency_ms", json_object_new_double(d->target_ms));
	put(doc, "each_bytes", d->each_bytes ? json_object_new_int64((int64_t)d->each_bytes) : NULL);
	put(doc, "each_s", d->each_bytes ? NULL : json_object_new_double((double)d->each_ns / 1e9));
	a = json_object_new_array();
	for (unsigned int i = 0; i < d->ns; i++)
		json_object_array_add(a, json_object_new_string(d->s[i].label));
	put(doc, "strategies", a);
	put(doc, "setting_kind", str_or_null(d->setting_kind));
	a = json_object_new_array();
	for (unsigned int i = 0; i < d->nsettings; i++)
		json_object_array_add(a, json_object_new_string(d->settings[i]));
	put(doc, "settings", a);
	a = json_object_new_array();
	for (size_t i = 0; i < d->nrows; i++)
		json_object_array_add(a, row_json(d, &d->rows[i]));
	put(doc, "table", a);
	if (d->best >= 0) {
		struct json_object *r = json_object_new_object();
		const struct matrix_row *b = &d->rows[d->best];

		put(r, "strategy", json_object_new_string(d->s[b->strategy].label));
		put(r, "setting", str_or_null(setting_of(d, b->setting)));
		put(r, "mibps", json_object_new_double(b->mibps));
		put(r, "p99_ms", json_object_new_double(b->p99_ms));
		put(doc, "recommendation", r);
	} else {
		put(doc, "recommendation", NULL);
	}
	a = json_object_new_array();
	for (size_t i = 0; i < d->no; i++) {
		const struct matrix_outcome *o = &d->o[i];
		struct json_object *r = json_object_new_object();

		put(r, "order", json_object_new_int((int)i + 1));
		put(r, "strategy", json_object_new_string(d->s[o->strategy].label));
		put(r, "setting", str_or_null(setting_of(d, o->setting)));
		put(r, "exit_status", json_object_new_int(o->status));
		put(r, "unsupported", json_object_new_boolean(o->unsupported));
		put(r, "quiet_wait_s", json_object_new_double(o->quiet_wait_s));
		put(r, "quiet_timeout", json_object_new_boolean(o->quiet_timeout));
		/* the run's own result file, whole */
		put(r, "result", d->results[i] ? json_object_get(d->results[i]) : NULL);
		json_object_array_add(a, r);
	}
	put(doc, "runs", a);
	return doc;
}

int matrix_write_json(const char *path, const struct matrix_doc *d)
{
	struct json_object *doc = matrix_json(d);
	int ret = 0;

	if (!doc)
		return -ENOMEM;
	if (json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PRETTY |
				    JSON_C_TO_STRING_NOSLASHESCAPE)) {
		ret = -EIO;
		fprintf(stderr, "writestress: matrix: cannot write '%s': %s\n", path,
			json_util_get_last_err());
	}
	json_object_put(doc);
	return ret;
}

/* ---- the plot ----------------------------------------------------------- */

#define W 760.0
#define H 480.0

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
	"#8c564b", "#e377c2",
};

static bool plotted(const struct matrix_doc *d, const struct matrix_row *r)
{
	return r->runs && !d->s[r->strategy].idle && r->p99_ms > 0;
}

/* The front of one setting, joined from slow to fast. */
static void draw_front(FILE *f, const struct matrix_doc *d, unsigned int set,
		       const struct svg_axis *x, const struct svg_axis *y,
		       const char *colour)
{
	const struct matrix_row *pts[64];
	size_t n = 0;

	for (size_t i = 0; i < d->nrows && n < 64; i++)
		if (d->rows[i].setting == set && d->rows[i].front && plotted(d, &d->rows[i]))
			pts[n++] = &d->rows[i];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && pts[j]->mibps < pts[j - 1]->mibps; j--) {
			const struct matrix_row *t = pts[j];

			pts[j] = pts[j - 1];
			pts[j - 1] = t;
		}
	for (size_t i = 1; i < n; i++) {
		char attrs[96];

		snprintf(attrs, sizeof(attrs), "stroke=\"%s\" stroke-width=\"1.5\"", colour);
		svg_line(f, attrs, svg_axis_px(x, pts[i - 1]->mibps),
			 svg_axis_px(y, pts[i - 1]->p99_ms * 1e6),
			 svg_axis_px(x, pts[i]->mibps), svg_axis_px(y, pts[i]->p99_ms * 1e6));
	}
}

/* Where a point's label may go, best first: right of it, a row above
 * and below, then further down, then left of it: the layout (svgplot.h)
 * keeps it off the tick labels, the target's and the other labels. */
static int label_spots(struct svg_spot *out, double px, double py)
{
	int n = 0;

	for (int k = 0; k < 6; k++) {
		out[n++] = (struct svg_spot){ px + 6, py - 6 + 13.0 * k, "start" };
		if (k)
			out[n++] = (struct svg_spot){ px + 6, py - 6 - 13.0 * k, "start" };
	}
	out[n++] = (struct svg_spot){ px - 6, py - 6, "end" };
	out[n++] = (struct svg_spot){ px - 6, py + 8, "end" };
	return n;
}

int matrix_write_svg(const char *path, const struct matrix_doc *d)
{
	struct svg_layout lay = { .n = 0 };
	struct svg_box b = { 70, 40, W - 30, H - 60 };
	struct svg_axis x, y;
	double max_mibps = 1, max_ns = d->target_ms * 1e6, min_ns = INFINITY, step, ly = 28;
	FILE *f = fopen(path, "we");
	unsigned int nset = d->nsettings ? d->nsettings : 1;

	if (!f) {
		fprintf(stderr, "writestress: matrix: cannot write '%s': %s\n", path, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < d->nrows; i++) {
		if (!plotted(d, &d->rows[i]))
			continue;
		max_mibps = fmax(max_mibps, d->rows[i].mibps);
		max_ns = fmax(max_ns, d->rows[i].p99_ms * 1e6);
		min_ns = fmin(min_ns, d->rows[i].p99_ms * 1e6);
	}
	/* room on the right for the fastest points' labels */
	step = svg_lin_axis(&x, max_mibps * 1.3, 6, b.x0, b.x1);
	svg_log_axis(&y, min_ns, max_ns, b.y1, b.y0);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		W, H, W, H);
	fprintf(f, "<style>\n"
		"text{font-family:sans-serif;font-size:12px;fill:#333}\n"
		".t{font-size:14px;font-weight:bold;fill:#111}\n"
		".l{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\n"
		".tick{font-size:11px;fill:#666}\n"
		".grid{stroke:#e0e0e0;stroke-width:1}\n"
		".minor{stroke:#f0f0f0;stroke-width:1}\n"
		".frame{fill:none;stroke:#999;stroke-width:1}\n"
		"</style>\n");
	svg_rect(f, "fill=\"white\"", 0, 0, W, H);
	svg_text(f, b.x0, 22, "t", "start",
		 "Which way of writing: throughput against the probe's p99");
	svg_lin_ticks(f, &lay, &x, step, &b, true);
	svg_log_ticks(f, &lay, &y, &b);
	svg_axis_titles(f, &b, "probe p99 (log)", "MiB/s written");
	/* the target: below it the desktop is responsive */
	svg_line(f, "stroke=\"#2ca02c\" stroke-dasharray=\"6 4\"", b.x0,
		 svg_axis_px(&y, d->target_ms * 1e6), b.x1, svg_axis_px(&y, d->target_ms * 1e6));
	{
		struct svg_spot at = { b.x1 - 4, svg_axis_px(&y, d->target_ms * 1e6) - 4, "end" };

		svg_place_text(f, &lay, &(struct svg_box){ 0, 0, W, H }, 11, "l", &at, 1,
			       "target %.0f ms", d->target_ms);
	}
	for (unsigned int set = 0; set < nset; set++)
		draw_front(f, d, set, &x, &y, colours[set % 8]);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct matrix_row *r = &d->rows[i];
		struct svg_spot spots[16];
		double px, py;

		if (!plotted(d, r))
			continue;
		px = svg_axis_px(&x, r->mibps);
		py = svg_axis_px(&y, r->p99_ms * 1e6);
		svg_dot(f, px, py, r->front ? 4.5 : 3, colours[r->setting % 8]);
		svg_place_text(f, &lay, &(struct svg_box){ 0, 30, W, H }, 11, "l", spots,
			       label_spots(spots, px, py), "%s%s%s%s",
			       d->s[r->strategy].label, d->nsettings ? " (" : "",
			       d->nsettings ? d->settings[r->setting] : "",
			       d->nsettings ? ")" : "");
	}
	if (d->nsettings)
		for (unsigned int set = 0; set < nset; set++, ly += 14)
			svg_text(f, b.x1 - 4, b.y0 + ly, "l", "end", "%s %s",
				 d->setting_kind, d->settings[set]);
	svg_frame(f, &b);
	fprintf(f, "</svg>\n");
	if (fclose(f)) {
		fprintf(stderr, "writestress: matrix: cannot write '%s': %s\n", path, strerror(errno));
		return -EIO;
	}
	return 0;
}
