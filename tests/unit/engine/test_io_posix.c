/* test_io_posix.c - the real I/O backend on a temporary file under /tmp:
 * what pwrite writes reaches the file at the offset asked (read back),
 * with and without RWF_* flags (which then really reach the kernel); a
 * short write comes back as the count written, the next as -errno; the
 * other ops succeed on a regular file; and every error comes back as
 * -errno (pwrite to an O_RDONLY fd -EBADF, sync_file_range on a pipe
 * -ESPIPE, ...), never -1 or a positive error number. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "engine/io.h"
#include "suites.h"

#ifndef RWF_APPEND
#define RWF_APPEND 0x00000010	/* Linux 4.16 uapi/linux/fs.h */
#endif
#define RWF_UNKNOWN 0x40000000	/* no kernel defines it */

static const struct io_ops *io = &io_posix_ops;
static char path[64];
static int fd = -1;

static void file_setup(void)
{
	snprintf(path, sizeof(path), "/tmp/ws-io-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
}

static void file_teardown(void)
{
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(unlink(path), 0);
}

static void fill(char *buf, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)('a' + (i * 7 + seed) % 26);
}

/* How many of buf's bytes are not c: counted and asserted once, as Check
 * records every passing assert. */
static size_t count_not(const char *buf, size_t len, char c)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += buf[i] != c;
	return n;
}

static off_t size_of(int f)
{
	struct stat st;

	ck_assert_int_eq(fstat(f, &st), 0);
	return st.st_size;
}

START_TEST(test_ops_table)
{
	ck_assert_str_eq(io->name, "posix");
	ck_assert_ptr_nonnull(io->pwrite);
	ck_assert_ptr_nonnull(io->sync_range);
	ck_assert_ptr_nonnull(io->fadvise);
	ck_assert_ptr_nonnull(io->fdatasync);
}
END_TEST

/* pwrite (rwf 0) and pwritev2 (a flag given) alike. */
static const int rwfs[] = { 0, RWF_DSYNC, RWF_SYNC };

/* Two blocks, the second past a hole: each lands at its offset, the hole
 * reads as zeros, and the file position is not moved. */
START_TEST(test_write_read_back)
{
	static char a[4096], b[3000], back[4096];
	const uint64_t off_b = 1024 * 1024 + 100;
	int rwf = rwfs[_i];

	fill(a, sizeof(a), 1);
	fill(b, sizeof(b), 2);
	ck_assert_int_eq(io->pwrite(NULL, fd, a, sizeof(a), 0, rwf), sizeof(a));
	ck_assert_int_eq(io->pwrite(NULL, fd, b, sizeof(b), off_b, rwf), sizeof(b));
	ck_assert_int_eq(size_of(fd), (off_t)(off_b + sizeof(b)));
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 0);

	ck_assert_int_eq(pread(fd, back, sizeof(a), 0), sizeof(a));
	ck_assert_int_eq(memcmp(back, a, sizeof(a)), 0);
	ck_assert_int_eq(pread(fd, back, sizeof(b), (off_t)off_b), sizeof(b));
	ck_assert_int_eq(memcmp(back, b, sizeof(b)), 0);
	/* the hole between */
	ck_assert_int_eq(pread(fd, back, sizeof(back), 8192), sizeof(back));
	ck_assert_uint_eq(count_not(back, sizeof(back), 0), 0);
}
END_TEST

/* An overwrite inside the file changes those bytes only. */
START_TEST(test_overwrite)
{
	char a[8192], b[10], back[8192];
	int rwf = rwfs[_i];

	memset(a, 'a', sizeof(a));
	memset(b, 'b', sizeof(b));
	ck_assert_int_eq(io->pwrite(NULL, fd, a, sizeof(a), 0, rwf), sizeof(a));
	ck_assert_int_eq(io->pwrite(NULL, fd, b, sizeof(b), 4090, rwf), sizeof(b));
	ck_assert_int_eq(size_of(fd), sizeof(a));
	ck_assert_int_eq(pread(fd, back, sizeof(back), 0), sizeof(back));
	ck_assert_uint_eq(count_not(back, 4090, 'a'), 0);
	ck_assert_uint_eq(count_not(back + 4090, 10, 'b'), 0);
	ck_assert_uint_eq(count_not(back + 4100, sizeof(back) - 4100, 'a'), 0);
}
END_TEST

START_TEST(test_zero_length)
{
	char a[16];

	memset(a, 'a', sizeof(a));
	ck_assert_int_eq(io->pwrite(NULL, fd, a, 0, 100, rwfs[_i]), 0);
	ck_assert_int_eq(size_of(fd), 0);
}
END_TEST

/* The flags reach pwritev2: RWF_APPEND puts the data at the end whatever
 * the offset, and a flag no kernel knows is refused, nothing written. */
START_TEST(test_flags_reach_kernel)
{
	char a[100], tail[5] = "tail", back[104];

	memset(a, 'a', sizeof(a));
	ck_assert_int_eq(io->pwrite(NULL, fd, a, sizeof(a), 0, 0), sizeof(a));
	ck_assert_int_eq(io->pwrite(NULL, fd, tail, 4, 0, RWF_APPEND), 4);
	ck_assert_int_eq(size_of(fd), 104);
	ck_assert_int_eq(pread(fd, back, sizeof(back), 0), sizeof(back));
	ck_assert_int_eq(memcmp(back, a, sizeof(a)), 0);
	ck_assert_int_eq(memcmp(back + 100, "tail", 4), 0);

	ck_assert_int_eq(io->pwrite(NULL, fd, tail, 4, 0, RWF_UNKNOWN), -EOPNOTSUPP);
	ck_assert_int_eq(size_of(fd), 104);
	ck_assert_int_eq(pread(fd, back, 4, 0), 4);
	ck_assert_int_eq(memcmp(back, "aaaa", 4), 0);
}
END_TEST

/* io.h: pwrite returns the bytes written.  A write that crosses the file
 * size limit is cut there and returns the short count; the next one, at
 * the limit, fails with -EFBIG.  The limit is lifted before anything is
 * checked (Check's own messages are written to a file too). */
START_TEST(test_short_write)
{
	static char buf[8192], back[8192];
	struct rlimit old, low;
	void (*old_xfsz)(int);
	ssize_t first = 0, second = 0;
	int lowered, rwf = rwfs[_i];

	fill(buf, sizeof(buf), 3);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	low = old;
	low.rlim_cur = 4096 + 100;
	old_xfsz = signal(SIGXFSZ, SIG_IGN);
	lowered = setrlimit(RLIMIT_FSIZE, &low);
	if (lowered == 0) {
		first = io->pwrite(NULL, fd, buf, sizeof(buf), 4096, rwf);
		second = io->pwrite(NULL, fd, buf + 100, sizeof(buf) - 100,
				    4096 + 100, rwf);
		setrlimit(RLIMIT_FSIZE, &old);
	}
	signal(SIGXFSZ, old_xfsz);

	ck_assert_int_eq(lowered, 0);
	ck_assert_int_eq(first, 100);
	ck_assert_int_eq(second, -EFBIG);
	ck_assert_int_eq(size_of(fd), 4096 + 100);
	ck_assert_int_eq(pread(fd, back, 100, 4096), 100);
	ck_assert_int_eq(memcmp(back, buf, 100), 0);
}
END_TEST

/* sync_file_range, posix_fadvise and fdatasync on a file with data. */
START_TEST(test_other_ops_on_file)
{
	char a[65536];

	memset(a, 'x', sizeof(a));
	ck_assert_int_eq(io->pwrite(NULL, fd, a, sizeof(a), 0, 0), sizeof(a));
	ck_assert_int_eq(io->sync_range(NULL, fd, 0, sizeof(a),
		SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
		SYNC_FILE_RANGE_WAIT_AFTER), 0);
	ck_assert_int_eq(io->sync_range(NULL, fd, 4096, 0, SYNC_FILE_RANGE_WRITE), 0);
	ck_assert_int_eq(io->fadvise(NULL, fd, 0, sizeof(a), POSIX_FADV_DONTNEED), 0);
	ck_assert_int_eq(io->fadvise(NULL, fd, 0, 0, POSIX_FADV_SEQUENTIAL), 0);
	ck_assert_int_eq(io->fdatasync(NULL, fd), 0);
	/* none of them changes the data */
	ck_assert_int_eq(size_of(fd), sizeof(a));
}
END_TEST

/* ---- errors as -errno ---- */

enum op { PWRITE, SYNC_RANGE, FADVISE, FDATASYNC };
enum fdkind {
	F_FILE,		/* the temporary file, read-write */
	F_RDONLY,	/* the same file, O_RDONLY */
	F_PIPE,		/* a pipe's write end */
	F_CLOSED,	/* a descriptor number that is not open */
	F_FULL,		/* /dev/full */
};

static const struct {
	enum op op;
	enum fdkind fd;
	uint64_t off;
	int arg;	/* pwrite: rwf; sync_range: flags; fadvise: advice */
	int want;
} errs[] = {
	{ PWRITE, F_RDONLY, 0, 0, -EBADF },
	{ PWRITE, F_RDONLY, 0, RWF_DSYNC, -EBADF },
	{ PWRITE, F_CLOSED, 0, 0, -EBADF },
	{ PWRITE, F_CLOSED, 0, RWF_DSYNC, -EBADF },
	{ PWRITE, F_PIPE, 0, 0, -ESPIPE },
	{ PWRITE, F_PIPE, 0, RWF_DSYNC, -ESPIPE },
	{ PWRITE, F_FULL, 0, 0, -ENOSPC },
	/* an offset past what off_t holds is refused, not wrapped */
	{ PWRITE, F_FILE, UINT64_C(1) << 63, 0, -EINVAL },
	{ PWRITE, F_FILE, UINT64_C(1) << 63, RWF_DSYNC, -EINVAL },
	/* UINT64_MAX would be -1: pwritev2's "the current position" */
	{ PWRITE, F_FILE, UINT64_MAX, 0, -EINVAL },
	{ PWRITE, F_FILE, UINT64_MAX, RWF_DSYNC, -EINVAL },
	{ FADVISE, F_FILE, UINT64_MAX, POSIX_FADV_DONTNEED, -EINVAL },
	{ SYNC_RANGE, F_PIPE, 0, SYNC_FILE_RANGE_WRITE, -ESPIPE },
	{ SYNC_RANGE, F_CLOSED, 0, SYNC_FILE_RANGE_WRITE, -EBADF },
	{ SYNC_RANGE, F_FILE, 0, 0x100, -EINVAL },	/* unknown flag */
	{ SYNC_RANGE, F_FILE, UINT64_C(1) << 63, SYNC_FILE_RANGE_WRITE, -EINVAL },
	/* posix_fadvise returns its error instead of setting errno */
	{ FADVISE, F_PIPE, 0, POSIX_FADV_DONTNEED, -ESPIPE },
	{ FADVISE, F_CLOSED, 0, POSIX_FADV_DONTNEED, -EBADF },
	{ FADVISE, F_FILE, 0, 12345, -EINVAL },		/* unknown advice */
	{ FDATASYNC, F_PIPE, 0, 0, -EINVAL },		/* nothing to sync */
	{ FDATASYNC, F_CLOSED, 0, 0, -EBADF },
};

static int open_kind(enum fdkind kind, int *other)
{
	int p[2], f;

	*other = -1;
	switch (kind) {
	case F_FILE:
		return fd;
	case F_RDONLY:
		f = open(path, O_RDONLY | O_CLOEXEC);
		ck_assert_int_ge(f, 0);
		return f;
	case F_PIPE:
		ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
		*other = p[0];
		return p[1];
	case F_CLOSED:
		/* a number just freed: nothing else opens it meanwhile */
		f = dup(fd);
		ck_assert_int_ge(f, 0);
		ck_assert_int_eq(close(f), 0);
		return f;
	case F_FULL:
		f = open("/dev/full", O_WRONLY | O_CLOEXEC);
		ck_assert_msg(f >= 0, "/dev/full: %s", strerror(errno));
		return f;
	}
	return -1;
}

START_TEST(test_errors)
{
	char buf[64];
	int other, f = open_kind(errs[_i].fd, &other);
	long ret = 0;

	memset(buf, 'x', sizeof(buf));
	switch (errs[_i].op) {
	case PWRITE:
		ret = io->pwrite(NULL, f, buf, sizeof(buf), errs[_i].off, errs[_i].arg);
		break;
	case SYNC_RANGE:
		ret = io->sync_range(NULL, f, errs[_i].off, 4096,
				     (unsigned int)errs[_i].arg);
		break;
	case FADVISE:
		ret = io->fadvise(NULL, f, errs[_i].off, 4096, errs[_i].arg);
		break;
	case FDATASYNC:
		ret = io->fdatasync(NULL, f);
		break;
	}
	ck_assert_int_eq(ret, errs[_i].want);
	/* the temporary file is unchanged by any of them */
	ck_assert_int_eq(size_of(fd), 0);
	if (f != fd && errs[_i].fd != F_CLOSED)
		close(f);
	if (other >= 0)
		close(other);
}
END_TEST

Suite *io_posix_suite(void)
{
	Suite *s = suite_create("io_posix");
	TCase *tc = tcase_create("file");

	tcase_add_checked_fixture(tc, file_setup, file_teardown);
	tcase_set_timeout(tc, 60);	/* O_DSYNC writes on a busy disk */
	tcase_add_test(tc, test_ops_table);
	tcase_add_loop_test(tc, test_write_read_back, 0, ARRAY_SIZE(rwfs));
	tcase_add_loop_test(tc, test_overwrite, 0, ARRAY_SIZE(rwfs));
	tcase_add_loop_test(tc, test_zero_length, 0, ARRAY_SIZE(rwfs));
	tcase_add_test(tc, test_flags_reach_kernel);
	tcase_add_loop_test(tc, test_short_write, 0, ARRAY_SIZE(rwfs));
	tcase_add_test(tc, test_other_ops_on_file);
	tcase_add_loop_test(tc, test_errors, 0, ARRAY_SIZE(errs));
	suite_add_tcase(s, tc);
	return s;
}
