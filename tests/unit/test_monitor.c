/* The monitor: stalls, in-flight visibility, wait sites, coordinated
 * omission and fixed memory, with a scripted probe in place of real I/O. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "kstat.h"
#include "monitor.h"
#include "reporter.h"
#include "suites.h"
#include "units.h"

#define MS WS_NSEC_PER_MSEC

/* The scripted probe: every run reads one byte from a pipe; a feeder
 * thread writes that byte after the delay the script says.  Blocking in
 * pipe_read gives the watcher a real kernel wait site to find. */
struct script {
	int pipe[2];
	const uint64_t *delays;
	unsigned int n, next;
	atomic_uint runs_started;
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

static const struct probe_ops scripted_ops = {
	.name = "scripted",
	.run = scripted_run,
	.cleanup = nothing,
};

static void *feeder(void *arg)
{
	struct script *sc = arg;

	for (unsigned int i = 0; i < sc->n; i++) {
		/* wait until run i has started, then hold it for delays[i] */
		while (atomic_load(&sc->runs_started) <= i)
			usleep(200);
		struct timespec ts = ws_timespec(sc->delays[i]);

		nanosleep(&ts, NULL);
		if (write(sc->pipe[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

struct rig {
	struct ws_config cfg;
	struct ws_snapshot snap;
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
	r->cfg.probe_interval_ns = 20 * MS;
	r->cfg.stall_ns = 100 * MS;
	ck_assert_int_eq(snapshot_init(&r->snap), 0);
	memset(&the_script, 0, sizeof(the_script));
	ck_assert_int_eq(pipe(the_script.pipe), 0);
	the_script.delays = delays;
	the_script.n = n;

	/* an empty monitor, given one hand-made probe */
	r->cfg.probes = 0;
	ck_assert_int_eq(monitor_init(&r->mon, &r->cfg, &r->snap, err, sizeof(err)), 0);
	mp = &r->mon.probes[0];
	mp->mon = &r->mon;
	mp->probe.ops = &scripted_ops;
	mp->probe.fd = mp->probe.dirfd = -1;
	hist_init(&mp->raw);
	hist_init(&mp->corrected);
	ck_assert_int_eq(probe_door_init(&mp->door), 0);
	r->mon.nprobes = 1;
	ck_assert_int_eq(pthread_create(&r->feeder, NULL, feeder, &the_script), 0);
	ck_assert_int_eq(monitor_start(&r->mon), 0);
	return r;
}

static void stop_rig(struct rig *r)
{
	/* let the last scripted run finish, then stop before another starts */
	pthread_join(r->feeder, NULL);
	while (atomic_load(&r->mon.probes[0].door.inflight_since))
		usleep(200);
	atomic_store(&r->mon.stop, true);
	/* a run that started after the script ended needs its byte */
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

static const uint64_t one_stall[] = {
	1 * MS, 1 * MS, 1 * MS, 300 * MS, 1 * MS, 1 * MS, 1 * MS,
};

START_TEST(test_known_stall_is_reported)
{
	struct rig *r = start_rig(one_stall, 7);
	struct monitor_probe *mp = &r->mon.probes[0];
	struct ws_probe_summary ps;

	stop_rig(r);
	reporter_probe_summary(mp, &ps);
	ck_assert_uint_ge(ps.count, 7);
	ck_assert_uint_eq(ps.nstalls, 1);
	/* 300 ms held: measured within a few percent (never less) */
	ck_assert_uint_ge(ps.longest.duration_ns, 300 * MS);
	ck_assert_uint_lt(ps.longest.duration_ns, 330 * MS);
	ck_assert_uint_ge(ps.max, 300 * MS);
	ck_assert_uint_lt(ps.max, 330 * MS);
	ck_assert_uint_eq(ps.stall_total_ns, ps.longest.duration_ns);
	/* the stall hid 300/20 - 1 = 14 probe slots: the corrected view has them */
	ck_assert_uint_ge(ps.c_count, ps.count + 14);
	ck_assert_uint_le(ps.c_count, ps.count + 16);
	ck_assert_uint_ge(mp->sched_misses, 13);
	/* it waited in the kernel's pipe read (anon_pipe_read since 6.15),
	 * and the watcher saw it there */
	ck_assert_uint_ge(ps.ntop, 1);
	ck_assert_ptr_nonnull(strstr(ps.top_sites[0].name, "pipe_read"));
	ck_assert_str_eq(ps.longest.site, ps.top_sites[0].name);
	ck_assert_uint_ge(ps.top_sites[0].samples, 2);
	free_rig(r);
}
END_TEST

static const uint64_t long_stall[] = { 1 * MS, 600 * MS, 1 * MS };

START_TEST(test_inflight_visible_while_stuck)
{
	struct rig *r = start_rig(long_stall, 3);
	struct monitor_probe *mp = &r->mon.probes[0];
	struct ws_probe_take *take = calloc(1, sizeof(*take));
	struct ws_probe_interval pi;
	uint64_t t0 = ws_now_ns();
	bool seen = false;

	/* sample like the reporter does, every 50 ms, until it is seen stuck */
	while (!seen && ws_now_ns() - t0 < 2000 * MS) {
		usleep(50000);
		probe_door_take(&mp->door, take);
		memset(&pi, 0, sizeof(pi));
		reporter_probe_interval(take, ws_now_ns(), r->cfg.stall_ns, &pi);
		if (pi.blocked) {
			seen = true;
			ck_assert_uint_ge(pi.inflight_ns, r->cfg.stall_ns);
			/* the interval's max includes the age in flight */
			ck_assert_uint_ge(pi.max_ns, pi.inflight_ns);
		}
	}
	ck_assert_msg(seen, "a 600 ms stall was never reported in flight");
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

START_TEST(test_memory_fixed)
{
	struct monitor *m = calloc(1, sizeof(*m));
	struct ws_config cfg;
	struct ws_snapshot snap;
	struct monitor_probe *mp = &m->probes[0];
	struct ws_meminfo mi = { 1, 2 };
	long before, after;

	config_defaults(&cfg);
	ck_assert_int_eq(snapshot_init(&snap), 0);
	m->cfg = &cfg;
	m->snap = &snap;
	mp->mon = m;
	hist_init(&mp->raw);
	hist_init(&mp->corrected);
	ck_assert_int_eq(probe_door_init(&mp->door), 0);
	for (int i = 0; i < 1000; i++)	/* warm: touch everything once */
		monitor_record(mp, 1, (uint64_t)(i % 7 ? 3 : 900) * MS, 0, 0, &mi);
	before = rss_kib();
	for (uint64_t i = 0; i < 1000000; i++)
		monitor_record(mp, i, (i % 1000 ? (i % 5000) * 1000 : 700 * MS),
			       0, i, &mi);
	after = rss_kib();
	ck_assert_uint_eq(hist_count(&mp->raw), 1001000);
	ck_assert_uint_gt(mp->nstalls, 1000);
	ck_assert_uint_le(mp->nrecorded, MONITOR_MAX_STALLS);
	ck_assert_int_lt(after - before, 1024);
	probe_door_destroy(&mp->door);
	snapshot_destroy(&snap);
	free(m);
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

	if (!sites[_i].want) {
		ck_assert(!found);
		return;
	}
	ck_assert(found);
	ck_assert_str_eq(out, sites[_i].want);
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
	tcase_add_test(tc, test_known_stall_is_reported);
	tcase_add_test(tc, test_inflight_visible_while_stuck);
	tcase_add_test(tc, test_memory_fixed);
	tcase_add_loop_test(pure, test_parse_site, 0,
			    sizeof(sites) / sizeof(sites[0]));
	tcase_add_test(pure, test_meminfo_fixture);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, pure);
	return s;
}
