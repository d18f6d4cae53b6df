/* io_posix.c - the real I/O backend: plain system calls, errors as -errno. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine/io.h"

/* pwritev2 takes offset -1 as "the current position". */
static bool bad_offset(uint64_t off)
{
	return off > (uint64_t)INT64_MAX;
}

static ssize_t posix_pwrite(void *ctx, int fd, const void *buf, size_t len,
			    uint64_t off, int rwf)
{
	ssize_t n;

	(void)ctx;
	if (bad_offset(off))
		return -EINVAL;
	if (rwf) {
		/* only when a flag needs it: libfiu and old kernels know pwrite */
		struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

		n = pwritev2(fd, &iov, 1, (off_t)off, rwf);
	} else {
		n = pwrite(fd, buf, len, (off_t)off);
	}
	return n < 0 ? -errno : n;
}

static int posix_sync_range(void *ctx, int fd, uint64_t off, uint64_t len,
			    unsigned int flags)
{
	(void)ctx;
	if (bad_offset(off) || bad_offset(len))
		return -EINVAL;
	return sync_file_range(fd, (off_t)off, (off_t)len, flags) ? -errno : 0;
}

static int posix_fadvise_range(void *ctx, int fd, uint64_t off, uint64_t len,
			       int advice)
{
	(void)ctx;
	if (bad_offset(off) || bad_offset(len))
		return -EINVAL;
	/* posix_fadvise returns the error instead of setting errno */
	return -posix_fadvise(fd, (off_t)off, (off_t)len, advice);
}

static int posix_fdatasync(void *ctx, int fd)
{
	(void)ctx;
	return fdatasync(fd) ? -errno : 0;
}

const struct io_ops io_posix_ops = {
	.name = "posix",
	.pwrite = posix_pwrite,
	.sync_range = posix_sync_range,
	.fadvise = posix_fadvise_range,
	.fdatasync = posix_fdatasync,
};
