/* summary.c - what a summary holds on the heap (record/summary.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/units.h"
#include "record/summary.h"

static const struct {
	const char *key, *words, *brief;
} limits[WS_LIMIT_NR] = {
	[WS_LIMIT_NONE] = { "none", "no single limit", "no single limit" },
	[WS_LIMIT_RATE] = { "rate", "--rate was the limit", "--rate was the limit" },
	[WS_LIMIT_FILL] = { "fill", "generating data was the limit", "generating data was the limit" },
	[WS_LIMIT_WRITEBACK] = { "disk", "the disk was the limit (waiting for writeback)", "the disk was the limit" },
	[WS_LIMIT_DIRECT] = { "disk", "the disk was the limit (O_DIRECT writes)", "the disk was the limit" },
	[WS_LIMIT_QUEUED] = { "disk", "the disk was the limit (waiting for queued writes)", "the disk was the limit" },
	[WS_LIMIT_WRITE] = { "write", "write() was the limit: copying into the page cache and dirty-page throttling", "write() was the limit" },
	[WS_LIMIT_MEMORY] = { "memory", "the writes themselves were the limit: the target is memory (tmpfs, ramfs), there is no disk", "the target is memory, no disk" },
};

const char *ws_limit_key(enum ws_limit l)
{
	return l < WS_LIMIT_NR ? limits[l].key : limits[WS_LIMIT_NONE].key;
}

const char *ws_limit_words(enum ws_limit l)
{
	return l < WS_LIMIT_NR ? limits[l].words : limits[WS_LIMIT_NONE].words;
}

const char *ws_limit_brief(enum ws_limit l)
{
	return l < WS_LIMIT_NR ? limits[l].brief : limits[WS_LIMIT_NONE].brief;
}

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

const char *ws_detail_words(enum ws_err_detail d, uint64_t bytes,
			    enum ws_pace pace, char *buf, size_t len)
{
	char size[32];

	switch (d) {
	case WS_DETAIL_RESERVE:
		snprintf(buf, len, "free space fell to the --reserve of %s",
			 units_format_size(size, sizeof(size), bytes));
		break;
	case WS_DETAIL_DONTCACHE:
		snprintf(buf, len, "--pace %s needs RWF_DONTCACHE: Linux 6.14 or later and a filesystem that supports it",
			 ws_pace_name(pace));
		break;
	case WS_DETAIL_NO_START:
		snprintf(buf, len, "the writer could not start");
		break;
	default:
		snprintf(buf, len, "%s", "");
	}
	return buf;
}

void ws_summary_count_culprit_stalls(struct ws_summary *sum)
{
	for (unsigned int i = 0; i < sum->culprits.n; i++)
		sum->culprits.row[i].stalls = 0;
	for (unsigned int i = 0; i < sum->nprobes; i++) {
		const struct ws_probe_summary *ps = &sum->probes[i];

		for (unsigned int k = 0; k < ps->nrecorded; k++) {
			const struct ws_stall_culprits *c = &ps->stalls[k].culprits;

			for (unsigned int j = 0; c->n && !ws_stall_no_writer(c) &&
			     j < sum->culprits.n; j++)
				sum->culprits.row[j].stalls += sum->culprits.row[j].pid == c->top[0].pid;
		}
	}
}
