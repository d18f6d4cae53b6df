/* svgplot.c - the generic parts of an SVG plot.  No libm: logs and rounding are here. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/svgplot.h"

#define MS 1e6
#define SEC 1e9

/* Halve or double into [1, 2), then the atanh series (|z| <= 1/3: 15
 * terms are far below a pixel). */
static double svg_log_e(double x)
{
	double k = 0, z, z2, term, sum = 0;

	if (!(x > 1e-300))
		return -690.8;
	if (!(x < 1e300))
		return 690.8;
	for (; x >= 2; x /= 2)
		k++;
	for (; x < 1; x *= 2)
		k--;
	z = (x - 1) / (x + 1);
	z2 = z * z;
	term = z;
	for (int i = 1; i < 30; i += 2, term *= z2)
		sum += term / i;
	return 2 * sum + k * 0.69314718055994531;
}

/* Clamped to the axis; NaN lands on p0. */
double svg_axis_px(const struct svg_axis *a, double v)
{
	double lo = a->lo, hi = a->hi, t;

	if (a->log) {
		v = svg_log_e(v > lo ? v : lo);
		lo = svg_log_e(lo);
		hi = svg_log_e(hi);
	}
	t = hi > lo ? (v - lo) / (hi - lo) : 0.0;
	if (t != t || t < 0)	/* NaN: the floor; +inf: clamped below */
		t = 0;
	if (t > 1)
		t = 1;
	return a->p0 + t * (a->p1 - a->p0);
}

/* Heckbert's "nice numbers": the 1-2-5 step giving 2/3 to 3/2 of target
 * intervals over [0, max]. */
static double svg_nice_step(double max, int target)
{
	double raw = max / target, mag = 1, f;

	if (!(raw > 1e-12 && raw < 1e15))
		return 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static int svg_step_decimals(double step)
{
	int d = 0;

	for (; d < 9 && step < 0.999; step *= 10)
		d++;
	return d;
}

/* Rounded up to a step ([0, 1] if empty); returns the step. */
double svg_lin_axis(struct svg_axis *a, double max, int target, double p0,
		       double p1)
{
	double step;
	int n = 1;

	if (!(max > 0 && max < 1e300))
		max = 1;
	step = svg_nice_step(max, target);
	while (n * step < max * (1 - 1e-9) && n < 1000)
		n++;
	*a = (struct svg_axis){ .lo = 0, .hi = n * step, .p0 = p0, .p1 = p1 };
	return step;
}

/* Ends where the data does: rounded up it would run past the run. */
double svg_lin_axis_to(struct svg_axis *a, double max, int target,
		       double p0, double p1)
{
	if (!(max > 0 && max < 1e300))
		max = 1;
	*a = (struct svg_axis){ .lo = 0, .hi = max, .p0 = p0, .p1 = p1 };
	return svg_nice_step(max, target);
}

/* MiB below a GiB: a 120 MiB run on a GiB axis reads 0.00 to 0.12. */
struct svg_unit svg_bytes_unit(double max)
{
	if (max >= 1024.0 * 1024 * 1024)
		return (struct svg_unit){ "GiB", 1024.0 * 1024 * 1024, 2 };
	return (struct svg_unit){ "MiB", 1024.0 * 1024, 1 };
}

void svg_log_axis(struct svg_axis *a, double min, double max, double p0,
		  double p1)
{
	double hi = 1e7, lo = SVG_LAT_FLOOR;

	while (hi < max && hi < SVG_LAT_CEIL)
		hi *= 10;
	while (min > 0 && lo > min && lo > SVG_LAT_LOWEST)
		lo /= 10;
	*a = (struct svg_axis){ .lo = lo, .hi = hi, .p0 = p0, .p1 = p1,
			    .log = true };
}

/* 0 if p does not start a valid UTF-8 sequence. */
static size_t svg_utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (p[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (p[0] == 0xf4)
		hi = 0x8f;		/* past U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void svg_put_ascii(FILE *f, unsigned char c)
{
	switch (c) {
	case '&': fputs("&amp;", f); break;
	case '<': fputs("&lt;", f); break;
	case '>': fputs("&gt;", f); break;
	case '"': fputs("&quot;", f); break;
	case '\'': fputs("&apos;", f); break;
	default: fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
}

/* Control characters (XML 1.0 forbids most) and non-UTF-8 bytes are
 * replaced: a path may hold anything. */
void svg_put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = svg_utf8_len(p);

		if (n == 1)
			svg_put_ascii(f, *p);
		else if (n)
			fwrite(p, 1, n, f);
		else
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
		p += n ? n : 1;
	}
}

void svg_text(FILE *f, double x, double y, const char *cls,
		 const char *anchor, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"%s\">",
		x, y, cls, anchor);
	svg_put_escaped(f, buf);
	fputs("</text>\n", f);
}

/* s, or "…" and its last max bytes (a path's telling end). */
const char *svg_tail_of(char *buf, size_t len, const char *s, size_t max)
{
	size_t n = strlen(s);
	const char *t = s + n - max;

	if (n <= max)
		return s;
	while (*t && ((unsigned char)*t & 0xc0) == 0x80)
		t++;
	snprintf(buf, len, "…%s", t);
	return buf;
}

static size_t svg_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

struct svg_box svg_text_box(const struct svg_spot *at, double size,
			    const char *s)
{
	double w = (double)svg_chars(s) * size * SVG_EM_PER_CHAR;
	double x0 = at->x;

	if (!strcmp(at->anchor, "middle"))
		x0 -= w / 2;
	else if (!strcmp(at->anchor, "end"))
		x0 -= w;
	return (struct svg_box){ x0, at->y - 0.75 * size, x0 + w, at->y + 0.21 * size };
}

bool svg_boxes_meet(const struct svg_box *a, const struct svg_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

void svg_layout_take(struct svg_layout *l, const struct svg_box *b)
{
	if (!l)
		return;
	if (l->n < SVG_LAYOUT_MAX)
		l->taken[l->n++] = *b;
	else
		l->overflowed = true;
}

static bool svg_box_inside(const struct svg_box *in, const struct svg_box *b)
{
	return b->x0 >= in->x0 && b->x1 <= in->x1 && b->y0 >= in->y0 &&
	       b->y1 <= in->y1;
}

/* First fit in the caller's order: a few labels need no search. */
int svg_layout_place(struct svg_layout *l, const struct svg_box *within,
		     double size, const char *text,
		     const struct svg_spot *spots, int n)
{
	for (int i = 0; !l->overflowed && l->n < SVG_LAYOUT_MAX && i < n; i++) {
		struct svg_box b = svg_text_box(&spots[i], size, text);
		struct svg_box pad = { b.x0 - SVG_TEXT_PAD, b.y0 - SVG_TEXT_PAD,
				       b.x1 + SVG_TEXT_PAD, b.y1 + SVG_TEXT_PAD };
		unsigned int k = 0;

		if (!svg_box_inside(within, &pad))
			continue;
		while (k < l->n && !svg_boxes_meet(&pad, &l->taken[k]))
			k++;
		if (k == l->n) {
			svg_layout_take(l, &b);
			return i;
		}
	}
	return -1;
}

int svg_place_text(FILE *f, struct svg_layout *l, const struct svg_box *within,
		   double size, const char *cls, const struct svg_spot *spots,
		   int n, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	i = svg_layout_place(l, within, size, buf, spots, n);
	if (i >= 0)
		svg_text(f, spots[i].x, spots[i].y, cls, spots[i].anchor, "%s", buf);
	return i;
}

static void svg_tick_text(FILE *f, struct svg_layout *l, double x, double y,
			  const char *anchor, const char *label)
{
	struct svg_spot at = { x, y, anchor };
	struct svg_box b = svg_text_box(&at, SVG_TICK_PX, label);

	svg_layout_take(l, &b);
	svg_text(f, x, y, "tick", anchor, "%s", label);
}

void svg_line(FILE *f, const char *attrs, double ax, double ay, double bx,
		 double by)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n",
		ax, ay, bx, by, attrs);
}

void svg_rect(FILE *f, const char *attrs, double x, double y, double w,
		 double h)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n",
		x, y, w > 0 ? w : 0, h > 0 ? h : 0, attrs);
}

/* A zero-length first segment: under round caps a lone point shows. */
static void svg_pen_vertex(struct svg_pen *p, double x, double y)
{
	fprintf(p->f, "%s%c%.1f %.1f%s", p->n && p->n % 8 == 0 ? "\n" : "",
		p->down ? 'L' : 'M', x, y, p->down ? "" : "h0");
	p->down = true;
	p->n++;
}

void svg_pen_flush(struct svg_pen *p)
{
	if (!p->held)
		return;
	p->held = false;
	svg_pen_vertex(p, p->x, p->lo_first ? p->lo : p->hi);
	if (p->hi != p->lo)
		svg_pen_vertex(p, p->x, p->lo_first ? p->hi : p->lo);
}

void svg_pen_to(struct svg_pen *p, double x, double y)
{
	long col = (long)x;

	if (p->held && col == p->col) {
		if (y < p->lo) {
			p->lo = y;
			p->lo_first = false;
		}
		if (y > p->hi) {
			p->hi = y;
			p->lo_first = true;
		}
		return;
	}
	svg_pen_flush(p);
	p->held = true;
	p->col = col;
	p->x = x;
	p->lo = p->hi = y;
	p->lo_first = true;
}

void svg_pen_up(struct svg_pen *p)
{
	svg_pen_flush(p);
	p->down = false;
}

void svg_dot(FILE *f, double x, double y, double r, const char *colour)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
		x, y, r, colour);
}

/* *x moves past the swatch and label. */
void svg_legend_item(FILE *f, double *x, double y, const char *colour,
			double w, const char *dash, const char *label)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n",
		*x, y - 4, *x + 20, y - 4, colour, w,
		dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash ? "\"" : "");
	svg_text(f, *x + 25, y, "", "start", "%s", label);
	*x += 25 + 7.0 * (double)strlen(label) + 16;
}

/* xside: vertical lines labelled below, else horizontal labelled left. */
void svg_lin_ticks(FILE *f, struct svg_layout *l, const struct svg_axis *a,
		   double step, const struct svg_box *b, bool xside)
{
	int d = svg_step_decimals(step);
	char label[64];

	for (int i = 0; i * step <= a->hi * (1 + 1e-9) && i <= 1000; i++) {
		double v = i * step, p = svg_axis_px(a, v);

		snprintf(label, sizeof(label), "%.*f", d, v);
		if (xside) {
			svg_line(f, "class=\"grid\"", p, b->y0, p, b->y1);
			svg_tick_text(f, l, p, b->y1 + 15, "middle", label);
		} else {
			svg_line(f, "class=\"grid\"", b->x0, p, b->x1, p);
			svg_tick_text(f, l, b->x0 - 6, p + 4, "end", label);
		}
	}
}

static void svg_decade_label(char *buf, size_t len, double ns)
{
	if (ns < SEC)
		snprintf(buf, len, "%g ms", ns / MS);
	else
		snprintf(buf, len, "%g s", ns / SEC);
}

/* Decades labelled, 2x and 5x as faint lines. */
void svg_log_ticks(FILE *f, struct svg_layout *l, const struct svg_axis *a,
		   const struct svg_box *b)
{
	char buf[32];

	for (double d = a->lo; d <= a->hi * 1.0001; d *= 10) {
		double p = svg_axis_px(a, d);

		for (int m = 2; m <= 5 && d * m < a->hi; m += 3) {
			double q = svg_axis_px(a, d * m);

			svg_line(f, "class=\"minor\"", b->x0, q, b->x1, q);
		}
		svg_line(f, "class=\"grid\"", b->x0, p, b->x1, p);
		svg_decade_label(buf, sizeof(buf), d);
		svg_tick_text(f, l, b->x0 - 6, p + 4, "end", buf);
	}
}

void svg_axis_titles(FILE *f, const struct svg_box *b, const char *ytitle,
			const char *xtitle)
{
	double ym = (b->y0 + b->y1) / 2;

	fprintf(f, "<text x=\"22.0\" y=\"%.1f\" class=\"\" text-anchor=\"middle\" transform=\"rotate(-90 22.0 %.1f)\">",
		ym, ym);
	svg_put_escaped(f, ytitle);
	fputs("</text>\n", f);
	svg_text(f, (b->x0 + b->x1) / 2, b->y1 + 32, "", "middle", "%s", xtitle);
}

void svg_frame(FILE *f, const struct svg_box *b)
{
	svg_rect(f, "class=\"frame\"", b->x0, b->y0, b->x1 - b->x0, b->y1 - b->y0);
}

static const char *const palette[] = {
	"#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#a6761d",
	"#1f5fa8", "#555555",
};

const char *svg_colour(unsigned int i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

static const char style[] =
	"text{font-family:sans-serif;font-size:12px;fill:#333}\n"
	".title{font-size:20px;font-weight:bold;fill:#111}\n"
	".sub{font-size:13px;fill:#444}\n"
	".head{font-size:14px;font-weight:bold;fill:#222}\n"
	".tick{font-size:11px;fill:#666}\n"
	".foot{font-size:11px;fill:#888}\n"
	".note{font-size:14px;fill:#888}\n"
	".lbl{font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\n"
	".steady{fill:#2e7d32}.slowed{fill:#c0561a}.stall{fill:" SVG_ALARM "}\n"
	".grid{stroke:#e0e0e0;stroke-width:1}\n"
	".minor{stroke:#f0f0f0;stroke-width:1}\n"
	".frame{fill:none;stroke:#999;stroke-width:1}\n"
	".band0{fill:#e8eef8}.band1{fill:#f4f4f4}\n";

void svg_begin(FILE *f, int w, int h, const char *title, const char *extra)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		w, h, w, h);
	fputs("<title>", f);
	svg_put_escaped(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(style, f);
	if (extra)
		fputs(extra, f);
	fputs("</style>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
}

void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}
