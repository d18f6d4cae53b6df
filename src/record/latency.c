/* latency.c - the fixed latency buckets every histogram output shares. */
#include <stdio.h>

#include "record/record.h"

/* Prometheus's default buckets stretched to 60 s: a desktop notices
 * 10 ms, and a stall of a minute is the story of a run. */
const uint64_t ws_latency_bounds_ns[WS_LATENCY_BUCKETS] = {
	1000000, 2500000, 5000000, 10000000, 25000000, 50000000, 100000000,
	250000000, 500000000, 1000000000, 2500000000, 5000000000,
	10000000000, 30000000000, 60000000000,
};

void ws_latency_merge(struct ws_latency_totals *to,
		      const struct ws_latency_totals *from)
{
	to->count += from->count;
	to->sum_ns += from->sum_ns;
	for (unsigned int b = 0; b < WS_LATENCY_BUCKETS; b++)
		to->le[b] += from->le[b];
}

void ws_latency_add(struct ws_latency_totals *t, uint64_t ns)
{
	t->count++;
	t->sum_ns += ns;
	for (unsigned int b = 0; b < WS_LATENCY_BUCKETS; b++)
		t->le[b] += ns <= ws_latency_bounds_ns[b];
}

char *ws_percentile_needs_words(double q, char *buf, size_t len)
{
	snprintf(buf, len, "p%g needs %lu probes", q * 100, hist_min_samples(q));
	return buf;
}
