/* sink_svg_throughput.c - the SVG's top panel: throughput over data written. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "sink_svg.h"

#define LABEL_MIN_PX 64.0	/* narrower phases get no rate label */

static const struct svg_box top_box = { 80, 104, 1160, 334 };

struct bytes_axis {
	struct svg_axis ax;
	struct svg_unit unit;
};

static double bytes_px(const struct bytes_axis *x, double bytes)
{
	return svg_axis_px(&x->ax, bytes / x->unit.bytes);
}

/* The last band lasts to the run's end: the analysis ends the last phase
 * with the last whole interval, and the rest is not another phase. */
void plot_phase_bands(FILE *f, const struct ws_summary *sum,
		      const struct svg_axis *x, double per,
		      const struct svg_box *b, bool by_time)
{
	for (unsigned int i = 0; i < plot_nphases(sum); i++) {
		const struct ws_phase *ph = &sum->analysis->phases[i];
		double from = by_time ? (double)ph->from_ns : (double)ph->from_bytes;
		double to = by_time ? (double)ph->to_ns : (double)ph->to_bytes;
		double p = svg_axis_px(x, from / per);
		double q = i + 1 == plot_nphases(sum) ? x->p1 : svg_axis_px(x, to / per);

		svg_rect(f, i % 2 ? "class=\"band1\"" : "class=\"band0\"", p, b->y0,
		     q - p, b->y1 - b->y0);
	}
}

static void throughput_line(FILE *f, const struct ws_summary *sum,
			    const struct bytes_axis *x, const struct svg_axis *y)
{
	struct svg_pen pen = { .f = f };
	const struct ws_series *s = plot_top_series(sum);
	size_t n = plot_ntop(sum);

	fputs("<path fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"", f);
	for (size_t i = 0; i < n; i++) {
		const struct ws_point *p = &s->pts[i];

		if (isfinite(p->mibps))
			svg_pen_to(&pen, bytes_px(x, plot_mid_bytes(p)), svg_axis_px(y, p->mibps));
		else
			svg_pen_up(&pen);
	}
	svg_pen_flush(&pen);
	fputs("\"/>\n", f);
	for (size_t i = 0; n < DOTS_BELOW && i < n; i++)
		if (isfinite(s->pts[i].mibps))
			svg_dot(f, bytes_px(x, plot_mid_bytes(&s->pts[i])),
			    svg_axis_px(y, s->pts[i].mibps), 2.5, "#1f5fa8");
}

static const char *const target_colours[] = {
	"#8da0cb", "#fc8d62", "#66c2a5", "#e78ac3", "#a6d854", "#ffd92f",
	"#e5c494", "#b3b3b3",
};

/* *at carries the search between calls: t only grows along a line. */
static double run_bytes_at(const struct ws_series *s, size_t *at, uint64_t t)
{
	struct ws_point prev = { 0 };

	while (*at < s->n && s->pts[*at].t_ns < t)
		(*at)++;
	if (*at)
		prev = s->pts[*at - 1];
	if (*at == s->n)
		return (double)prev.bytes;
	if (s->pts[*at].t_ns == prev.t_ns)
		return (double)s->pts[*at].bytes;
	return (double)prev.bytes + (double)(s->pts[*at].bytes - prev.bytes) *
	       (double)(t - prev.t_ns) / (double)(s->pts[*at].t_ns - prev.t_ns);
}

/* A target's line sits where the whole run had written as much, so all
 * targets share the axis. */
static void target_lines(FILE *f, const struct ws_summary *sum,
			 const struct bytes_axis *x, const struct svg_axis *y)
{
	for (unsigned int k = 0; k < sum->ntargets && sum->progress; k++) {
		const struct ws_summary *ts = &sum->targets[k];
		const struct ws_series *s = plot_top_series(ts);
		struct svg_pen pen = { .f = f };
		size_t at = 0;

		if (!s)
			continue;
		fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1\" stroke-linejoin=\"round\" d=\"",
			target_colours[k % ARRAY_SIZE(target_colours)]);
		for (size_t i = 0; i < s->n; i++) {
			const struct ws_point *p = &s->pts[i];
			/* marks count from its writer's start */
			uint64_t mid = p->t_ns - p->dt_ns / 2 +
				       (s == ts->progress ? ts->start_offset_ns : 0);

			if (isfinite(p->mibps))
				svg_pen_to(&pen, bytes_px(x, run_bytes_at(sum->progress, &at, mid)),
					   svg_axis_px(y, p->mibps));
			else
				svg_pen_up(&pen);
		}
		svg_pen_flush(&pen);
		fputs("\"/>\n", f);
	}
}

/* A stretch at a rate in pixels, and where along it a label may go. */
struct rate_span {
	double l, r, py;
	struct svg_spot xs[3];
};

static struct rate_span rate_span(const struct bytes_axis *x, const struct svg_axis *y,
				  uint64_t from_bytes, uint64_t to_bytes, double mibps)
{
	struct rate_span sp = {
		.l = bytes_px(x, (double)from_bytes),
		.r = bytes_px(x, (double)to_bytes),
		.py = svg_axis_px(y, plot_finite_or_0(mibps)),
	};

	sp.xs[0] = (struct svg_spot){ (sp.l + sp.r) / 2, 0, "middle" };
	sp.xs[1] = (struct svg_spot){ sp.l + 4, 0, "start" };
	sp.xs[2] = (struct svg_spot){ sp.r - 4, 0, "end" };
	return sp;
}

/* Labels along the panel's top or bottom stay off the data. */
static void phase_rates(FILE *f, struct svg_layout *lay,
			const struct ws_summary *sum, const struct bytes_axis *x,
			const struct svg_axis *y, const struct svg_box *b)
{
	for (unsigned int i = 0; i < plot_nphases(sum); i++) {
		const struct ws_phase *ph = &sum->analysis->phases[i];
		struct rate_span sp = rate_span(x, y, ph->from_bytes, ph->to_bytes, ph->mibps);
		struct svg_spot spots[SPOTS_MAX];

		svg_line(f, "stroke=\"#333\" stroke-width=\"2\"", sp.l, sp.py, sp.r, sp.py);
		if (sp.r - sp.l >= LABEL_MIN_PX)
			svg_place_text(f, lay, b, LABEL_PX, "lbl", spots,
				       plot_spots_near(spots, sp.xs, 3, b->y0 + 14, 1, b->y1 - 6),
				       "%.1f MiB/s", plot_finite_or_0(ph->mibps));
	}
}

static void steady_before(FILE *f, struct svg_layout *lay,
			  const struct ws_stretch *s, const struct bytes_axis *x,
			  const struct svg_axis *y, const struct svg_box *b)
{
	struct rate_span sp = rate_span(x, y, s->from_bytes, s->to_bytes, s->mibps);
	struct svg_spot spots[SPOTS_MAX];

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-width=\"5\" stroke-opacity=\"0.5\"/>\n",
		sp.l, sp.py, sp.r, sp.py);
	svg_place_text(f, lay, b, LABEL_PX, "lbl", spots,
		       plot_spots_near(spots, sp.xs, 3, sp.py + 20, 1, sp.py - 12),
		       "steady %.1f MiB/s, then changed", plot_finite_or_0(s->mibps));
}

static void steady_final(FILE *f, struct svg_layout *lay,
			 const struct ws_steady *st, const struct bytes_axis *x,
			 const struct svg_axis *y, const struct svg_box *b)
{
	double px = bytes_px(x, (double)st->at_bytes);
	double py = svg_axis_px(y, plot_finite_or_0(st->final.mibps));
	const struct svg_spot xs[] = { { px + 10, 0, "start" }, { px - 10, 0, "end" } };
	struct svg_spot spots[SPOTS_MAX];

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2e7d32\" stroke-width=\"5\" stroke-opacity=\"0.6\"/>\n",
		bytes_px(x, (double)st->final.from_bytes), py,
		bytes_px(x, (double)st->final.to_bytes), py);
	fprintf(f, "<path d=\"M%.1f %.1fl7 7-7 7-7-7z\" fill=\"#2e7d32\" stroke=\"#fff\"/>\n",
		px, py - 7);
	svg_place_text(f, lay, b, LABEL_PX, "lbl steady", spots,
		       plot_spots_near(spots, xs, 2, py + 20, 1, py - 12),
		       "steady %.1f MiB/s", plot_finite_or_0(st->final.mibps));
}

static void steady_mark(FILE *f, struct svg_layout *lay,
			const struct ws_summary *sum, const struct bytes_axis *x,
			const struct svg_axis *y, const struct svg_box *b)
{
	const struct ws_steady *st = sum->analysis ? &sum->analysis->steady : NULL;

	if (st && st->earlier)
		steady_before(f, lay, &st->before, x, y, b);
	if (st && st->reached)
		steady_final(f, lay, st, x, y, b);
}

void plot_slowdown_line(FILE *f, double p, const struct svg_box *b)
{
	svg_line(f, "stroke=\"#c0561a\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"",
	     p, b->y0, p, b->y1);
}

static void slowdown_mark(FILE *f, struct svg_layout *lay,
			  const struct ws_summary *sum, const struct bytes_axis *x,
			  const struct svg_box *b)
{
	double at = (double)sum->analysis->slowdown_bytes;
	double p = bytes_px(x, at);
	const struct svg_spot xs[] = { { p + 5, 0, "start" }, { p - 5, 0, "end" } };
	struct svg_spot spots[SPOTS_MAX];

	plot_slowdown_line(f, p, b);
	svg_place_text(f, lay, b, LABEL_PX, "lbl slowed", spots,
		       plot_spots_near(spots, xs, 2, b->y0 + 15, 1, b->y1 - 8),
		       "slowed at %.*f %s", x->unit.decimals, at / x->unit.bytes,
		       x->unit.name);
}

static void top_legend(FILE *f, const struct ws_summary *sum, double y)
{
	char what[48] = "per interval";
	double x = 560;

	/* marks fall on buffer ends; a long run's intervals were merged */
	if (plot_top_series(sum) == sum->progress)
		snprintf(what, sizeof(what), "per buffer group");
	else if (sum->series && sum->series->stride > 1)
		snprintf(what, sizeof(what), "per %u intervals", sum->series->stride);
	svg_legend_item(f, &x, y, "#1f5fa8", 1.5, NULL, what);
	if (plot_nphases(sum))
		svg_legend_item(f, &x, y, "#333", 2, NULL, "phase rate");
	if (sum->analysis && sum->analysis->steady.reached)
		svg_legend_item(f, &x, y, "#2e7d32", 5, NULL, "steady to the end");
	if (sum->analysis && sum->analysis->steady.earlier)
		svg_legend_item(f, &x, y, "#777", 5, NULL, "steady, then changed");
	if (sum->analysis && sum->analysis->slowed)
		svg_legend_item(f, &x, y, "#c0561a", 1.5, "6 4", "slowed");
	for (unsigned int k = 0; k < sum->ntargets; k++) {
		char name[24];

		snprintf(name, sizeof(name), "target %u", k + 1);
		svg_legend_item(f, &x, y, target_colours[k % ARRAY_SIZE(target_colours)],
				1, NULL, name);
	}
}

void plot_draw_throughput(FILE *f, struct svg_layout *lay,
			  const struct ws_summary *sum)
{
	const struct svg_box *b = &top_box;
	struct bytes_axis x = { .unit = svg_bytes_unit(plot_max_bytes(sum)) };
	struct svg_axis y;
	double xs = svg_lin_axis_to(&x.ax, plot_max_bytes(sum) / x.unit.bytes, 8,
				    b->x0, b->x1);
	double ys = svg_lin_axis(&y, plot_max_mibps(sum) * 1.12, 6, b->y1, b->y0);
	char xtitle[32];

	svg_text(f, b->x0, b->y0 - 10, "head", "start", "Throughput over data written");
	top_legend(f, sum, b->y0 - 10);
	plot_phase_bands(f, sum, &x.ax, x.unit.bytes, b, false);
	svg_lin_ticks(f, lay, &x.ax, xs, b, true);
	svg_lin_ticks(f, lay, &y, ys, b, false);
	snprintf(xtitle, sizeof(xtitle), "%s written", x.unit.name);
	svg_axis_titles(f, b, "MiB/s", xtitle);
	if (!plot_npoints(sum) || !(plot_max_bytes(sum) > 0))
		plot_panel_note(f, lay, b, plot_npoints(sum) ? "nothing was written"
				   : "no data: the run ended before its first interval");
	target_lines(f, sum, &x, &y);
	throughput_line(f, sum, &x, &y);
	phase_rates(f, lay, sum, &x, &y, b);
	steady_mark(f, lay, sum, &x, &y, b);
	if (sum->analysis && sum->analysis->slowed)
		slowdown_mark(f, lay, sum, &x, b);
	svg_frame(f, b);
}
