/* analysis.h - phases, the slowdown point and steady state.  analysis_run()
 * is the one pipeline; its steps are exported for tests only.  Pure.
 */
#ifndef WS_ANALYSIS_H
#define WS_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"
#include "analysis/series.h"

struct ws_analysis_input {
	const struct ws_point *marks;	/* progress marks: bytes known on disk */
	size_t nmarks;
	/* the final wait for the disk is not a round of throughput */
	uint64_t writing_ns;
	uint64_t elapsed_ns;
	uint64_t end_bytes;
	bool steady_only;		/* the live --until-steady check */
	bool dev_traced;
	const struct ws_round_device *dev_rounds;	/* per round_ns round */
	size_t ndev_rounds;
};

void analysis_defaults(struct ws_analysis_params *p);

/* *out is fully written; 0 or -ENOMEM.  analysis_release(out) either way. */
int analysis_run(const struct ws_analysis_input *in,
		 const struct ws_analysis_params *p, struct ws_analysis *out);
void analysis_release(struct ws_analysis *a);

/* ---- the steps ---- */

/* Spans that wrote nothing give their time to a neighbour.  OUT must not
 * overlap IN.  Returns the points kept. */
size_t analysis_compact(const struct ws_point *in, size_t n,
			struct ws_point *out);

/* At most MAX phases tiling the series; 0 if out of memory.  A phase
 * spans 3 points or more; neighbours differ by 10% and 4 standard errors
 * of the series' noise, so jitter and spikes make no phase. */
unsigned int analysis_phases(const struct ws_point *pts, size_t n,
			     struct ws_phase *out, unsigned int max);

/* Merge each into the neighbour of closer rate.  Returns the count;
 * rates go stale. */
unsigned int analysis_merge_short(struct ws_phase *ph, unsigned int n,
				  uint64_t min_ns);

/* Bytes over time, not the segmentation's robust estimate. */
void analysis_phase_rates(const struct ws_point *pts, struct ws_phase *ph,
			  unsigned int n);

/* Merge neighbours under pct % apart: "68.8 then 61.8 MiB/s" is noise
 * to a reader.  Returns the count. */
unsigned int analysis_merge_similar(const struct ws_point *pts,
				    struct ws_phase *ph, unsigned int n,
				    double pct);

/* Where the rate fell for good below FRACTION of phases[0]'s: a dip that
 * recovers is no slowdown.  False, outputs untouched, if none. */
bool analysis_slowdown(const struct ws_point *pts, size_t n,
		       const struct ws_phase *phases, unsigned int nphases,
		       double fraction, uint64_t *at_bytes, uint64_t *at_ns);

/* Stretch the last phase to the run's end, so the phases add up to the
 * run; merged into the one before if then under pct % apart. */
unsigned int analysis_extend_to_end(struct ws_phase *ph, unsigned int n,
				    uint64_t end_bytes, uint64_t end_ns,
				    double pct);

#endif
