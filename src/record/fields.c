/* fields.c - the settings table, in --help's order.  A new setting is a
 * row here, its key a place in result_order; a parser in
 * config/options.c if no type describes it, a WS_FIELD_OWN writer in
 * outputs/sink_json_facts.c if the result writes it by its own code.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/c.h"
#include "lib/units.h"
#include "record/fields.h"
#include "record/record.h"

#define AT(member) offsetof(struct ws_settings, member)
#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Long options without a letter: a number each, above any letter. */
enum {
	KEY_FILE_SIZE = 256, KEY_RESERVE, KEY_SYNC_EVERY, KEY_SEED, KEY_FORCE,
	KEY_REMOVE, KEY_PROBE, KEY_NO_PROBE, KEY_PROBE_INTERVAL, KEY_PROBE_SIZE,
	KEY_PROBE_SYNC, KEY_PROBE_DIR, KEY_READ_PROBE, KEY_STALL, KEY_JSON,
	KEY_CSV, KEY_SVG, KEY_UNTIL_STEADY, KEY_STEADY_WINDOW, KEY_STEADY_ROUND,
	KEY_BUCKET, KEY_DROP_CACHES, KEY_SCHEDULER, KEY_IOPRIO, KEY_PROBE_IOPRIO,
	KEY_STEADY_CRITERION, KEY_PRECONDITION, KEY_STEADY_MAX_ROUNDS,
	KEY_TRUNCATE, KEY_VERIFY, KEY_IODEPTH, KEY_JOBS, KEY_TARGET_LATENCY,
	KEY_STEER_BY, KEY_HEADROOM, KEY_SQLITE_JOURNAL, KEY_SQLITE_SYNC,
	KEY_PROBE_CMD, KEY_PROBE_USER, KEY_PROBE_TIMEOUT, KEY_COLOR, KEY_PROM,
	KEY_TRACE, KEY_NO_TRACE, KEY_FOREVER,
};

/* result.changes: another value moves the figures compare judges.  Not
 * names (paths), reporting (--interval), what writestress chose itself
 * (file size, reserve, queue) or the system's settings (scheduler,
 * ioprio): comparing those is what compare is for. */
static const struct ws_field fields[] = {
	{ .opt.offset = AT(path), .result = { "file", WS_FIELD_TEXT } },
	{ .result = { "files", WS_FIELD_OWN } },
	{ .opt = { .type = CLI_HEADING, .help = "Run length (a run needs a bound, or --forever; the first bound reached ends it):" } },
	{ .opt = { .name = "buffers", .key = 'b', .type = CLI_U64, .arg = "COUNT",
		   .offset = AT(buffers), .min = 1,
		   .help = "write COUNT buffers (not with --size)" },
	  .result = { "buffers", WS_FIELD_COUNT } },
	{ .opt = { .name = "size", .key = 's', .type = CLI_SIZE, .arg = "SIZE",
		   .offset = AT(total_size), .min = 4 * WS_KIB,
		   .help = "write SIZE bytes in total (not with -b)" },
	  .result = { "total_bytes", WS_FIELD_OWN, true } },
	{ .opt = { .name = "time", .key = 't', .type = CLI_DURATION, .arg = "DURATION",
		   .offset = AT(duration_ns), .min = 1,
		   .help = "stop after DURATION" },
	  .result = { "time_s", WS_FIELD_SECONDS, true } },
	{ .opt = { .name = "forever", .key = KEY_FOREVER, .type = CLI_FLAG, .offset = AT(forever),
		   .help = "run until interrupted (Ctrl-C, SIGTERM), rewriting the file from its start where the reserve begins; without a bound and without this, a run is refused" },
	  .result = { "forever", WS_FIELD_BOOL, true } },
	{ .opt = { .name = "jobs", .key = KEY_JOBS, .type = CLI_UINT, .arg = "N",
		   .offset = AT(jobs), .min = 1, .max = WS_MAX_TARGETS,
		   .help = "write N files at once, FILE.1 ... FILE.N, one writer each (as fio numjobs; bounds apply to each); or name several FILEs" },
	  .result = { "jobs", WS_FIELD_UINT, true } },
	{ .opt = { .name = "file-size", .key = KEY_FILE_SIZE, .type = CLI_SIZE, .arg = "SIZE",
		   .min = 4 * WS_KIB, .align = 4 * WS_KIB,
		   .help = "wrap to offset 0 at SIZE and overwrite in place (default: the run's size; unbounded runs wrap where the reserve begins)" },
	  .wiring = true, .result = { "file_size", WS_FIELD_OWN } },
	{ .opt = { .name = "reserve", .key = KEY_RESERVE, .type = CLI_SIZE, .arg = "SIZE",
		   .help = "keep SIZE free on the filesystem (default 5% of its size, at most 1 GiB; 0: none)" },
	  .wiring = true, .result = { "reserve", WS_FIELD_OWN } },
	{ .opt = { .type = CLI_HEADING, .help = "Writing:" } },
	{ .opt = { .name = "buffer-size", .key = 'B', .type = CLI_SIZE, .arg = "SIZE",
		   .offset = AT(buffer_size), .min = 4 * WS_KIB, .max = WS_GIB,
		   .align = 4 * WS_KIB,
		   .help = "bytes per write, a multiple of 4 KiB (default {default})" },
	  .def = "8M", .result = { "buffer_size", WS_FIELD_BYTES, true } },
	{ .opt = { .name = "pace", .key = 'p', .type = CLI_CUSTOM, .arg = "MODE",
		   .help = "how the writer paces writeback (default {default}): window: sync_file_range windows as overwrite.c; none: plain buffered writes, like dd; fdatasync: every --sync-every buffers; direct: O_DIRECT; dontcache: RWF_DONTCACHE (Linux 6.14+); adaptive: windows sized so the probes wait about --target-latency" },
	  .def = "window", .words = ws_pace_words, .result = { "pace", WS_FIELD_OWN, true } },
	{ .opt = { .name = "fadvise", .key = 'f', .type = CLI_FLAG, .offset = AT(pacing.fadvise),
		   .help = "drop written pages with POSIX_FADV_DONTNEED once on disk (window, fdatasync, adaptive)" },
	  .result = { "fadvise", WS_FIELD_BOOL, true } },
	{ .opt = { .name = "window", .key = 'w', .type = CLI_UINT, .arg = "N",
		   .offset = AT(pacing.window), .min = 1, .max = 4096,
		   .help = "buffers in flight for --pace window (default {default}: write i, wait for i-1)" },
	  .def = "1", .result = { "window", WS_FIELD_UINT, true } },
	{ .opt = { .name = "sync-every", .key = KEY_SYNC_EVERY, .type = CLI_UINT, .arg = "N",
		   .offset = AT(pacing.sync_every), .min = 1, .max = 1u << 20,
		   .help = "buffers between fdatasync calls for --pace fdatasync (default {default})" },
	  .def = "1", .result = { "sync_every", WS_FIELD_UINT, true } },
	{ .opt = { .name = "target-latency", .key = KEY_TARGET_LATENCY, .type = CLI_DURATION,
		   .arg = "DURATION", .offset = AT(pacing.target_latency_ns),
		   .min = WS_NSEC_PER_MSEC, .max = 60 * WS_NSEC_PER_SEC,
		   .help = "for --pace adaptive: how long the probes may wait behind the writer (default {default}); refused below what a probe takes on the idle disk" },
	  .def = "100ms", .result = { "target_latency_ms", WS_FIELD_MS, true } },
	{ .opt = { .name = "steer-by", .key = KEY_STEER_BY, .type = CLI_CUSTOM, .arg = "LIST",
		   .help = "for --pace adaptive: the probes that must meet --target-latency, comma-separated: fsync, save, read, sqlite, dsync, cmd (default: every probe that runs but cmd); the slowest of them steers" },
	  .words = ws_probe_words, .result = { "steer_by", WS_FIELD_OWN, true } },
	{ .opt = { .name = "headroom", .key = KEY_HEADROOM, .type = CLI_UINT, .arg = "PCT",
		   .offset = AT(pacing.headroom_pct), .max = 50,
		   .help = "for --pace adaptive: keep the writer under (100 - PCT)% of the rate the disk showed, 0-50 (default {default}: none), so that an application's synchronous writes beside it often find the disk idle, not queued behind the writer" },
	  .def = "0", .result = { "headroom_pct", WS_FIELD_UINT, true } },
	{ .opt = { .name = "iodepth", .key = KEY_IODEPTH, .type = CLI_UINT, .arg = "N",
		   .offset = AT(pacing.iodepth), .min = 1, .max = 64,
		   .help = "writes in flight for --pace direct or dontcache, queued with io_uring (default {default}: one synchronous write at a time; falls back to that, with a warning, where io_uring is not permitted)" },
	  .def = "1", .result = { "iodepth", WS_FIELD_UINT, true } },
	{ .result = { "queue", WS_FIELD_OWN } },
	{ .opt = { .name = "rate", .key = 'r', .type = CLI_RATE, .arg = "RATE", .offset = AT(rate),
		   .help = "cap the average write rate, e.g. 50M/s" },
	  .result = { "rate_bytes_per_s", WS_FIELD_BYTES, true } },
	{ .opt = { .name = "data", .key = 'd', .type = CLI_CUSTOM, .arg = "KIND",
		   .help = "what the buffers hold (default {default}): random (incompressible, every 4 KiB block unique and stamped for verify), fixed (one random buffer, as overwrite.c), zero, compressible=PCT" },
	  .def = "random", .words = ws_data_words, .result = { "data", WS_FIELD_OWN, true } },
	{ .opt.offset = AT(compress_pct), .of = "data",
	  .result = { "compress_pct", WS_FIELD_UINT, true } },
	{ .opt = { .name = "seed", .key = KEY_SEED, .type = CLI_U64, .arg = "N",
		   .offset = AT(seed), .min = 1,
		   .help = "seed for random data (default: from the clock)" } },
	{ .opt = { .type = CLI_HEADING, .help = "Latency probes (what a desktop feels while the writer runs):" } },
	{ .opt = { .name = "probe", .key = KEY_PROBE, .type = CLI_CUSTOM, .arg = "LIST",
		   .help = "probes to run, comma-separated (default {default}): fsync (append + fsync: a mail client storing a message), save (write, fsync, rename, fsync dir: an editor saving), read (4 KiB of a cold block of --read-probe: an application starting), sqlite (a real SQLite commit: a mail store, a browser's history), dsync (in-place O_DSYNC overwrite: a database's WAL, ioping -W -y), cmd (your --probe-cmd)" },
	  .def = "fsync", .words = ws_probe_words, .result = { "probes", WS_FIELD_OWN, true } },
	{ .opt = { .name = "no-probe", .key = KEY_NO_PROBE, .type = CLI_CUSTOM,
		   .help = "run the writer alone" } },
	{ .opt = { .name = "probe-interval", .key = KEY_PROBE_INTERVAL, .type = CLI_DURATION,
		   .arg = "DURATION", .offset = AT(probe_interval_ns), .min = WS_NSEC_PER_MSEC,
		   .help = "time between the starts of a probe's operations (default {default})" },
	  .def = "100ms", .result = { "probe_interval_s", WS_FIELD_SECONDS, true } },
	{ .opt = { .name = "probe-size", .key = KEY_PROBE_SIZE, .type = CLI_SIZE, .arg = "SIZE",
		   .offset = AT(probe_size), .min = 1, .max = 64 * WS_MIB,
		   .help = "bytes per fsync, save, dsync probe or sqlite row (default {default})" },
	  .def = "4k", .result = { "probe_size", WS_FIELD_BYTES, true } },
	{ .opt = { .name = "probe-sync", .key = KEY_PROBE_SYNC, .type = CLI_CUSTOM, .arg = "CALL",
		   .offset = AT(probe_fdatasync),
		   .help = "fsync or fdatasync, for the fsync probe (default {default})" },
	  .def = "fsync", .words = WORDS("fsync", "fdatasync"),
	  .result = { "probe_fdatasync", WS_FIELD_BOOL, true } },
	{ .opt = { .name = "probe-dir", .key = KEY_PROBE_DIR, .type = CLI_STRING, .arg = "DIR",
		   .offset = AT(probe_dir),
		   .help = "where probe files live (default: FILE's directory); e.g. your home while FILE stresses /data" },
	  .result = { "probe_dir", WS_FIELD_TEXT } },
	{ .opt = { .name = "sqlite-journal", .key = KEY_SQLITE_JOURNAL, .type = CLI_CUSTOM,
		   .arg = "MODE", .offset = AT(sqlite.wal),
		   .help = "the sqlite probe's journal_mode: delete (a rollback journal) or wal (default {default})" },
	  .def = "delete", .words = WORDS("delete", "wal"),
	  .result = { "sqlite_journal", WS_FIELD_WORD, true } },
	{ .opt = { .name = "sqlite-sync", .key = KEY_SQLITE_SYNC, .type = CLI_CUSTOM,
		   .arg = "LEVEL", .offset = AT(sqlite.sync_normal),
		   .help = "the sqlite probe's synchronous: full or normal (default {default})" },
	  .def = "full", .words = WORDS("full", "normal"),
	  .result = { "sqlite_sync", WS_FIELD_WORD, true } },
	{ .opt = { .name = "probe-cmd", .key = KEY_PROBE_CMD, .type = CLI_CUSTOM,
		   .arg = "[NAME=]CMD",
		   .help = "time your own command at the probe interval, one at a time, with /bin/sh -c in the probe directory (adds the cmd probe; with --probe, name cmd there; repeatable, up to 4, e.g. mail='notmuch new'); a non-zero exit is a failed probe" },
	  .result = { "probe_cmds", WS_FIELD_OWN, true } },
	{ .opt = { .name = "probe-user", .key = KEY_PROBE_USER, .type = CLI_CUSTOM, .arg = "NAME",
		   .help = "who --probe-cmd commands run as when writestress runs as root (default nobody: never root unless named)" },
	  .wiring = true, .result = { "probe_user", WS_FIELD_OWN } },
	{ .opt = { .name = "probe-timeout", .key = KEY_PROBE_TIMEOUT, .type = CLI_DURATION,
		   .arg = "DURATION", .offset = AT(cmds.timeout_ns), .min = WS_NSEC_PER_MSEC,
		   .help = "a --probe-cmd command still running after this is killed, a failed probe (default {default})" },
	  .def = "30s", .result = { "probe_timeout_ms", WS_FIELD_MS } },
	{ .opt = { .name = "read-probe", .key = KEY_READ_PROBE, .type = CLI_STRING, .arg = "PATH",
		   .offset = AT(read_probe),
		   .help = "an existing file the read probe reads from (adds read to the probes)" },
	  .result = { "read_probe", WS_FIELD_TEXT } },
	{ .opt = { .name = "stall", .key = KEY_STALL, .type = CLI_DURATION, .arg = "DURATION",
		   .offset = AT(stall_ns), .min = WS_NSEC_PER_MSEC,
		   .help = "a probe at least this slow is a stall (default {default})" },
	  .def = "500ms", .result = { "stall_s", WS_FIELD_SECONDS, true } },
	{ .opt = { .type = CLI_HEADING, .help = "Analysis and results:" } },
	{ .opt = { .name = "json", .key = KEY_JSON, .type = CLI_STRING, .arg = "FILE",
		   .offset = AT(json_path),
		   .help = "write the complete result (configuration, series, probes, phases, steady state) as JSON ('-': to stdout, the rest to stderr)" } },
	{ .opt = { .name = "csv", .key = KEY_CSV, .type = CLI_STRING, .arg = "FILE",
		   .offset = AT(csv_path),
		   .help = "write the interval series as CSV, one row per interval ('-': to stdout)" } },
	{ .opt = { .name = "svg", .key = KEY_SVG, .type = CLI_STRING, .arg = "FILE",
		   .offset = AT(svg_path),
		   .help = "draw throughput over GiB written and probe latency over time as an SVG plot ('-': to stdout)" } },
	{ .opt = { .name = "prom", .key = KEY_PROM, .type = CLI_CUSTOM, .arg = "FILE",
		   .help = "keep the run's live state in FILE in the Prometheus text format, replaced atomically every interval and marked finished at the end, for node_exporter's textfile collector (name it *.prom in its directory; metrics in doc/metrics.md)" } },
	{ .opt = { .name = "until-steady", .key = KEY_UNTIL_STEADY, .type = CLI_FLAG,
		   .offset = AT(steady.until),
		   .help = "end the run once throughput is in steady state after preconditioning (see --precondition), or give up after --steady-max-rounds; --size, --time or -b still bound it" },
	  .result = { "until_steady", WS_FIELD_BOOL, true } },
	{ .opt = { .name = "steady-criterion", .key = KEY_STEADY_CRITERION, .type = CLI_CUSTOM,
		   .arg = "CRIT",
		   .help = "how a window of rounds is judged steady (default {default}): snia (range within 20% of the window's average and the fitted line's excursion within 10%), bw-slope:PCT (fio's ss=bw_slope: |slope| per round under PCT% of the average) or bw-dev:PCT (fio's ss=bw: every round within PCT% of the average)" },
	  .wiring = true, .def = "snia", .words = ws_steady_words,
	  .result = { "steady_criterion", WS_FIELD_OWN, true } },
	{ .opt = { .name = "steady-window", .key = KEY_STEADY_WINDOW, .type = CLI_UINT, .arg = "N",
		   .offset = AT(steady.window), .min = 2, .max = 1000,
		   .help = "rounds in a steady-state window (default {default})" },
	  .def = "5", .result = { "steady_window", WS_FIELD_UINT, true } },
	{ .opt = { .name = "steady-round", .key = KEY_STEADY_ROUND, .type = CLI_DURATION,
		   .arg = "DURATION", .offset = AT(steady.round_ns), .min = 10 * WS_NSEC_PER_MSEC,
		   .help = "length of one steady-state round (default {default}); a round's rate is what reached the disk in it, read off the progress marks" },
	  .def = "10s", .result = { "steady_round_s", WS_FIELD_SECONDS, true } },
	{ .opt = { .name = "precondition", .key = KEY_PRECONDITION, .type = CLI_CUSTOM,
		   .arg = "SIZE|Nx",
		   .help = "judge steady state only in windows that start after SIZE was written, or N times the capacity of the device under FILE (default with --until-steady: 2x, as SNIA PTS; otherwise 0)" },
	  .wiring = true, .result = { "precondition_bytes", WS_FIELD_OWN } },
	{ .of = "precondition", .result = { "precondition_capacity_x", WS_FIELD_OWN } },
	{ .opt = { .name = "steady-max-rounds", .key = KEY_STEADY_MAX_ROUNDS, .type = CLI_UINT,
		   .arg = "N", .offset = AT(steady.max_rounds), .min = 2, .max = 1000000,
		   .help = "--until-steady gives up, with the verdict \"not steady\", after N rounds past preconditioning (default 25, as SNIA PTS)" },
	  .result = { "steady_max_rounds", WS_FIELD_UINT, true } },
	{ .opt = { .name = "verify", .key = KEY_VERIFY, .type = CLI_FLAG,
		   .help = "after the run, read the file back from the disk and check every 4 KiB block by its stamp (random and compressible data; `writestress verify FILE` does the same later); a block not as written makes the exit status 1" },
	  .wiring = true },
	{ .opt = { .name = "bucket", .key = KEY_BUCKET, .type = CLI_SIZE, .arg = "SIZE",
		   .offset = AT(bucket), .min = WS_MIB,
		   .help = "bytes per cell of the throughput-over-bytes view (default: about 32 cells over the run)" },
	  .result = { "bucket", WS_FIELD_BYTES } },
	{ .opt = { .type = CLI_HEADING, .help = "System (privileged; checked with libcap, and every capability is dropped once set up):" } },
	{ .opt = { .name = "drop-caches", .key = KEY_DROP_CACHES, .type = CLI_FLAG,
		   .offset = AT(drop_caches),
		   .help = "sync and drop the page cache before the run (CAP_SYS_ADMIN)" },
	  .result = { "drop_caches", WS_FIELD_BOOL } },
	{ .opt = { .name = "scheduler", .key = KEY_SCHEDULER, .type = CLI_CUSTOM, .arg = "NAME",
		   .offset = AT(scheduler),
		   .help = "use this I/O scheduler on FILE's device for the run, and put the old one back at the end (CAP_SYS_ADMIN)" },
	  .result = { "scheduler", WS_FIELD_TEXT } },
	{ .opt = { .name = "ioprio", .key = KEY_IOPRIO, .type = CLI_CUSTOM, .arg = "CLASS[:LEVEL]",
		   .help = "I/O priority of the writer: rt (CAP_SYS_ADMIN), be or idle; LEVEL 0-7, default 4" },
	  .result = { "ioprio", WS_FIELD_OWN } },
	{ .opt = { .name = "trace", .key = KEY_TRACE, .type = CLI_FLAG,
		   .offset = AT(trace_required),
		   .help = "trace the device's block requests through a private tracefs instance (root; on by default where it can be): request counts, bytes and times per interval; with --trace a run that cannot trace fails" },
	  .result = { "trace", WS_FIELD_BOOL } },
	{ .opt = { .name = "no-trace", .key = KEY_NO_TRACE, .type = CLI_FLAG,
		   .offset = AT(no_trace),
		   .help = "do not trace the device's requests" },
	  .result = { "no_trace", WS_FIELD_BOOL } },
	{ .opt = { .name = "probe-ioprio", .key = KEY_PROBE_IOPRIO, .type = CLI_CUSTOM,
		   .arg = "CLASS[:LEVEL]",
		   .help = "I/O priority of the probes, as --ioprio" },
	  .result = { "probe_ioprio", WS_FIELD_OWN } },
	{ .opt = { .type = CLI_HEADING, .help = "Output and safety:" } },
	{ .opt = { .name = "interval", .key = 'i', .type = CLI_DURATION, .arg = "DURATION",
		   .offset = AT(interval_ns), .min = 10 * WS_NSEC_PER_MSEC,
		   .help = "reporting interval (default {default}, at least 10ms)" },
	  .def = "1s", .result = { "interval_s", WS_FIELD_SECONDS } },
	{ .opt = { .name = "quiet", .key = 'q', .type = CLI_FLAG,
		   .help = "no header, live line or interval lines: the summary only" },
	  .wiring = true },
	{ .opt = { .name = "verbose", .key = 'v', .type = CLI_FLAG,
		   .help = "the whole summary: after the verdict, where the writer's time went, the device, the journal, the flusher, each stall's evidence (always in --json)" },
	  .wiring = true },
	{ .opt = { .name = "color", .key = KEY_COLOR, .type = CLI_CUSTOM, .arg = "WHEN",
		   .help = "paint stalls red on the live line: auto (default: on a terminal that is not dumb, unless NO_COLOR is set), always or never" },
	  .wiring = true, .words = WORDS("auto", "never", "always") },
	{ .opt = { .name = "force", .key = KEY_FORCE, .type = CLI_FLAG,
		   .help = "allow overwriting an existing regular file writestress did not create: a FILE, or what --json, --csv, --svg or --prom would replace (without it a result replaces only a file writestress wrote, or an empty one)" },
	  .wiring = true },
	{ .opt = { .name = "truncate", .key = KEY_TRUNCATE, .type = CLI_FLAG,
		   .offset = AT(truncate),
		   .help = "empty an existing FILE before the run instead of rewriting it in place (on a discard mount the filesystem then TRIMs its old blocks, which hands an SSD erased blocks back)" },
	  .result = { "truncate", WS_FIELD_BOOL } },
	{ .opt = { .name = "remove", .key = KEY_REMOVE, .type = CLI_FLAG,
		   .help = "delete the file at the end (only a file writestress created, or took over with --force)" },
	  .wiring = true },
	{ .opt = { .name = "help", .key = 'h', .type = CLI_HELP,
		   .help = "show this help and exit" } },
	{ .opt = { .name = "version", .key = 'V', .type = CLI_VERSION,
		   .help = "show the version and exit" } },
};

/* The format's order (doc/result-json.md), not --help's. */
static const char *const result_order[] = {
	"file", "files", "jobs", "buffer_size", "total_bytes", "buffers",
	"time_s", "forever", "file_size", "reserve", "pace", "fadvise",
	"window", "sync_every", "iodepth", "target_latency_ms", "steer_by",
	"headroom_pct", "queue", "rate_bytes_per_s", "data", "compress_pct",
	"interval_s", "probe_size", "probe_interval_s", "probe_fdatasync",
	"stall_s", "until_steady", "steady_window", "steady_round_s",
	"steady_criterion", "precondition_bytes", "precondition_capacity_x",
	"steady_max_rounds", "truncate", "bucket", "probes", "probe_dir",
	"read_probe", "sqlite_journal", "sqlite_sync", "probe_cmds",
	"probe_user", "probe_timeout_ms", "drop_caches", "scheduler",
	"ioprio", "probe_ioprio", "trace", "no_trace",
};

const struct ws_field *ws_fields(size_t *n)
{
	*n = ARRAY_SIZE(fields);
	return fields;
}

const struct ws_field *ws_field_in_result(size_t i)
{
	return i < ARRAY_SIZE(result_order) ? ws_field_by_key(result_order[i]) : NULL;
}

const struct ws_field *ws_field_by_key(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].result.key && !strcmp(fields[i].result.key, key))
			return &fields[i];
	return NULL;
}

const struct ws_field *ws_field_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].opt.name && !strcmp(fields[i].opt.name, name))
			return &fields[i];
	return NULL;
}

const char *ws_field_option(const struct ws_field *f)
{
	return f->opt.name ? f->opt.name : f->of;
}

const char *ws_field_default(const char *name)
{
	const struct ws_field *f = ws_field_of(name);

	return f ? f->def : NULL;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);

	return n >= e && !strcmp(s + n - e, end);
}

/* A number's unit by its type, or by its key for the result's own. */
enum unit { U_NONE, U_SIZE, U_RATE, U_SECONDS, U_MS };

static enum unit unit_of(const struct ws_field *f)
{
	const char *key = f->result.key;

	if (f->result.type == WS_FIELD_SECONDS)
		return U_SECONDS;
	if (f->result.type == WS_FIELD_MS)
		return U_MS;
	if (ends_with(key, "_per_s"))
		return U_RATE;
	if (f->result.type == WS_FIELD_BYTES || ends_with(key, "_bytes") ||
	    ends_with(key, "_size"))
		return U_SIZE;
	return U_NONE;
}

/* The default in the value's unit (bytes, ns or a count); 0 without one
 * or with a rule for one. */
static double default_num(const struct ws_field *f, enum unit u)
{
	struct units_error err;
	uint64_t v;

	if (!f->def)
		return 0;
	if (u == U_SIZE && !units_parse_size(f->def, &v, &err))
		return (double)v;
	if ((u == U_SECONDS || u == U_MS) && !units_parse_duration(f->def, &v, &err))
		return (double)v;
	return strtod(f->def, NULL);
}

static void value_words(char *buf, size_t len, enum unit u, double v)
{
	char size[32];

	/* the run's header formats sizes and durations so */
	if (u == U_SIZE || u == U_RATE)
		snprintf(buf, len, "%s%s", units_format_size(size, sizeof(size), (uint64_t)v),
			 u == U_RATE ? "/s" : "");
	else if (u == U_SECONDS || u == U_MS)
		units_format_duration(buf, len, (uint64_t)v);
	else
		snprintf(buf, len, "%.15g", v);
}

char *ws_field_typed(const struct ws_field *f, double num, const char *text,
		     char *buf, size_t len)
{
	enum unit u = unit_of(f);
	char opt[48], value[64];

	buf[0] = '\0';
	if (f->opt.key > 0 && f->opt.key < 256)
		snprintf(opt, sizeof(opt), "-%c", f->opt.key);
	else
		snprintf(opt, sizeof(opt), "--%s", ws_field_option(f));
	if (text) {
		if (*text && !(f->def && !strcmp(text, f->def)))
			snprintf(buf, len, "%s %s", opt, text);
		return buf;
	}
	if (isnan(num) || num < 0)
		return buf;
	if (u == U_SECONDS)
		num = round(num * 1e9);
	else if (u == U_MS)
		num = round(num * 1e6);
	if (num == default_num(f, u))
		return buf;
	if (f->result.type == WS_FIELD_BOOL) {
		snprintf(buf, len, "%s", opt);	/* true: false is the default */
		return buf;
	}
	value_words(value, sizeof(value), u, num);
	snprintf(buf, len, "%s %s", opt, value);
	return buf;
}
