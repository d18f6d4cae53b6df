/* human_trace.h - the summary's traced lines: the device, the journal, the flusher. */
#ifndef WS_HUMAN_TRACE_H
#define WS_HUMAN_TRACE_H

#include <stdio.h>

#include "record/record.h"

/* Nothing when the run was not traced. */
void human_trace_print(FILE *out, const struct ws_summary *sum);

#endif
