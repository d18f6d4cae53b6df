/* human_verdict.h - the summary's verdict block. */
#ifndef WS_HUMAN_VERDICT_H
#define WS_HUMAN_VERDICT_H

#include <stdio.h>

#include "record/record.h"

/* The default summary's bounds: its lines, the verdict's, a line's. */
#define HUMAN_SUMMARY_LINES 15
#define HUMAN_VERDICT_LINES 8
#define HUMAN_COLUMNS 80

/* Its lines, at most HUMAN_VERDICT_LINES, each within HUMAN_COLUMNS
 * but for a path. */
unsigned int human_verdict_print(FILE *out, const struct ws_run *run,
				 const struct ws_summary *sum);

#endif
