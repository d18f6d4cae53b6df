/* compare_main.c - `writestress compare A.json B.json`: the command
 * line (cli.h), the table and the differences printed, the exit status
 * (see compare.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "c.h"
#include "cli.h"
#include "compare.h"
#include "result_read.h"
#include "units.h"

#define GIB ((double)WS_GIB)

/* ---- printing ---------------------------------------------------------- */

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

/* The cells of a row (or of the title row when ROW is NULL). */
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

/* metric left-aligned; A, B and change right-aligned; the flag last, with
 * no trailing blanks (a blank flag leaves the line ending in '|'). */
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

static void print_diffs(FILE *out, const char *title, const struct cmp_diff *d,
			size_t n)
{
	fprintf(out, "\n%s:\n", title);
	if (!n)
		fprintf(out, "  (none)\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %s = %s vs %s\n", d[i].path, d[i].a, d[i].b);
}

void compare_print(FILE *out, const struct cmp_report *r, const char *name_a,
		   const char *name_b)
{
	fprintf(out, "A: %s (writestress %s, started %s)\n", name_a,
		r->info_a.version, r->info_a.started_at);
	fprintf(out, "B: %s (writestress %s, started %s)\n\n", name_b,
		r->info_b.version, r->info_b.started_at);
	print_table(out, r);
	print_diffs(out, "configuration differences", r->config, r->nconfig);
	print_diffs(out, "system differences", r->system, r->nsystem);
	if (r->regressions)
		fprintf(out, "\nverdict: %u regression%s beyond %g%% (B vs A)\n",
			r->regressions, r->regressions == 1 ? "" : "s",
			r->threshold_pct);
	else
		fprintf(out, "\nverdict: no regression beyond %g%%\n", r->threshold_pct);
}

/* ---- the command ------------------------------------------------------- */

enum { KEY_THRESHOLD = 256 };

struct cmp_args {
	double threshold;
};

static int parse_threshold(void *dest, const char *arg, char *why)
{
	if (!compare_parse_threshold(arg, &((struct cmp_args *)dest)->threshold))
		return 0;
	snprintf(why, CLI_WHY_LEN, "expected a percentage such as 10 or 2.5%%");
	return -EINVAL;
}

static const struct cli_option cmp_opts[] = {
	{ .name = "threshold", .key = KEY_THRESHOLD, .type = CLI_CUSTOM,
	  .arg = "PCT", .parse = parse_threshold,
	  .help = "flag changes beyond PCT percent of A (default 10)" },
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
		"`writestress matrix --json` are compared strategy by strategy.\n");
}

static void compare_help_tail(FILE *out)
{
	fprintf(out,
		"\nOutput: one table row per metric, \"metric | A | B | change | flag\".\n"
		"  change  (B - A) / A; \"-\" when A is 0 or a value is missing\n"
		"  flag    REGRESSION: lower throughput (throughput, initial, phase and\n"
		"          steady rates) or higher latency or stalls (probe percentiles,\n"
		"          max, stall count, total and longest) beyond the threshold, or\n"
		"          any stall time where A had none; improved: the opposite;\n"
		"          elapsed time, sizes, counts and positions are not judged\n"
		"  -       a field the file lacks (older or partial result)\n"
		"Then every configuration and system field that differs, as\n"
		"\"path = A vs B\", and \"verdict: N regressions beyond PCT%% (B vs A)\".\n"
		"Units: MiB/s, GiB = 2^30 bytes, s, ms.\n"
		"\nExit status:\n"
		"  0    no regression beyond the threshold\n"
		"  1    one or more regressions flagged\n"
		"  2    invalid command line, or a file that cannot be read or is not a\n"
		"       %s result\n", CMP_SCHEMA);
}

static const struct cli compare_cli = {
	.cmd = "writestress compare",
	.error_prefix = "compare: ",
	.opts = cmp_opts,
	.nopts = ARRAY_SIZE(cmp_opts),
	.help_head = compare_help_head,
	.help_tail = compare_help_tail,
};

/* Options into *args; -1 to go on with argv[*first..], else the exit
 * status. */
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

static int load_result(const char *path, struct json_object **doc)
{
	char why[256];

	if (result_load(path, doc, why, sizeof(why))) {
		fprintf(stderr, "writestress: compare: cannot read '%s': %s\n", path, why);
		return -1;
	}
	if (!is_matrix(*doc) && compare_check_schema(*doc, why, sizeof(why))) {
		fprintf(stderr, "writestress: compare: '%s' %s\n", path, why);
		json_object_put(*doc);
		*doc = NULL;
		return -1;
	}
	return 0;
}

int compare_main(int argc, char **argv)
{
	struct json_object *a = NULL, *b = NULL;
	struct cmp_args args = { .threshold = CMP_DEFAULT_THRESHOLD };
	struct cmp_report r;
	int first, status = parse_args(argc, argv, &args, &first);

	if (status >= 0)
		return status;
	status = CMP_EXIT_TROUBLE;
	if (load_result(argv[first], &a) || load_result(argv[first + 1], &b))
		goto out_put;
	if (is_matrix(a) != is_matrix(b)) {
		fprintf(stderr, "writestress: compare: '%s' is %s and '%s' %s: compare two runs or two matrices\n",
			argv[first], is_matrix(a) ? "a matrix" : "a single run",
			argv[first + 1], is_matrix(b) ? "a matrix" : "a single run");
		goto out_put;
	}
	if (is_matrix(a) ? compare_build_matrix(&r, a, b, args.threshold) :
			   compare_build(&r, a, b, args.threshold)) {
		fprintf(stderr, "writestress: compare: out of memory\n");
		goto out_put;
	}
	compare_print(stdout, &r, argv[first], argv[first + 1]);
	status = r.regressions ? CMP_EXIT_REGRESSION : CMP_EXIT_SAME;
	compare_free(&r);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "writestress: compare: cannot write the report: %s\n",
			strerror(errno));
		status = CMP_EXIT_TROUBLE;
	}
out_put:
	json_object_put(b);
	json_object_put(a);
	return status;
}
