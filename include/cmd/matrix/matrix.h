/* matrix.h - `writestress matrix FILE`: the same probes against each
 * write strategy, run as a child writestress (the one engine, its checks
 * and cleanup).  Pure but for matrix_print() and matrix_main().  Main
 * thread only.
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
/* A row's rate is the disk's while the device wrote at least this close
 * to it in the run (its counters also see the journal and the probes);
 * past it the page cache took the writes. */
#define MATRIX_DEVICE_PCT 10.0
#define MATRIX_FROZEN_X 10		/* p99 over this times the target */
/* The adaptive row steers at this % of the target: its steering probe's
 * p99 after settling holds within 20% over where it steers
 * (t_e2e_adaptive), so steered at the target itself it could never be
 * judged within it. */
#define MATRIX_ADAPTIVE_AIM_PCT 80

struct matrix_strategy {
	char label[48];		/* as given: "window:B=1M:W=4" */
	bool idle;		/* probes only */
	enum ws_pace pace;
	bool fadvise;
	uint64_t buffer;	/* 0: the default */
	unsigned int window;	/* 0: the default */
};

/* 0, or -EINVAL with why ("unknown strategy 'x'"). */
int matrix_parse_strategies(const char *list, struct matrix_strategy *out,
			    unsigned int *n, char *why, size_t len);

struct matrix_cfg {
	const char *self;		/* writestress binary to run */
	const char *file;
	uint64_t each_bytes;		/* --each SIZE, or */
	uint64_t each_ns;		/* --each TIME */
	uint64_t target_latency_ns;
	unsigned int headroom_pct;	/* 0: none */
	uint64_t file_size;
	const char *passthrough[24];	/* probe options, as given */
	unsigned int npassthrough;
	char steer_by[16];		/* the judged probe: the first --probe */
	double idle_x;			/* --idle-x: the target from idle's */
};

#define MATRIX_ARGS_MAX 64
struct matrix_argv {
	const char *argv[MATRIX_ARGS_MAX];
	char buf[8][32];		/* numbers the argv points into */
};

void matrix_child_args(const struct matrix_strategy *s, const struct matrix_cfg *mc,
		       const char *scheduler, const char *json_path,
		       struct matrix_argv *out);

#define MATRIX_MAX_PROBES 4
struct matrix_probe {
	char name[16];
	double p50_ms, p99_ms, max_ms, p99_corrected_ms;	/* raw but the last */
	double p90_ms;
	double count;		/* a row's: its runs' summed */
	double stalls;
	/* probes over the target and over MATRIX_FROZEN_X times it, from the
	 * result's histogram (a bucket by its midpoint, as a percentile) */
	uint64_t over, over_frozen;
	double min_count;	/* a row's: its run with fewest */
};

/* One child's run; latencies outside probes[] are the judged probe's,
 * probes[0]. */
struct matrix_outcome {
	unsigned int strategy;
	unsigned int setting;		/* 0 without schedulers or dirty_bytes */
	int status;			/* the child's exit status */
	bool have;
	bool unsupported;		/* by this kernel/fs */
	double mibps;
	char probe[16];			/* "": none */
	double p50_ms, p99_ms, max_ms;	/* raw */
	double p90_ms;
	double p99_corrected_ms;
	uint64_t stalls;
	uint64_t count;
	uint64_t over, over_frozen;
	struct matrix_probe probes[MATRIX_MAX_PROBES];
	unsigned int nprobes;
	bool have_device;		/* the device's counters were read */
	double dev_mibps;		/* what it wrote, over the run's time */
	uint64_t peak_dirty;		/* most Dirty + Writeback, bytes */
	double cpu_s_per_gib;
	unsigned int causes[WS_CAUSE_NR];	/* 0 when not traced */
	double quiet_wait_s;
	bool quiet_timeout;
};

/* 0, or -EINVAL if DOC is not a result.  The judged probe is the one
 * named JUDGED (the first --probe, which adaptive steers by; NULL or "":
 * the result's first), moved to probes[0]; its over counts are against
 * TARGET_NS. */
int matrix_outcome_from(struct json_object *doc, const char *judged,
			uint64_t target_ns, struct matrix_outcome *o);

/* Over a target in a result's probe: its histogram_ns buckets whose
 * midpoint is over BOUND_NS. */
uint64_t matrix_count_over(const struct json_object *probe, uint64_t bound_ns);

/* The run wrote at the disk's rate: MIBPS within MATRIX_DEVICE_PCT over
 * what the device wrote, or no device counters to say otherwise. */
bool matrix_rate_is_disks(double mibps, bool have_device, double dev_mibps);

enum matrix_verdict {
	MX_BASELINE,		/* idle */
	MX_UNSUPPORTED,
	MX_FAILED,
	MX_RESPONSIVE,		/* p99 within the target */
	MX_SLUGGISH,		/* p99 over it */
	MX_FROZEN,		/* p99 over MATRIX_FROZEN_X times it */
	MX_NOT_JUDGED,		/* too few probes (hist_judge) */
	MX_VERDICT_NR,
};

const char *matrix_verdict_word(enum matrix_verdict v);

/* Medians of a strategy's runs under one setting. */
struct matrix_row {
	unsigned int strategy, setting;
	unsigned int runs;
	bool unsupported, failed;
	double mibps, mibps_lo, mibps_hi;
	double p50_ms, p99_ms, p99_lo, p99_hi, max_ms, p99_corrected_ms;
	double p90_ms;
	double count, min_count;	/* summed over its runs; the fewest */
	uint64_t over, over_frozen;	/* summed over its runs */
	double stalls;
	struct matrix_probe probes[MATRIX_MAX_PROBES];
	unsigned int nprobes;
	bool page_cache;		/* a run's rate was not the disk's */
	double dev_mibps;		/* the device's, median */
	uint64_t peak_dirty;
	double cpu_s_per_gib;
	unsigned int causes[WS_CAUSE_NR];
	double ratio;			/* to the fastest */
	bool front;
	enum matrix_verdict verdict;
};

/* The cause most stalls had (ties: record.h's order), or NULL. */
const char *matrix_row_cause(const struct matrix_row *r);

/* In the order given.  Returns the rows. */
size_t matrix_rows(const struct matrix_outcome *o, size_t n,
		   const struct matrix_strategy *s, unsigned int nstrategies,
		   unsigned int nsettings, struct matrix_row *rows);

/* Ratios, Pareto front (faster and lower in its tail), verdicts; returns
 * the fastest row judged within the target but idle and rows whose rate
 * was the page cache's, or -1.  Every verdict is hist_judge()'s on the
 * probes summed over a row's runs: p99 over MATRIX_FROZEN_X times the
 * target frozen, else over the target, within it, or not judged. */
int matrix_judge(struct matrix_row *rows, size_t n, const struct matrix_strategy *s);

/* The p99 where its runs support it (hist.h), else the max: the tail a
 * row is placed by on the front and the plot. */
double matrix_row_tail_ms(const struct matrix_row *r);
bool matrix_row_p99_shown(const struct matrix_row *r);

void matrix_print(FILE *out, const struct matrix_row *rows, size_t n,
		  const struct matrix_strategy *s, const char *const *settings,
		  const char *setting_name, int recommended, double target_ms);

/* Quiet before each run: Dirty + Writeback back within the margin of IDLE
 * and the device still for MATRIX_QUIET_DEVICE_NS (not waited for without
 * have_device); give up after MATRIX_QUIET_LIMIT_NS. */
#define MATRIX_QUIET_LIMIT_NS (UINT64_C(60) * 1000000000)
#define MATRIX_QUIET_MARGIN (UINT64_C(16) << 20)
#define MATRIX_QUIET_DEVICE_NS (UINT64_C(300) * 1000000)
bool matrix_quiet(uint64_t dirty_wb, uint64_t idle, bool have_device, uint64_t still_ns);
bool matrix_quiet_gave_up(uint64_t waited_ns);

int matrix_main(int argc, char **argv);

struct cli;
const struct cli *matrix_options(void);

#endif
