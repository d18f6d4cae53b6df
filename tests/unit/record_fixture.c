/* record_fixture.c - the fixed record of the sinks' golden tests, made by
 * the tool's own code from a made-up run, and the golden-file comparison
 * (see record_fixture.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <check.h>

#include "recorder/aggregate.h"
#include "analysis/analysis.h"
#include "fixtures.h"
#include "system/kstat.h"
#include "config/plan.h"
#include "probes/probe.h"
#include "record_fixture.h"
#include "recorder/recorder.h"
#include "analysis/series.h"
#include "analysis/steady.h"
#include "run/target.h"
#include "lib/units.h"
#include "trace/culprits.h"
#include "trace/evidence.h"

#define SEC WS_NSEC_PER_SEC
#define MS WS_NSEC_PER_MSEC
#define BUF (8 * WS_MIB)
#define BASE (1000 * SEC)	/* CLOCK_MONOTONIC when the writer started */
#define SLOT (2500 * MS)	/* a progress mark: four an interval */
#define FAST_SLOTS 10		/* 240 MiB/s for 25 s, then about 56 */
#define FAST_END (FAST_SLOTS * SLOT)
#define MAX_OPS 1024		/* a probe's operations in the run */

/* ---- the made-up run ------------------------------------------------- */

/* MiB/s reaching the disk in each 2.5 s slot: the SSD's cache, then its
 * native rate with a few % of noise. */
static const double slot_mibps[] = {
	240.0, 238.0, 242.0, 240.0, 237.0, 243.0, 240.0, 239.0, 241.0, 240.0,
	56.0, 57.5, 54.2, 55.0, 53.6, 54.8, 58.3, 57.6, 58.9, 57.8,
	56.4, 55.7, 57.1, 56.2, 56.0, 56.8, 55.3, 56.5, 57.4, 55.9,
	56.2, 55.5, 56.7, 56.0, 55.8, 56.3, 57.0, 55.4, 56.1, 56.6,
};
#define NSLOTS ((int)(sizeof(slot_mibps) / sizeof(slot_mibps[0])))

/* Where the writer's time went, as shares of the fast and the slow part. */
static const double fast_share[WS_T_NR] = {
	[WS_T_FILL] = 0.07, [WS_T_WRITE] = 0.68, [WS_T_START] = 0.015,
	[WS_T_WAIT] = 0.21, [WS_T_FADVISE] = 0.025,
};
static const double slow_share[WS_T_NR] = {
	[WS_T_FILL] = 0.018, [WS_T_WRITE] = 0.15, [WS_T_START] = 0.012,
	[WS_T_WAIT] = 0.81, [WS_T_FADVISE] = 0.01,
};

/* Interval k's device and pressure figures (k = 0 has none). */
static const double dev_busy[] = { 0, 71.4, 96.8, 99.6, 99.8, 99.5, 99.7, 99.7 };
static const uint64_t dev_queue[] = { 0, 6, 28, 32, 31, 32, 30, 32 };
static const double psi_some[] = { 0, 9.8, 41.3, 62.7, 63.5, 61.9, 60.4, 60.9 };
static const double psi_full[] = { 0, 6.1, 28.4, 44.0, 45.2, 43.7, 42.1, 42.6 };

/* Bytes on disk t ns after the start. */
static double disk_bytes(uint64_t t)
{
	double b = 0;

	for (int k = 0; k < NSLOTS; k++) {
		uint64_t from = (uint64_t)k * SLOT;

		if (t <= from)
			break;
		b += slot_mibps[k] * (double)WS_MIB *
		     (double)((t < from + SLOT ? t : from + SLOT) - from) / 1e9;
	}
	return b;
}

/* When `bytes` were on disk. */
static uint64_t time_at(double bytes)
{
	double b = 0;

	for (int k = 0; k < NSLOTS; k++) {
		double in_slot = slot_mibps[k] * (double)WS_MIB * (double)SLOT / 1e9;

		if (b + in_slot >= bytes)
			return (uint64_t)k * SLOT +
			       (uint64_t)((bytes - b) / (slot_mibps[k] * (double)WS_MIB) * 1e9 + 0.5);
		b += in_slot;
	}
	ck_abort_msg("the made-up run is too short for %.0f bytes", bytes);
	return 0;
}

static uint64_t whole_buffers(double bytes)
{
	return (uint64_t)(bytes / (double)BUF) * BUF;
}

struct story {
	enum fixture_ending ending;
	uint64_t end;		/* since the start: everything on disk */
	uint64_t bytes;		/* written in all */
};

/* Accepted by write() at t: one buffer ahead of the disk (window 1). */
static uint64_t written(const struct story *st, uint64_t t)
{
	uint64_t b = t ? whole_buffers(disk_bytes(t)) + BUF : 0;

	return t >= st->end || b > st->bytes ? st->bytes : b;
}

static void timers_at(uint64_t t, uint64_t out[WS_T_NR])
{
	uint64_t fast = t < FAST_END ? t : FAST_END, slow = t - fast, sum = 0;

	for (int i = 0; i < WS_T_NR; i++) {
		if (i == WS_T_WAIT)
			continue;
		out[i] = (uint64_t)(fast_share[i] * (double)fast +
				    slow_share[i] * (double)slow + 0.5);
		sum += out[i];
	}
	out[WS_T_WAIT] = t - sum;
}

static struct ws_meminfo meminfo_at(uint64_t t)
{
	uint64_t k = t / SLOT;

	if (t < FAST_END)
		return (struct ws_meminfo){ (15564 + k * 523 % 900) * WS_KIB,
					    (8192 + k * 97 % 400) * WS_KIB };
	return (struct ws_meminfo){ (9628 + k * 311 % 700) * WS_KIB,
				    (8704 + k * 131 % 500) * WS_KIB };
}

static struct ws_sample sample_at(const struct story *st, uint64_t t,
				  const struct ws_plan *plan)
{
	struct ws_sample s = { .start_ns = BASE, .bytes = written(st, t) };

	s.buffers = s.bytes / BUF;
	s.offset = s.bytes % plan->file_size;
	s.wraps = s.bytes ? (s.bytes - 1) / plan->file_size : 0;
	timers_at(t, s.time_ns);
	return s;
}

/* ---- probes ---------------------------------------------------------- */

struct op {
	uint64_t start, ns;	/* since the writer started */
	int ret;
	const char *site;	/* where a stall waited most */
	bool done;
};

struct probe_run {
	struct op ops[MAX_OPS];
	size_t n, next;		/* next: the first not yet booked */
};

/* The stalls: which probe, when (the first operation from then on), how
 * long, where. */
static const struct {
	unsigned int probe;
	uint64_t start, ns;
	const char *site;
} stalls[] = {
	{ 0, 27300 * MS, 740 * MS, "btrfs_sync_log" },
	{ 0, 38400 * MS, 2100 * MS, "folio_wait_writeback" },
	{ 1, 38550 * MS, 1300 * MS, "folio_wait_writeback" },
	{ 0, 52000 * MS, 620 * MS, "wait_current_trans" },
};

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* An ordinary operation's latency: a few ms while the cache takes the
 * writes, tens of ms (the save probe's up to 150) once the disk is slow. */
static uint64_t latency(unsigned int probe, uint64_t start, uint64_t *rng)
{
	uint64_t r = next_rand(rng) % 1000;

	if (start < FAST_END)
		return probe ? 4100 * 1000 + r * 9800 : 2400 * 1000 + r * 6500;
	return probe ? 38 * MS + r * 115 * 1000 : 24 * MS + r * 68 * 1000;
}

/* Probe j's operations up to the end: one every --probe-interval, the
 * save probe 50 ms after the fsync probe; a slot that finds the last one
 * still running is missed. */
static void make_ops(struct monitor_probe *mp, unsigned int j,
		     const struct story *st, struct probe_run *pr)
{
	uint64_t every = mp->mon->cfg->set.probe_interval_ns;
	uint64_t rng = 0x9e3779b97f4a7c15ull + j, t = j * 50 * MS;
	bool used[ARRAY_SIZE(stalls)] = { false };

	pr->n = pr->next = 0;
	while (t < st->end && pr->n < MAX_OPS) {
		struct op *o = &pr->ops[pr->n++];
		uint64_t end;

		*o = (struct op){ .start = t, .ns = latency(j, t, &rng) };
		for (size_t k = 0; k < ARRAY_SIZE(stalls); k++)
			if (stalls[k].probe == j && t >= stalls[k].start && !used[k]) {
				used[k] = true;
				o->ns = stalls[k].ns;
				o->site = stalls[k].site;
			}
		end = t + o->ns;
		t += every;
		while (t < end) {
			mp->fig.sched_misses++;
			t += every;
		}
	}
	/* the save probe's last operation ends after the writer did */
	if (j == 1 && pr->n)
		pr->ops[pr->n - 1].ns = st->end - pr->ops[pr->n - 1].start + 200 * MS;
	/* near the error, the fsync probe's file cannot grow either (in the
	 * final interval: the last operation ends after the writer) */
	if (j == 0 && pr->n > 1 && st->ending == FIXTURE_ERROR)
		pr->ops[pr->n - 2].ret = -ENOSPC;
}

/* What the stall watcher does: samples the stalled probe's wait site
 * every 10 ms, four in five where it waits most. */
static void watch_stall(struct monitor_probe *mp, const struct op *o)
{
	static const char second[] = "btrfs_commit_transaction";
	uint64_t n = o->ns / (10 * MS);
	const struct ws_site_count now[2] = {
		{ .samples = n - n / 5 }, { .samples = n / 5 },
	};

	mp->ncurrent = 2;
	mp->current[0] = now[0];
	mp->current[1] = now[1];
	snprintf(mp->current[0].name, WS_SITE_LEN, "%s", o->site);
	snprintf(mp->current[1].name, WS_SITE_LEN, "%s", second);
	mp->current_since = BASE + o->start;
	for (unsigned int c = 0; c < 2; c++) {
		unsigned int i = 0;

		while (i < mp->fig.nsites && strcmp(mp->fig.sites[i].name, mp->current[c].name))
			i++;
		if (i == mp->fig.nsites && mp->fig.nsites < WS_MAX_SITES)
			snprintf(mp->fig.sites[mp->fig.nsites++].name, WS_SITE_LEN, "%s",
				 mp->current[c].name);
		if (i < mp->fig.nsites)
			mp->fig.sites[i].samples += mp->current[c].samples;
	}
}

/* Book every operation of pr that ended by t, as the probe thread does;
 * then, if one is still running at t, show it in flight on the door. */
static void book_until(struct monitor_probe *mp, struct probe_run *pr,
		       const struct story *st, uint64_t t)
{
	while (pr->next < pr->n && pr->ops[pr->next].start + pr->ops[pr->next].ns <= t) {
		struct op *o = &pr->ops[pr->next++];
		struct ws_meminfo mi = meminfo_at(o->start);

		if (o->site)
			watch_stall(mp, o);
		monitor_record(mp, BASE + o->start, o->ns, o->ret,
			       written(st, o->start), &mi);
	}
	if (pr->next < pr->n && pr->ops[pr->next].start < t) {
		const struct op *o = &pr->ops[pr->next];

		probe_door_begin(&mp->door, BASE + o->start);
		if (o->site && t - o->start >= mp->mon->cfg->set.stall_ns)
			probe_door_set_site(&mp->door, o->site);
	}
}

/* ---- the record ------------------------------------------------------ */

static char *argv_[] = {
	"writestress", "--size", "8G", "--file-size", "4G", "--fadvise",
	"--interval", "10s", "--probe", "fsync,save", "--precondition", "4G",
	"--steady-window", "3", "--ioprio", "be:7", "--json", "run.json",
	"--csv", "run.csv", "--svg", "run.svg", "/var/tmp/big.dat", NULL,
};

/* What the command line above makes of config_defaults(). */
static void make_config(struct ws_config *cfg)
{
	config_defaults(cfg);
	cfg->set.path = "/var/tmp/big.dat";
	cfg->set.total_size = 8 * WS_GIB;
	cfg->file_size = 4 * WS_GIB;
	cfg->set.pacing.fadvise = true;
	cfg->set.interval_ns = 10 * SEC;
	cfg->set.probes = 1u << WS_PROBE_FSYNC | 1u << WS_PROBE_SAVE;
	cfg->set.steady.precondition_set = true;
	cfg->set.steady.asked = true;	/* as --steady-window does */
	cfg->set.steady.precondition_bytes = 4 * WS_GIB;
	cfg->set.steady.window = 3;
	cfg->set.ioprio_class = WS_IOPRIO_BE;
	cfg->set.ioprio_level = 7;
	cfg->set.json_path = "run.json";
	cfg->set.csv_path = "run.csv";
	cfg->set.svg_path = "run.svg";
}

static void make_run(struct record_fixture *f, enum fixture_ending e)
{
	struct ws_space space = {
		.fs_size = UINT64_C(1000202043392),
		.avail = e == FIXTURE_ERROR ? UINT64_C(5905580032) : UINT64_C(442701012992),
	};
	struct ws_target target = { .created = true, .fs_type = "btrfs", .space = space };
	struct ws_plan_refusal why;
	struct recorder_sources src = {
		.cfg = &f->cfg, .plan = &f->plan, .target = &target, .fp = &f->fp,
		.mon = &f->mon, .argc = (int)ARRAY_SIZE(argv_) - 1, .argv = argv_,
	};
	struct ws_run *run = &f->run;

	make_config(&f->cfg);
	ck_assert_int_eq(fingerprint_collect(tree("nvme"), makedev(0, 33),
					     f->cfg.set.path, &f->fp), 0);
	f->fp.block_size = 4096;	/* the caller's statvfs */
	ck_assert_int_eq(plan_make(&f->cfg, &space, &f->plan, &why), 0);
	ck_assert_int_eq(plan_precondition(&f->cfg, fingerprint_capacity(&f->fp),
					   &f->plan), 0);

	f->mon.cfg = &f->cfg;
	f->mon.proc_root = "";
	f->mon.nprobes = 2;
	f->mon.probes = calloc(f->mon.nprobes, sizeof(*f->mon.probes));
	ck_assert_ptr_nonnull(f->mon.probes);
	f->mon.probes[0].probe.ops = probe_kinds[WS_PROBE_FSYNC];
	f->mon.probes[1].probe.ops = probe_kinds[WS_PROBE_SAVE];
	for (unsigned int j = 0; j < f->mon.nprobes; j++) {
		f->mon.probes[j].snap = &f->snap;
		snprintf(f->mon.probes[j].name, sizeof(f->mon.probes[j].name), "%s",
			 probe_name(&f->mon.probes[j].probe));
	}
	f->mon.memory_locked = true;
	f->mon.realtime_why = (struct ws_denial_why){ .kind = WS_DENIED_RLIMIT };
	for (unsigned int j = 0; j < f->mon.nprobes; j++) {
		f->mon.probes[j].mon = &f->mon;
		ck_assert_int_eq(probe_door_init(&f->mon.probes[j].door), 0);
		hist_init(&f->mon.probes[j].fig.raw);
		hist_init(&f->mon.probes[j].fig.corrected);
	}

	recorder_make_run(&src, run);
	/* what recorder_make_run() read from the machine and the clock */
	snprintf(run->sysname, sizeof(run->sysname), "Linux");
	snprintf(run->release, sizeof(run->release), "6.8.0-51-generic");
	snprintf(run->version, sizeof(run->version),
		 "#52-Ubuntu SMP PREEMPT_DYNAMIC Thu Dec  5 13:09:44 UTC 2024");
	snprintf(run->machine, sizeof(run->machine), "x86_64");
	snprintf(run->hostname, sizeof(run->hostname), "testhost");
	run->started_at = 1735732800;	/* 2025-01-01T12:00:00Z */
	snprintf(run->probes.dir, sizeof(run->probes.dir), "/var/tmp");
	run->argc = (int)ARRAY_SIZE(argv_) - 1;
	run->argv = argv_;
}

static struct story make_story(enum fixture_ending e)
{
	struct story st = { .ending = e };
	uint64_t stop;

	if (e == FIXTURE_BOUND) {
		st.bytes = 8 * WS_GIB;
	} else {
		/* the writer stops after the buffer in flight, which then
		 * reaches the disk before the clock stops */
		stop = e == FIXTURE_SIGNAL ? 34200 * MS : 47600 * MS;
		st.bytes = whole_buffers(disk_bytes(stop)) + BUF;
	}
	st.end = time_at((double)st.bytes);
	return st;
}

/* The device's counters over [from, to): the data and btrfs's metadata
 * (1.2% more), in sectors. */
static void add_device(struct ws_interval *iv, uint64_t from, uint64_t to,
		       unsigned int k)
{
	double bytes = (disk_bytes(to) - disk_bytes(from)) * 1.012;

	iv->have_device = true;
	iv->dev_bytes = (uint64_t)(bytes / WS_SECTOR) * WS_SECTOR;
	iv->dev_mibps = ws_mibps(iv->dev_bytes, to - from);
	iv->dev_inflight = dev_queue[k];
	iv->dev_busy_pct = dev_busy[k];
	iv->have_psi = true;
	iv->psi_some_pct = psi_some[k];
	iv->psi_full_pct = psi_full[k];
}

/* The bound run was traced: each interval's device bytes in 1 MiB
 * requests of 20 ms at the device (the longest 45), sent by the flusher,
 * two bios each (one merged, the other waiting 2 ms for it), three cache
 * flushes, one dirty-limit pause of 120 ms, one background writeback work
 * of the flusher writing it all; no journal (btrfs has no jbd2); the
 * totals since the start added by the recorder's own code. */
static void add_traced(struct ws_interval *iv, unsigned int k)
{
	static struct ws_block_figures run_block;
	static struct ws_journal_figures run_journal;
	struct ws_block_dir *w = &iv->block.dir[WS_BLK_WRITE];

	if (k == 1) {
		memset(&run_block, 0, sizeof(run_block));
		memset(&run_journal, 0, sizeof(run_journal));
	}
	iv->block.on = true;
	w->requests = (iv->dev_bytes + WS_MIB - 1) / WS_MIB;
	w->bytes = iv->dev_bytes;
	w->service_ns = w->requests * 20 * MS;
	w->time_ns = w->service_ns + w->requests * MS;
	w->max_service_ns = 45 * MS;
	/* each request 1 ms queued and 20 ms at the device, but the last
	 * one's 45 ms: the buckets as the sums say */
	for (uint64_t i = 0; i < w->requests; i++) {
		ws_latency_add(&w->queue, MS);
		ws_latency_add(&w->service, i + 1 < w->requests ? 20 * MS : 45 * MS);
	}
	w->service_ns += w->requests ? 25 * MS : 0;
	w->time_ns += w->requests ? 25 * MS : 0;
	/* two bios a request, one merged into it, each waiting 2 ms for it
	 * (the longest 5) */
	iv->block.bios_on = true;
	w->bios = 2 * w->requests;
	w->merged = w->requests;
	w->request_waits = w->requests;
	w->request_wait_ns = w->requests * 2 * MS;
	w->max_request_wait_ns = w->requests ? 5 * MS : 0;
	iv->block.by[WS_SUB_FLUSHER] = (struct ws_block_sub){
		.requests = w->requests, .bytes = w->bytes, .service_ns = w->service_ns };
	iv->block.flushes = 3;
	iv->block.by[WS_SUB_JOURNAL].flushes = 3;
	iv->block.by[WS_SUB_JOURNAL].flush_ns = iv->block.flush_ns = 6 * MS;
	iv->block.max_flush_ns = 3 * MS;
	iv->journal = (struct ws_journal_figures){ .dirty_on = true, .dirty_pauses = 1,
						   .dirty_paused_ns = 120 * MS,
						   .writer_paused_ns = 100 * MS,
						   .wb_on = true, .wb_works = 1,
						   .wb_pages = iv->dev_bytes / 4096 };
	iv->journal.wb_by_reason[0] = 1;	/* background */
	/* a backup writing beside the run, its name with a blank */
	iv->writers = (struct ws_writers_now){ .traced = true, .n = k % 2 ? 2 : 1,
		.total_written = (k + 1) * 4 * WS_MIB + 16384 };
	iv->writers.top[0].pid = 5000;
	iv->writers.top[0].written = (k + 1) * 4 * WS_MIB;
	snprintf(iv->writers.top[0].comm, WS_COMM_LEN, "rsync backup");
	iv->writers.top[1].pid = 6000;
	iv->writers.top[1].written = 16384;
	snprintf(iv->writers.top[1].comm, WS_COMM_LEN, "bash");
	recorder_add_traced(&run_block, &run_journal, &iv->block, &iv->journal);
	iv->block_run = run_block;
	iv->journal_run = run_journal;
}

/* The interval [from, to), k-th, as the recorder's emit() makes it. */
static void make_interval(struct record_fixture *f, const struct story *st,
			  struct probe_run *pr, uint64_t from, uint64_t to,
			  bool final)
{
	unsigned int k = f->niv;
	struct ws_interval *iv = &f->iv[k];
	struct ws_sample prev = sample_at(st, from, &f->plan);
	struct ws_sample now = sample_at(st, to, &f->plan);
	struct ws_meminfo mi = meminfo_at(to);
	static struct ws_probe_take take;
	struct ws_point p;
	bool folded;

	ck_assert_uint_lt(k, FIXTURE_MAX_INTERVALS);
	recorder_make_interval(&f->run, &prev, from, &now, to, iv);
	if (k)
		add_device(iv, from, to, k);
	if (k && st->ending == FIXTURE_BOUND)
		add_traced(iv, k);
	iv->have_meminfo = true;
	iv->dirty = mi.dirty;
	iv->writeback = mi.writeback;
	for (unsigned int j = 0; j < f->mon.nprobes; j++) {
		struct monitor_probe *mp = &f->mon.probes[j];
		struct ws_probe_interval *pi = &iv->probes[j];

		book_until(mp, &pr[j], st, to);
		probe_door_take(&mp->door, &take);
		if (!k)
			hist_init(&f->probe_run[j].so_far);
		recorder_probe_take(&f->probe_run[j], &take, BASE + to, f->cfg.set.stall_ns,
				    probe_name(&mp->probe), pi);
		iv->nprobes++;
	}
	iv->index = k;
	recorder_precondition_eta(&f->run, iv);
	folded = final && k && recorder_fold_final(&f->iv[k - 1], f->cfg.set.interval_ns, iv);
	p = recorder_interval_point(iv);
	if (folded)
		series_extend_last(&f->series, &p);
	else
		series_add(&f->series, &p);
	f->niv++;
}

/* The progress marks, as the recorder's add_mark() takes them: one a
 * slot, at the end of the last buffer then on disk, one buffer pending
 * (window 1), so the final mark does not stand. */
static uint64_t make_progress(struct record_fixture *f, const struct story *st)
{
	struct ws_mark last = { 0 };
	uint64_t pending = 0;
	struct ws_point p;

	for (uint64_t t = SLOT; t < st->end; t += SLOT) {
		uint64_t b = whole_buffers(disk_bytes(t));
		struct ws_mark m = { .t_ns = time_at((double)b), .bytes = b,
				     .pending = BUF };

		pending = m.pending;
		if (!recorder_mark_point(&last, &m, false, &p))
			continue;
		series_add(&f->progress, &p);
		last = m;
	}
	if (recorder_final_mark_stands(pending, f->progress.n) &&
	    recorder_mark_point(&last, &(struct ws_mark){ st->end, st->bytes, 0 },
				true, &p))
		series_add(&f->progress, &p);
	series_finish(&f->progress);
	return last.t_ns;
}

/* The bound run was traced (trace/evidence.h, fed made-up events): the
 * disk's requests in the summary and their bios (two each, one merged),
 * wbt cutting its limits once, this process's dirty-limit pauses, the
 * flusher's two works, no
 * journal (btrfs has no jbd2), and each stall of the fsync probe
 * explained by the tracer's own rules, its cause and figures as data the
 * sinks word: the first by eight requests in the disk at once (a queue),
 * the second by one slow request (the device), the third by nothing
 * traced (unknown). */
static void explain(const struct evidence *ev, const struct culprits *cul,
		    struct ws_stall *st)
{
	struct stall_query q = { BASE + st->start_ns, st->duration_ns, st->site, 4243, 0, 0 };

	evidence_explain(ev, &q, &st->reason);
	culprits_window(cul, BASE + st->start_ns, st->duration_ns, &st->culprits);
}

/* Other processes' writes, through the tracer's own rules: a backup
 * whose pages a worker wrote back, then its direct write; a shell's
 * small file; the journal. */
static void culprit_story(struct culprits *c, struct ws_summary *sum)
{
	static const struct culprit_who who[] = {
		{ 5000, 5000, false, false, "rsync", "/system.slice/backup.service" },
		{ 5001, 5000, false, false, "rsync", "/system.slice/backup.service" },
		{ 6000, 6000, false, false, "bash", "/user.slice/user-1000.slice/session-2.scope" },
		{ 77, 77, true, true, "kworker/u8:2", "" },
		{ 78, 78, true, false, "jbd2/sda2-8", "" },
	};

	ck_assert_int_eq(culprits_init(c, BASE, 4242), 0);
	for (size_t i = 0; i < ARRAY_SIZE(who); i++)
		culprits_learn(c, &who[i]);
	culprits_dirtied(c, BASE + 26 * SEC, 5001, 12);
	culprits_dirtied(c, BASE + 26 * SEC, 6000, 13);
	culprits_inode_written(c, BASE + 27500 * MS, 77, 12, 20480);	/* 80 MiB */
	culprits_inode_written(c, BASE + 27500 * MS, 77, 13, 4);
	culprits_completed(c, BASE + 27800 * MS, (80 << 20) + 16384);
	culprits_bio(c, BASE + 39500 * MS, 5000, 4 << 20);
	culprits_bio(c, BASE + 39500 * MS, 78, 64 << 10);
	culprits_completed(c, BASE + 39600 * MS, (4 << 20) + (64 << 10));
	culprits_table(c, &sum->culprits);
}

static void trace_story(struct ws_summary *sum, uint64_t round_ns)
{
	static struct evidence ev;
	static struct culprits cul;
	struct trace_event e = { .kind = TE_BLOCK };
	/* requests completed: when, how long at the device, who sent them */
	static const struct { uint64_t at, service; const char *comm; } done[] = {
		{ 27400 * MS, 300 * MS, "kworker/u8:2" }, { 27450 * MS, 300 * MS, "kworker/u8:2" },
		{ 27500 * MS, 300 * MS, "kworker/u8:2" }, { 27550 * MS, 300 * MS, "ws-writer" },
		{ 27600 * MS, 300 * MS, "btrfs-transacti" }, { 27700 * MS, 300 * MS, "ws-probe-fsync" },
		{ 27650 * MS, 300 * MS, "kworker/u8:2" }, { 27750 * MS, 300 * MS, "kworker/u8:2" },
		{ 39600 * MS, 1200 * MS, "kworker/u8:0" }, { 52100 * MS, 20 * MS, "ws-probe-save" },
	};

	evidence_free(&ev);	/* the previous story's */
	culprits_free(&cul);
	evidence_init(&ev, BASE);
	culprit_story(&cul, sum);
	journal_traced(&ev.jn, false, false, true);	/* btrfs: no journal traced */
	ck_assert_int_eq(roundlat_start(&ev.bs.rounds, BASE, round_ns), 0);
	observer_start(&ev.bs.obs, BASE);
	evidence_bios_traced(&ev);
	evidence_flusher_traced(&ev);
	for (size_t i = 0; i < ARRAY_SIZE(done); i++) {
		struct trace_event b = { .kind = TE_BIO };

		/* its bio, queued 500 µs before it got its request (the
		 * first one's 2 ms), and one more merged into it */
		b.bio = (struct bio_event){ .kind = BIO_QUEUE, .sector = 2048 * (i + 1),
					    .nr_sector = 1024, .rwbs = "W",
					    .ts_ns = BASE + done[i].at - done[i].service - MS -
						     (i ? MS / 2 : 2 * MS) };
		evidence_event(&ev, &b);
		b.bio.sector += 1024;
		evidence_event(&ev, &b);
		b.bio.kind = BIO_MERGE;
		evidence_event(&ev, &b);
		e.blk = (struct blk_event){ .kind = BLK_GETRQ, .sector = 2048 * (i + 1),
					    .nr_sector = 2048, .rwbs = "W",
					    .ts_ns = BASE + done[i].at - done[i].service - MS };
		snprintf(e.blk.comm, sizeof(e.blk.comm), "%s", done[i].comm);
		evidence_event(&ev, &e);
		e.blk.kind = BLK_ISSUE;
		e.blk.comm[0] = '\0';
		e.blk.ts_ns += MS;
		evidence_event(&ev, &e);
		e.blk.kind = BLK_COMPLETE;
		e.blk.ts_ns = BASE + done[i].at;
		evidence_event(&ev, &e);
	}
	e.kind = TE_DIRTY;
	e.dirty = (struct dirty_event){ BASE + 10 * SEC, 4242, 180 * MS, true };
	evidence_event(&ev, &e);
	/* wbt: cut once after reads took 3.1 ms at the least */
	e.kind = TE_WBT_STAT;
	e.wbt_stat = (struct wbt_stat_event){ BASE + 27 * SEC, 3100000, 4200000, 8800000, 12, 40 };
	evidence_event(&ev, &e);
	e.kind = TE_WBT;
	e.wbt = (struct wbt_event){ BASE + 27 * SEC, 1, 100000, 8, 16, 32 };
	evidence_event(&ev, &e);
	/* the flusher: a periodic work of 2048 pages, a background one of
	 * 3072 */
	e.kind = TE_WB;
	e.wb = (struct wb_event){ BASE + 27 * SEC, false, 2048, 3, 1 };
	evidence_event(&ev, &e);
	e.wb = (struct wb_event){ BASE + 28 * SEC, true, 0, 3, 1 };
	evidence_event(&ev, &e);
	e.wb = (struct wb_event){ BASE + 39 * SEC, false, INT64_MAX, 0, 1 };
	evidence_event(&ev, &e);
	e.wb = (struct wb_event){ BASE + 41 * SEC, true, INT64_MAX - 3072, 0, 1 };
	evidence_event(&ev, &e);
	evidence_settle(&ev, true);
	evidence_take(&ev, &sum->block, &sum->journal);
	sum->block = ev.bs.run;
	sum->journal = ev.jn.run;
	sum->block_write_p50_ns = 300 * MS;
	sum->block_write_p99_ns = 1200 * MS;
	roundlat_finish(&ev.bs.rounds);
	sum->block_rounds_on = true;
	sum->block_rounds = ev.bs.rounds.done;
	sum->nblock_rounds = ev.bs.rounds.ndone;
	observer_finish(&ev.bs.obs);
	observer_estimate(&ev.bs.obs, &sum->observer);
	for (unsigned int p = 0; p < sum->nprobes; p++) {
		struct ws_probe_summary *ps = &sum->probes[p];

		for (unsigned int k = 0; k < ps->nrecorded; k++)
			explain(&ev, &cul, &ps->stalls[k]);
		if (ps->nstalls)
			explain(&ev, &cul, &ps->longest);
	}
	ws_summary_count_culprit_stalls(sum);
}

static void make_summary(struct record_fixture *f, const struct story *st,
			 struct probe_run *pr)
{
	struct ws_sample now = sample_at(st, st->end, &f->plan);
	/* CPU times as the threads would report them: fixed, not measured */
	struct ws_outcome o = { .end_ns = BASE + st->end,
				.writer_cpu_ns = 1200 * WS_NSEC_PER_MSEC };
	struct ws_summary *sum = &f->sum;
	static struct ws_probe_take take;
	static struct monitor_probe_figures fig;
	uint64_t writing;
	int signo = 0;

	if (st->ending == FIXTURE_SIGNAL) {
		o.reason = WS_STOP_SIGNAL;
		signo = SIGINT;
	} else if (st->ending == FIXTURE_ERROR) {
		o.reason = WS_STOP_ERROR;
		o.err = ENOSPC;
		o.err_op = "reserve";
		o.err_offset = st->bytes % f->plan.file_size;
		o.detail = WS_DETAIL_RESERVE;
		o.detail_bytes = f->plan.reserve;
	}
	if (st->ending == FIXTURE_ERROR) {
		/* --verify's read-back: one corrupt block, one lost write */
		static struct ws_verify v;

		v = (struct ws_verify){
			.run = 0x5eed, .blocks = st->bytes / WS_BLOCK,
			.last_pass = 0, .last_pass_end = st->bytes - st->bytes % WS_BLOCK,
			.run_end = st->bytes - st->bytes % WS_BLOCK,
			.stale = 1, .nlisted = 2,
			.listed = { { .offset = 40960, .state = WS_BLOCK_CORRUPT },
				    { .offset = 81920, .state = WS_BLOCK_OK, .stale = true } },
		};
		v.count[WS_BLOCK_CORRUPT] = 1;
		v.count[WS_BLOCK_OK] = v.blocks - 2;
		o.verify = &v;
	}
	ck_assert_int_eq(ws_summary_hold_probes(sum, f->mon.nprobes), 0);
	recorder_make_summary(&f->run, &now, &o, signo, sum);
	for (unsigned int j = 0; j < f->mon.nprobes; j++) {
		struct monitor_probe *mp = &f->mon.probes[j];

		/* the recorder's take_late_probes() */
		book_until(mp, &pr[j], st, UINT64_MAX / 2);
		probe_door_take(&mp->door, &take);
		monitor_copy_figures(mp, &fig);
		recorder_probe_summary(&f->probe_run[j], &fig, &sum->probes[j]);
		sum->probes[j].after_end = hist_count(&take.hist);
		sum->probes[j].after_end_max_ns = hist_count(&take.hist) ?
						  hist_max(&take.hist) : 0;
		sum->nprobes++;
	}
	if (st->ending == FIXTURE_BOUND)
		trace_story(sum, f->run.params.round_ns);
	series_finish(&f->series);
	writing = make_progress(f, st);
	recorder_analyse(&f->run, &f->progress, writing, st->end, &f->analysis, sum);
	sum->series = &f->series;
	recorder_add_cpu(sum, 2500 * WS_NSEC_PER_MSEC, 40 * WS_NSEC_PER_MSEC);
}

static struct record_fixture *make_two_targets(void);

/* The two targets' writers paced adaptively to 50 ms: target 1's
 * controller steered by fsync (about 1.4 waits an operation) and settled
 * at 8 s; target 2's found the target out of reach at 3 s (save took
 * 180 ms at the floor) and held the floor. */
static const uint64_t adapt_target_ns = 50 * WS_NSEC_PER_MSEC;

static struct ws_adapt_figures adapt_at(unsigned int p, uint64_t t_ns)
{
	bool out = p == 1 && t_ns >= 3 * WS_NSEC_PER_SEC;
	struct ws_adapt_figures a = {
		.chunk = p ? 65536 : 1048576, .window = p ? 1 : 6,
		.sojourn_ns = p ? 2 * WS_NSEC_PER_MSEC : 31 * WS_NSEC_PER_MSEC,
		.setpoint_ns = p ? WS_NSEC_PER_MSEC / 2 : 33 * WS_NSEC_PER_MSEC,
		.settled = p == 0 && t_ns >= 8 * WS_NSEC_PER_SEC,
		.why = out ? WS_ADAPT_UNREACHABLE : p ? WS_ADAPT_OVER :
		       t_ns >= 8 * WS_NSEC_PER_SEC ? WS_ADAPT_SETTLED : WS_ADAPT_STARTING,
		.unreachable = out,
		.unreachable_at_ns = out ? 3 * WS_NSEC_PER_SEC : 0,
		.floor_probe = out ? 1 : -1,
		.floor_ns = out ? 180 * WS_NSEC_PER_MSEC : 0,
		.steering = p,
	};

	a.inflight = a.chunk * a.window;
	a.at_floor = p == 1;
	/* --headroom 5: target 1's disk did 250 MiB/s without the cap from
	 * 2 s on; target 2's figures have none (as a run under a second
	 * long has: the summary says why) */
	if (p == 0 && t_ns >= 2 * WS_NSEC_PER_SEC) {
		a.disk_bps = 250 * WS_MIB;
		a.cap_bps = a.disk_bps * 95 / 100;
	}
	a.waits[0] = p ? 1 : 1.4;
	a.waits[1] = p ? 2.5 : 2;
	a.idle_ns[0] = 3 * WS_NSEC_PER_MSEC / 2;
	a.idle_ns[1] = p ? 42 * WS_NSEC_PER_MSEC : 12 * WS_NSEC_PER_MSEC;
	return a;
}

static void make_adaptive(struct record_fixture *f)
{
	struct ws_settings *sets[] = { &f->cfg.set, &f->run.set, &f->runs[0].set,
				       &f->runs[1].set };

	for (size_t i = 0; i < ARRAY_SIZE(sets); i++) {
		sets[i]->pace = WS_PACE_ADAPTIVE;
		sets[i]->pacing.target_latency_ns = adapt_target_ns;
		sets[i]->pacing.headroom_pct = 5;
	}
	for (unsigned int k = 0; k < f->niv; k++)
		for (unsigned int p = 0; p < f->iv[k].ntargets; p++) {
			struct ws_interval *t = &f->tiv[k][p];

			t->have_adapt = true;
			t->adapt = adapt_at(t->number - 1, t->t_ns);
		}
	for (unsigned int p = 0; p < 2; p++) {
		struct ws_summary *sum = &f->sums[p];

		sum->have_adapt = true;
		sum->adapt = adapt_at(p, sum->elapsed_ns);
		sum->target_latency_ns = adapt_target_ns;
		sum->headroom_pct = 5;
		sum->adapt_settled_ns = p ? 0 : 8 * WS_NSEC_PER_SEC;
	}
	/* the run's: target 1's state; not every controller settled, the
	 * first that did not says why */
	f->sum.have_adapt = true;
	f->sum.adapt = f->sums[0].adapt;
	f->sum.adapt.settled = false;
	f->sum.adapt.why = f->sums[1].adapt.why;
	f->sum.target_latency_ns = adapt_target_ns;
	f->sum.headroom_pct = 5;
}

struct record_fixture *record_fixture_make(enum fixture_ending e)
{
	struct record_fixture *f;
	struct probe_run *pr = calloc(2, sizeof(*pr));
	struct story st;
	uint64_t t;

	if (e == FIXTURE_TWO_TARGETS) {
		free(pr);
		return make_two_targets();
	}
	f = calloc(1, sizeof(*f));
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(pr);
	ck_assert_int_eq(snapshot_init(&f->snap), 0);
	snapshot_start(&f->snap, BASE);
	make_run(f, e);
	series_init(&f->series);
	series_init(&f->progress);
	st = make_story(e);
	for (unsigned int j = 0; j < f->mon.nprobes; j++)
		make_ops(&f->mon.probes[j], j, &st, &pr[j]);
	for (t = 0; t + f->cfg.set.interval_ns < st.end; t += f->cfg.set.interval_ns)
		make_interval(f, &st, pr, t, t + f->cfg.set.interval_ns, false);
	make_interval(f, &st, pr, t, st.end, true);
	make_summary(f, &st, pr);
	free(pr);
	return f;
}

/* The aggregate of the two records, as the recorder's tick() and
 * run_summary() make it: intervals summed tick by tick (target 2 ends
 * early), the probes from target 1's (one filesystem, one set), the
 * summary and the progress added up and analysed. */
static struct record_fixture *make_two_targets(void)
{
	struct record_fixture *f = calloc(1, sizeof(*f)), *a, *b;
	const struct ws_series *ps[2];
	const uint64_t offset[2] = { 0, 0 };

	ck_assert_ptr_nonnull(f);
	a = f->part[0] = record_fixture_make(FIXTURE_BOUND);
	b = f->part[1] = record_fixture_make(FIXTURE_ERROR);
	f->cfg = a->cfg;
	f->cfg.ntargets = 2;
	f->cfg.paths[0] = a->cfg.set.path;
	f->cfg.paths[1] = b->cfg.set.path = "/var/tmp/big.dat.2";
	f->plan = a->plan;
	f->runs[0] = a->run;
	f->runs[1] = b->run;
	f->runs[1].set = b->cfg.set;
	f->runs[1].target.path = b->cfg.set.path;
	f->runs[0].number = 1;
	f->runs[1].number = 2;
	f->runs[1].same_device_as = 1;
	f->run = a->run;
	f->run.set = f->cfg.set;
	f->run.ntargets = 2;
	f->run.targets = f->runs;
	for (unsigned int k = 0; k < a->niv; k++) {
		static const bool own[2] = { true, false };
		struct ws_interval *iv = &f->iv[k];
		unsigned int n = 0;

		*iv = a->iv[k];		/* the context: meminfo, PSI, probes */
		iv->bytes = a->iv[k].bytes;
		for (unsigned int p = 0; p < 2; p++) {
			struct record_fixture *part = f->part[p];
			unsigned int last = part->niv - 1;

			if (k <= last) {
				struct ws_interval *t = &f->tiv[k][n++];

				*t = part->iv[k];
				t->number = p + 1;
				t->final = k == last;
				/* the machine's figures are the run's */
				t->nprobes = 0;
				t->have_meminfo = t->have_psi = false;
				t->precondition_eta_ns = 0;
			}
			if (p)
				iv->bytes += part->iv[k <= last ? k : last].bytes;
		}
		if (k + 1 == a->niv && b->iv[b->niv - 1].t_ns > iv->t_ns)
			iv->t_ns = b->iv[b->niv - 1].t_ns;
		aggregate_interval(f->tiv[k], n, own, iv);
		iv->ntargets = n;
		iv->targets = f->tiv[k];
		f->niv++;
	}
	f->sums[0] = a->sum;
	f->sums[1] = b->sum;
	f->sum.nprobes = a->sum.nprobes;
	f->sum.probes = a->sum.probes;	/* target 1's: it outlives f->sum */
	aggregate_summary(f->sums, 2, a->sum.elapsed_ns, false, &f->sum);
	series_init(&f->series);
	for (unsigned int k = 0; k < f->niv; k++) {
		struct ws_point p = recorder_interval_point(&f->iv[k]);

		series_add(&f->series, &p);
	}
	series_finish(&f->series);
	ps[0] = &a->progress;
	ps[1] = &b->progress;
	aggregate_progress(ps, offset, 2, &f->progress);
	recorder_analyse(&f->run, &f->progress, a->sum.elapsed_ns, a->sum.elapsed_ns,
			 &f->analysis, &f->sum);
	f->sum.series = &f->series;
	recorder_add_cpu(&f->sum, a->sum.cpu_ns + b->sum.cpu_writer_ns, 0);
	make_adaptive(f);
	return f;
}

void record_fixture_free(struct record_fixture *f)
{
	if (!f)
		return;
	if (f->part[0]) {
		record_fixture_free(f->part[0]);
		record_fixture_free(f->part[1]);
		analysis_release(&f->analysis);
		series_free(&f->series);
		series_free(&f->progress);
		free(f);
		return;
	}
	analysis_release(&f->analysis);
	ws_summary_release(&f->sum);
	series_free(&f->series);
	series_free(&f->progress);
	for (unsigned int j = 0; j < f->mon.nprobes; j++)
		probe_door_destroy(&f->mon.probes[j].door);
	free(f->mon.probes);
	snapshot_destroy(&f->snap);
	free(f);
}

const struct record_fixture *record_fixture_shared(enum fixture_ending e)
{
	static struct record_fixture *made[FIXTURE_TWO_TARGETS + 1];

	ck_assert_uint_lt(e, ARRAY_SIZE(made));
	if (!made[e])
		made[e] = record_fixture_make(e);
	return made[e];
}

char *record_fixture_render(const struct record_fixture *f,
			    const struct sink_ops *ops, size_t *len)
{
	return record_fixture_render_as(f, ops, false, len);
}

char *record_fixture_render_as(const struct record_fixture *f,
			       const struct sink_ops *ops, bool verbose, size_t *len)
{
	char *buf = NULL;
	struct sink s = { .ops = ops, .verbose = verbose };

	s.out = open_memstream(&buf, len);
	ck_assert_ptr_nonnull(s.out);
	if (ops->header)
		ops->header(&s, &f->run);
	for (unsigned int i = 0; ops->interval && i < f->niv; i++)
		ops->interval(&s, &f->run, &f->iv[i]);
	if (ops->summary)
		ops->summary(&s, &f->run, &f->sum);
	/* not ops->close: that publishes a file; the JSON sink's writer
	 * state is all it would free */
	if (ops == &sink_json_ops || ops == &sink_prom_ops)
		free(s.priv);
	ck_assert_int_eq(fclose(s.out), 0);
	return golden_mask_version(buf, len);
}

/* ---- golden files ---------------------------------------------------- */

/* Every `from` in *buf (of *len bytes, NUL-terminated, malloc'd)
 * replaced by `to`; *buf may move. */
static void replace_all(char **buf, size_t *len, const char *from,
			const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), at = 0;
	char *p;

	while ((p = strstr(*buf + at, from))) {
		at = (size_t)(p - *buf);
		if (nt > nf) {
			*buf = realloc(*buf, *len + nt - nf + 1);
			ck_assert_ptr_nonnull(*buf);
			p = *buf + at;
		}
		memmove(p + nt, p + nf, *len - at - nf + 1);
		memcpy(p, to, nt);
		*len = *len - nf + nt;
		at += nt;
	}
}

char *golden_mask_version(char *buf, size_t *len)
{
	static const char *const before[] = { "writestress ", "\"version\":\"",
					      "version=\"" };
	char from[128], to[128];

	for (size_t i = 0; i < ARRAY_SIZE(before); i++) {
		snprintf(from, sizeof(from), "%s%s", before[i], WS_VERSION);
		snprintf(to, sizeof(to), "%s@VERSION@", before[i]);
		replace_all(&buf, len, from, to);
	}
	return buf;
}

char *golden_json_lines(const char *json, size_t len, size_t *outlen)
{
	char *out = malloc(2 * len + 1);
	bool in_string = false, escaped = false;
	size_t o = 0;

	ck_assert_ptr_nonnull(out);
	for (size_t i = 0; i < len; i++) {
		char c = json[i];

		out[o++] = c;
		if (in_string) {
			if (escaped)
				escaped = false;
			else if (c == '\\')
				escaped = true;
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == ',' && i + 1 < len &&
			   (json[i + 1] == '"' || json[i + 1] == '{' || json[i + 1] == '[')) {
			out[o++] = '\n';
		}
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}

/* tests/expected: next to this file's directory in the source tree (make
 * compiles from the root, so __FILE__ is "tests/unit/..." and the runner
 * runs there), else found upwards from the test binary. */
static const char *expected_dir(void)
{
	static char dir[PATH_MAX + 32];
	const char *slash = strrchr(__FILE__, '/');
	char exe[PATH_MAX];
	ssize_t n;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s/../expected",
			 (int)(slash - __FILE__), __FILE__);
	else
		snprintf(dir, sizeof(dir), "../expected");
	if (access(dir, F_OK) == 0)
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (char *s; (s = strrchr(exe, '/')); ) {
			*s = '\0';
			snprintf(dir, sizeof(dir), "%s/tests/expected", exe);
			if (access(dir, F_OK) == 0)
				return dir;
		}
	}
	ck_abort_msg("tests/expected not found from %s or the test binary", __FILE__);
	return NULL;
}

void source_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/../../%s", expected_dir(), rel);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, got;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		got = fread(buf + *len, 1, cap - *len - 1, f);
		*len += got;
		if (!got)
			break;
	}
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void spill(const char *path, const char *buf, size_t len)
{
	char tmp[2 * PATH_MAX + 16];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	ck_assert_msg(f, "cannot write %s: %s", tmp, strerror(errno));
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(rename(tmp, path) == 0, "cannot rename %s: %s", tmp,
		      strerror(errno));
}

/* The line of buf that starts at `at`, from a little before column
 * `col` on, with control characters spelled out. */
static const char *show_line(const char *buf, size_t len, size_t at,
			     size_t col, char *out, size_t outlen)
{
	size_t o = 0, from = at + (col > 60 ? col - 60 : 0);

	if (at >= len)
		return "(end of file)";
	if (from > at)
		o += (size_t)snprintf(out, outlen, "...");
	for (size_t i = from; i < len && buf[i] != '\n' && o + 8 < outlen; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\r')
			o += (size_t)snprintf(out + o, outlen - o, "\\r");
		else if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	return out;
}

bool golden_update;

void golden_check(const char *name, const char *buf, size_t len)
{
	char path[2 * PATH_MAX], actual[2 * PATH_MAX + 16], a[300], b[300];
	size_t elen, at = 0, line = 1, i = 0;
	char *exp;

	/* the variable of old: left in an environment, it would make every
	 * golden check rewrite its file and pass */
	if (getenv("WS_UPDATE_EXPECTED"))
		ck_abort_msg("%s: WS_UPDATE_EXPECTED is set: expected files are rewritten only on purpose, by `make update-expected`; unset it",
			     name);
	snprintf(path, sizeof(path), "%s/%s", expected_dir(), name);
	snprintf(actual, sizeof(actual), "%s.actual", path);
	exp = slurp(path, &elen);
	if (exp && elen == len && !memcmp(exp, buf, len)) {
		free(exp);
		unlink(actual);
		return;
	}
	if (golden_update) {	/* only a stale one, and said */
		spill(path, buf, len);
		unlink(actual);
		free(exp);
		fprintf(stderr, "update-expected: rewrote tests/expected/%s\n", name);
		return;
	}
	spill(actual, buf, len);
	if (!exp)
		ck_abort_msg("%s: no expected file (%s); the output is in %s, `make update-expected` makes it the expected one",
			     name, strerror(errno), actual);
	for (; i < len && i < elen && buf[i] == exp[i]; i++)
		if (buf[i] == '\n') {
			at = i + 1;
			line++;
		}
	ck_abort_msg("%s differs at line %zu, column %zu\n  expected: %s\n  actual:   %s\n  (the output is in %s; after a deliberate change, `make update-expected` rewrites the expected files)",
		     name, line, i - at + 1,
		     show_line(exp, elen, at, i - at, b, sizeof(b)),
		     show_line(buf, len, at, i - at, a, sizeof(a)), actual);
	free(exp);
}
