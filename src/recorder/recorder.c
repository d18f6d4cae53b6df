/* recorder.c - the record's facts, intervals and summary figures. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "system/clock.h"
#include "analysis/analysis.h"
#include "analysis/steady.h"
#include "engine/datagen.h"
#include "system/kstat.h"
#include "engine/pace.h"
#include "recorder/recorder.h"
#include "analysis/series.h"
#include "system/signals.h"
#include "lib/units.h"

void recorder_params(const struct ws_config *cfg, const struct ws_plan *plan,
		     struct ws_analysis_params *p)
{
	analysis_defaults(p);
	p->interval_ns = cfg->set.interval_ns;
	p->criterion = (enum ws_steady_criterion)cfg->steady_criterion;
	p->limit_pct = cfg->steady_limit_pct;
	p->slope_pct = cfg->steady_slope_pct;
	p->steady_window = cfg->set.steady.window;
	p->round_ns = cfg->set.steady.round_ns;
	p->precondition_bytes = plan ? plan->precondition : 0;
}

static void target_facts(const struct ws_config *cfg,
			 const struct ws_target *t, struct ws_target_facts *f)
{
	f->path = cfg->set.path;
	snprintf(f->fs_type, sizeof(f->fs_type), "%s", t->fs_type);
	/* a figure there is the page cache's: no disk is under it */
	f->in_memory = !strcmp(t->fs_type, "tmpfs") || !strcmp(t->fs_type, "ramfs");
	f->created = t->created;
	f->forced = t->forced;
	f->truncated = t->truncated;
	f->xattr_unsupported = t->xattr_unsupported;
	f->size_at_open = t->size_at_open;
	f->fs_size = t->space.fs_size;
	f->fs_holds = t->space.holds;
	/* what the run may use: our own old blocks count as free */
	f->fs_avail = t->space.avail + t->space.reclaimed;
}

static void probe_facts(const struct ws_config *cfg, const struct monitor *mon,
			struct ws_probe_facts *f)
{
	probe_dir_of(cfg, f->dir, sizeof(f->dir));
	if (!mon)
		return;
	f->n = mon->nprobes;
	for (unsigned int i = 0; i < mon->nprobes; i++) {
		snprintf(f->names[i], sizeof(f->names[i]), "%s", mon->probes[i].name);
		if (probe_cmd_user(&mon->probes[i].probe)[0])
			snprintf(f->cmd_user, sizeof(f->cmd_user), "%s",
				 probe_cmd_user(&mon->probes[i].probe));
		if (strcmp(mon->probes[i].probe.dir, mon->probes[0].probe.dir))
			for (unsigned int k = 0; k < mon->nprobes; k++)
				snprintf(f->dirs[k], sizeof(f->dirs[k]), "%s",
					 mon->probes[k].probe.dir);
	}
	f->realtime = mon->realtime;
	f->memory_locked = mon->memory_locked;
	f->realtime_why = mon->realtime_why;
	f->memory_why = mon->memory_why;
}

void recorder_make_run(const struct recorder_sources *src, struct ws_run *run)
{
	const struct ws_config *cfg = src->cfg;
	struct utsname u;

	memset(run, 0, sizeof(*run));
	run->set = cfg->set;
	run->plan = *src->plan;
	run->fp = src->fp;
	target_facts(cfg, src->target, &run->target);
	probe_facts(cfg, src->mon, &run->probes);
	if (src->priv) {
		run->priv.caches_dropped = src->priv->caches_dropped;
		run->priv.scheduler_set = src->priv->nsched > 0;
		snprintf(run->priv.scheduler_old, sizeof(run->priv.scheduler_old),
			 "%s", src->priv->scheduler_old[0]);
	}
	recorder_params(cfg, src->plan, &run->params);
	run->criterion_key = ws_steady_criterion_name(run->params.criterion);
	run->pace_name = ws_pace_name(cfg->set.pace);
	run->data = ws_data_name(cfg->set.data);
	if (src->queue)
		run->queue = *src->queue;
	else
		run->queue = (struct ws_queue_facts){ .depth = 1, .engine = "sync" };
	run->marks_accepted = run->queue.marks_accepted;
	for (int t = 0; t < WS_T_NR; t++)
		run->timer_used[t] = run->queue.depth > 1 ||
				     (t != WS_T_SUBMIT && t != WS_T_COMPLETE);
	if (uname(&u) == 0) {
		snprintf(run->sysname, sizeof(run->sysname), "%s", u.sysname);
		snprintf(run->release, sizeof(run->release), "%s", u.release);
		snprintf(run->version, sizeof(run->version), "%s", u.version);
		snprintf(run->machine, sizeof(run->machine), "%s", u.machine);
		snprintf(run->hostname, sizeof(run->hostname), "%s", u.nodename);
	}
	run->started_at = (int64_t)time(NULL);
	run->argc = src->argc;
	run->argv = src->argv;
}

struct ws_point recorder_interval_point(const struct ws_interval *iv)
{
	struct ws_point p = {
		.t_ns = iv->t_ns, .dt_ns = iv->dt_ns, .bytes = iv->bytes,
		.dbytes = iv->dbytes, .mibps = iv->mibps, .dirty = iv->dirty,
		.writeback = iv->writeback,
	};

	if (iv->block.on) {
		/* the requests the device served: not the empty ones */
		p.dev_writes = iv->block.dir[WS_BLK_WRITE].requests -
			       iv->block.dir[WS_BLK_WRITE].empty;
		p.dev_write_service_ns = iv->block.dir[WS_BLK_WRITE].service_ns;
	}
	for (unsigned int i = 0; i < iv->nprobes && i < WS_SERIES_PROBES; i++) {
		p.probe_p99[i] = iv->probes[i].p99_ns;
		p.probe_max[i] = iv->probes[i].max_ns;
		p.probe_stalls[i] = iv->probes[i].stalls;
	}
	return p;
}

bool recorder_mark_point(const struct ws_mark *prev, const struct ws_mark *m,
			 bool last, struct ws_point *p)
{
	if (m->t_ns <= prev->t_ns || m->bytes < prev->bytes ||
	    (!last && m->bytes == prev->bytes))
		return false;
	*p = (struct ws_point){
		.t_ns = m->t_ns, .dt_ns = m->t_ns - prev->t_ns,
		.bytes = m->bytes, .dbytes = m->bytes - prev->bytes,
	};
	p->mibps = ws_mibps(p->dbytes, p->dt_ns);
	return true;
}

bool recorder_final_mark_stands(uint64_t last_pending, size_t npoints)
{
	return !npoints || !last_pending;
}

static double progress(const struct ws_run *run, uint64_t bytes, uint64_t t)
{
	double f = -1.0;

	if (run->plan.total != WS_UNBOUNDED)
		f = (double)bytes / (double)run->plan.total;
	if (run->set.duration_ns) {
		double ft = (double)t / (double)run->set.duration_ns;

		if (ft > f)
			f = ft;
	}
	return f > 1.0 ? 1.0 : f;
}

void recorder_make_interval(const struct ws_run *run,
			    const struct ws_sample *prev, uint64_t prev_t_ns,
			    const struct ws_sample *now, uint64_t now_t_ns,
			    struct ws_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->t_ns = now_t_ns;
	iv->dt_ns = now_t_ns - prev_t_ns;
	iv->bytes = now->bytes;
	iv->dbytes = now->bytes - prev->bytes;
	for (int t = 0; t < WS_T_NR; t++)
		iv->time_ns[t] = now->time_ns[t] - prev->time_ns[t];
	iv->mibps = ws_mibps(iv->dbytes, iv->dt_ns);
	iv->avg_mibps = ws_mibps(iv->bytes, iv->t_ns);
	iv->progress = progress(run, now->bytes, now_t_ns);
	if (iv->progress > 0.0)
		iv->eta_ns = (uint64_t)((double)now_t_ns *
					(1.0 - iv->progress) / iv->progress);
	recorder_busiest(iv);
}

void recorder_busiest(struct ws_interval *iv)
{
	int top = WS_T_WRITE;

	for (int t = 0; t < WS_T_NR; t++)
		if (iv->time_ns[t] > iv->time_ns[top])
			top = t;
	iv->busiest = (enum ws_timer)top;
	iv->busiest_share = iv->dt_ns ? (double)iv->time_ns[top] / (double)iv->dt_ns : 0;
	if (iv->busiest_share > 1.0)
		iv->busiest_share = 1.0;
}

void recorder_precondition_eta(const struct ws_run *run, struct ws_interval *iv)
{
	uint64_t pre = run->plan.precondition;

	if (iv->index || !pre || pre == UINT64_MAX || !(iv->mibps > 0) ||
	    (!run->set.steady.until && !run->set.steady.precondition_set))
		return;
	iv->precondition_eta_ns = (uint64_t)((double)pre /
					     (iv->mibps * (double)WS_MIB) * 1e9);
}

bool recorder_fold_final(const struct ws_interval *prev, uint64_t interval_ns,
			 struct ws_interval *iv)
{
	double w;

	if (!iv->index || 2 * iv->dt_ns >= interval_ns)
		return false;
	iv->mibps = ws_mibps(prev->dbytes + iv->dbytes, prev->dt_ns + iv->dt_ns);
	/* the device's counters over a few milliseconds are its bursts */
	w = (double)prev->dt_ns / (double)(prev->dt_ns + iv->dt_ns);
	if (iv->have_device && prev->have_device)
		iv->dev_mibps = w * prev->dev_mibps + (1 - w) * iv->dev_mibps;
	return true;
}

enum ws_limit recorder_limit_in_memory(enum ws_limit l)
{
	return l == WS_LIMIT_WRITEBACK || l == WS_LIMIT_DIRECT ||
	       l == WS_LIMIT_QUEUED || l == WS_LIMIT_WRITE ? WS_LIMIT_MEMORY : l;
}

enum ws_limit recorder_limit(const uint64_t time_ns[WS_T_NR],
			     uint64_t elapsed_ns, bool direct)
{
	double total = elapsed_ns ? (double)elapsed_ns : 1.0;
	double wait = (double)(time_ns[WS_T_WAIT] + time_ns[WS_T_START]) / total;
	double write = (double)time_ns[WS_T_WRITE] / total;
	double queue = (double)(time_ns[WS_T_SUBMIT] + time_ns[WS_T_COMPLETE]) / total;

	if ((double)time_ns[WS_T_RATE] / total >= 0.5)
		return WS_LIMIT_RATE;
	if ((double)time_ns[WS_T_FILL] / total >= 0.5)
		return WS_LIMIT_FILL;
	if (wait >= 0.5)
		return WS_LIMIT_WRITEBACK;
	if (queue >= 0.5)
		return WS_LIMIT_QUEUED;
	if (write >= 0.5)
		return direct ? WS_LIMIT_DIRECT : WS_LIMIT_WRITE;
	return WS_LIMIT_NONE;
}

void recorder_make_summary(const struct ws_run *run, const struct ws_sample *s,
			   const struct ws_outcome *o, int signo,
			   struct ws_summary *sum)
{
	struct ws_ending *e = &sum->ending;
	struct ws_probe_summary *held = sum->probes;

	memset(sum, 0, sizeof(*sum));
	sum->probes = held;
	sum->bytes = s->bytes;
	sum->buffers = s->buffers;
	sum->wraps = s->wraps;
	sum->elapsed_ns = o->end_ns > s->start_ns ? o->end_ns - s->start_ns : 0;
	memcpy(sum->time_ns, s->time_ns, sizeof(sum->time_ns));
	sum->writers_ns = sum->elapsed_ns;
	sum->mibps = ws_mibps(sum->bytes, sum->elapsed_ns);
	e->reason = o->reason;
	e->err = o->err;
	e->err_op = o->err_op;
	e->err_offset = o->err_offset;
	e->detail = o->detail;
	e->detail_bytes = o->detail_bytes;
	e->signo = o->reason == WS_STOP_SIGNAL ? signo : 0;
	e->signal = e->signo ? signals_name(e->signo) : NULL;
	sum->limit = recorder_limit(sum->time_ns, sum->elapsed_ns, run->queue.direct);
	if (run->target.in_memory)
		sum->limit = recorder_limit_in_memory(sum->limit);
	sum->cpu_writer_ns = o->writer_cpu_ns;
	sum->queue_peak = o->queue_peak;
	sum->cpu_verify_ns = o->verify_cpu_ns;
	if (o->verify) {
		sum->verified = true;
		sum->verify = *o->verify;
	}
}

void recorder_add_cpu(struct ws_summary *sum, uint64_t process_ns,
		      uint64_t watcher_ns)
{
	/* the read-back after the run is no part of writing it */
	sum->cpu_ns = process_ns > sum->cpu_verify_ns ?
		      process_ns - sum->cpu_verify_ns : 0;
	process_ns = sum->cpu_ns;
	sum->cpu_probes_ns = watcher_ns;
	for (unsigned int i = 0; i < sum->nprobes; i++)
		sum->cpu_probes_ns += sum->probes[i].cpu_ns;
	sum->cpu_s_per_gib = sum->bytes ? (double)process_ns / 1e9 /
					  ((double)sum->bytes / (double)WS_GIB) : 0;
}

/* After the last mark, what the final wait saw on disk.  Its time is not
 * known (the writer learns of a buffer on disk a buffer late), so it goes
 * at its phase's rate: the cells add up to the run's bytes and none shows
 * a rate the run never had.  Phases not judged, the one phase is the
 * run's average: the last mark's rate, then. */
static bool progress_tail(const struct ws_summary *sum, struct ws_point *tail)
{
	const struct ws_series *s = sum->progress;
	const struct ws_analysis *a = sum->analysis;
	const struct ws_point *last;
	double mibps;

	if (!s || !s->n || !a || !a->nphases)
		return false;
	last = &s->pts[s->n - 1];
	mibps = a->phases_verdict == WS_PHASES_JUDGED ?
		a->phases[a->nphases - 1].mibps : last->mibps;
	if (sum->bytes <= last->bytes || mibps <= 0)
		return false;
	*tail = (struct ws_point){
		.bytes = sum->bytes, .dbytes = sum->bytes - last->bytes,
		.dt_ns = (uint64_t)((double)(sum->bytes - last->bytes) /
				    (mibps * (double)WS_MIB) * 1e9),
	};
	tail->t_ns = last->t_ns + tail->dt_ns;
	tail->mibps = mibps;
	return true;
}

void recorder_analyse(const struct ws_run *run, const struct ws_series *progress,
		      uint64_t writing_ns, uint64_t elapsed_ns,
		      struct ws_analysis *a, struct ws_summary *sum)
{
	struct ws_analysis_input in = {
		.marks = progress->pts, .nmarks = progress->n,
		.writing_ns = writing_ns, .elapsed_ns = elapsed_ns,
		.end_bytes = sum->bytes,
		/* from the run's start: a target's among several has none */
		.dev_traced = sum->block_rounds_on,
		.dev_rounds = sum->block_rounds, .ndev_rounds = sum->nblock_rounds,
	};

	if (analysis_run(&in, &run->params, a))	/* no memory to judge by */
		a->steady.judged = a->steady.reached = false;
	sum->progress = progress;
	sum->analysis = a;
	recorder_make_cells(&run->set, sum);
}

void recorder_make_cells(const struct ws_settings *set, struct ws_summary *sum)
{
	struct ws_point tail;
	const struct ws_point *t = progress_tail(sum, &tail) ? &tail : NULL;

	sum->cell_bytes = series_cell_size(sum->bytes, set->bucket, 32, WS_MAX_CELLS);
	sum->ncells = series_cells(sum->progress, t, sum->cell_bytes, sum->cells,
				   WS_MAX_CELLS);
	sum->curve_bytes = series_cell_size(sum->bytes, set->bucket,
					    WS_CURVE_CELLS, WS_CURVE_CELLS);
	sum->ncurve = series_cells(sum->progress, t, sum->curve_bytes, sum->curve,
				   WS_CURVE_CELLS);
	sum->curve_top = 0;
	for (size_t i = 0; i < sum->ncurve; i++)
		if (sum->curve[i].mibps > sum->curve_top)
			sum->curve_top = sum->curve[i].mibps;
}

void recorder_add_latencies(struct ws_latency_totals *t, const struct hist *h)
{
	t->count += hist_count(h);
	/* 2^64 ns is 584 years of latency: hi stays 0 */
	t->sum_ns += h->sum.lo;
	for (unsigned int b = 0; b < WS_LATENCY_BUCKETS; b++)
		t->le[b] += hist_count_le(h, ws_latency_bounds_ns[b]);
}

void recorder_probe_take(struct recorder_probe_run *run,
			 const struct ws_probe_take *take, uint64_t now_ns,
			 uint64_t stall_ns, const char *name,
			 struct ws_probe_interval *pi)
{
	recorder_probe_interval(take, now_ns, stall_ns, pi);
	pi->name = name;
	run->stalls_total += pi->stalls;
	pi->stalls_total = run->stalls_total;
	recorder_add_latencies(&run->latency, &take->hist);
	pi->latency = run->latency;
	hist_merge(&run->so_far, &take->hist);
	pi->run_count = hist_count(&run->so_far);
	pi->run_p99_ns = pi->run_count ? hist_percentile(&run->so_far, 99) : 0;
	pi->run_max_ns = pi->run_count ? hist_max(&run->so_far) : 0;
}

void recorder_probe_interval(const struct ws_probe_take *take,
			     uint64_t now_ns, uint64_t stall_ns,
			     struct ws_probe_interval *pi)
{
	pi->count = hist_count(&take->hist);
	pi->p50_ns = hist_percentile(&take->hist, 50);
	pi->p99_ns = hist_percentile(&take->hist, 99);
	pi->max_ns = hist_max(&take->hist);
	pi->stalls = take->stalls;
	pi->errors = take->errors;
	pi->inflight_ns = take->inflight_since && now_ns > take->inflight_since ?
			  now_ns - take->inflight_since : 0;
	/* a probe stuck for 30 s is the story of its interval, not a gap */
	if (pi->inflight_ns > pi->max_ns)
		pi->max_ns = pi->inflight_ns;
	pi->blocked = take->inflight_since && pi->inflight_ns >= stall_ns;
	memcpy(pi->site, take->site, sizeof(pi->site));
}

static void add_max(uint64_t *to, uint64_t v)
{
	if (v > *to)
		*to = v;
}

void recorder_add_traced(struct ws_block_figures *run_block,
			 struct ws_journal_figures *run_journal,
			 const struct ws_block_figures *block,
			 const struct ws_journal_figures *journal)
{
	run_block->on = block->on;
	run_block->bios_on = block->bios_on;
	/* wbt: its changes add up, its limits and latencies are the latest */
	run_block->wbt_on = block->wbt_on;
	run_block->wbt_changes += block->wbt_changes;
	if (block->wbt.known)
		run_block->wbt = block->wbt;
	if (block->wbt_look.known)
		run_block->wbt_look = block->wbt_look;
	for (int d = 0; d < WS_BLK_NR; d++) {
		struct ws_block_dir *to = &run_block->dir[d];
		const struct ws_block_dir *from = &block->dir[d];

		to->requests += from->requests;
		to->bytes += from->bytes;
		to->time_ns += from->time_ns;
		to->service_ns += from->service_ns;
		to->empty += from->empty;
		add_max(&to->max_service_ns, from->max_service_ns);
		to->bios += from->bios;
		to->merged += from->merged;
		to->splits += from->splits;
		to->request_waits += from->request_waits;
		to->request_wait_ns += from->request_wait_ns;
		add_max(&to->max_request_wait_ns, from->max_request_wait_ns);
		ws_latency_merge(&to->queue, &from->queue);
		ws_latency_merge(&to->service, &from->service);
	}
	for (int k = 0; k < WS_SUB_NR; k++) {
		run_block->by[k].requests += block->by[k].requests;
		run_block->by[k].bytes += block->by[k].bytes;
		run_block->by[k].service_ns += block->by[k].service_ns;
		run_block->by[k].flushes += block->by[k].flushes;
		run_block->by[k].flush_ns += block->by[k].flush_ns;
	}
	run_block->flushes += block->flushes;
	run_block->flush_ns += block->flush_ns;
	add_max(&run_block->max_flush_ns, block->max_flush_ns);
	run_block->fua += block->fua;
	run_block->lost += block->lost;
	run_block->unmatched += block->unmatched;
	run_journal->on = journal->on;
	run_journal->dirty_on = journal->dirty_on;
	run_journal->wb_on = journal->wb_on;
	run_journal->wb_works += journal->wb_works;
	run_journal->wb_pages += journal->wb_pages;
	for (int r = 0; r < WS_WB_REASONS; r++)
		run_journal->wb_by_reason[r] += journal->wb_by_reason[r];
	run_journal->commits += journal->commits;
	run_journal->time_ns += journal->time_ns;
	add_max(&run_journal->max_ns, journal->max_ns);
	run_journal->locked_ns += journal->locked_ns;
	run_journal->flushing_ns += journal->flushing_ns;
	run_journal->logging_ns += journal->logging_ns;
	run_journal->blocks += journal->blocks;
	run_journal->dirty_pauses += journal->dirty_pauses;
	run_journal->dirty_paused_ns += journal->dirty_paused_ns;
	run_journal->writer_paused_ns += journal->writer_paused_ns;
}
