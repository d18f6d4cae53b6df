/* io.h - every system call on the file under test, as ops, so the unit
 * tests run each pacing mode's call sequence and faults against a fake
 * (tests/unit/io_fake.h).  0 (pwrite: bytes) or -errno.  The writer thread
 * is the only caller; ctx is its creator's.
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
	ssize_t (*pwrite)(void *ctx, int fd, const void *buf, size_t len,
			  uint64_t off, int rwf);
	int (*sync_range)(void *ctx, int fd, uint64_t off, uint64_t len,
			  unsigned int flags);
	int (*fadvise)(void *ctx, int fd, uint64_t off, uint64_t len,
		       int advice);
	int (*fdatasync)(void *ctx, int fd);
};

/* ctx is NULL. */
extern const struct io_ops io_posix_ops;

#endif
