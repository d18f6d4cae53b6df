/* sink_svg_data.c - what the SVG's panels read off the record (sink_svg.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "sink_svg.h"

size_t plot_npoints(const struct ws_summary *sum)
{
	return sum->series ? sum->series->n : 0;
}

/* Progress marks, unquantised by interval, when there are any. */
const struct ws_series *plot_top_series(const struct ws_summary *sum)
{
	return sum->progress && sum->progress->n ? sum->progress : sum->series;
}

size_t plot_ntop(const struct ws_summary *sum)
{
	return plot_top_series(sum) ? plot_top_series(sum)->n : 0;
}

unsigned int plot_nphases(const struct ws_summary *sum)
{
	if (!sum->analysis)
		return 0;
	return sum->analysis->nphases < WS_MAX_PHASES ? sum->analysis->nphases
						      : WS_MAX_PHASES;
}

double plot_max_d(double a, double b)
{
	return b > a ? b : a;
}

double plot_mid_bytes(const struct ws_point *p)
{
	return (double)p->bytes - (double)p->dbytes / 2;
}

double plot_mid_seconds(const struct ws_point *p)
{
	return ((double)p->t_ns - (double)p->dt_ns / 2) / SEC;
}

double plot_finite_or_0(double v)
{
	return isfinite(v) ? v : 0;
}

double plot_max_bytes(const struct ws_summary *sum)
{
	double m = (double)sum->bytes;
	size_t n = plot_ntop(sum);

	if (n)
		m = plot_max_d(m, (double)plot_top_series(sum)->pts[n - 1].bytes);
	for (unsigned int i = 0; i < plot_nphases(sum); i++)
		m = plot_max_d(m, (double)sum->analysis->phases[i].to_bytes);
	return m;
}

double plot_max_mibps(const struct ws_summary *sum)
{
	double m = 0;

	for (size_t i = 0; i < plot_ntop(sum); i++)
		m = plot_max_d(m, plot_finite_or_0(plot_top_series(sum)->pts[i].mibps));
	for (unsigned int k = 0; k < sum->ntargets; k++)
		for (size_t i = 0; i < plot_ntop(&sum->targets[k]); i++)
			m = plot_max_d(m, plot_finite_or_0(plot_top_series(&sum->targets[k])->pts[i].mibps));
	for (unsigned int i = 0; i < plot_nphases(sum); i++)
		m = plot_max_d(m, plot_finite_or_0(sum->analysis->phases[i].mibps));
	if (sum->analysis && sum->analysis->steady.reached)
		m = plot_max_d(m, plot_finite_or_0(sum->analysis->steady.final.mibps));
	if (sum->analysis && sum->analysis->steady.earlier)
		m = plot_max_d(m, plot_finite_or_0(sum->analysis->steady.before.mibps));
	return m;
}

double plot_max_seconds(const struct ws_summary *sum)
{
	double m = (double)sum->elapsed_ns;
	size_t n = plot_npoints(sum);

	if (n)
		m = plot_max_d(m, (double)sum->series->pts[n - 1].t_ns);
	for (unsigned int i = 0; i < sum->nprobes; i++)
		for (unsigned int k = 0; k < sum->probes[i].nrecorded; k++)
			m = plot_max_d(m, (double)sum->probes[i].stalls[k].start_ns +
					     (double)sum->probes[i].stalls[k].duration_ns);
	return m / SEC;
}

double plot_device_write_ns(const struct ws_point *p)
{
	return p->dev_writes ? (double)p->dev_write_service_ns / (double)p->dev_writes : 0;
}

/* The stall threshold itself counts too. */
double plot_max_latency(const struct ws_run *run, const struct ws_summary *sum)
{
	double m = (double)run->set.stall_ns;

	for (size_t i = 0; i < plot_npoints(sum); i++)
		m = plot_max_d(m, plot_device_write_ns(&sum->series->pts[i]));

	for (size_t i = 0; i < plot_npoints(sum); i++)
		for (unsigned int j = 0; j < sum->nprobes && j < WS_SERIES_PROBES; j++)
			m = plot_max_d(m, plot_max_d((double)sum->series->pts[i].probe_max[j],
					   (double)sum->series->pts[i].probe_p99[j]));
	for (unsigned int j = 0; j < sum->nprobes; j++) {
		m = plot_max_d(m, (double)sum->probes[j].longest.duration_ns);
		for (unsigned int k = 0; k < sum->probes[j].nrecorded; k++)
			m = plot_max_d(m, (double)sum->probes[j].stalls[k].duration_ns);
	}
	return m;
}

/* 0: none. */
double plot_min_latency(const struct ws_summary *sum)
{
	double m = INFINITY;

	for (size_t i = 0; i < plot_npoints(sum); i++) {
		for (unsigned int j = 0; j < sum->nprobes && j < WS_SERIES_PROBES; j++)
			if (sum->series->pts[i].probe_p99[j])
				m = fmin(m, (double)sum->series->pts[i].probe_p99[j]);
		if (sum->series->pts[i].dev_writes)
			m = fmin(m, plot_device_write_ns(&sum->series->pts[i]));
	}
	return isfinite(m) ? m : 0;
}

bool plot_any_latency(const struct ws_summary *sum)
{
	for (unsigned int j = 0; j < sum->nprobes; j++) {
		if (sum->probes[j].nrecorded)
			return true;
		for (size_t i = 0; j < WS_SERIES_PROBES && i < plot_npoints(sum); i++)
			if (sum->series->pts[i].probe_max[j] || sum->series->pts[i].probe_p99[j])
				return true;
	}
	return false;
}

/* Best first: each of xs on row y, then on y2, then rows further out,
 * from y the way dir says (-1 up) and from y2 the other. */
int plot_spots_near(struct svg_spot *out, const struct svg_spot *xs, int nx,
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
void plot_panel_note(FILE *f, struct svg_layout *lay, const struct svg_box *b,
		     const char *text)
{
	struct svg_spot at = { (b->x0 + b->x1) / 2, (b->y0 + b->y1) / 2, "middle" };
	struct svg_box box = svg_text_box(&at, NOTE_PX, text);

	svg_layout_take(lay, &box);
	svg_text(f, at.x, at.y, "note", at.anchor, "%s", text);
}
