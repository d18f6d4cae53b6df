/* report.h - `writestress report RESULT.json... | DIR`: many results,
 * grouped, robust outliers flagged.  One json-c tree at a time; curves go
 * to an unlinked spill file.  A report owns its rows, their strings and
 * the spill file.  Main thread only.
 */
#ifndef WS_REPORT_H
#define WS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

#define REPORT_SCHEMA		"writestress-report/1"
#define REPORT_K		3.5	/* outlier: beyond K robust deviations */
#define REPORT_MAD_SCALE	1.4826	/* MAD -> sd (normal) */
#define REPORT_MEANAD_SCALE	1.253314	/* mean |x - median| -> sd */
#define REPORT_MIN_GROUP	3	/* fewer: not judged */
#define REPORT_MAX_PROBES	8
#define REPORT_CURVE_MAX	128

enum report_exit {
	REPORT_EXIT_OK = 0,
	REPORT_EXIT_OUTLIERS = 1,
	REPORT_EXIT_TROUBLE = 2,
};

enum report_by { REPORT_BY_MODEL, REPORT_BY_KERNEL, REPORT_BY_HOST, REPORT_BY_FS };

int report_parse_by(const char *s, enum report_by *by);
const char *report_by_name(enum report_by by);
/* NULL-ended */
const char *const *report_by_words(void);

/* ---- the rule ---- */

/* scale: robust sd from the MAD, or the mean absolute deviation when
 * MAD is 0. */
struct report_spread {
	size_t n;
	double median, mad, scale;
	bool judged;
};

/* Sorts V in place; NaN when n is 0. */
double report_median(double *v, size_t n);

/* Finite values only; SCRATCH holds n doubles. */
void report_spread(const double *v, size_t n, double *scratch,
		   struct report_spread *s);

/* -1 or +1 when |X - median| > K x scale (judged, scale > 0), else 0. */
int report_outlier(const struct report_spread *s, double x, double k);

/* ---- rows ---- */

/* Bits of a row's flags; probe i's p99 is REPORT_M_P99 + i. */
enum { REPORT_M_MIBPS, REPORT_M_STEADY, REPORT_M_P99, REPORT_M_NR = REPORT_M_P99 + REPORT_MAX_PROBES };

struct report_point {
	float gib, mibps;
};

/* Missing: text "-", numbers NaN. */
struct report_row {
	char *file;
	char host[64], model[48], firmware[24], kernel[64], fs[16], pace[48];
	/* "label=value\n" per result-changing setting (malloc; NULL: no
	 * memory): runs that differ never share a group */
	char *settings;
	unsigned int schema_version;
	double mibps;
	double slowdown_gib;		/* NaN: none or unknown ... */
	bool slowdown_none;		/* ... none: it did not slow down */
	double steady_mibps;		/* NaN: not reached or unknown ... */
	bool steady_known;		/* ... the file says how it came out */
	unsigned char steady;		/* enum ws_steady_outcome */
	char steady_why[96];		/* not judged: the run's reason */
	/* by probe_names; NaN where the probes do not support a p99
	 * (hist_percentile_shown), bit p of p99_hidden set */
	double p99_ms[REPORT_MAX_PROBES];
	double p99_count[REPORT_MAX_PROBES];	/* raw samples, NaN: unknown */
	unsigned int p99_hidden;
	double stalls[REPORT_MAX_PROBES];
	unsigned int high, low;		/* REPORT_M_* bits */
	size_t seq, group;
	long curve_off;			/* in the spill file, -1: none */
	unsigned int curve_n;
	float curve_gib, curve_mibps;	/* largest x and y */
};

struct report_group {
	const char *key;		/* borrowed from first row */
	const char *settings;		/* borrowed from first row */
	size_t first, n;
	bool judged;
	struct report_spread spread[REPORT_M_NR];
	double median_slowdown_gib, median_stalls[REPORT_MAX_PROBES];
	unsigned int outlier_rows;
	double max_gib, max_mibps;	/* the SVG panel's axes */
};

struct report {
	enum report_by by;
	double k;
	struct report_row *rows;
	size_t nrows, rows_cap;
	char probe_names[REPORT_MAX_PROBES][24];
	unsigned int nprobes;
	unsigned int probes_dropped;
	struct report_group *groups;
	size_t ngroups;
	size_t outlier_rows, skipped;
	unsigned int groups_unjudged;
	FILE *spill;			/* NULL: no curves kept */
	bool settings_vary;
};

/* Settings not every run shares; returns buf. */
char *report_group_settings(const struct report *r, const struct report_group *g,
			    char *buf, size_t len);

/* All but ROW.file; new probe names join R.  PTS may be NULL. */
void report_row_from(struct report *r, const struct json_object *doc,
		     struct report_row *row, struct report_point *pts,
		     size_t *npts);

/* MiB/s over GiB, by_bytes.cells else progress; <= REPORT_CURVE_MAX. */
size_t report_curve_from(const struct json_object *doc, struct report_point *pts);

const char *report_key(const struct report_row *row, enum report_by by);

/* ROW.file (malloc'd) passes to R, or is freed.  0 or -errno. */
int report_add(struct report *r, struct report_row *row,
	       const struct report_point *pts, size_t npts);

/* 0 or -ENOMEM. */
int report_finish(struct report *r);

/* PTS holds REPORT_CURVE_MAX. */
size_t report_curve_of(const struct report *r, const struct report_row *row,
		       struct report_point *pts);

void report_free(struct report *r);

/* "mibps", "fsync_p99_ms" (BUF holds 40). */
const char *report_metric_name(const struct report *r, int m, char *buf,
			       size_t len);

void report_print(FILE *out, const struct report *r);
void report_csv(FILE *out, const struct report *r);
void report_json(FILE *out, const struct report *r);
void report_svg(FILE *out, const struct report *r);

/* argv[0] is "report".  Returns an enum report_exit. */
int report_main(int argc, char **argv);

struct cli;
const struct cli *report_options(void);

#endif
