/* human_culprits.h - other processes' writes in the summary: a watch's
 * culprits, a run's disturbers. */
#ifndef WS_HUMAN_CULPRITS_H
#define WS_HUMAN_CULPRITS_H

#include <stdio.h>

#include "record/record.h"

/* The verdict's lines, at most room (at least 1 when any): a watch's
 * culprits and its longest stall's; a run disturbed by others, one line.
 * Returns how many. */
unsigned int human_culprits_verdict(FILE *out, const struct ws_run *run,
				    const struct ws_summary *sum, unsigned int room);
/* -v: the whole table. */
void human_culprits_details(FILE *out, const struct ws_summary *sum);

#endif
