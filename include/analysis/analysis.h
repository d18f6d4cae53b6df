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

/* The phase *phase from which all are below FRACTION of phases[0]'s
 * rate, and the point *at it starts at, walked back over the points of
 * the phase before that are lastingly below it too.  False if none. */
bool analysis_slowdown_point(const struct ws_point *pts, size_t n,
			     const struct ws_phase *phases, unsigned int nphases,
			     double fraction, unsigned int *phase, size_t *at);

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

/* The run's spans: its points that wrote something (analysis_compact),
 * then what reached the disk after the last, up to END_BYTES at END_NS
 * (nothing new: the last span's time grows).  OUT holds n + 1.  Returns
 * the spans. */
size_t analysis_spans(const struct ws_point *pts, size_t n, uint64_t end_bytes,
		      uint64_t end_ns, struct ws_point *out);

/* Fewer than WS_PHASES_MIN_INTERVALS intervals or WS_PHASES_MIN_SPANS
 * spans: phases are not judged. */
bool analysis_too_short(uint64_t run_ns, uint64_t interval_ns, size_t nspans);

/* The rule (record/phases.h), over a run of run_ns and run_bytes with
 * reporting intervals of level_ns: within phase i, a stretch [at, c)
 * lasting at least 1/WS_PHASE_LASTING_PART of run_ns at a rate more than
 * WS_PHASE_CHANGE_X apart from that of the phase's part before it,
 * [first, at), which itself lasted level_ns or wrote
 * 1/WS_PHASE_LASTING_PART of run_bytes (a burst of a buffer is no level
 * to change from). */
struct ws_lasting_rule {
	uint64_t run_ns, run_bytes, level_ns;
};

/* The strongest such change: 1 and *phase, *at; 0 if none; -ENOMEM. */
int analysis_hidden_change(const struct ws_point *spans, size_t n,
			   const struct ws_phase *ph, unsigned int nph,
			   const struct ws_lasting_rule *r, unsigned int *phase,
			   size_t *at);

/* Each such change starts a phase, strongest first; when max are there,
 * the two neighbours of the shortest time that hide no change are one.
 * *unresolved if some are still hidden.  0 or -ENOMEM. */
int analysis_split_lasting(const struct ws_point *spans, size_t n,
			   struct ws_phase *ph, unsigned int *nph,
			   unsigned int max, const struct ws_lasting_rule *r,
			   bool *unresolved);

/* analysis_slowdown() on the spans, and the phase boundary moved back to
 * the point it finds, so the two are one offset: 1 and *phase, the phase
 * the slowdown starts; 0: none; -ENOMEM.  Where the move would hide a
 * lasting change (r), the stretch walked over is a phase of its own (if
 * one more fits in max), else the phases stay and the slowdown is the
 * phase's start. */
int analysis_slowdown_phase(const struct ws_point *spans, size_t n,
			    struct ws_phase *ph, unsigned int *nph,
			    unsigned int max, double fraction,
			    const struct ws_lasting_rule *r, unsigned int *phase);

/* Steady state reached from the round after a phase boundary: from that
 * boundary, the same change. */
void analysis_steady_from_phase(struct ws_analysis *a);

#endif
