/* human_adapt.c - the summary's lines of the adaptive controller (see human_adapt.h). */
#include <stdio.h>

#include "lib/hist.h"

#include "human_adapt.h"
#include "lib/units.h"

/* Why a controller never settled, in words a user can act on. */
static const char *adapt_why_words(enum ws_adapt_why why)
{
	switch (why) {
	case WS_ADAPT_STARTING:
		return "the run ended before 3 calm periods in a row (1 s each): run longer";
	case WS_ADAPT_NO_PROBES:
		return "no steering probe ended in its last period: a probe stuck, or --probe-interval too long";
	case WS_ADAPT_OVER:
		return "its last period's slowest probe was over the target: it was still cutting back";
	case WS_ADAPT_RACING:
		return "the probes were far under the target: it was still adding writeback";
	case WS_ADAPT_MOVING:
		return "its writeback moved beyond ±35% over 3 periods: the disk's pace did not hold";
	default:
		return "";
	}
}

static const char *name_of(const struct ws_probe_facts *pf, int i)
{
	return i >= 0 && (unsigned int)i < pf->n ? pf->names[i] : "a probe";
}

/* How often the steering probe waits behind the writer sets what the
 * writer's chunks may take. */
static void print_steering(FILE *out, const struct ws_probe_facts *pf,
			   const struct ws_adapt_figures *a)
{
	char sp[32];

	if (a->steering < 0 || a->steering >= WS_MAX_PROBES)
		return;
	fprintf(out, "           steered by %s, which waited behind the writer about %.1f times an operation",
		name_of(pf, a->steering), a->waits[a->steering]);
	if (a->unreachable)	/* at the floor: what it aims at is moot */
		fputc('\n', out);
	else
		fprintf(out, ": the writer's chunks aimed at %s on the disk\n",
			units_format_duration(sp, sizeof(sp), a->setpoint_ns));
}

/* The target out of reach: now (it held the floor), or for a while. */
static void print_out_of_reach(FILE *out, const struct ws_probe_facts *pf,
			       const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	char t[32], fl[32], at[32], least[32], idle[32];

	units_format_duration(t, sizeof(t), sum->target_latency_ns);
	units_format_duration(fl, sizeof(fl), a->floor_ns);
	units_format_duration(at, sizeof(at), a->unreachable_at_ns);
	units_format_size(least, sizeof(least), (uint64_t)a->chunk * a->window);
	if (a->unreachable) {
		bool known = a->floor_probe >= 0 && a->floor_probe < WS_MAX_PROBES;

		units_format_duration(idle, sizeof(idle), known ? a->idle_ns[a->floor_probe] : 0);
		fprintf(out, "  adaptive target %s out of reach on this disk: %s took ≥ %s with %s under writeback, the least the writer keeps (from %s on); it held that floor\n",
			t, name_of(pf, a->floor_probe), fl, least, at);
		fprintf(out, "           that wait is the disk's and the probe's own (on the idle disk %s took %s): no pace of the writer's brings it under %s\n",
			name_of(pf, a->floor_probe), idle, fl);
		return;
	}
	fprintf(out, "           the target was out of reach from %s (%s ≥ %s at the floor), and met again later\n",
		at, name_of(pf, a->floor_probe), fl);
}

/* The share in force at the end: --headroom's, or an attempt's. */
static void print_headroom(FILE *out, const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	unsigned int pct = a->headroom_pct ? a->headroom_pct : sum->headroom_pct;

	if (!pct)
		return;
	if (!a->cap_bps) {
		fprintf(out, "           headroom %u%%: no cap yet: the writer had not run a whole second to show the disk's rate\n",
			pct);
		return;
	}
	fprintf(out, "           headroom %u%%: the writer kept under %.1f MiB/s, %u%% of the %.1f MiB/s the disk did without the cap\n",
		pct, (double)a->cap_bps / WS_MIB, 100 - pct, (double)a->disk_bps / WS_MIB);
}

/* Headroom tried before the target was called out of reach. */
static void print_attempts(FILE *out, const struct ws_probe_facts *pf,
			   const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	char line[160];

	for (unsigned int i = 0; a->nattempts > 1 && i < a->nattempts; i++)
		fprintf(out, "           %s\n",
			ws_adapt_attempt_words(line, sizeof(line), a, i, sum->headroom_pct,
					       name_of(pf, a->floor_probe >= 0 ?
							       a->floor_probe : a->steering)));
}

void human_adapt_state_print(FILE *out, const struct ws_probe_facts *pf,
			     const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	char chunk[32], inflight[32], at[32], t[32];

	units_format_size(chunk, sizeof(chunk), a->chunk);
	units_format_size(inflight, sizeof(inflight), a->inflight);
	units_format_duration(t, sizeof(t), sum->target_latency_ns);
	if (a->unreachable) {
		print_out_of_reach(out, pf, sum);
		print_attempts(out, pf, sum);
		print_steering(out, pf, a);
		print_headroom(out, sum);
		return;
	}
	if (!a->settled) {
		fprintf(out, "  adaptive never settled (target %s): %s; it ended at %s × %u (%s under writeback)\n",
			t, adapt_why_words(a->why), chunk, a->window, inflight);
	} else {
		fprintf(out, "  adaptive settled after %s at about %s × %u (%s under writeback), target %s\n",
			units_format_duration(at, sizeof(at), sum->adapt_settled_ns),
			chunk, a->window, inflight, t);
		if (a->at_floor)
			fprintf(out, "           at its floor: the probes took longer than the target with the least writeback it keeps; the wait is not the writer's\n");
	}
	print_attempts(out, pf, sum);
	print_steering(out, pf, a);
	print_headroom(out, sum);
	if (a->unreachable_at_ns)
		print_out_of_reach(out, pf, sum);
}

void human_adapt_print(FILE *out, const struct ws_run *run,
		       const struct ws_summary *sum)
{
	char p99[32], max[32];

	if (!sum->have_adapt)
		return;
	if (sum->ntargets)
		fprintf(out, "  adaptive each target's writer steered by the probes of its filesystem (below)%s\n",
			sum->adapt.settled ? "" : "; not every one settled");
	else
		human_adapt_state_print(out, &run->probes, sum);
	for (unsigned int i = 0; sum->adapt.settled && i < sum->nprobes; i++) {
		if (!sum->settled_count[i]) {
			fprintf(out, "           %s: no probe ended after settling\n",
				sum->probes[i].name);
			continue;
		}
		fprintf(out, "           %s after settling: %llu probes", sum->probes[i].name,
			(unsigned long long)sum->settled_count[i]);
		if (hist_percentile_shown(0.99, sum->settled_count[i]))
			fprintf(out, ", p99 %s", units_format_duration(p99, sizeof(p99),
								       sum->settled_p99_ns[i]));
		else if (hist_percentile_shown(0.5, sum->settled_count[i]))
			fprintf(out, ", p50 %s", units_format_duration(p99, sizeof(p99),
								       sum->settled_p50_ns[i]));
		fprintf(out, ", max %s\n", units_format_duration(max, sizeof(max),
								sum->settled_max_ns[i]));
	}
}

void human_adapt_brief(FILE *out, const struct ws_probe_facts *pf,
		       const struct ws_summary *sum)
{
	const struct ws_adapt_figures *a = &sum->adapt;
	char t[32], x[32], y[32], up[40] = "";
	unsigned int tried = 0;

	for (unsigned int i = 0; i < a->nattempts && i < WS_ADAPT_ATTEMPTS; i++)
		tried = a->attempt[i].headroom_pct > tried ? a->attempt[i].headroom_pct : tried;
	units_format_duration(t, sizeof(t), sum->target_latency_ns);
	if (tried)
		snprintf(up, sizeof(up), ", with headroom up to %u%%", tried);
	if (sum->ntargets)
		fprintf(out, "  adaptive each target steered by its own probes%s\n",
			a->settled ? "" : "; not every one settled");
	else if (a->unreachable)
		fprintf(out, "  adaptive target %s out of reach: %s took ≥ %s at the floor%s\n",
			t, name_of(pf, a->floor_probe),
			units_format_duration(x, sizeof(x), a->floor_ns), up);
	else if (a->headroom_met_ns && a->headroom_pct)
		fprintf(out, "  adaptive target %s met with headroom %u%% from %s on\n", t,
			a->headroom_pct, units_format_duration(x, sizeof(x), a->headroom_met_ns));
	else if (!a->settled)
		fprintf(out, "  adaptive never settled, target %s (-v: why)\n", t);
	else
		fprintf(out, "  adaptive settled after %s at %s under writeback, target %s\n",
			units_format_duration(x, sizeof(x), sum->adapt_settled_ns),
			units_format_size(y, sizeof(y), a->inflight), t);
}
