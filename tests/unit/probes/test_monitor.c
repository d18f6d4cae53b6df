/* The monitor: stalls, in-flight visibility, wait sites, coordinated
 * omission and fixed memory, with a scripted probe in place of real I/O. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/clock.h"
#include "fake_clock.h"
#include "system/kstat.h"
#include "probes/monitor.h"
#include "recorder/recorder.h"
#include "suites.h"
#include "lib/units.h"

#define MS WS_NSEC_PER_MSEC

/* The scripted probe, on a fake clock: every run reads one byte from a
 * pipe, and a feeder thread moves the clock by the run's scripted delay
 * before it writes that byte, so the monitor measures exactly the script.
 * A run of at least the stall threshold is held - blocked for real in
 * pipe_read, a kernel wait site for the watcher to find - until the test
 * releases it. */
struct script {
	int pipe[2];
	const uint64_t *delays;
	unsigned int n;
	uint64_t hold_from;		/* delays this long wait for release */
	atomic_uint runs_started;
	atomic_uint released;		/* held runs the test let go */
	struct fake_clock *clock;
};

static struct script the_script;

static int scripted_run(struct probe *p)
{
	char c;

	(void)p;
	atomic_fetch_add(&the_script.runs_started, 1);
	return read(the_script.pipe[0], &c, 1) == 1 ? 0 : -EIO;
}

static void nothing(struct probe *p)
{
	(void)p;
}

/* in fsync's place, under a name of its own */
static const struct probe_ops scripted_ops = {
	.kind = WS_PROBE_FSYNC,
	.run = scripted_run,
	.cleanup = nothing,
};

static void *feeder(void *arg)
{
	struct script *sc = arg;
	unsigned int held = 0;

	for (unsigned int i = 0; i < sc->n; i++) {
		while (atomic_load(&sc->runs_started) <= i)
			usleep(200);
		fake_clock_advance(sc->clock, sc->delays[i]);
		if (sc->delays[i] >= sc->hold_from) {
			held++;
			while (atomic_load(&sc->released) < held)
				usleep(200);
		}
		if (write(sc->pipe[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

struct rig {
	struct ws_config cfg;
	struct ws_snapshot snap;
	struct fake_clock clock;
	struct monitor mon;
	pthread_t feeder;
};

static struct rig *start_rig(const uint64_t *delays, unsigned int n)
{
	struct rig *r = calloc(1, sizeof(*r));
	struct monitor_probe *mp;
	char err[256];

	ck_assert_ptr_nonnull(r);
	config_defaults(&r->cfg);
	r->cfg.set.probe_interval_ns = 20 * MS;
	r->cfg.set.stall_ns = 100 * MS;
	fake_clock_init(&r->clock, 1000 * MS);
	ck_assert_int_eq(snapshot_init(&r->snap), 0);
	memset(&the_script, 0, sizeof(the_script));
	ck_assert_int_eq(pipe(the_script.pipe), 0);
	the_script.delays = delays;
	the_script.n = n;
	the_script.hold_from = r->cfg.set.stall_ns;
	the_script.clock = &r->clock;

	/* an empty monitor, given one hand-made probe */
	r->cfg.set.probes = 0;
	ck_assert_int_eq(monitor_init(&r->mon, &r->cfg,
				      &(struct monitor_site){ .cfg = &r->cfg, .snap = &r->snap }, 1,
				      err, sizeof(err), NULL), 0);
	r->mon.clock = &r->clock.ops;
	r->mon.probes = calloc(1, sizeof(*r->mon.probes));	/* monitor_cleanup frees */
	ck_assert_ptr_nonnull(r->mon.probes);
	mp = &r->mon.probes[0];
	mp->mon = &r->mon;
	mp->snap = &r->snap;
	snprintf(mp->name, sizeof(mp->name), "scripted");
	mp->probe.ops = &scripted_ops;
	mp->probe.fd = mp->probe.dirfd = -1;
	hist_init(&mp->fig.raw);
	hist_init(&mp->fig.corrected);
	ck_assert_int_eq(probe_door_init(&mp->door), 0);
	r->mon.nprobes = 1;
	ck_assert_int_eq(pthread_create(&r->feeder, NULL, feeder, &the_script), 0);
	ck_assert_int_eq(monitor_start(&r->mon), 0);
	return r;
}

/* Let a held run go. */
static void release(void)
{
	atomic_fetch_add(&the_script.released, 1);
}

static void stop_rig(struct rig *r)
{
	pthread_join(r->feeder, NULL);
	/* the probe may have started a run past the script: it needs its
	 * byte to see the stop (it takes no time on the fake clock) */
	atomic_store(&r->mon.stop, true);
	if (write(the_script.pipe[1], "xx", 2) != 2)
		ck_abort();
	monitor_stop(&r->mon);
}

static void free_rig(struct rig *r)
{
	monitor_cleanup(&r->mon);	/* the door too; no files to remove */
	close(the_script.pipe[0]);
	close(the_script.pipe[1]);
	snapshot_destroy(&r->snap);
	free(r);
}

/* The door's wait site for the stall in progress ("" none yet). */
static void door_site(struct monitor_probe *mp, char *out)
{
	pthread_mutex_lock(&mp->door.lock);
	memcpy(out, mp->door.site, WS_SITE_LEN);
	pthread_mutex_unlock(&mp->door.lock);
}

/* The record's summary of a stopped probe, as the recorder builds it. */
static void summarise(const struct monitor_probe *mp, struct ws_probe_summary *ps)
{
	struct monitor_probe_figures *f = malloc(sizeof(*f));
	struct recorder_probe_run run = { 0 };

	ck_assert_ptr_nonnull(f);
	monitor_copy_figures(mp, f);
	recorder_probe_summary(&run, f, ps);
	ps->name = NULL;	/* run's, gone */
	free(f);
}

static const uint64_t one_stall[] = {
	1 * MS, 1 * MS, 1 * MS, 300 * MS, 1 * MS, 1 * MS, 1 * MS,
};

/*
 * Seven runs on a 20 ms schedule, the fourth held for 300 ms: one stall
 * of exactly 300 ms; the schedule skipped the (300 - 20) / 20 + 1 = 15
 * slots that passed meanwhile; coordinated omission hid 300 / 20 - 1 = 14
 * samples, which the corrected view adds back; and the watcher saw the
 * held run waiting in the kernel's pipe read.
 */
START_TEST(test_known_stall_is_reported)
{
	struct rig *r = start_rig(one_stall, 7);
	struct monitor_probe *mp = &r->mon.probes[0];
	struct ws_probe_summary ps;
	char site[WS_SITE_LEN] = "";

	while (!site[0]) {	/* the watcher looks every 50 ms */
		usleep(1000);
		door_site(mp, site);
	}
	release();
	stop_rig(r);
	summarise(mp, &ps);
	ck_assert_uint_ge(ps.count, 7);	/* and perhaps one past the script */
	ck_assert_uint_le(ps.count, 8);
	ck_assert_uint_eq(ps.nstalls, 1);
	ck_assert_uint_eq(ps.longest.duration_ns, 300 * MS);
	ck_assert_uint_eq(ps.max, 300 * MS);
	ck_assert_uint_eq(ps.stall_total_ns, 300 * MS);
	ck_assert_uint_eq(ps.c_count, ps.count + 14);
	ck_assert_uint_eq(mp->fig.sched_misses, 15);
	/* anon_pipe_read since 6.15, pipe_read before */
	ck_assert_ptr_nonnull(strstr(site, "pipe_read"));
	ck_assert_uint_ge(ps.ntop, 1);
	ck_assert_str_eq(ps.sites[0].name, site);
	ck_assert_str_eq(ps.longest.site, site);
	ck_assert_uint_ge(ps.sites[0].samples, 1);
	free_rig(r);
}
END_TEST

static const uint64_t long_stall[] = { 1 * MS, 600 * MS, 1 * MS };

/* A run held for 600 ms is visible while it is stuck, as the recorder
 * samples the door: blocked, its age the clock's 600 ms, the interval's
 * maximum at least that. */
START_TEST(test_inflight_visible_while_stuck)
{
	struct rig *r = start_rig(long_stall, 3);
	struct monitor_probe *mp = &r->mon.probes[0];
	struct ws_probe_take *take = calloc(1, sizeof(*take));
	struct ws_probe_interval pi = { .blocked = false };

	ck_assert_ptr_nonnull(take);
	while (!pi.blocked) {
		usleep(1000);
		probe_door_take(&mp->door, take);
		memset(&pi, 0, sizeof(pi));
		recorder_probe_interval(take, r->clock.ops.now(&r->clock.ops),
					r->cfg.set.stall_ns, &pi);
	}
	ck_assert_uint_eq(pi.inflight_ns, 600 * MS);
	ck_assert_uint_ge(pi.max_ns, pi.inflight_ns);
	release();
	stop_rig(r);
	free(take);
	free_rig(r);
}
END_TEST

/* Fixed memory: a million recorded probes, stalls among them, grow RSS by
 * less than 1 MiB. */
static long rss_kib(void)
{
	char buf[4096];
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	char *p;

	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strstr(buf, "VmRSS:");
	return p ? strtol(p + 6, NULL, 10) : -1;
}

/* One probe of a monitor that never started: enough for monitor_record. */
struct one_probe {
	struct monitor *m;
	struct ws_config cfg;
	struct ws_snapshot snap;
	struct monitor_probe *mp;
};

static void one_probe_init(struct one_probe *o)
{
	o->m = calloc(1, sizeof(*o->m));
	ck_assert_ptr_nonnull(o->m);
	o->m->probes = calloc(1, sizeof(*o->m->probes));
	ck_assert_ptr_nonnull(o->m->probes);
	o->mp = &o->m->probes[0];
	config_defaults(&o->cfg);
	ck_assert_int_eq(snapshot_init(&o->snap), 0);
	o->m->cfg = &o->cfg;
	o->mp->snap = &o->snap;
	o->mp->mon = o->m;
	hist_init(&o->mp->fig.raw);
	hist_init(&o->mp->fig.corrected);
	ck_assert_int_eq(probe_door_init(&o->mp->door), 0);
}

static void one_probe_destroy(struct one_probe *o)
{
	probe_door_destroy(&o->mp->door);
	snapshot_destroy(&o->snap);
	free(o->m->probes);
	free(o->m);
}

START_TEST(test_memory_fixed)
{
	struct one_probe o;
	struct monitor_probe *mp;
	struct ws_meminfo mi = { 1, 2 };
	long before, after;

	one_probe_init(&o);
	mp = o.mp;
	for (int i = 0; i < 1000; i++)	/* warm: touch everything once */
		monitor_record(mp, 1, (uint64_t)(i % 7 ? 3 : 900) * MS, 0, 0, &mi);
	before = rss_kib();
	for (uint64_t i = 0; i < 1000000; i++)
		monitor_record(mp, i, (i % 1000 ? (i % 5000) * 1000 : 700 * MS),
			       0, i, &mi);
	after = rss_kib();
	ck_assert_uint_eq(hist_count(&mp->fig.raw), 1001000);
	ck_assert_uint_gt(mp->fig.nstalls, 1000);
	ck_assert_uint_le(mp->fig.nrecorded, WS_MAX_STALLS);
	ck_assert_int_lt(after - before, 1024);
	one_probe_destroy(&o);
}
END_TEST

/* The probes' latencies are adaptive pacing's truth: a steering probe
 * posts each one, in its slot, to every writer it steers (their worst,
 * sum and count); one that does not steer (a command's by default)
 * posts nothing. */
START_TEST(test_steering_posts)
{
	struct one_probe o;
	struct ws_snapshot other;
	struct ws_meminfo mi = { 1, 2 };
	struct adapt_obs obs[WS_SNAPSHOT_PROBES];

	one_probe_init(&o);
	ck_assert_int_eq(snapshot_init(&other), 0);
	o.mp->steers = true;
	o.mp->steer[0] = &o.snap;
	o.mp->steer[1] = &other;
	o.mp->nsteer = 2;
	monitor_record(o.mp, 1, 40 * MS, 0, 0, &mi);
	monitor_record(o.mp, 2, 10 * MS, 0, 0, &mi);
	for (int i = 0; i < 2; i++) {
		ck_assert(snapshot_take_probes(i ? &other : &o.snap, obs));
		ck_assert_uint_eq(obs[0].worst_ns, 40 * MS);
		ck_assert_uint_eq(obs[0].sum_ns, 50 * MS);
		ck_assert_uint_eq(obs[0].n, 2);
		ck_assert_uint_eq(obs[1].n, 0);
		ck_assert(!snapshot_take_probes(i ? &other : &o.snap, obs));
	}
	o.mp->steers = false;
	monitor_record(o.mp, 3, 900 * MS, 0, 0, &mi);
	ck_assert(!snapshot_take_probes(&o.snap, obs));
	ck_assert(!snapshot_take_probes(&other, obs));
	ck_assert_uint_eq(hist_count(&o.mp->fig.raw), 3);	/* still its figure */
	snapshot_destroy(&other);
	one_probe_destroy(&o);
}
END_TEST

/* A failed operation is counted apart: in no latency (the run's, the
 * interval's), no stall and no steering, however long it took; its
 * reason and a command's last line of stderr are kept. */
START_TEST(test_failure_counted_apart)
{
	struct one_probe o;
	struct ws_meminfo mi = { 1, 2 };
	struct adapt_obs obs[WS_SNAPSHOT_PROBES];
	struct ws_probe_take take;
	struct ws_probe_summary *ps = calloc(1, sizeof(*ps));

	ck_assert_ptr_nonnull(ps);
	one_probe_init(&o);
	o.mp->steers = true;
	o.mp->steer[0] = &o.snap;
	o.mp->nsteer = 1;
	monitor_record(o.mp, 1, 20 * MS, 0, 0, &mi);
	o.mp->probe.fail = (struct ws_probe_failure){ .kind = WS_FAIL_EXIT, .code = 1 };
	snprintf(o.mp->probe.fail_stderr, sizeof(o.mp->probe.fail_stderr), "touch: denied");
	monitor_record(o.mp, 2, 900 * MS, -ECHILD, 0, &mi);	/* over --stall */
	monitor_record(o.mp, 3, 1 * MS, -ECHILD, 0, &mi);
	ck_assert_uint_eq(hist_count(&o.mp->fig.raw), 1);
	ck_assert_uint_eq(hist_count(&o.mp->fig.corrected), 1);
	ck_assert_uint_eq(o.mp->fig.nstalls, 0);
	ck_assert_uint_eq(o.mp->fig.errors, 2);
	ck_assert(snapshot_take_probes(&o.snap, obs));
	ck_assert_uint_eq(obs[0].n, 1);
	ck_assert_uint_eq(obs[0].worst_ns, 20 * MS);
	probe_door_take(&o.mp->door, &take);
	ck_assert_uint_eq(hist_count(&take.hist), 1);
	ck_assert_uint_eq(take.errors, 2);
	ck_assert_uint_eq(take.stalls, 0);
	summarise(o.mp, ps);
	ck_assert_uint_eq(ps->count, 1);
	ck_assert_uint_eq(ps->errors, 2);
	ck_assert_uint_eq(ps->max, hist_max(&o.mp->fig.raw));
	ck_assert_uint_lt(ps->max, 900 * MS);
	ck_assert_int_eq(ps->last_fail.kind, WS_FAIL_EXIT);
	ck_assert_int_eq(ps->last_fail.code, 1);
	ck_assert_str_eq(ps->last_stderr, "touch: denied");
	free(ps);
	one_probe_destroy(&o);
}
END_TEST

/* "A probe at least this slow is a stall" (--stall, default 500 ms): the
 * default, then one nanosecond under, at and over it. */
static const struct {
	uint64_t ns;
	bool stall;
} stall_edges[] = {
	{ 499999999, false }, { 500000000, true }, { 500000001, true },
};

START_TEST(test_stall_at_least_the_threshold)
{
	struct one_probe o;
	struct ws_meminfo mi = { 1, 2 };

	one_probe_init(&o);
	ck_assert_uint_eq(o.cfg.set.stall_ns, 500000000);
	monitor_record(o.mp, 1, stall_edges[_i].ns, 0, 0, &mi);
	ck_assert_uint_eq(o.mp->fig.nstalls, stall_edges[_i].stall);
	ck_assert_uint_eq(o.mp->fig.stall_total_ns,
			  stall_edges[_i].stall ? stall_edges[_i].ns : 0);
	one_probe_destroy(&o);
}
END_TEST

/* A stall's start counts from the writer's first write; one from before
 * it (a start held back by a CPU limit, say) shows 0 there but keeps its
 * own clock time, the span the trace is asked about. */
START_TEST(test_stall_before_the_writer)
{
	struct one_probe o;
	struct ws_meminfo mi = { 1, 2 };

	one_probe_init(&o);
	monitor_record(o.mp, 7000 * MS, 600 * MS, 0, 0, &mi);	/* no writer yet */
	atomic_store(&o.snap.start_ns, 9000 * MS);
	monitor_record(o.mp, 8000 * MS, 700 * MS, 0, 0, &mi);	/* before its start */
	monitor_record(o.mp, 9500 * MS, 800 * MS, 0, 0, &mi);	/* after */
	ck_assert_uint_eq(o.mp->fig.nrecorded, 3);
	ck_assert_uint_eq(o.mp->fig.stalls[0].start_ns, 0);
	ck_assert_uint_eq(o.mp->fig.stalls[0].at_ns, 7000 * MS);
	ck_assert_uint_eq(o.mp->fig.stalls[1].start_ns, 0);
	ck_assert_uint_eq(o.mp->fig.stalls[1].at_ns, 8000 * MS);
	ck_assert_uint_eq(o.mp->fig.stalls[2].start_ns, 500 * MS);
	ck_assert_uint_eq(o.mp->fig.stalls[2].at_ns, 9500 * MS);
	ck_assert_uint_eq(o.mp->fig.longest.at_ns, 9500 * MS);
	one_probe_destroy(&o);
}
END_TEST

/* A probe in flight for at least --stall shows as blocked, in the same
 * interval it crosses the threshold. */
START_TEST(test_blocked_at_least_the_threshold)
{
	struct ws_probe_take *take = calloc(1, sizeof(*take));
	struct ws_probe_interval pi;

	ck_assert_ptr_nonnull(take);
	hist_init(&take->hist);
	take->inflight_since = 1000;
	recorder_probe_interval(take, 1000 + stall_edges[_i].ns, 500000000, &pi);
	ck_assert_uint_eq(pi.inflight_ns, stall_edges[_i].ns);
	ck_assert_int_eq(pi.blocked, stall_edges[_i].stall);
	free(take);
}
END_TEST

static const struct {
	const char *wchan, *stack, *want;
} sites[] = {
	{ "jbd2_log_wait_commit", "", "jbd2_log_wait_commit" },
	{ "0", "[<0>] __schedule+0x2d1/0x870\n[<0>] schedule+0x5e/0xd0\n[<0>] io_schedule+0x42/0x70\n[<0>] folio_wait_bit_common+0x13d/0x350\n",
	  "folio_wait_bit_common" },
	{ "", "[<0>] balance_dirty_pages+0x2f1/0xd60\n[<0>] balance_dirty_pages_ratelimited_flags+0x2c4/0x3a0\n",
	  "balance_dirty_pages" },
	{ "schedule", "[<0>] schedule_timeout+0x9e/0x150\n[<0>] wait_for_completion+0x86/0x170\n[<0>] submit_bio_wait+0x5f/0x90\n",
	  "submit_bio_wait" },
	{ "0\n", "", NULL },
	{ NULL, NULL, NULL },
};

START_TEST(test_parse_site)
{
	char out[WS_SITE_LEN] = "";
	bool found = monitor_parse_site(sites[_i].wchan, sites[_i].stack, out,
					sizeof(out));

	ck_assert_int_eq(found, sites[_i].want != NULL);
	ck_assert_str_eq(out, sites[_i].want ? sites[_i].want : "");
}
END_TEST

/*
 * Which probes steer, and whom: under --pace adaptive every probe but a
 * command by default, those --steer-by names otherwise, none under
 * another mode; each posts to every writer of its site, and the setup
 * tells those writers its slot's idle time and syncs (fsync 1, save 2).
 */
static const struct {
	enum ws_pace pace;
	unsigned int steer_by;
	bool fsync, save;
} steering[] = {
	{ WS_PACE_ADAPTIVE, 0, true, true },
	{ WS_PACE_ADAPTIVE, 1u << WS_PROBE_SAVE, false, true },
	{ WS_PACE_WINDOW, 0, false, false },
};

START_TEST(test_steering_selection)
{
	char dir[] = "/tmp/ws-steer-XXXXXX", path[64], err[256];
	struct ws_config cfg;
	struct monitor *m = calloc(1, sizeof(*m));
	struct ws_snapshot *snap = calloc(2, sizeof(*snap));
	struct monitor_site site = { .cfg = &cfg, .snap = &snap[0], .nsteer = 2 };

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(snap);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/big", dir);
	config_defaults(&cfg);
	cfg.set.path = path;
	cfg.set.pace = steering[_i].pace;
	cfg.set.pacing.steer_by = steering[_i].steer_by;
	cfg.set.probes = (1u << WS_PROBE_FSYNC) | (1u << WS_PROBE_SAVE);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(snapshot_init(&snap[i]), 0);
		site.steer[i] = &snap[i];
	}
	ck_assert_int_eq(monitor_init(m, &cfg, &site, 1, err, sizeof(err), NULL), 0);
	ck_assert_uint_eq(m->nprobes, 2);
	ck_assert_str_eq(m->probes[0].name, "fsync");
	ck_assert_int_eq(m->probes[0].steers, steering[_i].fsync);
	ck_assert_int_eq(m->probes[1].steers, steering[_i].save);
	ck_assert_uint_eq(m->probes[1].nsteer, 2);
	m->probes[0].idle_ns = 3000000;
	m->probes[1].idle_ns = 5000000;
	monitor_setup_steering(m);
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(snap[i].steer_setup[0].steers, steering[_i].fsync);
		ck_assert_int_eq(snap[i].steer_setup[1].steers, steering[_i].save);
		ck_assert_int_eq(snap[i].steer_setup[2].steers, false);
		if (steering[_i].save) {
			ck_assert_uint_eq(snap[i].steer_setup[1].idle_ns, 5000000);
			ck_assert_uint_eq(snap[i].steer_setup[1].syncs, 2);
		}
		if (steering[_i].fsync)
			ck_assert_uint_eq(snap[i].steer_setup[0].syncs, 1);
	}
	monitor_cleanup(m);
	for (int i = 0; i < 2; i++)
		snapshot_destroy(&snap[i]);
	ck_assert_int_eq(rmdir(dir), 0);	/* the probes' files are gone */
	free(snap);
	free(m);
}
END_TEST

START_TEST(test_meminfo_fixture)
{
	char dir[] = "/tmp/ws-kstat-XXXXXX", path[128];
	struct ws_meminfo mi;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/proc/meminfo", dir);
	f = fopen(path, "w");
	fputs("MemTotal:       24000000 kB\nDirty:             1234 kB\nWriteback:          56 kB\nWritebackTmp:        9 kB\n", f);
	fclose(f);
	ck_assert_int_eq(kstat_meminfo(dir, &mi), 0);
	ck_assert_uint_eq(mi.dirty, 1234 * 1024);
	ck_assert_uint_eq(mi.writeback, 56 * 1024);
	f = fopen(path, "w");
	fputs("MemTotal:       24000000 kB\nWritebackTmp:        9 kB\n", f);
	fclose(f);
	ck_assert_int_eq(kstat_meminfo(dir, &mi), -EINVAL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
	ck_assert_int_eq(kstat_meminfo(dir, &mi), -ENOENT);
}
END_TEST

Suite *monitor_suite(void)
{
	Suite *s = suite_create("monitor");
	TCase *tc = tcase_create("threads");
	TCase *pure = tcase_create("pure");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_stall_at_least_the_threshold, 0, 3);
	tcase_add_test(tc, test_stall_before_the_writer);
	tcase_add_loop_test(tc, test_blocked_at_least_the_threshold, 0, 3);
	tcase_add_test(tc, test_known_stall_is_reported);
	tcase_add_test(tc, test_inflight_visible_while_stuck);
	tcase_add_test(tc, test_memory_fixed);
	tcase_add_loop_test(tc, test_steering_selection, 0, 3);
	tcase_add_test(tc, test_steering_posts);
	tcase_add_test(tc, test_failure_counted_apart);
	tcase_add_loop_test(pure, test_parse_site, 0,
			    sizeof(sites) / sizeof(sites[0]));
	tcase_add_test(pure, test_meminfo_fixture);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, pure);
	return s;
}
