/* matrix_run.c - `writestress matrix`: the command line, the layout of
 * the file, one child writestress per strategy with a quiet wait before
 * each, the settings (--schedulers, --dirty-bytes: matrix_settings.c)
 * put back, Ctrl-C, and the table and files at the end (see matrix.h). */
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
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/array.h"
#include "lib/c.h"
#include "lib/cli.h"
#include "system/clock.h"
#include "cmd/compare/compare.h"
#include "cmd/common/result_read.h"
#include "system/kstat.h"
#include "cmd/matrix/matrix.h"
#include "matrix_files.h"
#include "matrix_runs.h"
#include "matrix_settings.h"
#include "outputs/sink.h"
#include "system/sysfs.h"
#include "lib/exit.h"
#include "lib/units.h"
#include "record/fields.h"

#define LAYOUT_DEFAULT WS_GIB
#define HELP_SHOWN (-1)	/* setup(): --help was printed, exit 0 */

struct matrix_args {
	const char *strategies;
	const char *each;
	uint64_t target_latency_ns;
	unsigned int headroom;
	bool shuffle, force;
	unsigned int repeat;
	const char *json_path, *svg_path;
	uint64_t file_size;
	const char *schedulers, *dirty_bytes;
	const char *probe, *probe_dir, *probe_interval, *stall;
	const char *probe_cmd, *probe_user, *sqlite_journal, *sqlite_sync;
};

static volatile sig_atomic_t interrupted;
static volatile pid_t running;	/* the child now running, or 0 */

/* The child runs in a process group of its own, so a Ctrl-C reaches it
 * once, from here: it ends its run cleanly and writes its result. */
static void on_signal(int sig)
{
	interrupted = sig;
	if (running > 0)
		kill(running, sig);
}

static const struct cli_option matrix_opts[] = {
	{ .name = "strategies", .key = 's', .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, strategies),
	  .help = "the strategies, in order (default " MATRIX_DEFAULT_LIST "); each may carry its buffer size and window: window:B=1M:W=4" },
	{ .name = "each", .key = 'e', .type = CLI_STRING, .arg = "SIZE|TIME",
	  .offset = offsetof(struct matrix_args, each),
	  .help = "how long each strategy runs: a time (15s, 2min) or a size (512M, 2G; m and M are mebibytes, as everywhere); a bare number is refused; default 15s" },
	{ .name = "target-latency", .key = 'T', .type = CLI_DURATION, .arg = "DURATION",
	  .offset = offsetof(struct matrix_args, target_latency_ns), .min = WS_NSEC_PER_MSEC,
	  .help = "the probe p99 the recommendation must meet, and adaptive's target (default {default})" },
	{ .name = "headroom", .key = 270, .type = CLI_UINT, .arg = "PCT",
	  .offset = offsetof(struct matrix_args, headroom), .max = 50,
	  .help = "the adaptive row's --headroom, as writestress --headroom: keep its writer under (100 - PCT)% of the rate the disk showed, 0-50 (default {default}: none)" },
	{ .name = "shuffle", .key = 256, .type = CLI_FLAG,
	  .offset = offsetof(struct matrix_args, shuffle),
	  .help = "run the strategies in a random order (each repeat its own)" },
	{ .name = "repeat", .key = 'n', .type = CLI_UINT, .arg = "N",
	  .offset = offsetof(struct matrix_args, repeat), .min = 1, .max = MATRIX_MAX_REPEAT,
	  .help = "run the list N times; the table shows medians and the spread (default {default})" },
	{ .name = "file-size", .key = 257, .type = CLI_SIZE, .arg = "SIZE",
	  .offset = offsetof(struct matrix_args, file_size), .min = WS_MIB, .align = 4 * WS_KIB,
	  .help = "lay FILE out to SIZE first when it does not exist, and have every run wrap there, so every strategy rewrites it in place (default: the --each size, or 1G, at most a quarter of the free space)" },
	{ .name = "schedulers", .key = 258, .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, schedulers),
	  .help = "run the strategies under each I/O scheduler of FILE's device (mq-deadline,bfq,kyber,none), switched and put back as --scheduler does (needs CAP_SYS_ADMIN)" },
	{ .name = "dirty-bytes", .key = 259, .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, dirty_bytes),
	  .help = "run the strategies under each vm.dirty_bytes (e.g. 64M,512M), put back at the end (root only)" },
	{ .name = "probe", .key = 260, .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, probe),
	  .help = "the probes of every run, as writestress --probe (default fsync); the table shows each and judges the first, which the adaptive row steers by" },
	{ .name = "probe-dir", .key = 261, .type = CLI_STRING, .arg = "DIR",
	  .offset = offsetof(struct matrix_args, probe_dir), .help = "as writestress --probe-dir" },
	{ .name = "probe-interval", .key = 262, .type = CLI_STRING, .arg = "DURATION",
	  .offset = offsetof(struct matrix_args, probe_interval), .help = "as writestress --probe-interval" },
	{ .name = "stall", .key = 263, .type = CLI_STRING, .arg = "DURATION",
	  .offset = offsetof(struct matrix_args, stall), .help = "as writestress --stall" },
	{ .name = "probe-cmd", .key = 266, .type = CLI_STRING, .arg = "[NAME=]CMD",
	  .offset = offsetof(struct matrix_args, probe_cmd), .help = "as writestress --probe-cmd (one command)" },
	{ .name = "probe-user", .key = 267, .type = CLI_STRING, .arg = "NAME",
	  .offset = offsetof(struct matrix_args, probe_user), .help = "as writestress --probe-user" },
	{ .name = "sqlite-journal", .key = 268, .type = CLI_STRING, .arg = "MODE",
	  .offset = offsetof(struct matrix_args, sqlite_journal), .help = "as writestress --sqlite-journal" },
	{ .name = "sqlite-sync", .key = 269, .type = CLI_STRING, .arg = "LEVEL",
	  .offset = offsetof(struct matrix_args, sqlite_sync), .help = "as writestress --sqlite-sync" },
	{ .name = "json", .key = 264, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct matrix_args, json_path),
	  .help = "write every run's full result and the table (schema " MATRIX_SCHEMA ")" },
	{ .name = "svg", .key = 265, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct matrix_args, svg_path),
	  .help = "plot throughput against probe p99, one point per strategy, the front joined, the target as a line" },
	{ .name = "force", .key = 271, .type = CLI_FLAG,
	  .offset = offsetof(struct matrix_args, force),
	  .help = "as writestress --force: the runs may rewrite a FILE, and --json and --svg replace a file, that writestress did not write" },
	{ .name = "help", .key = 'h', .type = CLI_HELP, .help = "show this help and exit" },
};

static void matrix_help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress matrix [OPTION]... FILE\n"
		"Run the same probes against each write strategy on FILE, one after another\n"
		"(rewriting it in place, waiting for writeback to settle before each), and\n"
		"print one table: throughput, the probes' latency, the Pareto front and the\n"
		"fastest strategy that keeps the probes within --target-latency.\n");
}

static void matrix_help_tail(FILE *out)
{
	fprintf(out,
		"\nStrategies: idle (the probes alone: the baseline), none (dd), window\n"
		"(overwrite.c), window+fadvise, fdatasync, direct, dontcache (Linux 6.14+,\n"
		"else listed as unsupported), adaptive (--pace adaptive at --target-latency).\n"
		"Verdicts: responsive (p99 within the target), sluggish (over it), frozen\n"
		"(stalls, or p99 over 10x the target), baseline, unsupported, failed.\n"
		"Ctrl-C ends the current run cleanly, puts back what was changed and prints\n"
		"the table so far.\n"
		"\nExit status:\n"
		"  0    the matrix ran; 1 a run failed; 2 invalid command line;\n"
		"  3    a run refused FILE (safety); 130 stopped by SIGINT\n");
}

/* The target latency and the headroom are the run's, one default for
 * both; the repeat count is the matrix's own. */
static const char *matrix_default_of(const char *name)
{
	if (!strcmp(name, "target-latency") || !strcmp(name, "headroom"))
		return ws_field_default(name);
	if (!strcmp(name, "repeat"))
		return "1";
	return NULL;
}

/* Completion's words: every strategy (the default list is all of them),
 * and the run's own words where an option passes the run's option on. */
static const char *const *matrix_words_of(const char *name)
{
	static char list[] = MATRIX_DEFAULT_LIST;
	static const char *strategies[16];
	const struct ws_field *f;

	if (!strcmp(name, "strategies")) {
		if (!strategies[0]) {
			char *save = NULL;
			size_t n = 0;

			for (char *w = strtok_r(list, ",", &save); w && n + 1 < ARRAY_SIZE(strategies);
			     w = strtok_r(NULL, ",", &save))
				strategies[n++] = w;
		}
		return strategies;
	}
	if (!strcmp(name, "schedulers"))
		return ws_blk_schedulers;
	f = ws_field_of(name);
	return f ? f->words : NULL;
}

static const struct cli matrix_cli = {
	.cmd = "writestress matrix",
	.error_prefix = "matrix: ",
	.opts = matrix_opts,
	.nopts = ARRAY_SIZE(matrix_opts),
	.help_head = matrix_help_head,
	.help_tail = matrix_help_tail,
	.default_of = matrix_default_of,
	.words_of = matrix_words_of,
};

/* The table, for tests that hold every option to its stated bounds and
 * for whatever else reads the options (completion). */
const struct cli *matrix_options(void)
{
	return &matrix_cli;
}

/* ---- the runs ----------------------------------------------------------- */

/* FILE's directory, in buf: "." when FILE has none. */
static const char *dir_of(const char *file, char *buf, size_t len)
{
	return ws_dirname(file, buf, len) ? "." : buf;
}

/* Sectors written to the device under FILE's directory so far
 * (/sys/dev/block/MAJ:MIN reaches a partition too); -1: none (a filesystem
 * on no single block device). */
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

/* After a sync of FILE's filesystem: Dirty + Writeback back near where
 * they were at the start, and the device written nothing for
 * MATRIX_QUIET_DEVICE_NS (a throttle's queue or a drive's cache draining), so one
 * run's backlog never leaks into the next.  Returns how long it waited;
 * *timeout when it gave up. */
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

/* Run argv; the child's exit status (128 + signal if killed). */
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
		cli_error(&matrix_cli, stderr, "cannot run %s: %s", argv[0],
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

struct matrix_state {
	struct matrix_args args;
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int ns;
	struct matrix_cfg mc;
	struct matrix_settings st;
	struct matrix_runs runs;
	unsigned int total;
	char tmpdir[64];
	uint64_t idle_dirty;
};

/* One strategy's run: wait for quiet, run the child, read its result. */
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
		cli_error(&matrix_cli, stderr, "cannot keep run %zu: %s", i + 1,
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
	if (!result_load(json, &doc, why, sizeof(why)) && !matrix_outcome_from(doc, o))
		m->runs.results[i] = doc;
	else if (doc)
		json_object_put(doc);
	unlink(json);
	/* a mode this kernel or filesystem lacks fails before writing */
	o->unsupported = !o->have && o->status == WS_EXIT_FAILURE &&
			 (m->s[strategy].pace == WS_PACE_DONTCACHE ||
			  m->s[strategy].pace == WS_PACE_DIRECT);
	if (o->have)
		fprintf(stdout, " %8.1f MiB/s, %s p99 %.1f ms%s\n", o->mibps,
			o->probe[0] ? o->probe : "no probe", o->p99_ms,
			o->status ? " (ended early)" : "");
	else
		fprintf(stdout, " %s (exit status %d)\n",
			o->unsupported ? "unsupported here" : "no result", o->status);
	return o->status;
}

/* A run's status that ends the matrix: usage, refusal, a signal. */
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

static int run_all(struct matrix_state *m)
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
				if (interrupted || fatal(st))
					return interrupted ? WS_EXIT_SIGINT : st < 0 ? WS_EXIT_FAILURE : st;
				if (st && !m->runs.o[m->runs.n - 1].unsupported)
					worst = WS_EXIT_FAILURE;
			}
		}
	}
	return worst;
}

/* ---- setting up --------------------------------------------------------- */

static int parse_each(struct matrix_state *m)
{
	const char *e = m->args.each ? m->args.each : "15s";
	struct units_error err;
	uint64_t v;

	/* m and M are mebibytes here as everywhere: only a bare number could
	 * be either a time or a size */
	if (*e && strspn(e, "0123456789.") == strlen(e)) {
		cli_usage_error(&matrix_cli, stderr,
				"invalid --each '%s': a bare number could be %ss or %s bytes; write %ss for a time or %sM for a size",
				e, e, e, e, e);
		return -EINVAL;
	}
	if (!units_parse_duration(e, &v, &err)) {
		if (v >= WS_NSEC_PER_SEC) {
			m->mc.each_ns = v;
			return 0;
		}
		snprintf(err.msg, sizeof(err.msg), "a time must be at least 1 s");
	} else if (!units_parse_size(e, &v, &err)) {
		if (v >= WS_MIB) {
			m->mc.each_bytes = v;
			return 0;
		}
		snprintf(err.msg, sizeof(err.msg), "a size must be at least 1 MiB");
	} else {
		snprintf(err.msg, sizeof(err.msg), "expected a time (15s, 2min) or a size (512M, 2G)");
	}
	cli_usage_error(&matrix_cli, stderr, "invalid --each '%s': %s", e, err.msg);
	return -EINVAL;
}

/* What --each was understood as, for the header: "400 MiB", "15.0 s". */
static const char *each_text(const struct matrix_state *m, char *buf, size_t len)
{
	if (m->mc.each_bytes)
		return units_format_size(buf, len, m->mc.each_bytes);
	return units_format_duration(buf, len, m->mc.each_ns);
}

/* The table's files are written at the end, minutes or hours on: what
 * they would replace, or a clash with each other or FILE, is said now. */
static int check_outputs(const struct matrix_state *m)
{
	const struct { const char *opt, *path; } out[] = {
		{ "--json", m->args.json_path }, { "--svg", m->args.svg_path },
	};
	char err[600];
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		if (!out[i].path)
			continue;
		if (ws_same_path(out[i].path, m->mc.file) ||
		    (i && out[0].path && ws_same_path(out[i].path, out[0].path))) {
			cli_usage_error(&matrix_cli, stderr, "invalid %s '%s': the same file as %s",
					out[i].opt, out[i].path,
					ws_same_path(out[i].path, m->mc.file) ? "FILE" : "--json");
			return WS_EXIT_USAGE;
		}
		ret = sink_check_path(out[i].path, m->args.force, err, sizeof(err));
		if (ret == -EPERM) {
			cli_error(&matrix_cli, stderr, "refusing to replace %s: %s", out[i].opt, err);
			fprintf(stderr, "hint: name another file, remove it, or add --force to replace it\n");
			return WS_EXIT_REFUSED;
		}
		if (ret) {
			cli_usage_error(&matrix_cli, stderr, "invalid %s '%s': %s", out[i].opt,
					out[i].path, err);
			return WS_EXIT_USAGE;
		}
	}
	return 0;
}

/* Every run rewrites FILE in place: when it does not exist yet it is laid
 * out at full speed first, to the size every run wraps at. */
static int lay_out(struct matrix_state *m)
{
	struct stat sb;
	struct statvfs vfs;
	char dir[4096], size[32], arg[32];
	const char *argv[12];
	int n = 0, st;

	if (!lstat(m->mc.file, &sb)) {
		/* the children check it is safe to rewrite; without
		 * --file-size they rewrite it within its size */
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
		cli_error(&matrix_cli, stderr, "laying out '%s' failed (exit status %d)",
			m->mc.file, st);
	return st;
}

static void passthrough(struct matrix_state *m)
{
	const struct { const char *opt, *val; } p[] = {
		{ "--probe", m->args.probe }, { "--probe-dir", m->args.probe_dir },
		{ "--probe-interval", m->args.probe_interval }, { "--stall", m->args.stall },
		{ "--probe-cmd", m->args.probe_cmd }, { "--probe-user", m->args.probe_user },
		{ "--sqlite-journal", m->args.sqlite_journal },
		{ "--sqlite-sync", m->args.sqlite_sync },
	};

	for (size_t i = 0; i < ARRAY_SIZE(p); i++) {
		if (!p[i].val)
			continue;
		m->mc.passthrough[m->mc.npassthrough++] = p[i].opt;
		m->mc.passthrough[m->mc.npassthrough++] = p[i].val;
	}
	if (m->args.force)
		m->mc.passthrough[m->mc.npassthrough++] = "--force";
	/* adaptive steers by the probe the table judges: the first */
	snprintf(m->mc.steer_by, sizeof(m->mc.steer_by), "%.*s",
		 m->args.probe ? (int)strcspn(m->args.probe, ",") : 5,
		 m->args.probe ? m->args.probe : "fsync");
}

static int setup(struct matrix_state *m, int argc, char **argv)
{
	char why[256];
	int first, status;
	struct ws_meminfo mi;

	if (cli_defaults(&matrix_cli, &m->args, why)) {
		cli_error(&matrix_cli, stderr, "internal error: %s", why);
		abort();
	}
	switch (cli_parse(&matrix_cli, argc, argv, &m->args, NULL, &first, stderr)) {
	case CLI_EXIT_OK:
		return HELP_SHOWN;
	case CLI_USAGE:
		return WS_EXIT_USAGE;
	case CLI_RUN:
		break;
	}
	if (argc - first != 1) {
		cli_usage_error(&matrix_cli, stderr, argc == first ? "missing FILE" :
				"unexpected argument '%s' (one FILE)", argv[first + 1]);
		return WS_EXIT_USAGE;
	}
	/* the table is on stdout: a result there would be mixed into it */
	if ((m->args.json_path && !strcmp(m->args.json_path, "-")) ||
	    (m->args.svg_path && !strcmp(m->args.svg_path, "-"))) {
		cli_usage_error(&matrix_cli, stderr, "invalid --%s '-': the matrix writes its table to stdout; name a file",
				m->args.json_path && !strcmp(m->args.json_path, "-") ? "json" : "svg");
		return WS_EXIT_USAGE;
	}
	if (matrix_parse_strategies(m->args.strategies ? m->args.strategies :
				    MATRIX_DEFAULT_LIST, m->s, &m->ns, why, sizeof(why))) {
		cli_usage_error(&matrix_cli, stderr, "invalid --strategies: %s", why);
		return WS_EXIT_USAGE;
	}
	if (parse_each(m))
		return WS_EXIT_USAGE;
	if (matrix_parse_settings(&m->st, &matrix_cli, m->args.schedulers,
				  m->args.dirty_bytes))
		return WS_EXIT_USAGE;
	m->total = (m->st.n ? m->st.n : 1) * m->args.repeat * m->ns;
	if (m->total > MATRIX_MAX_RUNS) {
		cli_usage_error(&matrix_cli, stderr, "invalid --repeat '%u': %u runs in all, at most %d",
				m->args.repeat, m->total, MATRIX_MAX_RUNS);
		return WS_EXIT_USAGE;
	}
	m->mc.self = "/proc/self/exe";
	m->mc.file = argv[first];
	if ((status = check_outputs(m)))
		return status;
	m->mc.target_latency_ns = m->args.target_latency_ns;
	m->mc.headroom_pct = m->args.headroom;
	m->mc.file_size = m->args.file_size;
	passthrough(m);
	snprintf(m->tmpdir, sizeof(m->tmpdir), "/tmp/writestress-matrix.XXXXXX");
	if (!mkdtemp(m->tmpdir)) {
		cli_error(&matrix_cli, stderr, "cannot make a directory in /tmp: %s",
			strerror(errno));
		return WS_EXIT_FAILURE;
	}
	if (!kstat_meminfo("", &mi))
		m->idle_dirty = mi.dirty + mi.writeback;
	return 0;
}

int matrix_main(int argc, char **argv)
{
	struct matrix_state *m = calloc(1, sizeof(*m));
	struct matrix_row rows[MATRIX_MAX_STRATEGIES * MATRIX_MAX_SETTINGS];
	struct sigaction sa = { .sa_handler = on_signal };
	size_t nrows;
	int status, best;
	char self[4096], each[32];
	ssize_t n;

	if (!m)
		return WS_EXIT_FAILURE;
	status = setup(m, argc, argv);
	if (status) {
		free(m);
		return status == HELP_SHOWN ? WS_EXIT_OK : status;
	}
	/* the children run this very binary, by its path at the start */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		m->mc.self = self;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stdout, "writestress matrix: %u %s on %s, %s each, target p99 %.0f ms\n",
		m->ns, m->ns == 1 ? "strategy" : "strategies", m->mc.file,
		each_text(m, each, sizeof(each)),
		(double)m->args.target_latency_ns / 1e6);
	fflush(stdout);	/* what it understood, before minutes of runs */
	status = lay_out(m);
	if (!status) {
		if (!m->mc.file_size)
			m->mc.file_size = m->args.file_size;
		status = run_all(m);
	}
	matrix_restore_settings(&m->st);
	nrows = matrix_rows(m->runs.o, m->runs.n, m->s, m->ns, m->st.n, rows);
	best = matrix_judge(rows, nrows, m->s, (double)m->args.target_latency_ns / 1e6);
	fputc('\n', stdout);
	matrix_print(stdout, rows, nrows, m->s, m->st.n ? m->st.names : NULL,
		     m->st.kind, best, (double)m->args.target_latency_ns / 1e6);
	if (interrupted)
		fprintf(stdout, "  interrupted: %zu of %u runs done\n", m->runs.n, m->total);
	{
		struct matrix_doc d = {
			.s = m->s, .ns = m->ns, .o = m->runs.o, .results = m->runs.results,
			.no = m->runs.n, .rows = rows, .nrows = nrows, .best = best,
			.target_ms = (double)m->args.target_latency_ns / 1e6,
			.headroom_pct = m->args.headroom,
			.each_bytes = m->mc.each_bytes, .each_ns = m->mc.each_ns,
			.setting_kind = m->st.kind, .settings = m->st.names,
			.nsettings = m->st.n, .complete = m->runs.n == m->total && !interrupted,
			.force = m->args.force,
		};

		char err[600];

		if (m->args.json_path && matrix_write_json(m->args.json_path, &d, err, sizeof(err))) {
			cli_error(&matrix_cli, stderr, "%s", err);
			status = status ? status : WS_EXIT_FAILURE;
		}
		if (m->args.svg_path && matrix_write_svg(m->args.svg_path, &d, err, sizeof(err))) {
			cli_error(&matrix_cli, stderr, "%s", err);
			status = status ? status : WS_EXIT_FAILURE;
		}
	}
	matrix_runs_free(&m->runs);
	rmdir(m->tmpdir);
	free(m);
	return interrupted ? (interrupted == SIGTERM ? WS_EXIT_SIGTERM : WS_EXIT_SIGINT)
			   : status;
}
