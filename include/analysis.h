/* analysis.h - naming what happened: phases of near-constant throughput
 * over bytes written, the slowdown point, and steady state.
 *
 * Pure functions over a series (series.h); no threads, no I/O, no global
 * state, so any thread may call them on a series it alone reads, and
 * every rule is tested on synthetic series with known answers
 * (tests/unit/test_analysis.c).  They read pts[i].mibps, bytes, dbytes,
 * t_ns and dt_ns only.  A point's span starts at bytes - dbytes and
 * t_ns - dt_ns; the positions reported below are such starts or ends.
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

/*
 * Segment pts[0..n) into at most `max` phases of near-constant rate,
 * written to out[0..max); returns how many (0 if n or max is 0, or if
 * the working arrays, about 64 bytes a point, cannot be allocated).
 * The phases tile the series in order; each one's rate is the 20%
 * trimmed mean of its points' mibps (the median for three points).
 *
 * A phase lasts at least 3 points (unless the series is shorter), and neighbouring phases' rates differ
 * by at least 10% of the faster one's and by 4 standard errors of the
 * noise, which is estimated from the series itself (the median relative
 * step between neighbouring points, floored at 1%).  So +-5% jitter and
 * single- or two-point spikes make no phase; a lasting change of 20% or
 * more does, located to within one or two points; a change near 10% may
 * or may not, as noise puts the two rates on either side of the line; a
 * slow ramp becomes a staircase of a few phases about 10-15% apart.
 *
 * Method: binary segmentation of the 5-point-median-filtered rates on
 * their means, splitting while the split is significant (generous on
 * purpose); then neighbours are merged, the least different pair first,
 * until every boundary passes both tests above and at most `max` phases
 * remain, so a cap keeps the most significant boundaries; each boundary
 * is then moved, by up to 3 points, to where the points fit the two
 * rates best in least absolute deviation.  About n log n steps for
 * ordinary series; the worst 8192-point series tried (a new level every
 * 3 points) takes 0.1 s.
 */
unsigned int analysis_phases(const struct ws_point *pts, size_t n,
			     struct ws_phase *out, unsigned int max);

/*
 * The slowdown point: where throughput first fell lastingly below
 * fraction x the initial rate, phases[0].mibps.  phases[] is what
 * analysis_phases() gave for the same points.
 *
 * "Lastingly" is phase-wise: the point is the start of the first phase
 * from which every later phase's rate is below the threshold too (a dip
 * that recovers is not a slowdown; a later lasting fall is).  A ramp
 * crosses the threshold inside the phase before that one, so the point
 * then moves back over that phase's points as long as each is below the
 * threshold and so is the median of the 5 points from it (a single low
 * spike does not pull it back).  "Below" is strict.
 *
 * True with the start of that point's span in *at_bytes and *at_ns;
 * false, leaving them alone, if there are fewer than two phases or the
 * run never slowed lastingly.
 */
bool analysis_slowdown(const struct ws_point *pts, size_t n,
		       const struct ws_phase *phases, unsigned int nphases,
		       double fraction, uint64_t *at_bytes, uint64_t *at_ns);

/*
 * SNIA PTS steady state over rounds: round r is points [r x round_points,
 * (r + 1) x round_points) (0 counts as 1), its rate their bytes over
 * their time in MiB/s; a trailing partial round is not counted.  Windows
 * of p->steady_window consecutive rounds are tried one round apart, and
 * the first in which
 *   every round is within steady_dev_pct % of the window's average, and
 *   the least-squares line's excursion across it, |slope| x (window - 1)
 *   with the slope in MiB/s per round, is within steady_excursion_pct %
 *   of that average
 * is the steady state (both bounds inclusive).  *out is always written:
 * reached, and if so the end of the window's last round (the bytes and
 * time at the end of its last point), the average, the worst round's
 * deviation and the excursion in % of the average; window is
 * p->steady_window either way.  Windows of fewer than 2 rounds never
 * hold.
 */
bool analysis_steady(const struct ws_point *pts, size_t n,
		     const struct ws_analysis_params *p, struct ws_steady *out);

/* Merge every phase shorter than min_ns into its neighbour of closer
 * rate (a burst of a few buffers is not a phase a person cares about).
 * Returns the new count; rates are left for analysis_phase_rates. */
unsigned int analysis_merge_short(struct ws_phase *ph, unsigned int n,
				  uint64_t min_ns);

/* Set each phase's rate to its bytes over its time: the rate it really
 * ran at, consistent with its range (the segmentation's own robust
 * estimate is for finding boundaries, not for reporting). */
void analysis_phase_rates(const struct ws_point *pts, struct ws_phase *ph,
			  unsigned int n);

/* With rates as bytes over time, merge neighbours that differ by less
 * than pct % (of the faster): the segmentation separates at 10% on its
 * robust estimates, but a report of "68.8 then 61.8 MiB/s" is noise to a
 * reader; a change of 20% or more always stays.  Returns the new count;
 * rates are set. */
unsigned int analysis_merge_similar(const struct ws_point *pts,
				    struct ws_phase *ph, unsigned int n,
				    double pct);

/* All of the above: at most WS_MAX_PHASES phases, initial_mibps the first
 * one's rate (0 with none), the slowdown point at p->slowdown_fraction,
 * and steady state; *out is fully written. */
void analysis_run(const struct ws_point *pts, size_t n,
		  const struct ws_analysis_params *p, struct ws_analysis *out);

#endif
