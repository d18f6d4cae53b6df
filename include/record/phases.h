/* record/phases.h - what the analysis (analysis.h) judged, and by what. */
#ifndef WS_RECORD_PHASES_H
#define WS_RECORD_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_MAX_PHASES 8

/* Times are since the writer started. */
struct ws_phase {
	uint64_t from_bytes, to_bytes;
	uint64_t from_ns, to_ns;
	double mibps;
	size_t first, last;		/* points, inclusive */
};

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
	/* reached: at_* is the end of its first window */
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
	unsigned int nphases;
	struct ws_phase phases[WS_MAX_PHASES];
	double initial_mibps;
	bool slowed;
	uint64_t slowdown_bytes, slowdown_ns;
	struct ws_steady steady;
};

#endif
