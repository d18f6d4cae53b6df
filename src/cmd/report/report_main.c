/* report_main.c - `writestress report`: the command line, the results
 * read a file at a time, the outputs written (see report.h). */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/c.h"
#include "lib/hist.h"
#include "lib/cli.h"
#include "cmd/report/report.h"
#include "cmd/common/result_read.h"
#include "outputs/sink.h"

struct report_args {
	const char *json, *csv, *svg;
	enum report_by by;
	bool force;
};

enum { KEY_JSON = 256, KEY_CSV, KEY_SVG, KEY_BY, KEY_FORCE };

static int parse_by(void *dest, const char *arg, char *why)
{
	if (!report_parse_by(arg, &((struct report_args *)dest)->by))
		return 0;
	snprintf(why, CLI_WHY_LEN, "expected model, kernel, host or fs");
	return -EINVAL;
}

static const struct cli_option report_opts[] = {
	{ .name = "by", .key = KEY_BY, .type = CLI_CUSTOM, .arg = "KEY",
	  .parse = parse_by,
	  .help = "group by model (the device model, the default), kernel, host or fs" },
	{ .name = "json", .key = KEY_JSON, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct report_args, json),
	  .help = "write the report as JSON (schema " REPORT_SCHEMA ") to FILE; - for stdout" },
	{ .name = "csv", .key = KEY_CSV, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct report_args, csv),
	  .help = "write one CSV row per result, with its group and outlier flags, to FILE" },
	{ .name = "svg", .key = KEY_SVG, .type = CLI_STRING, .arg = "FILE",
	  .offset = offsetof(struct report_args, svg),
	  .help = "plot every result's throughput over GiB written, a panel per group, outliers in red, to FILE" },
	{ .name = "force", .key = KEY_FORCE, .type = CLI_FLAG, .offset = offsetof(struct report_args, force),
	  .help = "let --json, --csv or --svg replace an existing file writestress did not write" },
	{ .name = "help", .key = 'h', .type = CLI_HELP,
	  .help = "show this help and exit" },
};

static void report_help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress report [OPTION]... RESULT.json... | DIR...\n"
		"One table over many results of `writestress --json`: host, device model and\n"
		"firmware, kernel, filesystem, pace, MiB/s, slowdown point, steady rate, each\n"
		"probe's p99 and stalls; grouped, with a median row per group and outliers\n"
		"flagged within each group.  A DIR stands for every *.json file directly in\n"
		"it (not in its subdirectories, not hidden ones), in name order.\n");
}

static void report_help_tail(FILE *out)
{
	fprintf(out,
		"\nOutlier rule: within a group, a value x is an outlier when\n"
		"  |x - median| > %g x %.4f x MAD (MAD: the median of |x - median|; when\n"
		"  it is 0, %.4f x the mean absolute deviation from the median instead).\n"
		"  Judged: MiB/s, steady MiB/s and each probe's p99, marked '!' and named\n"
		"  in the flags column.  Groups of fewer than %d results are not judged.\n"
		"  A p99 of fewer than %lu probes is neither shown nor judged.\n"
		"Files: results of schema writestress-result/N, N >= 1, are read (fields a\n"
		"  file lacks show as -).  A named file of another schema, a watch's result,\n"
		"  or any file that cannot be read or parsed, stops the report; in a DIR, a\n"
		"  *.json file of another schema (a report, a matrix) or a watch's result is\n"
		"  skipped with a warning.\n"
		"At most one of --json, --csv and --svg may be -; the table then goes to\n"
		"stderr.  Output files are written whole or not at all, never over a\n"
		"RESULT read, and replace only a file writestress wrote (or an empty one)\n"
		"unless --force.\n"
		"\nExit status:\n"
		"  0    no outlier flagged\n"
		"  1    one or more outliers flagged\n"
		"  2    invalid command line, no results, a file that cannot be read or\n"
		"       is not a result, or an output that cannot be written or may not\n"
		"       replace what is there\n",
		REPORT_K, REPORT_MAD_SCALE, REPORT_MEANAD_SCALE, REPORT_MIN_GROUP,
		hist_min_samples(0.99));
}

static const char *const *report_words_of(const char *name)
{
	return strcmp(name, "by") ? NULL : report_by_words();
}

static const struct cli report_cli = {
	.cmd = "writestress report",
	.error_prefix = "report: ",
	.opts = report_opts,
	.nopts = ARRAY_SIZE(report_opts),
	.help_head = report_help_head,
	.help_tail = report_help_tail,
	.words_of = report_words_of,
};

const struct cli *report_options(void)
{
	return &report_cli;
}

static bool is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/* -1 to go on with argv[*first..], else the exit status. */
static int parse_args(int argc, char **argv, struct report_args *args, int *first)
{
	switch (cli_parse(&report_cli, argc, argv, args, NULL, first, stderr)) {
	case CLI_EXIT_OK:
		return REPORT_EXIT_OK;
	case CLI_USAGE:
		return REPORT_EXIT_TROUBLE;
	case CLI_RUN:
		break;
	}
	if (argc == *first) {
		cli_usage_error(&report_cli, stderr, "missing operand RESULT.json or DIR");
		return REPORT_EXIT_TROUBLE;
	}
	if (is_stdout(args->json) + is_stdout(args->csv) + is_stdout(args->svg) > 1) {
		cli_usage_error(&report_cli, stderr,
				"only one of --json, --csv and --svg can be - (stdout)");
		return REPORT_EXIT_TROUBLE;
	}
	return -1;
}

/* 0; 1: skipped (IN_DIR, not a result); -1: said on stderr. */
static int read_one(struct report *r, const char *path, bool in_dir)
{
	struct report_point pts[REPORT_CURVE_MAX];
	struct json_object *doc;
	struct report_row row;
	unsigned int version;
	size_t npts = 0;
	char why[256];
	bool refused;
	int ret;

	if (result_load(path, &doc, why, sizeof(why))) {
		cli_error(&report_cli, stderr, "cannot read '%s': %s", path, why);
		return -1;
	}
	refused = result_schema_version(doc, &version, why, sizeof(why)) != 0;
	/* a watch has no writer: no rate, slowdown or steady state to table */
	if (!refused && result_is_watch(doc)) {
		snprintf(why, sizeof(why), "is a watch's result, not a run's "
			 "(compare two watches with writestress compare)");
		refused = true;
	}
	if (refused) {
		json_object_put(doc);
		if (in_dir) {
			cli_error(&report_cli, stderr, "skipping '%s': it %s", path, why);
			r->skipped++;
			return 1;
		}
		cli_error(&report_cli, stderr, "'%s' %s", path, why);
		return -1;
	}
	report_row_from(r, doc, &row, pts, &npts);
	json_object_put(doc);	/* only the row's figures stay */
	row.schema_version = version;
	row.file = strdup(path);
	ret = row.file ? report_add(r, &row, pts, npts) : -ENOMEM;
	if (ret) {
		cli_error(&report_cli, stderr, "cannot keep '%s': %s", path,
			strerror(-ret));
		return -1;
	}
	return 0;
}

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json") &&
	       (d->d_type == DT_REG || d->d_type == DT_LNK || d->d_type == DT_UNKNOWN);
}

static int read_dir(struct report *r, const char *dir)
{
	const char *sep = dir[strlen(dir) - 1] == '/' ? "" : "/";
	struct dirent **names;
	int n, ret = 0;

	n = scandir(dir, &names, json_name, alphasort);
	if (n < 0) {
		cli_error(&report_cli, stderr, "cannot read directory '%s': %s", dir,
			strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *path = NULL;
		struct stat st;

		if (!ret && asprintf(&path, "%s%s%s", dir, sep, names[i]->d_name) < 0) {
			cli_error(&report_cli, stderr, "out of memory");
			ret = -1;
		}
		/* a symbolic link to a directory is not a result */
		if (!ret && (stat(path, &st) || S_ISREG(st.st_mode)) && read_one(r, path, true) < 0)
			ret = -1;
		free(path);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int read_all(struct report *r, int n, char **operands)
{
	for (int i = 0; i < n; i++) {
		struct stat st;
		int ret;

		if (!stat(operands[i], &st) && S_ISDIR(st.st_mode))
			ret = read_dir(r, operands[i]);
		else
			ret = read_one(r, operands[i], false) < 0 ? -1 : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/* The outputs are result files as a run's are (sink.h). */
static const struct sink_ops report_file_ops = { .name = "report" };

struct outputs {
	struct sink_set set;
	struct sink *json, *csv, *svg;
};

/* Before any reading, so a path that cannot be written is said before
 * minutes of it.  0, or the exit status. */
static int open_output(struct outputs *o, const char *option, const char *path,
		       struct sink **s)
{
	char err[600];

	*s = NULL;
	if (!path)
		return 0;
	int ret = sink_add_file(&o->set, &report_file_ops, path, err, sizeof(err));

	if (ret == -EPERM) {
		cli_error(&report_cli, stderr, "refusing to replace %s: %s", option, err);
		fprintf(stderr, "hint: name another file, remove it, or add --force to replace it\n");
		return REPORT_EXIT_TROUBLE;
	}
	if (ret) {
		cli_usage_error(&report_cli, stderr, "invalid %s '%s': %s", option, path, err);
		return REPORT_EXIT_TROUBLE;
	}
	*s = &o->set.sinks[o->set.n - 1];
	return 0;
}

/* An output on a RESULT it reads would replace that result. */
static int outputs_apart(const struct report_args *a, int n, char **operands)
{
	const struct { const char *opt, *path; } out[] = {
		{ "--json", a->json }, { "--csv", a->csv }, { "--svg", a->svg },
	};

	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		for (int k = 0; out[i].path && !is_stdout(out[i].path) && k < n; k++)
			if (ws_same_path(out[i].path, operands[k])) {
				cli_usage_error(&report_cli, stderr, "invalid %s '%s': the same file as the RESULT '%s' it reads",
						out[i].opt, out[i].path, operands[k]);
				return REPORT_EXIT_TROUBLE;
			}
	return 0;
}

static int open_outputs(struct outputs *o, const struct report_args *a)
{
	int status;

	o->set.force = a->force;
	status = open_output(o, "--json", a->json, &o->json);

	if (!status)
		status = open_output(o, "--csv", a->csv, &o->csv);
	if (!status)
		status = open_output(o, "--svg", a->svg, &o->svg);
	if (status)
		sink_abort_all(&o->set);
	return status;
}

/* 0, or -1 said on stderr. */
static int write_output(struct sink *s, const struct report *r,
			void (*write)(FILE *, const struct report *))
{
	int ret;

	if (!s)
		return 0;
	write(s->out, r);
	ret = sink_close_file(s);
	if (ret)
		cli_error(&report_cli, stderr, "cannot write '%s': %s", s->path,
			strerror(-ret));
	return ret ? -1 : 0;
}

int report_main(int argc, char **argv)
{
	struct report_args args = { .by = REPORT_BY_MODEL };
	struct report r = { .k = REPORT_K };
	struct outputs outs = { .set = { .n = 0 } };
	int first, status = parse_args(argc, argv, &args, &first);
	FILE *table;

	if (status >= 0)
		return status;
	r.by = args.by;
	status = outputs_apart(&args, argc - first, argv + first);
	if (!status)
		status = open_outputs(&outs, &args);
	if (status)
		return status;
	status = REPORT_EXIT_TROUBLE;
	if (args.svg && !(r.spill = tmpfile())) {
		cli_error(&report_cli, stderr, "cannot make a temporary file for the curves: %s",
			strerror(errno));
		goto out_free;
	}
	if (read_all(&r, argc - first, argv + first))
		goto out_free;
	if (!r.nrows) {
		cli_error(&report_cli, stderr, "no results to report%s",
			r.skipped ? " (every file was skipped)" : "");
		goto out_free;
	}
	if (report_finish(&r)) {
		cli_error(&report_cli, stderr, "out of memory");
		goto out_free;
	}
	table = is_stdout(args.json) || is_stdout(args.csv) || is_stdout(args.svg) ?
		stderr : stdout;
	report_print(table, &r);
	if (fflush(table) || ferror(table)) {
		cli_error(&report_cli, stderr, "cannot write the table: %s",
			strerror(errno));
		goto out_free;
	}
	if (write_output(outs.json, &r, report_json) || write_output(outs.csv, &r, report_csv) ||
	    write_output(outs.svg, &r, report_svg))
		goto out_free;
	status = r.outlier_rows ? REPORT_EXIT_OUTLIERS : REPORT_EXIT_OK;
out_free:
	sink_abort_all(&outs.set);	/* those not published */
	report_free(&r);
	return status;
}
