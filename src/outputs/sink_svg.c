/* sink_svg.c - --svg: the run as one picture for a bug report.
 *
 * One self-contained SVG (no scripts, no external fonts or images), drawn
 * in the summary callback from the bounded series and its analysis: on
 * top, throughput over data written (in MiB or GiB, as its amount reads
 * best) with the phases shaded, the slowdown point and the steady-state
 * window; below, each probe's latency over time on a log axis with the
 * stall threshold and the stalls in red.  Both x axes end where the run
 * did.  Labels go where they cover no tick label and no other label
 * (svgplot's layout), or are left out.  1200x700 user units, every
 * coordinate with one decimal, so the same run gives the same bytes.
 * Header and interval events are not needed: the series holds the whole
 * run.  The generic plotting is svgplot.c's; this file draws the two
 * panels from the record.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "outputs/sink.h"
#include "lib/svgplot.h"
#include "lib/units.h"

#define SVG_W 1200
#define SVG_H 700
#define SEC 1e9			/* ns */
#define LABEL_MIN_PX 64.0	/* narrower phases get no rate label */
#define DOTS_BELOW 60		/* fewer points than this are also dotted */
#define LABEL_PX 12.0		/* the font sizes of .lbl and .note in style[] */
#define NOTE_PX 14.0
#define ROW_PX 15.0		/* a label moved off its row moves by this */
#define ROWS 8			/* ... this many times each way */
#define SPOTS_MAX (2 * ROWS * 3)

static const struct svg_box top_box = { 80, 104, 1160, 334 };
static const struct svg_box bot_box = { 80, 408, 1160, 628 };

/* a probe's colour; the probes of a second filesystem repeat them */
static const char *const probe_colours[WS_PROBE_NR] = {
	"#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#a6761d",
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
	return (double)p->bytes - (double)p->dbytes / 2;
}

static double mid_seconds(const struct ws_point *p)
{
	return ((double)p->t_ns - (double)p->dt_ns / 2) / SEC;
}

static double finite_or_0(double v)
{
	return isfinite(v) ? v : 0;
}

/* The x range of the top panel, in bytes. */
static double max_bytes(const struct ws_summary *sum)
{
	double m = (double)sum->bytes;
	size_t n = ntop(sum);

	if (n)
		m = max_d(m, (double)top_series(sum)->pts[n - 1].bytes);
	for (unsigned int i = 0; i < nphases(sum); i++)
		m = max_d(m, (double)sum->analysis->phases[i].to_bytes);
	return m;
}

/* The y range of the top panel, in MiB/s. */
static double max_mibps(const struct ws_summary *sum)
{
	double m = 0;

	for (size_t i = 0; i < ntop(sum); i++)
		m = max_d(m, finite_or_0(top_series(sum)->pts[i].mibps));
	for (unsigned int k = 0; k < sum->ntargets; k++)
		for (size_t i = 0; i < ntop(&sum->targets[k]); i++)
			m = max_d(m, finite_or_0(top_series(&sum->targets[k])->pts[i].mibps));
	for (unsigned int i = 0; i < nphases(sum); i++)
		m = max_d(m, finite_or_0(sum->analysis->phases[i].mibps));
	if (sum->analysis && sum->analysis->steady.reached)
		m = max_d(m, finite_or_0(sum->analysis->steady.final.mibps));
	if (sum->analysis && sum->analysis->steady.earlier)
		m = max_d(m, finite_or_0(sum->analysis->steady.before.mibps));
	return m;
}


/* The x range of the bottom panel, in seconds. */
static double max_seconds(const struct ws_summary *sum)
{
	double m = (double)sum->elapsed_ns;
	size_t n = npoints(sum);

	if (n)
		m = max_d(m, (double)sum->series->pts[n - 1].t_ns);
	for (unsigned int i = 0; i < sum->nprobes; i++)
		for (unsigned int k = 0; k < sum->probes[i].nrecorded; k++)
			m = max_d(m, (double)sum->probes[i].stalls[k].start_ns +
					     (double)sum->probes[i].stalls[k].duration_ns);
	return m / SEC;
}

/* The worst latency to show, in ns: any point's max, any stall, the
 * threshold itself. */
static double max_latency(const struct ws_run *run, const struct ws_summary *sum)
{
	double m = (double)run->set.stall_ns;

	for (size_t i = 0; i < npoints(sum); i++)
		for (unsigned int j = 0; j < sum->nprobes && j < WS_SERIES_PROBES; j++)
			m = max_d(m, max_d((double)sum->series->pts[i].probe_max[j],
					   (double)sum->series->pts[i].probe_p99[j]));
	for (unsigned int j = 0; j < sum->nprobes; j++) {
		m = max_d(m, (double)sum->probes[j].longest.duration_ns);
		for (unsigned int k = 0; k < sum->probes[j].nrecorded; k++)
			m = max_d(m, (double)sum->probes[j].stalls[k].duration_ns);
	}
	return m;
}

/* The least latency drawn (0: none), for the axis's low end. */
static double min_latency(const struct ws_summary *sum)
{
	double m = INFINITY;

	for (size_t i = 0; i < npoints(sum); i++)
		for (unsigned int j = 0; j < sum->nprobes && j < WS_SERIES_PROBES; j++)
			if (sum->series->pts[i].probe_p99[j])
				m = fmin(m, (double)sum->series->pts[i].probe_p99[j]);
	return isfinite(m) ? m : 0;
}

/* Is there any latency to draw? */
static bool any_latency(const struct ws_summary *sum)
{
	for (unsigned int j = 0; j < sum->nprobes; j++) {
		if (sum->probes[j].nrecorded)
			return true;
		for (size_t i = 0; j < WS_SERIES_PROBES && i < npoints(sum); i++)
			if (sum->series->pts[i].probe_max[j] || sum->series->pts[i].probe_p99[j])
				return true;
	}
	return false;
}

/* ---- titles -------------------------------------------------------- */

static const char *how_it_ended(char *buf, size_t len, const struct ws_summary *sum)
{
	const struct ws_ending *o = &sum->ending;

	switch (o->reason) {
	case WS_STOP_SIGNAL:
		snprintf(buf, len, " — stopped by %s", o->signal ? o->signal : "a signal");
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
	struct ws_buf b = ws_buf_init(buf, len);
	uint64_t stalls = 0;
	char x[32], y[32];

	ws_buf_printf(&b, "%s", sum->nprobes ? "probes" : "no probes");
	for (unsigned int i = 0; i < sum->nprobes; i++) {
		ws_buf_printf(&b, "%s %s", i ? "," : "", sum->probes[i].name);
		stalls += sum->probes[i].nstalls;
	}
	if (sum->nprobes)
		ws_buf_printf(&b, " every %s · %llu stall%s ≥ %s",
			      units_format_duration(x, sizeof(x), run->set.probe_interval_ns),
			      (unsigned long long)stalls, stalls == 1 ? "" : "s",
			      units_format_duration(y, sizeof(y), run->set.stall_ns));
}

static void draw_titles(FILE *f, const struct ws_run *run,
			const struct ws_summary *sum)
{
	const struct ws_settings *set = &run->set;
	char path[256], result[160], end[256], probes[192];
	char a[32], b[32];

	if (run->ntargets)
		svg_text(f, 24, 32, "title", "start", "writestress — %u targets, %s and more, on %s",
			 run->ntargets, svg_tail_of(path, sizeof(path), run->target.path, 56),
			 run->target.fs_type);
	else
		svg_text(f, 24, 32, "title", "start", "writestress — %s on %s",
			 svg_tail_of(path, sizeof(path), run->target.path, 72),
			 run->target.fs_type);
	sink_format_result(result, sizeof(result), sum);
	svg_text(f, 24, 55, "sub", "start", "%s%s", result,
		 how_it_ended(end, sizeof(end), sum));
	describe_probes(probes, sizeof(probes), run, sum);
	units_format_size(b, sizeof(b), set->rate);
	svg_text(f, 24, 74, "sub", "start", "pace %s · data %s · %s buffers%s%s%s · %s",
		 run->pace, run->data,
		 units_format_size(a, sizeof(a), run->plan.buffer_size),
		 set->rate ? " · rate " : "", set->rate ? b : "", set->rate ? "/s" : "",
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
 * made.  The line stops (with "…") at FOOT_CMD_BYTES: 11 px sans-serif
 * averages under 6.5 px a character, so that many end well before the
 * version at the right edge. */
#define FOOT_CMD_BYTES 150

static void draw_footer(FILE *f, const struct ws_run *run)
{
	char cmd[FOOT_CMD_BYTES + 4] = "$ writestress";
	size_t n = strlen(cmd);
	bool whole = true;

	for (int i = 1; whole && run->argv && i < run->argc; i++)
		whole = append_arg(cmd, sizeof(cmd) - 4, &n, run->argv[i]);
	if (!whole) {
		while (n && ((unsigned char)cmd[n] & 0xc0) == 0x80)
			n--;
		strcpy(cmd + n, "…");
	}
	svg_text(f, 24, 688, "foot", "start", "%s", cmd);
	svg_text(f, SVG_W - 24, 688, "foot", "end", "writestress %s", WS_VERSION);
}

/* ---- labels -------------------------------------------------------- */

/* Where a label may go, best first: at each of the nx places xs (their
 * x and anchor) on row y, then on row y2, then on rows a line further
 * on, from y the way dir (-1 up, +1 down) says and from y2 the other. */
static int spots_near(struct svg_spot *out, const struct svg_spot *xs, int nx,
		      double y, double dir, double y2)
{
	int n = 0;

	for (int k = 0; k < ROWS; k++)
		for (int side = 0; side < 2; side++)
			for (int i = 0; i < nx && n < SPOTS_MAX; i++) {
				out[n] = xs[i];
				out[n++].y = side ? y2 - dir * k * ROW_PX
						  : y + dir * k * ROW_PX;
			}
	return n;
}

/* A note across the middle of a panel, where no label may go. */
static void panel_note(FILE *f, struct svg_layout *lay, const struct svg_box *b,
		       const char *text)
{
	struct svg_spot at = { (b->x0 + b->x1) / 2, (b->y0 + b->y1) / 2, "middle" };
	struct svg_box box = svg_text_box(&at, NOTE_PX, text);

	svg_layout_take(lay, &box);
	svg_text(f, at.x, at.y, "note", at.anchor, "%s", text);
}

/* ---- top panel: throughput over data written ----------------------- */

/* Its x axis: bytes, read in the unit the run's amount calls for. */
struct bytes_axis {
	struct svg_axis ax;
	struct svg_unit unit;
};

static double bytes_px(const struct bytes_axis *x, double bytes)
{
	return svg_axis_px(&x->ax, bytes / x->unit.bytes);
}

/* Alternating light bands, one per phase, along x in seconds (by_time)
 * or bytes, `per` of them to an axis unit.  The last lasts to the end
 * of the axis, the end of the run: the analysis ends it with the last
 * whole interval, and the run's rest is not another phase. */
static void phase_bands(FILE *f, const struct ws_summary *sum,
			const struct svg_axis *x, double per,
			const struct svg_box *b, bool by_time)
{
	for (unsigned int i = 0; i < nphases(sum); i++) {
		const struct ws_phase *ph = &sum->analysis->phases[i];
		double from = by_time ? (double)ph->from_ns : (double)ph->from_bytes;
		double to = by_time ? (double)ph->to_ns : (double)ph->to_bytes;
		double p = svg_axis_px(x, from / per);
		double q = i + 1 == nphases(sum) ? x->p1 : svg_axis_px(x, to / per);

		svg_rect(f, i % 2 ? "class=\"band1\"" : "class=\"band0\"", p, b->y0,
		     q - p, b->y1 - b->y0);
	}
}

/* Each point at its span's middle; a point without a finite rate is a
 * gap. */
static void throughput_line(FILE *f, const struct ws_summary *sum,
			    const struct bytes_axis *x, const struct svg_axis *y)
{
	struct svg_pen pen = { .f = f };
	const struct ws_series *s = top_series(sum);
	size_t n = ntop(sum);

	fputs("<path fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"", f);
	for (size_t i = 0; i < n; i++) {
		const struct ws_point *p = &s->pts[i];

		if (isfinite(p->mibps))
			svg_pen_to(&pen, bytes_px(x, mid_bytes(p)), svg_axis_px(y, p->mibps));
		else
			svg_pen_up(&pen);
	}
	svg_pen_flush(&pen);
	fputs("\"/>\n", f);
	for (size_t i = 0; n < DOTS_BELOW && i < n; i++)
		if (isfinite(s->pts[i].mibps))
			svg_dot(f, bytes_px(x, mid_bytes(&s->pts[i])),
			    svg_axis_px(y, s->pts[i].mibps), 2.5, "#1f5fa8");
}

/* Several targets: each one's rate as a thin line, placed where the run
 * as a whole had written as much (its progress read at the same time),
 * so all share the top panel's axis. */
static const char *const target_colours[] = {
	"#8da0cb", "#fc8d62", "#66c2a5", "#e78ac3", "#a6d854", "#ffd92f",
	"#e5c494", "#b3b3b3",
};

/* The run's bytes at time t, between its points; *at carries the search
 * from one call to the next (t only grows along a target's line, so a
 * line costs one pass over the run's series, not one a point). */
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

static void target_lines(FILE *f, const struct ws_summary *sum,
			 const struct bytes_axis *x, const struct svg_axis *y)
{
	for (unsigned int k = 0; k < sum->ntargets && sum->progress; k++) {
		const struct ws_summary *ts = &sum->targets[k];
		const struct ws_series *s = top_series(ts);
		struct svg_pen pen = { .f = f };
		size_t at = 0;

		if (!s)
			continue;
		fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1\" stroke-linejoin=\"round\" d=\"",
			target_colours[k % ARRAY_SIZE(target_colours)]);
		for (size_t i = 0; i < s->n; i++) {
			const struct ws_point *p = &s->pts[i];
			/* marks count from its writer's start, intervals from
			 * the run's */
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

/* Each phase's rate as a line across it, labelled in a band along the
 * panel's top (else its bottom, else a row further in): off the rate's
 * line and off the data drawn along it. */
static void phase_rates(FILE *f, struct svg_layout *lay,
			const struct ws_summary *sum, const struct bytes_axis *x,
			const struct svg_axis *y, const struct svg_box *b)
{
	for (unsigned int i = 0; i < nphases(sum); i++) {
		const struct ws_phase *ph = &sum->analysis->phases[i];
		double l = bytes_px(x, (double)ph->from_bytes);
		double r = bytes_px(x, (double)ph->to_bytes);
		double py = svg_axis_px(y, finite_or_0(ph->mibps));
		const struct svg_spot xs[] = {
			{ (l + r) / 2, 0, "middle" }, { l + 4, 0, "start" }, { r - 4, 0, "end" },
		};
		struct svg_spot spots[SPOTS_MAX];

		svg_line(f, "stroke=\"#333\" stroke-width=\"2\"", l, py, r, py);
		if (r - l >= LABEL_MIN_PX)
			svg_place_text(f, lay, b, LABEL_PX, "lbl", spots,
				       spots_near(spots, xs, 3, b->y0 + 14, 1, b->y1 - 6),
				       "%.1f MiB/s", finite_or_0(ph->mibps));
	}
}

/* An earlier steady stretch that then changed: a grey bar at its rate,
 * labelled so below it (else above, else further off). */
static void steady_before(FILE *f, struct svg_layout *lay,
			  const struct ws_stretch *s, const struct bytes_axis *x,
			  const struct svg_axis *y, const struct svg_box *b)
{
	double l = bytes_px(x, (double)s->from_bytes);
	double r = bytes_px(x, (double)s->to_bytes);
	double py = svg_axis_px(y, finite_or_0(s->mibps));
	const struct svg_spot xs[] = {
		{ (l + r) / 2, 0, "middle" }, { l + 4, 0, "start" }, { r - 4, 0, "end" },
	};
	struct svg_spot spots[SPOTS_MAX];

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-width=\"5\" stroke-opacity=\"0.5\"/>\n",
		l, py, r, py);
	svg_place_text(f, lay, b, LABEL_PX, "lbl", spots,
		       spots_near(spots, xs, 3, py + 20, 1, py - 12),
		       "steady %.1f MiB/s, then changed", finite_or_0(s->mibps));
}

/* The steady state that holds to the end: a green bar at its rate, a
 * diamond where it was established and its rate beside that, below (else
 * above, else further off). */
static void steady_final(FILE *f, struct svg_layout *lay,
			 const struct ws_steady *st, const struct bytes_axis *x,
			 const struct svg_axis *y, const struct svg_box *b)
{
	double px = bytes_px(x, (double)st->at_bytes);
	double py = svg_axis_px(y, finite_or_0(st->final.mibps));
	const struct svg_spot xs[] = { { px + 10, 0, "start" }, { px - 10, 0, "end" } };
	struct svg_spot spots[SPOTS_MAX];

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2e7d32\" stroke-width=\"5\" stroke-opacity=\"0.6\"/>\n",
		bytes_px(x, (double)st->final.from_bytes), py,
		bytes_px(x, (double)st->final.to_bytes), py);
	fprintf(f, "<path d=\"M%.1f %.1fl7 7-7 7-7-7z\" fill=\"#2e7d32\" stroke=\"#fff\"/>\n",
		px, py - 7);
	svg_place_text(f, lay, b, LABEL_PX, "lbl steady", spots,
		       spots_near(spots, xs, 2, py + 20, 1, py - 12),
		       "steady %.1f MiB/s", finite_or_0(st->final.mibps));
}

/* Steady state as the analysis found it. */
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

/* A dashed vertical line at pixel p across the box. */
static void slowdown_line(FILE *f, double p, const struct svg_box *b)
{
	svg_line(f, "stroke=\"#c0561a\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"",
	     p, b->y0, p, b->y1);
}

/* The slowdown on the top panel: its line, and where it came in the
 * axis's unit, at the top beside the line (else lower down). */
static void slowdown_mark(FILE *f, struct svg_layout *lay,
			  const struct ws_summary *sum, const struct bytes_axis *x,
			  const struct svg_box *b)
{
	double at = (double)sum->analysis->slowdown_bytes;
	double p = bytes_px(x, at);
	const struct svg_spot xs[] = { { p + 5, 0, "start" }, { p - 5, 0, "end" } };
	struct svg_spot spots[SPOTS_MAX];

	slowdown_line(f, p, b);
	svg_place_text(f, lay, b, LABEL_PX, "lbl slowed", spots,
		       spots_near(spots, xs, 2, b->y0 + 15, 1, b->y1 - 8),
		       "slowed at %.*f %s", x->unit.decimals, at / x->unit.bytes,
		       x->unit.name);
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
	svg_legend_item(f, &x, y, "#1f5fa8", 1.5, NULL, what);
	if (nphases(sum))
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

static void draw_throughput(FILE *f, struct svg_layout *lay,
			    const struct ws_summary *sum)
{
	const struct svg_box *b = &top_box;
	struct bytes_axis x = { .unit = svg_bytes_unit(max_bytes(sum)) };
	struct svg_axis y;
	double xs = svg_lin_axis_to(&x.ax, max_bytes(sum) / x.unit.bytes, 8,
				    b->x0, b->x1);
	double ys = svg_lin_axis(&y, max_mibps(sum) * 1.12, 6, b->y1, b->y0);
	char xtitle[32];

	svg_text(f, b->x0, b->y0 - 10, "head", "start", "Throughput over data written");
	top_legend(f, sum, b->y0 - 10);
	phase_bands(f, sum, &x.ax, x.unit.bytes, b, false);
	svg_lin_ticks(f, lay, &x.ax, xs, b, true);
	svg_lin_ticks(f, lay, &y, ys, b, false);
	snprintf(xtitle, sizeof(xtitle), "%s written", x.unit.name);
	svg_axis_titles(f, b, "MiB/s", xtitle);
	if (!npoints(sum) || !(max_bytes(sum) > 0))
		panel_note(f, lay, b, npoints(sum) ? "nothing was written"
				   : "no data: the run ended before its first interval");
	target_lines(f, sum, &x, &y);
	throughput_line(f, sum, &x, &y);
	phase_rates(f, lay, sum, &x, &y, b);
	steady_mark(f, lay, sum, &x, &y, b);
	if (sum->analysis && sum->analysis->slowed)
		slowdown_mark(f, lay, sum, &x, b);
	svg_frame(f, b);
}

/* ---- bottom panel: probe latency over time ------------------------- */

/* One probe's p99 (thick) or max (thin, faint) over time; intervals
 * without data lift the pen. */
static void latency_line(FILE *f, const struct ws_summary *sum, unsigned int j,
			 bool max, const struct svg_axis *x, const struct svg_axis *y)
{
	struct svg_pen pen = { .f = f };
	size_t n = npoints(sum);

	if (j >= WS_SERIES_PROBES)
		return;		/* not in the series: its stalls are drawn */
	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\" stroke-linecap=\"round\"%s d=\"",
		probe_colours[j % WS_PROBE_NR], max ? "1" : "2.5",
		max ? " stroke-opacity=\"0.55\"" : "");
	for (size_t i = 0; i < n; i++) {
		const struct ws_point *p = &sum->series->pts[i];
		uint64_t v = max ? p->probe_max[j] : p->probe_p99[j];

		if (v)
			svg_pen_to(&pen, svg_axis_px(x, mid_seconds(p)), svg_axis_px(y, (double)v));
		else
			svg_pen_up(&pen);
	}
	svg_pen_flush(&pen);
	fputs("\"/>\n", f);
	for (size_t i = 0; !max && n < DOTS_BELOW && i < n; i++)
		if (sum->series->pts[i].probe_p99[j])
			svg_dot(f, svg_axis_px(x, mid_seconds(&sum->series->pts[i])),
			    svg_axis_px(y, (double)sum->series->pts[i].probe_p99[j]), 2.5,
			    probe_colours[j % WS_PROBE_NR]);
}

/* Every recorded stall: a faint red column over its time (under the
 * lines), or the solid red bar at its duration that tops it. */
static void stall_bars(FILE *f, const struct ws_probe_summary *ps,
		       const struct svg_axis *x, const struct svg_axis *y,
		       const struct svg_box *b, bool column)
{
	for (unsigned int k = 0; k < ps->nrecorded; k++) {
		const struct ws_stall *st = &ps->stalls[k];
		double l = svg_axis_px(x, (double)st->start_ns / SEC);
		double r = svg_axis_px(x, ((double)st->start_ns + (double)st->duration_ns) / SEC);
		double top = svg_axis_px(y, (double)st->duration_ns);

		if (r - l < 3)	/* visible, but inside the frame that ends with the run */
			r = l + 3;
		if (r > b->x1) {
			r = b->x1;
			l = fmin(l, r - 3);
		}
		if (column)
			svg_rect(f, "fill=\"#d62728\" fill-opacity=\"0.1\"", l, top, r - l,
			     b->y1 - top);
		else
			svg_line(f, "stroke=\"#d62728\" stroke-width=\"3\"", l, top, r, top);
	}
}

/* The stall threshold: a red dashed line, labelled above it at the
 * right (else below, else at the left, else further off). */
static void stall_threshold(FILE *f, struct svg_layout *lay,
			    const struct ws_run *run, const struct svg_axis *y,
			    const struct svg_box *b)
{
	char a[32];
	double p = svg_axis_px(y, (double)run->set.stall_ns);
	const struct svg_spot xs[] = { { b->x1 - 6, 0, "end" }, { b->x0 + 6, 0, "start" } };
	struct svg_spot spots[SPOTS_MAX];

	svg_line(f, "stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"8 5\"",
	     b->x0, p, b->x1, p);
	svg_place_text(f, lay, b, LABEL_PX, "lbl stall", spots,
		       spots_near(spots, xs, 2, p - 5, -1, p + 15),
		       "stall ≥ %s", units_format_duration(a, sizeof(a), run->set.stall_ns));
}

static void bottom_legend(FILE *f, const struct ws_summary *sum, double y)
{
	uint64_t drawn = 0, all = 0;
	char note[64];
	double x = 560;

	for (unsigned int j = 0; j < sum->nprobes; j++) {
		svg_legend_item(f, &x, y, probe_colours[j % WS_PROBE_NR], 3, NULL, sum->probes[j].name);
		drawn += sum->probes[j].nrecorded;
		all += sum->probes[j].nstalls;
	}
	/* the keys of the lines' kinds, thick p99 and thin max, in no probe's
	 * colour: they are every probe's */
	svg_legend_item(f, &x, y, "#555", 2.5, NULL, "p99 (thick)");
	svg_legend_item(f, &x, y, "#555", 1, NULL, "max (thin)");
	if (drawn < all)
		snprintf(note, sizeof(note), "stall (first %llu of %llu)",
			 (unsigned long long)drawn, (unsigned long long)all);
	else
		snprintf(note, sizeof(note), "stall");
	svg_legend_item(f, &x, y, "#d62728", 3, NULL, note);
}

static void draw_latency(FILE *f, struct svg_layout *lay, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	const struct svg_box *b = &bot_box;
	struct svg_axis x, y;
	double xs = svg_lin_axis_to(&x, max_seconds(sum), 10, b->x0, b->x1);

	svg_log_axis(&y, min_latency(sum), max_latency(run, sum), b->y1, b->y0);
	svg_text(f, b->x0, b->y0 - 10, "head", "start", "Probe latency over time (log scale)");
	phase_bands(f, sum, &x, SEC, b, true);
	svg_lin_ticks(f, lay, &x, xs, b, true);
	svg_axis_titles(f, b, "latency", "seconds since start");
	if (sum->analysis && sum->analysis->slowed)
		slowdown_line(f, svg_axis_px(&x, (double)sum->analysis->slowdown_ns / SEC), b);
	if (!sum->nprobes) {
		panel_note(f, lay, b, "no probes (--no-probe)");
		svg_frame(f, b);
		return;
	}
	if (!any_latency(sum))
		panel_note(f, lay, b, "no probe completed");
	bottom_legend(f, sum, b->y0 - 10);
	svg_log_ticks(f, lay, &y, b);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		stall_bars(f, &sum->probes[j], &x, &y, b, true);
	stall_threshold(f, lay, run, &y, b);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		latency_line(f, sum, j, true, &x, &y);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		stall_bars(f, &sum->probes[j], &x, &y, b, false);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		latency_line(f, sum, j, false, &x, &y);
	svg_frame(f, b);
}

/* ---- the sink ------------------------------------------------------ */

static void svg_summary(struct sink *s, const struct ws_run *run,
			const struct ws_summary *sum)
{
	FILE *f = s->out;
	struct svg_layout lay = { .n = 0 };
	char path[256];

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		SVG_W, SVG_H, SVG_W, SVG_H);
	fputs("<title>writestress — ", f);
	svg_put_escaped(f, svg_tail_of(path, sizeof(path), run->target.path, 72));
	fputs("</title>\n", f);
	fputs(style, f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, SVG_H);
	draw_titles(f, run, sum);
	draw_throughput(f, &lay, sum);
	draw_latency(f, &lay, run, sum);
	draw_footer(f, run);
	fputs("</svg>\n", f);
	s->priv = s;	/* non-NULL: the plot is complete */
}

/* Without a summary there is no plot: keep whatever PATH held. */
static int svg_close(struct sink *s)
{
	if (!s->priv) {
		sink_drop_file(s);
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
