/* sink_json_analysis.c - the result's "analysis" (see sink_json.h). */
#include "lib/jsonw.h"
#include "record/record.h"
#include "sink_json.h"

static void put_series(struct jsonw *w, const char *key, const char *stride,
		       const struct ws_series *s)
{
	jsonw_object(w, key);
	jsonw_u64(w, stride, s->stride);
	jsonw_array(w, "columns");
	jsonw_str(w, NULL, "t_s");
	jsonw_str(w, NULL, "bytes");
	jsonw_str(w, NULL, "mibps");
	jsonw_end(w);
	jsonw_array(w, "points");
	for (size_t i = 0; i < s->n; i++) {
		jsonw_array(w, NULL);
		jsonw_seconds(w, NULL, s->pts[i].t_ns);
		jsonw_u64(w, NULL, s->pts[i].bytes);
		jsonw_double(w, NULL, s->pts[i].mibps);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

/* The members every span has. */
static void put_span(struct jsonw *w, uint64_t from_bytes, uint64_t to_bytes,
		     uint64_t from_ns, uint64_t to_ns, double mibps)
{
	jsonw_u64(w, "from_bytes", from_bytes);
	jsonw_u64(w, "to_bytes", to_bytes);
	jsonw_seconds(w, "from_s", from_ns);
	jsonw_seconds(w, "to_s", to_ns);
	jsonw_double(w, "mibps", mibps);
}

/* [lo, hi] in ms */
static void put_ms_range(struct jsonw *w, const char *key, uint64_t lo, uint64_t hi)
{
	jsonw_array(w, key);
	jsonw_ms(w, NULL, lo);
	jsonw_ms(w, NULL, hi);
	jsonw_end(w);
}

/* The ranges of the rounds' p50s and p99s; null where no write completed. */
static void put_stretch_device(struct jsonw *w, bool traced, const struct ws_stretch *st)
{
	if (!traced || !st->dev_rounds) {
		jsonw_null(w, "device_write");
		return;
	}
	jsonw_object(w, "device_write");
	jsonw_u64(w, "rounds", st->dev_rounds);
	put_ms_range(w, "p50_ms", st->dev_p50_lo_ns, st->dev_p50_hi_ns);
	put_ms_range(w, "p99_ms", st->dev_p99_lo_ns, st->dev_p99_hi_ns);
	jsonw_end(w);
}

static void put_stretch_figures(struct jsonw *w, bool traced, const struct ws_stretch *st)
{
	put_span(w, st->from_bytes, st->to_bytes, st->from_ns, st->to_ns, st->mibps);
	jsonw_double(w, "range_pct", st->range_pct);
	jsonw_double(w, "excursion_pct", st->excursion_pct);
	jsonw_double(w, "slope_pct", st->slope_pct);
	jsonw_double(w, "dev_pct", st->dev_pct);
	put_stretch_device(w, traced, st);
}

/* Null when not traced; the times null too when none completed. */
static void put_round_device(struct jsonw *w, bool traced, const struct ws_round_device *d)
{
	if (!traced) {
		jsonw_null(w, "device_writes");
		jsonw_null(w, "device_write_p50_ms");
		jsonw_null(w, "device_write_p99_ms");
		return;
	}
	jsonw_u64(w, "device_writes", d->writes);
	if (d->writes) {
		jsonw_ms(w, "device_write_p50_ms", d->p50_ns);
		jsonw_ms(w, "device_write_p99_ms", d->p99_ns);
	} else {
		jsonw_null(w, "device_write_p50_ms");
		jsonw_null(w, "device_write_p99_ms");
	}
}

static const char *const window_verdicts[] = {
	[WS_WINDOW_PRECONDITION] = "precondition",
	[WS_WINDOW_STEADY] = "steady",
	[WS_WINDOW_UNSTEADY] = "unsteady",
};

/* Every window, so a plot can show how the verdict came about. */
static void put_rounds_and_windows(struct jsonw *w, const struct ws_steady *st)
{
	jsonw_array(w, "rounds");
	for (unsigned int r = 0; st->rounds && r < st->nrounds; r++) {
		const struct ws_round *rd = &st->rounds[r];

		jsonw_object(w, NULL);
		put_span(w, rd->from_bytes, rd->to_bytes, rd->from_ns, rd->to_ns,
			 rd->mibps);
		put_round_device(w, st->has_dev, &rd->dev);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_array(w, "windows");
	for (size_t i = 0; st->windows && i < st->nwindows; i++) {
		const struct ws_window *win = &st->windows[i];

		jsonw_object(w, NULL);
		jsonw_u64(w, "first_round", win->first);
		jsonw_str(w, "verdict", window_verdicts[win->verdict]);
		jsonw_double(w, "mibps", win->mibps);
		jsonw_double(w, "range_pct", win->range_pct);
		jsonw_double(w, "excursion_pct", win->excursion_pct);
		jsonw_double(w, "slope_pct", win->slope_pct);
		jsonw_double(w, "dev_pct", win->dev_pct);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void put_steady(struct jsonw *w, const struct ws_run *run,
		       const struct ws_analysis *a)
{
	const struct ws_steady *st = &a->steady;
	const struct ws_analysis_params *p = &a->params;

	jsonw_object(w, "steady");
	jsonw_str(w, "criterion", run->criterion_key);
	jsonw_double(w, "limit_pct", p->limit_pct);
	if (p->criterion == WS_STEADY_SNIA)
		jsonw_double(w, "slope_limit_pct", p->slope_pct);
	else
		jsonw_null(w, "slope_limit_pct");
	jsonw_u64(w, "window_rounds", p->steady_window);
	jsonw_seconds(w, "round_s", st->round_ns ? st->round_ns : p->round_ns);
	jsonw_u64(w, "precondition_bytes", p->precondition_bytes);
	jsonw_bool(w, "judged", st->judged);
	jsonw_bool(w, "reached", st->reached);
	if (st->reached) {
		put_stretch_figures(w, st->has_dev, &st->final);
		jsonw_u64(w, "at_bytes", st->at_bytes);
		jsonw_seconds(w, "at_s", st->at_ns);
	}
	if (st->earlier) {
		jsonw_object(w, "earlier");
		put_stretch_figures(w, st->has_dev, &st->before);
		jsonw_end(w);
	} else {
		jsonw_null(w, "earlier");
	}
	jsonw_u64(w, "judged_rounds", st->judged_rounds);
	put_rounds_and_windows(w, st);
	jsonw_end(w);
}

void json_put_analysis(struct jsonw *w, const struct ws_run *run,
		       const struct ws_summary *sum)
{
	const struct ws_analysis *a = sum->analysis;

	put_series(w, "series", "stride_intervals", sum->series);
	put_series(w, "progress", "stride_marks", sum->progress);

	jsonw_object(w, "by_bytes");
	jsonw_u64(w, "cell_bytes", sum->cell_bytes);
	jsonw_array(w, "cells");
	for (size_t i = 0; i < sum->ncells; i++) {
		jsonw_object(w, NULL);
		jsonw_u64(w, "from_bytes", sum->cells[i].from_bytes);
		jsonw_u64(w, "to_bytes", sum->cells[i].to_bytes);
		jsonw_double(w, "mibps", sum->cells[i].mibps);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);

	jsonw_array(w, "phases");
	for (unsigned int i = 0; i < a->nphases; i++) {
		const struct ws_phase *ph = &a->phases[i];

		jsonw_object(w, NULL);
		put_span(w, ph->from_bytes, ph->to_bytes, ph->from_ns, ph->to_ns,
			 ph->mibps);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_object(w, "phases_judged");
	jsonw_str(w, "verdict", ws_phases_verdict_key(a->phases_verdict));
	jsonw_double(w, "intervals", a->params.interval_ns ?
		     (double)a->phases_run_ns / (double)a->params.interval_ns : 0.0);
	jsonw_u64(w, "spans", a->phases_spans);
	jsonw_u64(w, "min_intervals", WS_PHASES_MIN_INTERVALS);
	jsonw_u64(w, "min_spans", WS_PHASES_MIN_SPANS);
	jsonw_end(w);
	jsonw_double(w, "initial_mibps", a->initial_mibps);
	if (a->slowed) {
		jsonw_object(w, "slowdown");
		jsonw_u64(w, "at_bytes", a->slowdown_bytes);
		jsonw_seconds(w, "at_s", a->slowdown_ns);
		jsonw_end(w);
	} else {
		jsonw_null(w, "slowdown");
	}
	put_steady(w, run, a);
}
