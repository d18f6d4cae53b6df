/* ioq.h - queued writes: several writes in flight at once (--iodepth).
 *
 * A queue backend takes writes without waiting for them and hands back
 * their completions, in whatever order the device finishes them.  The
 * real one is io_uring through liburing (ioq_uring.c); the unit tests use
 * a fake (tests/unit/ioq_fake.h) that completes out of order and plants
 * faults.  The writer's queue (write_queue.h) sits on top.
 *
 * A queue is opened by the thread that sets the writer up (main, before
 * it drops its capabilities: kernel.io_uring_disabled=1 lets privileged
 * processes make rings) and used by the writer thread alone afterwards.
 * Ops return 0 or -errno.
 */
#ifndef WS_IOQ_H
#define WS_IOQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct ioq_completion {
	uint64_t tag;		/* what submit() was given */
	int64_t res;		/* bytes written, or -errno */
};

struct ioq_ops {
	const char *name;	/* "io_uring": for headers and results */
	/* A queue for `depth` writes in flight from the buffers bufs[0..n);
	 * *registered says whether the kernel pinned them (no page lookups
	 * per write).  -EPERM, -ENOSYS ...: not here.  ctx: the backend's
	 * own (the fake's; NULL for io_uring). */
	int (*open)(void *ctx, void **q, unsigned int depth,
		    const struct iovec *bufs, unsigned int nbufs,
		    bool *registered);
	/* Queue and submit one write of buf[0..len) at off; buf lies in
	 * bufs[buf_index].  rwf: RWF_* flags.  Never waits for the write. */
	int (*submit)(void *q, int fd, const void *buf, unsigned int buf_index,
		      size_t len, uint64_t off, int rwf, uint64_t tag);
	/* Wait for at least one completion; store up to max of them.
	 * Returns how many, or -errno (-EINTR is retried by the caller). */
	int (*reap)(void *q, struct ioq_completion *out, unsigned int max);
	void (*close)(void *q);
};

extern const struct ioq_ops ioq_uring_ops;

#endif
