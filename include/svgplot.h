/* svgplot.h - the generic parts of an SVG plot: numbers for axes (nice
 * steps, a logarithm without libm), text escaped for XML, lines, boxes, a
 * pen that keeps a long series to two vertices a pixel, legends, ticks and
 * frames.  Everything writes to a FILE in user units with one decimal, so
 * the same figures give the same bytes.  No state beyond a pen; any
 * thread may use its own.
 */
#ifndef WS_SVGPLOT_H
#define WS_SVGPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_LAT_FLOOR 1e5	/* a latency axis starts at 0.1 ms (ns) */
#define SVG_LAT_CEIL 1e13	/* ... and ends by 10000 s */

/* A plot area in pixels. */
struct svg_box {
	double x0, y0, x1, y1;
};

/* A data range [lo, hi] mapped onto pixels [p0, p1]; a log axis maps
 * ln(v) (lo > 0 then). */
struct svg_axis {
	double lo, hi;
	double p0, p1;
	bool log;
};

/* Where v falls on the axis, clamped to it (NaN lands on p0). */
double svg_axis_px(const struct svg_axis *a, double v);
/* A linear axis from 0 to the first multiple of its nice (1-2-5) step at
 * or above max, cut into about `target` steps; returns the step. */
double svg_lin_axis(struct svg_axis *a, double max, int target, double p0,
		    double p1);
/* A log axis in ns from 0.1 ms to the first decade at or above max and
 * 10 ms. */
void svg_log_axis(struct svg_axis *a, double max, double p0, double p1);

/* s as XML character data: markup escaped, control characters and bytes
 * that are not UTF-8 replaced. */
void svg_put_escaped(FILE *f, const char *s);
/* A <text> at (x, y): cls its classes, anchor start, middle or end. */
__attribute__((format(printf, 6, 7)))
void svg_text(FILE *f, double x, double y, const char *cls,
	      const char *anchor, const char *fmt, ...);
/* s itself, or "…" and its last `max` bytes, cut at a character
 * boundary (the telling end of a path). */
const char *svg_tail_of(char *buf, size_t len, const char *s, size_t max);

void svg_line(FILE *f, const char *attrs, double ax, double ay, double bx,
	      double by);
void svg_rect(FILE *f, const char *attrs, double x, double y, double w,
	      double h);
void svg_dot(FILE *f, double x, double y, double r, const char *colour);

/* A polyline in one <path> d attribute, lifted over gaps.  Points that
 * fall in one pixel column become that column's lowest and highest, in
 * the order they came: a long series costs at most two vertices a pixel
 * and keeps every spike. */
struct svg_pen {
	FILE *f;
	bool down;		/* the next vertex continues a line */
	unsigned int n;		/* vertices written (a line break every 8) */
	bool held;		/* a column is being gathered */
	long col;		/* ... which one */
	double x, lo, hi;	/* its first x and its extremes */
	bool lo_first;		/* the lowest came before the highest */
};

/* The next point; a gap (svg_pen_up) starts a new line; svg_pen_flush
 * writes what is gathered, before the path's d attribute closes. */
void svg_pen_to(struct svg_pen *p, double x, double y);
void svg_pen_up(struct svg_pen *p);
void svg_pen_flush(struct svg_pen *p);

/* A legend entry at *x: a swatch (a stroke of width w, dashed if dash)
 * then the label; *x moves past it. */
void svg_legend_item(FILE *f, double *x, double y, const char *colour,
		     double w, const char *dash, const char *label);
/* Grid lines and labels at every step of a linear axis: vertical lines
 * labelled below the box (xside), or horizontal ones labelled left. */
void svg_lin_ticks(FILE *f, const struct svg_axis *a, double step,
		   const struct svg_box *b, bool xside);
/* Decades labelled, 2x and 5x as faint lines. */
void svg_log_ticks(FILE *f, const struct svg_axis *a, const struct svg_box *b);
/* A y-axis title, turned to read upwards, and an x-axis title. */
void svg_axis_titles(FILE *f, const struct svg_box *b, const char *ytitle,
		     const char *xtitle);
void svg_frame(FILE *f, const struct svg_box *b);

#endif
