/* compare_main.c - `writestress compare A.json B.json`: the command line,
 * the report printed and the exit status (see compare.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "cmd/compare/compare.h"
#include "lib/hist.h"
#include "cmd/common/result_read.h"
#include "lib/units.h"

#define GIB ((double)WS_GIB)

enum { COL_METRIC, COL_A, COL_B, COL_CHANGE, COL_FLAG, NCOLS };

static const char *const col_titles[NCOLS] = { "metric", "A", "B", "change", "flag" };
static const char *const flag_words[] = {
	[CMP_FLAG_NONE] = "", [CMP_FLAG_REGRESSION] = "REGRESSION",
	[CMP_FLAG_IMPROVED] = "improved",
};

static void format_value(char *buf, size_t len, const struct cmp_value *v,
			 int decimals)
{
	if (v->kind == CMP_NUMBER)
		snprintf(buf, len, "%.*f", decimals, v->num);
	else if (v->kind == CMP_TEXT)
		snprintf(buf, len, "%s", v->text);
	else
		snprintf(buf, len, "-");
}

static void format_change(char *buf, size_t len, const struct cmp_row *row)
{
	double pct;

	if (!compare_change(compare_value_num(&row->a), compare_value_num(&row->b), &pct))
		snprintf(buf, len, "-");
	else if (fabs(pct) < 0.05)
		snprintf(buf, len, "0.0%%");
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

/* ROW NULL: the title row. */
static void cells_of(char cells[NCOLS][64], const struct cmp_row *row)
{
	if (!row) {
		for (int c = 0; c < NCOLS; c++)
			snprintf(cells[c], 64, "%s", col_titles[c]);
		return;
	}
	snprintf(cells[COL_METRIC], 64, "%s", row->metric);
	format_value(cells[COL_A], 64, &row->a, row->decimals);
	format_value(cells[COL_B], 64, &row->b, row->decimals);
	format_change(cells[COL_CHANGE], 64, row);
	snprintf(cells[COL_FLAG], 64, "%s", flag_words[row->flag]);
}

/* no trailing blanks: a blank flag leaves the line ending in '|' */
static void print_line(FILE *out, char cells[NCOLS][64], const int *width)
{
	fprintf(out, "%-*s | %*s | %*s | %*s |%s%s\n", width[COL_METRIC],
		cells[COL_METRIC], width[COL_A], cells[COL_A], width[COL_B],
		cells[COL_B], width[COL_CHANGE], cells[COL_CHANGE],
		cells[COL_FLAG][0] ? " " : "", cells[COL_FLAG]);
}

static void print_table(FILE *out, const struct cmp_report *r)
{
	int width[NCOLS] = { 0 };
	char cells[NCOLS][64];

	for (size_t i = 0; i <= r->nrows; i++) {
		cells_of(cells, i ? &r->rows[i - 1] : NULL);
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cells[c]) > width[c])
				width[c] = (int)strlen(cells[c]);
	}
	cells_of(cells, NULL);
	print_line(out, cells, width);
	for (int c = 0; c < NCOLS; c++) {
		for (int k = 0; k < width[c] + (c ? 2 : 1); k++)
			fputc('-', out);
		if (c < NCOLS - 1)
			fputc('+', out);
	}
	fputc('\n', out);
	for (size_t i = 0; i < r->nrows; i++) {
		cells_of(cells, &r->rows[i]);
		print_line(out, cells, width);
	}
}

static void print_diff(FILE *out, const struct cmp_diff *d)
{
	fprintf(out, "  %s = %s vs %s", d->path, d->a, d->b);
	if (d->note)
		fprintf(out, " (%s)", d->note);
	fputc('\n', out);
}

static void print_diffs(FILE *out, const char *title, const struct cmp_diff *d,
			size_t n)
{
	size_t shown = 0;

	fprintf(out, "\n%s:\n", title);
	for (size_t i = 0; i < n; i++) {
		if (d[i].changes)
			continue;
		print_diff(out, &d[i]);
		shown++;
	}
	if (!shown)
		fprintf(out, "  (none%s)\n", n ? " besides those above" : "");
}

/* "--rate, --pace": each label once. */
static const char *changing_labels(char *buf, size_t len, const struct cmp_report *r)
{
	const struct cmp_diff *lists[2] = { r->config, r->system };
	size_t counts[2] = { r->nconfig, r->nsystem };
	const char *seen[64];
	size_t nseen = 0;
	struct ws_buf b = ws_buf_init(buf, len);

	for (int l = 0; l < 2; l++) {
		for (size_t i = 0; i < counts[l]; i++) {
			const char *label = lists[l][i].changes;
			size_t k = 0;

			while (label && k < nseen && strcmp(seen[k], label))
				k++;
			if (!label || k < nseen)
				continue;	/* none, or named already */
			ws_buf_item(&b, ", ", "%s", label);
			if (nseen < ARRAY_SIZE(seen))
				seen[nseen++] = label;
		}
	}
	return b.s;
}

/* Before any figure: what makes the runs not like for like. */
static void print_changing(FILE *out, const struct cmp_report *r)
{
	const struct cmp_diff *lists[2] = { r->config, r->system };
	size_t counts[2] = { r->nconfig, r->nsystem };

	if (!r->changing)
		return;
	fprintf(out, "settings that change the result differ:\n");
	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < counts[l]; i++)
			if (lists[l][i].changes)
				print_diff(out, &lists[l][i]);
	if (r->judged)
		fprintf(out, "judged anyway (--force): they may explain any change below\n\n");
	else
		fprintf(out, "not comparable: the table is not judged (--force judges it anyway)\n\n");
}

static void print_rules(FILE *out, const struct cmp_report *r)
{
	fprintf(out, "\njudged by:\n  a change beyond %g%% of A (--threshold)\n",
		r->rules.threshold_pct);
	if (r->rules.floor_ms > 0)
		fprintf(out, "  a latency under %g ms in both runs is not flagged (--floor)\n",
			r->rules.floor_ms);
	else
		fprintf(out, "  every latency, however short (--floor 0)\n");
	fprintf(out, "  pX shown and judged only with %d/(1-X) samples in each run: "
		"p50 %lu, p99 %lu, p99.9 %lu\n", HIST_SAMPLES_BEYOND,
		hist_min_samples(0.5), hist_min_samples(0.99),
		hist_min_samples(0.999));
}

static void print_note(FILE *out, bool *any, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void print_note(FILE *out, bool *any, const char *fmt, ...)
{
	va_list ap;

	if (!*any)
		fprintf(out, "\nnotes:\n");
	*any = true;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/* The run's reasons for what it did not judge, then the rows the
 * threshold alone would flag but a rule keeps unflagged. */
static void print_notes(FILE *out, const struct cmp_report *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct cmp_row *row = &r->rows[i];

		if (row->a.why[0] && !strcmp(row->a.why, row->b.why))
			print_note(out, &any, "  %s %s in A and B: %s\n", row->metric,
				   row->a.text, row->a.why);
		else if (row->a.why[0] || row->b.why[0])
			print_note(out, &any, "  %s %s in %s: %s\n", row->metric,
				   row->a.why[0] ? row->a.text : row->b.text,
				   row->a.why[0] ? "A" : "B", row->a.why[0] ? row->a.why : row->b.why);
		if (row->a.why[0] && row->b.why[0] && strcmp(row->a.why, row->b.why))
			print_note(out, &any, "  %s %s in B: %s\n", row->metric, row->b.text,
				   row->b.why);
		if (row->would != CMP_FLAG_NONE && row->skip == CMP_SKIP_FLOOR)
			print_note(out, &any, "  %s not flagged: under the %g ms floor in both runs\n",
				   row->metric, r->rules.floor_ms);
	}
}

static void print_verdict(FILE *out, const struct cmp_report *r)
{
	char labels[256];

	changing_labels(labels, sizeof(labels), r);
	fprintf(out, "\nverdict: ");
	if (!r->judged) {
		fprintf(out, "not comparable: different %s (--force judges anyway)\n", labels);
		return;
	}
	if (r->regressions)
		fprintf(out, "%u regression%s beyond %g%% (B vs A)", r->regressions,
			r->regressions == 1 ? "" : "s", r->rules.threshold_pct);
	else
		fprintf(out, "no regression beyond %g%%", r->rules.threshold_pct);
	if (r->changing)
		fprintf(out, ", with different %s (--force)", labels);
	fputc('\n', out);
}

void compare_print(FILE *out, const struct cmp_report *r, const char *name_a,
		   const char *name_b)
{
	fprintf(out, "A: %s (writestress %s, started %s)\n", name_a,
		r->info_a.version, r->info_a.started_at);
	fprintf(out, "B: %s (writestress %s, started %s)\n\n", name_b,
		r->info_b.version, r->info_b.started_at);
	print_changing(out, r);
	print_table(out, r);
	if (r->judged) {
		print_rules(out, r);
		print_notes(out, r);
	}
	print_diffs(out, "configuration differences", r->config, r->nconfig);
	print_diffs(out, "system differences", r->system, r->nsystem);
	print_verdict(out, r);
}

enum { KEY_THRESHOLD = 256, KEY_FLOOR, KEY_FORCE };

struct cmp_args {
	double threshold;
	uint64_t floor_ns;
	bool force;
};

static int parse_threshold(void *dest, const char *arg, char *why)
{
	if (!compare_parse_threshold(arg, &((struct cmp_args *)dest)->threshold))
		return 0;
	snprintf(why, CLI_WHY_LEN, "expected a percentage such as 10 or 2.5%%");
	return -EINVAL;
}

/* 0 too: no floor. */
static int parse_floor(void *dest, const char *arg, char *why)
{
	struct units_error err;

	if (!units_parse_duration(arg, &((struct cmp_args *)dest)->floor_ns, &err))
		return 0;
	snprintf(why, CLI_WHY_LEN, "%s", err.msg);
	return -EINVAL;
}

static const struct cli_option cmp_opts[] = {
	{ .name = "threshold", .key = KEY_THRESHOLD, .type = CLI_CUSTOM,
	  .arg = "PCT", .parse = parse_threshold,
	  .help = "flag changes beyond PCT percent of A (default 10)" },
	{ .name = "floor", .key = KEY_FLOOR, .type = CLI_CUSTOM, .arg = "DURATION",
	  .parse = parse_floor,
	  .help = "never flag a latency under DURATION in both runs "
		  "(default 10ms; 0: flag any)" },
	{ .name = "force", .key = KEY_FORCE, .type = CLI_FLAG,
	  .offset = offsetof(struct cmp_args, force),
	  .help = "judge the table even when settings that change the result differ" },
	{ .name = "help", .key = 'h', .type = CLI_HELP,
	  .help = "show this help and exit" },
};

static void compare_help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress compare [OPTION]... A.json B.json\n"
		"Show two results of `writestress --json` side by side and judge B against A:\n"
		"throughput, phases, steady rate, probe latency and stalls, then the\n"
		"differences in configuration and system, then a verdict.  Two results of\n"
		"`writestress matrix --json` are compared strategy by strategy; two of\n"
		"`writestress watch --json` by how long each watched, what other processes\n"
		"wrote, and the probes (another -t: not comparable).  A watch and a run\n"
		"are not compared (status 2).\n");
}

static void compare_help_tail(FILE *out)
{
	fprintf(out,
		"\nLike for like: when a setting that changes the result differs (--rate,\n"
		"--pace, --window, --sync-every, --target-latency, --iodepth, --fadvise,\n"
		"--buffer-size, --data, --jobs, --size, --time, --until-steady and the\n"
		"steady-state options, the probes and their options, the device or the\n"
		"filesystem type; a matrix's --target-latency and --each), those differences\n"
		"are listed first and the runs are not comparable: the table is shown but\n"
		"not judged, unless --force.  Kernel, scheduler, queue and dirty settings,\n"
		"paths, host and time, and sizes writestress chose itself are information.\n"
		"\nOutput: one table row per metric, \"metric | A | B | change | flag\".\n"
		"  change  (B - A) / A; \"-\" when A is 0 or a value is missing\n"
		"  flag    REGRESSION: lower throughput (throughput, initial, phase and\n"
		"          steady rates) or higher latency or stalls (probe percentiles,\n"
		"          max, stall count, total and longest) beyond the threshold, or\n"
		"          any stall time where A had none; improved: the opposite;\n"
		"          elapsed time, sizes, counts and positions are not judged\n"
		"  -       a field the file lacks (older or partial result)\n"
		"A percentile pX of a run with fewer than %d/(1-X) samples (p50 %lu, p99 %lu,\n"
		"p99.9 %lu: fewer leave pX among the last few, p99 of 80 is the maximum) is\n"
		"not shown, its cell saying what it needs (\"p99 needs 1000 probes\"), and not\n"
		"judged.  A steady state the run did not reach or judge is in its words\n"
		"(\"not reached\", \"not judged\", with the run's reason in a note).\n"
		"Not flagged, with a note: a latency under the --floor in both runs.\n"
		"Then every other configuration and system field that differs, as\n"
		"\"path = A vs B\" (bytes in KiB, MiB, GiB), and \"verdict: N regressions beyond\n"
		"PCT%% (B vs A)\" or \"verdict: not comparable: different ...\".\n"
		"Units: MiB/s, GiB = 2^30 bytes, s, ms; DURATION as in writestress --help\n"
		"(10ms, 0.5s; a bare number is seconds).\n"
		"\nExit status:\n"
		"  0    no regression beyond the threshold\n"
		"  1    one or more regressions flagged\n"
		"  2    invalid command line, or a file that cannot be read or is not a\n"
		"       %s result\n"
		"  3    not comparable: settings that change the result differ (no --force)\n",
		HIST_SAMPLES_BEYOND, hist_min_samples(0.5), hist_min_samples(0.99),
		hist_min_samples(0.999), CMP_SCHEMA);
}

static const struct cli compare_cli = {
	.cmd = "writestress compare",
	.error_prefix = "compare: ",
	.opts = cmp_opts,
	.nopts = ARRAY_SIZE(cmp_opts),
	.help_head = compare_help_head,
	.help_tail = compare_help_tail,
};

const struct cli *compare_options(void)
{
	return &compare_cli;
}

/* -1 to go on with argv[*first..], else the exit status. */
static int parse_args(int argc, char **argv, struct cmp_args *args, int *first)
{
	switch (cli_parse(&compare_cli, argc, argv, args, NULL, first, stderr)) {
	case CLI_EXIT_OK:
		return CMP_EXIT_SAME;
	case CLI_USAGE:
		return CMP_EXIT_TROUBLE;
	case CLI_RUN:
		break;
	}
	if (argc - *first == 0)
		cli_usage_error(&compare_cli, stderr, "missing operands A.json B.json");
	else if (argc - *first == 1)
		cli_usage_error(&compare_cli, stderr, "missing operand B.json after '%s'",
				argv[*first]);
	else if (argc - *first > 2)
		cli_usage_error(&compare_cli, stderr,
				"unexpected argument '%s' (two result files only)",
				argv[*first + 2]);
	else
		return -1;
	return CMP_EXIT_TROUBLE;
}

/* A `writestress matrix --json` document? */
static bool is_matrix(const struct json_object *doc)
{
	struct json_object *v;

	return json_object_is_type(doc, json_type_object) &&
	       json_object_object_get_ex(doc, "schema", &v) &&
	       json_object_is_type(v, json_type_string) &&
	       !strcmp(json_object_get_string(v), CMP_MATRIX_SCHEMA);
}

static const char *kind_of(const struct json_object *doc)
{
	return is_matrix(doc) ? "a matrix" : result_is_watch(doc) ? "a watch" : "a single run";
}

static int load_result(const char *path, struct json_object **doc)
{
	char why[256];

	if (result_load(path, doc, why, sizeof(why))) {
		cli_error(&compare_cli, stderr, "cannot read '%s': %s", path, why);
		return -1;
	}
	if (!is_matrix(*doc) && compare_check_schema(*doc, why, sizeof(why))) {
		cli_error(&compare_cli, stderr, "'%s' %s", path, why);
		json_object_put(*doc);
		*doc = NULL;
		return -1;
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct json_object *a = NULL, *b = NULL;
	struct cmp_args args = { .threshold = CMP_DEFAULT_THRESHOLD,
				 .floor_ns = (uint64_t)(CMP_DEFAULT_FLOOR_MS * WS_NSEC_PER_MSEC) };
	struct cmp_rules rules;
	struct cmp_report r;
	int first, status = parse_args(argc, argv, &args, &first);

	if (status >= 0)
		return status;
	rules = (struct cmp_rules){ .threshold_pct = args.threshold, .force = args.force,
				    .floor_ms = (double)args.floor_ns / WS_NSEC_PER_MSEC };
	status = CMP_EXIT_TROUBLE;
	if (load_result(argv[first], &a) || load_result(argv[first + 1], &b))
		goto out_put;
	if (strcmp(kind_of(a), kind_of(b))) {
		cli_error(&compare_cli, stderr,
			  "'%s' is %s and '%s' %s: compare two runs, two watches or two matrices",
			  argv[first], kind_of(a), argv[first + 1], kind_of(b));
		goto out_put;
	}
	if (is_matrix(a) ? compare_build_matrix(&r, a, b, &rules) :
			   compare_build(&r, a, b, &rules)) {
		cli_error(&compare_cli, stderr, "out of memory");
		goto out_put;
	}
	compare_print(stdout, &r, argv[first], argv[first + 1]);
	status = !r.judged ? CMP_EXIT_NOT_COMPARABLE :
		 r.regressions ? CMP_EXIT_REGRESSION : CMP_EXIT_SAME;
	compare_free(&r);
	if (fflush(stdout) || ferror(stdout)) {
		cli_error(&compare_cli, stderr, "cannot write the report: %s",
			strerror(errno));
		status = CMP_EXIT_TROUBLE;
	}
out_put:
	json_object_put(b);
	json_object_put(a);
	return status;
}
