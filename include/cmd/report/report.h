/* report.h - `writestress report [--by KEY] RESULT.json... | DIR`: one
 * table over many results (schema "writestress-result/N", N >= 1,
 * doc/result-json.md), grouped by device model, kernel, host or
 * filesystem, with robust outliers flagged inside each group.
 *
 * The work is split so that each part can be tested without the others:
 *
 *   report_median(), report_spread(), report_outlier()
 *                        the rule: median and MAD, pure
 *   report_row_from()    a parsed result -> one row of figures and, if
 *                        asked, its throughput curve (bounded); pure but
 *                        for the probe names it adds to the report
 *   report_add()         a row into the report (probe names, memory)
 *   report_finish()      rows -> groups (sorted by key), medians, flags
 *   report_print(), report_csv(), report_json(), report_svg()
 *                        the outputs (report_out.c, report_svg.c)
 *   report_main()        the command: files and directories, one at a
 *                        time, messages, exit status (report_main.c)
 *
 * Streaming: report_main() parses one file, takes its row, releases the
 * json-c tree, and goes on; only rows (a few hundred bytes each) stay in
 * memory.  Curves are written to a spill file (struct report.spill, an
 * unlinked temporary) and read back one at a time while the SVG is drawn.
 *
 * A report owns its rows, their strings and the spill file
 * (report_free()).  Main thread only.
 */
#ifndef WS_REPORT_H
#define WS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

#define REPORT_SCHEMA		"writestress-report/1"
#define REPORT_K		3.5	/* outlier: beyond K robust deviations */
#define REPORT_MAD_SCALE	1.4826	/* MAD -> standard deviation (normal) */
#define REPORT_MEANAD_SCALE	1.253314	/* mean |x - median| -> sd, MAD 0 */
#define REPORT_MIN_GROUP	3	/* fewer values: the group is not judged */
#define REPORT_MAX_PROBES	8	/* distinct probe names with columns */
#define REPORT_CURVE_MAX	128	/* points kept per throughput curve */

enum report_exit {
	REPORT_EXIT_OK = 0,		/* no outlier */
	REPORT_EXIT_OUTLIERS = 1,	/* at least one flagged */
	REPORT_EXIT_TROUBLE = 2,	/* usage, unreadable or foreign file */
};

enum report_by { REPORT_BY_MODEL, REPORT_BY_KERNEL, REPORT_BY_HOST, REPORT_BY_FS };

/* "model", "kernel", "host", "fs" into *by: 0 or -EINVAL. */
int report_parse_by(const char *s, enum report_by *by);
const char *report_by_name(enum report_by by);
/* Every --by word, NULL-ended (for completion). */
const char *const *report_by_words(void);

/* ---- the rule -------------------------------------------------------- */

/* Where a group's values sit: median, and the robust standard deviation
 * `scale`: 1.4826 x MAD, or when MAD is 0 (more than half the values
 * equal) 1.253314 x the mean absolute deviation from the median; 0 when
 * every value is the same.  judged: n >= REPORT_MIN_GROUP. */
struct report_spread {
	size_t n;
	double median, mad, scale;
	bool judged;
};

/* The median of V[0..n) (sorted in place); NaN when n is 0. */
double report_median(double *v, size_t n);

/* The spread of the finite values among V[0..n); SCRATCH holds n
 * doubles.  V is left as it was. */
void report_spread(const double *v, size_t n, double *scratch,
		   struct report_spread *s);

/* -1 (low), +1 (high) or 0: is X an outlier of S with factor K, that is
 * |X - median| > K x scale?  Never in a group not judged, with a scale of
 * 0, or for a NaN X. */
int report_outlier(const struct report_spread *s, double x, double k);

/* ---- rows ------------------------------------------------------------ */

/* The metrics judged, one bit each in a row's flags: MiB/s, steady rate,
 * then the p99 of probe i (bit REPORT_M_P99 + i). */
enum { REPORT_M_MIBPS, REPORT_M_STEADY, REPORT_M_P99, REPORT_M_NR = REPORT_M_P99 + REPORT_MAX_PROBES };

struct report_point {
	float gib, mibps;
};

/* One result.  Text is "-" when the file lacks it; numbers NaN. */
struct report_row {
	char *file;			/* as found: operand or DIR/name */
	char host[64], model[48], firmware[24], kernel[64], fs[16], pace[48];
	/* the options that change the result (compare's list), "label=value"
	 * each followed by '\n' (malloc; NULL when out of memory): runs
	 * whose settings differ are never judged as one group */
	char *settings;
	unsigned int schema_version;
	double mibps;
	double slowdown_gib;		/* NaN: none or unknown ... */
	bool slowdown_none;		/* ... none: it did not slow down */
	double steady_mibps;		/* NaN: not reached or unknown ... */
	bool steady_not_reached;	/* ... the file says not reached */
	double p99_ms[REPORT_MAX_PROBES];	/* by report.probe_names */
	double stalls[REPORT_MAX_PROBES];
	unsigned int high, low;		/* outlier bits, REPORT_M_* */
	size_t seq, group;
	long curve_off;			/* in the spill file, -1: none */
	unsigned int curve_n;
	float curve_gib, curve_mibps;	/* the curve's largest x and y */
};

struct report_group {
	const char *key;		/* the first row's, borrowed */
	const char *settings;		/* the first row's, borrowed */
	size_t first, n;		/* rows[first .. first + n) */
	bool judged;			/* n >= REPORT_MIN_GROUP */
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
	unsigned int probes_dropped;	/* names beyond REPORT_MAX_PROBES */
	struct report_group *groups;
	size_t ngroups;
	size_t outlier_rows, skipped;
	unsigned int groups_unjudged;
	FILE *spill;			/* curves, or NULL: none kept */
	bool settings_vary;		/* not every run had the same */
};

/* The settings of a group that not every run of the report shares, as
 * "--pace none, --rate 10485760" in buf ("" when all share them). */
char *report_group_settings(const struct report *r, const struct report_group *g,
			    char *buf, size_t len);

/* Fill ROW from the result DOC (schema already checked): identity,
 * figures, probes mapped to R's probe names (new names are added, up to
 * REPORT_MAX_PROBES).  PTS (room for REPORT_CURVE_MAX, may be NULL) gets
 * the throughput-over-GiB curve, from by_bytes.cells or else progress,
 * merged down to at most REPORT_CURVE_MAX points; *npts its length.
 * ROW.file is not set. */
void report_row_from(struct report *r, const struct json_object *doc,
		     struct report_row *row, struct report_point *pts,
		     size_t *npts);

/* The curve of a result, as report_row_from() gives it; pure. */
size_t report_curve_from(const struct json_object *doc, struct report_point *pts);

/* The text ROW is grouped by under BY. */
const char *report_key(const struct report_row *row, enum report_by by);

/* Take ROW into R (a copy; ROW.file must be malloc'd and passes to R),
 * and its curve into the spill file when there is one.  0 or -errno
 * (ROW.file is freed then too). */
int report_add(struct report *r, struct report_row *row,
	       const struct report_point *pts, size_t npts);

/* Sort the rows into groups (by key, then in the order added), judge
 * every group, set the flags.  0 or -ENOMEM. */
int report_finish(struct report *r);

/* The curve of ROW read back from the spill file into PTS (room for
 * REPORT_CURVE_MAX); its length, 0 when none. */
size_t report_curve_of(const struct report *r, const struct report_row *row,
		       struct report_point *pts);

void report_free(struct report *r);

/* A metric's name in flags and files: "mibps", "steady_mibps",
 * "fsync_p99_ms" (BUF holds 40). */
const char *report_metric_name(const struct report *r, int m, char *buf,
			       size_t len);

/* ---- outputs (report_out.c, report_svg.c) ---------------------------- */

/* The table, group by group with a median row each, and the footer that
 * states the rule. */
void report_print(FILE *out, const struct report *r);
void report_csv(FILE *out, const struct report *r);
void report_json(FILE *out, const struct report *r);
void report_svg(FILE *out, const struct report *r);

/* `writestress report ...`; argv[0] is "report".  Returns an enum
 * report_exit. */
int report_main(int argc, char **argv);

struct cli;
/* report's option table (cli.h). */
const struct cli *report_options(void);

#endif
