/* matrix_files.c - the matrix's JSON and SVG (see matrix_files.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/hist.h"
#include "lib/jsonw.h"
#include "lib/svgplot.h"
#include "outputs/sink.h"
#include "matrix_files.h"

static const char *setting_of(const struct matrix_doc *d, unsigned int set)
{
	return d->nsettings ? d->settings[set] : NULL;
}

static void put_tree(struct jsonw *w, const char *key, struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_object:
		jsonw_object(w, key);
		json_object_object_foreach(o, k, v)
			put_tree(w, k, v);
		jsonw_end(w);
		break;
	case json_type_array:
		jsonw_array(w, key);
		for (size_t i = 0; i < json_object_array_length(o); i++)
			put_tree(w, NULL, json_object_array_get_idx(o, i));
		jsonw_end(w);
		break;
	case json_type_string:
		jsonw_str(w, key, json_object_get_string(o));
		break;
	case json_type_int:
		jsonw_i64(w, key, json_object_get_int64(o));
		break;
	case json_type_double:
		jsonw_double(w, key, json_object_get_double(o));
		break;
	case json_type_boolean:
		jsonw_bool(w, key, json_object_get_boolean(o));
		break;
	case json_type_null:
		jsonw_null(w, key);
		break;
	}
}

/* null where its runs' probes do not support it (hist.h) */
static void put_pct(struct jsonw *w, const char *key, double q, double min_count, double v)
{
	if (hist_percentile_shown(q, (uint64_t)min_count))
		jsonw_double(w, key, v);
	else
		jsonw_null(w, key);
}

static void put_probes(struct jsonw *w, const struct matrix_row *r)
{
	jsonw_array(w, "probes");
	for (unsigned int k = 0; k < r->nprobes; k++) {
		const struct matrix_probe *p = &r->probes[k];

		jsonw_object(w, NULL);
		jsonw_str(w, "name", p->name);
		jsonw_double(w, "count", p->count);
		jsonw_u64(w, "over_target", p->over);
		put_pct(w, "p50_ms", 0.5, p->min_count, p->p50_ms);
		put_pct(w, "p99_ms", 0.99, p->min_count, p->p99_ms);
		jsonw_double(w, "max_ms", p->max_ms);
		put_pct(w, "p99_corrected_ms", 0.99, p->min_count, p->p99_corrected_ms);
		jsonw_double(w, "stalls", p->stalls);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void put_row(struct jsonw *w, const struct matrix_doc *d, const struct matrix_row *r)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "strategy", d->s[r->strategy].label);
	jsonw_str(w, "setting", setting_of(d, r->setting));
	jsonw_u64(w, "runs", r->runs);
	jsonw_double(w, "mibps", r->mibps);
	jsonw_double(w, "mibps_min", r->mibps_lo);
	jsonw_double(w, "mibps_max", r->mibps_hi);
	jsonw_double(w, "ratio_to_fastest", r->ratio);
	/* the rate was the page cache's: the device wrote device_mibps */
	jsonw_bool(w, "page_cache", r->page_cache);
	jsonw_double(w, "device_mibps", r->dev_mibps);
	put_pct(w, "p50_ms", 0.5, r->min_count, r->p50_ms);
	put_pct(w, "p90_ms", 0.9, r->min_count, r->p90_ms);
	jsonw_double(w, "count", r->count);
	jsonw_u64(w, "over_target", r->over);
	jsonw_u64(w, "over_frozen", r->over_frozen);
	put_pct(w, "p99_ms", 0.99, r->min_count, r->p99_ms);
	put_pct(w, "p99_min_ms", 0.99, r->min_count, r->p99_lo);
	put_pct(w, "p99_max_ms", 0.99, r->min_count, r->p99_hi);
	jsonw_double(w, "max_ms", r->max_ms);
	put_pct(w, "p99_corrected_ms", 0.99, r->min_count, r->p99_corrected_ms);
	jsonw_double(w, "stalls", r->stalls);
	jsonw_u64(w, "peak_dirty_writeback", r->peak_dirty);
	if (d->s[r->strategy].idle)	/* it wrote nothing to cost */
		jsonw_null(w, "cpu_s_per_gib");
	else
		jsonw_double(w, "cpu_s_per_gib", r->cpu_s_per_gib);
	put_probes(w, r);
	jsonw_bool(w, "front", r->front);
	jsonw_str(w, "verdict", matrix_verdict_word(r->verdict));
	/* the cause most of its stalls had; null: none explained */
	jsonw_str(w, "stall_cause", matrix_row_cause(r));
	jsonw_end(w);
}

static void put_recommendation(struct jsonw *w, const struct matrix_doc *d)
{
	const struct matrix_row *b;

	if (d->best < 0) {
		jsonw_null(w, "recommendation");
		return;
	}
	b = &d->rows[d->best];
	jsonw_object(w, "recommendation");
	jsonw_str(w, "strategy", d->s[b->strategy].label);
	jsonw_str(w, "setting", setting_of(d, b->setting));
	jsonw_double(w, "mibps", b->mibps);
	put_pct(w, "p99_ms", 0.99, b->min_count, b->p99_ms);
	jsonw_double(w, "max_ms", b->max_ms);
	jsonw_end(w);
}

static void put_runs(struct jsonw *w, const struct matrix_doc *d)
{
	jsonw_array(w, "runs");
	for (size_t i = 0; i < d->no; i++) {
		const struct matrix_outcome *o = &d->o[i];

		jsonw_object(w, NULL);
		jsonw_u64(w, "order", i + 1);
		jsonw_str(w, "strategy", d->s[o->strategy].label);
		jsonw_str(w, "setting", setting_of(d, o->setting));
		jsonw_i64(w, "exit_status", o->status);
		jsonw_bool(w, "unsupported", o->unsupported);
		jsonw_double(w, "quiet_wait_s", o->quiet_wait_s);
		jsonw_bool(w, "quiet_timeout", o->quiet_timeout);
		if (d->results[i])
			put_tree(w, "result", d->results[i]);
		else
			jsonw_null(w, "result");
		jsonw_end(w);
	}
	jsonw_end(w);
}

void matrix_json(FILE *f, const struct matrix_doc *d)
{
	struct jsonw w;

	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "schema", MATRIX_SCHEMA);
	jsonw_tool(&w);
	jsonw_bool(&w, "complete", d->complete);
	jsonw_double(&w, "target_latency_ms", d->target_ms);
	jsonw_u64(&w, "headroom_pct", d->headroom_pct);
	if (d->each_bytes) {
		jsonw_u64(&w, "each_bytes", d->each_bytes);
		jsonw_null(&w, "each_s");
	} else {
		jsonw_null(&w, "each_bytes");
		jsonw_seconds(&w, "each_s", d->each_ns);
	}
	jsonw_array(&w, "strategies");
	for (unsigned int i = 0; i < d->ns; i++)
		jsonw_str(&w, NULL, d->s[i].label);
	jsonw_end(&w);
	jsonw_str(&w, "setting_kind", d->setting_kind);
	jsonw_array(&w, "settings");
	for (unsigned int i = 0; i < d->nsettings; i++)
		jsonw_str(&w, NULL, d->settings[i]);
	jsonw_end(&w);
	jsonw_array(&w, "table");
	for (size_t i = 0; i < d->nrows; i++)
		put_row(&w, d, &d->rows[i]);
	jsonw_end(&w);
	put_recommendation(&w, d);
	put_runs(&w, d);
	jsonw_end(&w);
	fputc('\n', f);
}

static int write_file(const char *path, const struct matrix_doc *d,
		      void (*draw)(FILE *f, const struct matrix_doc *d),
		      char *err, size_t len)
{
	static const struct sink_ops matrix_file_ops = { .name = "matrix" };
	struct sink_set set = { .n = 0, .force = d->force };
	int ret = sink_add_file(&set, &matrix_file_ops, path, err, len);

	if (ret)
		return ret;
	draw(set.sinks[0].out, d);
	ret = sink_close_file(&set.sinks[0]);
	if (ret)
		snprintf(err, len, "cannot write '%s': %s", path, strerror(-ret));
	return ret;
}

int matrix_write_json(const char *path, const struct matrix_doc *d, char *err,
		      size_t len)
{
	return write_file(path, d, matrix_json, err, len);
}

int matrix_write_svg(const char *path, const struct matrix_doc *d, char *err,
		     size_t len)
{
	return write_file(path, d, matrix_svg, err, len);
}

#define W 760.0
#define H 480.0
#define FRONT_R 4.5	/* a dot on the Pareto front */
#define OFF_R 3.0

/* what svgplot.c's style sheet has not */
static const char style[] =
	".t{font-size:14px;font-weight:bold;fill:#111}\n"
	".l{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\n";

/* A rate that was the page cache's would squeeze the disk's rates into
 * a corner: it is named under the plot instead. */
static bool plotted(const struct matrix_doc *d, const struct matrix_row *r)
{
	return r->runs && !d->s[r->strategy].idle && !r->page_cache &&
	       matrix_row_tail_ms(r) > 0;
}

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
			 svg_axis_px(y, matrix_row_tail_ms(pts[i - 1]) * 1e6),
			 svg_axis_px(x, pts[i]->mibps),
			 svg_axis_px(y, matrix_row_tail_ms(pts[i]) * 1e6));
	}
}

/* Where a point's label may go, best first (svgplot.h's layout keeps it
 * off the other labels). */
static int label_spots(struct svg_spot *out, double px, double py)
{
	int n = 0;

	for (int k = 0; k < 8; k++) {
		out[n++] = (struct svg_spot){ px + 7, py - 6 + 13.0 * k, "start" };
		if (k)
			out[n++] = (struct svg_spot){ px + 7, py - 6 - 13.0 * k, "start" };
	}
	for (int k = 0; k < 4; k++) {
		out[n++] = (struct svg_spot){ px - 7, py - 6 + 13.0 * k, "end" };
		if (k)
			out[n++] = (struct svg_spot){ px - 7, py - 6 - 13.0 * k, "end" };
	}
	return n;
}

/* The dots' sizes, said in the corner, its room taken first. */
static void legend(FILE *f, struct svg_layout *lay, const struct svg_box *b)
{
	static const struct { double r; const char *words; } keys[] = {
		{ FRONT_R, "on the Pareto front" }, { OFF_R, "off it" },
	};
	double x = b->x1 - 150, y = b->y0 + 16;

	svg_layout_take(lay, &(struct svg_box){ x - 8, y - 12, b->x1 - 2, y + 18 });
	for (size_t i = 0; i < 2; i++, y += 14) {
		svg_dot(f, x, y - 4, keys[i].r, "#555555");
		svg_text(f, x + 8, y, "l", "start", "%s", keys[i].words);
	}
}

/* Which rows' rates were the page cache's, under the x axis's title. */
static void not_plotted(FILE *f, const struct matrix_doc *d, const struct svg_box *b)
{
	char names[160] = "";
	size_t used = 0;

	for (size_t i = 0; i < d->nrows && used < sizeof(names); i++)
		if (d->rows[i].runs && d->rows[i].page_cache)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 used ? ", " : "", d->s[d->rows[i].strategy].label);
	if (used)
		svg_text(f, b->x0, H - 8, "l", "start",
			 "not plotted, its rate the page cache's: %s", names);
}

void matrix_svg(FILE *f, const struct matrix_doc *d)
{
	struct svg_layout lay = { .n = 0 };
	/* room left of the ticks for the y axis's title (svgplot puts it
	 * at x 22) */
	struct svg_box b = { 88, 40, W - 30, H - 60 };
	struct svg_axis x, y;
	double max_mibps = 1, max_ns = d->target_ms * 1e6, min_ns = INFINITY, step, ly = 28;
	unsigned int nset = d->nsettings ? d->nsettings : 1;

	for (size_t i = 0; i < d->nrows; i++) {
		if (!plotted(d, &d->rows[i]))
			continue;
		max_mibps = fmax(max_mibps, d->rows[i].mibps);
		max_ns = fmax(max_ns, matrix_row_tail_ms(&d->rows[i]) * 1e6);
		min_ns = fmin(min_ns, matrix_row_tail_ms(&d->rows[i]) * 1e6);
	}
	/* room on the right for the fastest points' labels */
	step = svg_lin_axis(&x, max_mibps * 1.3, 6, b.x0, b.x1);
	svg_log_axis(&y, min_ns, max_ns, b.y1, b.y0);
	svg_begin(f, (int)W, (int)H, "writestress matrix: throughput against the probe's p99", style);
	svg_text(f, b.x0, 22, "t", "start",
		 "Which way of writing: throughput against the probe's p99");
	svg_lin_ticks(f, &lay, &x, step, &b, true);
	svg_log_ticks(f, &lay, &y, &b);
	svg_axis_titles(f, &b, "probe p99 (max under 1000 probes), log", "MiB/s written");
	legend(f, &lay, &b);
	not_plotted(f, d, &b);
	/* the target: below it the desktop is responsive */
	svg_line(f, "stroke=\"#2ca02c\" stroke-dasharray=\"6 4\"", b.x0,
		 svg_axis_px(&y, d->target_ms * 1e6), b.x1, svg_axis_px(&y, d->target_ms * 1e6));
	{
		struct svg_spot at = { b.x1 - 4, svg_axis_px(&y, d->target_ms * 1e6) - 4, "end" };

		svg_place_text(f, &lay, &(struct svg_box){ 0, 0, W, H }, 11, "l", &at, 1,
			       "target %.0f ms", d->target_ms);
	}
	for (unsigned int set = 0; set < nset; set++)
		draw_front(f, d, set, &x, &y, svg_colour(set));
	/* every dot's room first: no label covers another's dot */
	for (size_t i = 0; i < d->nrows; i++) {
		const struct matrix_row *r = &d->rows[i];
		double px, py, rad = r->front ? FRONT_R : OFF_R;

		if (!plotted(d, r))
			continue;
		px = svg_axis_px(&x, r->mibps);
		py = svg_axis_px(&y, matrix_row_tail_ms(r) * 1e6);
		svg_layout_take(&lay, &(struct svg_box){ px - rad, py - rad, px + rad, py + rad });
	}
	for (size_t i = 0; i < d->nrows; i++) {
		const struct matrix_row *r = &d->rows[i];
		struct svg_spot spots[32];
		double px, py;

		if (!plotted(d, r))
			continue;
		px = svg_axis_px(&x, r->mibps);
		py = svg_axis_px(&y, matrix_row_tail_ms(r) * 1e6);
		svg_dot(f, px, py, r->front ? FRONT_R : OFF_R, svg_colour(r->setting));
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
	svg_end(f);
}
