/* svgplot.h - the generic parts of an SVG plot.  Coordinates are written
 * with one decimal, so the same figures give the same bytes.  State is the
 * caller's (a pen, a layout); any thread.
 */
#ifndef WS_SVGPLOT_H
#define WS_SVGPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* a latency axis, ns */
#define SVG_LAT_FLOOR 1e5
#define SVG_LAT_LOWEST 1e3
#define SVG_LAT_CEIL 1e13

struct svg_box {
	double x0, y0, x1, y1;
};

/* [lo, hi] onto pixels [p0, p1]; a log axis maps ln(v), lo > 0. */
struct svg_axis {
	double lo, hi;
	double p0, p1;
	bool log;
};

/* Clamped to the axis; NaN lands on p0. */
double svg_axis_px(const struct svg_axis *a, double v);
/* 0 to a multiple of a 1-2-5 step >= max; returns the step. */
double svg_lin_axis(struct svg_axis *a, double max, int target, double p0,
		    double p1);
/* The same, ending at max: no tick past the data. */
double svg_lin_axis_to(struct svg_axis *a, double max, int target,
		       double p0, double p1);
/* Decades around [min, max] ns, from 0.1 ms or below (µs-scale probes are
 * not drawn flat) to 10 ms or above. */
void svg_log_axis(struct svg_axis *a, double min, double max, double p0,
		  double p1);

/* MiB below 1 GiB, else GiB. */
struct svg_unit {
	const char *name;
	double bytes;		/* in one unit */
	int decimals;
};
struct svg_unit svg_bytes_unit(double max);

/* Replaces control characters and invalid UTF-8. */
void svg_put_escaped(FILE *f, const char *s);
__attribute__((format(printf, 6, 7)))
void svg_text(FILE *f, double x, double y, const char *cls,
	      const char *anchor, const char *fmt, ...);
/* s, or "…" and its last `max` bytes at a character boundary. */
const char *svg_tail_of(char *buf, size_t len, const char *s, size_t max);

/* No font metrics without a renderer: in DejaVu Sans a character averages
 * 0.60-0.64 em, capitals reach 0.73 em up, descenders 0.21 down. */
#define SVG_EM_PER_CHAR 0.65
#define SVG_TEXT_PAD 2.0
#define SVG_TICK_PX 11.0	/* class "tick" in the sink's CSS */
#define SVG_LAYOUT_MAX 128

struct svg_spot {
	double x, y;
	const char *anchor;
};

struct svg_box svg_text_box(const struct svg_spot *at, double size,
			    const char *s);
/* Boxes that only touch do not meet. */
bool svg_boxes_meet(const struct svg_box *a, const struct svg_box *b);

/* The texts' boxes of one plot; zero-initialised it is empty. */
struct svg_layout {
	struct svg_box taken[SVG_LAYOUT_MAX];
	unsigned int n;
	bool overflowed;	/* nothing more is placed */
};

/* A text drawn where it must be; l may be NULL. */
void svg_layout_take(struct svg_layout *l, const struct svg_box *b);
/* The first spot inside `within` free of taken boxes (then taken), or -1:
 * better left out than drawn over another. */
int svg_layout_place(struct svg_layout *l, const struct svg_box *within,
		     double size, const char *text,
		     const struct svg_spot *spots, int n);
/* svg_layout_place, then svg_text there if a spot was found. */
__attribute__((format(printf, 8, 9)))
int svg_place_text(FILE *f, struct svg_layout *l, const struct svg_box *within,
		   double size, const char *cls, const struct svg_spot *spots,
		   int n, const char *fmt, ...);

void svg_line(FILE *f, const char *attrs, double ax, double ay, double bx,
	      double by);
void svg_rect(FILE *f, const char *attrs, double x, double y, double w,
	      double h);
void svg_dot(FILE *f, double x, double y, double r, const char *colour);

/* A polyline: a pixel column's points become its lowest and highest, so a
 * long series costs two vertices a pixel and keeps every spike. */
struct svg_pen {
	FILE *f;
	bool down;
	unsigned int n;
	bool held;		/* gathering column col */
	long col;
	double x, lo, hi;
	bool lo_first;
};

/* Flush before the d attribute closes. */
void svg_pen_to(struct svg_pen *p, double x, double y);
void svg_pen_up(struct svg_pen *p);
void svg_pen_flush(struct svg_pen *p);

/* A swatch and its label at *x, which moves past them. */
void svg_legend_item(FILE *f, double *x, double y, const char *colour,
		     double w, const char *dash, const char *label);
/* xside: vertical lines labelled below; l may be NULL. */
void svg_lin_ticks(FILE *f, struct svg_layout *l, const struct svg_axis *a,
		   double step, const struct svg_box *b, bool xside);
/* Decades labelled, 2x and 5x faint. */
void svg_log_ticks(FILE *f, struct svg_layout *l, const struct svg_axis *a,
		   const struct svg_box *b);
void svg_axis_titles(FILE *f, const struct svg_box *b, const char *ytitle,
		     const char *xtitle);
void svg_frame(FILE *f, const struct svg_box *b);

/* extra: the plot's own CSS, or NULL. */
void svg_begin(FILE *f, int w, int h, const char *title, const char *extra);
void svg_end(FILE *f);
/* i modulo 8; red is kept for SVG_ALARM. */
const char *svg_colour(unsigned int i);
#define SVG_ALARM "#d62728"	/* stalls, outliers */

#endif
