/* human_adapt.h - the summary's lines of --pace adaptive's controller. */
#ifndef WS_HUMAN_ADAPT_H
#define WS_HUMAN_ADAPT_H

#include <stdio.h>

#include "record/record.h"

/* The run's controller, or each target's, and the probes once settled. */
void human_adapt_print(FILE *out, const struct ws_run *run,
		       const struct ws_summary *sum);
/* One controller: settled or why not, or the target out of reach. */
void human_adapt_state_print(FILE *out, const struct ws_probe_facts *pf,
			     const struct ws_summary *sum);

/* One line: settled, never settled, or the target out of reach. */
void human_adapt_brief(FILE *out, const struct ws_probe_facts *pf,
		       const struct ws_summary *sum);

#endif
