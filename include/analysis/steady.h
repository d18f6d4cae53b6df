/* steady.h - is the end of the run steady, since when and at what rate,
 * judged as SNIA PTS or fio's steadystate.c would.  Pure; the criterion's
 * words are here so every output says them the same way.
 */
#ifndef WS_STEADY_H
#define WS_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

/* Rounds of round_ns up to until_ns, each the bytes on disk interpolated
 * between marks, free of write() quantisation; a partial last round is
 * dropped.  Windows of steady_window rounds starting past
 * precondition_bytes are judged.  Reached only if the last window holds;
 * final then starts where every later window holds.  0 or -ENOMEM; *out
 * fully written either way. */
int steady_judge(const struct ws_point *pts, size_t n, uint64_t until_ns,
		    const struct ws_analysis_params *p, struct ws_steady *out);

/* dev[r] for round r; rounds past n had no writes.  Sets has_dev. */
void steady_add_device(struct ws_steady *st, const struct ws_round_device *dev,
		       size_t n);

bool steady_window_holds(const struct ws_window *w,
			   const struct ws_analysis_params *p);

#endif
