/* svgplot.h - the generic parts of an SVG plot: numbers for axes (nice
 * steps, a logarithm without libm, a unit for bytes), text escaped for
 * XML, labels placed where they cover no other text, lines, boxes, a pen
 * that keeps a long series to two vertices a pixel, legends, ticks and
 * frames.  Everything writes to a FILE in user units with one decimal, so
 * the same figures give the same bytes.  No state beyond a pen and a
 * layout, each its caller's; any thread may use its own.
 */
#ifndef WS_SVGPLOT_H
#define WS_SVGPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SVG_LAT_FLOOR 1e5	/* a latency axis starts by 0.1 ms (ns) ... */
#define SVG_LAT_LOWEST 1e3	/* ... lower for faster figures, to 1 µs */
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
/* A linear axis from 0 to max itself, the end of the data (an empty
 * range becomes [0, 1]), with the nice step that cuts it into about
 * `target` steps; returns the step.  Its ticks are the multiples of the
 * step within it: none stands past the data. */
double svg_lin_axis_to(struct svg_axis *a, double max, int target,
		       double p0, double p1);
/* A log axis in ns from the decade at or below min (at most 0.1 ms, at
 * least 1 µs: µs-scale probes are not drawn flat on the axis; min <= 0
 * or not a number: 0.1 ms) to the first decade at or above max and
 * 10 ms. */
void svg_log_axis(struct svg_axis *a, double min, double max, double p0,
		  double p1);

/* The unit an axis of bytes up to max is read in: MiB below 1 GiB, GiB
 * from there (a run of a TiB still reads well in GiB); `decimals` suits a
 * single figure in it, "117.2 MiB", "5.86 GiB". */
struct svg_unit {
	const char *name;
	double bytes;		/* in one unit */
	int decimals;
};
struct svg_unit svg_bytes_unit(double max);

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

/* ---- labels that cover no other text ----
 * No font metrics without a renderer, so a text's box is estimated from
 * its characters: SVG_EM_PER_CHAR of its font size each (DejaVu Sans, the
 * usual sans-serif, averages 0.60 em on our bold labels, 0.64 on its
 * digits), from 0.75 of the size above the baseline (its capitals reach
 * 0.73) to 0.21 below (its g, p and y reach that).  A label placed keeps
 * SVG_TEXT_PAD off every other text's box and inside its panel (its white
 * halo, and air). */
#define SVG_EM_PER_CHAR 0.65
#define SVG_TEXT_PAD 2.0
#define SVG_TICK_PX 11.0	/* the font size of class "tick" (the sink's CSS) */
#define SVG_LAYOUT_MAX 128	/* texts a plot places or takes */

/* Where a text may go: its anchor point and text-anchor. */
struct svg_spot {
	double x, y;
	const char *anchor;	/* "start", "middle" or "end" */
};

/* The box text s in a font of `size` px takes when drawn at *at. */
struct svg_box svg_text_box(const struct svg_spot *at, double size,
			    const char *s);
/* Do a and b share some area?  Boxes that only touch do not. */
bool svg_boxes_meet(const struct svg_box *a, const struct svg_box *b);

/* The boxes of the texts on a plot so far.  Zero-initialised it is
 * empty; the caller owns it for one plot. */
struct svg_layout {
	struct svg_box taken[SVG_LAYOUT_MAX];
	unsigned int n;
	bool overflowed;	/* a box was not kept: nothing more is placed */
};

/* A text drawn where it must be (a tick label, a note): later labels
 * keep off its box.  NULL l: nothing to keep. */
void svg_layout_take(struct svg_layout *l, const struct svg_box *b);
/* The first of the n spots where `text`, SVG_TEXT_PAD around it, lies
 * inside `within` and meets no box taken; its box is taken then.  Returns
 * its index, or -1 if no spot will do (or the layout overflowed): the
 * label is better left out than drawn over another. */
int svg_layout_place(struct svg_layout *l, const struct svg_box *within,
		     double size, const char *text,
		     const struct svg_spot *spots, int n);
/* svg_layout_place for the formatted text, then it drawn as svg_text
 * does at the spot found (nothing if none); returns the spot's index or
 * -1. */
__attribute__((format(printf, 8, 9)))
int svg_place_text(FILE *f, struct svg_layout *l, const struct svg_box *within,
		   double size, const char *cls, const struct svg_spot *spots,
		   int n, const char *fmt, ...);

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
 * labelled below the box (xside), or horizontal ones labelled left.  The
 * labels' boxes are taken in l (NULL: none). */
void svg_lin_ticks(FILE *f, struct svg_layout *l, const struct svg_axis *a,
		   double step, const struct svg_box *b, bool xside);
/* Decades labelled, 2x and 5x as faint lines; the labels taken in l. */
void svg_log_ticks(FILE *f, struct svg_layout *l, const struct svg_axis *a,
		   const struct svg_box *b);
/* A y-axis title, turned to read upwards, and an x-axis title. */
void svg_axis_titles(FILE *f, const struct svg_box *b, const char *ytitle,
		     const char *xtitle);
void svg_frame(FILE *f, const struct svg_box *b);

/* ---- the document: one frame and one palette for every plot ---- */

/* Open a plot: the XML prolog, the root element of w x h user units, its
 * <title> (escaped), the style sheet every writestress plot shares
 * (extra: rules of the plot's own, or NULL) and a white ground.
 * svg_end() closes it. */
void svg_begin(FILE *f, int w, int h, const char *title, const char *extra);
void svg_end(FILE *f);
/* The palette every plot draws its series in: colour i of eight (i
 * modulo 8).  Red is kept for what went wrong (SVG_ALARM). */
const char *svg_colour(unsigned int i);
#define SVG_ALARM "#d62728"	/* stalls, outliers */

#endif
