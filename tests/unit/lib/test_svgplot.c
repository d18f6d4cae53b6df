/* test_svgplot.c - the generic plot parts: XML escaping (markup, control
 * characters, every kind of invalid UTF-8), tails of long titles cut at a
 * character, axes (pixels, nice 1-2-5 steps, log decades, an axis that
 * ends with its data, the unit of a bytes axis), tick labels with the
 * decimals their step needs, text boxes and the placement of labels off
 * every other text, the pen's two vertices a pixel column, legends,
 * shapes in one-decimal user units, and no NaN or infinity in anything
 * written whatever the input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <check.h>

#include "lib/c.h"
#include "suites.h"
#include "lib/svgplot.h"

/* What a function wrote to a FILE, as a string. */
struct out {
	char *text;
	size_t len;
	FILE *f;
};

static FILE *out_open(struct out *o)
{
	o->text = NULL;
	o->len = 0;
	o->f = open_memstream(&o->text, &o->len);
	ck_assert_ptr_nonnull(o->f);
	return o->f;
}

static char *out_close(struct out *o)
{
	fclose(o->f);
	return o->text;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void assert_finite_text(const char *text)
{
	ck_assert_msg(!strcasestr(text, "nan") && !strcasestr(text, "inf"),
		      "NaN or infinity written:\n%s", text);
}

/* ---- escaping ---- */

static const struct {
	const char *in, *want;
} escapes[] = {
	{ "plain text 1.5 ms", "plain text 1.5 ms" },
	{ "a<b>&c", "a&lt;b&gt;&amp;c" },
	{ "\"quoted\" 'single'", "&quot;quoted&quot; &apos;single&apos;" },
	{ "&amp;", "&amp;amp;" },			/* not taken as an entity */
	{ "tab\tnl\ncr\r", "tab?nl?cr?" },		/* control characters */
	{ "\x01\x1f\x7f", "???" },
	{ "é → 😀", "é → 😀" },			/* 2, 3 and 4 bytes */
	{ "\xff", "\xef\xbf\xbd" },			/* never UTF-8 */
	{ "a\x80z", "a\xef\xbf\xbdz" },		/* a lone continuation */
	{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong '/' */
	{ "\xe0\x80\xaf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong */
	{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* surrogate */
	{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	{ "x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd" },	/* cut at the end */
	{ "\xe2\x82<", "\xef\xbf\xbd\xef\xbf\xbd&lt;" },	/* cut before markup */
	{ "\xf0\x9f\x98", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	{ "", "" },
};

START_TEST(test_escape)
{
	struct out o;

	svg_put_escaped(out_open(&o), escapes[_i].in);
	ck_assert_str_eq(out_close(&o), escapes[_i].want);
	free(o.text);
}
END_TEST

START_TEST(test_text)
{
	struct out o;

	svg_text(out_open(&o), 10, 20.25, "tick bold", "end", "%s & %d%%", "<a>", 5);
	ck_assert_str_eq(out_close(&o), "<text x=\"10.0\" y=\"20.2\" class=\"tick bold\" "
			 "text-anchor=\"end\">&lt;a&gt; &amp; 5%</text>\n");
	free(o.text);
}
END_TEST

/* ---- tails of long titles ---- */

static const struct {
	const char *s;
	size_t max;
	const char *want;
} tails[] = {
	{ "/data/big.dat", 13, "/data/big.dat" },	/* fits: itself */
	{ "/data/big.dat", 7, "…big.dat" },
	{ "/data/big.dat", 0, "…" },
	{ "ééééé", 4, "…éé" },			/* 10 bytes, cut between chars */
	{ "ééééé", 3, "…é" },			/* mid-character: moved on */
	{ "a😀b", 4, "…b" },
};

START_TEST(test_tail)
{
	char buf[64];
	const char *got = svg_tail_of(buf, sizeof(buf), tails[_i].s, tails[_i].max);

	ck_assert_str_eq(got, tails[_i].want);
	if (strlen(tails[_i].s) <= tails[_i].max)
		ck_assert_ptr_eq(got, tails[_i].s);
	else
		ck_assert_uint_le(strlen(got), strlen("…") + tails[_i].max);
}
END_TEST

/* ---- axes ---- */

START_TEST(test_axis_px_linear)
{
	/* y runs upwards: 0 at pixel 400, 100 at pixel 100 */
	struct svg_axis a = { .lo = 0, .hi = 100, .p0 = 400, .p1 = 100 };
	double px;

	ck_assert_double_eq_tol(svg_axis_px(&a, 0), 400, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, 25), 325, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, 100), 100, 1e-9);
	/* clamped to the axis */
	ck_assert_double_eq_tol(svg_axis_px(&a, -5), 400, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, 1e9), 100, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, NAN), 400, 1e-9);
	/* whatever comes in, a pixel on the axis comes out */
	px = svg_axis_px(&a, INFINITY);
	ck_assert(isfinite(px) && px >= 100 && px <= 400);
	px = svg_axis_px(&a, -INFINITY);
	ck_assert(isfinite(px) && px >= 100 && px <= 400);
	/* an empty range maps everything to its start */
	a.hi = a.lo;
	ck_assert_double_eq_tol(svg_axis_px(&a, 0), 400, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, 50), 400, 1e-9);
}
END_TEST

START_TEST(test_axis_px_log)
{
	struct svg_axis a;
	double px;

	svg_log_axis(&a, 0, 5e8, 0, 400);		/* 0.1 ms .. 1 s: four decades */
	ck_assert(a.log);
	ck_assert_double_eq(a.lo, SVG_LAT_FLOOR);
	ck_assert_double_eq(a.hi, 1e9);
	static const double decades[] = { 1e5, 1e6, 1e7, 1e8, 1e9 };

	for (size_t d = 0; d < ARRAY_SIZE(decades); d++)
		ck_assert_double_eq_tol(svg_axis_px(&a, decades[d]), 100.0 * (double)d,
					1e-6);
	/* half a decade up: times the square root of 10 */
	ck_assert_double_eq_tol(svg_axis_px(&a, 1e6 * 3.1622776601683795), 150,
				1e-6);
	/* below the floor, zero and NaN sit on the floor */
	ck_assert_double_eq_tol(svg_axis_px(&a, 10), 0, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, 0), 0, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, NAN), 0, 1e-9);
	ck_assert_double_eq_tol(svg_axis_px(&a, 1e12), 400, 1e-9);
	px = svg_axis_px(&a, INFINITY);
	ck_assert(isfinite(px) && px >= 0 && px <= 400);
}
END_TEST

static const struct {
	double max;
	double hi;		/* the axis ends here */
} log_axes[] = {
	{ 0, 1e7 },		/* at least 10 ms */
	{ 5e6, 1e7 },
	{ 1e7, 1e7 },		/* a decade itself */
	{ 1.0001e7, 1e8 },
	{ 2e8, 1e9 },
	{ 1e20, SVG_LAT_CEIL },	/* 10000 s at most */
	{ NAN, 1e7 },
};

/* The low end follows the least figure drawn, by decades: 0.1 ms at most,
 * 1 µs at least (ns). */
static const struct {
	double min, lo;
} log_lows[] = {
	{ 0, 1e5 }, { NAN, 1e5 }, { 2e6, 1e5 }, { 1e5, 1e5 },
	{ 99999, 1e4 }, { 42.7e3, 1e4 }, { 1e4, 1e4 }, { 9999, 1e3 },
	{ 1000, 1e3 }, { 999, 1e3 }, { 5, 1e3 },
};

START_TEST(test_log_axis_low_end)
{
	struct svg_axis a;

	svg_log_axis(&a, log_lows[_i].min, 5e8, 10, 20);
	ck_assert_msg(a.lo == log_lows[_i].lo, "min %g: lo %g", log_lows[_i].min, a.lo);
	ck_assert_double_eq(a.hi, 1e9);
}
END_TEST

START_TEST(test_log_axis)
{
	struct svg_axis a;

	svg_log_axis(&a, 0, log_axes[_i].max, 10, 20);
	ck_assert_double_eq(a.lo, SVG_LAT_FLOOR);
	ck_assert_double_eq_tol(a.hi, log_axes[_i].hi, log_axes[_i].hi * 1e-12);
	ck_assert_double_eq(a.p0, 10);
	ck_assert_double_eq(a.p1, 20);
}
END_TEST

/* Heckbert's nice numbers, worked by hand: raw = max / target, its
 * magnitude m, f = raw / m; f < 1.5 -> 1m, < 3 -> 2m, < 7 -> 5m, else 10m;
 * the axis ends at the first multiple of the step at or above max. */
static const struct {
	double max;
	int target;
	double step, hi;
} lin_axes[] = {
	{ 100, 5, 20, 100 },		/* raw 20: f 2 -> 2 x 10 */
	{ 101, 5, 20, 120 },
	{ 7, 5, 1, 7 },			/* raw 1.4 -> 1 */
	{ 1234, 4, 500, 1500 },		/* raw 308.5: f 3.085 -> 5 x 100 */
	{ 0.03, 4, 0.01, 0.03 },	/* raw 0.0075: f 7.5 -> 10 x 0.001 */
	{ 450, 6, 100, 500 },		/* raw 75: f 7.5 -> 10 x 10 */
	{ 0, 5, 0.2, 1 },		/* empty: [0, 1] */
	{ -3, 5, 0.2, 1 },
	{ NAN, 5, 0.2, 1 },
	{ INFINITY, 5, 0.2, 1 },
};

START_TEST(test_lin_axis)
{
	struct svg_axis a;
	double step = svg_lin_axis(&a, lin_axes[_i].max, lin_axes[_i].target, 500,
				   50);

	ck_assert_double_eq_tol(step, lin_axes[_i].step, lin_axes[_i].step * 1e-9);
	ck_assert_double_eq_tol(a.hi, lin_axes[_i].hi, lin_axes[_i].hi * 1e-9);
	ck_assert_double_eq(a.lo, 0);
	ck_assert(!a.log);
	ck_assert_double_eq(a.p0, 500);
	ck_assert_double_eq(a.p1, 50);
}
END_TEST

/* Over many maxima: the step is 1, 2 or 5 times a power of ten, the axis
 * covers max with less than a step to spare, and the number of steps is
 * near the target (from 0.6 to 1.5 times it). */
START_TEST(test_lin_axis_sweep)
{
	for (double max = 1e-3; max < 1e7; max *= 1.0371) {
		struct svg_axis a;
		double step = svg_lin_axis(&a, max, 6, 0, 100), mant = step, n;

		while (mant >= 10 * (1 - 1e-9))
			mant /= 10;
		while (mant < 1 * (1 - 1e-9))
			mant *= 10;
		ck_assert_msg(fabs(mant - 1) < 1e-6 || fabs(mant - 2) < 1e-6 ||
			      fabs(mant - 5) < 1e-6, "max %g: step %g", max, step);
		ck_assert_msg(a.hi >= max * (1 - 1e-9), "max %g: hi %g", max, a.hi);
		ck_assert_msg(a.hi - step < max, "max %g: hi %g, step %g", max,
			      a.hi, step);
		n = a.hi / step;
		ck_assert_msg(fabs(n - (double)(long)(n + 0.5)) < 1e-6,
			      "max %g: %g steps", max, n);
		ck_assert_msg(n >= 0.6 * 6 - 1e-9 && n <= 1.5 * 6 + 1,
			      "max %g: %g steps of %g", max, n, step);
	}
}
END_TEST

/* An axis that ends with its data: [0, max] itself, the nice step of
 * Heckbert's rule as above, and no tick past max. */
static const struct {
	double max;
	int target;
	double step, hi;
	const char *labels;	/* its tick labels, '|' after each */
} axes_to[] = {
	/* a 63.9 s run: the old axis ran on to 65 */
	{ 63.9, 10, 5, 63.9, "0|5|10|15|20|25|30|35|40|45|50|55|60|" },
	{ 120, 8, 20, 120, "0|20|40|60|80|100|120|" },	/* raw 15: f 1.5 -> 2 */
	{ 0.117, 8, 0.01, 0.117,			/* raw 0.0146 -> 1 x 0.01 */
	  "0.00|0.01|0.02|0.03|0.04|0.05|0.06|0.07|0.08|0.09|0.10|0.11|" },
	{ 7.9, 8, 1, 7.9, "0|1|2|3|4|5|6|7|" },
	{ 0, 8, 0.1, 1, "0.0|0.1|0.2|0.3|0.4|0.5|0.6|0.7|0.8|0.9|1.0|" },
	{ NAN, 8, 0.1, 1, "0.0|0.1|0.2|0.3|0.4|0.5|0.6|0.7|0.8|0.9|1.0|" },
	{ -INFINITY, 8, 0.1, 1, "0.0|0.1|0.2|0.3|0.4|0.5|0.6|0.7|0.8|0.9|1.0|" },
};

static void labels_of(const char *text, char *buf, size_t len);

START_TEST(test_lin_axis_to)
{
	struct svg_box box = { 80, 20, 1160, 300 };
	struct svg_axis a;
	double step = svg_lin_axis_to(&a, axes_to[_i].max, axes_to[_i].target,
				      box.x0, box.x1);
	char labels[256];
	struct out o;

	ck_assert_double_eq_tol(step, axes_to[_i].step, axes_to[_i].step * 1e-9);
	ck_assert_double_eq_tol(a.hi, axes_to[_i].hi, 1e-12);
	ck_assert_double_eq(a.lo, 0);
	ck_assert(!a.log);
	/* the end of the data is the end of the axis */
	if (axes_to[_i].max > 0)
		ck_assert_double_eq_tol(svg_axis_px(&a, axes_to[_i].max), box.x1, 1e-9);
	svg_lin_ticks(out_open(&o), NULL, &a, step, &box, true);
	out_close(&o);
	labels_of(o.text, labels, sizeof(labels));
	ck_assert_str_eq(labels, axes_to[_i].labels);
	free(o.text);
}
END_TEST

/* The 63.9 s run's ticks: the last, 60, falls short of the right edge
 * by 3.9 s of 63.9, and no grid line stands past the edge. */
START_TEST(test_lin_axis_to_last_tick)
{
	struct svg_box box = { 80, 20, 1160, 300 };
	struct svg_axis a;
	double step = svg_lin_axis_to(&a, 63.9, 10, box.x0, box.x1);
	struct out o;

	svg_lin_ticks(out_open(&o), NULL, &a, step, &box, true);
	out_close(&o);
	/* 80 + 60 / 63.9 * 1080 = 1094.08 */
	ck_assert_msg(strstr(o.text, "<line x1=\"1094.1\" y1=\"20.0\" x2=\"1094.1\" "
				     "y2=\"300.0\" class=\"grid\"/>\n"
				     "<text x=\"1094.1\" y=\"315.0\" class=\"tick\" "
				     "text-anchor=\"middle\">60</text>\n"), "%s", o.text);
	ck_assert_int_eq(count(o.text, "<line "), 13);
	ck_assert_ptr_null(strstr(o.text, "x1=\"1160.0\""));
	free(o.text);
}
END_TEST

/* MiB below a GiB, GiB from there on, whatever the size. */
static const struct {
	double max;
	const char *name;
	double bytes;
	int decimals;
} units[] = {
	{ 0, "MiB", 1 << 20, 1 },
	{ 120.0 * (1 << 20), "MiB", 1 << 20, 1 },		/* the 120 MiB run */
	{ 1023.9 * (1 << 20), "MiB", 1 << 20, 1 },
	{ 1024.0 * (1 << 20), "GiB", 1 << 30, 2 },
	{ 6.5 * (1 << 30), "GiB", 1 << 30, 2 },
	{ 5.0 * (1 << 30) * 1024, "GiB", 1 << 30, 2 },	/* 5 TiB: no TiB */
	{ NAN, "MiB", 1 << 20, 1 },
	{ -1, "MiB", 1 << 20, 1 },
};

START_TEST(test_bytes_unit)
{
	struct svg_unit u = svg_bytes_unit(units[_i].max);

	ck_assert_str_eq(u.name, units[_i].name);
	ck_assert_double_eq(u.bytes, units[_i].bytes);
	ck_assert_int_eq(u.decimals, units[_i].decimals);
}
END_TEST

/* ---- ticks ---- */

static const struct {
	double max;
	int target;
	int lines;
	const char *labels;	/* every label, in order, '|' after each */
} lin_ticks[] = {
	{ 100, 5, 6, "0|20|40|60|80|100|" },
	{ 1, 5, 6, "0.0|0.2|0.4|0.6|0.8|1.0|" },
	{ 0.2, 4, 5, "0.00|0.05|0.10|0.15|0.20|" },
	{ 3e6, 3, 4, "0|1000000|2000000|3000000|" },
};

/* The labels of every <text> in order. */
static void labels_of(const char *text, char *buf, size_t len)
{
	struct ws_buf b = ws_buf_init(buf, len);

	for (const char *p = text; (p = strstr(p, "<text ")); ) {
		const char *start = strchr(p, '>') + 1, *end = strstr(start, "</text>");

		ws_buf_printf(&b, "%.*s|", (int)(end - start), start);
		p = end;
	}
}

START_TEST(test_lin_ticks)
{
	struct svg_box box = { 60, 20, 1160, 620 };
	struct svg_axis a;
	double step = svg_lin_axis(&a, lin_ticks[_i].max, lin_ticks[_i].target,
				   box.y1, box.y0);
	char labels[256];
	struct out o;

	svg_lin_ticks(out_open(&o), NULL, &a, step, &box, false);
	out_close(&o);
	ck_assert_int_eq(count(o.text, "<line "), lin_ticks[_i].lines);
	ck_assert_int_eq(count(o.text, "<text "), lin_ticks[_i].lines);
	labels_of(o.text, labels, sizeof(labels));
	ck_assert_str_eq(labels, lin_ticks[_i].labels);
	/* the first grid line on the bottom edge, the last on the top */
	ck_assert_msg(strstr(o.text, "<line x1=\"60.0\" y1=\"620.0\" x2=\"1160.0\" "
				     "y2=\"620.0\" class=\"grid\"/>"), "%s", o.text);
	ck_assert_msg(strstr(o.text, "<line x1=\"60.0\" y1=\"20.0\" x2=\"1160.0\" "
				     "y2=\"20.0\" class=\"grid\"/>"), "%s", o.text);
	assert_finite_text(o.text);
	free(o.text);
}
END_TEST

/* On the x side the lines stand up and the labels go below the box. */
START_TEST(test_lin_ticks_x)
{
	struct svg_box box = { 100, 50, 300, 250 };
	struct svg_axis a;
	double step = svg_lin_axis(&a, 10, 2, box.x0, box.x1);
	struct out o;

	ck_assert_double_eq(step, 5);
	svg_lin_ticks(out_open(&o), NULL, &a, step, &box, true);
	out_close(&o);
	ck_assert_msg(strstr(o.text,
		"<line x1=\"200.0\" y1=\"50.0\" x2=\"200.0\" y2=\"250.0\" class=\"grid\"/>\n"
		"<text x=\"200.0\" y=\"265.0\" class=\"tick\" text-anchor=\"middle\">5</text>\n"),
		"%s", o.text);
	ck_assert_int_eq(count(o.text, "<line "), 3);
	free(o.text);
}
END_TEST

START_TEST(test_log_ticks)
{
	struct svg_box box = { 60, 20, 1160, 620 };
	struct svg_axis a;
	char labels[256];
	struct out o;

	svg_log_axis(&a, 0, 5e8, box.y1, box.y0);		/* 0.1 ms .. 1 s */
	svg_log_ticks(out_open(&o), NULL, &a, &box);
	out_close(&o);
	labels_of(o.text, labels, sizeof(labels));
	ck_assert_str_eq(labels, "0.1 ms|1 ms|10 ms|100 ms|1 s|");
	ck_assert_int_eq(count(o.text, "class=\"grid\""), 5);
	/* 2x and 5x inside each of the four decades, none past the top */
	ck_assert_int_eq(count(o.text, "class=\"minor\""), 8);
	assert_finite_text(o.text);
	free(o.text);

	svg_log_axis(&a, 0, 1e20, box.y1, box.y0);		/* up to 10000 s */
	svg_log_ticks(out_open(&o), NULL, &a, &box);
	out_close(&o);
	labels_of(o.text, labels, sizeof(labels));
	ck_assert_str_eq(labels, "0.1 ms|1 ms|10 ms|100 ms|1 s|10 s|100 s|1000 s|"
				 "10000 s|");
	free(o.text);
}
END_TEST

/* ---- the pen ---- */

START_TEST(test_pen_columns)
{
	struct out o;
	struct svg_pen p = { .f = out_open(&o) };

	/* column 10: 5, then its low 1, then its high 9; column 11: 4 */
	svg_pen_to(&p, 10.2, 5);
	svg_pen_to(&p, 10.5, 1);
	svg_pen_to(&p, 10.7, 9);
	svg_pen_to(&p, 11.0, 4);
	svg_pen_up(&p);			/* a gap */
	svg_pen_to(&p, 13.0, 2);
	svg_pen_to(&p, 13.5, 2);	/* flat column: one vertex */
	svg_pen_flush(&p);
	ck_assert_str_eq(out_close(&o), "M10.2 1.0h0L10.2 9.0L11.0 4.0M13.0 2.0h0");
	free(o.text);
}
END_TEST

/* The high before the low is drawn in that order. */
START_TEST(test_pen_order)
{
	struct out o;
	struct svg_pen p = { .f = out_open(&o) };

	svg_pen_to(&p, 3.1, 5);
	svg_pen_to(&p, 3.2, 8);
	svg_pen_to(&p, 3.3, 2);
	svg_pen_flush(&p);
	svg_pen_flush(&p);		/* nothing more */
	ck_assert_str_eq(out_close(&o), "M3.1 8.0h0L3.1 2.0");
	free(o.text);
}
END_TEST

/* 100000 points over 100 columns: at most two vertices a column, every
 * spike kept, a line break every 8 vertices. */
START_TEST(test_pen_long_series)
{
	struct out o;
	struct svg_pen p = { .f = out_open(&o) };
	int vertices;

	for (int i = 0; i < 100000; i++)
		svg_pen_to(&p, i / 1000.0, i == 54321 ? 999 : (i % 7));
	svg_pen_flush(&p);
	out_close(&o);
	vertices = count(o.text, "M") + count(o.text, "L");
	ck_assert_int_le(vertices, 200);
	ck_assert_int_ge(vertices, 100);
	ck_assert_ptr_nonnull(strstr(o.text, " 999.0"));
	ck_assert_ptr_nonnull(strstr(o.text, " 6.0"));
	ck_assert_int_eq(count(o.text, "\n"), (vertices - 1) / 8);
	free(o.text);
}
END_TEST

/* ---- text boxes and label placement ---- */

/* "abc" at 10 px: 3 x 6.5 = 19.5 wide, 7.5 above the baseline and 2.1
 * below. */
static const struct {
	const char *anchor, *text;
	double x0, y0, x1, y1;
} text_boxes[] = {
	{ "start", "abc", 100, 42.5, 119.5, 52.1 },
	{ "middle", "abc", 90.25, 42.5, 109.75, 52.1 },
	{ "end", "abc", 80.5, 42.5, 100, 52.1 },
	{ "start", "≥ é", 100, 42.5, 119.5, 52.1 },	/* characters, not bytes */
	{ "start", "", 100, 42.5, 100, 52.1 },
};

START_TEST(test_text_box)
{
	struct svg_spot at = { 100, 50, text_boxes[_i].anchor };
	struct svg_box b = svg_text_box(&at, 10, text_boxes[_i].text);

	ck_assert_double_eq_tol(b.x0, text_boxes[_i].x0, 1e-9);
	ck_assert_double_eq_tol(b.y0, text_boxes[_i].y0, 1e-9);
	ck_assert_double_eq_tol(b.x1, text_boxes[_i].x1, 1e-9);
	ck_assert_double_eq_tol(b.y1, text_boxes[_i].y1, 1e-9);
}
END_TEST

static const struct {
	struct svg_box a, b;
	bool meet;
} meets[] = {
	{ { 0, 0, 10, 10 }, { 5, 5, 15, 15 }, true },		/* corners overlap */
	{ { 0, 0, 10, 10 }, { 2, 2, 4, 4 }, true },		/* one inside */
	{ { 0, 0, 10, 10 }, { -5, 4, 15, 6 }, true },		/* a cross */
	{ { 0, 0, 10, 10 }, { 10, 0, 20, 10 }, false },		/* edges touch */
	{ { 0, 0, 10, 10 }, { 0, 10, 10, 20 }, false },
	{ { 0, 0, 10, 10 }, { 11, 0, 20, 10 }, false },		/* beside */
	{ { 0, 0, 10, 10 }, { 0, 11, 10, 20 }, false },		/* below */
	{ { 0, 0, 10, 10 }, { 5, 11, 6, 20 }, false },		/* x in, y out */
};

START_TEST(test_boxes_meet)
{
	ck_assert(svg_boxes_meet(&meets[_i].a, &meets[_i].b) == meets[_i].meet);
	ck_assert(svg_boxes_meet(&meets[_i].b, &meets[_i].a) == meets[_i].meet);
}
END_TEST

/* A tick label taken; a label's spots: on the tick, then out of the
 * panel, then clear of both: the third is chosen and taken, so the same
 * label next time goes to the fourth, and then nowhere. */
START_TEST(test_layout_place)
{
	struct svg_box panel = { 80, 100, 1160, 330 };
	struct svg_spot tick = { 620, 345, "middle" };
	struct svg_box tb = svg_text_box(&tick, SVG_TICK_PX, "0.12");
	const struct svg_spot spots[] = {
		{ 600, 340, "start" },		/* over the tick label */
		{ 1150, 200, "start" },		/* past the panel's right edge */
		{ 600, 320, "start" },		/* above the tick label, inside */
		{ 600, 300, "start" },
	};
	struct svg_layout l = { .n = 0 };
	struct svg_box got;

	svg_layout_take(&l, &tb);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "steady 5.0 MiB/s", spots, 4), 2);
	ck_assert_uint_eq(l.n, 2);
	got = svg_text_box(&spots[2], 12, "steady 5.0 MiB/s");
	ck_assert(!svg_boxes_meet(&got, &tb));
	ck_assert_mem_eq(&l.taken[1], &got, sizeof(got));
	/* the first spot did meet the tick label */
	got = svg_text_box(&spots[0], 12, "steady 5.0 MiB/s");
	ck_assert(svg_boxes_meet(&got, &tb));
	/* 20 px up is clear of the first label (11.5 px tall, 2 apart) */
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "steady 5.0 MiB/s", spots, 4), 3);
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "steady 5.0 MiB/s", spots, 4), -1);
	ck_assert_uint_eq(l.n, 3);
	/* a short text still fits at the right edge (1150 to 1157.8, and
	 * 2 to spare) */
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "x", spots, 4), 1);
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "x", spots, 0), -1);
}
END_TEST

/* A full layout cannot vouch for a spot: nothing more is placed. */
START_TEST(test_layout_overflow)
{
	static struct svg_layout l;
	struct svg_box panel = { 0, 0, 1200, 700 }, far = { 0, 0, 1, 1 };
	const struct svg_spot spot = { 600, 350, "middle" };

	for (int i = 0; i < SVG_LAYOUT_MAX - 1; i++)
		svg_layout_take(&l, &far);
	ck_assert(!l.overflowed);
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "a", &spot, 1), 0);
	ck_assert_uint_eq(l.n, SVG_LAYOUT_MAX);
	ck_assert_int_eq(svg_layout_place(&l, &panel, 12, "b", &spot, 1), -1);
	svg_layout_take(&l, &far);
	ck_assert(l.overflowed);
	ck_assert_uint_eq(l.n, SVG_LAYOUT_MAX);
	svg_layout_take(NULL, &far);	/* no layout: nothing to keep */
}
END_TEST

/* Tick labels take their boxes: a label on one is refused. */
START_TEST(test_ticks_take_boxes)
{
	struct svg_box box = { 80, 100, 1160, 330 }, all = { 0, 0, 1200, 700 };
	struct svg_layout l = { .n = 0 };
	struct svg_axis x, y;
	double xs = svg_lin_axis_to(&x, 0.117, 8, box.x0, box.x1);
	double ys = svg_lin_axis(&y, 300, 6, box.y1, box.y0);
	const struct svg_spot on_x = { svg_axis_px(&x, 0.05), box.y1 + 15, "middle" };
	const struct svg_spot on_y = { box.x0 - 20, svg_axis_px(&y, 100), "end" };
	const struct svg_spot clear = { 600, 200, "middle" };
	struct out o;

	out_open(&o);
	svg_lin_ticks(o.f, &l, &x, xs, &box, true);
	svg_lin_ticks(o.f, &l, &y, ys, &box, false);
	out_close(&o);
	ck_assert_int_eq((int)l.n, count(o.text, "<text "));	/* 12 + 7 */
	ck_assert_uint_eq(l.n, 19);
	ck_assert_int_eq(svg_layout_place(&l, &all, 12, "slowed", &on_x, 1), -1);
	ck_assert_int_eq(svg_layout_place(&l, &all, 12, "slowed", &on_y, 1), -1);
	ck_assert_int_eq(svg_layout_place(&l, &all, 12, "slowed", &clear, 1), 0);
	free(o.text);

	l.n = 0;
	svg_log_axis(&y, 0, 5e8, box.y1, box.y0);
	svg_log_ticks(out_open(&o), &l, &y, &box);
	out_close(&o);
	ck_assert_uint_eq(l.n, 5);		/* 0.1 ms .. 1 s */
	free(o.text);
}
END_TEST

/* svg_place_text draws the text at the spot it found, escaped, and
 * nothing when there is none. */
START_TEST(test_place_text)
{
	struct svg_box panel = { 0, 0, 200, 100 };
	const struct svg_spot spots[] = { { 190, 50, "start" }, { 190, 50, "end" } };
	struct svg_layout l = { .n = 0 };
	struct out o;

	out_open(&o);
	ck_assert_int_eq(svg_place_text(o.f, &l, &panel, 12, "lbl", spots, 2,
					"a<%d", 5), 1);
	ck_assert_int_eq(svg_place_text(o.f, &l, &panel, 12, "lbl", spots, 2,
					"a<%d", 5), -1);
	ck_assert_str_eq(out_close(&o), "<text x=\"190.0\" y=\"50.0\" class=\"lbl\" "
			 "text-anchor=\"end\">a&lt;5</text>\n");
	free(o.text);
}
END_TEST

/* ---- shapes, legends, titles ---- */

START_TEST(test_shapes)
{
	struct out o;
	struct svg_box b = { 60, 20, 1160, 620 };

	out_open(&o);
	svg_line(o.f, "class=\"a\"", 1.0 / 3, 2.0 / 3, 10, 10.04);
	svg_rect(o.f, "fill=\"red\"", 5, 6, -3, 2.55);	/* no negative width */
	svg_dot(o.f, 1, 2, 3.25, "#123456");
	svg_frame(o.f, &b);
	ck_assert_str_eq(out_close(&o),
		"<line x1=\"0.3\" y1=\"0.7\" x2=\"10.0\" y2=\"10.0\" class=\"a\"/>\n"
		"<rect x=\"5.0\" y=\"6.0\" width=\"0.0\" height=\"2.5\" fill=\"red\"/>\n"
		"<circle cx=\"1.0\" cy=\"2.0\" r=\"3.2\" fill=\"#123456\"/>\n"
		"<rect x=\"60.0\" y=\"20.0\" width=\"1100.0\" height=\"600.0\" "
		"class=\"frame\"/>\n");
	free(o.text);
}
END_TEST

START_TEST(test_legend)
{
	struct out o;
	double x = 100;

	out_open(&o);
	svg_legend_item(o.f, &x, 50, "#c00", 2, NULL, "fsync");
	/* past the swatch (25), the label (7 a byte) and a gap (16) */
	ck_assert_double_eq_tol(x, 100 + 25 + 7 * 5 + 16, 1e-9);
	svg_legend_item(o.f, &x, 50, "#00c", 1.5, "4 2", "a<b");
	out_close(&o);
	ck_assert_int_eq(count(o.text, "stroke-dasharray=\"4 2\""), 1);
	ck_assert_int_eq(count(o.text, "stroke-dasharray"), 1);
	ck_assert_ptr_nonnull(strstr(o.text, ">a&lt;b</text>"));
	ck_assert_ptr_nonnull(strstr(o.text, "<line x1=\"100.0\" y1=\"46.0\" "
					     "x2=\"120.0\" y2=\"46.0\" "
					     "stroke=\"#c00\" stroke-width=\"2.0\"/>"));
	free(o.text);
}
END_TEST

START_TEST(test_axis_titles)
{
	struct out o;
	struct svg_box b = { 60, 20, 1160, 620 };

	out_open(&o);
	svg_axis_titles(o.f, &b, "latency <ms>", "time & size");
	out_close(&o);
	ck_assert_ptr_nonnull(strstr(o.text, "transform=\"rotate(-90 22.0 320.0)\""
					     ">latency &lt;ms&gt;</text>"));
	ck_assert_ptr_nonnull(strstr(o.text, "<text x=\"610.0\" y=\"652.0\" "
					     "class=\"\" text-anchor=\"middle\">"
					     "time &amp; size</text>"));
	free(o.text);
}
END_TEST

/* Hostile numbers everywhere: still no NaN or infinity written. */
START_TEST(test_no_nan_written)
{
	static const double bad[] = { NAN, INFINITY, -INFINITY, 0, -1, 1e308 };
	struct svg_box b = { 60, 20, 1160, 620 };
	struct out o;

	out_open(&o);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct svg_axis lin, lg;
		double step = svg_lin_axis(&lin, bad[i], 5, b.y1, b.y0);
		struct svg_pen p = { .f = o.f };

		svg_log_axis(&lg, 0, bad[i], b.y1, b.y0);
		svg_lin_ticks(o.f, NULL, &lin, step, &b, false);
		svg_log_ticks(o.f, NULL, &lg, &b);
		for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
			svg_pen_to(&p, (double)k, svg_axis_px(&lin, bad[k]));
			svg_pen_to(&p, (double)k + 0.5, svg_axis_px(&lg, bad[k]));
			svg_dot(o.f, svg_axis_px(&lin, bad[k]),
				svg_axis_px(&lg, bad[k]), 2, "red");
		}
		svg_pen_flush(&p);
	}
	assert_finite_text(out_close(&o));
	free(o.text);
}
END_TEST

Suite *svgplot_suite(void)
{
	Suite *s = suite_create("svgplot");
	TCase *text = tcase_create("text");
	TCase *axes = tcase_create("axes");
	TCase *draw = tcase_create("draw");

	tcase_add_loop_test(axes, test_log_axis_low_end, 0, (int)(sizeof(log_lows) / sizeof(log_lows[0])));
	tcase_add_loop_test(text, test_escape, 0, ARRAY_SIZE(escapes));
	tcase_add_test(text, test_text);
	tcase_add_loop_test(text, test_tail, 0, ARRAY_SIZE(tails));
	tcase_add_test(axes, test_axis_px_linear);
	tcase_add_test(axes, test_axis_px_log);
	tcase_add_loop_test(axes, test_log_axis, 0, ARRAY_SIZE(log_axes));
	tcase_add_loop_test(axes, test_lin_axis, 0, ARRAY_SIZE(lin_axes));
	tcase_add_test(axes, test_lin_axis_sweep);
	tcase_add_loop_test(axes, test_lin_axis_to, 0, ARRAY_SIZE(axes_to));
	tcase_add_test(axes, test_lin_axis_to_last_tick);
	tcase_add_loop_test(axes, test_bytes_unit, 0, ARRAY_SIZE(units));
	tcase_add_loop_test(axes, test_lin_ticks, 0, ARRAY_SIZE(lin_ticks));
	tcase_add_test(axes, test_lin_ticks_x);
	tcase_add_test(axes, test_log_ticks);
	tcase_add_loop_test(draw, test_text_box, 0, ARRAY_SIZE(text_boxes));
	tcase_add_loop_test(draw, test_boxes_meet, 0, ARRAY_SIZE(meets));
	tcase_add_test(draw, test_layout_place);
	tcase_add_test(draw, test_layout_overflow);
	tcase_add_test(draw, test_ticks_take_boxes);
	tcase_add_test(draw, test_place_text);
	tcase_add_test(draw, test_pen_columns);
	tcase_add_test(draw, test_pen_order);
	tcase_add_test(draw, test_pen_long_series);
	tcase_add_test(draw, test_shapes);
	tcase_add_test(draw, test_legend);
	tcase_add_test(draw, test_axis_titles);
	tcase_add_test(draw, test_no_nan_written);
	suite_add_tcase(s, text);
	suite_add_tcase(s, axes);
	suite_add_tcase(s, draw);
	return s;
}
