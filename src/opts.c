/* opts.c - the option table, parsing and --help (see opts.h).
 *
 * Every option is one row of opt_table: its getopt_long entry, its setter
 * and its help text come from there, so adding an option touches one place.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "datagen.h"
#include "opts.h"
#include "pace.h"
#include "probe.h"
#include "units.h"

#define WHY_LEN 128

struct opt {
	const char *name;	/* NULL: a section heading (help only) */
	int key;		/* short option char, or >= 256 */
	const char *arg;	/* metavar; NULL: a flag */
	const char *help;
	int (*set)(struct ws_config *cfg, const char *arg, char *why);
};

enum {
	KEY_FILE_SIZE = 256, KEY_RESERVE, KEY_SYNC_EVERY, KEY_SEED, KEY_FORCE,
	KEY_REMOVE, KEY_PROBE, KEY_NO_PROBE, KEY_PROBE_INTERVAL, KEY_PROBE_SIZE,
	KEY_PROBE_SYNC, KEY_PROBE_DIR, KEY_READ_PROBE, KEY_STALL, KEY_JSON,
	KEY_CSV, KEY_SVG, KEY_UNTIL_STEADY, KEY_STEADY_WINDOW, KEY_STEADY_ROUND,
	KEY_BUCKET, KEY_DROP_CACHES, KEY_SCHEDULER, KEY_IOPRIO, KEY_PROBE_IOPRIO,
	KEY_STEADY_CRITERION, KEY_PRECONDITION, KEY_STEADY_MAX_ROUNDS,
	KEY_TRUNCATE,
};

#define SNIA_MAX_ROUNDS 25	/* SNIA PTS: steady within 25 rounds or not */

void config_defaults(struct ws_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->buffer_size = 8 * WS_MIB;
	cfg->pace = WS_PACE_WINDOW;
	cfg->window = 1;
	cfg->sync_every = 1;
	cfg->data = WS_DATA_RANDOM;
	cfg->interval_ns = WS_NSEC_PER_SEC;
	cfg->probes = 1u << WS_PROBE_FSYNC;
	cfg->probe_interval_ns = 100 * WS_NSEC_PER_MSEC;
	cfg->probe_size = 4 * WS_KIB;
	cfg->stall_ns = 500 * WS_NSEC_PER_MSEC;
	cfg->steady_window = 5;
	cfg->steady_round_ns = 10 * WS_NSEC_PER_SEC;
	cfg->steady_criterion = WS_STEADY_SNIA;
	cfg->steady_limit_pct = 20;
	cfg->steady_slope_pct = 10;
}

static int units_why(int ret, const struct units_error *e, char *why)
{
	snprintf(why, WHY_LEN, "%s", e->msg);
	return ret;
}

/* A plain decimal count in [min, max]. */
static int parse_count(const char *arg, uint64_t min, uint64_t max,
		       uint64_t *out, char *why)
{
	uint64_t v = 0;
	const char *p = arg;

	if (!*p) {
		snprintf(why, WHY_LEN, "empty value");
		return -EINVAL;
	}
	for (; *p; p++) {
		if (*p < '0' || *p > '9') {
			snprintf(why, WHY_LEN, "not a whole number");
			return -EINVAL;
		}
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v)) {
			snprintf(why, WHY_LEN, "too large");
			return -ERANGE;
		}
	}
	if (v < min || v > max) {
		snprintf(why, WHY_LEN, "must be between %llu and %llu",
			 (unsigned long long)min, (unsigned long long)max);
		return -ERANGE;
	}
	*out = v;
	return 0;
}

static int parse_size_min(const char *arg, uint64_t min, bool align4k,
			  uint64_t *out, char *why)
{
	struct units_error e;
	uint64_t v;
	int ret = units_parse_size(arg, &v, &e);

	if (ret)
		return units_why(ret, &e, why);
	if (v < min) {
		snprintf(why, WHY_LEN, v ? "must be at least %llu bytes"
					 : "must be greater than zero",
			 (unsigned long long)min);
		return -EINVAL;
	}
	if (align4k && v % (4 * WS_KIB)) {
		snprintf(why, WHY_LEN, "must be a multiple of 4 KiB");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int set_buffers(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_count(arg, 1, UINT64_MAX, &cfg->buffers, why);
}

static int set_buffer_size(struct ws_config *cfg, const char *arg, char *why)
{
	int ret = parse_size_min(arg, 4 * WS_KIB, true, &cfg->buffer_size, why);

	if (!ret && cfg->buffer_size > WS_GIB) {
		snprintf(why, WHY_LEN, "must be at most 1 GiB");
		ret = -ERANGE;
	}
	return ret;
}

static int set_size(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_size_min(arg, 1, false, &cfg->total_size, why);
}

static int set_file_size(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_size_min(arg, 4 * WS_KIB, true, &cfg->file_size, why);
}

static int set_reserve(struct ws_config *cfg, const char *arg, char *why)
{
	cfg->reserve_set = true;
	return parse_size_min(arg, 0, false, &cfg->reserve, why);
}

static int set_duration_min(const char *arg, uint64_t min, uint64_t *out,
			    char *why)
{
	struct units_error e;
	uint64_t v;
	int ret = units_parse_duration(arg, &v, &e);

	if (ret)
		return units_why(ret, &e, why);
	if (v < min) {
		char b[32];

		snprintf(why, WHY_LEN, v ? "must be at least %s" : "must be greater than zero",
			 units_format_duration(b, sizeof(b), min));
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int set_time(struct ws_config *cfg, const char *arg, char *why)
{
	return set_duration_min(arg, 1, &cfg->duration_ns, why);
}

static int set_interval(struct ws_config *cfg, const char *arg, char *why)
{
	return set_duration_min(arg, 10 * WS_NSEC_PER_MSEC, &cfg->interval_ns, why);
}

static int set_pace(struct ws_config *cfg, const char *arg, char *why)
{
	if (pace_by_name(arg, &cfg->pace))
		return 0;
	snprintf(why, WHY_LEN, "unknown mode (window, none, fdatasync, direct, dontcache)");
	return -EINVAL;
}

static int set_fadvise(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->fadvise = true;
	return 0;
}

static int set_window(struct ws_config *cfg, const char *arg, char *why)
{
	uint64_t v;
	int ret = parse_count(arg, 1, 4096, &v, why);

	if (!ret)
		cfg->window = (unsigned int)v;
	return ret;
}

static int set_sync_every(struct ws_config *cfg, const char *arg, char *why)
{
	uint64_t v;
	int ret = parse_count(arg, 1, 1u << 20, &v, why);

	if (!ret)
		cfg->sync_every = (unsigned int)v;
	return ret;
}

static int set_rate(struct ws_config *cfg, const char *arg, char *why)
{
	struct units_error e;
	uint64_t v;
	int ret = units_parse_rate(arg, &v, &e);

	if (ret)
		return units_why(ret, &e, why);
	if (!v) {
		snprintf(why, WHY_LEN, "must be greater than zero");
		return -EINVAL;
	}
	cfg->rate = v;
	return 0;
}

static int set_data(struct ws_config *cfg, const char *arg, char *why)
{
	if (!datagen_parse(arg, &cfg->data, &cfg->compress_pct))
		return 0;
	snprintf(why, WHY_LEN, "expected random, fixed, zero or compressible=PCT (PCT 0-100)");
	return -EINVAL;
}

static int set_seed(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_count(arg, 1, UINT64_MAX, &cfg->seed, why);
}

static int set_quiet(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->quiet = true;
	return 0;
}

static int set_force(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->force = true;
	return 0;
}

static int set_remove(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->remove_after = true;
	return 0;
}

static int set_probe(struct ws_config *cfg, const char *arg, char *why)
{
	char bad[32];

	if (!probe_parse_list(arg, &cfg->probes, bad, sizeof(bad)))
		return 0;
	snprintf(why, WHY_LEN, bad[0] ? "unknown probe '%s' (fsync, save, read)"
				       : "expected a list such as fsync,save%s", bad);
	return -EINVAL;
}

static int set_no_probe(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->probes = 0;
	return 0;
}

static int set_probe_interval(struct ws_config *cfg, const char *arg, char *why)
{
	return set_duration_min(arg, WS_NSEC_PER_MSEC, &cfg->probe_interval_ns, why);
}

static int set_probe_size(struct ws_config *cfg, const char *arg, char *why)
{
	int ret = parse_size_min(arg, 1, false, &cfg->probe_size, why);

	if (!ret && cfg->probe_size > 64 * WS_MIB) {
		snprintf(why, WHY_LEN, "must be at most 64 MiB");
		ret = -ERANGE;
	}
	return ret;
}

static int set_probe_sync(struct ws_config *cfg, const char *arg, char *why)
{
	if (!strcmp(arg, "fsync") || !strcmp(arg, "fdatasync")) {
		cfg->probe_fdatasync = arg[1] == 'd';
		return 0;
	}
	snprintf(why, WHY_LEN, "expected fsync or fdatasync");
	return -EINVAL;
}

static int set_probe_dir(struct ws_config *cfg, const char *arg, char *why)
{
	if (!*arg) {
		snprintf(why, WHY_LEN, "empty value");
		return -EINVAL;
	}
	cfg->probe_dir = arg;
	return 0;
}

static int set_read_probe(struct ws_config *cfg, const char *arg, char *why)
{
	if (!*arg) {
		snprintf(why, WHY_LEN, "empty value");
		return -EINVAL;
	}
	cfg->read_probe = arg;
	return 0;
}

static int set_stall(struct ws_config *cfg, const char *arg, char *why)
{
	return set_duration_min(arg, WS_NSEC_PER_MSEC, &cfg->stall_ns, why);
}

static int set_path(const char **out, const char *arg, char *why)
{
	if (!*arg) {
		snprintf(why, WHY_LEN, "empty file name");
		return -EINVAL;
	}
	*out = arg;
	return 0;
}

static int set_json(struct ws_config *cfg, const char *arg, char *why)
{
	return set_path(&cfg->json_path, arg, why);
}

static int set_csv(struct ws_config *cfg, const char *arg, char *why)
{
	return set_path(&cfg->csv_path, arg, why);
}

static int set_svg(struct ws_config *cfg, const char *arg, char *why)
{
	return set_path(&cfg->svg_path, arg, why);
}

static int set_until_steady(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->until_steady = true;
	return 0;
}

static int set_steady_window(struct ws_config *cfg, const char *arg, char *why)
{
	uint64_t v;
	int ret = parse_count(arg, 2, 1000, &v, why);

	if (!ret)
		cfg->steady_window = (unsigned int)v;
	return ret;
}

static int set_steady_round(struct ws_config *cfg, const char *arg, char *why)
{
	return set_duration_min(arg, 10 * WS_NSEC_PER_MSEC, &cfg->steady_round_ns, why);
}

static int set_steady_criterion(struct ws_config *cfg, const char *arg, char *why)
{
	struct ws_analysis_params p;

	analysis_defaults(&p);
	if (analysis_parse_criterion(arg, &p)) {
		snprintf(why, WHY_LEN, "expected snia, bw-slope:PCT or bw-dev:PCT (PCT in (0, 1000], e.g. bw-slope:0.5%%)");
		return -EINVAL;
	}
	cfg->steady_criterion = (int)p.criterion;
	cfg->steady_limit_pct = p.limit_pct;
	cfg->steady_slope_pct = p.slope_pct;
	return 0;
}

/* "2x" (times the device's capacity, a decimal number up to 1000) or a
 * SIZE ("0": judge from the start). */
static int set_precondition(struct ws_config *cfg, const char *arg, char *why)
{
	size_t n = strlen(arg);

	cfg->precondition_set = true;
	if (n && (arg[n - 1] == 'x' || arg[n - 1] == 'X')) {
		double v = 0, scale = 0.1;
		const char *p = arg;
		bool digits = false;

		for (; *p >= '0' && *p <= '9'; p++, digits = true)
			v = v * 10 + (*p - '0');
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10, digits = true)
				v += (*p - '0') * scale;
		if (!digits || p != arg + n - 1 || v > 1000) {
			snprintf(why, WHY_LEN, "expected a SIZE or a multiple of the device's capacity such as 2x (at most 1000x)");
			return -EINVAL;
		}
		cfg->precondition_mult = v;
		cfg->precondition_bytes = 0;
		return 0;
	}
	cfg->precondition_mult = 0;
	return parse_size_min(arg, 0, false, &cfg->precondition_bytes, why);
}

static int set_steady_max_rounds(struct ws_config *cfg, const char *arg, char *why)
{
	uint64_t v;
	int ret = parse_count(arg, 2, 1000000, &v, why);

	if (!ret)
		cfg->steady_max_rounds = (unsigned int)v;
	return ret;
}

static int set_truncate(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->truncate = true;
	return 0;
}

static int set_bucket(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_size_min(arg, WS_MIB, false, &cfg->bucket, why);
}

static int set_drop_caches(struct ws_config *cfg, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	cfg->drop_caches = true;
	return 0;
}

static int set_scheduler(struct ws_config *cfg, const char *arg, char *why)
{
	if (!*arg || strpbrk(arg, " /\n[]")) {
		snprintf(why, WHY_LEN, "expected a scheduler name such as mq-deadline, bfq, kyber or none");
		return -EINVAL;
	}
	cfg->scheduler = arg;
	return 0;
}

/* "rt", "be:4", "idle": the class (1..3) and level (0..7, default 4). */
static int parse_ioprio(const char *arg, int *class, int *level, char *why)
{
	static const char *const classes[] = { NULL, "rt", "be", "idle" };
	size_t n = strcspn(arg, ":");
	uint64_t v = 4;

	for (int c = 1; c <= 3; c++) {
		if (strlen(classes[c]) != n || strncmp(arg, classes[c], n))
			continue;
		if (arg[n] && (c == 3 || parse_count(arg + n + 1, 0, 7, &v, why))) {
			if (c == 3)
				snprintf(why, WHY_LEN, "the idle class has no level");
			return -EINVAL;
		}
		*class = c;
		*level = (int)v;
		return 0;
	}
	snprintf(why, WHY_LEN, "expected rt[:0-7], be[:0-7] or idle");
	return -EINVAL;
}

static int set_ioprio(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_ioprio(arg, &cfg->ioprio_class, &cfg->ioprio_level, why);
}

static int set_probe_ioprio(struct ws_config *cfg, const char *arg, char *why)
{
	return parse_ioprio(arg, &cfg->probe_ioprio_class, &cfg->probe_ioprio_level, why);
}

static const struct opt opt_table[] = {
	{ NULL, 0, NULL, "Run length (the first bound reached ends the run; with none, it runs until interrupted):", NULL },
	{ "buffers", 'b', "COUNT", "write COUNT buffers", set_buffers },
	{ "size", 's', "SIZE", "write SIZE bytes in total", set_size },
	{ "time", 't', "DURATION", "stop after DURATION", set_time },
	{ "file-size", KEY_FILE_SIZE, "SIZE", "wrap to offset 0 at SIZE and overwrite in place (default: the run's size; unbounded runs wrap where the reserve begins)", set_file_size },
	{ "reserve", KEY_RESERVE, "SIZE", "keep SIZE free on the filesystem (default 5% of its size, at most 1 GiB; 0: none)", set_reserve },
	{ NULL, 0, NULL, "Writing:", NULL },
	{ "buffer-size", 'B', "SIZE", "bytes per write, a multiple of 4 KiB (default 8M)", set_buffer_size },
	{ "pace", 'p', "MODE", "window (default): sync_file_range windows as overwrite.c; none: plain buffered writes, like dd; fdatasync: every --sync-every buffers; direct: O_DIRECT; dontcache: RWF_DONTCACHE (Linux 6.14+)", set_pace },
	{ "fadvise", 'f', NULL, "drop written pages with POSIX_FADV_DONTNEED once on disk (window, fdatasync)", set_fadvise },
	{ "window", 'w', "N", "buffers in flight for --pace window (default 1: write i, wait for i-1)", set_window },
	{ "sync-every", KEY_SYNC_EVERY, "N", "buffers between fdatasync calls for --pace fdatasync (default 1)", set_sync_every },
	{ "rate", 'r', "RATE", "cap the average write rate, e.g. 50M/s", set_rate },
	{ "data", 'd', "KIND", "random (default, refilled every buffer), fixed (one random buffer, as overwrite.c), zero, compressible=PCT", set_data },
	{ "seed", KEY_SEED, "N", "seed for random data (default: from the clock)", set_seed },
	{ NULL, 0, NULL, "Latency probes (what a desktop feels while the writer runs):", NULL },
	{ "probe", KEY_PROBE, "LIST", "probes to run, comma-separated: fsync (append + fsync, the mail client; default), save (write, fsync, rename, fsync dir: the editor), read (4 KiB of a cold block of --read-probe)", set_probe },
	{ "no-probe", KEY_NO_PROBE, NULL, "run the writer alone", set_no_probe },
	{ "probe-interval", KEY_PROBE_INTERVAL, "DURATION", "time between the starts of a probe's operations (default 100ms)", set_probe_interval },
	{ "probe-size", KEY_PROBE_SIZE, "SIZE", "bytes per fsync or save probe (default 4k)", set_probe_size },
	{ "probe-sync", KEY_PROBE_SYNC, "CALL", "fsync (default) or fdatasync, for the fsync probe", set_probe_sync },
	{ "probe-dir", KEY_PROBE_DIR, "DIR", "where probe files live (default: FILE's directory); e.g. your home while FILE stresses /data", set_probe_dir },
	{ "read-probe", KEY_READ_PROBE, "PATH", "an existing file the read probe reads from (adds read to the probes)", set_read_probe },
	{ "stall", KEY_STALL, "DURATION", "a probe at least this slow is a stall (default 500ms)", set_stall },
	{ NULL, 0, NULL, "Analysis and results:", NULL },
	{ "json", KEY_JSON, "FILE", "write the complete result (configuration, series, probes, phases, steady state) as JSON", set_json },
	{ "csv", KEY_CSV, "FILE", "write the interval series as CSV, one row per interval", set_csv },
	{ "svg", KEY_SVG, "FILE", "draw throughput over GiB written and probe latency over time as an SVG plot", set_svg },
	{ "until-steady", KEY_UNTIL_STEADY, NULL, "end the run once throughput is in steady state after preconditioning (see --precondition), or give up after --steady-max-rounds; --size, --time or -b still bound it", set_until_steady },
	{ "steady-criterion", KEY_STEADY_CRITERION, "CRIT", "how a window of rounds is judged steady: snia (default: range within 20% of the window's average and the fitted line's excursion within 10%), bw-slope:PCT (fio's ss=bw_slope: |slope| per round under PCT% of the average) or bw-dev:PCT (fio's ss=bw: every round within PCT% of the average)", set_steady_criterion },
	{ "steady-window", KEY_STEADY_WINDOW, "N", "rounds in a steady-state window (default 5)", set_steady_window },
	{ "steady-round", KEY_STEADY_ROUND, "DURATION", "length of one steady-state round (default 10s); a round's rate is what reached the disk in it, read off the progress marks", set_steady_round },
	{ "precondition", KEY_PRECONDITION, "SIZE|Nx", "judge steady state only in windows that start after SIZE was written, or N times the capacity of the device under FILE (default with --until-steady: 2x, as SNIA PTS; otherwise 0)", set_precondition },
	{ "steady-max-rounds", KEY_STEADY_MAX_ROUNDS, "N", "--until-steady gives up, with the verdict \"not steady\", after N rounds past preconditioning (default 25, as SNIA PTS)", set_steady_max_rounds },
	{ "bucket", KEY_BUCKET, "SIZE", "bytes per cell of the throughput-over-bytes view (default: about 32 cells over the run)", set_bucket },
	{ NULL, 0, NULL, "System (privileged; checked with libcap, and every capability is dropped once set up):", NULL },
	{ "drop-caches", KEY_DROP_CACHES, NULL, "sync and drop the page cache before the run (CAP_SYS_ADMIN)", set_drop_caches },
	{ "scheduler", KEY_SCHEDULER, "NAME", "use this I/O scheduler on FILE's device for the run, and put the old one back at the end (CAP_SYS_ADMIN)", set_scheduler },
	{ "ioprio", KEY_IOPRIO, "CLASS[:LEVEL]", "I/O priority of the writer: rt (CAP_SYS_ADMIN), be or idle; LEVEL 0-7, default 4", set_ioprio },
	{ "probe-ioprio", KEY_PROBE_IOPRIO, "CLASS[:LEVEL]", "I/O priority of the probes, as --ioprio", set_probe_ioprio },
	{ NULL, 0, NULL, "Output and safety:", NULL },
	{ "interval", 'i', "DURATION", "reporting interval (default 1s, at least 10ms)", set_interval },
	{ "quiet", 'q', NULL, "no header, live line or interval lines: the summary only", set_quiet },
	{ "force", KEY_FORCE, NULL, "allow overwriting an existing regular file writestress did not create", set_force },
	{ "truncate", KEY_TRUNCATE, NULL, "empty an existing FILE before the run instead of rewriting it in place (on a discard mount the filesystem then TRIMs its old blocks, which hands an SSD erased blocks back)", set_truncate },
	{ "remove", KEY_REMOVE, NULL, "delete the file at the end (only a file writestress created, or took over with --force)", set_remove },
	{ "help", 'h', NULL, "show this help and exit", NULL },
	{ "version", 'V', NULL, "show the version and exit", NULL },
};

#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct opt *find_opt(int key)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (opt_table[i].name && opt_table[i].key == key)
			return &opt_table[i];
	return NULL;
}

static void build_getopt(struct option *longs, char *shorts)
{
	size_t n = 0;
	char *s = shorts;

	*s++ = ':';	/* report a missing argument as ':' */
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt *o = &opt_table[i];

		if (!o->name)
			continue;
		longs[n++] = (struct option){ o->name, o->arg ? required_argument
							      : no_argument,
					      NULL, o->key };
		if (o->key < 256) {
			*s++ = (char)o->key;
			if (o->arg)
				*s++ = ':';
		}
	}
	longs[n] = (struct option){ 0 };
	*s = '\0';
}

static void usage_hint(FILE *err)
{
	fprintf(err, "Try 'writestress --help' for more information.\n");
}

static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;

	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);

		if (col > indent && col + 1 + len > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

void opts_help(FILE *out)
{
	fprintf(out,
		"Usage: writestress [OPTION]... FILE\n"
		"       writestress compare [--threshold PCT] A.json B.json\n"
		"Stream large buffers to FILE, pacing writeback with sync_file_range() like\n"
		"overwrite.c, and report throughput over time and where the time went.\n"
		"`writestress -b 3000 -f FILE` is the classic overwrite.c run.\n");
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt *o = &opt_table[i];
		char left[64];
		int n;

		if (!o->name) {
			fprintf(out, "\n%s\n", o->help);
			continue;
		}
		if (o->key < 256)
			n = snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->key,
				     o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			n = snprintf(left, sizeof(left), "      --%s%s%s", o->name,
				     o->arg ? " " : "", o->arg ? o->arg : "");
		fputs(left, out);
		if (n >= 25)
			fprintf(out, "\n%26s", "");
		else
			fprintf(out, "%*s", 26 - n, "");
		print_wrapped(out, o->help, 26, 79);
	}
	fprintf(out,
		"\nUnits:\n"
		"  SIZE      bytes; k K KiB = 2^10, M MiB = 2^20, G GiB = 2^30, T TiB = 2^40;\n"
		"            kB KB = 10^3, MB = 10^6, GB = 10^9, TB = 10^12 (e.g. 4k 8M 1.5G 2T)\n"
		"  DURATION  ns us ms s m min h d; a bare number is seconds (e.g. 500ms 30s 10m 2h)\n"
		"  RATE      a SIZE per second (e.g. 50M/s)\n"
		"  Output is always binary: MiB = 2^20 bytes, GiB = 2^30 bytes, MiB/s.\n"
		"\nExit status:\n"
		"  0    the run reached its bound\n"
		"  1    runtime failure (I/O error, no space left, cannot open FILE)\n"
		"  2    invalid command line\n"
		"  3    refused to touch FILE (symlink, not a regular file, not created by\n"
		"       writestress, or the run would eat into the reserve)\n"
		"  130  stopped by SIGINT, 143 stopped by SIGTERM (the summary is printed)\n");
}

__attribute__((format(printf, 2, 3)))
static enum opts_result usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	fprintf(err, "writestress: ");
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	usage_hint(err);
	return OPTS_USAGE;
}

/* Options that make sense only together. */
static enum opts_result check_combinations(struct ws_config *cfg,
					   const bool *seen, FILE *err)
{
	const char *pace = pace_modes[cfg->pace]->name;

	if (cfg->fadvise && cfg->pace != WS_PACE_WINDOW &&
	    cfg->pace != WS_PACE_FDATASYNC)
		return usage_error(err, "--fadvise needs --pace window or fdatasync, not %s",
				   pace);
	if (seen['w'] && cfg->pace != WS_PACE_WINDOW)
		return usage_error(err, "--window needs --pace window, not %s", pace);
	if (seen[KEY_SYNC_EVERY] && cfg->pace != WS_PACE_FDATASYNC)
		return usage_error(err, "--sync-every needs --pace fdatasync, not %s",
				   pace);
	if (seen[KEY_READ_PROBE] && !seen[KEY_PROBE])
		cfg->probes |= 1u << WS_PROBE_READ;
	if ((cfg->probes & (1u << WS_PROBE_READ)) && !cfg->read_probe)
		return usage_error(err, "--probe read needs --read-probe PATH, an existing file to read from");
	if (seen[KEY_READ_PROBE] && !(cfg->probes & (1u << WS_PROBE_READ)))
		return usage_error(err, "--read-probe needs read in --probe");
	if (cfg->steady_round_ns < cfg->interval_ns)
		return usage_error(err, "invalid --steady-round: shorter than the --interval it is made of");
	if (seen[KEY_STEADY_MAX_ROUNDS] && !cfg->until_steady)
		return usage_error(err, "--steady-max-rounds needs --until-steady");
	if (cfg->until_steady && !seen[KEY_STEADY_MAX_ROUNDS])
		cfg->steady_max_rounds = cfg->steady_window > SNIA_MAX_ROUNDS ?
					 cfg->steady_window : SNIA_MAX_ROUNDS;
	if (cfg->steady_max_rounds && cfg->steady_max_rounds < cfg->steady_window)
		return usage_error(err, "invalid --steady-max-rounds '%u': fewer than the %u rounds of one --steady-window",
				   cfg->steady_max_rounds, cfg->steady_window);
	if (cfg->pace == WS_PACE_DIRECT && cfg->total_size % (4 * WS_KIB))
		return usage_error(err, "invalid --size '%llu': must be a multiple of 4 KiB with --pace %s",
				   (unsigned long long)cfg->total_size, pace);
	return OPTS_RUN;
}

enum opts_result opts_parse(int argc, char **argv, struct ws_config *cfg,
			    FILE *err)
{
	struct option longs[NOPTS + 1];
	char shorts[2 * NOPTS + 2];
	bool seen[512] = { false };
	int c;

	config_defaults(cfg);
	build_getopt(longs, shorts);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct opt *o;
		char why[WHY_LEN] = "";

		if (c == 'h') {
			opts_help(stdout);
			return OPTS_EXIT_OK;
		}
		if (c == 'V') {
			printf("writestress %s\n", WS_VERSION);
			return OPTS_EXIT_OK;
		}
		if (c == '?' || c == ':') {
			const char *what = optopt ? NULL : argv[optind - 1];
			char shortopt[3] = { '-', (char)optopt, 0 };

			if (c == ':')
				return usage_error(err, "option '%s' needs a value",
						   strncmp(argv[optind - 1], "--", 2) ?
						   shortopt : argv[optind - 1]);
			return usage_error(err, "unknown option '%s'",
					   what ? what : shortopt);
		}
		o = find_opt(c);
		if (o->set(cfg, optarg, why))
			return usage_error(err, "invalid --%s '%s': %s", o->name,
					   optarg, why);
		seen[c] = true;
	}
	if (optind == argc)
		return usage_error(err, "missing FILE operand");
	if (optind + 1 < argc)
		return usage_error(err, "unexpected argument '%s' (one FILE only)",
				  argv[optind + 1]);
	cfg->path = argv[optind];
	if (!*cfg->path)
		return usage_error(err, "invalid FILE '': empty name");
	return check_combinations(cfg, seen, err);
}
