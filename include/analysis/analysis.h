/* analysis.h - naming what happened: phases of near-constant throughput
 * over bytes written, the slowdown point, and steady state.
 *
 * One pipeline, analysis_run(): the recorder feeds it the run's series
 * and sinks print what it returns; the unit tests call the same function
 * on synthetic series (tests/unit/analysis/test_analysis.c).  The steps
 * it is made of (phases.c: phases and the slowdown point) are exported
 * below for their own table tests, but nothing outside analysis.c
 * strings them together.
 *
 * Pure functions over points (series.h); no threads, no I/O, no global
 * state, so any thread may call them on points it alone reads.  They
 * read a point's mibps, bytes, dbytes, t_ns and dt_ns only.  A point's
 * span starts at bytes - dbytes and t_ns - dt_ns; the positions reported
 * below are such starts or ends.
 */
#ifndef WS_ANALYSIS_H
#define WS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"
#include "analysis/series.h"

/* The types it fills (phases, rounds, windows, stretches, the steady
 * state, the analysis and its parameters) are the record's: record.h. */

/* What the pipeline reads: the progress marks, spans between bytes known
 * on disk at buffer ends (series.h points; a bounded series may have
 * merged neighbours). */
struct ws_analysis_input {
	const struct ws_point *marks;
	size_t nmarks;
	/* steady state is judged over the writing only, up to the last mark
	 * taken while writing: the final wait for the disk, when the run
	 * has one, is not a round of throughput */
	uint64_t writing_ns;
	uint64_t elapsed_ns;		/* the run's length */
	/* what the run wrote when its clock stopped: the phases tile the run
	 * to (end_bytes, elapsed_ns), the stretch after the last mark (whose
	 * own time window pacing cannot know) in the last phase */
	uint64_t end_bytes;
	bool steady_only;		/* the live --until-steady check */
	/* the traced device's writes round by round (dev_traced), rounds
	 * of the params' round_ns from the same start as the marks; a
	 * round past ndev_rounds had none */
	bool dev_traced;
	const struct ws_round_device *dev_rounds;
	size_t ndev_rounds;
};

void analysis_defaults(struct ws_analysis_params *p);

/*
 * The pipeline.  Phases: spans that wrote nothing are merged into their
 * neighbours (analysis_compact), the marks are segmented
 * (analysis_phases), phases shorter than min_phase_intervals intervals or
 * 1% of the run join a neighbour (analysis_merge_short), neighbours
 * within merge_similar_pct merge (analysis_merge_similar), then the
 * slowdown point (analysis_slowdown).  Steady state: steady_judge on
 * the intervals.  With steady_only, only the latter.
 *
 * *out is fully written; 0, or -ENOMEM when working memory could not be
 * had (then nothing was found, and out says so).  Call
 * analysis_release(out) when done, whatever it returned.
 */
int analysis_run(const struct ws_analysis_input *in,
		 const struct ws_analysis_params *p, struct ws_analysis *out);
void analysis_release(struct ws_analysis *a);

/* ---- the steps ---- */

/* Spans in which nothing was written (the final wait for the disk, a
 * writer stuck in the kernel) have no width on the bytes axis: their time
 * goes to the neighbouring span, so they slow it down, as they did, but
 * never make a phase of their own.  Returns the points kept in out
 * (which may not overlap in). */
size_t analysis_compact(const struct ws_point *in, size_t n,
			struct ws_point *out);

/*
 * Segment pts[0..n) into at most `max` phases of near-constant rate,
 * written to out[0..max); returns how many (0 if n or max is 0, or if
 * the working arrays, about 64 bytes a point, cannot be allocated).
 * The phases tile the series in order; each one's rate is the 20%
 * trimmed mean of its points' mibps (the median for three points).
 *
 * A phase lasts at least 3 points (unless the series is shorter), and
 * neighbouring phases' rates differ by at least 10% of the faster one's
 * and by 4 standard errors of the noise, which is estimated from the
 * series itself (the median relative step between neighbouring points,
 * floored at 1%).  So +-5% jitter and single- or two-point spikes make no
 * phase; a lasting change of 20% or more does, located to within one or
 * two points; a change near 10% may or may not, as noise puts the two
 * rates on either side of the line; a slow ramp becomes a staircase of a
 * few phases in order (test_analysis.c's test_ramp: 2 to 6 from 100 to 50).
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

/* The last phase runs to where the run ended, (end_bytes, end_ns), at its
 * bytes over its time: the stretch after the last progress mark (the final
 * wait, the buffers window pacing had not yet seen on disk) belongs to it,
 * so the phases add up to the run's bytes and time, and a one-phase run's
 * rate is the run's.  Merged into the phase before when that makes the two
 * less than pct % apart.  Returns the number of phases. */
unsigned int analysis_extend_to_end(struct ws_phase *ph, unsigned int n,
				    uint64_t end_bytes, uint64_t end_ns,
				    double pct);

#endif
