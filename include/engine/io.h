/* io.h - the I/O backend the writer and the pacing modes go through.
 *
 * Every system call that touches the file under test is an op here, so the
 * whole pipeline runs against a fake (tests/unit/io_fake.h) in the unit tests: the exact
 * call sequence of each pacing mode is checked, and faults (ENOSPC, EIO,
 * short writes) are injected without a disk.
 *
 * Ops return 0 (pwrite: bytes written) or -errno.  A backend's ctx is owned
 * by whoever created it; the writer thread is the only caller.
 */
#ifndef WS_IO_H
#define WS_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080	/* Linux 6.14 uapi/linux/fs.h */
#endif

struct io_ops {
	const char *name;
	/* rwf: 0 or RWF_* flags for pwritev2 */
	ssize_t (*pwrite)(void *ctx, int fd, const void *buf, size_t len,
			  uint64_t off, int rwf);
	/* flags: SYNC_FILE_RANGE_* */
	int (*sync_range)(void *ctx, int fd, uint64_t off, uint64_t len,
			  unsigned int flags);
	/* advice: POSIX_FADV_* */
	int (*fadvise)(void *ctx, int fd, uint64_t off, uint64_t len,
		       int advice);
	int (*fdatasync)(void *ctx, int fd);
};

/* The real thing: pwrite/pwritev2, sync_file_range, posix_fadvise,
 * fdatasync.  ctx is unused (NULL). */
extern const struct io_ops io_posix_ops;

#endif
