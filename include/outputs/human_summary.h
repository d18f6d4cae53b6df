/* human_summary.h - the summary a person reads at the end, from the record
 * alone.  Recorder thread. */
#ifndef WS_HUMAN_SUMMARY_H
#define WS_HUMAN_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"

/* The verdict, then what a person needs next, within 15 lines of 80
 * columns; verbose: the verdict, then every figure and its evidence. */
void human_summary_print(FILE *out, const struct ws_run *run,
			 const struct ws_summary *sum, bool verbose);
/* A read-back of path (--verify, writestress verify), each line led by
 * lead. */
void human_verify_print(FILE *out, const char *lead, const char *path,
			const struct ws_verify *v);

#endif
