/* sink_svg.h - the SVG sink's own: what both panels read off the record.
 * Recorder thread. */
#ifndef WS_SINK_SVG_H
#define WS_SINK_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/svgplot.h"
#include "record/record.h"

#define SVG_W 1200
#define SVG_H 700
#define SEC 1e9			/* ns a second */
#define DOTS_BELOW 60		/* fewer points than this are also dotted */
#define LABEL_PX 12.0		/* the font sizes of .lbl and .note (svgplot.c) */
#define NOTE_PX 14.0
#define ROW_PX 15.0		/* a label moved off its row moves by this */
#define ROWS 8			/* ... this many times each way */
#define SPOTS_MAX (2 * ROWS * 3)

size_t plot_npoints(const struct ws_summary *sum);
const struct ws_series *plot_top_series(const struct ws_summary *sum);
size_t plot_ntop(const struct ws_summary *sum);
unsigned int plot_nphases(const struct ws_summary *sum);
double plot_max_d(double a, double b);
double plot_mid_bytes(const struct ws_point *p);
double plot_mid_seconds(const struct ws_point *p);
double plot_finite_or_0(double v);
double plot_max_bytes(const struct ws_summary *sum);
double plot_max_mibps(const struct ws_summary *sum);
double plot_max_seconds(const struct ws_summary *sum);
/* 0: no device write traced in it. */
double plot_device_write_ns(const struct ws_point *p);
double plot_max_latency(const struct ws_run *run, const struct ws_summary *sum);
double plot_min_latency(const struct ws_summary *sum);
bool plot_any_latency(const struct ws_summary *sum);

int plot_spots_near(struct svg_spot *out, const struct svg_spot *xs, int nx,
		    double y, double dir, double y2);
void plot_panel_note(FILE *f, struct svg_layout *lay, const struct svg_box *b,
		     const char *text);

/* per: bytes or ns to a unit of x. */
void plot_phase_bands(FILE *f, const struct ws_summary *sum,
		      const struct svg_axis *x, double per,
		      const struct svg_box *b, bool by_time);
void plot_slowdown_line(FILE *f, double p, const struct svg_box *b);
void plot_draw_throughput(FILE *f, struct svg_layout *lay,
			  const struct ws_summary *sum);
void plot_draw_latency(FILE *f, struct svg_layout *lay, const struct ws_run *run,
		       const struct ws_summary *sum);

#endif
