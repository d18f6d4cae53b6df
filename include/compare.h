/* compare.h - `writestress compare A.json B.json`: two result files
 * (schema "writestress-result/1", doc/result-json.md) side by side, B
 * judged against A.
 *
 * The work is split so that each part can be tested without the others:
 *
 *   result_load()          a file -> a json-c tree (the only I/O on input,
 *                          result_read.h, shared with `writestress report`)
 *   compare_check_schema() is it a result this version reads?
 *   compare_build()        two trees -> a report: rows of metrics, each
 *                          flagged by compare_metric(), and the lists of
 *                          configuration and system differences
 *   compare_print()        a report -> the text a person reads
 *   compare_main()         the command: options, messages, exit status
 *
 * Everything but result_load(), compare_print() and compare_main() is
 * pure.  A report owns its memory (compare_free()); it keeps no pointer
 * into the json-c trees it was built from, so they may be released as soon
 * as compare_build() returns.  Main thread only (getopt state, stdio).
 *
 * json-c types appear here only as an incomplete struct, so including this
 * header does not need json-c's headers.
 */
#ifndef WS_COMPARE_H
#define WS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

#define CMP_SCHEMA		"writestress-result/1"
#define CMP_DEFAULT_THRESHOLD	10.0	/* percent */

/* Like diff(1) and cmp(1). */
enum cmp_exit {
	CMP_EXIT_SAME = 0,		/* no regression beyond the threshold */
	CMP_EXIT_REGRESSION = 1,	/* at least one flagged */
	CMP_EXIT_TROUBLE = 2,		/* bad usage, unreadable or foreign file */
};

/* Which way a metric gets better, or whether it is judged at all. */
enum cmp_better {
	CMP_INFO,	/* shown, never flagged (elapsed, counts, positions) */
	CMP_HIGHER,	/* throughput-like: lower is worse */
	CMP_LOWER,	/* latency- and stall-like: higher is worse */
};

enum cmp_flag {
	CMP_FLAG_NONE,
	CMP_FLAG_REGRESSION,
	CMP_FLAG_IMPROVED,
};

enum cmp_kind {
	CMP_MISSING,	/* absent from the file (older or partial): "-" */
	CMP_NUMBER,
	CMP_TEXT,	/* a word: an exit reason, "none", "not reached" */
};

struct cmp_value {
	enum cmp_kind kind;
	double num;		/* CMP_NUMBER, in the row's unit */
	char text[32];		/* CMP_TEXT, truncated */
};

/* One line of the table: metric | A | B | change | flag. */
struct cmp_row {
	char metric[64];	/* with its unit: "fsync raw p99 ms" */
	int decimals;		/* numbers are printed with this many */
	enum cmp_better better;
	struct cmp_value a, b;
	enum cmp_flag flag;
};

/* A scalar that differs between A and B, at a dotted path such as
 * "config.pace" or "fingerprint.disk.model" (array elements: "x[2]").
 * a and b are printable: strings as they are, numbers as written, JSON
 * null as "null", absent as "-". */
struct cmp_diff {
	char *path, *a, *b;
};

/* What a header line says about each run ("-" where absent). */
struct cmp_run_info {
	char version[32];
	char started_at[40];
};

struct cmp_report {
	double threshold_pct;
	struct cmp_run_info info_a, info_b;
	struct cmp_row *rows;
	size_t nrows, rows_cap;
	struct cmp_diff *config;	/* config.* */
	size_t nconfig, config_cap;
	struct cmp_diff *system;	/* tool.*, system.*, target.*, fingerprint.* */
	size_t nsystem, system_cap;
	unsigned int regressions, improvements;
};

/*
 * Judge B against A.  NaN stands for a missing value: no flag.  Beyond
 * the threshold means strictly beyond: |B - A| > |A| * threshold_pct / 100
 * (a change equal to the threshold, to within rounding, is not beyond it).
 * With A == 0 there is no percentage, and no flag either, except that a
 * CMP_LOWER metric going from 0 to anything above is a regression (no
 * stall before, stalls now).  CMP_INFO rows are never flagged.
 */
enum cmp_flag compare_metric(double a, double b, enum cmp_better better,
			     double threshold_pct);

/* (B - A) / A in percent into *pct; false when there is none (either
 * value NaN, or A == 0). */
bool compare_change(double a, double b, double *pct);

/* --threshold's value: a non-negative decimal number of percent, with an
 * optional trailing '%' ("10", "2.5", "10%").  0 or -EINVAL. */
int compare_parse_threshold(const char *s, double *pct);

/* 0 if DOC is an object whose "schema" is CMP_SCHEMA; else -EINVAL and
 * why says what it is instead, in words fit to follow "'FILE' ". */
int compare_check_schema(const struct json_object *doc, char *why, size_t len);

/* Fill R from two parsed result files.  Missing or mistyped fields become
 * CMP_MISSING values, never an error.  0, or -ENOMEM (R is then empty
 * and needs no compare_free). */
int compare_build(struct cmp_report *r, const struct json_object *a,
		  const struct json_object *b, double threshold_pct);

/* Two matrix results (writestress-matrix/1): per strategy (and setting)
 * in either table, MiB/s, p50, p99, max, stalls and the verdict; the
 * matrices' own settings as configuration differences. */
#define CMP_MATRIX_SCHEMA "writestress-matrix/1"
int compare_build_matrix(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, double threshold_pct);

/* The row named METRIC, or NULL. */
/* A value's number, NaN when it has none (text or missing). */
double compare_value_num(const struct cmp_value *v);

const struct cmp_row *compare_find_row(const struct cmp_report *r,
				       const char *metric);

void compare_free(struct cmp_report *r);

/* The report as text: two header lines naming the files, the table, the
 * differences, and the verdict line.  NAME_A and NAME_B are shown as
 * given. */
void compare_print(FILE *out, const struct cmp_report *r, const char *name_a,
		   const char *name_b);

/* `writestress compare [--threshold PCT] A.json B.json`; argv[0] is
 * "compare".  Prints the report to stdout and errors to stderr; returns
 * an enum cmp_exit. */
int compare_main(int argc, char **argv);

#endif
