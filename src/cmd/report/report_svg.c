/* report_svg.c - a report's curves, a panel per group, outliers last in
 * red (see report.h); read back from the spill file one at a time. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/c.h"
#include "cmd/report/report.h"
#include "lib/svgplot.h"
#include "lib/units.h"

#define W 1000
#define TOP 70			/* title and legend */
#define PANEL 270		/* a group's height */
#define FOOT 60

/* what svgplot.c's style sheet has not */
static const char style[] =
	".curve{fill:none;stroke-linejoin:round;stroke-linecap:round}\n"
	".outliers{fill:" SVG_ALARM "}\n";

static void draw_curve(FILE *f, const struct report *r, const struct report_row *row,
		       const struct svg_axis *x, const struct svg_axis *y,
		       double per_gib, const char *colour, bool outlier)
{
	struct report_point pts[REPORT_CURVE_MAX];
	size_t n = report_curve_of(r, row, pts);
	struct svg_pen pen = { .f = f };

	if (!n)
		return;
	fprintf(f, "<path class=\"curve%s\" stroke=\"%s\" stroke-width=\"%s\"%s d=\"",
		outlier ? " outlier" : "", colour, outlier ? "2.5" : "1",
		outlier ? "" : " stroke-opacity=\"0.6\"");
	for (size_t i = 0; i < n; i++) {
		double px = svg_axis_px(x, pts[i].gib * per_gib), py = svg_axis_px(y, pts[i].mibps);

		if (n == 1) {
			svg_pen_to(&pen, px - 3, py);
			px += 3;
		}
		svg_pen_to(&pen, px, py);
	}
	svg_pen_flush(&pen);
	fputs("\"><title>", f);
	svg_put_escaped(f, row->file);
	fputs("</title></path>\n", f);
}

static void outlier_names(FILE *f, const struct report *r,
			  const struct report_group *g, double x, double y)
{
	char names[200] = "", tail[64];
	size_t len = 0;
	unsigned int shown = 0;

	for (size_t i = g->first; i < g->first + g->n && shown < 3; i++) {
		if (!(r->rows[i].high | r->rows[i].low))
			continue;
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					shown++ ? ", " : "",
					svg_tail_of(tail, sizeof(tail), r->rows[i].file, 40));
		if (len >= sizeof(names))
			break;
	}
	if (!shown)
		return;
	svg_text(f, x, y, "outliers", "end", "%s%s", names,
		 g->outlier_rows > shown ? ", ..." : "");
}

static void draw_group(FILE *f, const struct report *r, size_t gi)
{
	const struct report_group *g = &r->groups[gi];
	double top = TOP + (double)gi * PANEL;
	struct svg_box b = { 80, top + 34, W - 40, top + PANEL - 46 };
	/* as the run's plot: MiB or GiB by range */
	struct svg_unit unit = svg_bytes_unit((g->max_gib > 0 ? g->max_gib : 1) * WS_GIB);
	double per_gib = (double)WS_GIB / unit.bytes;
	struct svg_axis x, y;
	double xstep, ystep;
	char title[32];

	svg_text(f, b.x0, top + 22, "head", "start", "%s %s: %zu result%s, %s",
		 report_by_name(r->by), g->key, g->n, g->n == 1 ? "" : "s",
		 !g->judged ? "not judged (fewer than 3)" :
		 g->outlier_rows ? "outliers in red" : "no outliers");
	outlier_names(f, r, g, b.x1, top + 22);
	xstep = svg_lin_axis_to(&x, (g->max_gib > 0 ? g->max_gib : 1) * per_gib, 8, b.x0, b.x1);
	ystep = svg_lin_axis(&y, g->max_mibps > 0 ? g->max_mibps * 1.05 : 1, 5, b.y1, b.y0);
	svg_lin_ticks(f, NULL, &x, xstep, &b, true);
	svg_lin_ticks(f, NULL, &y, ystep, &b, false);
	snprintf(title, sizeof(title), "%s written", unit.name);
	svg_axis_titles(f, &b, "MiB/s", title);
	fprintf(f, "<g class=\"group\" data-index=\"%zu\">\n", gi);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = g->first; i < g->first + g->n; i++) {
			const struct report_row *row = &r->rows[i];
			bool outlier = (row->high | row->low) != 0;

			if (outlier == (pass == 1))
				draw_curve(f, r, row, &x, &y, per_gib,
					   outlier ? SVG_ALARM :
						     svg_colour((unsigned int)gi),
					   outlier);
		}
	}
	fputs("</g>\n", f);
	svg_frame(f, &b);
}

void report_svg(FILE *f, const struct report *r)
{
	int h = TOP + (int)r->ngroups * PANEL + FOOT;
	double lx = 80;

	char title[96];

	snprintf(title, sizeof(title), "writestress report: %zu results by %s", r->nrows,
		 report_by_name(r->by));
	svg_begin(f, W, h, title, style);
	svg_text(f, 80, 30, "title", "start", "Throughput over data written: %zu results, %zu group%s by %s",
		 r->nrows, r->ngroups, r->ngroups == 1 ? "" : "s", report_by_name(r->by));
	svg_legend_item(f, &lx, 55, svg_colour(0), 1, NULL, "a result (colour: its group)");
	svg_legend_item(f, &lx, 55, SVG_ALARM, 2.5, NULL, "a result with an outlier");
	for (size_t g = 0; g < r->ngroups; g++)
		draw_group(f, r, g);
	svg_text(f, 80, h - FOOT + 24, "foot", "start",
		 "outlier: |x - median| > %g x %.4f x MAD within a group (MAD 0: %.4f x mean absolute deviation),",
		 r->k, REPORT_MAD_SCALE, REPORT_MEANAD_SCALE);
	svg_text(f, 80, h - FOOT + 40, "foot", "start",
		 "judged on MiB/s, steady MiB/s and each probe's p99; groups of fewer than %d results are not judged",
		 REPORT_MIN_GROUP);
	svg_end(f);
}
