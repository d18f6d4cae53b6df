/* compare.h - `writestress compare A.json B.json`: two result files
 * (schema "writestress-result/1", doc/result-json.md) side by side, B
 * judged against A.
 *
 * The work is split so that each part can be tested without the others:
 *
 *   result_load()          a file -> a json-c tree (the only I/O on input,
 *                          result_read.h, shared with `writestress report`)
 *   compare_check_schema() is it a result this version reads?
 *   compare_build()        two trees -> a report: the configuration and
 *                          system differences, each marked when it
 *                          changes the result (compare_setting_of()), and
 *                          rows of metrics, each judged by compare_judge()
 *                          (the threshold, the samples a percentile needs,
 *                          the latency floor) unless such a difference
 *                          makes the runs not comparable
 *   compare_print()        a report -> the text a person reads
 *   compare_main()         the command: options, messages, exit status
 *
 * The rules are compare_rules.c: pure functions of numbers and paths; the
 * differences are found by compare_diff.c (compare_tree.h, internal).
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
/* Under this in both runs a latency is not flagged: below a 60 Hz frame
 * (16.7 ms), one operation's delay that no one at the desktop notices,
 * while fsync's few milliseconds double at the slightest noise. */
#define CMP_DEFAULT_FLOOR_MS	10.0

/* Like diff(1) and cmp(1), and one more: a comparison refused. */
enum cmp_exit {
	CMP_EXIT_SAME = 0,		/* no regression beyond the threshold */
	CMP_EXIT_REGRESSION = 1,	/* at least one flagged */
	CMP_EXIT_TROUBLE = 2,		/* bad usage, unreadable or foreign file */
	CMP_EXIT_NOT_COMPARABLE = 3,	/* settings that change the result
					   differ, and no --force */
};

/* How rows are judged: the command line's --threshold, --floor, --force. */
struct cmp_rules {
	double threshold_pct;
	double floor_ms;	/* 0: every latency is judged */
	bool force;		/* judge even when settings differ */
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

/* Why a row is not judged by the threshold alone. */
enum cmp_skip {
	CMP_JUDGED,
	CMP_SKIP_CONFIG,	/* settings that change the result differ */
	CMP_SKIP_SAMPLES,	/* a percentile short of samples in A or B */
	CMP_SKIP_FLOOR,		/* a latency under the floor in both runs */
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
	bool latency;		/* in ms, under the floor rule */
	double quantile;	/* 0.99 for p99; 0: not a percentile */
	double samples_a, samples_b;	/* a percentile's; NaN: unknown */
	struct cmp_value a, b;
	enum cmp_flag would;	/* what the threshold alone says */
	enum cmp_skip skip;	/* why flag is not `would` (when it is not) */
	enum cmp_flag flag;	/* the verdict on this row */
};

/* A scalar that differs between A and B, at a dotted path such as
 * "config.pace" or "fingerprint.disk.model" (array elements: "x[2]").
 * a and b are printable: strings as they are, numbers as written, or in
 * units where the path names bytes (compare_unit_of), JSON null as
 * "null", absent as "-".  changes is NULL for a difference that is
 * information only, else the setting's name ("--rate", "device") when
 * it changes the result the table shows (compare_setting_of).  note is
 * NULL or words for the end of the line. */
struct cmp_diff {
	char *path, *a, *b;
	const char *changes;	/* static */
	char *note;
};

/* What a header line says about each run ("-" where absent). */
struct cmp_run_info {
	char version[32];
	char started_at[40];
};

struct cmp_report {
	struct cmp_rules rules;
	struct cmp_run_info info_a, info_b;
	struct cmp_row *rows;
	size_t nrows, rows_cap;
	struct cmp_diff *config;	/* config.* */
	size_t nconfig, config_cap;
	struct cmp_diff *system;	/* tool.*, system.*, target.*, fingerprint.* */
	size_t nsystem, system_cap;
	unsigned int changing;		/* differences with changes set */
	bool judged;			/* !changing, or rules.force */
	unsigned int regressions, improvements;
};

/* ---- the rules (compare_rules.c): pure, on numbers and paths ---------- */

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


/*
 * Set ROW's would, skip and flag from its values by RULES.  A row is not
 * judged (flag none, skip says why) when COMPARABLE is false; else when
 * it is a percentile and either run has fewer samples than
 * compare_min_samples() (or an unknown number); else when it is a
 * latency under rules->floor_ms in both runs.
 */
void compare_judge(struct cmp_row *row, const struct cmp_rules *rules,
		   bool comparable);

/* How a configuration or system value at PATH is shown: the last key of
 * the path (without "[N]") ending in "size" or "bytes", or one of a few
 * more ("reserve", "mem_total", ...), is bytes; "_kb" KiB; "_bytes_per_s"
 * a rate. */
enum cmp_unit { CMP_UNIT_NONE, CMP_UNIT_BYTES, CMP_UNIT_KIB, CMP_UNIT_RATE };
enum cmp_unit compare_unit_of(const char *path);

/* V in UNIT, as people read it: "65.6 GiB", "128 KiB", "25.0 MiB/s"; a
 * rate of 0 is "none" (no --rate).  V must be a whole, non-negative
 * number; otherwise, or for CMP_UNIT_NONE, false and BUF is untouched. */
bool compare_format_unit(char *buf, size_t len, double v, enum cmp_unit unit);

/* A setting whose difference changes the result the table shows (the
 * list and why is in compare_rules.c); LABEL names it in the verdict. */
struct cmp_setting {
	const char *path;	/* "config.rate_bytes_per_s"; "[]": any element */
	const char *label;	/* "--rate" */
};

/* The setting at PATH ("config.probes[1]" is "config.probes"), or NULL
 * for a difference that is information only.  MATRIX: the settings of
 * writestress-matrix/1 files instead. */
const struct cmp_setting *compare_setting_of(const char *path, bool matrix);
/* Every setting of a run's result that changes the result (the paths
 * above, for a run): *n of them.  report groups by them too. */
const struct cmp_setting *compare_run_settings(size_t *n);

/* An option whose value writestress chooses when it is not given
 * (config.file_size: --file-size), and the shortest abbreviation
 * getopt_long takes for it; NULL when PATH is no such value. */
struct cmp_auto {
	const char *path, *option;
	size_t min_len;
};
const struct cmp_auto *compare_auto_of(const char *path);

/* ---- judging two files (compare.c; reading one: result_load(),
 * result_read.h) ---------------------------------------------------------- */

/* 0 if DOC is an object whose "schema" is CMP_SCHEMA; else -EINVAL and
 * why says what it is instead, in words fit to follow "'FILE' ". */
int compare_check_schema(const struct json_object *doc, char *why, size_t len);

/* Fill R from two parsed result files, judged by RULES (copied).  The
 * differences come first: when one changes the result and rules->force
 * is not set, no row is judged (R->judged false).  Missing or mistyped
 * fields become CMP_MISSING values, never an error.  0, or -ENOMEM (R is
 * then empty and needs no compare_free). */
int compare_build(struct cmp_report *r, const struct json_object *a,
		  const struct json_object *b, const struct cmp_rules *rules);

/* Two matrix results (writestress-matrix/1): per strategy (and setting)
 * in either table, MiB/s, p50, p99, max, stalls and the verdict; the
 * matrices' own settings as configuration differences. */
#define CMP_MATRIX_SCHEMA "writestress-matrix/1"
int compare_build_matrix(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, const struct cmp_rules *rules);

/* A value's number, NaN when it has none (text or missing). */
double compare_value_num(const struct cmp_value *v);

/* The row named METRIC, or NULL. */
const struct cmp_row *compare_find_row(const struct cmp_report *r,
				       const char *metric);

void compare_free(struct cmp_report *r);

/* The report as text: two header lines naming the files, the differences
 * that change the result (if any), the table, the rules it was judged by
 * and the rows they kept from a flag, the other differences, and the
 * verdict line.  NAME_A and NAME_B are shown as given. */
void compare_print(FILE *out, const struct cmp_report *r, const char *name_a,
		   const char *name_b);

/* `writestress compare [--threshold PCT] [--floor DURATION] [--force]
 * A.json B.json`; argv[0] is
 * "compare".  Prints the report to stdout and errors to stderr; returns
 * an enum cmp_exit. */
int compare_main(int argc, char **argv);

struct cli;
/* compare's option table (cli.h). */
const struct cli *compare_options(void);

#endif
