/* steady.h - steady state: is the end of the run steady, since when,
 * and at what rate, judged as SNIA PTS or fio's steadystate.c would.
 *
 * Pure functions over progress marks (series.h points); no threads, no
 * I/O, no global state.  analysis_run() (analysis.h) is what strings
 * them into the pipeline; the criterion's words and figures are here so
 * every output says them the same way.
 */
#ifndef WS_STEADY_H
#define WS_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

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
int steady_judge(const struct ws_point *pts, size_t n, uint64_t until_ns,
		    const struct ws_analysis_params *p, struct ws_steady *out);

/* The traced device's writes round by round (dev[r] for round r; a round
 * past n had none) into the judged rounds, and the range of their p50s
 * and p99s into the final and earlier stretches; has_dev set. */
void steady_add_device(struct ws_steady *st, const struct ws_round_device *dev,
		       size_t n);

/* Whether one window's figures hold under p's criterion. */
bool steady_window_holds(const struct ws_window *w,
			   const struct ws_analysis_params *p);

/* The rule in words, from p: "SNIA: range ≤ 20%, slope excursion ≤ 10%",
 * "fio bw-slope: |slope| < 0.5% a round", "fio bw-dev: every round within
 * 5%".  Returns buf. */
char *steady_describe_criterion(const struct ws_analysis_params *p,
				  char *buf, size_t len);
/* What a stretch measured under p's rule: "range 6%, slope excursion
 * 2%", "|slope| 0.2% a round", "deviation 3%" (its worst window).
 * Returns buf. */
char *steady_describe_figures(const struct ws_analysis_params *p,
				const struct ws_stretch *s, char *buf,
				size_t len);

#endif
