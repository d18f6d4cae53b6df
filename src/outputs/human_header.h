/* human_header.h - the header a person reads before the first byte: what
 * is written, where, on what device and kernel, with which probes, how
 * steady state is judged and what the privileged options did.  Formats the
 * record's facts (record.h), nothing else.  Main thread, before the run.
 */
#ifndef WS_HUMAN_HEADER_H
#define WS_HUMAN_HEADER_H

#include <stdio.h>

#include "record/record.h"

void human_header_print(FILE *out, const struct ws_run *run);

/* The header's last word, printed with the first interval when there is
 * preconditioning: how long it takes at the first measured rate.  Nothing
 * for other intervals. */
void human_header_precondition_eta(FILE *out, const struct ws_run *run,
				   const struct ws_interval *iv);

#endif
