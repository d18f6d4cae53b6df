/* verify.c - reading a file back by its block stamps (see verify.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "outputs/human_summary.h"
#include "lib/units.h"
#include "cmd/verify/verify.h"

#define CHUNK (1024 * 1024)

static void note_bad(struct ws_verify *v, uint64_t offset,
		     enum ws_block_state state, bool stale, uint64_t found)
{
	if (v->nlisted < WS_VERIFY_LISTED)
		v->listed[v->nlisted++] = (struct ws_verify_bad){
			.offset = offset, .state = state, .stale = stale,
			.found = found };
}

/* Consecutive blocks of one pass (UINT32_MAX: blocks without one to
 * judge): a healthy file has one or two such runs, so memory follows
 * the damage, not the file's size. */
struct pass_run {
	uint64_t first, n;
	uint32_t pass;
};

struct pass_runs {
	struct pass_run *r;
	size_t n, cap;
};

static int add_block(struct pass_runs *pr, uint64_t b, uint32_t pass)
{
	if (pr->n && pr->r[pr->n - 1].pass == pass) {
		pr->r[pr->n - 1].n++;
		return 0;
	}
	if (pr->n == pr->cap) {
		size_t cap = pr->cap ? 2 * pr->cap : 64;
		struct pass_run *r = realloc(pr->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		pr->r = r;
		pr->cap = cap;
	}
	pr->r[pr->n++] = (struct pass_run){ .first = b, .n = 1, .pass = pass };
	return 0;
}

/* Before the newest pass's end every block carries that pass: the ones
 * that carry an older one are lost writes. */
static void judge_passes(const struct pass_runs *pr, struct ws_verify *v)
{
	for (size_t i = 0; i < pr->n; i++) {
		const struct pass_run *r = &pr->r[i];

		if (r->first * WS_BLOCK >= v->last_pass_end)
			break;
		if (r->pass == UINT32_MAX || r->pass == v->last_pass)
			continue;
		v->stale += r->n;
		v->count[WS_BLOCK_OK] -= r->n;
		for (uint64_t k = 0; k < r->n && v->nlisted < WS_VERIFY_LISTED; k++)
			note_bad(v, (r->first + k) * WS_BLOCK, WS_BLOCK_OK, true, 0);
	}
}

/* The blocks after the run's last one, all of another single run, intact
 * and in place: an earlier run's tail, taken out of the failures (and out
 * of the first ones listed). */
static void set_aside_tail(struct ws_verify *v, uint64_t tail, bool pure)
{
	unsigned int k = 0;

	if (!pure || !tail || !v->run_end)
		return;
	v->older_tail = tail;
	v->count[WS_BLOCK_OTHER_RUN] -= tail;
	for (unsigned int i = 0; i < v->nlisted; i++)
		if (v->listed[i].offset < v->run_end)
			v->listed[k++] = v->listed[i];
	v->nlisted = k;
}

int verify_fd(int fd, uint64_t size, uint64_t run, struct ws_verify *v)
{
	uint64_t nblocks = size / WS_BLOCK, b = 0, tail = 0;
	struct pass_runs pr = { 0 };
	bool pure_tail = true;
	char *buf = NULL;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	v->run = run;
	/* read what is on the disk, not what the page cache kept */
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (posix_memalign((void **)&buf, 4096, CHUNK)) {
		buf = NULL;
		ret = -ENOMEM;
		goto out;
	}
	while (b < nblocks) {
		size_t want = (nblocks - b) * WS_BLOCK < CHUNK ?
			      (size_t)((nblocks - b) * WS_BLOCK) : CHUNK;
		ssize_t n = pread(fd, buf, want, (off_t)(b * WS_BLOCK));

		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (n < WS_BLOCK)
			break;	/* the file shrank while read */
		for (size_t i = 0; i + WS_BLOCK <= (size_t)n; i += WS_BLOCK, b++) {
			struct ws_block_stamp st;
			enum ws_block_state s;

			s = ws_block_check(buf + i, b * WS_BLOCK, v->run, &st);
			if (s == WS_BLOCK_OK && !v->run)
				v->run = st.run;
			v->count[s]++;
			v->blocks++;
			if (s == WS_BLOCK_OK) {
				v->run_end = (b + 1) * WS_BLOCK;
				tail = 0;
				pure_tail = true;
			} else if (s == WS_BLOCK_OTHER_RUN &&
				   (!tail || st.run == v->older_run)) {
				v->older_run = st.run;
				tail++;
			} else {
				pure_tail = false;
			}
			if (s != WS_BLOCK_OK)
				note_bad(v, b * WS_BLOCK, s, false, st.offset);
			else if (st.pass >= v->last_pass) {
				v->last_pass = st.pass;
				v->last_pass_end = (b + 1) * WS_BLOCK;
			}
			ret = add_block(&pr, b, s == WS_BLOCK_OK ? st.pass : UINT32_MAX);
			if (ret)
				goto out;
		}
	}
	judge_passes(&pr, v);
	set_aside_tail(v, tail, pure_tail);
	if (!v->older_tail)
		v->older_run = 0;
out:
	v->err = -ret;
	/* nothing to check is no pass */
	v->clean = !ret && v->count[WS_BLOCK_OK] &&
		   v->count[WS_BLOCK_OK] + v->older_tail == v->blocks;
	free(pr.r);
	free(buf);
	return ret;
}

int verify_clean(const struct ws_verify *v)
{
	return v->clean;
}

/* ---- the command ---------------------------------------------------- */

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

/* The table, for tests that hold every option to its stated bounds and
 * for whatever else reads the options (completion). */
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
		fprintf(stderr, "writestress: verify: cannot read '%s': %s\n", argv[first],
			fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return 2;
	}
	ret = verify_fd(fd, (uint64_t)st.st_size, args.run, &v);
	close(fd);
	if (ret) {
		fprintf(stderr, "writestress: verify: reading '%s': %s\n", argv[first],
			strerror(-ret));
		return 2;
	}
	human_verify_print(stdout, "", argv[first], &v);
	return verify_clean(&v) ? 0 : 1;
}
