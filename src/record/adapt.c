/* adapt.c - the adaptive controller's headroom attempts in words (see
 * record/adapt.h): the summary's lines, made once here. */
#include <stdio.h>

#include "lib/units.h"
#include "record/adapt.h"

const char *ws_adapt_attempt_words(char *buf, size_t len,
				   const struct ws_adapt_figures *a,
				   unsigned int i, unsigned int user_pct,
				   const char *name)
{
	const struct ws_adapt_attempt *at = &a->attempt[i];
	char share[48], took[32], since[32];

	if (i >= a->nattempts || i >= WS_ADAPT_ATTEMPTS) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	/* the first attempt runs with what the user asked for */
	if (!at->headroom_pct)
		snprintf(share, sizeof(share), "without headroom");
	else
		snprintf(share, sizeof(share), "with headroom %u%%%s", at->headroom_pct,
			 !i && at->headroom_pct == user_pct ? " (--headroom)" : "");
	units_format_duration(took, sizeof(took), at->worst_ns);
	if (!at->met) {
		snprintf(buf, len, "%s: %s took ≥ %s at the floor", share, name, took);
		return buf;
	}
	if (i + 1 == a->nattempts && a->headroom_met_ns)
		snprintf(buf, len, "%s: met from %s on, %s took ≤ %s", share,
			 units_format_duration(since, sizeof(since), a->headroom_met_ns),
			 name, took);
	else	/* met for a while, then failed again: the next one shows it */
		snprintf(buf, len, "%s: met for a while, %s took ≤ %s", share, name, took);
	return buf;
}
