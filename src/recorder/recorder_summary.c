/* recorder_summary.c - the record's probe summaries, from the monitor's figures. */
#include <stdio.h>
#include <string.h>

#include "recorder/recorder.h"

/* Most sampled first; equal counts keep the order they were first seen
 * in (an insertion sort: stable, and there are at most WS_MAX_SITES). */
static void sort_sites(struct ws_site_count *s, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		struct ws_site_count x = s[i];
		unsigned int j = i;

		for (; j > 0 && s[j - 1].samples < x.samples; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
}

void recorder_probe_summary(struct recorder_probe_run *run,
			    const struct monitor_probe_figures *f,
			    struct ws_probe_summary *ps)
{
	memset(ps, 0, sizeof(*ps));
	snprintf(run->name, sizeof(run->name), "%s", f->name);
	ps->name = run->name;
	ps->count = hist_count(&f->raw);
	ps->errors = f->errors;
	ps->last_error = f->last_error;
	snprintf(ps->last_fail, sizeof(ps->last_fail), "%s", f->last_fail);
	snprintf(ps->last_stderr, sizeof(ps->last_stderr), "%s", f->last_stderr);
	ps->p50 = hist_percentile(&f->raw, 50);
	ps->p90 = hist_percentile(&f->raw, 90);
	ps->p99 = hist_percentile(&f->raw, 99);
	ps->p999 = hist_percentile(&f->raw, 99.9);
	ps->max = hist_max(&f->raw);
	ps->c_count = hist_count(&f->corrected);
	ps->c_p50 = hist_percentile(&f->corrected, 50);
	ps->c_p90 = hist_percentile(&f->corrected, 90);
	ps->c_p99 = hist_percentile(&f->corrected, 99);
	ps->c_p999 = hist_percentile(&f->corrected, 99.9);
	ps->nstalls = f->nstalls;
	ps->stall_total_ns = f->stall_total_ns;
	ps->longest = f->longest;
	ps->nrecorded = f->nrecorded;
	memcpy(ps->stalls, f->stalls, f->nrecorded * sizeof(f->stalls[0]));
	ps->sched_misses = f->sched_misses;
	ps->cpu_ns = f->cpu_ns;
	ps->nsites = f->nsites;
	memcpy(ps->sites, f->sites, f->nsites * sizeof(f->sites[0]));
	sort_sites(ps->sites, ps->nsites);
	ps->ntop = ps->nsites < WS_TOP_SITES ? ps->nsites : WS_TOP_SITES;
	ps->raw = f->raw;
	recorder_add_latencies(&ps->latency, &ps->raw);
}
