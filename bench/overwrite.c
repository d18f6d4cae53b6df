/* overwrite.c - the classic paced writer, as a benchmark peer for writestress.
 *
 * One static 8 MiB buffer of random bytes, written COUNT times.  After each
 * write: start writeback of that buffer (SYNC_FILE_RANGE_WRITE), then wait
 * for the previous buffer to reach the disk (WAIT_BEFORE|WRITE|WAIT_AFTER)
 * and, with -f, drop it from the page cache (POSIX_FADV_DONTNEED).  Like
 * the posted program it opens with O_RDWR|O_CREAT and no O_TRUNC: an
 * existing file is overwritten in place, its blocks stay allocated.  The
 * original stopped its clock before the last wait; this one ends with an
 * fdatasync, so it stops where writestress stops (every byte on the disk)
 * and an external clock around the process times both the same way.
 *
 * usage: overwrite -b COUNT [-f] FILE
 * Exit status: 0 done, 1 an I/O error, 2 bad usage.  It prints nothing on
 * success: bench/run.sh does the timing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUFSIZE (8UL << 20)
#define WAIT_ALL (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
		  SYNC_FILE_RANGE_WAIT_AFTER)

static char buffer[BUFSIZE] __attribute__((aligned(4096)));

static int usage(void)
{
	fprintf(stderr, "usage: overwrite -b COUNT [-f] FILE\n");
	return 2;
}

static int fail(const char *what, unsigned long index)
{
	fprintf(stderr, "overwrite: %s failed at buffer %lu: %s\n", what, index,
		strerror(errno));
	return 1;
}

/* xorshift64: the content only has to be incompressible, not good. */
static void fill(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
	uint64_t *p = (uint64_t *)(void *)buffer;

	for (size_t i = 0; i < BUFSIZE / sizeof(*p); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
}

int main(int argc, char **argv)
{
	unsigned long count = 0, index;
	int opt, fadvise = 0, fd;
	char *end;

	while ((opt = getopt(argc, argv, "b:f")) != -1) {
		switch (opt) {
		case 'b':
			errno = 0;
			count = strtoul(optarg, &end, 10);
			if (errno || *end || !count)
				return usage();
			break;
		case 'f':
			fadvise = 1;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc - 1 || !count)
		return usage();

	fd = open(argv[optind], O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	fill();
	for (index = 0; index < count; index++) {
		off_t off = (off_t)(index * BUFSIZE);

		if (write(fd, buffer, BUFSIZE) != (ssize_t)BUFSIZE)
			return fail("write", index);
		if (sync_file_range(fd, off, BUFSIZE, SYNC_FILE_RANGE_WRITE))
			return fail("sync_file_range", index);
		if (!index)
			continue;
		off -= (off_t)BUFSIZE;
		if (sync_file_range(fd, off, BUFSIZE, WAIT_ALL))
			return fail("sync_file_range wait", index);
		if (fadvise && posix_fadvise(fd, off, BUFSIZE, POSIX_FADV_DONTNEED))
			return fail("posix_fadvise", index);
	}
	if (fdatasync(fd))
		return fail("fdatasync", index);
	return close(fd) ? fail("close", index) : 0;
}
