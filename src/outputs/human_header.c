/* human_header.c - the header (see human_header.h). */
#include <stdio.h>

#include "fingerprint_show.h"
#include "human_header.h"
#include "lib/units.h"

/* "64 × 8.00 MiB = 512 MiB or 10m00s" */
static const char *describe_bounds(char *buf, size_t len, const struct ws_run *run)
{
	const struct ws_plan *plan = &run->plan;
	struct ws_buf b = ws_buf_init(buf, len);
	char a[32], c[32];

	units_format_size(a, sizeof(a), plan->buffer_size);
	if (plan->total == WS_UNBOUNDED && run->set.duration_ns)
		ws_buf_printf(&b, "%s buffers for %s", a,
			      units_format_duration(c, sizeof(c), run->set.duration_ns));
	else if (plan->total == WS_UNBOUNDED)	/* how far it may go, then */
		ws_buf_printf(&b, "%s buffers until interrupted: the file grows to %s, then is rewritten from its start",
			      a, units_format_size(c, sizeof(c), plan->file_size));
	else if (plan->total % plan->buffer_size == 0)
		ws_buf_printf(&b, "%llu × %s = %s",
			      (unsigned long long)(plan->total / plan->buffer_size),
			      a, units_format_size(c, sizeof(c), plan->total));
	else
		ws_buf_printf(&b, "%s in %s buffers",
			      units_format_size(c, sizeof(c), plan->total), a);
	if (run->set.duration_ns && plan->total != WS_UNBOUNDED)
		ws_buf_printf(&b, " or %s", units_format_duration(c, sizeof(c),
				run->set.duration_ns));
	return buf;
}

/* New, rewritten in place (how much of it), or emptied first. */
static const char *describe_file(char *buf, size_t len,
				 const struct ws_target_facts *t)
{
	char a[32];

	if (t->created)
		snprintf(buf, len, "new file");
	else if (t->truncated)
		snprintf(buf, len, "%s, emptied first by --truncate: a discard mount TRIMs its old blocks",
			 t->forced ? "existing file, --force" : "writestress file from an earlier run");
	else if (t->forced)
		snprintf(buf, len, "existing file, --force: rewriting its %s in place",
			 units_format_size(a, sizeof(a), t->size_at_open));
	else
		snprintf(buf, len, "rewriting %s written earlier, in place",
			 units_format_size(a, sizeof(a), t->size_at_open));
	return buf;
}

static void print_space(FILE *out, const struct ws_run *run, const char *lead)
{
	char a[32], b[32], c[32];

	fprintf(out, "%s%s free of %s, %s kept in reserve", lead,
		units_format_size(a, sizeof(a), run->target.fs_avail),
		units_format_size(b, sizeof(b), run->target.fs_size),
		units_format_size(c, sizeof(c), run->plan.reserve));
	if (run->plan.reserve_system && run->target.fs_holds)
		fprintf(out, " (10%%: it holds %s)", run->target.fs_holds);
	/* an unbounded run says how far it goes in its run line */
	if (run->plan.total != WS_UNBOUNDED && run->plan.file_size < run->plan.total)
		fprintf(out, ", file wraps at %s",
			units_format_size(a, sizeof(a), run->plan.file_size));
	else if (run->plan.total == WS_UNBOUNDED && run->set.duration_ns)
		fprintf(out, ", file wraps at %s if the run gets that far",
			units_format_size(a, sizeof(a), run->plan.file_size));
	fputc('\n', out);
}

static void print_run(FILE *out, const struct ws_run *run)
{
	const struct ws_settings *set = &run->set;
	char bounds[128], a[32], pace[96];

	fprintf(out, "  run      %s%s, pace %s, data %s",
		describe_bounds(bounds, sizeof(bounds), run),
		run->ntargets ? " each" : "", ws_pace_label(run, pace, sizeof(pace)), run->data);
	if (set->data == WS_DATA_COMPRESSIBLE)
		fprintf(out, "=%u%%", set->compress_pct);
	if (set->rate)
		fprintf(out, ", rate %s/s", units_format_size(a, sizeof(a), set->rate));
	fputc('\n', out);
	if (!run->ntargets) {
		print_space(out, run, "  space    ");
		return;
	}
	for (unsigned int i = 0; i < run->ntargets; i++) {
		char lead[32];

		snprintf(lead, sizeof(lead), "  space %-3u", run->targets[i].number);
		print_space(out, &run->targets[i], lead);
	}
}

static void print_probes(FILE *out, const struct ws_run *run)
{
	const struct ws_probe_facts *pf = &run->probes;
	const struct ws_settings *set = &run->set;
	char a[32], b[32], c[32], rt[96], mem[96];

	if (!pf->n) {
		fprintf(out, "  probes   none (--no-probe)\n");
		return;
	}
	fputs("  probes   ", out);
	for (unsigned int i = 0; i < pf->n; i++) {
		fprintf(out, "%s%s", i ? ", " : "", pf->names[i]);
		if (pf->dirs[i][0])	/* several filesystems: each its own */
			fprintf(out, " in %s", pf->dirs[i]);
	}
	/* a colon, so a command named "slow" reads as a name, not as "slow
	 * every 100 ms" */
	fprintf(out, ": every %s", units_format_duration(a, sizeof(a), set->probe_interval_ns));
	if (!pf->dirs[0][0])
		fprintf(out, " in %s", pf->dir);
	fprintf(out, ", %s each, stall ≥ %s\n",
		units_format_size(b, sizeof(b), set->probe_size),
		units_format_duration(c, sizeof(c), set->stall_ns));
	if (set->probes & (1u << WS_PROBE_SQLITE))
		fprintf(out, "           sqlite: journal_mode %s, synchronous %s\n",
			set->sqlite.wal ? "wal" : "delete",
			set->sqlite.sync_normal ? "normal" : "full");
	for (unsigned int i = 0; (set->probes & (1u << WS_PROBE_CMD)) &&
	     i < set->cmds.n; i++)
		fprintf(out, "           %s: '%s' as %s, killed after %s\n",
			set->cmds.list[i].name, set->cmds.list[i].line,
			pf->cmd_user[0] ? pf->cmd_user : "you",
			units_format_duration(a, sizeof(a), set->cmds.timeout_ns));
	fprintf(out, "           %s%s%s, %s%s%s\n",
		pf->realtime ? "realtime priority (SCHED_FIFO)" : "normal priority",
		pf->realtime ? "" : ": ",
		pf->realtime ? "" : ws_realtime_words(&pf->realtime_why, rt, sizeof(rt)),
		pf->memory_locked ? "memory locked" : "memory not locked",
		pf->memory_locked ? "" : ": ",
		pf->memory_locked ? "" : ws_memory_words(&pf->memory_why, mem, sizeof(mem)));
}

/* With --until-steady or --precondition: how steady state is judged and
 * what is written before it is. */
static void print_steady(FILE *out, const struct ws_run *run)
{
	const struct ws_settings *set = &run->set;
	const struct ws_plan *plan = &run->plan;
	char a[32], b[32], c[32], crit[96];

	if (!set->steady.until && !set->steady.precondition_set)
		return;
	ws_steady_criterion_words(&run->params, crit, sizeof(crit));
	fprintf(out, "  steady   %s%s over %u rounds of %s, ",
		set->steady.until ? "until steady by " : "", crit,
		run->params.steady_window,
		units_format_duration(a, sizeof(a), run->params.round_ns));
	if (!plan->precondition)
		fputs("not preconditioned", out);
	else if (plan->precondition_x > 0)
		fprintf(out, "judged after %s of preconditioning (%g× the %s device)",
			units_format_size(b, sizeof(b), plan->precondition),
			plan->precondition_x,
			units_format_size(c, sizeof(c), plan->capacity));
	else
		fprintf(out, "judged after %s of preconditioning",
			units_format_size(b, sizeof(b), plan->precondition));
	if (set->steady.until && set->steady.max_rounds)
		fprintf(out, "; gives up after %u rounds", set->steady.max_rounds);
	fputc('\n', out);
}

/* What the privileged options did; nothing when none was asked for. */
static void print_system(FILE *out, const struct ws_run *run)
{
	const struct ws_settings *set = &run->set;
	char line[512], a[16];
	struct ws_buf b = WS_BUF(line);

	if (!set->drop_caches && !set->scheduler && !set->ioprio_class &&
	    !set->probe_ioprio_class)
		return;
	if (run->priv.caches_dropped)
		ws_buf_item(&b, " · ", "page cache dropped");
	if (run->priv.scheduler_set)
		ws_buf_item(&b, " · ", "scheduler %s (was %s, restored at exit)",
			    set->scheduler, run->priv.scheduler_old);
	if (set->ioprio_class)
		ws_buf_item(&b, " · ", "writer ioprio %s",
			    ws_ioprio_name(set->ioprio_class, set->ioprio_level, a, sizeof(a)));
	if (set->probe_ioprio_class)
		ws_buf_item(&b, " · ", "probes ioprio %s",
			    ws_ioprio_name(set->probe_ioprio_class, set->probe_ioprio_level,
					   a, sizeof(a)));
	ws_buf_item(&b, " · ", "capabilities dropped after setup");
	fprintf(out, "  system   %s\n", line);
}

/* "data on ext4 (rw,relatime) · /dev/vda (new file)" */
static void print_where(FILE *out, const struct ws_run *run)
{
	const struct ws_target_facts *t = &run->target;
	char where[512], file[160];

	if (!run->fp || fingerprint_summary(run->fp, where, sizeof(where)) <= 0)
		snprintf(where, sizeof(where), "%s", t->fs_type);
	fprintf(out, "%s on %s%s (%s)", t->path, where,
		t->in_memory ? " · memory, not a disk" : "",
		describe_file(file, sizeof(file), t));
}

/* Several targets: each on its line, with its device's lines the first
 * time that device comes up; a device shared is flagged. */
static void print_targets(FILE *out, const struct ws_run *run)
{
	fprintf(out, "writestress %s — %u targets, one writer each\n", WS_VERSION,
		run->ntargets);
	for (unsigned int i = 0; i < run->ntargets; i++) {
		const struct ws_run *t = &run->targets[i];

		fprintf(out, "  target %u ", t->number);
		print_where(out, t);
		if (t->same_device_as)
			fprintf(out, " · same device as target %u: they compete for it",
				t->same_device_as);
		fputc('\n', out);
		if (t->fp && !t->same_device_as)
			fingerprint_header_device(t->fp, out);
	}
	if (run->fp)
		fingerprint_header_kernel(run->fp, out);
}

/* writestress watch: the disk, how long, and no writer. */
static void print_watch(FILE *out, const struct ws_run *run)
{
	char where[512], a[32];

	if (!run->fp || fingerprint_summary(run->fp, where, sizeof(where)) <= 0)
		snprintf(where, sizeof(where), "%s", run->target.fs_type);
	fprintf(out, "writestress %s — watching %s on %s\n", WS_VERSION, run->target.path, where);
	if (run->fp)
		fingerprint_header(run->fp, out);
	if (run->set.duration_ns)
		fprintf(out, "  watch    %s, no writer of its own\n",
			units_format_duration(a, sizeof(a), run->set.duration_ns));
	else
		fprintf(out, "  watch    until interrupted, no writer of its own\n");
	print_probes(out, run);
	print_system(out, run);
}

void human_header_print(FILE *out, const struct ws_run *run)
{
	const struct ws_target_facts *t = &run->target;

	if (run->set.watch) {
		print_watch(out, run);
		return;
	}
	if (run->ntargets) {
		print_targets(out, run);
	} else {
		fprintf(out, "writestress %s — ", WS_VERSION);
		print_where(out, run);
		fputc('\n', out);
		if (run->fp)
			fingerprint_header(run->fp, out);
	}
	print_run(out, run);
	print_probes(out, run);
	print_steady(out, run);
	print_system(out, run);
	if (t->created && t->xattr_unsupported)
		fprintf(out, "  note     %s keeps no user extended attributes: writestress cannot mark this file as its own, so a re-run on it needs --force\n",
			t->fs_type);
}

void human_header_precondition_eta(FILE *out, const struct ws_run *run,
				   const struct ws_interval *iv)
{
	char a[32], b[32];

	if (!iv->precondition_eta_ns)
		return;
	fprintf(out, "           at the first measured %.1f MiB/s, %s of preconditioning take about %s\n",
		iv->mibps, units_format_size(a, sizeof(a), run->plan.precondition),
		units_format_duration(b, sizeof(b), iv->precondition_eta_ns));
}
