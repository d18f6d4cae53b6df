/* analysis.h - naming what happened: phases of near-constant throughput
 * over bytes written, the slowdown point, and steady state.
 *
 * One pipeline, analysis_run(): the reporter feeds it the run's series
 * and sinks print what it returns; the unit tests call the same function
 * on synthetic series (tests/unit/test_analysis.c).  The steps it is made
 * of are exported below for their own table tests, but nothing outside
 * analysis.c strings them together.
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

#include "series.h"

#define WS_MAX_PHASES 8

struct ws_phase {
	uint64_t from_bytes, to_bytes;	/* written at its start and end */
	uint64_t from_ns, to_ns;	/* time since the writer started */
	double mibps;			/* its bytes over its time */
	size_t first, last;		/* point indices, inclusive */
};

/* How a window of rounds is judged steady. */
enum ws_steady_criterion {
	/* SNIA PTS: the rounds' range (max - min) is at most limit_pct % of
	 * the window's average, and the least-squares line's excursion
	 * across the window, |slope| x (window - 1), at most slope_pct %. */
	WS_STEADY_SNIA,
	/* fio ss=bw_slope:L%: |slope| per round under limit_pct % of the
	 * window's average. */
	WS_STEADY_BW_SLOPE,
	/* fio ss=bw:L%: the largest |round - average| under limit_pct % of
	 * the average. */
	WS_STEADY_BW_DEV,
	WS_STEADY_NR
};

struct ws_analysis_params {
	/* phases */
	uint64_t interval_ns;		/* the reporting interval */
	unsigned int min_phase_intervals; /* a phase lasts at least this many
					   intervals (and 1% of the run): 2 */
	double merge_similar_pct;	/* neighbours closer than this are one
					   phase to a reader: 15 */
	double slowdown_fraction;	/* "slowed": lastingly below this
					   share of the initial rate: 0.8 */
	/* steady state */
	enum ws_steady_criterion criterion;
	double limit_pct;		/* SNIA range 20; fio's limit */
	double slope_pct;		/* SNIA slope excursion 10 */
	unsigned int steady_window;	/* rounds a window (5) */
	uint64_t round_ns;		/* a round: whole intervals (10 s) */
	uint64_t precondition_bytes;	/* windows that start before this much
					   was written are not judged */
};

/* One round: round_ns of the run, from the progress marks. */
struct ws_round {
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;			/* its bytes over its time */
};

enum ws_window_verdict {
	WS_WINDOW_PRECONDITION,		/* starts before precondition_bytes */
	WS_WINDOW_STEADY,
	WS_WINDOW_UNSTEADY,
};

/* The window of rounds [first, first + window).  Every figure is a % of
 * the window's average; the criterion decides which ones count. */
struct ws_window {
	unsigned int first;
	enum ws_window_verdict verdict;
	double mibps;			/* average of its rounds' rates */
	double range_pct;		/* (max - min) */
	double excursion_pct;		/* |slope| x (window - 1): SNIA */
	double slope_pct;		/* |slope| per round: fio */
	double dev_pct;			/* max |round - average|: fio */
};

/* Consecutive rounds in which every window held. */
struct ws_stretch {
	unsigned int first_round, last_round;	/* inclusive */
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;			/* its bytes over its time */
	/* the worst of its windows, each in % of its window's average */
	double range_pct, excursion_pct, slope_pct, dev_pct;
};

struct ws_steady {
	bool judged;		/* at least one window after preconditioning */
	bool reached;		/* the last window holds: steady at the end */
	/* reached: from round X to the end, X the earliest round from which
	 * every window holds; established at the end of its first window */
	struct ws_stretch final;
	uint64_t at_bytes, at_ns;
	/* the latest stretch that held and then changed (before `final`
	 * when reached) */
	bool earlier;
	struct ws_stretch before;

	unsigned int nrounds;		/* complete rounds */
	unsigned int judged_from;	/* the first round a judged window may
					   start at (== nrounds: none) */
	unsigned int judged_rounds;	/* rounds from judged_from on */
	uint64_t round_ns;		/* a round's length */
	/* per round and per window, freed by analysis_release() */
	struct ws_round *rounds;
	struct ws_window *windows;
	size_t nwindows;
};

struct ws_analysis {
	struct ws_analysis_params params;	/* what it was judged by */
	unsigned int nphases;
	struct ws_phase phases[WS_MAX_PHASES];
	double initial_mibps;		/* the first phase's rate */
	bool slowed;
	uint64_t slowdown_bytes, slowdown_ns;
	struct ws_steady steady;
};

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
	bool steady_only;		/* the live --until-steady check */
};

void analysis_defaults(struct ws_analysis_params *p);

/*
 * The pipeline.  Phases: spans that wrote nothing are merged into their
 * neighbours (analysis_compact), the marks are segmented
 * (analysis_phases), phases shorter than min_phase_intervals intervals or
 * 1% of the run join a neighbour (analysis_merge_short), neighbours
 * within merge_similar_pct merge (analysis_merge_similar), then the
 * slowdown point (analysis_slowdown).  Steady state: analysis_steady on
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
 * few phases about 10-15% apart.
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

/*
 * Steady state over rounds of round_ns of the run, from the progress
 * marks pts[0..n) up to until_ns (or their end): a round's rate is the
 * bytes known on disk at its end minus at its start, each read off the
 * marks linearly between two of them, over round_ns.  So a round is what
 * reached the disk, free of the buffer quantisation of per-interval
 * counts of write().  A trailing partial round is not counted.
 *
 * Every window of steady_window consecutive rounds, one round apart, is
 * measured (struct ws_window) and judged by the criterion, unless its
 * first round starts before precondition_bytes.  The verdict describes
 * the end of the run: reached only if the last window holds, and then
 * `final` runs from the earliest round X from which every window holds
 * to the last round.  The latest stretch that held at a rate at least
 * merge_similar_pct from the final one (or any, when the end is not
 * steady) is `before`.  judged is false when no window could be judged
 * (a run shorter than a window after preconditioning).  Windows of fewer
 * than 2 rounds never hold.  0 or -ENOMEM; *out is fully written either
 * way.
 */
int analysis_steady(const struct ws_point *pts, size_t n, uint64_t until_ns,
		    const struct ws_analysis_params *p, struct ws_steady *out);

/* Whether one window's figures hold under p's criterion. */
bool analysis_window_holds(const struct ws_window *w,
			   const struct ws_analysis_params *p);

/* "snia", "bw-slope", "bw-dev" (as --steady-criterion spells them). */
const char *analysis_criterion_name(enum ws_steady_criterion c);
/* The rule in words, from p: "SNIA: range ≤ 20%, slope excursion ≤ 10%",
 * "fio bw-slope: |slope| < 0.5% a round", "fio bw-dev: every round within
 * 5%".  Returns buf. */
char *analysis_describe_criterion(const struct ws_analysis_params *p,
				  char *buf, size_t len);
/* What a stretch measured under p's rule: "range 6%, slope excursion
 * 2%", "|slope| 0.2% a round", "deviation 3%" (its worst window).
 * Returns buf. */
char *analysis_describe_figures(const struct ws_analysis_params *p,
				const struct ws_stretch *s, char *buf,
				size_t len);
/* Parse "snia", "bw-slope:PCT" or "bw-dev:PCT" (PCT may end in %) into
 * p's criterion and limits.  0 or -EINVAL. */
int analysis_parse_criterion(const char *s, struct ws_analysis_params *p);

#endif
