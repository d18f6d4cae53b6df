/* The command line: opts.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "suites.h"
#include "lib/units.h"

/* Parse a NULL-terminated argument list; capture what went to stderr. */
static enum opts_result parse(struct ws_config *cfg, char *err, size_t errlen,
			      const char *const *args)
{
	char *argv[32];
	int argc = 0;
	FILE *f = fmemopen(err, errlen, "w");
	enum opts_result r;

	argv[argc++] = (char *)"writestress";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	r = opts_parse(argc, argv, cfg, f);
	fclose(f);
	return r;
}

START_TEST(test_overwrite_c_command_line)
{
	struct ws_config cfg;
	char err[512] = "";
	const char *args[] = { "-b", "3000", "-f", "/data/file", NULL };

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), args), OPTS_RUN);
	ck_assert_uint_eq(cfg.set.buffers, 3000);
	ck_assert(cfg.set.pacing.fadvise);
	ck_assert_int_eq(cfg.set.pace, WS_PACE_WINDOW);
	ck_assert_uint_eq(cfg.set.pacing.window, 1);
	ck_assert_uint_eq(cfg.set.buffer_size, 8 * WS_MIB);
	ck_assert_int_eq(cfg.set.data, WS_DATA_RANDOM);
	ck_assert_str_eq(cfg.set.path, "/data/file");
	ck_assert_str_eq(err, "");
}
END_TEST

/* The summary says steady state when a steady-state option asked for it,
 * even one set to its default; -v and -q are the summary's and the
 * live line's. */
static const struct {
	const char *args[6];
	bool asked, verbose;
} steady_asked[] = {
	{ { "-s", "1G", "f", NULL }, false, false },
	{ { "-s", "1G", "--until-steady", "f", NULL }, true, false },
	{ { "-s", "1G", "--steady-round", "10s", "f", NULL }, true, false },
	{ { "-s", "1G", "--steady-window", "5", "f", NULL }, true, false },
	{ { "-s", "1G", "--steady-criterion", "snia", "f", NULL }, true, false },
	{ { "-s", "1G", "--precondition", "0", "f", NULL }, true, false },
	{ { "-s", "1G", "-v", "f", NULL }, false, true },
	{ { "-s", "1G", "--verbose", "-q", "f", NULL }, false, true },
};

START_TEST(test_steady_asked)
{
	struct ws_config cfg;
	char err[512] = "";

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), steady_asked[_i].args), OPTS_RUN);
	ck_assert_int_eq(cfg.set.steady.asked, steady_asked[_i].asked);
	ck_assert_int_eq(cfg.verbose, steady_asked[_i].verbose);
}
END_TEST

START_TEST(test_long_options)
{
	struct ws_config cfg;
	char err[512] = "";
	const char *args[] = { "--buffer-size", "1MiB", "--size", "1.5G",
			       "--time", "2min", "--file-size", "64M", "--reserve", "0",
			       "--pace", "fdatasync", "--sync-every", "4", "--fadvise",
			       "--rate", "50M/s", "--data", "compressible=30",
			       "--seed", "9", "--interval", "250ms", "--quiet",
			       "--force", "--remove", "f", NULL };

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), args), OPTS_RUN);
	ck_assert_uint_eq(cfg.set.buffer_size, WS_MIB);
	ck_assert_uint_eq(cfg.set.total_size, 3 * WS_GIB / 2);
	ck_assert_uint_eq(cfg.set.duration_ns, 120 * WS_NSEC_PER_SEC);
	ck_assert_uint_eq(cfg.file_size, 64 * WS_MIB);
	ck_assert(cfg.reserve_set);
	ck_assert_uint_eq(cfg.reserve, 0);
	ck_assert_int_eq(cfg.set.pace, WS_PACE_FDATASYNC);
	ck_assert_uint_eq(cfg.set.pacing.sync_every, 4);
	ck_assert_uint_eq(cfg.set.rate, 50 * WS_MIB);
	ck_assert_int_eq(cfg.set.data, WS_DATA_COMPRESSIBLE);
	ck_assert_uint_eq(cfg.set.compress_pct, 30);
	ck_assert_uint_eq(cfg.set.seed, 9);
	ck_assert_uint_eq(cfg.set.interval_ns, 250 * WS_NSEC_PER_MSEC);
	ck_assert(cfg.quiet && cfg.force && cfg.remove_after && cfg.set.pacing.fadvise);
}
END_TEST

/* --steer-by: the kinds named, of those that run; none given: 0 (every
 * probe but a command steers) */
START_TEST(test_steer_by)
{
	struct ws_config cfg;
	char err[512] = "";
	const char *named[] = { "--pace", "adaptive", "--probe", "fsync,sqlite,dsync",
				"--steer-by", "sqlite,dsync", "-t", "1s", "f", NULL };
	const char *unnamed[] = { "--pace", "adaptive", "--probe", "fsync,sqlite", "-t", "1s", "f", NULL };

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), named), OPTS_RUN);
	ck_assert_uint_eq(cfg.set.pacing.steer_by, (1u << WS_PROBE_SQLITE) | (1u << WS_PROBE_DSYNC));
	ck_assert_int_eq(parse(&cfg, err, sizeof(err), unnamed), OPTS_RUN);
	ck_assert_uint_eq(cfg.set.pacing.steer_by, 0);
}
END_TEST

static const struct {
	const char *args[12];	/* NULL-terminated */
	const char *msg;	/* the first line of stderr */
} bad[] = {
	{ { "-B", "3x", "f" }, "writestress: invalid --buffer-size '3x': unknown suffix 'x' (B; binary: k K Ki KiB, m M Mi MiB, ... up to p P Pi PiB; decimal: kB KB MB GB TB PB)" },
	{ { "-B", "1000", "f" }, "writestress: invalid --buffer-size '1000': must be at least 4 KiB (did you mean 1000M?)" },
	{ { "-B", "6k", "f" }, "writestress: invalid --buffer-size '6k': must be a multiple of 4 KiB" },
	{ { "-B", "2G", "f" }, "writestress: invalid --buffer-size '2G': must be at most 1 GiB" },
	{ { "-b", "0", "f" }, "writestress: invalid --buffers '0': must be at least 1" },
	{ { "-b", "-5", "f" }, "writestress: invalid --buffers '-5': not a whole number" },
	{ { "--size", "0", "f" }, "writestress: invalid --size '0': must be greater than zero" },
	{ { "--time", "0", "f" }, "writestress: invalid --time '0': must be greater than zero" },
	{ { "--rate", "0", "f" }, "writestress: invalid --rate '0': must be greater than zero" },
	{ { "--window", "0", "f" }, "writestress: invalid --window '0': must be between 1 and 4096" },
	{ { "--pace", "bogus", "f" }, "writestress: invalid --pace 'bogus': unknown mode (window, none, fdatasync, direct, dontcache, adaptive)" },
	{ { "--fadvise", "--pace", "none", "f" }, "writestress: --fadvise needs --pace window or fdatasync or adaptive, not none" },
	{ { "--window", "2", "--pace", "direct", "f" }, "writestress: --window needs --pace window, not direct" },
	{ { "--sync-every", "2", "f" }, "writestress: --sync-every needs --pace fdatasync, not window" },
	{ { "--pace", "direct", "--size", "5000", "f" }, "writestress: invalid --size '5000': must be a multiple of 4 KiB with --pace direct" },
	{ { "--bogus", "f" }, "writestress: unknown option '--bogus'" },
	{ { "-Z", "f" }, "writestress: unknown option '-Z'" },
	{ { "-b" }, "writestress: option '-b' needs a value" },
	{ { "--size" }, "writestress: option '--size' needs a value" },
	{ { "--ioprio", "high", "f" }, "writestress: invalid --ioprio 'high': expected rt[:0-7], be[:0-7] or idle" },
	{ { "--ioprio", "idle:3", "f" }, "writestress: invalid --ioprio 'idle:3': the idle class has no level" },
	{ { "--probe-ioprio", "be:8", "f" }, "writestress: invalid --probe-ioprio 'be:8': must be between 0 and 7" },
	{ { "--scheduler", "mq deadline", "f" }, "writestress: invalid --scheduler 'mq deadline': expected a scheduler name such as mq-deadline, bfq, kyber or none" },
	{ { "--probe", "fsync,bogus", "f" }, "writestress: invalid --probe 'fsync,bogus': unknown probe 'bogus' (fsync, save, read, sqlite, dsync, cmd)" },
	{ { "--probe", "read", "f" }, "writestress: --probe read needs --read-probe PATH, an existing file to read from" },
	{ { "--stall", "0", "f" }, "writestress: invalid --stall '0': must be greater than zero" },
	{ { "--steady-window", "1", "f" }, "writestress: invalid --steady-window '1': must be between 2 and 1000" },
	{ { "--read-probe", "x", "--probe", "fsync", "f" }, "writestress: --read-probe needs read in --probe" },
	{ { "--probe", "save", "--probe-sync", "fdatasync", "f" }, "writestress: --probe-sync needs fsync in --probe" },
	{ { "--no-probe", "--probe-size", "8k", "f" }, "writestress: --probe-size needs fsync or save or sqlite or dsync in --probe" },
	{ { "--sqlite-journal", "truncate", "--probe", "sqlite", "f" }, "writestress: invalid --sqlite-journal 'truncate': expected delete or wal" },
	{ { "--sqlite-sync", "off", "f" }, "writestress: invalid --sqlite-sync 'off': expected full or normal" },
	{ { "--sqlite-sync", "normal", "f" }, "writestress: --sqlite-sync needs sqlite in --probe" },
	{ { "--steer-by", "fsync", "f" }, "writestress: --steer-by needs --pace adaptive, not window" },
	{ { "--pace", "adaptive", "--steer-by", "mail", "f" }, "writestress: invalid --steer-by 'mail': unknown probe 'mail' (a probe --probe runs, e.g. sqlite)" },
	{ { "--pace", "adaptive", "--steer-by", "sqlite", "f" }, "writestress: --steer-by sqlite: the sqlite probe does not run (add it to --probe)" },
	{ { "--probe-cmd", "fsync=x", "f" }, "writestress: invalid --probe-cmd 'fsync=x': the name 'fsync' is a probe's own; choose another" },
	{ { "--probe-cmd", "a=x", "--probe-cmd", "a=y", "f" }, "writestress: invalid --probe-cmd 'a=y': the name 'a' is taken by another --probe-cmd" },
	{ { "--probe-cmd", "", "f" }, "writestress: invalid --probe-cmd '': expected [NAME=]COMMAND, e.g. mail='notmuch new'" },
	{ { "--probe", "cmd", "f" }, "writestress: --probe cmd needs --probe-cmd [NAME=]CMD, a command to time" },
	{ { "--probe", "fsync", "--probe-cmd", "x", "f" }, "writestress: --probe-cmd needs cmd in --probe" },
	{ { "--probe-user", "no-such-user-ws", "f" }, "writestress: invalid --probe-user 'no-such-user-ws': no such user" },
	{ { "--probe-timeout", "0", "--probe-cmd", "x", "f" }, "writestress: invalid --probe-timeout '0': must be greater than zero" },
	{ { "-b", "10", "-s", "1G", "f" }, "writestress: -b 10 and --size both say how much to write: give one (-b 10 is 80.0 MiB of --buffer-size)" },
	{ { "--help=x", "f" }, "writestress: option '--help' takes no value" },
	/* nothing by accident: a bound, a unit in one word, no near-miss */
	{ { "f" }, "writestress: refusing to write 'f' without a bound: add -t 30s, -s 1G or -b 100 (or --forever, until interrupted)" },
	{ { "-B", "1M", "--pace", "none", "f" }, "writestress: refusing to write 'f' without a bound: add -t 30s, -s 1G or -b 100 (or --forever, until interrupted)" },
	{ { "--forever", "-t", "5s", "f" }, "writestress: --forever and --time: give one (--forever writes until interrupted)" },
	{ { "--forever", "-b", "5", "f" }, "writestress: --forever and --buffers: give one (--forever writes until interrupted)" },
	{ { "--forever", "--until-steady", "f" }, "writestress: --forever and --until-steady: give one (--forever writes until interrupted)" },
	{ { "-t", "5m", "f" }, "writestress: invalid --time '5m': 'm' is mebibytes, not minutes (did you mean 5min?)" },
	{ { "-t", "5", "min", "f" }, "writestress: invalid FILE 'min': a unit cut from its number: did you mean -t 5min? (a file really named so: ./min)" },
	{ { "--time", "5", "m", "f" }, "writestress: invalid FILE 'm': a unit cut from its number: did you mean --time 5min? (a file really named so: ./m)" },
	{ { "-t", "1s", "-B", "4", "MiB", "f" }, "writestress: invalid --buffer-size '4': must be at least 4 KiB (did you mean 4M?)" },
	{ { "-t", "1s", "--rate", "50M/s", "GiB", "f" }, "writestress: invalid FILE 'GiB': it reads as a unit, not a file; a unit follows its number with no space (a file really named so: ./GiB)" },
	{ { "--headroom", "5", "%", "--pace", "adaptive", "-t", "1s", "f" }, "writestress: invalid FILE '%': a unit cut from its number: did you mean --headroom 5? (a file really named so: ./%)" },
	{ { "-s", "4095", "f" }, "writestress: invalid --size '4095': must be at least 4 KiB (did you mean 4095M?)" },
	{ { "-s", "100", "M", "f" }, "writestress: invalid --size '100': must be at least 4 KiB (did you mean 100M?)" },
	{ { "--file-size", "100", "-t", "1s", "f" }, "writestress: invalid --file-size '100': must be at least 4 KiB (did you mean 100M?)" },
	{ { "-t", "1s", "matrx" }, "writestress: invalid FILE 'matrx': did you mean writestress matrix? (a file really named so: ./matrx)" },
	{ { "-t", "1s", "mtrx" }, "writestress: invalid FILE 'mtrx': did you mean writestress matrix? (a file really named so: ./mtrx)" },
	{ { "-t", "1s", "rport" }, "writestress: invalid FILE 'rport': did you mean writestress report? (a file really named so: ./rport)" },
	{ { "-t", "1s", "run" }, "writestress: invalid FILE 'run': writestress has no subcommand 'run'; a run is writestress [OPTION]... FILE (a file really named so: ./run)" },
	{ { "-t", "1s", "verify" }, "writestress: invalid FILE 'verify': a subcommand comes first, before any option: writestress verify ... (a file really named so: ./verify)" },
	{ { "--fadvise=1", "f" }, "writestress: option '--fadvise' takes no value" },
	{ { "--json", "", "f" }, "writestress: invalid --json '': empty value" },
	{ { NULL }, "writestress: missing FILE operand" },
	{ { "--jobs", "2", "a", "b" }, "writestress: unexpected argument 'b': --jobs 2 takes one FILE and writes FILE.1 ... FILE.2" },
	{ { "a", "b", "a" }, "writestress: invalid FILE 'a': named twice" },
	{ { "1", "2", "3", "4", "5", "6", "7", "8", "9" }, "writestress: too many FILE operands (9): at most 8 targets in one run" },
	{ { "--jobs", "9", "f" }, "writestress: invalid --jobs '9': must be between 1 and 8" },
	{ { "a", "" }, "writestress: invalid FILE '': empty name" },
};

/* The other side of the rules above: each runs. */
static const char *const good[][8] = {
	{ "-s", "4096", "f" },			/* one 4 KiB block */
	{ "-s", "4k", "f" },
	{ "-t", "5min", "f" },
	{ "-b", "1", "f" },
	{ "--forever", "f" },
	{ "--until-steady", "--precondition", "0", "f" },
	{ "-t", "1s", "mtx" },			/* three edits from matrix */
	{ "-t", "1s", "./run" },		/* a file named so, on purpose */
	{ "-t", "1s", "./matrx" },
	{ "-t", "1s", "minutes" },		/* no unit */
	{ "-t", "5", "f" },			/* bare: seconds */
};

START_TEST(test_good_input)
{
	struct ws_config cfg;
	char err[512] = "";

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), good[_i]), OPTS_RUN);
	ck_assert_str_eq(err, "");
}
END_TEST

/* Several targets: named, or --jobs copies of one, in order. */
START_TEST(test_targets)
{
	const char *named[] = { "-s", "8M", "x", "dir/y", "z", NULL };
	const char *jobs[] = { "--jobs", "3", "-t", "1s", "/mnt/f", NULL };
	struct ws_config cfg;
	char err[256] = "";

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), named), OPTS_RUN);
	ck_assert_uint_eq(cfg.ntargets, 3);
	ck_assert_str_eq(cfg.paths[1], "dir/y");
	ck_assert_str_eq(cfg.set.path, "x");
	ck_assert_int_eq(parse(&cfg, err, sizeof(err), jobs), OPTS_RUN);
	ck_assert_uint_eq(cfg.ntargets, 3);
	ck_assert_str_eq(cfg.set.path, "/mnt/f.1");
	ck_assert_str_eq(cfg.paths[2], "/mnt/f.3");
}
END_TEST

START_TEST(test_bad_input)
{
	struct ws_config cfg;
	char err[512] = "", *nl;

	ck_assert_int_eq(parse(&cfg, err, sizeof(err), bad[_i].args), OPTS_USAGE);
	nl = strchr(err, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_str_eq(nl + 1, "Try 'writestress --help' for more information.\n");
	*nl = '\0';
	ck_assert_str_eq(err, bad[_i].msg);
}
END_TEST

START_TEST(test_help_documents_units_and_status)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	opts_help(f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "--buffer-size"));
	ck_assert_ptr_nonnull(strstr(text, "MiB = 2^20"));
	ck_assert_ptr_nonnull(strstr(text, "MB = 10^6"));
	ck_assert_ptr_nonnull(strstr(text, "Exit status:"));
	ck_assert_ptr_nonnull(strstr(text, "130"));
	free(text);
}
END_TEST

Suite *opts_suite(void)
{
	Suite *s = suite_create("opts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_overwrite_c_command_line);
	tcase_add_test(tc, test_long_options);
	tcase_add_loop_test(tc, test_steady_asked, 0,
			    sizeof(steady_asked) / sizeof(steady_asked[0]));
	tcase_add_test(tc, test_steer_by);
	tcase_add_test(tc, test_targets);
	tcase_add_loop_test(tc, test_bad_input, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_loop_test(tc, test_good_input, 0, sizeof(good) / sizeof(good[0]));
	tcase_add_test(tc, test_help_documents_units_and_status);
	suite_add_tcase(s, tc);
	return s;
}
