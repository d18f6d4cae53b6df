/* verify.c - `writestress verify FILE`: the subcommand over the engine's
 * read-back (readback.h). */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/units.h"
#include "engine/readback.h"
#include "outputs/human_summary.h"
#include "cmd/verify/verify.h"

struct verify_args {
	uint64_t run;
};

static int parse_run(void *dest, const char *arg, char *why)
{
	char *end;

	errno = 0;
	((struct verify_args *)dest)->run = strtoull(arg, &end, 16);
	if (!*arg || *end || errno) {
		snprintf(why, CLI_WHY_LEN, "expected the run's id in hex, as verify prints it");
		return -EINVAL;
	}
	return 0;
}

static const struct cli_option verify_opts[] = {
	{ .name = "run", .key = 256, .type = CLI_CUSTOM, .arg = "ID",
	  .parse = parse_run,
	  .help = "the run whose blocks are expected (default: the run of the first intact block)" },
	{ .name = "help", .key = 'h', .type = CLI_HELP,
	  .help = "show this help and exit" },
};

static void verify_help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress verify [OPTION]... FILE\n"
		"Read FILE, written by writestress with --data random or compressible, back\n"
		"from the disk and check every 4 KiB block by its stamp: intact, at the offset\n"
		"it was written for, of the run, and of the newest pass where that pass wrote.\n");
}

static void verify_help_tail(FILE *out)
{
	fprintf(out,
		"\nExit status:\n"
		"  0    every block of the newest run's extent as written (an earlier,\n"
		"       longer run's intact tail after it is named, not a failure)\n"
		"  1    a block corrupt, misplaced, lost, unstamped or of another run,\n"
		"       or no whole 4 KiB block to verify\n"
		"  2    invalid command line, or FILE cannot be read\n");
}

static const struct cli verify_cli = {
	.cmd = "writestress verify",
	.error_prefix = "verify: ",
	.opts = verify_opts,
	.nopts = ARRAY_SIZE(verify_opts),
	.help_head = verify_help_head,
	.help_tail = verify_help_tail,
};

const struct cli *verify_options(void)
{
	return &verify_cli;
}

int verify_main(int argc, char **argv)
{
	struct verify_args args = { 0 };
	struct ws_verify v;
	struct stat st;
	int first, fd, ret;

	switch (cli_parse(&verify_cli, argc, argv, &args, NULL, &first, stderr)) {
	case CLI_EXIT_OK:
		return 0;
	case CLI_USAGE:
		return 2;
	case CLI_RUN:
		break;
	}
	if (argc - first != 1) {
		cli_usage_error(&verify_cli, stderr, argc == first ?
				"missing FILE operand" : "one FILE only");
		return 2;
	}
	/* never through a symlink, only a regular file */
	fd = open(argv[first], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cli_error(&verify_cli, stderr, "cannot read '%s': %s", argv[first],
			fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return 2;
	}
	ret = readback_fd(fd, (uint64_t)st.st_size, args.run, &v);
	close(fd);
	if (ret) {
		cli_error(&verify_cli, stderr, "reading '%s': %s", argv[first],
			strerror(-ret));
		return 2;
	}
	human_verify_print(stdout, "", argv[first], &v);
	return readback_clean(&v) ? 0 : 1;
}
