/* sink_svg.c - --svg: the run as one picture for a bug report.
 *
 * One self-contained SVG (no scripts, no external fonts or images), drawn
 * in the summary callback from the bounded series and its analysis: on
 * top, throughput over GiB written with the phases shaded, the slowdown
 * point and the steady-state window; below, each probe's latency over
 * time on a log axis with the stall threshold and the stalls in red.
 * 1200x700 user units, every coordinate with one decimal, so the same
 * run gives the same bytes.  Header and interval events are not needed:
 * the series holds the whole run.
 *
 * No libm: the tool links none, so the few logarithms and roundings a
 * plot needs are done here (isfinite() is a compiler builtin).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "datagen.h"
#include "pace.h"
#include "signals.h"
#include "sink.h"
#include "units.h"

#define SVG_W 1200
#define SVG_H 700
#define GIB ((double)WS_GIB)
#define MS 1e6			/* ns */
#define SEC 1e9			/* ns */
#define LAT_FLOOR 1e5		/* the latency axis starts at 0.1 ms */
#define LAT_CEIL 1e13		/* ... and ends by 10000 s */
#define LABEL_MIN_PX 64.0	/* narrower phases get no rate label */
#define DOTS_BELOW 60		/* fewer points than this are also dotted */

/* A plot area in pixels. */
struct box {
	double x0, y0, x1, y1;
};

static const struct box top_box = { 80, 104, 1160, 334 };
static const struct box bot_box = { 80, 408, 1160, 628 };

/* A data range [lo, hi] mapped onto pixels [p0, p1]; a log axis maps
 * ln(v) (lo > 0 then). */
struct axis {
	double lo, hi;
	double p0, p1;
	bool log;
};

static const char *const probe_colours[WS_PROBE_NR] = {
	"#1b9e77", "#7570b3", "#d95f02",
};

static const char style[] =
	"<style>\n"
	"text{font-family:sans-serif;font-size:12px;fill:#333}\n"
	".title{font-size:20px;font-weight:bold;fill:#111}\n"
	".sub{font-size:13px;fill:#444}\n"
	".head{font-size:14px;font-weight:bold;fill:#222}\n"
	".tick{font-size:11px;fill:#666}\n"
	".foot{font-size:11px;fill:#888}\n"
	".note{font-size:14px;fill:#888}\n"
	".lbl{font-weight:bold;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\n"
	".steady{fill:#2e7d32}.slowed{fill:#c0561a}.stall{fill:#d62728}\n"
	".grid{stroke:#e0e0e0;stroke-width:1}\n"
	".minor{stroke:#f0f0f0;stroke-width:1}\n"
	".frame{fill:none;stroke:#999;stroke-width:1}\n"
	".band0{fill:#e8eef8}.band1{fill:#f4f4f4}\n"
	"</style>\n";

/* ---- numbers ------------------------------------------------------- */

/* ln(x) for x > 0: halve or double into [1, 2), then the atanh series
 * (|z| <= 1/3, so 15 terms are far below a pixel). */
static double log_e(double x)
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

/* Where v falls on the axis, clamped to it (NaN lands on p0). */
static double axis_px(const struct axis *a, double v)
{
	double lo = a->lo, hi = a->hi, t;

	if (a->log) {
		v = log_e(v > lo ? v : lo);
		lo = log_e(lo);
		hi = log_e(hi);
	}
	t = hi > lo ? (v - lo) / (hi - lo) : 0.0;
	if (!isfinite(t) || t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return a->p0 + t * (a->p1 - a->p0);
}

/* The 1-2-5 step nearest to cutting [0, max] into `target` intervals
 * (Heckbert's "nice numbers": from 2/3 to 3/2 of target of them). */
static double nice_step(double max, int target)
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

/* Decimals that show every multiple of step exactly. */
static int step_decimals(double step)
{
	int d = 0;

	for (; d < 9 && step < 0.999; step *= 10)
		d++;
	return d;
}

/* A linear axis from 0 to the first multiple of its nice step at or
 * above max (an empty range becomes [0, 1]); returns the step. */
static double lin_axis(struct axis *a, double max, int target, double p0,
		       double p1)
{
	double step;
	int n = 1;

	if (!(max > 0 && max < 1e300))
		max = 1;
	step = nice_step(max, target);
	while (n * step < max * (1 - 1e-9) && n < 1000)
		n++;
	*a = (struct axis){ .lo = 0, .hi = n * step, .p0 = p0, .p1 = p1 };
	return step;
}

/* A log axis in ns from 0.1 ms to the first decade at or above max and
 * 10 ms. */
static void log_axis(struct axis *a, double max, double p0, double p1)
{
	double hi = 1e7;

	while (hi < max && hi < LAT_CEIL)
		hi *= 10;
	*a = (struct axis){ .lo = LAT_FLOOR, .hi = hi, .p0 = p0, .p1 = p1,
			    .log = true };
}

/* ---- text ---------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p, 0 if it is not one. */
static size_t utf8_len(const unsigned char *p)
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

static void put_ascii(FILE *f, unsigned char c)
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

/* s as XML character data: markup escaped; control characters (XML 1.0
 * forbids most) and bytes that are not UTF-8 replaced, since a path may
 * hold anything. */
static void put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (n == 1)
			put_ascii(f, *p);
		else if (n)
			fwrite(p, 1, n, f);
		else
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
		p += n ? n : 1;
	}
}

/* A <text> at (x, y): cls its classes, anchor start, middle or end, the
 * formatted string escaped. */
__attribute__((format(printf, 6, 7)))
static void text(FILE *f, double x, double y, const char *cls,
		 const char *anchor, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\" text-anchor=\"%s\">",
		x, y, cls, anchor);
	put_escaped(f, buf);
	fputs("</text>\n", f);
}

/* A title that fits: s itself, or "…" and its last `max` bytes (the file
 * name is the telling end of a path), cut at a character boundary. */
static const char *tail_of(char *buf, size_t len, const char *s, size_t max)
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

/* ---- shapes -------------------------------------------------------- */

static void line(FILE *f, const char *attrs, double ax, double ay, double bx,
		 double by)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n",
		ax, ay, bx, by, attrs);
}

static void rect(FILE *f, const char *attrs, double x, double y, double w,
		 double h)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n",
		x, y, w > 0 ? w : 0, h > 0 ? h : 0, attrs);
}

/* A polyline in one <path> d attribute, lifted over gaps.  Points that
 * fall in one pixel column become that column's lowest and highest, in
 * the order they came: a long series costs at most two vertices a pixel
 * and keeps every spike. */
struct pen {
	FILE *f;
	bool down;		/* the next vertex continues a line */
	unsigned int n;		/* vertices written (a line break every 8) */
	bool held;		/* a column is being gathered */
	long col;		/* ... which one */
	double x, lo, hi;	/* its first x and its extremes */
	bool lo_first;		/* the lowest came before the highest */
};

/* A line starts with a zero-length segment: under round caps a point
 * with no neighbour still shows, as a dot. */
static void pen_vertex(struct pen *p, double x, double y)
{
	fprintf(p->f, "%s%c%.1f %.1f%s", p->n && p->n % 8 == 0 ? "\n" : "",
		p->down ? 'L' : 'M', x, y, p->down ? "" : "h0");
	p->down = true;
	p->n++;
}

/* Draw the column gathered so far. */
static void pen_flush(struct pen *p)
{
	if (!p->held)
		return;
	p->held = false;
	pen_vertex(p, p->x, p->lo_first ? p->lo : p->hi);
	if (p->hi != p->lo)
		pen_vertex(p, p->x, p->lo_first ? p->hi : p->lo);
}

static void pen_to(struct pen *p, double x, double y)
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
	pen_flush(p);
	p->held = true;
	p->col = col;
	p->x = x;
	p->lo = p->hi = y;
	p->lo_first = true;
}

/* A gap: the next point starts a new line. */
static void pen_up(struct pen *p)
{
	pen_flush(p);
	p->down = false;
}

static void dot(FILE *f, double x, double y, double r, const char *colour)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
		x, y, r, colour);
}

/* A legend entry at *x: a swatch (a stroke of width w, dashed if dash)
 * then the label; *x moves past it. */
static void legend_item(FILE *f, double *x, double y, const char *colour,
			double w, const char *dash, const char *label)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s/>\n",
		*x, y - 4, *x + 20, y - 4, colour, w,
		dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash ? "\"" : "");
	text(f, *x + 25, y, "", "start", "%s", label);
	*x += 25 + 7.0 * (double)strlen(label) + 16;
}

/* ---- axes ---------------------------------------------------------- */

/* Grid lines and labels at every step of a linear axis: vertical lines
 * labelled below the box (xside), or horizontal ones labelled left. */
static void lin_ticks(FILE *f, const struct axis *a, double step,
		      const struct box *b, bool xside)
{
	int d = step_decimals(step);

	for (int i = 0; i * step <= a->hi * (1 + 1e-9) && i <= 1000; i++) {
		double v = i * step, p = axis_px(a, v);

		if (xside) {
			line(f, "class=\"grid\"", p, b->y0, p, b->y1);
			text(f, p, b->y1 + 15, "tick", "middle", "%.*f", d, v);
		} else {
			line(f, "class=\"grid\"", b->x0, p, b->x1, p);
			text(f, b->x0 - 6, p + 4, "tick", "end", "%.*f", d, v);
		}
	}
}

/* "0.1 ms" ... "100 ms", "1 s", "10 s", ... */
static void decade_label(char *buf, size_t len, double ns)
{
	if (ns < SEC)
		snprintf(buf, len, "%g ms", ns / MS);
	else
		snprintf(buf, len, "%g s", ns / SEC);
}

/* Decades labelled, 2x and 5x as faint lines. */
static void log_ticks(FILE *f, const struct axis *a, const struct box *b)
{
	char buf[32];

	for (double d = a->lo; d <= a->hi * 1.0001; d *= 10) {
		double p = axis_px(a, d);

		for (int m = 2; m <= 5 && d * m < a->hi; m += 3) {
			double q = axis_px(a, d * m);

			line(f, "class=\"minor\"", b->x0, q, b->x1, q);
		}
		line(f, "class=\"grid\"", b->x0, p, b->x1, p);
		decade_label(buf, sizeof(buf), d);
		text(f, b->x0 - 6, p + 4, "tick", "end", "%s", buf);
	}
}

/* A y-axis title, turned to read upwards, and an x-axis title. */
static void axis_titles(FILE *f, const struct box *b, const char *ytitle,
			const char *xtitle)
{
	double ym = (b->y0 + b->y1) / 2;

	fprintf(f, "<text x=\"22.0\" y=\"%.1f\" class=\"\" text-anchor=\"middle\" transform=\"rotate(-90 22.0 %.1f)\">",
		ym, ym);
	put_escaped(f, ytitle);
	fputs("</text>\n", f);
	text(f, (b->x0 + b->x1) / 2, b->y1 + 32, "", "middle", "%s", xtitle);
}

static void frame(FILE *f, const struct box *b)
{
	rect(f, "class=\"frame\"", b->x0, b->y0, b->x1 - b->x0, b->y1 - b->y0);
}

/* ---- what the run gives -------------------------------------------- */

static size_t npoints(const struct ws_summary *sum)
{
	return sum->series ? sum->series->n : 0;
}

/* The top panel draws throughput from the progress marks (buffer ends,
 * no quantisation by interval); a summary without them falls back to
 * the interval series. */
static const struct ws_series *top_series(const struct ws_summary *sum)
{
	return sum->progress && sum->progress->n ? sum->progress : sum->series;
}

static size_t ntop(const struct ws_summary *sum)
{
	return top_series(sum) ? top_series(sum)->n : 0;
}

static unsigned int nphases(const struct ws_summary *sum)
{
	if (!sum->analysis)
		return 0;
	return sum->analysis->nphases < WS_MAX_PHASES ? sum->analysis->nphases
						      : WS_MAX_PHASES;
}

static double max_d(double a, double b)
{
	return b > a ? b : a;
}

static double mid_bytes(const struct ws_point *p)
{
	return ((double)p->bytes - (double)p->dbytes / 2) / GIB;
}

static double mid_seconds(const struct ws_point *p)
{
	return ((double)p->t_ns - (double)p->dt_ns / 2) / SEC;
}

static double finite_or_0(double v)
{
	return isfinite(v) ? v : 0;
}

/* The x range of the top panel, in GiB. */
static double max_gib(const struct ws_summary *sum)
{
	double m = (double)sum->bytes;
	size_t n = ntop(sum);

	if (n)
		m = max_d(m, (double)top_series(sum)->pts[n - 1].bytes);
	for (unsigned int i = 0; i < nphases(sum); i++)
		m = max_d(m, (double)sum->analysis->phases[i].to_bytes);
	return m / GIB;
}

/* The y range of the top panel, in MiB/s. */
static double max_mibps(const struct ws_summary *sum)
{
	double m = 0;

	for (size_t i = 0; i < ntop(sum); i++)
		m = max_d(m, finite_or_0(top_series(sum)->pts[i].mibps));
	for (unsigned int i = 0; i < nphases(sum); i++)
		m = max_d(m, finite_or_0(sum->analysis->phases[i].mibps));
	if (sum->analysis && sum->analysis->steady.reached)
		m = max_d(m, finite_or_0(sum->analysis->steady.final.mibps));
	if (sum->analysis && sum->analysis->steady.earlier)
		m = max_d(m, finite_or_0(sum->analysis->steady.before.mibps));
	return m;
}

static unsigned int nstalls_drawn(const struct ws_probe_summary *ps)
{
	return ps->stalls ? ps->nrecorded : 0;
}

/* The x range of the bottom panel, in seconds. */
static double max_seconds(const struct ws_summary *sum)
{
	double m = (double)sum->elapsed_ns;
	size_t n = npoints(sum);

	if (n)
		m = max_d(m, (double)sum->series->pts[n - 1].t_ns);
	for (unsigned int i = 0; i < sum->nprobes; i++)
		for (unsigned int k = 0; k < nstalls_drawn(&sum->probes[i]); k++)
			m = max_d(m, (double)sum->probes[i].stalls[k].start_ns +
					     (double)sum->probes[i].stalls[k].duration_ns);
	return m / SEC;
}

/* The worst latency to show, in ns: any point's max, any stall, the
 * threshold itself. */
static double max_latency(const struct ws_run *run, const struct ws_summary *sum)
{
	double m = (double)run->cfg->stall_ns;

	for (size_t i = 0; i < npoints(sum); i++)
		for (unsigned int j = 0; j < sum->nprobes; j++)
			m = max_d(m, max_d((double)sum->series->pts[i].probe_max[j],
					   (double)sum->series->pts[i].probe_p99[j]));
	for (unsigned int j = 0; j < sum->nprobes; j++) {
		m = max_d(m, (double)sum->probes[j].longest.duration_ns);
		for (unsigned int k = 0; k < nstalls_drawn(&sum->probes[j]); k++)
			m = max_d(m, (double)sum->probes[j].stalls[k].duration_ns);
	}
	return m;
}

/* Is there any latency to draw? */
static bool any_latency(const struct ws_summary *sum)
{
	for (unsigned int j = 0; j < sum->nprobes; j++) {
		if (nstalls_drawn(&sum->probes[j]))
			return true;
		for (size_t i = 0; i < npoints(sum); i++)
			if (sum->series->pts[i].probe_max[j] || sum->series->pts[i].probe_p99[j])
				return true;
	}
	return false;
}

/* ---- titles -------------------------------------------------------- */

static const char *how_it_ended(char *buf, size_t len, const struct ws_summary *sum)
{
	const struct ws_outcome *o = &sum->outcome;

	switch (o->reason) {
	case WS_STOP_SIGNAL:
		snprintf(buf, len, " — stopped by %s", signals_name(sum->signo) ? signals_name(sum->signo) : "a signal");
		break;
	case WS_STOP_ERROR:
		snprintf(buf, len, " — failed: %s: %s", o->err_op ? o->err_op : "I/O",
			 strerror(o->err));
		break;
	case WS_STOP_STEADY:
		snprintf(buf, len, " — ended at steady state (--until-steady)");
		break;
	case WS_STOP_NOT_STEADY:
		snprintf(buf, len, " — not steady after %u rounds (--until-steady)",
			 sum->analysis ? sum->analysis->steady.judged_rounds : 0);
		break;
	default:
		buf[0] = '\0';
	}
	return buf;
}

/* "probes fsync, save every 50.0 ms · 2 stalls ≥ 500 ms" or "no probes". */
static void describe_probes(char *buf, size_t len, const struct ws_run *run,
			    const struct ws_summary *sum)
{
	uint64_t stalls = 0;
	char a[32], b[32];
	int n = snprintf(buf, len, "%s", sum->nprobes ? "probes" : "no probes");

	for (unsigned int i = 0; i < sum->nprobes && n >= 0 && (size_t)n < len; i++) {
		n += snprintf(buf + n, len - (size_t)n, "%s %s", i ? "," : "",
			      sum->probes[i].name);
		stalls += sum->probes[i].nstalls;
	}
	if (sum->nprobes && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " every %s · %llu stall%s ≥ %s",
			 units_format_duration(a, sizeof(a), run->cfg->probe_interval_ns),
			 (unsigned long long)stalls, stalls == 1 ? "" : "s",
			 units_format_duration(b, sizeof(b), run->cfg->stall_ns));
}

static void draw_titles(FILE *f, const struct ws_run *run,
			const struct ws_summary *sum)
{
	const struct ws_config *cfg = run->cfg;
	char path[256], result[160], end[256], pace[64], probes[192];
	char a[32], b[32];

	text(f, 24, 32, "title", "start", "writestress — %s on %s",
	     tail_of(path, sizeof(path), cfg->path ? cfg->path : "?", 72),
	     run->target ? run->target->fs_type : "?");
	sink_format_result(result, sizeof(result), sum);
	text(f, 24, 55, "sub", "start", "%s%s", result,
	     how_it_ended(end, sizeof(end), sum));
	pace_describe(cfg, pace, sizeof(pace));
	describe_probes(probes, sizeof(probes), run, sum);
	units_format_size(b, sizeof(b), cfg->rate);
	text(f, 24, 74, "sub", "start", "pace %s · data %s · %s buffers%s%s%s · %s",
	     pace, datagen_name(cfg->data),
	     units_format_size(a, sizeof(a), run->plan ? run->plan->buffer_size
							: cfg->buffer_size),
	     cfg->rate ? " · rate " : "", cfg->rate ? b : "", cfg->rate ? "/s" : "",
	     probes);
}

static bool put_char(char *buf, size_t len, size_t *n, char c)
{
	if (*n + 1 >= len)
		return false;
	buf[(*n)++] = c;
	buf[*n] = '\0';
	return true;
}

/* Append " ARG", single-quoted if a shell would need it, to buf at *n;
 * false if it did not fit (buf then ends where it stopped). */
static bool append_arg(char *buf, size_t len, size_t *n, const char *arg)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+-@%";
	bool plain = *arg && strspn(arg, safe) == strlen(arg);
	bool ok = put_char(buf, len, n, ' ') && (plain || put_char(buf, len, n, '\''));

	for (const char *p = arg; ok && *p; p++) {
		if (*p != '\'')
			ok = put_char(buf, len, n, *p);
		else		/* ' becomes '\'' */
			for (const char *q = "'\\''"; ok && *q; q++)
				ok = put_char(buf, len, n, *q);
	}
	return ok && (plain || put_char(buf, len, n, '\''));
}

/* The version and the command line, so a pasted plot says how it was
 * made. */
static void draw_footer(FILE *f, const struct ws_run *run)
{
	char cmd[200] = "$ writestress";
	size_t n = strlen(cmd);
	bool whole = true;

	for (int i = 1; whole && run->argv && i < run->argc; i++)
		whole = append_arg(cmd, sizeof(cmd) - 4, &n, run->argv[i]);
	if (!whole) {
		while (n && ((unsigned char)cmd[n] & 0xc0) == 0x80)
			n--;
		strcpy(cmd + n, "…");
	}
	text(f, 24, 688, "foot", "start", "%s", cmd);
	text(f, SVG_W - 24, 688, "foot", "end", "writestress %s", WS_VERSION);
}

/* ---- top panel: throughput over GiB written ------------------------ */

/* Alternating light bands, one per phase, along x in GiB or seconds. */
static void phase_bands(FILE *f, const struct ws_summary *sum,
			const struct axis *x, const struct box *b, bool by_time)
{
	for (unsigned int i = 0; i < nphases(sum); i++) {
		const struct ws_phase *ph = &sum->analysis->phases[i];
		double from = by_time ? (double)ph->from_ns / SEC : (double)ph->from_bytes / GIB;
		double to = by_time ? (double)ph->to_ns / SEC : (double)ph->to_bytes / GIB;
		double p = axis_px(x, from);

		rect(f, i % 2 ? "class=\"band1\"" : "class=\"band0\"", p, b->y0,
		     axis_px(x, to) - p, b->y1 - b->y0);
	}
}

/* Each point at its span's middle; a point without a finite rate is a
 * gap. */
static void throughput_line(FILE *f, const struct ws_summary *sum,
			    const struct axis *x, const struct axis *y)
{
	struct pen pen = { .f = f };
	const struct ws_series *s = top_series(sum);
	size_t n = ntop(sum);

	fputs("<path fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"", f);
	for (size_t i = 0; i < n; i++) {
		const struct ws_point *p = &s->pts[i];

		if (isfinite(p->mibps))
			pen_to(&pen, axis_px(x, mid_bytes(p)), axis_px(y, p->mibps));
		else
			pen_up(&pen);
	}
	pen_flush(&pen);
	fputs("\"/>\n", f);
	for (size_t i = 0; n < DOTS_BELOW && i < n; i++)
		if (isfinite(s->pts[i].mibps))
			dot(f, axis_px(x, mid_bytes(&s->pts[i])),
			    axis_px(y, s->pts[i].mibps), 2.5, "#1f5fa8");
}

/* Each phase's rate as a line across it, labelled above it (below when
 * the top is too close). */
static void phase_rates(FILE *f, const struct ws_summary *sum,
			const struct axis *x, const struct axis *y,
			const struct box *b)
{
	for (unsigned int i = 0; i < nphases(sum); i++) {
		const struct ws_phase *ph = &sum->analysis->phases[i];
		double l = axis_px(x, (double)ph->from_bytes / GIB);
		double r = axis_px(x, (double)ph->to_bytes / GIB);
		double py = axis_px(y, finite_or_0(ph->mibps));

		line(f, "stroke=\"#333\" stroke-width=\"2\"", l, py, r, py);
		if (r - l >= LABEL_MIN_PX)
			text(f, (l + r) / 2, py - 6 < b->y0 + 14 ? py + 16 : py - 6,
			     "lbl", "middle", "%.1f MiB/s", finite_or_0(ph->mibps));
	}
}

/* Steady state as the analysis found it: the stretch that holds to the
 * end as a green bar at its rate with a diamond where it was established
 * and its rate below; an earlier stretch that then changed as a grey bar
 * labelled so. */
static void steady_mark(FILE *f, const struct ws_summary *sum,
			const struct axis *x, const struct axis *y)
{
	const struct ws_steady *st = sum->analysis ? &sum->analysis->steady : NULL;
	double px, py, l;

	if (st && st->earlier) {
		l = axis_px(x, (double)st->before.from_bytes / GIB);
		px = axis_px(x, (double)st->before.to_bytes / GIB);
		py = axis_px(y, finite_or_0(st->before.mibps));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-width=\"5\" stroke-opacity=\"0.5\"/>\n",
			l, py, px, py);
		text(f, (l + px) / 2, py + 20, "lbl", "middle",
		     "steady %.1f MiB/s, then changed", finite_or_0(st->before.mibps));
	}
	if (!st || !st->reached)
		return;
	l = axis_px(x, (double)st->final.from_bytes / GIB);
	px = axis_px(x, (double)st->at_bytes / GIB);
	py = axis_px(y, finite_or_0(st->final.mibps));
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2e7d32\" stroke-width=\"5\" stroke-opacity=\"0.6\"/>\n",
		l, py, axis_px(x, (double)st->final.to_bytes / GIB), py);
	fprintf(f, "<path d=\"M%.1f %.1fl7 7-7 7-7-7z\" fill=\"#2e7d32\" stroke=\"#fff\"/>\n",
		px, py - 7);
	if (px > x->p1 - 150)
		text(f, px - 10, py + 20, "lbl steady", "end", "steady %.1f MiB/s",
		     finite_or_0(st->final.mibps));
	else
		text(f, px + 10, py + 20, "lbl steady", "start", "steady %.1f MiB/s",
		     finite_or_0(st->final.mibps));
}

/* A dashed vertical line at v across the box, labelled at the top if
 * label. */
static void slowdown_mark(FILE *f, double v, const struct axis *x,
			  const struct box *b, const char *label)
{
	double p = axis_px(x, v);

	line(f, "stroke=\"#c0561a\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"",
	     p, b->y0, p, b->y1);
	if (label)
		text(f, p > b->x1 - 80 ? p - 5 : p + 5, b->y0 + 15, "lbl slowed",
		     p > b->x1 - 80 ? "end" : "start", "%s", label);
}

static void top_legend(FILE *f, const struct ws_summary *sum, double y)
{
	char what[48] = "per interval";
	double x = 560;

	/* marks fall on buffer ends (four to an interval at most), intervals on
	 * ticks; a long run's points were merged */
	if (top_series(sum) == sum->progress)
		snprintf(what, sizeof(what), "per buffer group");
	else if (sum->series && sum->series->stride > 1)
		snprintf(what, sizeof(what), "per %u intervals", sum->series->stride);
	legend_item(f, &x, y, "#1f5fa8", 1.5, NULL, what);
	if (nphases(sum))
		legend_item(f, &x, y, "#333", 2, NULL, "phase rate");
	if (sum->analysis && sum->analysis->steady.reached)
		legend_item(f, &x, y, "#2e7d32", 5, NULL, "steady to the end");
	if (sum->analysis && sum->analysis->steady.earlier)
		legend_item(f, &x, y, "#777", 5, NULL, "steady, then changed");
	if (sum->analysis && sum->analysis->slowed)
		legend_item(f, &x, y, "#c0561a", 1.5, "6 4", "slowed");
}

static void draw_throughput(FILE *f, const struct ws_summary *sum)
{
	const struct box *b = &top_box;
	struct axis x, y;
	double xs = lin_axis(&x, max_gib(sum), 8, b->x0, b->x1);
	double ys = lin_axis(&y, max_mibps(sum) * 1.12, 6, b->y1, b->y0);

	text(f, b->x0, b->y0 - 10, "head", "start", "Throughput over data written");
	top_legend(f, sum, b->y0 - 10);
	phase_bands(f, sum, &x, b, false);
	lin_ticks(f, &x, xs, b, true);
	lin_ticks(f, &y, ys, b, false);
	axis_titles(f, b, "MiB/s", "GiB written");
	if (!npoints(sum) || !(max_gib(sum) > 0))
		text(f, (b->x0 + b->x1) / 2, (b->y0 + b->y1) / 2, "note", "middle",
		     "%s", npoints(sum) ? "nothing was written"
					: "no data: the run ended before its first interval");
	throughput_line(f, sum, &x, &y);
	phase_rates(f, sum, &x, &y, b);
	steady_mark(f, sum, &x, &y);
	if (sum->analysis && sum->analysis->slowed)
		slowdown_mark(f, (double)sum->analysis->slowdown_bytes / GIB, &x, b,
			      "slowed");
	frame(f, b);
}

/* ---- bottom panel: probe latency over time ------------------------- */

/* One probe's p99 (thick) or max (thin, faint) over time; intervals
 * without data lift the pen. */
static void latency_line(FILE *f, const struct ws_summary *sum, unsigned int j,
			 bool max, const struct axis *x, const struct axis *y)
{
	struct pen pen = { .f = f };
	size_t n = npoints(sum);

	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\" stroke-linecap=\"round\"%s d=\"",
		probe_colours[j], max ? "1" : "2.5",
		max ? " stroke-opacity=\"0.55\"" : "");
	for (size_t i = 0; i < n; i++) {
		const struct ws_point *p = &sum->series->pts[i];
		uint64_t v = max ? p->probe_max[j] : p->probe_p99[j];

		if (v)
			pen_to(&pen, axis_px(x, mid_seconds(p)), axis_px(y, (double)v));
		else
			pen_up(&pen);
	}
	pen_flush(&pen);
	fputs("\"/>\n", f);
	for (size_t i = 0; !max && n < DOTS_BELOW && i < n; i++)
		if (sum->series->pts[i].probe_p99[j])
			dot(f, axis_px(x, mid_seconds(&sum->series->pts[i])),
			    axis_px(y, (double)sum->series->pts[i].probe_p99[j]), 2.5,
			    probe_colours[j]);
}

/* Every recorded stall: a faint red column over its time (under the
 * lines), or the solid red bar at its duration that tops it. */
static void stall_bars(FILE *f, const struct ws_probe_summary *ps,
		       const struct axis *x, const struct axis *y,
		       const struct box *b, bool column)
{
	for (unsigned int k = 0; k < nstalls_drawn(ps); k++) {
		const struct ws_stall *st = &ps->stalls[k];
		double l = axis_px(x, (double)st->start_ns / SEC);
		double r = axis_px(x, ((double)st->start_ns + (double)st->duration_ns) / SEC);
		double top = axis_px(y, (double)st->duration_ns);

		if (r - l < 3)
			r = l + 3;
		if (column)
			rect(f, "fill=\"#d62728\" fill-opacity=\"0.1\"", l, top, r - l,
			     b->y1 - top);
		else
			line(f, "stroke=\"#d62728\" stroke-width=\"3\"", l, top, r, top);
	}
}

/* The stall threshold: a red dashed line, labelled at the right. */
static void stall_threshold(FILE *f, const struct ws_run *run,
			    const struct axis *y, const struct box *b)
{
	char a[32];
	double p = axis_px(y, (double)run->cfg->stall_ns);

	line(f, "stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"8 5\"",
	     b->x0, p, b->x1, p);
	text(f, b->x1 - 6, p - 5 < b->y0 + 12 ? p + 15 : p - 5, "lbl stall", "end",
	     "stall ≥ %s", units_format_duration(a, sizeof(a), run->cfg->stall_ns));
}

static void bottom_legend(FILE *f, const struct ws_summary *sum, double y)
{
	uint64_t drawn = 0, all = 0;
	char note[64];
	double x = 560;

	for (unsigned int j = 0; j < sum->nprobes; j++) {
		legend_item(f, &x, y, probe_colours[j], 3, NULL, sum->probes[j].name);
		drawn += nstalls_drawn(&sum->probes[j]);
		all += sum->probes[j].nstalls;
	}
	legend_item(f, &x, y, "#555", 2, NULL, "p99");
	legend_item(f, &x, y, "#999", 1, NULL, "max");
	if (drawn < all)
		snprintf(note, sizeof(note), "stall (first %llu of %llu)",
			 (unsigned long long)drawn, (unsigned long long)all);
	else
		snprintf(note, sizeof(note), "stall");
	legend_item(f, &x, y, "#d62728", 3, NULL, note);
}

static void draw_latency(FILE *f, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	const struct box *b = &bot_box;
	struct axis x, y;
	double xs = lin_axis(&x, max_seconds(sum), 10, b->x0, b->x1);

	log_axis(&y, max_latency(run, sum), b->y1, b->y0);
	text(f, b->x0, b->y0 - 10, "head", "start", "Probe latency over time (log scale)");
	phase_bands(f, sum, &x, b, true);
	lin_ticks(f, &x, xs, b, true);
	axis_titles(f, b, "latency", "seconds since start");
	if (sum->analysis && sum->analysis->slowed)
		slowdown_mark(f, (double)sum->analysis->slowdown_ns / SEC, &x, b, NULL);
	if (!sum->nprobes) {
		text(f, (b->x0 + b->x1) / 2, (b->y0 + b->y1) / 2, "note", "middle",
		     "no probes (--no-probe)");
		frame(f, b);
		return;
	}
	if (!any_latency(sum))
		text(f, (b->x0 + b->x1) / 2, (b->y0 + b->y1) / 2, "note", "middle",
		     "no probe completed");
	bottom_legend(f, sum, b->y0 - 10);
	log_ticks(f, &y, b);
	for (unsigned int j = 0; j < sum->nprobes && j < WS_PROBE_NR; j++)
		stall_bars(f, &sum->probes[j], &x, &y, b, true);
	stall_threshold(f, run, &y, b);
	for (unsigned int j = 0; j < sum->nprobes && j < WS_PROBE_NR; j++)
		latency_line(f, sum, j, true, &x, &y);
	for (unsigned int j = 0; j < sum->nprobes && j < WS_PROBE_NR; j++)
		stall_bars(f, &sum->probes[j], &x, &y, b, false);
	for (unsigned int j = 0; j < sum->nprobes && j < WS_PROBE_NR; j++)
		latency_line(f, sum, j, false, &x, &y);
	frame(f, b);
}

/* ---- the sink ------------------------------------------------------ */

static void svg_summary(struct sink *s, const struct ws_run *run,
			const struct ws_summary *sum)
{
	FILE *f = s->out;
	char path[256];

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		SVG_W, SVG_H, SVG_W, SVG_H);
	fputs("<title>writestress — ", f);
	put_escaped(f, tail_of(path, sizeof(path), run->cfg->path ? run->cfg->path : "?", 72));
	fputs("</title>\n", f);
	fputs(style, f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, SVG_H);
	draw_titles(f, run, sum);
	draw_throughput(f, sum);
	draw_latency(f, run, sum);
	draw_footer(f, run);
	fputs("</svg>\n", f);
	s->priv = s;	/* non-NULL: the plot is complete */
}

/* Without a summary there is no plot: keep whatever PATH held. */
static int svg_close(struct sink *s)
{
	if (!s->priv) {
		fclose(s->out);
		s->out = NULL;
		unlink(s->tmp);
		return -ENODATA;
	}
	s->priv = NULL;
	return sink_close_file(s);
}

const struct sink_ops sink_svg_ops = {
	.name = "svg",
	.header = NULL,
	.interval = NULL,
	.summary = svg_summary,
	.close = svg_close,
};
