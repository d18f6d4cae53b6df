/* matrix_opts.c - the command line of `writestress matrix`: its option
 * table, --help's frame, defaults and completion's words. */
#include <stddef.h>
#include <string.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/units.h"
#include "record/fields.h"
#include "cmd/matrix/matrix.h"
#include "matrix_state.h"

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
