/* settings.h - what a run was asked (ws_settings) and its plan (ws_plan),
 * as its result records them.  Read-only once the run starts.
 */
#ifndef WS_SETTINGS_H
#define WS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ws_pace {
	WS_PACE_WINDOW,		/* sync_file_range windows */
	WS_PACE_NONE,
	WS_PACE_FDATASYNC,
	WS_PACE_DIRECT,
	WS_PACE_DONTCACHE,	/* RWF_DONTCACHE, Linux 6.14+ */
	WS_PACE_ADAPTIVE,
	WS_PACE_NR
};

/* NULL-ended; "?" out of range. */
extern const char *const ws_pace_words[WS_PACE_NR + 1];
const char *ws_pace_name(enum ws_pace mode);
bool ws_pace_parse(const char *name, enum ws_pace *mode);

enum ws_data {
	WS_DATA_RANDOM,		/* each block stamped */
	WS_DATA_FIXED,
	WS_DATA_ZERO,
	WS_DATA_COMPRESSIBLE,	/* compress_pct % of each 4 KiB block zero */
	WS_DATA_NR
};

/* "compressible=PCT" sets *pct (else 0).  0 or -EINVAL. */
extern const char *const ws_data_words[WS_DATA_NR + 1];
const char *ws_data_name(enum ws_data data);
int ws_data_parse(const char *s, enum ws_data *data, unsigned int *pct);

enum ws_probe_kind {
	WS_PROBE_FSYNC,
	WS_PROBE_SAVE,		/* write tmp, fsync, rename, fsync dir */
	WS_PROBE_READ,		/* a cold block */
	WS_PROBE_SQLITE,
	WS_PROBE_DSYNC,		/* O_DSYNC overwrite */
	WS_PROBE_CMD,
	WS_PROBE_NR
};
extern const char *const ws_probe_words[WS_PROBE_NR + 1];
const char *ws_probe_kind_name(enum ws_probe_kind kind);
/* "fsync,save" into bits 1 << kind.  0, or -EINVAL, the name in bad. */
int ws_probe_parse_list(const char *s, unsigned int *set, char *bad, size_t len);

/* A probe kind runs once per filesystem the targets are on. */
#define WS_MAX_TARGETS 8
#define WS_MAX_PROBES 12

#define WS_MAX_PROBE_CMDS 4
#define WS_STDERR_LINE 160	/* a failed command's stderr line */
struct ws_probe_cmd {
	char name[13];		/* [a-z][a-z0-9_]*; "" until named */
	const char *line;	/* for /bin/sh -c; not copied */
};
/* "[NAME=]COMMAND", line into arg.  0, or -EINVAL with why. */
int ws_probe_cmd_parse(const char *arg, struct ws_probe_cmd *out, char *why,
		       size_t len);

/* Refused under other modes: there, the default. */
struct ws_pace_settings {
	bool fadvise;
	unsigned window;	/* buffers */
	unsigned sync_every;	/* buffers */
	unsigned iodepth;	/* 1: synchronous */
	uint64_t target_latency_ns;
	unsigned int steer_by;	/* bits 1 << kind; 0: every probe but cmd */
	unsigned int headroom_pct;	/* of the disk's rate, unused */
};

struct ws_steady_settings {
	bool until;
	bool asked;	/* a steady-state option given: the summary says it */
	unsigned int window;	/* rounds */
	uint64_t round_ns;
	/* unset: 2x capacity with until, else 0 */
	bool precondition_set;
	uint64_t precondition_bytes;
	unsigned int max_rounds;	/* judged; 0: no bound */
};

struct ws_sqlite_settings {
	bool wal;		/* else delete */
	bool sync_normal;	/* else full */
};

struct ws_cmd_settings {
	struct ws_probe_cmd list[WS_MAX_PROBE_CMDS];
	unsigned int n;
	uint64_t timeout_ns;
};

/* Paths are argv's; NULL: none.  Defaults: fields.h. */
struct ws_settings {
	const char *path;	/* the first target's, or its own */
	unsigned int jobs;

	uint64_t buffer_size;
	uint64_t buffers;	/* 0: no bound */
	uint64_t total_size;	/* 0: no bound */
	uint64_t duration_ns;	/* 0: no bound */
	bool forever;
	bool watch;		/* writestress watch: no writer */

	enum ws_pace pace;
	struct ws_pace_settings pacing;
	uint64_t rate;		/* bytes/s; 0: none */

	enum ws_data data;
	unsigned compress_pct;
	uint64_t seed;		/* 0: from the clock */

	unsigned int probes;	/* bits 1 << kind */
	uint64_t probe_interval_ns;
	uint64_t probe_size;	/* a write probe's, a sqlite row */
	bool probe_fdatasync;
	const char *probe_dir;	/* NULL: the target's directory */
	const char *read_probe;
	struct ws_sqlite_settings sqlite;
	struct ws_cmd_settings cmds;
	uint64_t stall_ns;

	uint64_t interval_ns;
	const char *json_path;
	const char *csv_path;
	const char *svg_path;
	const char *prom_path;
	struct ws_steady_settings steady;
	uint64_t bucket;	/* a cell's bytes; 0: auto */
	bool drop_caches;
	const char *scheduler;
	int ioprio_class, ioprio_level;		/* class 0: unchanged */
	int probe_ioprio_class, probe_ioprio_level;
	bool truncate;
	/* tracing is on where it can be; required: or fail */
	bool trace_required, no_trace;
};

#define WS_UNBOUNDED UINT64_MAX

struct ws_plan {
	uint64_t buffer_size;
	uint64_t total;
	uint64_t file_size;	/* the writer wraps here */
	uint64_t reserve;	/* kept free */
	bool reserve_system;	/* the fs holds /, /var or /home */
	bool file_size_derived;
	uint64_t precondition;	/* bytes before judging */
	double precondition_x;	/* of capacity, or 0 */
	uint64_t capacity;	/* 0: unknown */
};

#endif
