/* matrix_opts.c - matrix's options, and the run's it passes on. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/units.h"
#include "config/options.h"
#include "record/fields.h"
#include "cmd/matrix/matrix.h"
#include "matrix_state.h"

_Static_assert(offsetof(struct matrix_args, run) == 0,
	       "the run's parsers write the struct ws_config at the start of dest");

static int keep_probe(void *dest, const char *arg, char *why);
static int keep_probe_cmd(void *dest, const char *arg, char *why);

/* Matrix's own option, or the run's row named `run` under matrix's key:
 * the run's bounds are matrix's. */
struct matrix_opt_spec {
	const char *run;
	int key;
	int (*parse)(void *dest, const char *arg, char *why);	/* wraps the run's */
	const char *help;	/* replaces the run's */
	struct cli_option own;
};

static const struct matrix_opt_spec specs[] = {
	{ .own = { .name = "strategies", .key = 's', .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, strategies),
	  .help = "the strategies, in order (default " MATRIX_DEFAULT_LIST "); each may carry its buffer size and window: window:B=1M:W=4" } },
	{ .own = { .name = "each", .key = 'e', .type = CLI_STRING, .arg = "SIZE|TIME",
	  .offset = offsetof(struct matrix_args, each),
	  .help = "how long each strategy runs: a time (15s, 2min) or a size (512M, 2G; m and M are mebibytes, as everywhere); a bare number is refused; default 15s" } },
	{ .run = "target-latency", .key = 'T' },
	{ .run = "headroom", .key = 270 },
	{ .own = { .name = "idle-x", .key = 272, .type = CLI_UINT, .arg = "N",
	  .offset = offsetof(struct matrix_args, idle_x), .min = 1, .max = 1000,
	  .help = "instead of --target-latency: N times what the judged probe took in the idle row (its p99, or its max under 1000 probes), 1 ms to 60 s; idle must be the first strategy" } },
	{ .own = { .name = "shuffle", .key = 256, .type = CLI_FLAG,
	  .offset = offsetof(struct matrix_args, shuffle),
	  .help = "run the strategies in a random order (each repeat its own)" } },
	{ .own = { .name = "repeat", .key = 'n', .type = CLI_UINT, .arg = "N",
	  .offset = offsetof(struct matrix_args, repeat), .min = 1, .max = MATRIX_MAX_REPEAT,
	  .help = "run the list N times; the table shows medians and the spread (default {default})" } },
	{ .own = { .name = "file-size", .key = 257, .type = CLI_SIZE, .arg = "SIZE",
	  .offset = offsetof(struct matrix_args, file_size), .min = WS_MIB, .align = 4 * WS_KIB,
	  .help = "lay FILE out to SIZE first when it does not exist, and have every run wrap there, so every strategy rewrites it in place (default: the --each size, or 1G, at most a quarter of the free space)" } },
	{ .own = { .name = "schedulers", .key = 258, .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, schedulers),
	  .help = "run the strategies under each I/O scheduler of FILE's device (mq-deadline,bfq,kyber,none), switched and put back as --scheduler does (needs CAP_SYS_ADMIN)" } },
	{ .own = { .name = "dirty-bytes", .key = 259, .type = CLI_STRING, .arg = "LIST",
	  .offset = offsetof(struct matrix_args, dirty_bytes),
	  .help = "run the strategies under each vm.dirty_bytes (e.g. 64M,512M), put back at the end (root only)" } },
	{ .run = "probe", .key = 260, .parse = keep_probe,
	  .help = "probes every run has, comma-separated (default {default}): fsync (append + fsync: a mail client storing a message), save (write, fsync, rename, fsync dir: an editor saving), sqlite (a real SQLite commit), dsync (in-place O_DSYNC overwrite: a database's WAL), cmd (your --probe-cmd); the first named is the one judged, and the one the adaptive row steers by" },
	{ .run = "probe-dir", .key = 261 },
	{ .run = "probe-interval", .key = 262 },
	{ .run = "stall", .key = 263 },
	{ .run = "probe-cmd", .key = 266, .parse = keep_probe_cmd },
	{ .run = "probe-user", .key = 267 },
	{ .run = "sqlite-journal", .key = 268 },
	{ .run = "sqlite-sync", .key = 269 },
	{ .own = { .name = "json", .key = 264, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct matrix_args, json_path),
	  .help = "write every run's full result and the table (schema " MATRIX_SCHEMA ")" } },
	{ .own = { .name = "svg", .key = 265, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct matrix_args, svg_path),
	  .help = "plot throughput against probe p99, one point per strategy, the front joined, the target as a line" } },
	{ .own = { .name = "force", .key = 271, .type = CLI_FLAG,
	  .offset = offsetof(struct matrix_args, force),
	  .help = "as writestress --force: the runs may rewrite a FILE, and --json and --svg replace a file, that writestress did not write" } },
	{ .own = { .name = "help", .key = 'h', .type = CLI_HELP, .help = "show this help and exit" } },
};

_Static_assert(ARRAY_SIZE(specs) <= MATRIX_NOPTS, "matrix_state's seen[] holds a flag a row");

static struct cli_option rows[ARRAY_SIZE(specs)];
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

/* Kept as given: the first probe named is the one judged.  The read
 * probe needs the run's --read-probe, which no matrix row passes on. */
static int keep_probe(void *dest, const char *arg, char *why)
{
	int ret;

	for (const char *p = arg; *p; p += strcspn(p, ","), p += !!*p)
		if (!strncmp(p, "read", 4) && (p[4] == ',' || !p[4])) {
			snprintf(why, CLI_WHY_LEN, "the read probe needs --read-probe, which matrix does not pass on; use fsync, save, sqlite, dsync or cmd");
			return -EINVAL;
		}
	ret = config_option("probe")->parse(dest, arg, why);

	if (!ret)
		((struct matrix_args *)dest)->probe = arg;
	return ret;
}

static int keep_probe_cmd(void *dest, const char *arg, char *why)
{
	struct matrix_args *a = dest;
	unsigned int n = a->run.set.cmds.n;
	int ret = config_option("probe-cmd")->parse(dest, arg, why);

	if (!ret)	/* the run's parse refuses a command past the last slot */
		a->probe_cmds[n] = arg;
	return ret;
}

static void build_rows(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		const struct cli_option *o = specs[i].run ? config_option(specs[i].run) : NULL;

		if (!specs[i].run) {
			rows[i] = specs[i].own;
			continue;
		}
		if (!o) {
			fprintf(stderr, "writestress: internal error: matrix passes on --%s, which the run lacks\n",
				specs[i].run);
			abort();
		}
		rows[i] = *o;
		rows[i].key = specs[i].key;
		if (specs[i].parse)
			rows[i].parse = specs[i].parse;
		if (specs[i].help)
			rows[i].help = specs[i].help;
	}
}

static const struct matrix_opt_spec *spec_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++)
		if (specs[i].run && !strcmp(specs[i].run, name))
			return &specs[i];
	return NULL;
}

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
		"Verdicts, on the probes of a row's runs together (1000 for a p99 within\n"
		"the target; fewer can be over it when enough are): within the target,\n"
		"over the target, frozen (p99 over 10x it), not judged, baseline,\n"
		"unsupported, failed.  A rate over what the device wrote in the run was\n"
		"the page cache's: said so, and off the front.\n"
		"--target-latency is also the p99 the recommendation must meet; the table\n"
		"shows every --probe and judges the first, which the adaptive row steers by.\n"
		"Ctrl-C ends the current run cleanly, puts back what was changed and prints\n"
		"the table so far.\n"
		"\nExit status:\n"
		"  0    the matrix ran; 1 a run failed; 2 invalid command line;\n"
		"  3    a run refused FILE (safety); 130 stopped by SIGINT\n");
}

static const char *matrix_default_of(const char *name)
{
	if (!strcmp(name, "repeat"))
		return "1";
	return spec_of(name) ? ws_field_default(name) : NULL;
}

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
	f = spec_of(name) ? ws_field_of(name) : NULL;
	if (f && !strcmp(name, "probe")) {	/* but read: keep_probe() */
		static const char *probes[16];

		if (!probes[0])
			for (size_t i = 0, n = 0; f->words[i] && n + 1 < ARRAY_SIZE(probes); i++)
				if (strcmp(f->words[i], "read"))
					probes[n++] = f->words[i];
		return probes;
	}
	return f ? f->words : NULL;
}

static const struct cli matrix_cli = {
	.cmd = "writestress matrix",
	.error_prefix = "matrix: ",
	.opts = rows,
	.nopts = ARRAY_SIZE(rows),
	.help_head = matrix_help_head,
	.help_tail = matrix_help_tail,
	.default_of = matrix_default_of,
	.words_of = matrix_words_of,
};

const struct cli *matrix_options(void)
{
	pthread_once(&rows_once, build_rows);
	return &matrix_cli;
}

static void pass(struct matrix_state *m, const char *opt, const char *val)
{
	const struct cli *c = matrix_options();
	const struct cli_option *o = cli_find(c, opt + 2);

	if (!o || !m->seen[o - c->opts] || !val ||
	    m->mc.npassthrough + 2 > ARRAY_SIZE(m->mc.passthrough))
		return;
	m->mc.passthrough[m->mc.npassthrough++] = opt;
	m->mc.passthrough[m->mc.npassthrough++] = val;
}

static const char *ns_text(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

static const char *word(const char *name, bool v)
{
	return ws_field_of(name)->words[v];
}

void matrix_pass_on(struct matrix_state *m)
{
	const struct matrix_args *a = &m->args;
	const struct ws_settings *set = &a->run.set;

	m->mc.target_latency_ns = set->pacing.target_latency_ns;
	m->mc.headroom_pct = set->pacing.headroom_pct;
	pass(m, "--probe", a->probe);
	pass(m, "--probe-dir", set->probe_dir);
	pass(m, "--probe-interval", ns_text(m->num[0], sizeof(m->num[0]), set->probe_interval_ns));
	pass(m, "--stall", ns_text(m->num[1], sizeof(m->num[1]), set->stall_ns));
	for (unsigned int i = 0; i < set->cmds.n; i++)
		pass(m, "--probe-cmd", a->probe_cmds[i]);
	pass(m, "--probe-user", a->run.probe_user);
	pass(m, "--sqlite-journal", word("sqlite-journal", set->sqlite.wal));
	pass(m, "--sqlite-sync", word("sqlite-sync", set->sqlite.sync_normal));
	if (a->force)
		m->mc.passthrough[m->mc.npassthrough++] = "--force";
	/* adaptive steers by the probe the table judges: the first */
	if (a->probe)
		snprintf(m->mc.steer_by, sizeof(m->mc.steer_by), "%.*s",
			 (int)strcspn(a->probe, ","), a->probe);
}
