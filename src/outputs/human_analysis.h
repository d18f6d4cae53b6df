/* human_analysis.h - the summary's lines of the analysis: phases over
 * bytes written, where it slowed, the steady-state verdict (and the
 * device's write latency over its rounds, when traced), the curve in one
 * line.  human_summary.c calls it for the run and for each target.
 */
#ifndef WS_HUMAN_ANALYSIS_H
#define WS_HUMAN_ANALYSIS_H

#include <stdio.h>

#include "record/record.h"

void human_analysis_print(FILE *out, const struct ws_run *run,
			  const struct ws_summary *sum);
/* The curve's line, within cols columns (0: any). */
void human_analysis_curve(FILE *out, const struct ws_summary *sum, unsigned int cols);

#endif
