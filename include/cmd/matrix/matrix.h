/* matrix.h - `writestress matrix [OPTION]... FILE`: the same probes against
 * a list of write strategies on the same file, one after another, and one
 * table: which way of writing keeps the desktop responsive.
 *
 * Each strategy runs as a child writestress (the one engine, its safety
 * checks and its cleanup), quiet, leaving a result file the matrix reads
 * back (result_load).  The work is split so each part is tested alone:
 *
 *   matrix_parse_strategies()  "window:B=1M:W=4,adaptive" -> strategies
 *   matrix_child_args()        a strategy -> the child's command line
 *   matrix_outcome_from()      a child's result tree -> its figures
 *   matrix_rows()              outcomes -> one row per strategy (and
 *                              scheduler, dirty_bytes): medians, spread
 *   matrix_judge()             rows -> ratios, Pareto front, verdicts,
 *                              the recommendation
 *   matrix_print()             rows -> the table a person reads
 *   matrix_main()              the command (matrix_main.c): options, the
 *                              children, the quiet waits, Ctrl-C, files
 *
 * All but matrix_print() and matrix_main() are pure.  Main thread only.
 */
#ifndef WS_MATRIX_H
#define WS_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "record/record.h"

struct json_object;

#define MATRIX_MAX_STRATEGIES 16
#define MATRIX_MAX_SETTINGS 8		/* --schedulers, --dirty-bytes */
#define MATRIX_MAX_REPEAT 20
#define MATRIX_MAX_RUNS 512
#define MATRIX_DEFAULT_LIST \
	"idle,none,window,window+fadvise,fdatasync,direct,dontcache,adaptive"
#define MATRIX_SCHEMA "writestress-matrix/1"
#define MATRIX_SAME_RATE_PCT 1.0	/* throughputs this close are equal */

struct matrix_strategy {
	char label[48];		/* as given: "window:B=1M:W=4" */
	bool idle;		/* probes only: the baseline */
	enum ws_pace pace;
	bool fadvise;
	uint64_t buffer;	/* B=: 0, the default */
	unsigned int window;	/* W=: 0, the default */
};

/* "LIST" into out[0..*n); 0, or -EINVAL with why ("unknown strategy
 * 'x'"). */
int matrix_parse_strategies(const char *list, struct matrix_strategy *out,
			    unsigned int *n, char *why, size_t len);

/* What every child gets beyond its strategy. */
struct matrix_cfg {
	const char *self;		/* the writestress binary */
	const char *file;
	uint64_t each_bytes;		/* --each SIZE, or */
	uint64_t each_ns;		/* --each TIME */
	uint64_t target_latency_ns;
	unsigned int headroom_pct;	/* the adaptive row's --headroom, 0: none */
	uint64_t file_size;		/* --file-size: every run wraps there */
	const char *passthrough[24];	/* probe options, as given */
	unsigned int npassthrough;
	/* the probe the table judges (the first --probe names; fsync by
	 * default): the one the adaptive row steers by */
	char steer_by[16];
};

#define MATRIX_ARGS_MAX 64
struct matrix_argv {
	const char *argv[MATRIX_ARGS_MAX];
	char buf[8][32];		/* numbers the argv points into */
};

/* The child's command line for strategy s (scheduler may be NULL), its
 * result to json_path. */
void matrix_child_args(const struct matrix_strategy *s, const struct matrix_cfg *mc,
		       const char *scheduler, const char *json_path,
		       struct matrix_argv *out);

/* One probe's figures in a run, or their medians in a row. */
#define MATRIX_MAX_PROBES 4
struct matrix_probe {
	char name[16];
	double p50_ms, p99_ms, max_ms, p99_corrected_ms;	/* raw but the last */
	double p90_ms;
	double count;			/* its operations */
	double stalls;
};

/* One child's run. */
struct matrix_outcome {
	unsigned int strategy;		/* index into the strategies */
	unsigned int setting;		/* index into the scheduler or
					   dirty_bytes list, 0 without */
	int status;			/* the child's exit status */
	bool have;			/* a result was read */
	bool unsupported;		/* the mode is not in this kernel/fs */
	double mibps;
	char probe[16];			/* the first probe's name, "" none */
	double p50_ms, p99_ms, max_ms;	/* raw */
	double p90_ms;
	double p99_corrected_ms;
	uint64_t stalls;
	uint64_t count;			/* the first probe's operations */
	/* every probe that ran (the first is the one above, judged) */
	struct matrix_probe probes[MATRIX_MAX_PROBES];
	unsigned int nprobes;
	uint64_t peak_dirty;		/* most Dirty + Writeback, bytes */
	double cpu_s_per_gib;		/* the writer's */
	/* the judged probe's recorded stalls by cause (the run traced:
	 * record.h's enum ws_stall_cause; all 0 when not) */
	unsigned int causes[WS_CAUSE_NR];
	double quiet_wait_s;		/* waited before it for writeback */
	bool quiet_timeout;
};

/* A child's result tree into o's figures; 0, or -EINVAL if it is not a
 * result. */
int matrix_outcome_from(struct json_object *doc, struct matrix_outcome *o);

enum matrix_verdict {
	MX_BASELINE,		/* idle */
	MX_UNSUPPORTED,
	MX_FAILED,
	MX_RESPONSIVE,		/* p99 within the target */
	MX_SLUGGISH,		/* over the target */
	MX_FROZEN,		/* stalls, or p99 over 10x the target */
	MX_NOT_JUDGED,		/* too few probes to say (matrix_judge) */
	MX_VERDICT_NR,
};

const char *matrix_verdict_word(enum matrix_verdict v);

/* One line of the table: a strategy (under one setting), the medians of
 * its runs and their spread. */
struct matrix_row {
	unsigned int strategy, setting;
	unsigned int runs;		/* with a result */
	bool unsupported, failed;
	double mibps, mibps_lo, mibps_hi;
	double p50_ms, p99_ms, p99_lo, p99_hi, max_ms, p99_corrected_ms;
	double p90_ms;
	double count;			/* the first probe's, median of runs */
	double stalls;
	struct matrix_probe probes[MATRIX_MAX_PROBES];	/* medians */
	unsigned int nprobes;
	uint64_t peak_dirty;
	double cpu_s_per_gib;
	unsigned int causes[WS_CAUSE_NR];	/* its runs' stalls by cause */
	double ratio;			/* to the fastest */
	bool front;			/* Pareto front */
	enum matrix_verdict verdict;
};

/* Why a row's stalls happened: the cause most of them had (ties: the
 * first in record.h's order), or NULL when none was explained. */
const char *matrix_row_cause(const struct matrix_row *r);

/* Group outcomes by (strategy, setting), in the order the strategies and
 * settings were given; medians over repeats.  Returns the rows made. */
size_t matrix_rows(const struct matrix_outcome *o, size_t n,
		   const struct matrix_strategy *s, unsigned int nstrategies,
		   unsigned int nsettings, struct matrix_row *rows);

/* Ratios to the fastest, the Pareto front (no other row both faster and
 * lower in p99; rates within MATRIX_SAME_RATE_PCT % count as equal),
 * verdicts; returns the recommended row (the fastest responsive one,
 * idle aside), or -1: none is.  A verdict needs its evidence (hist.h's
 * rule, 10 samples beyond a percentile): frozen, a stall (or, from 1000
 * probes on, p99 over 10x the target); from 1000 probes on, p99 within
 * the target is responsive, over it sluggish; with 100 to 999, every
 * probe within the target is responsive, p90 over it sluggish (p90 over
 * 10x frozen); anything else is not judged, the count short of 1000
 * said. */
int matrix_judge(struct matrix_row *rows, size_t n,
		 const struct matrix_strategy *s, double target_ms);

/* The table and the recommendation, as a person reads them. */
void matrix_print(FILE *out, const struct matrix_row *rows, size_t n,
		  const struct matrix_strategy *s, const char *const *settings,
		  const char *setting_name, int recommended, double target_ms);

/* The quiet wait before each run (man page, MATRIX): the machine is
 * quiet once Dirty + Writeback are back within MATRIX_QUIET_MARGIN of
 * where they were at the start (idle) and the device has written nothing
 * for MATRIX_QUIET_DEVICE_NS (still_ns; a device whose counters cannot be
 * read, have_device false, is not waited for); the wait gives up after
 * MATRIX_QUIET_LIMIT_NS. */
#define MATRIX_QUIET_LIMIT_NS (UINT64_C(60) * 1000000000)
#define MATRIX_QUIET_MARGIN (UINT64_C(16) << 20)
#define MATRIX_QUIET_DEVICE_NS (UINT64_C(300) * 1000000)
bool matrix_quiet(uint64_t dirty_wb, uint64_t idle, bool have_device, uint64_t still_ns);
bool matrix_quiet_gave_up(uint64_t waited_ns);

int matrix_main(int argc, char **argv);

struct cli;
/* matrix's option table (cli.h). */
const struct cli *matrix_options(void);

#endif
