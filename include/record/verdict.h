/* record/verdict.h - what the summary's first lines say, derived once from
 * the record: the stalls of every probe taken together, and the rules
 * that decide which findings open the summary. */
#ifndef WS_RECORD_VERDICT_H
#define WS_RECORD_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "record/settings.h"
#include "record/stall.h"
#include "record/summary.h"

/* Every probe's stalls; the cause is judged over the recorded ones. */
struct ws_stall_tally {
	uint64_t n, total_ns;
	uint64_t longest_ns, longest_bytes;
	const char *longest_probe;	/* NULL: none */
	bool traced;			/* a recorded stall has a cause */
	enum ws_stall_cause main;	/* the most stall time */
	unsigned int main_n, judged_n;
	uint64_t main_ns, judged_ns;
};

void ws_stall_tally(const struct ws_summary *sum, struct ws_stall_tally *t);

/* The probes' cost opens the summary from this speed-up on. */
#define WS_COST_SHOWN_X 1.10
bool ws_observer_cost_shown(const struct ws_observer_cost *o);

/* Asked for steady state: --until-steady or a steady-state option. */
bool ws_steady_asked(const struct ws_settings *set);

#endif
