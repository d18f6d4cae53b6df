/* opts.c - the run's command line: the settings table's rows
 * (record/fields.c, through config/options.c) in --help's frame.
 * The rules between rows are opts_rules.c's.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "config/options.h"
#include "lib/c.h"
#include "lib/cli.h"
#include "opts.h"
#include "record/fields.h"
#include "version.h"

static void help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress [OPTION]... FILE [FILE]...\n"
		"       writestress compare [--threshold PCT] A.json B.json\n"
		"       writestress report [--by KEY] [--json|--csv|--svg F] RESULT.json...|DIR\n"
		"       writestress verify [--run ID] FILE\n"
		"       writestress matrix [--strategies LIST] [--each SIZE|TIME] FILE\n"
		"       writestress watch [--probe LIST] [--probe-dir DIR] (-t DURATION|--forever)\n"
		"Stream large buffers to FILE, pacing writeback with sync_file_range() like\n"
		"overwrite.c, and report throughput over time, where the time went and what\n"
		"a mail client's fsync felt meanwhile.\n"
		"\nExamples:\n"
		"  writestress -t 30s /mnt/test/f.dat       a first run: 30 s, then the summary\n"
		"  writestress -b 3000 -f /mnt/test/f.dat   the classic overwrite.c run (23.4 GiB)\n"
		"  writestress --until-steady -t 2h --json ssd.json /mnt/ssd/f.dat\n"
		"                                           an SSD's steady state, SNIA-style\n");
}

static void help_tail(FILE *out)
{
	fprintf(out,
		"\nUnits:\n"
		"  SIZE      bytes, B; k K KiB = 2^10, m M MiB = 2^20, g G GiB = 2^30, T TiB;\n"
		"            kB KB = 10^3, MB = 10^6, GB = 10^9, TB = 10^12 (e.g. 4k 8M 1.5G 2T)\n"
		"  DURATION  ns us/µs ms s min h d; bare: seconds (e.g. 500ms 30s 10min 2h);\n"
		"            m is mebibytes everywhere, never minutes\n"
		"  RATE      a SIZE per second, with a unit (e.g. 50M/s; 50B/s for bytes)\n"
		"  Output is always binary: MiB = 2^20 bytes, GiB = 2^30 bytes, MiB/s.\n"
		"\nExit status:\n"
		"  0    the run reached its bound\n"
		"  1    runtime failure (I/O error, no space left, cannot open FILE)\n"
		"  2    invalid command line\n"
		"  3    refused to touch FILE (symlink, not a regular file, not created by\n"
		"       writestress, or the run would eat into the reserve), or a result\n"
		"       file that writestress did not write\n"
		"  130  stopped by SIGINT, 143 stopped by SIGTERM (the summary is printed),\n"
		"  141  stdout closed by its reader (the summary on stderr)\n");
}

/* for "unknown option"; dd's bs= count= are operands (opts_rules.c) */
static const struct cli_alias fio_names[] = {
	{ "bs", "fio", "-B/--buffer-size" },
	{ "blocksize", "fio", "-B/--buffer-size" },
	{ "runtime", "fio", "-t/--time" },
	{ "filename", "fio", "FILE, an operand" },
	{ "numjobs", "fio", "--jobs" },
	{ "direct", "fio", "--pace direct" },
	{ "ioengine", "fio", "--pace direct --iodepth N (io_uring)" },
	{ "rate_iops", "fio", "-r/--rate in bytes a second" },
	{ NULL, NULL, NULL }
};

/* Completion's words where a row's own do not do: a word that takes a
 * value ("compressible=PCT") is offered as the prefix it follows. */
static const char *const *run_words_of(const char *name)
{
	static const char *const data[] = { "random", "fixed", "zero", "compressible=", NULL };
	static const char *const criteria[] = { "snia", "bw-slope:", "bw-dev:", NULL };
	static const char *ioprio[WS_IOPRIO_IDLE - WS_IOPRIO_RT + 2];
	const struct ws_field *f;

	if (!strcmp(name, "data"))
		return data;
	if (!strcmp(name, "steady-criterion"))
		return criteria;
	if (!strcmp(name, "scheduler"))
		return ws_blk_schedulers;
	if (!strcmp(name, "ioprio") || !strcmp(name, "probe-ioprio")) {
		for (int c = WS_IOPRIO_RT; c <= WS_IOPRIO_IDLE; c++)
			ioprio[c - WS_IOPRIO_RT] = ws_ioprio_class_name(c);
		return ioprio;
	}
	f = ws_field_of(name);
	return f ? f->words : NULL;
}

static struct cli run_cli = {
	.cmd = "writestress",
	.help_head = help_head,
	.help_tail = help_tail,
	.aliases = fio_names,
	.default_of = ws_field_default,
	.words_of = run_words_of,
	.version = version_print,
};
static pthread_once_t run_cli_once = PTHREAD_ONCE_INIT;

static void run_cli_rows(void)
{
	run_cli.opts = config_options(&run_cli.nopts);
}

const struct cli *opts_cli(void)
{
	pthread_once(&run_cli_once, run_cli_rows);
	return &run_cli;
}

void opts_help(FILE *out)
{
	cli_help(opts_cli(), out);
}
