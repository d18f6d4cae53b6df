/* compare.h - `writestress compare A.json B.json`: B judged against A.
 * Pure but for compare_print() and compare_main().  A report owns its
 * memory, no pointer into the json-c trees.  Main thread only.
 */
#ifndef WS_COMPARE_H
#define WS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

#define CMP_SCHEMA		"writestress-result/1"
#define CMP_DEFAULT_THRESHOLD	10.0	/* percent */
/* Under a 60 Hz frame no one notices, yet fsync's few ms double at the
 * slightest noise: not flagged when both runs are below. */
#define CMP_DEFAULT_FLOOR_MS	10.0

/* As diff(1); 3: refused. */
enum cmp_exit {
	CMP_EXIT_SAME = 0,
	CMP_EXIT_REGRESSION = 1,
	CMP_EXIT_TROUBLE = 2,
	CMP_EXIT_NOT_COMPARABLE = 3,
};

struct cmp_rules {
	double threshold_pct;
	double floor_ms;	/* 0: every latency is judged */
	bool force;
};

enum cmp_better {
	CMP_INFO,	/* never flagged */
	CMP_HIGHER,
	CMP_LOWER,
};

enum cmp_flag {
	CMP_FLAG_NONE,
	CMP_FLAG_REGRESSION,
	CMP_FLAG_IMPROVED,
};

enum cmp_skip {
	CMP_JUDGED,
	CMP_SKIP_CONFIG,
	CMP_SKIP_SAMPLES,
	CMP_SKIP_FLOOR,
};

enum cmp_kind {
	CMP_MISSING,
	CMP_NUMBER,
	CMP_TEXT,
};

struct cmp_value {
	enum cmp_kind kind;
	double num;		/* in the row's unit */
	char text[32];
	char why[96];		/* the run's reason for TEXT, "": none */
};

struct cmp_row {
	char metric[64];	/* "fsync raw p99 ms" */
	int decimals;
	enum cmp_better better;
	bool latency;		/* ms, under the floor rule */
	double quantile;	/* 0: not a percentile */
	double samples_a, samples_b;	/* NaN: unknown */
	struct cmp_value a, b;
	enum cmp_flag would;	/* what the threshold alone says */
	enum cmp_skip skip;
	enum cmp_flag flag;
};

/* A scalar differing at a dotted path ("x[2]"), a and b printable ("-":
 * absent); changes: NULL or the setting that changes the result. */
struct cmp_diff {
	char *path, *a, *b;
	const char *changes;	/* static */
	char *note;
};

struct cmp_run_info {
	char version[32];
	char started_at[40];
};

struct cmp_report {
	struct cmp_rules rules;
	struct cmp_run_info info_a, info_b;
	struct cmp_row *rows;
	size_t nrows, rows_cap;
	struct cmp_diff *config;
	size_t nconfig, config_cap;
	struct cmp_diff *system;	/* tool.*, system.*, target.*, fingerprint.* */
	size_t nsystem, system_cap;
	unsigned int changing;		/* diffs with changes set */
	bool judged;
	unsigned int regressions, improvements;
};

/* ---- the rules (compare_rules.c) ---- */

/* Flag when |B - A| > |A| * threshold_pct / 100.  NaN or A == 0: none,
 * but a CMP_LOWER metric rising from 0 regresses. */
enum cmp_flag compare_metric(double a, double b, enum cmp_better better,
			     double threshold_pct);

/* False for NaN or A == 0. */
bool compare_change(double a, double b, double *pct);

/* "10", "2.5", "10%".  0 or -EINVAL. */
int compare_parse_threshold(const char *s, double *pct);

/* hist_percentile_shown() of a count read from a file: false for NaN, a
 * count the file lacks proves nothing. */
bool compare_percentile_shown(double q, double samples);

/* Not judged when !COMPARABLE, a percentile is not shown
 * (hist_percentile_shown) in either run, or a latency is under the floor
 * in both. */
void compare_judge(struct cmp_row *row, const struct cmp_rules *rules,
		   bool comparable);

/* By the path's last key: "...size", "..._kb", "..._bytes_per_s". */
enum cmp_unit { CMP_UNIT_NONE, CMP_UNIT_BYTES, CMP_UNIT_KIB, CMP_UNIT_RATE };
enum cmp_unit compare_unit_of(const char *path);

/* "65.6 GiB", rate 0 "none".  False, BUF untouched, unless V is whole,
 * >= 0 and UNIT not NONE. */
bool compare_format_unit(char *buf, size_t len, double v, enum cmp_unit unit);

/* Why these change the result: compare_rules.c. */
struct cmp_setting {
	const char *path;	/* "[]": any element */
	const char *label;	/* "--rate" */
};

/* NULL: information only.  MATRIX: writestress-matrix/1's settings. */
const struct cmp_setting *compare_setting_of(const char *path, bool matrix);
/* Every run setting, *n of them (report groups by them). */
const struct cmp_setting *compare_run_settings(size_t *n);

/* A value chosen when its option is not given, with the option's
 * shortest abbreviation; NULL if PATH is none. */
struct cmp_auto {
	const char *path, *option;
	size_t min_len;
};
const struct cmp_auto *compare_auto_of(const char *path);

/* ---- two files (compare.c) ---- */

/* 0, or -EINVAL with why fit to follow "'FILE' ". */
int compare_check_schema(const struct json_object *doc, char *why, size_t len);

/* RULES is copied; mistyped fields become CMP_MISSING.  0, or -ENOMEM
 * (R empty, no compare_free needed). */
int compare_build(struct cmp_report *r, const struct json_object *a,
		  const struct json_object *b, const struct cmp_rules *rules);

#define CMP_MATRIX_SCHEMA "writestress-matrix/1"
int compare_build_matrix(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, const struct cmp_rules *rules);

/* NaN unless CMP_NUMBER. */
double compare_value_num(const struct cmp_value *v);

const struct cmp_row *compare_find_row(const struct cmp_report *r,
				       const char *metric);

void compare_free(struct cmp_report *r);

void compare_print(FILE *out, const struct cmp_report *r, const char *name_a,
		   const char *name_b);

/* argv[0] is "compare".  Returns an enum cmp_exit. */
int compare_main(int argc, char **argv);

struct cli;
const struct cli *compare_options(void);

#endif
