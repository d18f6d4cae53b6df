/* settings.h - what a run was asked to do (struct ws_settings) and what
 * that came to on its filesystem (struct ws_plan): the part of the
 * configuration a result records and an output shows.
 *
 * The command line fills them (config.h embeds the settings in struct
 * ws_config, beside what only the wiring needs: the target list, safety
 * switches, the terminal); plan_make() (plan.h) computes the plan.  The
 * record (record.h) carries a copy of both, so outputs read them without
 * the configuration.  Plain data; read-only once the run starts, so any
 * thread may read it.
 */
#ifndef WS_SETTINGS_H
#define WS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ws_pace {
	WS_PACE_WINDOW,		/* sync_file_range windows (overwrite.c) */
	WS_PACE_NONE,		/* plain buffered writes (dd) */
	WS_PACE_FDATASYNC,	/* fdatasync every N buffers */
	WS_PACE_DIRECT,		/* O_DIRECT */
	WS_PACE_DONTCACHE,	/* pwritev2(RWF_DONTCACHE), Linux 6.14+ */
	WS_PACE_ADAPTIVE,	/* windows sized to --target-latency (adapt.h) */
	WS_PACE_NR
};

/* The modes' words, by enum and NULL-ended (--pace's, the result's); a
 * mode's word ("window", "adaptive"; "?" out of range), and the mode of
 * a word: false when it names none. */
extern const char *const ws_pace_words[WS_PACE_NR + 1];
const char *ws_pace_name(enum ws_pace mode);
bool ws_pace_parse(const char *name, enum ws_pace *mode);

enum ws_data {
	WS_DATA_RANDOM,		/* a PRNG pool, stamped a block (datagen.h) */
	WS_DATA_FIXED,		/* one random buffer reused (overwrite.c) */
	WS_DATA_ZERO,
	WS_DATA_COMPRESSIBLE,	/* compress_pct % of each 4 KiB block zero */
	WS_DATA_NR
};

/* The kinds' words, by enum and NULL-ended; a kind's word ("random";
 * "?" out of range), and the kind of
 * "random", "fixed", "zero" or "compressible=PCT" (PCT 0-100, into
 * *pct, else 0): 0 or -EINVAL. */
extern const char *const ws_data_words[WS_DATA_NR + 1];
const char *ws_data_name(enum ws_data data);
int ws_data_parse(const char *s, enum ws_data *data, unsigned int *pct);

/* Desktop-latency probes (monitor.h). */
enum ws_probe_kind {
	WS_PROBE_FSYNC,		/* append + fsync: the mail client */
	WS_PROBE_SAVE,		/* write tmp, fsync, rename, fsync dir: the editor */
	WS_PROBE_READ,		/* 4 KiB read of a cold block: the reader */
	WS_PROBE_SQLITE,	/* a SQLite commit: the mail store, the browser */
	WS_PROBE_DSYNC,		/* in-place O_DSYNC overwrite: a database's WAL */
	WS_PROBE_CMD,		/* the user's command (--probe-cmd) */
	WS_PROBE_NR
};
/* The probes' names, by enum and NULL-ended, and a kind's ("?" out of
 * range). */
extern const char *const ws_probe_words[WS_PROBE_NR + 1];
const char *ws_probe_kind_name(enum ws_probe_kind kind);
/* "fsync,save,read" (--probe, --steer-by) into a bit set (1 << enum
 * ws_probe_kind).  0, or -EINVAL with the name not known in bad ("" for
 * an empty one). */
int ws_probe_parse_list(const char *s, unsigned int *set, char *bad, size_t len);

/* Targets in one run (FILE1 FILE2 ..., --jobs N), and probes in one run:
 * each kind asked for runs once per filesystem the targets are on. */
#define WS_MAX_TARGETS 8
#define WS_MAX_PROBES 12

/* --probe-cmd NAME=CMD: one cmd probe each */
#define WS_MAX_PROBE_CMDS 4
/* A failed command's last line of stderr, as kept (then cut) */
#define WS_STDERR_LINE 160
struct ws_probe_cmd {
	char name[13];		/* [a-z][a-z0-9_]*; "" until named */
	const char *line;	/* for /bin/sh -c (argv, not copied) */
};
/* "[NAME=]COMMAND" (--probe-cmd) into *out (line points into arg; the
 * name "" when none is given).  0, or -EINVAL with why. */
int ws_probe_cmd_parse(const char *arg, struct ws_probe_cmd *out, char *why,
		       size_t len);

/* The pace modes' own settings: each is read by the modes named (opts
 * refuses it under any other, so elsewhere it keeps its default). */
struct ws_pace_settings {
	bool fadvise;		/* -f: drop written pages (window,
				   fdatasync, adaptive) */
	unsigned window;	/* --window: buffers in flight (window) */
	unsigned sync_every;	/* --sync-every: buffers between fdatasync
				   calls (fdatasync) */
	unsigned iodepth;	/* --iodepth: writes in flight (direct,
				   dontcache); 1 = synchronous */
	uint64_t target_latency_ns;	/* --target-latency: what the probes
					   may wait (adaptive) */
	unsigned int steer_by;	/* --steer-by: the probe kinds that steer
				   adaptive, bit (1 << enum ws_probe_kind);
				   0: every probe but a command */
	unsigned int headroom_pct;	/* --headroom: the share of the disk's
					   rate adaptive leaves unused, 0..50 */
};

/* --until-steady's: how steady state is looked for. */
struct ws_steady_settings {
	bool until;		/* end once steady state holds */
	unsigned int window;	/* rounds per window */
	uint64_t round_ns;	/* one round */
	/* --precondition given (else 2x with --until-steady, else 0); its
	 * SIZE when not a multiple (config.h: precondition_mult) */
	bool precondition_set;
	uint64_t precondition_bytes;
	unsigned int max_rounds;	/* gives up after this many judged
					   rounds; 0: never */
};

/* The sqlite probe's: journal_mode and synchronous. */
struct ws_sqlite_settings {
	bool wal;		/* --sqlite-journal wal (else delete) */
	bool sync_normal;	/* --sqlite-sync normal (else full) */
};

/* The cmd probe's: the commands and how long one may run. */
struct ws_cmd_settings {
	struct ws_probe_cmd list[WS_MAX_PROBE_CMDS];
	unsigned int n;
	uint64_t timeout_ns;	/* --probe-timeout: killed after it */
};

struct ws_settings {
	const char *path;	/* the file under test (argv, not copied);
				   with several targets, the first, and in
				   each target's own copy its own */
	unsigned int jobs;	/* --jobs; 0: not given */

	uint64_t buffer_size;	/* bytes per write */
	uint64_t buffers;	/* -b: stop after this many; 0 = no bound */
	uint64_t total_size;	/* --size: stop after this many bytes; 0 = none */
	uint64_t duration_ns;	/* --time; 0 = none */
	bool forever;		/* --forever: no bound, asked for */

	enum ws_pace pace;
	struct ws_pace_settings pacing;	/* the modes' own */
	uint64_t rate;		/* --rate: bytes/s cap; 0 = none */

	enum ws_data data;
	unsigned compress_pct;	/* for WS_DATA_COMPRESSIBLE */
	uint64_t seed;		/* PRNG seed; 0 = from the clock */

	unsigned int probes;	/* bit (1 << enum ws_probe_kind); 0: none */
	uint64_t probe_interval_ns;
	uint64_t probe_size;	/* bytes per fsync/save/dsync probe, sqlite row */
	bool probe_fdatasync;	/* --probe-sync fdatasync */
	const char *probe_dir;	/* NULL: the target file's directory */
	const char *read_probe;	/* --read-probe PATH for the read probe */
	struct ws_sqlite_settings sqlite;	/* the probes' own */
	struct ws_cmd_settings cmds;
	uint64_t stall_ns;	/* a probe this slow is a stall */

	uint64_t interval_ns;	/* reporting interval */
	const char *json_path;	/* --json: the result file, or NULL */
	const char *csv_path;	/* --csv: the interval series */
	const char *svg_path;	/* --svg: the plot */
	const char *prom_path;	/* --prom: the live state for Prometheus */
	struct ws_steady_settings steady;
	uint64_t bucket;	/* bytes per cell of the per-GiB view; 0: auto */
	bool drop_caches;	/* --drop-caches before the run */
	const char *scheduler;	/* --scheduler for the run, or NULL */
	int ioprio_class, ioprio_level;		/* writer; class 0: unchanged */
	int probe_ioprio_class, probe_ioprio_level;	/* probes */
	bool truncate;		/* --truncate: empty the file first instead of
				   rewriting it in place */
	/* tracing the device's requests (trace.h): on where it can be
	 * (root, tracefs), unless --no-trace; --trace: or fail */
	bool trace_required, no_trace;
};
/* The defaults are the settings table's (fields.h), not written here. */

#define WS_UNBOUNDED UINT64_MAX

/* The arithmetic of a run (plan.h computes it). */
struct ws_plan {
	uint64_t buffer_size;
	uint64_t total;		/* bytes to write; WS_UNBOUNDED: time/signal */
	uint64_t file_size;	/* the writer wraps to offset 0 here */
	uint64_t reserve;	/* bytes kept free on the filesystem */
	bool reserve_system;	/* the default for a filesystem that holds
				   /, /var or /home: a tenth of it */
	bool file_size_derived;	/* true: no --file-size, chosen to fit */
	uint64_t precondition;	/* bytes written before steady state is
				   judged (plan_precondition) */
	double precondition_x;	/* ... as a multiple of capacity, or 0 */
	uint64_t capacity;	/* of the device under FILE; 0 unknown */
};

#endif
