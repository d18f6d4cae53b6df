/* phases.c - the phases' verdict in words, for every output. */
#include <stdio.h>

#include "lib/units.h"
#include "record/phases.h"

static const char *const verdict_keys[WS_PHASES_NR] = {
	[WS_PHASES_NONE] = "none",
	[WS_PHASES_JUDGED] = "judged",
	[WS_PHASES_TOO_SHORT] = "too_short",
	[WS_PHASES_TOO_MANY] = "too_many",
};

const char *ws_phases_verdict_key(enum ws_phases_verdict v)
{
	return (unsigned int)v < WS_PHASES_NR ? verdict_keys[v] : "?";
}

const char *ws_phases_verdict_words(const struct ws_analysis *a, char *buf,
				    size_t len)
{
	uint64_t iv = a->params.interval_ns;
	char d[32];

	switch (a->phases_verdict) {
	case WS_PHASES_JUDGED:
		if (a->nphases != 1)
			return NULL;
		snprintf(buf, len, "%.1f MiB/s throughout, no lasting change",
			 a->phases[0].mibps);
		return buf;
	case WS_PHASES_TOO_SHORT:
		units_format_duration(d, sizeof(d), iv);
		if (a->phases_spans < WS_PHASES_MIN_SPANS)
			snprintf(buf, len, "too short to judge phases: %zu span%s of progress, phases need %d",
				 a->phases_spans, a->phases_spans == 1 ? "" : "s",
				 WS_PHASES_MIN_SPANS);
		else	/* tenths cut, not rounded: 5.99 is no 6.0 */
			snprintf(buf, len, "too short to judge phases: %.1f intervals of %s, phases need %d",
				 iv ? (double)(a->phases_run_ns * 10 / iv) / 10 : 0.0, d,
				 WS_PHASES_MIN_INTERVALS);
		return buf;
	case WS_PHASES_TOO_MANY:
		snprintf(buf, len, "not judged: more lasting changes than %d phases can name",
			 WS_MAX_PHASES);
		return buf;
	default:
		return NULL;
	}
}
