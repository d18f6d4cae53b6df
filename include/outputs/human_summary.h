/* human_summary.h - the summary a person reads at the end: overwrite.c's
 * result line, where the writer's time went and what limited it, each
 * probe's percentiles and stalls, the phases, slowdown and steady state,
 * the curve, the result files and how the run ended.  Formats the record
 * (record.h), nothing else.  Recorder thread.
 */
#ifndef WS_HUMAN_SUMMARY_H
#define WS_HUMAN_SUMMARY_H

#include <stdio.h>

#include "record/record.h"

void human_summary_print(FILE *out, const struct ws_run *run,
			 const struct ws_summary *sum);
/* A read-back of path by its block stamps (--verify, writestress
 * verify): counts, the first bad blocks, the verdict; every line starts
 * with lead ("  " in the summary). */
void human_verify_print(FILE *out, const char *lead, const char *path,
			const struct ws_verify *v);

#endif
