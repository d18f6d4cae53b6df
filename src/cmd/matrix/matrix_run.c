/* matrix_run.c - the matrix's runs: a child writestress each, a quiet wait
 * before it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/array.h"
#include "lib/c.h"
#include "lib/cli.h"
#include "lib/exit.h"
#include "lib/hist.h"
#include "lib/units.h"
#include "system/clock.h"
#include "system/kstat.h"
#include "cmd/common/result_read.h"
#include "cmd/matrix/matrix.h"
#include "matrix_state.h"

#define LAYOUT_DEFAULT WS_GIB

static volatile sig_atomic_t interrupted;
static volatile pid_t running;	/* the child now running, or 0 */

/* The child has a process group of its own: a Ctrl-C reaches it once,
 * from here, and it ends its run cleanly. */
static void on_signal(int sig)
{
	interrupted = sig;
	if (running > 0)
		kill(running, sig);
}

void matrix_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int matrix_interrupted(void)
{
	return interrupted;
}

static const char *dir_of(const char *file, char *buf, size_t len)
{
	return ws_dirname(file, buf, len) ? "." : buf;
}

/* -1: a filesystem on no single block device. */
static long long device_sectors(const char *dir)
{
	struct ws_diskstat d;
	char sys[64];
	struct stat sb;

	if (stat(dir, &sb))
		return -1;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(sb.st_dev),
		 minor(sb.st_dev));
	return kstat_diskstat("", sys, &d) ? -1 : (long long)d.write_sectors;
}

/* Until matrix_quiet() (a throttle's queue or a drive's cache drains
 * too), so one run's backlog never leaks into the next.  Seconds waited. */
static double quiet_wait(const char *file, uint64_t idle, bool *timeout)
{
	uint64_t t0 = ws_now_ns(), still_since = t0;
	char dir[4096];
	const char *d = dir_of(file, dir, sizeof(dir));
	long long sectors = device_sectors(d);
	int fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	*timeout = false;
	for (;;) {
		struct ws_meminfo mi;
		long long now_sectors = device_sectors(d);
		uint64_t now = ws_now_ns();
		/* meminfo unreadable: nothing to wait for there */
		uint64_t backlog = kstat_meminfo("", &mi) ? 0 : mi.dirty + mi.writeback;

		if (now_sectors != sectors)
			still_since = now;
		sectors = now_sectors;
		if (matrix_quiet(backlog, idle, sectors >= 0, now - still_since))
			break;
		if (matrix_quiet_gave_up(now - t0) || interrupted) {
			*timeout = true;
			break;
		}
		usleep(50000);
	}
	return (double)(ws_now_ns() - t0) / 1e9;
}

/* The exit status; 128 + signal if killed. */
static int run_child(const char *const *argv, bool quiet_stdout)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		setpgid(0, 0);
		if (quiet_stdout) {
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

			if (null >= 0)
				dup2(null, STDOUT_FILENO);
		}
		execv(argv[0], (char *const *)argv);
		cli_error(matrix_options(), stderr, "cannot run %s: %s", argv[0],
			strerror(errno));
		ws_exit_now(127);
	}
	running = pid;
	if (interrupted)	/* came before the child could be told */
		kill(pid, interrupted);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			running = 0;
			return -errno;
		}
	running = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int matrix_runs_add(struct matrix_runs *r)
{
	if (r->n == MATRIX_MAX_RUNS)
		return -E2BIG;
	if (array_grow((void **)&r->o, r->n, &r->o_cap, sizeof(*r->o)) ||
	    array_grow((void **)&r->results, r->n, &r->results_cap, sizeof(*r->results)))
		return -ENOMEM;
	memset(&r->o[r->n], 0, sizeof(*r->o));
	r->results[r->n++] = NULL;
	return 0;
}

void matrix_runs_free(struct matrix_runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		json_object_put(r->results[i]);
	free(r->o);
	free(r->results);
	memset(r, 0, sizeof(*r));
}

static int run_one(struct matrix_state *m, unsigned int strategy, unsigned int set)
{
	const char *sched = m->st.kind && !strcmp(m->st.kind, "scheduler") ?
			    m->st.names[set] : NULL;
	struct matrix_outcome *o;
	struct matrix_argv av;
	char json[128], why[256];
	struct json_object *doc = NULL;
	size_t i = m->runs.n;
	int ret = matrix_runs_add(&m->runs);

	if (ret) {
		cli_error(matrix_options(), stderr, "cannot keep run %zu: %s", i + 1,
			  strerror(-ret));
		return ret;
	}
	o = &m->runs.o[i];
	o->strategy = strategy;
	o->setting = set;
	o->quiet_wait_s = quiet_wait(m->mc.file, m->idle_dirty, &o->quiet_timeout);
	snprintf(json, sizeof(json), "%s/run%zu.json", m->tmpdir, i);
	matrix_child_args(&m->s[strategy], &m->mc, sched, json, &av);
	fprintf(stdout, "  [%zu/%u] %-22s", i + 1, m->total, m->s[strategy].label);
	if (o->quiet_wait_s >= 1)
		fprintf(stdout, " (waited %.1f s for writeback%s)", o->quiet_wait_s,
			o->quiet_timeout ? ", gave up" : "");
	fflush(stdout);
	o->status = run_child(av.argv, true);
	if (!result_load(json, &doc, why, sizeof(why)) && !matrix_outcome_from(doc, m->mc.steer_by,
								   m->mc.target_latency_ns, o))
		m->runs.results[i] = doc;
	else if (doc)
		json_object_put(doc);
	unlink(json);
	/* a mode this kernel or filesystem lacks fails before writing */
	o->unsupported = !o->have && o->status == WS_EXIT_FAILURE &&
			 (m->s[strategy].pace == WS_PACE_DONTCACHE ||
			  m->s[strategy].pace == WS_PACE_DIRECT);
	if (o->have)	/* a p99 only where its probes support one */
		fprintf(stdout, " %8.1f MiB/s, %llu %s probes, %s %.1f ms%s\n", o->mibps,
			(unsigned long long)o->count, o->probe[0] ? o->probe : "no",
			hist_percentile_shown(0.99, o->count) ? "p99" : "max",
			hist_percentile_shown(0.99, o->count) ? o->p99_ms : o->max_ms,
			o->status ? " (ended early)" : "");
	else
		fprintf(stdout, " %s (exit status %d)\n",
			o->unsupported ? "unsupported here" : "no result", o->status);
	return o->status;
}

/* --idle-x: the target from the idle run's probe, which ran first. */
static int target_from_idle(struct matrix_state *m, const struct matrix_outcome *o)
{
	bool p99 = hist_percentile_shown(0.99, o->count);
	double tail_ms = p99 ? o->p99_ms : o->max_ms;
	uint64_t ns = (uint64_t)(tail_ms * 1e6) * m->args.idle_x;

	if (!o->have || !o->count) {
		cli_error(matrix_options(), stderr, "--idle-x: the idle run had no probe to take the target from");
		return WS_EXIT_FAILURE;
	}
	if (ns < WS_NSEC_PER_MSEC)
		ns = WS_NSEC_PER_MSEC;
	if (ns > 60 * WS_NSEC_PER_SEC)
		ns = 60 * WS_NSEC_PER_SEC;
	m->mc.target_latency_ns = ns;
	m->args.idle_x_done = true;
	fprintf(stdout, "  target p99 %.1f ms: %u x the idle row's %s %.2f ms\n", (double)ns / 1e6,
		m->args.idle_x, p99 ? "p99" : "max", tail_ms);
	return 0;
}

static bool fatal(int status)
{
	return status == WS_EXIT_USAGE || status == WS_EXIT_REFUSED ||
	       status == WS_EXIT_SIGINT || status == WS_EXIT_SIGTERM || status < 0;
}

static void shuffle(unsigned int *order, unsigned int n, uint64_t *seed)
{
	for (unsigned int i = n; i > 1; i--) {
		unsigned int j;

		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		j = (unsigned int)((*seed >> 33) % i);
		unsigned int t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

int matrix_run_all(struct matrix_state *m)
{
	unsigned int nset = m->st.n ? m->st.n : 1, order[MATRIX_MAX_STRATEGIES];
	uint64_t seed = ws_now_ns() ^ (uint64_t)getpid();
	int worst = 0;

	if (m->args.shuffle)
		fprintf(stdout, "  order shuffled (seed %llu)\n", (unsigned long long)seed);
	for (unsigned int set = 0; set < nset; set++) {
		if (m->st.n)
			fprintf(stdout, "%s %s\n", m->st.kind, m->st.names[set]);
		if (matrix_apply_setting(&m->st, set))
			return WS_EXIT_FAILURE;
		for (unsigned int rep = 0; rep < m->args.repeat; rep++) {
			for (unsigned int i = 0; i < m->ns; i++)
				order[i] = i;
			if (m->args.shuffle)
				shuffle(order, m->ns, &seed);
			for (unsigned int i = 0; i < m->ns; i++) {
				int st;

				if (interrupted)
					return WS_EXIT_SIGINT;
				st = run_one(m, order[i], set);
				if (m->args.idle_x && !m->args.idle_x_done && !fatal(st) &&
				    target_from_idle(m, &m->runs.o[m->runs.n - 1]))
					return WS_EXIT_FAILURE;
				if (interrupted || fatal(st))
					return interrupted ? WS_EXIT_SIGINT : st < 0 ? WS_EXIT_FAILURE : st;
				if (st && !m->runs.o[m->runs.n - 1].unsupported)
					worst = WS_EXIT_FAILURE;
			}
		}
	}
	return worst;
}

int matrix_lay_out(struct matrix_state *m)
{
	struct stat sb;
	struct statvfs vfs;
	char dir[4096], size[32], arg[32];
	const char *argv[12];
	int n = 0, st;

	if (!lstat(m->mc.file, &sb)) {
		/* the children check it is safe to rewrite */
		if (!m->mc.file_size && S_ISREG(sb.st_mode) &&
		    (uint64_t)sb.st_size >= WS_MIB)
			m->mc.file_size = (uint64_t)sb.st_size - (uint64_t)sb.st_size % WS_MIB;
		return 0;
	}
	if (!m->args.file_size) {
		uint64_t want = m->mc.each_bytes ? m->mc.each_bytes : LAYOUT_DEFAULT;

		if (!statvfs(dir_of(m->mc.file, dir, sizeof(dir)), &vfs) &&
		    want > (uint64_t)vfs.f_bavail * vfs.f_frsize / 4)
			want = (uint64_t)vfs.f_bavail * vfs.f_frsize / 4;
		want -= want % WS_MIB;
		m->args.file_size = want < WS_MIB ? WS_MIB : want;
	}
	m->mc.file_size = m->args.file_size;
	fprintf(stdout, "  laying %s out (%s) so every strategy rewrites it in place\n",
		m->mc.file, units_format_size(size, sizeof(size), m->mc.file_size));
	fflush(stdout);
	snprintf(arg, sizeof(arg), "%llu", (unsigned long long)m->mc.file_size);
	argv[n++] = m->mc.self;
	argv[n++] = "-q";
	argv[n++] = "--no-probe";
	argv[n++] = "--pace";
	argv[n++] = "direct";
	argv[n++] = "--size";
	argv[n++] = arg;
	argv[n++] = "--";
	argv[n++] = m->mc.file;
	argv[n] = NULL;
	st = run_child(argv, true);
	if (st)
		cli_error(matrix_options(), stderr, "laying out '%s' failed (exit status %d)",
			m->mc.file, st);
	return st;
}
