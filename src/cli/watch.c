/* watch.c - `writestress watch`'s command line: the run's own rows for
 * the probes, the tracer and the results (record/fields.c), no writer's,
 * and the rules of a watch's bound and directory. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/options.h"
#include "lib/c.h"
#include "lib/cli.h"
#include "commands.h"
#include "opts.h"
#include "record/fields.h"
#include "version.h"

/* The run's rows a watch takes, --help's order. */
static const char *const rows[] = {
	"time", "forever", "probe", "probe-interval", "probe-size",
	"probe-sync", "probe-dir", "sqlite-journal", "sqlite-sync", "probe-cmd",
	"probe-user", "probe-timeout", "read-probe", "stall", "json", "csv",
	"prom", "trace", "no-trace", "probe-ioprio", "interval", "quiet",
	"verbose", "color", "force", "help", "version",
};

/* Where a run's words would mislead. */
static const struct { const char *name, *help; } own_help[] = {
	{ "time", "stop after DURATION" },
	{ "forever", "watch until interrupted (Ctrl-C, SIGTERM); a watch needs this or -t; not with a --json or --csv file, which would grow without end" },
	{ "probe-dir", "probe in DIR, whose disk is watched (default: the current directory)" },
	{ "prom", "write the Prometheus textfile F (node_exporter's textfile collector), rewritten in place every interval" },
};

static void help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress watch [OPTION]... (-t DURATION | --forever)\n"
		"Watch the machine as it is: no writer, only the probes (what a mail client's\n"
		"fsync feels) and, as root, the tracer, which names each stall's cause and\n"
		"the processes whose writes reached the disk meanwhile (pid, command,\n"
		"cgroup, bytes).  The summary ends with the culprits.\n"
		"\nExamples:\n"
		"  writestress watch -t 10min                    the current directory's disk\n"
		"  writestress watch --probe-dir /home --forever --prom /var/lib/prometheus/node-exporter/writestress.prom\n");
}

static struct cli_option opts[ARRAY_SIZE(rows)];
static struct cli watch_cli = {
	.cmd = "writestress watch",
	.error_prefix = "watch: ",
	.help_head = help_head,
	.default_of = ws_field_default,
	.version = version_print,
};
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;

static void watch_rows(void)
{
	const struct cli *run = opts_cli();

	watch_cli.words_of = run->words_of;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct cli_option *o = cli_find(run, rows[i]);

		if (!o)		/* a row renamed: the table above must follow */
			abort();
		opts[watch_cli.nopts] = *o;
		for (size_t k = 0; k < ARRAY_SIZE(own_help); k++)
			if (!strcmp(own_help[k].name, rows[i]))
				opts[watch_cli.nopts].help = own_help[k].help;
		watch_cli.nopts++;
	}
	watch_cli.opts = opts;
}

const struct cli *watch_options(void)
{
	pthread_once(&watch_once, watch_rows);
	return &watch_cli;
}

/* The run's seen[] from the watch's: opts_check reads the run's rows. */
static bool *run_seen(const bool *seen)
{
	const struct cli *run = opts_cli(), *w = watch_options();
	bool *out = calloc(run->nopts, sizeof(*out));

	for (size_t i = 0; out && i < w->nopts; i++) {
		const struct cli_option *o = cli_find(run, w->opts[i].name);

		if (o && seen[i])
			out[o - run->opts] = true;
	}
	return out;
}

static bool given(const bool *seen, const char *name)
{
	const struct cli_option *o = cli_find(watch_options(), name);

	return o && seen[o - watch_options()->opts];
}

static enum opts_result check_watch(struct ws_config *cfg, const bool *seen, FILE *err)
{
	/* streamed, a result file grows by every interval: nothing but -t
	 * would stop it filling the disk (--prom is rewritten in place; '-'
	 * is the reader's to bound) */
	const struct { const char *name, *path; } streamed[] = {
		{ "json", cfg->set.json_path }, { "csv", cfg->set.csv_path },
	};

	if (cfg->set.forever && given(seen, "time")) {
		cli_usage_error(watch_options(), err,
				"--forever and -t: give one (--forever watches until interrupted)");
		return OPTS_USAGE;
	}
	if (!cfg->set.forever && !given(seen, "time")) {
		cli_usage_error(watch_options(), err,
				"a watch needs a bound: add -t 10min (or --forever, until interrupted)");
		return OPTS_USAGE;
	}
	for (size_t i = 0; cfg->set.forever && i < ARRAY_SIZE(streamed); i++) {
		if (!streamed[i].path || !strcmp(streamed[i].path, "-"))
			continue;
		cli_usage_error(watch_options(), err,
				"--forever and --%s '%s': the file would grow by every interval without"
				" end; give -t (a day: -t 24h), or --prom, rewritten in place",
				streamed[i].name, streamed[i].path);
		return OPTS_USAGE;
	}
	return OPTS_RUN;
}

enum opts_result watch_parse(int argc, char **argv, struct ws_config *cfg, FILE *err,
			     bool **rseen)
{
	static char cwd[PATH_MAX];
	bool *seen = calloc(watch_options()->nopts, sizeof(*seen));
	enum opts_result res = OPTS_USAGE;
	int first;

	if (!seen) {
		fprintf(err, "writestress: %s\n", strerror(ENOMEM));
		return OPTS_USAGE;
	}
	config_defaults(cfg);
	switch (cli_parse(watch_options(), argc, argv, cfg, seen, &first, err)) {
	case CLI_EXIT_OK:
		res = OPTS_EXIT_OK;
		goto out;
	case CLI_USAGE:
		goto out;
	case CLI_RUN:
		break;
	}
	if (first < argc) {
		cli_usage_error(watch_options(), err,
				"unexpected operand '%s': a watch writes no FILE; --probe-dir DIR names the disk",
				argv[first]);
		goto out;
	}
	if (check_watch(cfg, seen, err) != OPTS_RUN)
		goto out;
	cfg->set.watch = true;
	/* the summary names the directory, not "." */
	if (!cfg->set.probe_dir)
		cfg->set.probe_dir = getcwd(cwd, sizeof(cwd)) ? cwd : ".";
	cfg->paths[0] = cfg->set.probe_dir;
	cfg->set.path = cfg->paths[0];
	cfg->ntargets = 1;
	*rseen = run_seen(seen);
	res = *rseen ? OPTS_RUN : OPTS_USAGE;
out:
	free(seen);
	return res;
}
