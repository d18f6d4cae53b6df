/* summary.c - what a summary holds on the heap (record/summary.h). */
#include <errno.h>
#include <stdlib.h>

#include "record/summary.h"

int ws_summary_hold_probes(struct ws_summary *sum, unsigned int n)
{
	sum->probes = calloc(n ? n : 1, sizeof(*sum->probes));
	return sum->probes ? 0 : -ENOMEM;
}

void ws_summary_release(struct ws_summary *sum)
{
	free(sum->probes);
	sum->probes = NULL;
	sum->nprobes = 0;
}
