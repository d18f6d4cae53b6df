/* test_sysfs.c - /sys and /proc read through a root prefix, on small
 * trees made for each test in a temporary directory: sysfs_read's trimming
 * and cutting (missing, empty, no trailing newline, oversized, a FIFO that
 * hands its text out in pieces), the integer readers' accepted and refused
 * forms, readlink as stored, sysfs_resolve's lexical resolution (relative
 * links against the link's directory, absolute ones taken as root-relative,
 * ".." never above "/"), sysfs_list's sorted, bounded names, sysfs_exists,
 * and the pure helper sysfs_path. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "suites.h"
#include "system/sysfs.h"

static char root[64];

static void tree_setup(void)
{
	snprintf(root, sizeof(root), "/tmp/ws-sysfs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static int remove_entry(const char *p, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void tree_teardown(void)
{
	ck_assert_int_eq(nftw(root, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* root + rel, its parent directories made */
static const char *at(const char *rel)
{
	static char full[PATH_MAX];
	char *slash;

	snprintf(full, sizeof(full), "%s%s", root, rel);
	for (slash = strchr(full + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		ck_assert_msg(mkdir(full, 0755) == 0 || errno == EEXIST, "%s: %s",
			      full, strerror(errno));
		*slash = '/';
	}
	return full;
}

/* A file at rel holding len bytes of text exactly. */
static void put_n(const char *rel, const char *text, size_t len)
{
	const char *p = at(rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_msg(fd >= 0, "%s: %s", p, strerror(errno));
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

static void put(const char *rel, const char *text)
{
	put_n(rel, text, strlen(text));
}

static void ln(const char *rel, const char *target)
{
	const char *p = at(rel);

	ck_assert_msg(symlink(target, p) == 0, "%s: %s", p, strerror(errno));
}

static void dir_at(const char *rel)
{
	const char *p = at(rel);

	ck_assert_msg(mkdir(p, 0755) == 0, "%s: %s", p, strerror(errno));
}

/* ---- sysfs_read ---- */

static const struct {
	const char *text;
	size_t len;	/* the caller's buffer */
	int ret;
	const char *want;
} reads[] = {
	{ "4096\n", 64, 4, "4096" },
	{ "4096", 64, 4, "4096" },		/* no trailing newline */
	{ "", 64, 0, "" },			/* empty */
	{ "\n", 64, 0, "" },
	{ " \t\n \n", 64, 0, "" },		/* white space only */
	{ "  [mq-deadline] none \n", 64, 18, "[mq-deadline] none" },
	{ "\t 7 \t\n", 64, 1, "7" },
	{ "some 1 2 3\nfull 4 5 6\n", 64, 21, "some 1 2 3\nfull 4 5 6" },
	/* longer than the buffer: cut at len - 1, then trimmed */
	{ "0123456789\n", 5, 4, "0123" },
	{ "ab   cdef\n", 6, 2, "ab" },
	{ "0123456789", 11, 10, "0123456789" },	/* just fits */
	{ "0123456789\n", 11, 10, "0123456789" },	/* the newline cut */
	{ "0123456789", 10, 9, "012345678" },
	{ "x\n", 1, 0, "" },			/* room for the NUL only */
};

START_TEST(test_read)
{
	char buf[128];

	put("/sys/block/sda/queue/attr", reads[_i].text);
	memset(buf, '#', sizeof(buf));
	ck_assert_int_eq(sysfs_read(root, "/sys/block/sda/queue/attr", buf,
				    reads[_i].len), reads[_i].ret);
	ck_assert_str_eq(buf, reads[_i].want);
	ck_assert_int_eq(buf[reads[_i].len], '#');	/* nothing past len */
}
END_TEST

/* Bigger than a page, bigger than the buffer: cut, not an error. */
START_TEST(test_read_oversized)
{
	static char text[10000], buf[8192 + 1];

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	put_n("/proc/big", text, sizeof(text));
	buf[8192] = '#';
	ck_assert_int_eq(sysfs_read(root, "/proc/big", buf, 8192), 8191);
	ck_assert_int_eq(memcmp(buf, text, 8191), 0);
	ck_assert_int_eq(buf[8191], '\0');
	ck_assert_int_eq(buf[8192], '#');
}
END_TEST

START_TEST(test_read_errors)
{
	char buf[64] = "untouched";

	put("/sys/file", "1\n");
	dir_at("/sys/dir");
	ck_assert_int_eq(sysfs_read(root, "/sys/file", buf, 0), -EINVAL);
	ck_assert_str_eq(buf, "untouched");
	ck_assert_int_eq(sysfs_read(root, "/sys/missing", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(sysfs_read(root, "/nodir/missing", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(sysfs_read(root, "/sys/file/below", buf, sizeof(buf)),
			 -ENOTDIR);
	ck_assert_int_eq(sysfs_read(root, "/sys/dir", buf, sizeof(buf)), -EISDIR);
}
END_TEST

/* Links are followed when reading, relative ones inside the tree. */
START_TEST(test_read_through_symlink)
{
	char buf[64];

	put("/sys/devices/pci0/block/sda/size", "976773168\n");
	ln("/sys/block/sda", "../devices/pci0/block/sda");
	ln("/sys/block/dangling", "../devices/none");
	ck_assert_int_eq(sysfs_read(root, "/sys/block/sda/size", buf, sizeof(buf)), 9);
	ck_assert_str_eq(buf, "976773168");
	ck_assert_int_eq(sysfs_read(root, "/sys/block/dangling/size", buf,
				    sizeof(buf)), -ENOENT);
}
END_TEST

/* "" and NULL both mean the live system: the path is used as it is. */
START_TEST(test_read_no_root)
{
	char buf[64], full[PATH_MAX];

	put("/proc/sys/kernel/osrelease", "6.1.0-test\n");
	snprintf(full, sizeof(full), "%s/proc/sys/kernel/osrelease", root);
	ck_assert_int_eq(sysfs_read("", full, buf, sizeof(buf)), 10);
	ck_assert_str_eq(buf, "6.1.0-test");
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(sysfs_read(NULL, full, buf, sizeof(buf)), 10);
	ck_assert_str_eq(buf, "6.1.0-test");
}
END_TEST

/* A /proc file may take several reads: a FIFO whose writer gives "ab",
 * waits until it has been read, then gives "cd\n". */
START_TEST(test_read_in_pieces)
{
	char buf[64];
	const char *p = at("/proc/pieces");
	pid_t pid, parent = getpid();
	int status;

	ck_assert_int_eq(mkfifo(p, 0600), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd, queued = 1;

		/* no blocking open: a parent gone before its read ends us */
		while ((fd = open(p, O_WRONLY | O_NONBLOCK)) < 0) {
			if (errno != ENXIO || getppid() != parent)
				_exit(1);
			sched_yield();
		}
		if (write(fd, "ab", 2) != 2)
			_exit(1);
		while (queued > 0 && getppid() == parent) {
			if (ioctl(fd, FIONREAD, &queued))
				_exit(2);
			sched_yield();
		}
		if (write(fd, "cd\n", 3) != 3)
			_exit(3);
		_exit(close(fd) ? 4 : 0);
	}
	ck_assert_int_eq(sysfs_read(root, "/proc/pieces", buf, sizeof(buf)), 4);
	ck_assert_str_eq(buf, "abcd");
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* ---- the integer readers ---- */

static const struct {
	const char *text;	/* NULL: no file */
	int ret;
	uint64_t want;
} u64s[] = {
	{ "4096\n", 0, 4096 },
	{ "0", 0, 0 },
	{ "  42 \n", 0, 42 },
	{ "18446744073709551615\n", 0, UINT64_MAX },
	{ "18446744073709551616\n", -ERANGE, 0 },
	{ "99999999999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "\n", -EINVAL, 0 },
	{ "-1\n", -EINVAL, 0 },
	{ " -1", -EINVAL, 0 },
	{ "-0", -EINVAL, 0 },
	{ "-", -EINVAL, 0 },
	{ "42abc", -EINVAL, 0 },
	{ "4 2", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1.5", -EINVAL, 0 },
	{ "[none]", -EINVAL, 0 },
	{ "4096\n8192\n", -EINVAL, 0 },
	/* longer than the reader's buffer: cut, so refused, not misread */
	{ "0000000000000000000000000000000000000000000000000000000000000000000005", -EINVAL, 0 },
	{ "5                                                              x", -EINVAL, 0 },
	{ NULL, -ENOENT, 0 },
};

START_TEST(test_read_u64)
{
	uint64_t v = 12345;

	if (u64s[_i].text)
		put("/sys/block/sda/queue/nr", u64s[_i].text);
	ck_assert_int_eq(sysfs_read_u64(root, "/sys/block/sda/queue/nr", &v),
			 u64s[_i].ret);
	if (!u64s[_i].ret)
		ck_assert_uint_eq(v, u64s[_i].want);
}
END_TEST

static const struct {
	const char *text;	/* NULL: no file */
	int ret;
	int64_t want;
} i64s[] = {
	{ "-1\n", 0, -1 },
	{ "0\n", 0, 0 },
	{ "  -5 \n", 0, -5 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "-9223372036854775808", 0, INT64_MIN },
	{ "9223372036854775808", -ERANGE, 0 },
	{ "-9223372036854775809", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-", -EINVAL, 0 },
	{ "12 x", -EINVAL, 0 },
	{ "1.5", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ NULL, -ENOENT, 0 },
};

START_TEST(test_read_i64)
{
	int64_t v = 12345;

	if (i64s[_i].text)
		put("/proc/sys/vm/val", i64s[_i].text);
	ck_assert_int_eq(sysfs_read_i64(root, "/proc/sys/vm/val", &v), i64s[_i].ret);
	if (!i64s[_i].ret)
		ck_assert_int_eq(v, i64s[_i].want);
}
END_TEST

/* ---- links ---- */

#define REL_TARGET "../../devices/pci0000:00/0000:00:17.0/block/sda"

START_TEST(test_readlink)
{
	char buf[PATH_MAX];
	size_t n = strlen(REL_TARGET);

	ln("/sys/dev/block/8:0", REL_TARGET);
	ln("/sys/dev/block/abs", "/sys/devices/virtual/block/dm-0");
	put("/sys/dev/block/file", "x\n");

	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/8:0", buf, sizeof(buf)),
			 (int)n);
	ck_assert_str_eq(buf, REL_TARGET);		/* as stored */
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/abs", buf, sizeof(buf)),
			 31);
	ck_assert_str_eq(buf, "/sys/devices/virtual/block/dm-0");
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/file", buf,
					sizeof(buf)), -EINVAL);
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/8:1", buf,
					sizeof(buf)), -ENOENT);
	/* the buffer: the target and its NUL, or -EOVERFLOW */
	memset(buf, '#', sizeof(buf));
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/8:0", buf, n + 1),
			 (int)n);
	ck_assert_str_eq(buf, REL_TARGET);
	ck_assert_int_eq(buf[n + 1], '#');
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/8:0", buf, n),
			 -EOVERFLOW);
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/8:0", buf, 1),
			 -EOVERFLOW);
}
END_TEST

/* What sysfs_resolve gives for `path`: a link to `target` (NULL: path is
 * a directory; "-": a regular file; "": nothing there). */
static const struct {
	const char *path, *target;
	int ret;
	const char *want;
} resolves[] = {
	{ "/sys/dev/block/8:0", "../../block/sda", 0, "/sys/block/sda" },
	{ "/sys/class/block/sda2",
	  "../../devices/pci0000:00/0000:00:17.0/ata1/host0/block/sda/sda2", 0,
	  "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/block/sda/sda2" },
	/* "." ".." and "//" inside the target */
	{ "/sys/a/link", "./b/../c//d/.", 0, "/sys/a/c/d" },
	{ "/sys/a/link", "b/", 0, "/sys/a/b" },
	/* ".." above "/" stays at "/": never out of the tree */
	{ "/sys/a/link", "../../../../../etc", 0, "/etc" },
	/* absolute: the live tree, so taken as root-relative */
	{ "/sys/a/link", "/sys/devices/virtual/block/dm-0", 0,
	  "/sys/devices/virtual/block/dm-0" },
	{ "/sys/a/link", "/sys//devices/../block/./x/", 0, "/sys/block/x" },
	/* a dangling link still says where it points */
	{ "/sys/a/link", "../nowhere", 0, "/sys/nowhere" },
	/* the link's own path un-normalised: the same place */
	{ "/sys/./dev/block/../block/8:0", "../../block/sda", 0, "/sys/block/sda" },
	/* not a link: the path itself, normalised */
	{ "/sys/./a/../a//file", "-", 0, "/sys/a/file" },
	{ "/sys/a/dir/", NULL, 0, "/sys/a/dir" },
	{ "/sys/a/dir/..", NULL, 0, "/sys/a" },
	{ "/sys/a/nothing", "", -ENOENT, NULL },
};

START_TEST(test_resolve)
{
	const char *t = resolves[_i].target;
	const char *where = resolves[_i].path;
	char out[PATH_MAX];

	/* the link is made at the normalised place of its path */
	if (!strcmp(where, "/sys/./dev/block/../block/8:0"))
		where = "/sys/dev/block/8:0";
	dir_at("/sys/a");
	if (!t)
		dir_at("/sys/a/dir");
	else if (!strcmp(t, "-"))
		put("/sys/a/file", "x\n");
	else if (t[0])
		ln(where, t);

	memset(out, '#', sizeof(out));
	ck_assert_int_eq(sysfs_resolve(root, resolves[_i].path, out, sizeof(out)),
			 resolves[_i].ret);
	if (resolves[_i].want)
		ck_assert_str_eq(out, resolves[_i].want);
}
END_TEST

/* The result fits with its NUL, or -EOVERFLOW. */
START_TEST(test_resolve_overflow)
{
	char out[32];

	ln("/sys/dev/block/8:0", "../../block/sda");	/* "/sys/block/sda" */
	dir_at("/sys/block");
	ck_assert_int_eq(sysfs_resolve(root, "/sys/dev/block/8:0", out, 15), 0);
	ck_assert_str_eq(out, "/sys/block/sda");
	ck_assert_int_eq(sysfs_resolve(root, "/sys/dev/block/8:0", out, 14),
			 -EOVERFLOW);
	ck_assert_int_eq(sysfs_resolve(root, "/sys/block", out, 11), 0);
	ck_assert_str_eq(out, "/sys/block");
	ck_assert_int_eq(sysfs_resolve(root, "/sys/block", out, 10), -EOVERFLOW);
	ck_assert_int_eq(sysfs_resolve(root, "/", out, 2), 0);
	ck_assert_str_eq(out, "/");
	ck_assert_int_eq(sysfs_resolve(root, "/", out, 1), -EOVERFLOW);
}
END_TEST

/* ---- sysfs_list ---- */

/* created in this order; listed sorted by strcmp */
static const char *const entries[] = {
	"sdc", "nvme0n1", "B", "sdb1", "loop10", "a", "loop2", "dm-0", "z9",
	"loop1", "_x", "8:16", "253:0",
};
static const char *const sorted[] = {
	"253:0", "8:16", "B", "_x", "a", "dm-0", "loop1", "loop10", "loop2",
	"nvme0n1", "sdb1", "sdc", "z9",
};

/* A mix of files, directories and links, dangling or not: all listed. */
static void make_entries(void)
{
	char rel[128];

	dir_at("/sys/block");
	for (size_t k = 0; k < ARRAY_SIZE(entries); k++) {
		snprintf(rel, sizeof(rel), "/sys/block/%s", entries[k]);
		switch (k % 4) {
		case 0:
			put(rel, "x\n");
			break;
		case 1:
			dir_at(rel);
			break;
		case 2:
			ln(rel, "../devices/virtual/block/none");	/* dangling */
			break;
		case 3:
			ln(rel, ".");
			break;
		}
	}
}

static const size_t list_max[] = { 0, 1, 2, 5, 12, 13, 14, 20 };

START_TEST(test_list)
{
	char names[21][SYSFS_NAME_MAX];
	size_t max = list_max[_i];
	size_t n = max < ARRAY_SIZE(sorted) ? max : ARRAY_SIZE(sorted);

	make_entries();
	for (size_t k = 0; k < ARRAY_SIZE(names); k++)
		snprintf(names[k], sizeof(names[k]), "guard");
	ck_assert_int_eq(sysfs_list(root, "/sys/block", names, max), (int)n);
	/* the smallest `max` names, sorted, whatever the readdir order */
	for (size_t k = 0; k < n; k++)
		ck_assert_str_eq(names[k], sorted[k]);
	for (size_t k = max; k < ARRAY_SIZE(names); k++)
		ck_assert_str_eq(names[k], "guard");	/* nothing past max */
}
END_TEST

START_TEST(test_list_long_names)
{
	char names[4][SYSFS_NAME_MAX], name[SYSFS_NAME_MAX + 2], rel[160];

	dir_at("/sys/d");
	/* SYSFS_NAME_MAX - 1 characters fit; one more is skipped */
	memset(name, 'n', SYSFS_NAME_MAX - 1);
	name[SYSFS_NAME_MAX - 1] = '\0';
	snprintf(rel, sizeof(rel), "/sys/d/%s", name);
	put(rel, "");
	memset(name, 'm', SYSFS_NAME_MAX);
	name[SYSFS_NAME_MAX] = '\0';
	snprintf(rel, sizeof(rel), "/sys/d/%s", name);
	put(rel, "");
	put("/sys/d/short", "");
	ck_assert_int_eq(sysfs_list(root, "/sys/d", names, 4), 2);
	ck_assert_uint_eq(strlen(names[0]), SYSFS_NAME_MAX - 1);
	ck_assert_int_eq(names[0][0], 'n');
	ck_assert_str_eq(names[1], "short");
}
END_TEST

START_TEST(test_list_errors)
{
	char names[4][SYSFS_NAME_MAX];

	dir_at("/sys/empty");
	put("/sys/file", "x\n");
	put("/sys/devices/virtual/block/dm-0/slaves/sdb1", "");
	ln("/sys/block/dm-0", "../devices/virtual/block/dm-0");
	ck_assert_int_eq(sysfs_list(root, "/sys/empty", names, 4), 0);
	ck_assert_int_eq(sysfs_list(root, "/sys/missing", names, 4), -ENOENT);
	ck_assert_int_eq(sysfs_list(root, "/sys/file", names, 4), -ENOTDIR);
	/* a directory reached through a link is listed */
	ck_assert_int_eq(sysfs_list(root, "/sys/block/dm-0/slaves", names, 4), 1);
	ck_assert_str_eq(names[0], "sdb1");
}
END_TEST

/* ---- sysfs_exists ---- */

START_TEST(test_exists)
{
	char full[PATH_MAX];

	put("/sys/block/sda/size", "1\n");
	ln("/sys/class/block/sda", "../../block/sda");
	ln("/sys/class/block/gone", "../../block/gone");
	ck_assert(sysfs_exists(root, "/sys/block/sda/size"));
	ck_assert(sysfs_exists(root, "/sys/block/sda"));	/* a directory */
	ck_assert(sysfs_exists(root, "/sys/class/block/sda"));
	ck_assert(sysfs_exists(root, "/sys/class/block/sda/size"));
	ck_assert(!sysfs_exists(root, "/sys/class/block/gone"));	/* dangling */
	ck_assert(!sysfs_exists(root, "/sys/block/sdb"));
	ck_assert(!sysfs_exists(root, "/sys/block/sda/size/x"));
	snprintf(full, sizeof(full), "%s/sys/block/sda", root);
	ck_assert(sysfs_exists(NULL, full));
	ck_assert(sysfs_exists("", full));
}
END_TEST

/* root + path longer than PATH_MAX: -ENAMETOOLONG from every reader,
 * nothing opened. */
START_TEST(test_name_too_long)
{
	static char long_root[PATH_MAX + 8], full[PATH_MAX];
	char buf[64], names[2][SYSFS_NAME_MAX];
	uint64_t u;
	int64_t i;

	/* PATH_MAX - 4 characters, in components the kernel would take */
	for (size_t k = 0; k < PATH_MAX - 4; k++)
		long_root[k] = k % 200 ? 'r' : '/';
	long_root[PATH_MAX - 4] = '\0';
	ck_assert_int_eq(sysfs_read(long_root, "/sys/x", buf, sizeof(buf)),
			 -ENAMETOOLONG);
	ck_assert_int_eq(sysfs_read_u64(long_root, "/sys/x", &u), -ENAMETOOLONG);
	ck_assert_int_eq(sysfs_read_i64(long_root, "/sys/x", &i), -ENAMETOOLONG);
	ck_assert_int_eq(sysfs_readlink(long_root, "/sys/x", buf, sizeof(buf)),
			 -ENAMETOOLONG);
	ck_assert_int_eq(sysfs_resolve(long_root, "/sys/x", buf, sizeof(buf)),
			 -ENAMETOOLONG);
	ck_assert_int_eq(sysfs_list(long_root, "/sys/x", names, 2), -ENAMETOOLONG);
	ck_assert(!sysfs_exists(long_root, "/sys/x"));
	/* three characters and the NUL just fit: then it is looked up */
	ck_assert_int_eq(sysfs_path(long_root, "/sy", full, sizeof(full)), 0);
	ck_assert_uint_eq(strlen(full), PATH_MAX - 1);
	ck_assert_int_eq(sysfs_read(long_root, "/sy", buf, sizeof(buf)), -ENOENT);
}
END_TEST

/* ---- pure helpers ---- */

static const struct {
	const char *root, *path;
	size_t len;
	int ret;
	const char *want;
} paths[] = {
	{ "/r", "/sys", 16, 0, "/r/sys" },
	{ "", "/sys/block", 16, 0, "/sys/block" },
	{ NULL, "/sys/block", 16, 0, "/sys/block" },
	{ "tests/fixtures/fp/nvme", "/proc/meminfo", 64, 0,
	  "tests/fixtures/fp/nvme/proc/meminfo" },
	{ "/r", "/sys", 7, 0, "/r/sys" },		/* just fits */
	{ "/r", "/sys", 6, -ENAMETOOLONG, NULL },
	{ "/a/long/root", "/sys/block", 16, -ENAMETOOLONG, NULL },
	{ "", "", 1, 0, "" },
	{ "", "/", 1, -ENAMETOOLONG, NULL },
};

START_TEST(test_path)
{
	char buf[64];

	ck_assert_int_eq(sysfs_path(paths[_i].root, paths[_i].path, buf,
				    paths[_i].len), paths[_i].ret);
	if (paths[_i].want)
		ck_assert_str_eq(buf, paths[_i].want);
}
END_TEST

/* The last component, as a pointer into the path (after its last '/'). */
Suite *sysfs_suite(void)
{
	Suite *s = suite_create("sysfs");
	TCase *tree = tcase_create("tree");
	TCase *pure = tcase_create("pure");

	tcase_add_checked_fixture(tree, tree_setup, tree_teardown);
	tcase_add_loop_test(tree, test_read, 0, ARRAY_SIZE(reads));
	tcase_add_test(tree, test_read_oversized);
	tcase_add_test(tree, test_read_errors);
	tcase_add_test(tree, test_read_through_symlink);
	tcase_add_test(tree, test_read_no_root);
	tcase_add_test(tree, test_read_in_pieces);
	tcase_add_loop_test(tree, test_read_u64, 0, ARRAY_SIZE(u64s));
	tcase_add_loop_test(tree, test_read_i64, 0, ARRAY_SIZE(i64s));
	tcase_add_test(tree, test_readlink);
	tcase_add_loop_test(tree, test_resolve, 0, ARRAY_SIZE(resolves));
	tcase_add_test(tree, test_resolve_overflow);
	tcase_add_loop_test(tree, test_list, 0, ARRAY_SIZE(list_max));
	tcase_add_test(tree, test_list_long_names);
	tcase_add_test(tree, test_list_errors);
	tcase_add_test(tree, test_exists);
	tcase_add_test(tree, test_name_too_long);
	tcase_add_loop_test(pure, test_path, 0, ARRAY_SIZE(paths));
	suite_add_tcase(s, tree);
	suite_add_tcase(s, pure);
	return s;
}
