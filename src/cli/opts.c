/* opts.c - the run's command line: its option table (typed rows, see
 * cli.h), the rules between options, and --help (see opts.h).
 *
 * Every option is one row of opt_table; the rules between rows and the
 * operands are opts_rules.c's.
 */
#include <errno.h>
#include <pwd.h>
#include <unistd.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/c.h"
#include "lib/cli.h"
#include "engine/datagen.h"
#include "opts.h"
#include "version.h"
#include "engine/pace.h"
#include "probes/probe.h"
#include "analysis/steady.h"
#include "lib/units.h"
#include "record/fields.h"

#define WHY_LEN CLI_WHY_LEN

enum {
	KEY_FILE_SIZE = 256, KEY_RESERVE, KEY_SYNC_EVERY, KEY_SEED, KEY_FORCE,
	KEY_REMOVE, KEY_PROBE, KEY_NO_PROBE, KEY_PROBE_INTERVAL, KEY_PROBE_SIZE,
	KEY_PROBE_SYNC, KEY_PROBE_DIR, KEY_READ_PROBE, KEY_STALL, KEY_JSON,
	KEY_CSV, KEY_SVG, KEY_UNTIL_STEADY, KEY_STEADY_WINDOW, KEY_STEADY_ROUND,
	KEY_BUCKET, KEY_DROP_CACHES, KEY_SCHEDULER, KEY_IOPRIO, KEY_PROBE_IOPRIO,
	KEY_STEADY_CRITERION, KEY_PRECONDITION, KEY_STEADY_MAX_ROUNDS,
	KEY_TRUNCATE, KEY_VERIFY, KEY_IODEPTH, KEY_JOBS, KEY_TARGET_LATENCY, KEY_STEER_BY, KEY_HEADROOM,
	KEY_SQLITE_JOURNAL, KEY_SQLITE_SYNC, KEY_PROBE_CMD, KEY_PROBE_USER,
	KEY_PROBE_TIMEOUT, KEY_COLOR, KEY_PROM, KEY_TRACE, KEY_NO_TRACE,
	KEY_FOREVER,
};

/* Every default is a row of the registry (record/fields.h), parsed as if
 * given; a default its own option refuses is a bug, caught by the unit
 * tests before it ships. */
void config_defaults(struct ws_config *cfg)
{
	char why[CLI_WHY_LEN];

	memset(cfg, 0, sizeof(*cfg));
	if (cli_defaults(opts_cli(), cfg, why)) {
		fprintf(stderr, "writestress: internal error: %s\n", why);
		abort();
	}
}

/* ---- values no type describes ------------------------------------------ */

static int parse_pace(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	char modes[96];
	struct ws_buf b = WS_BUF(modes);

	if (ws_pace_parse(arg, &cfg->set.pace))
		return 0;
	for (int m = 0; m < WS_PACE_NR; m++)
		ws_buf_item(&b, ", ", "%s", ws_pace_name((enum ws_pace)m));
	snprintf(why, WHY_LEN, "unknown mode (%s)", modes);
	return -EINVAL;
}

static int parse_data(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	if (!ws_data_parse(arg, &cfg->set.data, &cfg->set.compress_pct))
		return 0;
	snprintf(why, WHY_LEN, "expected random, fixed, zero or compressible=PCT (PCT 0-100)");
	return -EINVAL;
}

/* --prom: a file renamed over each interval cannot be a stream */
static int parse_prom(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	if (!strcmp(arg, "-")) {
		snprintf(why, WHY_LEN, "the metrics file is replaced every interval, so it cannot be stdout; name a FILE.prom in node_exporter's textfile directory");
		return -EINVAL;
	}
	if (!*arg) {
		snprintf(why, WHY_LEN, "empty value");
		return -EINVAL;
	}
	cfg->set.prom_path = arg;
	return 0;
}

static int parse_probe(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	char bad[32], kinds[96];
	struct ws_buf b = WS_BUF(kinds);

	if (!ws_probe_parse_list(arg, &cfg->set.probes, bad, sizeof(bad)))
		return 0;
	for (int k = 0; k < WS_PROBE_NR; k++)
		ws_buf_item(&b, ", ", "%s", ws_probe_kind_name((enum ws_probe_kind)k));
	if (bad[0])
		snprintf(why, WHY_LEN, "unknown probe '%s' (%s)", bad, kinds);
	else
		snprintf(why, WHY_LEN, "expected a list such as fsync,sqlite");
	return -EINVAL;
}

/* --steer-by LIST: probe kinds, as --probe names them */
static int parse_steer_by(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	char bad[32];

	if (!ws_probe_parse_list(arg, &cfg->set.pacing.steer_by, bad, sizeof(bad)))
		return 0;
	if (bad[0])
		snprintf(why, WHY_LEN, "unknown probe '%s' (a probe --probe runs, e.g. sqlite)", bad);
	else
		snprintf(why, WHY_LEN, "expected a list of probes such as sqlite or fsync,sqlite");
	return -EINVAL;
}

/* --probe-cmd [NAME=]CMD, once per command: unnamed ones are cmd, cmd2... */
static int parse_probe_cmd(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct ws_probe_cmd c;

	if (cfg->set.cmds.n == WS_MAX_PROBE_CMDS) {
		snprintf(why, WHY_LEN, "at most %d commands", WS_MAX_PROBE_CMDS);
		return -EINVAL;
	}
	if (ws_probe_cmd_parse(arg, &c, why, WHY_LEN))
		return -EINVAL;
	if (!c.name[0])
		snprintf(c.name, sizeof(c.name), cfg->set.cmds.n ? "cmd%u" : "cmd",
			 cfg->set.cmds.n + 1);
	for (unsigned int i = 0; i < cfg->set.cmds.n; i++)
		if (!strcmp(cfg->set.cmds.list[i].name, c.name)) {
			snprintf(why, WHY_LEN, "the name '%s' is taken by another --probe-cmd", c.name);
			return -EINVAL;
		}
	cfg->set.cmds.list[cfg->set.cmds.n++] = c;
	return 0;
}

/* --probe-user: a user that exists; changing to one needs root */
static int parse_probe_user(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct passwd *pw = getpwnam(arg);

	if (!pw) {
		snprintf(why, WHY_LEN, "no such user");
		return -EINVAL;
	}
	if (geteuid() != 0 && pw->pw_uid != geteuid()) {
		snprintf(why, WHY_LEN, "only root can run a command as another user");
		return -EPERM;
	}
	cfg->probe_user = arg;
	return 0;
}

/* A two-word option (its registry row's words, record/fields.h): the
 * first word false, the second true. */
static int parse_two_words(const char *option, bool *out, const char *arg, char *why)
{
	const struct ws_field *f = ws_field_by_option(option);

	for (int i = 0; i < 2; i++)
		if (!strcmp(arg, f->words[i])) {
			*out = i == 1;
			return 0;
		}
	snprintf(why, WHY_LEN, "expected %s or %s", f->words[0], f->words[1]);
	return -EINVAL;
}

static int parse_sqlite_journal(void *dest, const char *arg, char *why)
{
	return parse_two_words("--sqlite-journal", &((struct ws_config *)dest)->set.sqlite.wal,
			       arg, why);
}

static int parse_sqlite_sync(void *dest, const char *arg, char *why)
{
	return parse_two_words("--sqlite-sync",
			       &((struct ws_config *)dest)->set.sqlite.sync_normal, arg, why);
}

static const char *const colour_words[] = {
	[WS_COLOUR_AUTO] = "auto", [WS_COLOUR_NEVER] = "never",
	[WS_COLOUR_ALWAYS] = "always", NULL,
};

static int parse_colour(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	for (size_t i = 0; colour_words[i]; i++)
		if (!strcmp(arg, colour_words[i])) {
			cfg->colour = (enum ws_colour)i;
			return 0;
		}
	snprintf(why, WHY_LEN, "expected auto, always or never");
	return -EINVAL;
}

static int parse_no_probe(void *dest, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	((struct ws_config *)dest)->set.probes = 0;
	return 0;
}

static int parse_probe_sync(void *dest, const char *arg, char *why)
{
	return parse_two_words("--probe-sync", &((struct ws_config *)dest)->set.probe_fdatasync,
			       arg, why);
}

static int parse_steady_criterion(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct ws_analysis_params p;

	analysis_defaults(&p);
	if (ws_steady_criterion_parse(arg, &p)) {
		snprintf(why, WHY_LEN, "expected snia, bw-slope:PCT or bw-dev:PCT (PCT in (0, 1000], e.g. bw-slope:0.5%%)");
		return -EINVAL;
	}
	cfg->steady_criterion = (int)p.criterion;
	cfg->steady_limit_pct = p.limit_pct;
	cfg->steady_slope_pct = p.slope_pct;
	return 0;
}

/* "2x" (times the device's capacity, a decimal number up to 1000) or a
 * SIZE ("0": judge from the start). */
static int parse_precondition(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct units_error e;
	size_t n = strlen(arg);

	cfg->set.steady.precondition_set = true;
	if (n && (arg[n - 1] == 'x' || arg[n - 1] == 'X')) {
		double v = 0, scale = 0.1;
		const char *p = arg;
		bool digits = false;

		for (; *p >= '0' && *p <= '9'; p++, digits = true)
			v = v * 10 + (*p - '0');
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10, digits = true)
				v += (*p - '0') * scale;
		if (!digits || p != arg + n - 1 || v > 1000) {
			snprintf(why, WHY_LEN, "expected a SIZE or a multiple of the device's capacity such as 2x (at most 1000x)");
			return -EINVAL;
		}
		cfg->precondition_mult = v;
		cfg->set.steady.precondition_bytes = 0;
		return 0;
	}
	cfg->precondition_mult = 0;
	if (units_parse_size(arg, &cfg->set.steady.precondition_bytes, &e)) {
		snprintf(why, WHY_LEN, "%s", e.msg);
		return -EINVAL;
	}
	return 0;
}

static int parse_scheduler(void *dest, const char *arg, char *why)
{
	if (!*arg || strpbrk(arg, " /\n[]")) {
		snprintf(why, WHY_LEN, "expected a scheduler name such as mq-deadline, bfq, kyber or none");
		return -EINVAL;
	}
	((struct ws_config *)dest)->set.scheduler = arg;
	return 0;
}

/* "rt", "be:4", "idle": the class (1..3) and level (0..7, default 4). */
static int ioprio_of(const char *arg, int *class, int *level, char *why)
{
	size_t n = strcspn(arg, ":");
	uint64_t v = 4;

	for (int c = WS_IOPRIO_RT; c <= WS_IOPRIO_IDLE; c++) {
		const char *name = ws_ioprio_class_name(c);

		if (strlen(name) != n || strncmp(arg, name, n))
			continue;
		if (arg[n] && c == WS_IOPRIO_IDLE) {
			snprintf(why, WHY_LEN, "the idle class has no level");
			return -EINVAL;
		}
		if (arg[n] && (arg[n + 1] < '0' || arg[n + 1] > '7' || arg[n + 2])) {
			snprintf(why, WHY_LEN, "must be between 0 and 7");
			return -EINVAL;
		}
		if (arg[n])
			v = (uint64_t)(arg[n + 1] - '0');
		*class = c;
		*level = (int)v;
		return 0;
	}
	snprintf(why, WHY_LEN, "expected rt[:0-7], be[:0-7] or idle");
	return -EINVAL;
}

static int parse_ioprio(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	return ioprio_of(arg, &cfg->set.ioprio_class, &cfg->set.ioprio_level, why);
}

static int parse_probe_ioprio(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	return ioprio_of(arg, &cfg->set.probe_ioprio_class, &cfg->set.probe_ioprio_level, why);
}

/* ---- the table ------------------------------------------------------------ */

static const struct cli_option opt_table[] = {
	{ .type = CLI_HEADING, .help = "Run length (a run needs a bound, or --forever; the first bound reached ends it):" },
	{ .name = "buffers", .key = 'b', .type = CLI_U64, .arg = "COUNT", .offset = offsetof(struct ws_config, set.buffers), .min = 1,
	  .help = "write COUNT buffers (not with --size)" },
	{ .name = "size", .key = 's', .type = CLI_SIZE, .arg = "SIZE", .offset = offsetof(struct ws_config, set.total_size), .min = 4 * WS_KIB,
	  .help = "write SIZE bytes in total (not with -b)" },
	{ .name = "time", .key = 't', .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.duration_ns), .min = 1,
	  .help = "stop after DURATION" },
	{ .name = "forever", .key = KEY_FOREVER, .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.forever),
	  .help = "run until interrupted (Ctrl-C, SIGTERM), rewriting the file from its start where the reserve begins; without a bound and without this, a run is refused" },
	{ .name = "jobs", .key = KEY_JOBS, .type = CLI_UINT, .arg = "N", .offset = offsetof(struct ws_config, set.jobs), .min = 1, .max = WS_MAX_TARGETS,
	  .help = "write N files at once, FILE.1 ... FILE.N, one writer each (as fio numjobs; bounds apply to each); or name several FILEs" },
	{ .name = "file-size", .key = KEY_FILE_SIZE, .type = CLI_SIZE, .arg = "SIZE", .offset = offsetof(struct ws_config, file_size), .min = 4 * WS_KIB, .align = 4 * WS_KIB,
	  .help = "wrap to offset 0 at SIZE and overwrite in place (default: the run's size; unbounded runs wrap where the reserve begins)" },
	{ .name = "reserve", .key = KEY_RESERVE, .type = CLI_SIZE, .arg = "SIZE", .offset = offsetof(struct ws_config, reserve),
	  .help = "keep SIZE free on the filesystem (default 5% of its size, at most 1 GiB; 0: none)" },
	{ .type = CLI_HEADING, .help = "Writing:" },
	{ .name = "buffer-size", .key = 'B', .type = CLI_SIZE, .arg = "SIZE", .offset = offsetof(struct ws_config, set.buffer_size), .min = 4 * WS_KIB, .max = WS_GIB, .align = 4 * WS_KIB,
	  .help = "bytes per write, a multiple of 4 KiB (default {default})" },
	{ .name = "pace", .key = 'p', .type = CLI_CUSTOM, .arg = "MODE", .parse = parse_pace,
	  .help = "how the writer paces writeback (default {default}): window: sync_file_range windows as overwrite.c; none: plain buffered writes, like dd; fdatasync: every --sync-every buffers; direct: O_DIRECT; dontcache: RWF_DONTCACHE (Linux 6.14+); adaptive: windows sized so the probes wait about --target-latency" },
	{ .name = "fadvise", .key = 'f', .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.pacing.fadvise),
	  .help = "drop written pages with POSIX_FADV_DONTNEED once on disk (window, fdatasync, adaptive)" },
	{ .name = "window", .key = 'w', .type = CLI_UINT, .arg = "N", .offset = offsetof(struct ws_config, set.pacing.window), .min = 1, .max = 4096,
	  .help = "buffers in flight for --pace window (default {default}: write i, wait for i-1)" },
	{ .name = "sync-every", .key = KEY_SYNC_EVERY, .type = CLI_UINT, .arg = "N", .offset = offsetof(struct ws_config, set.pacing.sync_every), .min = 1, .max = 1u << 20,
	  .help = "buffers between fdatasync calls for --pace fdatasync (default {default})" },
	{ .name = "target-latency", .key = KEY_TARGET_LATENCY, .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.pacing.target_latency_ns), .min = WS_NSEC_PER_MSEC, .max = 60 * WS_NSEC_PER_SEC,
	  .help = "for --pace adaptive: how long the probes may wait behind the writer (default {default}); refused below what a probe takes on the idle disk" },
	{ .name = "steer-by", .key = KEY_STEER_BY, .type = CLI_CUSTOM, .arg = "LIST", .parse = parse_steer_by,
	  .help = "for --pace adaptive: the probes that must meet --target-latency, comma-separated: fsync, save, read, sqlite, dsync, cmd (default: every probe that runs but cmd); the slowest of them steers" },
	{ .name = "headroom", .key = KEY_HEADROOM, .type = CLI_UINT, .arg = "PCT", .offset = offsetof(struct ws_config, set.pacing.headroom_pct), .max = 50,
	  .help = "for --pace adaptive: keep the writer under (100 - PCT)% of the rate the disk showed, 0-50 (default {default}: none), so that an application's synchronous writes beside it often find the disk idle, not queued behind the writer" },
	{ .name = "iodepth", .key = KEY_IODEPTH, .type = CLI_UINT, .arg = "N", .offset = offsetof(struct ws_config, set.pacing.iodepth), .min = 1, .max = 64,
	  .help = "writes in flight for --pace direct or dontcache, queued with io_uring (default {default}: one synchronous write at a time; falls back to that, with a warning, where io_uring is not permitted)" },
	{ .name = "rate", .key = 'r', .type = CLI_RATE, .arg = "RATE", .offset = offsetof(struct ws_config, set.rate),
	  .help = "cap the average write rate, e.g. 50M/s" },
	{ .name = "data", .key = 'd', .type = CLI_CUSTOM, .arg = "KIND", .parse = parse_data,
	  .help = "what the buffers hold (default {default}): random (incompressible, every 4 KiB block unique and stamped for verify), fixed (one random buffer, as overwrite.c), zero, compressible=PCT" },
	{ .name = "seed", .key = KEY_SEED, .type = CLI_U64, .arg = "N", .offset = offsetof(struct ws_config, set.seed), .min = 1,
	  .help = "seed for random data (default: from the clock)" },
	{ .type = CLI_HEADING, .help = "Latency probes (what a desktop feels while the writer runs):" },
	{ .name = "probe", .key = KEY_PROBE, .type = CLI_CUSTOM, .arg = "LIST", .parse = parse_probe,
	  .help = "probes to run, comma-separated (default {default}): fsync (append + fsync: a mail client storing a message), save (write, fsync, rename, fsync dir: an editor saving), read (4 KiB of a cold block of --read-probe: an application starting), sqlite (a real SQLite commit: a mail store, a browser's history), dsync (in-place O_DSYNC overwrite: a database's WAL, ioping -W -y), cmd (your --probe-cmd)" },
	{ .name = "no-probe", .key = KEY_NO_PROBE, .type = CLI_CUSTOM, .parse = parse_no_probe,
	  .help = "run the writer alone" },
	{ .name = "probe-interval", .key = KEY_PROBE_INTERVAL, .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.probe_interval_ns), .min = WS_NSEC_PER_MSEC,
	  .help = "time between the starts of a probe's operations (default {default})" },
	{ .name = "probe-size", .key = KEY_PROBE_SIZE, .type = CLI_SIZE, .arg = "SIZE", .offset = offsetof(struct ws_config, set.probe_size), .min = 1, .max = 64 * WS_MIB,
	  .help = "bytes per fsync, save, dsync probe or sqlite row (default {default})" },
	{ .name = "probe-sync", .key = KEY_PROBE_SYNC, .type = CLI_CUSTOM, .arg = "CALL", .parse = parse_probe_sync,
	  .help = "fsync or fdatasync, for the fsync probe (default {default})" },
	{ .name = "probe-dir", .key = KEY_PROBE_DIR, .type = CLI_STRING, .arg = "DIR", .offset = offsetof(struct ws_config, set.probe_dir),
	  .help = "where probe files live (default: FILE's directory); e.g. your home while FILE stresses /data" },
	{ .name = "sqlite-journal", .key = KEY_SQLITE_JOURNAL, .type = CLI_CUSTOM, .arg = "MODE", .parse = parse_sqlite_journal,
	  .help = "the sqlite probe's journal_mode: delete (a rollback journal) or wal (default {default})" },
	{ .name = "sqlite-sync", .key = KEY_SQLITE_SYNC, .type = CLI_CUSTOM, .arg = "LEVEL", .parse = parse_sqlite_sync,
	  .help = "the sqlite probe's synchronous: full or normal (default {default})" },
	{ .name = "probe-cmd", .key = KEY_PROBE_CMD, .type = CLI_CUSTOM, .arg = "[NAME=]CMD", .parse = parse_probe_cmd,
	  .help = "time your own command at the probe interval, one at a time, with /bin/sh -c in the probe directory (adds the cmd probe; with --probe, name cmd there; repeatable, up to 4, e.g. mail='notmuch new'); a non-zero exit is a failed probe" },
	{ .name = "probe-user", .key = KEY_PROBE_USER, .type = CLI_CUSTOM, .arg = "NAME", .parse = parse_probe_user,
	  .help = "who --probe-cmd commands run as when writestress runs as root (default nobody: never root unless named)" },
	{ .name = "probe-timeout", .key = KEY_PROBE_TIMEOUT, .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.cmds.timeout_ns), .min = WS_NSEC_PER_MSEC,
	  .help = "a --probe-cmd command still running after this is killed, a failed probe (default {default})" },
	{ .name = "read-probe", .key = KEY_READ_PROBE, .type = CLI_STRING, .arg = "PATH", .offset = offsetof(struct ws_config, set.read_probe),
	  .help = "an existing file the read probe reads from (adds read to the probes)" },
	{ .name = "stall", .key = KEY_STALL, .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.stall_ns), .min = WS_NSEC_PER_MSEC,
	  .help = "a probe at least this slow is a stall (default {default})" },
	{ .type = CLI_HEADING, .help = "Analysis and results:" },
	{ .name = "json", .key = KEY_JSON, .type = CLI_STRING, .arg = "FILE", .offset = offsetof(struct ws_config, set.json_path),
	  .help = "write the complete result (configuration, series, probes, phases, steady state) as JSON ('-': to stdout, the rest to stderr)" },
	{ .name = "csv", .key = KEY_CSV, .type = CLI_STRING, .arg = "FILE", .offset = offsetof(struct ws_config, set.csv_path),
	  .help = "write the interval series as CSV, one row per interval ('-': to stdout)" },
	{ .name = "svg", .key = KEY_SVG, .type = CLI_STRING, .arg = "FILE", .offset = offsetof(struct ws_config, set.svg_path),
	  .help = "draw throughput over GiB written and probe latency over time as an SVG plot ('-': to stdout)" },
	{ .name = "prom", .key = KEY_PROM, .type = CLI_CUSTOM, .arg = "FILE", .parse = parse_prom,
	  .help = "keep the run's live state in FILE in the Prometheus text format, replaced atomically every interval and marked finished at the end, for node_exporter's textfile collector (name it *.prom in its directory; metrics in doc/metrics.md)" },
	{ .name = "until-steady", .key = KEY_UNTIL_STEADY, .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.steady.until),
	  .help = "end the run once throughput is in steady state after preconditioning (see --precondition), or give up after --steady-max-rounds; --size, --time or -b still bound it" },
	{ .name = "steady-criterion", .key = KEY_STEADY_CRITERION, .type = CLI_CUSTOM, .arg = "CRIT", .parse = parse_steady_criterion,
	  .help = "how a window of rounds is judged steady (default {default}): snia (range within 20% of the window's average and the fitted line's excursion within 10%), bw-slope:PCT (fio's ss=bw_slope: |slope| per round under PCT% of the average) or bw-dev:PCT (fio's ss=bw: every round within PCT% of the average)" },
	{ .name = "steady-window", .key = KEY_STEADY_WINDOW, .type = CLI_UINT, .arg = "N", .offset = offsetof(struct ws_config, set.steady.window), .min = 2, .max = 1000,
	  .help = "rounds in a steady-state window (default {default})" },
	{ .name = "steady-round", .key = KEY_STEADY_ROUND, .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.steady.round_ns), .min = 10 * WS_NSEC_PER_MSEC,
	  .help = "length of one steady-state round (default {default}); a round's rate is what reached the disk in it, read off the progress marks" },
	{ .name = "precondition", .key = KEY_PRECONDITION, .type = CLI_CUSTOM, .arg = "SIZE|Nx", .parse = parse_precondition,
	  .help = "judge steady state only in windows that start after SIZE was written, or N times the capacity of the device under FILE (default with --until-steady: 2x, as SNIA PTS; otherwise 0)" },
	{ .name = "steady-max-rounds", .key = KEY_STEADY_MAX_ROUNDS, .type = CLI_UINT, .arg = "N", .offset = offsetof(struct ws_config, set.steady.max_rounds), .min = 2, .max = 1000000,
	  .help = "--until-steady gives up, with the verdict \"not steady\", after N rounds past preconditioning (default 25, as SNIA PTS)" },
	{ .name = "verify", .key = KEY_VERIFY, .type = CLI_FLAG, .offset = offsetof(struct ws_config, verify),
	  .help = "after the run, read the file back from the disk and check every 4 KiB block by its stamp (random and compressible data; `writestress verify FILE` does the same later); a block not as written makes the exit status 1" },
	{ .name = "bucket", .key = KEY_BUCKET, .type = CLI_SIZE, .arg = "SIZE", .offset = offsetof(struct ws_config, set.bucket), .min = WS_MIB,
	  .help = "bytes per cell of the throughput-over-bytes view (default: about 32 cells over the run)" },
	{ .type = CLI_HEADING, .help = "System (privileged; checked with libcap, and every capability is dropped once set up):" },
	{ .name = "drop-caches", .key = KEY_DROP_CACHES, .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.drop_caches),
	  .help = "sync and drop the page cache before the run (CAP_SYS_ADMIN)" },
	{ .name = "scheduler", .key = KEY_SCHEDULER, .type = CLI_CUSTOM, .arg = "NAME", .parse = parse_scheduler,
	  .help = "use this I/O scheduler on FILE's device for the run, and put the old one back at the end (CAP_SYS_ADMIN)" },
	{ .name = "ioprio", .key = KEY_IOPRIO, .type = CLI_CUSTOM, .arg = "CLASS[:LEVEL]", .parse = parse_ioprio,
	  .help = "I/O priority of the writer: rt (CAP_SYS_ADMIN), be or idle; LEVEL 0-7, default 4" },
	{ .name = "trace", .key = KEY_TRACE, .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.trace_required),
	  .help = "trace the device's block requests through a private tracefs instance (root; on by default where it can be): request counts, bytes and times per interval; with --trace a run that cannot trace fails" },
	{ .name = "no-trace", .key = KEY_NO_TRACE, .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.no_trace),
	  .help = "do not trace the device's requests" },
	{ .name = "probe-ioprio", .key = KEY_PROBE_IOPRIO, .type = CLI_CUSTOM, .arg = "CLASS[:LEVEL]", .parse = parse_probe_ioprio,
	  .help = "I/O priority of the probes, as --ioprio" },
	{ .type = CLI_HEADING, .help = "Output and safety:" },
	{ .name = "interval", .key = 'i', .type = CLI_DURATION, .arg = "DURATION", .offset = offsetof(struct ws_config, set.interval_ns), .min = 10 * WS_NSEC_PER_MSEC,
	  .help = "reporting interval (default {default}, at least 10ms)" },
	{ .name = "quiet", .key = 'q', .type = CLI_FLAG, .offset = offsetof(struct ws_config, quiet),
	  .help = "no header, live line or interval lines: the summary only" },
	{ .name = "color", .key = KEY_COLOR, .type = CLI_CUSTOM, .arg = "WHEN", .parse = parse_colour,
	  .help = "paint stalls red on the live line: auto (default: on a terminal that is not dumb, unless NO_COLOR is set), always or never" },
	{ .name = "force", .key = KEY_FORCE, .type = CLI_FLAG, .offset = offsetof(struct ws_config, force),
	  .help = "allow overwriting an existing regular file writestress did not create: a FILE, or what --json, --csv, --svg or --prom would replace (without it a result replaces only a file writestress wrote, or an empty one)" },
	{ .name = "truncate", .key = KEY_TRUNCATE, .type = CLI_FLAG, .offset = offsetof(struct ws_config, set.truncate),
	  .help = "empty an existing FILE before the run instead of rewriting it in place (on a discard mount the filesystem then TRIMs its old blocks, which hands an SSD erased blocks back)" },
	{ .name = "remove", .key = KEY_REMOVE, .type = CLI_FLAG, .offset = offsetof(struct ws_config, remove_after),
	  .help = "delete the file at the end (only a file writestress created, or took over with --force)" },
	{ .name = "help", .key = 'h', .type = CLI_HELP,
	  .help = "show this help and exit" },
	{ .name = "version", .key = 'V', .type = CLI_VERSION,
	  .help = "show the version and exit" },
};

static void help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress [OPTION]... FILE [FILE]...\n"
		"       writestress compare [--threshold PCT] A.json B.json\n"
		"       writestress report [--by KEY] [--json|--csv|--svg F] RESULT.json...|DIR\n"
		"       writestress verify [--run ID] FILE\n"
		"       writestress matrix [--strategies LIST] [--each SIZE|TIME] FILE\n"
		"Stream large buffers to FILE, pacing writeback with sync_file_range() like\n"
		"overwrite.c, and report throughput over time, where the time went and what\n"
		"a mail client's fsync felt meanwhile.\n"
		"\nExamples:\n"
		"  writestress -t 30s /mnt/test/f.dat       a first run: 30 s, then the summary\n"
		"  writestress -b 3000 -f /mnt/test/f.dat   the classic overwrite.c run (23.4 GiB)\n"
		"  writestress --until-steady -t 2h --json ssd.json /mnt/ssd/f.dat\n"
		"                                           an SSD's steady state, SNIA-style\n");
}

static void help_tail(FILE *out)
{
	fprintf(out,
		"\nUnits:\n"
		"  SIZE      bytes, B; k K KiB = 2^10, m M MiB = 2^20, g G GiB = 2^30, T TiB;\n"
		"            kB KB = 10^3, MB = 10^6, GB = 10^9, TB = 10^12 (e.g. 4k 8M 1.5G 2T)\n"
		"  DURATION  ns us/µs ms s min h d; bare: seconds (e.g. 500ms 30s 10min 2h);\n"
		"            m is mebibytes everywhere, never minutes\n"
		"  RATE      a SIZE per second, with a unit (e.g. 50M/s; 50B/s for bytes)\n"
		"  Output is always binary: MiB = 2^20 bytes, GiB = 2^30 bytes, MiB/s.\n"
		"\nExit status:\n"
		"  0    the run reached its bound\n"
		"  1    runtime failure (I/O error, no space left, cannot open FILE)\n"
		"  2    invalid command line\n"
		"  3    refused to touch FILE (symlink, not a regular file, not created by\n"
		"       writestress, or the run would eat into the reserve), or a result\n"
		"       file that writestress did not write\n"
		"  130  stopped by SIGINT, 143 stopped by SIGTERM (the summary is printed),\n"
		"  141  stdout closed by its reader (the summary on stderr)\n");
}

/* fio's names for ours, for "unknown option" (dd's bs= count= of= are
 * operands: take_targets) */
static const struct cli_alias fio_names[] = {
	{ "bs", "fio", "-B/--buffer-size" },
	{ "blocksize", "fio", "-B/--buffer-size" },
	{ "runtime", "fio", "-t/--time" },
	{ "filename", "fio", "FILE, an operand" },
	{ "numjobs", "fio", "--jobs" },
	{ "direct", "fio", "--pace direct" },
	{ "ioengine", "fio", "--pace direct --iodepth N (io_uring)" },
	{ "rate_iops", "fio", "-r/--rate in bytes a second" },
	{ NULL, NULL, NULL }
};

/* Completion's words of option NAME: the registry's (record/fields.h),
 * where a word that takes a value ("compressible=PCT") is offered as the
 * prefix the value follows; else the words of a row no setting records. */
static const char *const *run_words_of(const char *name)
{
	static const char *const data[] = { "random", "fixed", "zero", "compressible=", NULL };
	static const char *const criteria[] = { "snia", "bw-slope:", "bw-dev:", NULL };
	static const char *ioprio[WS_IOPRIO_IDLE - WS_IOPRIO_RT + 2];
	char option[64];
	const struct ws_field *f;

	if (!strcmp(name, "data"))
		return data;
	if (!strcmp(name, "steady-criterion"))
		return criteria;
	if (!strcmp(name, "scheduler"))
		return ws_blk_schedulers;
	if (!strcmp(name, "color"))
		return colour_words;
	if (!strcmp(name, "ioprio") || !strcmp(name, "probe-ioprio")) {
		for (int c = WS_IOPRIO_RT; c <= WS_IOPRIO_IDLE; c++)
			ioprio[c - WS_IOPRIO_RT] = ws_ioprio_class_name(c);
		return ioprio;
	}
	snprintf(option, sizeof(option), "--%s", name);
	f = ws_field_by_option(option);
	return f && f->words[0] ? f->words : NULL;
}

static const struct cli run_cli = {
	.cmd = "writestress",
	.opts = opt_table,
	.nopts = ARRAY_SIZE(opt_table),
	.help_head = help_head,
	.help_tail = help_tail,
	.aliases = fio_names,
	.default_of = ws_field_default,
	.words_of = run_words_of,
	.version = version_print,
};

/* The table, for tests that hold every option to its stated bounds and
 * for whatever else reads the options (completion). */
const struct cli *opts_cli(void)
{
	return &run_cli;
}

void opts_help(FILE *out)
{
	cli_help(&run_cli, out);
}
