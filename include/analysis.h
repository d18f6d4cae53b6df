/* analysis.h - naming what happened: phases of near-constant throughput
 * over bytes written, the slowdown point, and steady state.
 *
 * Pure functions over a series (series.h); no threads, no I/O, so every
 * rule is tested on synthetic series with known answers.
 */
#ifndef WS_ANALYSIS_H
#define WS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "series.h"

#define WS_MAX_PHASES 8

struct ws_phase {
	uint64_t from_bytes, to_bytes;	/* written at its start and end */
	uint64_t from_ns, to_ns;	/* time since the writer started */
	double mibps;			/* its representative rate */
	size_t first, last;		/* point indices, inclusive */
};

struct ws_steady {
	bool reached;
	uint64_t at_bytes, at_ns;	/* the end of the first window that held */
	double mibps;			/* the window's average */
	double max_dev_pct;		/* worst round's distance from it, % */
	double excursion_pct;		/* least-squares line's excursion, % */
	unsigned int window;		/* rounds per window */
};

struct ws_analysis_params {
	double slowdown_fraction;	/* "slowed": below this share of the
					   initial rate, lastingly (default 0.8) */
	unsigned int steady_window;	/* rounds (default 5) */
	unsigned int round_points;	/* points per steady-state round */
	double steady_dev_pct;		/* SNIA: 20 */
	double steady_excursion_pct;	/* SNIA: 10 */
};

struct ws_analysis {
	unsigned int nphases;
	struct ws_phase phases[WS_MAX_PHASES];
	double initial_mibps;		/* the first phase's rate */
	bool slowed;
	uint64_t slowdown_bytes, slowdown_ns;
	struct ws_steady steady;
};

void analysis_defaults(struct ws_analysis_params *p);

/* Segment pts[0..n) into at most `max` phases of near-constant rate.
 * Small noise creates no phase; a lasting change of 20% or more does,
 * located to within one or two points.  Returns the number of phases
 * (0 if n == 0). */
unsigned int analysis_phases(const struct ws_point *pts, size_t n,
			     struct ws_phase *out, unsigned int max);

/* The first point from which throughput stays below fraction x the
 * initial rate (the first phase's).  False if it never does lastingly. */
bool analysis_slowdown(const struct ws_point *pts, size_t n,
		       const struct ws_phase *phases, unsigned int nphases,
		       double fraction, uint64_t *at_bytes, uint64_t *at_ns);

/* SNIA PTS steady state over rounds (each round_points points): the first
 * window of `window` consecutive rounds in which every round is within
 * dev_pct of the window's average and the least-squares line's excursion
 * across the window (slope x (window - 1)) is within excursion_pct of it. */
bool analysis_steady(const struct ws_point *pts, size_t n,
		     const struct ws_analysis_params *p, struct ws_steady *out);

/* All of the above. */
void analysis_run(const struct ws_point *pts, size_t n,
		  const struct ws_analysis_params *p, struct ws_analysis *out);

#endif
