/* record/phases.h - what the analysis (analysis.h) judged: the phases, the rounds
 * and windows of the steady state and the parameters it was judged by. */
#ifndef WS_RECORD_PHASES_H
#define WS_RECORD_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Every rule and threshold the analysis judges by: the summary, the JSON
 * and the plot print them from here. */
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
	uint64_t round_ns;		/* a round (10 s) */
	uint64_t precondition_bytes;	/* windows that start before this much
					   was written are not judged */
};

/* "snia", "bw-slope", "bw-dev" (as --steady-criterion spells them), by
 * enum and NULL-ended; a criterion's ("?" out of range). */
extern const char *const ws_steady_words[WS_STEADY_NR + 1];
const char *ws_steady_criterion_name(enum ws_steady_criterion c);
/* "snia", "bw-slope:PCT" or "bw-dev:PCT" (PCT in (0, 1000], may end in
 * %) into p's criterion and limits.  0 or -EINVAL. */
int ws_steady_criterion_parse(const char *s, struct ws_analysis_params *p);

/* The traced device's writes completed in a round (src/trace's
 * roundlat.h): how many, and their time at the device, issue to
 * completion, at p50 and p99 (0 when none). */
struct ws_round_device {
	uint64_t writes;
	uint64_t p50_ns, p99_ns;
};

/* One round: round_ns of the run, from the progress marks. */
struct ws_round {
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;			/* its bytes over its time */
	struct ws_round_device dev;	/* when the steady state has_dev */
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
	/* the steady state has_dev: its rounds' device write latency, the
	 * lowest and highest of their p50s and of their p99s (rounds in
	 * which a write completed; dev_rounds of them, 0: none) */
	unsigned int dev_rounds;
	uint64_t dev_p50_lo_ns, dev_p50_hi_ns, dev_p99_lo_ns, dev_p99_hi_ns;
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
	/* the device's write latency is in each round (traced runs) */
	bool has_dev;
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

#endif
