/* record/phases.h - what the analysis (analysis.h) judged, and by what. */
#ifndef WS_RECORD_PHASES_H
#define WS_RECORD_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_MAX_PHASES 8

/* Times are since the writer started.  A phase's rate is its bytes over
 * its time, so it lies within its spans' rates. */
struct ws_phase {
	uint64_t from_bytes, to_bytes;
	uint64_t from_ns, to_ns;
	double mibps;
	size_t first, last;		/* spans, inclusive */
};

/* The phases' rules (man page, "Phases"), the rules' own figures: a
 * change of more than WS_PHASE_CHANGE_X in rate that lasts at least
 * 1/WS_PHASE_LASTING_PART of the run, from a level (an interval long, or
 * 1/WS_PHASE_LASTING_PART of the run's bytes), is a phase; a run shorter than
 * WS_PHASES_MIN_INTERVALS reporting intervals is too short to judge (a
 * third of it would be shorter than the two intervals a phase lasts),
 * and so is one of fewer than WS_PHASES_MIN_SPANS spans of progress (no
 * change can be seen in one). */
#define WS_PHASE_CHANGE_X 2
#define WS_PHASE_LASTING_PART 3
#define WS_PHASES_MIN_INTERVALS 6
#define WS_PHASES_MIN_SPANS 2

enum ws_phases_verdict {
	WS_PHASES_NONE,		/* not asked for (steady only), or no progress */
	WS_PHASES_JUDGED,
	/* one phase, the whole run's: not judged */
	WS_PHASES_TOO_SHORT,
	/* more lasting changes than WS_MAX_PHASES can name: not judged */
	WS_PHASES_TOO_MANY,
	WS_PHASES_NR
};

/* "judged", "too_short", "too_many", "none": the result's key. */
const char *ws_phases_verdict_key(enum ws_phases_verdict v);

/* Limits are % of the window's average rate. */
enum ws_steady_criterion {
	/* SNIA PTS: range <= limit_pct, |slope| x (window - 1) <= slope_pct */
	WS_STEADY_SNIA,
	WS_STEADY_BW_SLOPE,	/* fio ss=bw_slope */
	WS_STEADY_BW_DEV,	/* fio ss=bw */
	WS_STEADY_NR
};

/* Kept for the outputs to print. */
struct ws_analysis_params {
	uint64_t interval_ns;
	unsigned int min_phase_intervals; /* and 1% of the run */
	double merge_similar_pct;
	double slowdown_fraction;	/* of the initial rate */
	enum ws_steady_criterion criterion;
	double limit_pct;
	double slope_pct;		/* SNIA only */
	unsigned int steady_window;	/* rounds */
	uint64_t round_ns;
	uint64_t precondition_bytes;
};

/* NULL-ended; "?" out of range. */
extern const char *const ws_steady_words[WS_STEADY_NR + 1];
const char *ws_steady_criterion_name(enum ws_steady_criterion c);
/* "bw-slope:PCT" sets limit_pct, 0 < PCT <= 1000.  0 or -EINVAL. */
int ws_steady_criterion_parse(const char *s, struct ws_analysis_params *p);
/* "SNIA: range ≤ 20%, slope excursion ≤ 10%".  Returns buf. */
char *ws_steady_criterion_words(const struct ws_analysis_params *p, char *buf,
				size_t len);

/* What the steady-state judgement came to, as every output words it:
 * "not judged" (no window of rounds to judge), "not reached", "not
 * steady at the end" (steady earlier, then changed), "steady". */
enum ws_steady_outcome {
	WS_STEADY_NOT_JUDGED,
	WS_STEADY_NOT_REACHED,
	WS_STEADY_CHANGED,
	WS_STEADY_REACHED,
};

enum ws_steady_outcome ws_steady_outcome_of(bool judged, bool reached, bool earlier);
const char *ws_steady_outcome_words(enum ws_steady_outcome o);
/* Why it was not judged: "no window of 5 rounds of 10.0 s in the run
 * (CRITERION)", or "... after preconditioning (4.00 GiB of it;
 * CRITERION)"; CRITERION NULL: without it.  Returns buf. */
char *ws_steady_unjudged_words(unsigned int window, uint64_t round_ns,
			       uint64_t precondition_bytes, const char *criterion,
			       char *buf, size_t len);

/* The device's writes completed in a round, issue to completion. */
struct ws_round_device {
	uint64_t writes;
	uint64_t p50_ns, p99_ns;
};

struct ws_round {
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;
	struct ws_round_device dev;	/* valid when has_dev */
};

enum ws_window_verdict {
	WS_WINDOW_PRECONDITION,		/* starts before precondition_bytes */
	WS_WINDOW_STEADY,
	WS_WINDOW_UNSTEADY,
};

/* Figures in % of its average. */
struct ws_window {
	unsigned int first;
	enum ws_window_verdict verdict;
	double mibps;			/* its rounds' average */
	double range_pct;
	double excursion_pct;
	double slope_pct;
	double dev_pct;
};

/* Rounds in which every window held. */
struct ws_stretch {
	unsigned int first_round, last_round;	/* inclusive */
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;
	double range_pct, excursion_pct, slope_pct, dev_pct;	/* worst */
	/* has_dev: its rounds' device p50s and p99s, over dev_rounds */
	unsigned int dev_rounds;
	uint64_t dev_p50_lo_ns, dev_p50_hi_ns, dev_p99_lo_ns, dev_p99_hi_ns;
};

/* A stretch's worst figures by p's criterion: "range 6%, slope excursion
 * 2%".  Returns buf. */
char *ws_steady_figures_words(const struct ws_analysis_params *p,
			      const struct ws_stretch *s, char *buf, size_t len);

struct ws_steady {
	bool judged;
	bool reached;		/* the last window holds */
	/* reached: at_* is the end of its first window; final starts at its
	 * first round, or at a phase boundary in the round before that one
	 * (the change it follows: analysis_steady_from_phase) */
	struct ws_stretch final;
	uint64_t at_bytes, at_ns;
	/* the latest that held, then changed */
	bool earlier;
	struct ws_stretch before;

	unsigned int nrounds;
	unsigned int judged_from;	/* == nrounds: none judged */
	unsigned int judged_rounds;
	uint64_t round_ns;
	bool has_dev;
	/* freed by analysis_release() */
	struct ws_round *rounds;
	struct ws_window *windows;
	size_t nwindows;
};

struct ws_analysis {
	struct ws_analysis_params params;
	/* judged over run_ns (the run's time) in spans: the progress points
	 * that wrote something (one that wrote nothing lends its time to its
	 * neighbour, but for the final wait, a span of its own), then what
	 * reached the disk after the last (analysis_spans) */
	enum ws_phases_verdict phases_verdict;
	uint64_t phases_run_ns;
	size_t phases_spans;
	unsigned int nphases;
	struct ws_phase phases[WS_MAX_PHASES];
	double initial_mibps;
	/* the start of a phase: phases[slowdown_phase] */
	bool slowed;
	unsigned int slowdown_phase;
	uint64_t slowdown_bytes, slowdown_ns;
	struct ws_steady steady;
};

/* The phases in one sentence where they are not listed: one phase judged
 * ("80.0 MiB/s throughout, no lasting change"), or why none were ("too
 * short to judge phases: ...").  NULL when there are phases to list. */
const char *ws_phases_verdict_words(const struct ws_analysis *a, char *buf,
				    size_t len);

#endif
