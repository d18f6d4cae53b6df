/* sink_svg.c - --svg: the run as one self-contained SVG for a bug report
 * (no scripts, fonts or images); the top panel is sink_svg_throughput.c's.
 * One decimal a coordinate, so the same run gives the same bytes.  Only
 * the summary draws: the series holds the whole run.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/svgplot.h"
#include "lib/units.h"
#include "outputs/sink.h"
#include "sink_svg.h"

static const struct svg_box bot_box = { 80, 408, 1160, 628 };

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
	char a[32], b[32], pace[96];

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
		 ws_pace_label(run, pace, sizeof(pace)), run->data,
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

/* Append " ARG", quoted if a shell needs it; false if it did not fit. */
static bool append_arg(char *buf, size_t len, size_t *n, const char *arg)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+-@%";
	bool plain = *arg && strspn(arg, safe) == strlen(arg);
	bool ok = put_char(buf, len, n, ' ') && (plain || put_char(buf, len, n, '\''));

	for (const char *p = arg; ok && *p; p++) {
		if (*p != '\'')
			ok = put_char(buf, len, n, *p);
		else
			for (const char *q = "'\\''"; ok && *q; q++)
				ok = put_char(buf, len, n, *q);
	}
	return ok && (plain || put_char(buf, len, n, '\''));
}

/* At 11 px sans-serif this many bytes end well before the version. */
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

/* An interval without data lifts the pen. */
static void latency_line(FILE *f, const struct ws_summary *sum, unsigned int j,
			 bool max, const struct svg_axis *x, const struct svg_axis *y)
{
	struct svg_pen pen = { .f = f };
	size_t n = plot_npoints(sum);

	if (j >= WS_SERIES_PROBES)
		return;		/* not in the series: its stalls are drawn */
	fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\" stroke-linecap=\"round\"%s d=\"",
		svg_colour(j), max ? "1" : "2.5",
		max ? " stroke-opacity=\"0.55\"" : "");
	for (size_t i = 0; i < n; i++) {
		const struct ws_point *p = &sum->series->pts[i];
		uint64_t v = max ? p->probe_max[j] : p->probe_p99[j];

		if (v)
			svg_pen_to(&pen, svg_axis_px(x, plot_mid_seconds(p)), svg_axis_px(y, (double)v));
		else
			svg_pen_up(&pen);
	}
	svg_pen_flush(&pen);
	fputs("\"/>\n", f);
	for (size_t i = 0; !max && n < DOTS_BELOW && i < n; i++)
		if (sum->series->pts[i].probe_p99[j])
			svg_dot(f, svg_axis_px(x, plot_mid_seconds(&sum->series->pts[i])),
			    svg_axis_px(y, (double)sum->series->pts[i].probe_p99[j]), 2.5,
			    svg_colour(j));
}

static bool device_traced(const struct ws_summary *sum)
{
	for (size_t i = 0; i < plot_npoints(sum); i++)
		if (sum->series->pts[i].dev_writes)
			return true;
	return false;
}

/* Beside a probe's latency, the device's tells the device from the queue. */
static void device_line(FILE *f, const struct ws_summary *sum,
			const struct svg_axis *x, const struct svg_axis *y)
{
	struct svg_pen pen = { .f = f };

	fputs("<path fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" stroke-linejoin=\"round\" d=\"", f);
	for (size_t i = 0; i < plot_npoints(sum); i++) {
		const struct ws_point *p = &sum->series->pts[i];

		if (p->dev_writes)
			svg_pen_to(&pen, svg_axis_px(x, plot_mid_seconds(p)),
				   svg_axis_px(y, plot_device_write_ns(p)));
		else
			svg_pen_up(&pen);
	}
	svg_pen_flush(&pen);
	fputs("\"/>\n", f);
}

/* A column under the lines, or the bar at its duration that tops it. */
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
		       plot_spots_near(spots, xs, 2, p - 5, -1, p + 15),
		       "stall ≥ %s", units_format_duration(a, sizeof(a), run->set.stall_ns));
}

static void bottom_legend(FILE *f, const struct ws_summary *sum, double y)
{
	uint64_t drawn = 0, all = 0;
	char note[64];
	/* the device's key needs room: start further left, past the title */
	double x = device_traced(sum) ? 430 : 560;

	for (unsigned int j = 0; j < sum->nprobes; j++) {
		svg_legend_item(f, &x, y, svg_colour(j), 3, NULL, sum->probes[j].name);
		drawn += sum->probes[j].nrecorded;
		all += sum->probes[j].nstalls;
	}
	/* in no probe's colour: the kinds are every probe's */
	svg_legend_item(f, &x, y, "#555", 2.5, NULL, "p99 (thick)");
	svg_legend_item(f, &x, y, "#555", 1, NULL, "max (thin)");
	if (device_traced(sum))
		svg_legend_item(f, &x, y, "#444", 1.5, "4 3", "device write (mean)");
	if (drawn < all)
		snprintf(note, sizeof(note), "stall (first %llu of %llu)",
			 (unsigned long long)drawn, (unsigned long long)all);
	else
		snprintf(note, sizeof(note), "stall");
	svg_legend_item(f, &x, y, "#d62728", 3, NULL, note);
}

void plot_draw_latency(FILE *f, struct svg_layout *lay, const struct ws_run *run,
		       const struct ws_summary *sum)
{
	const struct svg_box *b = &bot_box;
	struct svg_axis x, y;
	double xs = svg_lin_axis_to(&x, plot_max_seconds(sum), 10, b->x0, b->x1);

	svg_log_axis(&y, plot_min_latency(sum), plot_max_latency(run, sum), b->y1, b->y0);
	svg_text(f, b->x0, b->y0 - 10, "head", "start", "Probe latency over time (log scale)");
	plot_phase_bands(f, sum, &x, SEC, b, true);
	svg_lin_ticks(f, lay, &x, xs, b, true);
	svg_axis_titles(f, b, "latency", "seconds since start");
	if (sum->analysis && sum->analysis->slowed)
		plot_slowdown_line(f, svg_axis_px(&x, (double)sum->analysis->slowdown_ns / SEC), b);
	if (!sum->nprobes) {
		plot_panel_note(f, lay, b, "no probes (--no-probe)");
		svg_frame(f, b);
		return;
	}
	if (!plot_any_latency(sum))
		plot_panel_note(f, lay, b, "no probe completed");
	bottom_legend(f, sum, b->y0 - 10);
	svg_log_ticks(f, lay, &y, b);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		stall_bars(f, &sum->probes[j], &x, &y, b, true);
	stall_threshold(f, lay, run, &y, b);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		latency_line(f, sum, j, true, &x, &y);
	if (device_traced(sum))
		device_line(f, sum, &x, &y);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		stall_bars(f, &sum->probes[j], &x, &y, b, false);
	for (unsigned int j = 0; j < sum->nprobes; j++)
		latency_line(f, sum, j, false, &x, &y);
	svg_frame(f, b);
}

static void svg_summary(struct sink *s, const struct ws_run *run,
			const struct ws_summary *sum)
{
	FILE *f = s->out;
	struct svg_layout lay = { .n = 0 };
	char path[256], title[300];

	snprintf(title, sizeof(title), "writestress — %s",
		 svg_tail_of(path, sizeof(path), run->target.path, 72));
	svg_begin(f, SVG_W, SVG_H, title, NULL);
	draw_titles(f, run, sum);
	plot_draw_throughput(f, &lay, sum);
	plot_draw_latency(f, &lay, run, sum);
	draw_footer(f, run);
	svg_end(f);
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
