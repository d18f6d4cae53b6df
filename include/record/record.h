/* record.h - the one record between the engine and the outputs.
 *
 * Everything an output shows is in here, already derived: the facts of the
 * run fixed before the first byte (struct ws_run), one struct ws_interval
 * per reporting interval, and at the end a struct ws_summary carrying every
 * figure, rule and verdict (probe summaries with their stalls, wait sites
 * and histograms, the analysis with the parameters it was judged by and
 * every round and window, the cells of throughput over bytes, what limited
 * the writer, how the run ended).  Outputs (sink*.c, fingerprint_show.c)
 * format it; they never decide or compute a figure of their own.
 *
 * A run of several targets (FILE1 FILE2 ..., --jobs N) is recorded twice
 * over: each struct has `targets`, one struct of the same kind per target
 * (its own facts, intervals, summary with phases and verdicts), and the
 * struct itself holds the aggregate (bytes and rates summed, the probes,
 * which run once per filesystem, the machine's figures).  With one target
 * ntargets is 0 and the struct is that target's, as it always was.
 *
 * Who builds what: recorder_make_run() fills struct ws_run before the
 * threads start; the recorder thread (recorder.c) builds the intervals and the summary,
 * with the pipeline of analysis.h and the series of series.c; each probe's
 * summary is made by the monitor from its own figures
 * (monitor_probe_summary) once its threads have ended.  Sinks only read,
 * from the recorder thread (the header from the main thread, before).
 */
#ifndef WS_RECORD_H
#define WS_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/c.h"
#include "lib/hist.h"
#include "record/settings.h"

struct ws_fingerprint;		/* fingerprint_facts.h; shown by fingerprint_show.h */

/* ---- series (series.h) ------------------------------------------------ */

/* The probes a series point keeps: every page of a series is touched at
 * its start (flat memory), so its points stay small; a run with more
 * probes (several filesystems) plots the first three's latency, and
 * keeps every probe's figures in its intervals and summary. */
#define WS_SERIES_PROBES WS_PROBE_NR

struct ws_point {
	uint64_t t_ns;		/* end of the span, since the writer started */
	uint64_t dt_ns;		/* the span's length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	double mibps;		/* dbytes over dt */
	uint64_t dirty, writeback;	/* /proc/meminfo at its end */
	/* per probe (index as in the monitor; the first WS_SERIES_PROBES):
	 * worst p99 and max over the span, stalls completed in it; 0 with no
	 * probes */
	uint64_t probe_p99[WS_SERIES_PROBES];
	uint64_t probe_max[WS_SERIES_PROBES];
	uint64_t probe_stalls[WS_SERIES_PROBES];
	/* the traced device's writes completed in the span and their time,
	 * issue to completion, summed (0 when not traced) */
	uint64_t dev_writes, dev_write_service_ns;
};

#define WS_SERIES_CAP 8192	/* points kept: 2.3 h at one a second */

/* One point per interval (or progress mark) until full; then neighbours
 * merge pairwise and a point covers twice as many (the stride doubles). */
struct ws_series {
	struct ws_point pts[WS_SERIES_CAP];
	size_t n;
	unsigned int stride;	/* intervals per stored point (power of 2) */
	struct ws_point partial;	/* merging the current stride's points */
	unsigned int npartial;
};

/* Throughput over bytes written: a cell of the run. */
struct ws_cell {
	uint64_t from_bytes, to_bytes;
	uint64_t dbytes, dt_ns;
	double mibps;		/* 0 for a cell no point fell in */
};

#define WS_MAX_CELLS 256	/* in the result files (--bucket) */
#define WS_CURVE_CELLS 32	/* in the summary's one-line curve */

/* ---- analysis (analysis.h) -------------------------------------------- */

#define WS_MAX_PHASES 8

struct ws_phase {
	uint64_t from_bytes, to_bytes;	/* written at its start and end */
	uint64_t from_ns, to_ns;	/* time since the writer started */
	double mibps;			/* its bytes over its time */
	size_t first, last;		/* point indices, inclusive */
};

/* How a window of rounds is judged steady. */
enum ws_steady_criterion {
	/* SNIA PTS: the rounds' range (max - min) is at most limit_pct % of
	 * the window's average, and the least-squares line's excursion
	 * across the window, |slope| x (window - 1), at most slope_pct %. */
	WS_STEADY_SNIA,
	/* fio ss=bw_slope:L%: |slope| per round under limit_pct % of the
	 * window's average. */
	WS_STEADY_BW_SLOPE,
	/* fio ss=bw:L%: the largest |round - average| under limit_pct % of
	 * the average. */
	WS_STEADY_BW_DEV,
	WS_STEADY_NR
};

/* Every rule and threshold the analysis judges by: the summary, the JSON
 * and the plot print them from here. */
struct ws_analysis_params {
	/* phases */
	uint64_t interval_ns;		/* the reporting interval */
	unsigned int min_phase_intervals; /* a phase lasts at least this many
					   intervals (and 1% of the run): 2 */
	double merge_similar_pct;	/* neighbours closer than this are one
					   phase to a reader: 15 */
	double slowdown_fraction;	/* "slowed": lastingly below this
					   share of the initial rate: 0.8 */
	/* steady state */
	enum ws_steady_criterion criterion;
	double limit_pct;		/* SNIA range 20; fio's limit */
	double slope_pct;		/* SNIA slope excursion 10 */
	unsigned int steady_window;	/* rounds a window (5) */
	uint64_t round_ns;		/* a round (10 s) */
	uint64_t precondition_bytes;	/* windows that start before this much
					   was written are not judged */
};

/* The traced device's writes completed in a round (src/trace's
 * roundlat.h): how many, and their time at the device, issue to
 * completion, at p50 and p99 (0 when none). */
struct ws_round_device {
	uint64_t writes;
	uint64_t p50_ns, p99_ns;
};

/* One round: round_ns of the run, from the progress marks. */
struct ws_round {
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;			/* its bytes over its time */
	struct ws_round_device dev;	/* when the steady state has_dev */
};

enum ws_window_verdict {
	WS_WINDOW_PRECONDITION,		/* starts before precondition_bytes */
	WS_WINDOW_STEADY,
	WS_WINDOW_UNSTEADY,
};

/* The window of rounds [first, first + window).  Every figure is a % of
 * the window's average; the criterion decides which ones count. */
struct ws_window {
	unsigned int first;
	enum ws_window_verdict verdict;
	double mibps;			/* average of its rounds' rates */
	double range_pct;		/* (max - min) */
	double excursion_pct;		/* |slope| x (window - 1): SNIA */
	double slope_pct;		/* |slope| per round: fio */
	double dev_pct;			/* max |round - average|: fio */
};

/* Consecutive rounds in which every window held. */
struct ws_stretch {
	unsigned int first_round, last_round;	/* inclusive */
	uint64_t from_bytes, to_bytes, from_ns, to_ns;
	double mibps;			/* its bytes over its time */
	/* the worst of its windows, each in % of its window's average */
	double range_pct, excursion_pct, slope_pct, dev_pct;
	/* the steady state has_dev: its rounds' device write latency, the
	 * lowest and highest of their p50s and of their p99s (rounds in
	 * which a write completed; dev_rounds of them, 0: none) */
	unsigned int dev_rounds;
	uint64_t dev_p50_lo_ns, dev_p50_hi_ns, dev_p99_lo_ns, dev_p99_hi_ns;
};

struct ws_steady {
	bool judged;		/* at least one window after preconditioning */
	bool reached;		/* the last window holds: steady at the end */
	/* reached: from round X to the end, X the earliest round from which
	 * every window holds; established at the end of its first window */
	struct ws_stretch final;
	uint64_t at_bytes, at_ns;
	/* the latest stretch that held and then changed (before `final`
	 * when reached) */
	bool earlier;
	struct ws_stretch before;

	unsigned int nrounds;		/* complete rounds */
	unsigned int judged_from;	/* the first round a judged window may
					   start at (== nrounds: none) */
	unsigned int judged_rounds;	/* rounds from judged_from on */
	uint64_t round_ns;		/* a round's length */
	/* the device's write latency is in each round (traced runs) */
	bool has_dev;
	/* per round and per window, freed by analysis_release() */
	struct ws_round *rounds;
	struct ws_window *windows;
	size_t nwindows;
};

struct ws_analysis {
	struct ws_analysis_params params;	/* what it was judged by */
	unsigned int nphases;
	struct ws_phase phases[WS_MAX_PHASES];
	double initial_mibps;		/* the first phase's rate */
	bool slowed;
	uint64_t slowdown_bytes, slowdown_ns;
	struct ws_steady steady;
};

/* ---- probes (monitor.h makes them) ------------------------------------ */

#define WS_MAX_STALLS 256	/* stall records kept a probe (then counted) */
#define WS_MAX_SITES 16		/* wait sites named a probe (then "other") */
#define WS_TOP_SITES 3		/* named in the summary */

/* Why a stall happened, from the traced figures (stallcause.h has the
 * rules): the layer that held the probe's wait. */
enum ws_stall_cause {
	WS_CAUSE_NOT_TRACED,	/* no trace to judge by */
	WS_CAUSE_DEVICE,	/* the device took long to answer */
	WS_CAUSE_QUEUE,		/* waiting behind other writes */
	WS_CAUSE_JOURNAL,	/* the journal commit's own work */
	WS_CAUSE_DIRTY,		/* paused by the dirty limit */
	WS_CAUSE_LIMIT,		/* a cgroup I/O limit held the requests */
	WS_CAUSE_WBT,		/* writeback throttling held the write */
	WS_CAUSE_UNKNOWN,	/* traced, and no rule held */
	WS_CAUSE_NR
};

/* Its name in every output ("journal commit"); "" when not traced. */
const char *ws_stall_cause_name(enum ws_stall_cause c);

struct ws_stall {
	uint64_t start_ns;	/* since the writer started (0: before it) */
	uint64_t at_ns;		/* its start, CLOCK_MONOTONIC: what the trace is
				 * asked about, before the writer's start too */
	uint64_t duration_ns;
	uint64_t writer_bytes;	/* written by then */
	uint64_t dirty, writeback;	/* /proc/meminfo bytes at its start */
	char site[WS_SITE_LEN];	/* where it waited most ("" unknown) */
	enum ws_stall_cause cause;
	char why[512];		/* the evidence, in words ("" not traced) */
};

struct ws_site_count {
	char name[WS_SITE_LEN];
	uint64_t samples;	/* watcher samples taken there */
	uint64_t stalls;	/* stalls that waited there most */
};

/* Latencies in fixed buckets, for outputs that keep histograms (--prom):
 * le[b] counts the operations that took at most ws_latency_bounds_ns[b]
 * (cumulative: le[] never decreases along b).  A probe's since the start
 * (no bucket ever decreases from one interval to the next), within
 * hist.h's bound: one up to 1/128 over a bound may count in it (made by
 * recorder_add_latencies()); the traced device's requests' exactly, over
 * an interval or the run (ws_latency_add()). */
#define WS_LATENCY_BUCKETS 15
extern const uint64_t ws_latency_bounds_ns[WS_LATENCY_BUCKETS];	/* 1 ms .. 60 s */

struct ws_latency_totals {
	uint64_t count;			/* operations that completed */
	uint64_t sum_ns;		/* their latencies added up */
	uint64_t le[WS_LATENCY_BUCKETS];
};

/* One operation of ns into t; from's counts added into to
 * (src/record/latency.c). */
void ws_latency_add(struct ws_latency_totals *t, uint64_t ns);
void ws_latency_merge(struct ws_latency_totals *to,
		      const struct ws_latency_totals *from);

/* One probe over one interval. */
struct ws_probe_interval {
	const char *name;
	uint64_t count;		/* operations that completed */
	uint64_t p50_ns, p99_ns;
	uint64_t max_ns;	/* includes the age of one still in flight */
	uint64_t stalls;	/* completed stalls in the interval */
	uint64_t stalls_total;	/* since the start */
	uint64_t errors;
	uint64_t inflight_ns;	/* age of the operation in progress, or 0 */
	bool blocked;		/* in flight for at least --stall */
	char site[WS_SITE_LEN];	/* where a blocked probe waits, if known */
	struct ws_latency_totals latency;	/* since the start */
	/* since the start: probes completed, their p99 and max (the live
	 * line's; its p99 only where the count supports it, hist.h) */
	uint64_t run_count, run_p99_ns, run_max_ns;
};

/* Which of an interval's figures a probe has: its percentiles only when
 * some probe completed, its max also when one is in flight; an output
 * shows a figure it has not got as empty, never as 0. */
static inline bool ws_probe_has_percentiles(const struct ws_probe_interval *pi)
{
	return pi->count > 0;
}

static inline bool ws_probe_has_max(const struct ws_probe_interval *pi)
{
	return pi->count > 0 || pi->inflight_ns > 0;
}

/* One probe over the whole run. */
struct ws_probe_summary {
	const char *name;
	uint64_t count, errors;
	int last_error;			/* -errno of the latest failure */
	char last_fail[96];		/* what failed beyond errno (a
					   command's exit status), or "" */
	char last_stderr[WS_STDERR_LINE];	/* the failed command's last
						   line of stderr, or "" */
	uint64_t p50, p90, p99, p999, max;	/* raw: as measured */
	uint64_t c_count, c_p50, c_p90, c_p99, c_p999;	/* corrected */
	uint64_t nstalls, stall_total_ns;
	struct ws_stall longest;
	struct ws_stall stalls[WS_MAX_STALLS];	/* the first nrecorded */
	unsigned int nrecorded;
	/* every wait site, most sampled first; the first ntop are named in
	 * the summary */
	struct ws_site_count sites[WS_MAX_SITES];
	unsigned int nsites, ntop;
	uint64_t sched_misses;		/* slots skipped: one ran long */
	uint64_t cpu_ns;		/* its thread's CPU time */
	/* operations that ended after the writer did (a probe stuck past
	 * the end): in the figures above, in no interval */
	uint64_t after_end, after_end_max_ns;
	struct hist raw;		/* every latency, as measured */
	struct ws_latency_totals latency;	/* raw, in fixed buckets */
};

/* ---- reading the file back (readback.h makes it) ---------------------- */

#define WS_BLOCK 4096		/* the unit of stamps and of verify */

#define WS_VERIFY_LISTED 8	/* bad blocks named one by one */

struct ws_verify_bad {
	uint64_t offset;
	enum ws_block_state state;	/* WS_BLOCK_OK when stale */
	bool stale;			/* an older pass than expected */
	uint64_t found;			/* misplaced: the offset it was for */
};

struct ws_verify {
	uint64_t run;			/* the run checked for */
	uint64_t blocks;		/* whole 4 KiB blocks read */
	uint64_t count[WS_BLOCK_NR];	/* by state (stale ones not as ok) */
	uint64_t stale;			/* intact, but of an older pass */
	uint32_t last_pass;		/* the newest pass seen */
	uint64_t last_pass_end;		/* where it ended */
	/* the run's extent: where its last block ends; after it, blocks of
	 * another run intact and in place, nothing else, are the tail of an
	 * earlier, longer run (rewritten in place up to here), not damage */
	uint64_t run_end;
	uint64_t older_tail;		/* blocks in that tail */
	uint64_t older_run;		/* its run's id */
	unsigned int nlisted;
	struct ws_verify_bad listed[WS_VERIFY_LISTED];	/* the first ones */
	int err;			/* the read failed: positive errno */
	bool clean;			/* every block ok, all of it read */
};

/* ---- the run's facts, fixed before the first byte ---------------------- */

struct ws_target_facts {
	const char *path;
	char fs_type[16];		/* "ext4", "tmpfs", "0x..." */
	bool in_memory;			/* tmpfs or ramfs: memory, not a disk */
	bool created;			/* a new file */
	bool forced;			/* not ours: taken with --force */
	bool truncated;			/* emptied first: --truncate */
	bool xattr_unsupported;		/* cannot be marked as ours */
	uint64_t size_at_open;		/* what is rewritten in place */
	uint64_t fs_size, fs_avail;	/* fs_avail counts its own blocks */
	const char *fs_holds;		/* "/", "/var", "/home" or NULL: the
					   system's, so a tenth is kept free */
};

/* The probes that run, and what the header says of the measurement's own
 * quality. */
struct ws_probe_facts {
	unsigned int n;
	const char *names[WS_MAX_PROBES];	/* in the order of the summaries */
	char dir[PATH_MAX];		/* where their files are (the first's) */
	const char *dirs[WS_MAX_PROBES];	/* each one's, with several
						   filesystems; else NULL */
	bool realtime, memory_locked;
	char realtime_why[128], memory_why[128];
	char cmd_user[64];		/* --probe-cmd runs as; "": the caller */
};

/* What the privileged options did. */
struct ws_priv_facts {
	bool caches_dropped;
	bool scheduler_set;
	char scheduler_old[32];		/* the first disk's, put back at exit */
};

/* How the writes were issued: one synchronous write at a time, or queued
 * (--iodepth). */
struct ws_queue_facts {
	unsigned int depth;	/* writes in flight; 1: synchronous */
	const char *engine;	/* "io_uring", or "sync" */
	bool registered;	/* io_uring with registered buffers */
	/* --iodepth N > 1 asked for, the kernel refused io_uring: its
	 * errno (then depth is 1 and engine "sync"); 0 otherwise */
	int refused_err;
};

struct ws_run {
	struct ws_settings set;		/* what the run was asked to do */
	struct ws_plan plan;
	struct ws_target_facts target;
	const struct ws_fingerprint *fp;	/* kernel, filesystem, devices */
	struct ws_probe_facts probes;
	struct ws_priv_facts priv;
	struct ws_analysis_params params;	/* how the run is judged */
	const char *criterion_key;	/* "snia", "bw-slope", "bw-dev" */
	char criterion_words[96];	/* "SNIA: range ≤ 20%, slope ..." */
	const char *pace_name;		/* "window" */
	char pace[64];			/* "window(1) + fadvise" */
	const char *data;		/* "random", "compressible" */
	struct ws_queue_facts queue;
	/* the writer's timers this run can book time in: plain lines leave
	 * out the others (CSV and JSON keep every column) */
	bool timer_used[WS_T_NR];
	/* --pace none: marks count what write() took, not what reached
	 * the disk (the summary says so where it matters) */
	bool marks_accepted;
	/* uname(2) (hostname: its nodename), and when the run started (UTC),
	 * for result files */
	char sysname[65], release[65], version[65], machine[65], hostname[65];
	int64_t started_at;
	int argc;
	char **argv;			/* the command line, for result files */
	/* several targets: each one's own facts (path, target, plan,
	 * fingerprint; number = its place, 1-based), ntargets of them; 0 and
	 * NULL with one target */
	unsigned int ntargets;
	const struct ws_run *targets;
	unsigned int number;		/* in targets[]: 1, 2, ...; else 0 */
	/* in targets[]: the number of an earlier target on the same block
	 * device (they compete for it: flagged), or 0 */
	unsigned int same_device_as;
};

/* ---- one reporting interval ------------------------------------------- */

/* --pace adaptive: why its controller is not settled (adapt.h), the
 * last period's verdict; WS_ADAPT_SETTLED once it is. */
enum ws_adapt_why {
	WS_ADAPT_SETTLED,
	WS_ADAPT_STARTING,	/* fewer calm periods than settling needs */
	WS_ADAPT_NO_PROBES,	/* a period without a probe: nothing to judge */
	WS_ADAPT_OVER,		/* the slowest probe was over the target */
	WS_ADAPT_RACING,	/* far under it: the setpoint still grows */
	WS_ADAPT_MOVING,	/* inflight left the band: the disk's pace moved */
	WS_ADAPT_UNREACHABLE,	/* over the target at the floor */
	WS_ADAPT_WHY_NR
};
/* "settled", "starting", "no_probes", "over_target", "racing",
 * "moving", "unreachable": the results' word (settings.c) */
const char *ws_adapt_why_key(enum ws_adapt_why why);

/* --pace adaptive: where its controller stands (adapt.h). */
struct ws_adapt_figures {
	uint64_t chunk;			/* bytes per write and writeback */
	unsigned int window;		/* chunks under writeback */
	uint64_t inflight;		/* bytes it allows under writeback */
	uint64_t sojourn_ns;		/* a chunk's writeback, smoothed */
	uint64_t setpoint_ns;		/* the sojourn it aims at */
	bool settled;
	bool at_floor;			/* the least writeback it keeps */
	enum ws_adapt_why why;
	/* the target out of reach: now, and since (the run's clock, from
	 * the first time; 0 never); the floor it found: the probe (index
	 * in the run's probes, -1 none) and its latency there */
	bool unreachable;
	uint64_t unreachable_at_ns;
	int floor_probe;
	uint64_t floor_ns;
	int steering;			/* the probe that steered most, -1 */
	/* each probe's waits behind the writer per operation (0: it does
	 * not steer) */
	double waits[WS_MAX_PROBES];
	/* and each one's median on the idle disk, what the target was
	 * checked against before the writer started */
	uint64_t idle_ns[WS_MAX_PROBES];
	/* --headroom: the disk's rate as the writer saw it unhindered, and
	 * the cap it kept to, bytes a second (0: not yet, or none) */
	uint64_t disk_bps, cap_bps;
};

/* The block requests of the target's device, as the kernel's tracepoints
 * saw them (trace.h; off without root or tracefs): over an interval, or
 * the whole run.  Requests are counted at completion, as the device's
 * own counters (/sys/block/.../stat) count them. */
enum ws_blk_dir { WS_BLK_READ, WS_BLK_WRITE, WS_BLK_NR };

struct ws_block_dir {
	uint64_t requests;	/* completed */
	uint64_t bytes;
	uint64_t time_ns;	/* summed, from insert (or issue, when the
				   request skipped the scheduler) to
				   completion: what the stat file's ticks add */
	uint64_t service_ns;	/* summed, issue to completion: the device's */
	uint64_t max_service_ns;
	uint64_t empty;		/* of the requests, those with no data (an
				   fsync's empty flush request): counted, as
				   the device counts them, and timed, but
				   never issued themselves: no service */
	/* the issued requests' time in the queue (getrq, or insert in
	 * older recordings, to issue; 0 when neither was seen) and at the
	 * device (issue to completion), in the fixed buckets: the split of
	 * time_ns, request by request */
	struct ws_latency_totals queue, service;
	/* the bios behind the requests (when bios_on): queued to the disk
	 * (after any cgroup limit held them), merged into a request rather
	 * than given their own (the device's merges also count a request
	 * merged into another: merged has those too), split at the disk's
	 * limits; and the time a bio waited between being queued and
	 * getting its request (writeback throttling, a full queue), summed
	 * over those whose wait was seen (request_waits; not a fsync's
	 * empty flush request's) */
	uint64_t bios, merged, splits;
	uint64_t request_waits, request_wait_ns, max_request_wait_ns;
};

/* Who submitted the requests (the task at getrq): anyone else first, so
 * a request whose getrq was not seen counts there. */
enum ws_submitter {
	WS_SUB_OTHER,
	WS_SUB_WRITER,		/* writestress's writer threads */
	WS_SUB_PROBES,		/* its probe threads */
	WS_SUB_JOURNAL,		/* the filesystem's journal (jbd2) */
	WS_SUB_FLUSHER,		/* the kernel's workers: writeback, mostly */
	WS_SUB_NR
};

/* Its name in outputs ("writer"). */
const char *ws_submitter_name(enum ws_submitter s);

/* Why the kernel's flusher ran a writeback work: the kernel's enum
 * wb_reason, by number (background 0, vmscan, sync, periodic,
 * laptop_timer, fs_free_space, forker_thread, foreign_flush 7). */
#define WS_WB_REASONS 8
const char *ws_wb_reason_name(unsigned int r);

struct ws_block_sub {
	uint64_t requests, bytes;
	uint64_t service_ns;	/* issue to completion, summed */
	uint64_t flushes, flush_ns;	/* the cache flushes it asked for
					   (timed ones), and their time */
};

/* Writeback throttling's limits as its latest change (wbt_step) set them
 * (known: once one was seen): step (above 0 cut down, below raised), the
 * writes it lets in flight at once for background writeback, for others,
 * and for writes someone waits for. */
struct ws_wbt_limits {
	bool known;
	int32_t step;
	uint32_t bg, normal, max;
};

/* ... and the latencies it last judged by (wbt_stat, when it scaled;
 * known once one was seen), in ns: reads' least and mean, writes' mean. */
struct ws_wbt_look {
	bool known;
	uint64_t read_min_ns, read_mean_ns, write_mean_ns;
};

struct ws_block_figures {
	bool on;		/* traced: the rest is meaningful */
	struct ws_block_dir dir[WS_BLK_NR];
	uint64_t flushes;	/* cache flushes completed */
	uint64_t flush_ns, max_flush_ns;	/* their time, issue to
					   completion, of those whose issue
					   was seen: summed, the longest */
	uint64_t fua;		/* writes with FUA */
	uint64_t lost;		/* events the kernel dropped: its ring was
				   full (the figures are then short) */
	uint64_t unmatched;	/* completions whose issue was not seen */
	bool bios_on;		/* the bios' events traced (ws_block_dir) */
	/* writeback throttling (wbt) on the disk, where it is on and its
	 * wbt_step events are traced: how often it changed its limits in the
	 * span, where they stood at its end and its last look at the
	 * latencies it steers by (each a state: carried from span to span) */
	bool wbt_on;
	uint64_t wbt_changes;
	struct ws_wbt_limits wbt;
	struct ws_wbt_look wbt_look;
	struct ws_block_sub by[WS_SUB_NR];	/* the requests (both
						   directions) by submitter */
	/* the device's own counters (/sys/block/.../stat) over the same
	 * span, for the run: what the trace should add up to */
	bool have_counted;
	struct {
		uint64_t requests, bytes, time_ns;
		uint64_t merges;	/* bios and requests merged */
	} counted[WS_BLK_NR];
	uint64_t counted_flushes, counted_flush_ns;
};

/* What the tool's own watching cost the writer at the traced device
 * (src/trace/observer.h): how much of the run the observer's work (the
 * probes' and the journal's requests, the flushes they asked for) was in
 * flight, and the writer's data the device completed per second with none
 * of it in flight and while it was, fitted over slots of the run.
 * judged: there was enough to say; else why_not says what was missing.
 * speedup: the first rate over the writer's overall one, at least 1 -
 * "without it the writer would have been about 1.5x faster" - or, bound
 * (its work in flight too little of the time to fit), 1 / (1 - its
 * share): at most that. */
struct ws_observer_cost {
	bool on;		/* traced: the rest is meaningful */
	bool judged;
	const char *why_not;
	bool bound;		/* judged by its share of the time alone */
	double busy_pct;	/* of the slots' time */
	double seconds;		/* the slots' time */
	double free_mibps, busy_mibps, mibps;
	double speedup;
};

/* The target filesystem's journal commits (ext4's jbd2), as its
 * tracepoints saw them, counted when they end: over an interval or the
 * run.  The phases are jbd2's own: locked (waiting for the running
 * transaction's handles), flushing (ordered data submitted) and logging
 * (the log written and the ordered data waited on). */
struct ws_journal_figures {
	bool on;		/* commits traced: the next ones are meaningful */
	bool xfs;		/* xfs's log: a commit is a log write (iclogs
				   written back to back), all of it logging */
	uint64_t commits;
	uint64_t time_ns, max_ns;	/* start to end, summed; the longest */
	uint64_t locked_ns, flushing_ns, logging_ns;	/* summed */
	uint64_t blocks;	/* in the transactions committed (jbd2) */
	uint64_t iclogs, log_bytes;	/* xfs: its log buffers written */
	/* xfs, the run's: its own count of its log writes and their 512-byte
	 * blocks over the traced span (/sys/fs/xfs/DEV/stats/stats) */
	bool have_counted;
	uint64_t counted_log_writes, counted_log_blocks;
	/* jbd2, the run's: its own count of its transactions over the traced
	 * span and their logging time (its average in whole ms times its
	 * count, at each end: /proc/fs/jbd2/DEV-8/info) */
	bool have_jbd2_counted;
	uint64_t counted_transactions, counted_logging_ms;
	/* the kernel's flusher at work on the disk (writeback_start to
	 * writeback_written: src/trace/flusher.h): its works that ended, by
	 * why they ran, and the pages they wrote */
	bool wb_on;		/* traced: these are meaningful */
	uint64_t wb_works;	/* seen (flusher.h: a work, not a pass) */
	uint64_t wb_pages;	/* written by the passes whose start was seen */
	bool wb_running_known;	/* the run's figures: wb_running is */
	uint64_t wb_running;	/* works in a pass at the run's end */
	uint64_t wb_by_reason[WS_WB_REASONS];
	/* threads of writestress paused by the dirty limit
	 * (balance_dirty_pages): how often, and for how long, summed */
	bool dirty_on;		/* traced: these three are meaningful */
	uint64_t dirty_pauses, dirty_paused_ns;
	uint64_t writer_paused_ns;	/* of it, the writer threads' */
};

struct ws_interval {
	uint64_t index;
	uint64_t t_ns;		/* elapsed at the interval's end */
	uint64_t dt_ns;		/* its length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	uint64_t time_ns[WS_T_NR];	/* writer time during it */
	double mibps;		/* during it (the final short one: with the
				   one before) */
	double avg_mibps;	/* since the start */
	double progress;	/* 0..1, or -1 when the run is unbounded */
	uint64_t eta_ns;	/* valid when progress > 0 */
	enum ws_timer busiest;	/* the timer that took most of it */
	double busiest_share;	/* its share of the interval, 0..1 */
	bool have_meminfo;
	uint64_t dirty, writeback;	/* /proc/meminfo at the interval's end */
	/* the device's own counters (/sys/block/.../stat) over the interval:
	 * what reached it, not what the page cache took */
	bool have_device;
	double dev_mibps;		/* written to the device */
	uint64_t dev_bytes;		/* ... in bytes (what a sum over
					   intervals adds up: the final one's
					   dev_mibps may be smoothed) */
	uint64_t dev_inflight;		/* requests in flight at the end */
	double dev_busy_pct;		/* share of the interval it was busy */
	/* /proc/pressure/io over the interval, % of time stalled on I/O */
	bool have_psi;
	double psi_some_pct, psi_full_pct;
	struct ws_block_figures block;	/* traced requests over it */
	struct ws_journal_figures journal;	/* traced commits over it */
	/* the same since the start, added up (what counters show) */
	struct ws_block_figures block_run;
	struct ws_journal_figures journal_run;
	/* the header's last word, on the first interval: how long the
	 * preconditioning takes at its rate (0: nothing to say) */
	uint64_t precondition_eta_ns;
	unsigned int nprobes;
	struct ws_probe_interval probes[WS_MAX_PROBES];
	/* --pace adaptive: the controller at the interval's end (adapt.h) */
	bool have_adapt;
	struct ws_adapt_figures adapt;
	/* several targets: this interval of each target still writing (its
	 * last one ends at its writer's end, flagged final); the aggregate's
	 * own figures are the sums */
	unsigned int ntargets;
	const struct ws_interval *targets;
	unsigned int number;		/* in targets[]: the target's number */
	bool final;			/* in targets[]: its writer's last */
};

/* ---- the summary ------------------------------------------------------- */

/* What limited the writer, from where its time went. */
enum ws_limit {
	WS_LIMIT_NONE,		/* no single limit */
	WS_LIMIT_RATE,		/* --rate */
	WS_LIMIT_FILL,		/* generating data */
	WS_LIMIT_WRITEBACK,	/* the disk: waiting for writeback */
	WS_LIMIT_DIRECT,	/* the disk: O_DIRECT writes */
	WS_LIMIT_QUEUED,	/* the disk: waiting for queued writes */
	WS_LIMIT_WRITE,		/* write(): page cache and dirty throttling */
	WS_LIMIT_MEMORY,	/* any of the last four, on a target in memory */
	WS_LIMIT_NR
};

/* How the run ended. */
struct ws_ending {
	enum ws_stop_reason reason;
	int err;			/* positive errno for WS_STOP_ERROR */
	const char *err_op;		/* "write", "sync_file_range", ... */
	uint64_t err_offset;		/* file offset the failing call touched */
	char err_detail[160];		/* extra words, e.g. what --pace needs */
	int signo;			/* WS_STOP_SIGNAL */
	const char *signal;		/* "SIGINT", or NULL */
};

struct ws_summary {
	/* the device's requests over the run, traced (block.on), and its
	 * writes' service times */
	struct ws_block_figures block;
	uint64_t block_write_p50_ns, block_write_p99_ns;
	/* ... round by round (the steady state's rounds, from the writer's
	 * start; block_rounds_on: counted), the tracer's until it stops */
	bool block_rounds_on;
	const struct ws_round_device *block_rounds;
	size_t nblock_rounds;
	struct ws_observer_cost observer;	/* traced: what the probes'
						   work cost the writer */
	uint64_t block_rounds_outside;	/* writes in no round: completed
					   before they were counted, or read
					   after their round closed */
	struct ws_journal_figures journal;
	/* the cgroup write limits on the traced disk, bytes and requests a
	 * second (0: none) */
	uint64_t io_limit_bps, io_limit_iops;
	uint64_t bytes;
	uint64_t buffers;
	uint64_t wraps;
	uint64_t elapsed_ns;	/* to the moment the data was on disk */
	uint64_t time_ns[WS_T_NR];
	uint64_t writers_ns;	/* what time_ns are shares of: elapsed_ns, or
				   with several targets the sum of theirs */
	double mibps;
	struct ws_ending ending;
	enum ws_limit limit;
	const char *limit_key;	/* "disk", for files */
	const char *limit_words; /* "the disk was the limit (waiting for
				    writeback)", for people */
	unsigned int nprobes;
	struct ws_probe_summary probes[WS_MAX_PROBES];
	const struct ws_series *series;		/* per interval, bounded */
	const struct ws_series *progress;	/* per buffer group: phases */
	const struct ws_analysis *analysis;	/* phases, slowdown, steady */
	char steady_figures[96];	/* the final stretch's figures under
					   the criterion: "range 4%, slope
					   excursion 3%" */
	/* throughput over bytes written: up to WS_MAX_CELLS cells of
	 * cell_bytes for the result files, and WS_CURVE_CELLS of
	 * curve_bytes for the one-line curve */
	uint64_t cell_bytes, curve_bytes;
	size_t ncells, ncurve;
	struct ws_cell cells[WS_MAX_CELLS];
	struct ws_cell curve[WS_CURVE_CELLS];
	double curve_top;		/* the curve's fastest cell */
	/* CPU time (user + system): the process's, the writer thread's, the
	 * monitor's (probe threads and the stall watcher); 0 unknown */
	uint64_t cpu_ns, cpu_writer_ns, cpu_probes_ns;
	uint64_t cpu_verify_ns;		/* --verify's read-back: not in cpu_ns */
	unsigned int queue_peak;	/* --iodepth: most writes in flight */
	/* --pace adaptive: where the controller ended, when it settled
	 * (since the start; settled false: it never did), and each probe's
	 * latencies from the first interval after it settled on */
	bool have_adapt;
	struct ws_adapt_figures adapt;
	uint64_t target_latency_ns;
	unsigned int headroom_pct;	/* --headroom, 0: none */
	uint64_t adapt_settled_ns;
	uint64_t settled_count[WS_MAX_PROBES];
	uint64_t settled_p50_ns[WS_MAX_PROBES], settled_p99_ns[WS_MAX_PROBES],
		 settled_max_ns[WS_MAX_PROBES];
	double cpu_s_per_gib;	/* the process's, per GiB written */
	/* --verify: the file read back after the run */
	bool verified;
	struct ws_verify verify;
	/* several targets: each one's summary (its ending, phases, slowdown
	 * and steady state, cells, verify); the aggregate sums bytes and
	 * times, its elapsed runs from the first start to the last end, its
	 * ending is the worst of theirs, its phases come from their progress
	 * added up, and it holds the probes */
	unsigned int ntargets;
	const struct ws_summary *targets;
	uint64_t start_offset_ns;	/* in targets[]: its writer started this
					   long after the first one */
};

#endif
