/* verdict.c - what the summary opens with (record/verdict.h). */
#include <string.h>

#include "record/verdict.h"

void ws_stall_tally(const struct ws_summary *sum, struct ws_stall_tally *t)
{
	uint64_t ns[WS_CAUSE_NR] = { 0 };
	unsigned int n[WS_CAUSE_NR] = { 0 };

	memset(t, 0, sizeof(*t));
	for (unsigned int i = 0; i < sum->nprobes; i++) {
		const struct ws_probe_summary *ps = &sum->probes[i];

		t->n += ps->nstalls;
		t->total_ns += ps->stall_total_ns;
		if (ps->nstalls && ps->longest.duration_ns > t->longest_ns) {
			t->longest_ns = ps->longest.duration_ns;
			t->longest_bytes = ps->longest.writer_bytes;
			t->longest_probe = ps->name;
		}
		for (unsigned int k = 0; k < ps->nrecorded; k++) {
			enum ws_stall_cause c = ps->stalls[k].reason.cause;

			if (c == WS_CAUSE_NOT_TRACED || c >= WS_CAUSE_NR)
				continue;
			n[c]++;
			ns[c] += ps->stalls[k].duration_ns;
			t->judged_n++;
			t->judged_ns += ps->stalls[k].duration_ns;
		}
	}
	t->traced = t->judged_n > 0;
	for (int c = WS_CAUSE_DEVICE; c < WS_CAUSE_NR; c++)
		if (n[c] && ns[c] > t->main_ns) {
			t->main = (enum ws_stall_cause)c;
			t->main_n = n[c];
			t->main_ns = ns[c];
		}
}

bool ws_observer_cost_shown(const struct ws_observer_cost *o)
{
	return o->on && o->judged && o->speedup >= WS_COST_SHOWN_X;
}

bool ws_steady_asked(const struct ws_settings *set)
{
	return set->steady.asked;
}
