/* ioq.h - how the writer's writes are issued: a queue backend takes
 * writes and hands back their completions.
 *
 * Two kinds, one interface (fio's FIO_Q_QUEUED and FIO_Q_COMPLETED): a
 * queueing backend takes writes without waiting for them and completes
 * them in whatever order the device finishes them (io_uring through
 * liburing, ioq_uring.c, for --iodepth N > 1); the synchronous one
 * (ioq_sync.c) does each write in submit(), through the I/O backend
 * (io.h), its completion there at once.  The unit tests add a fake
 * (tests/unit/ioq_fake.h) that completes out of order and plants faults.
 * The writer's queue (write_queue.h) sits on top of any of them.
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
	const char *name;	/* "io_uring", "sync": for headers and results */
	/* submit() does the write: its completion can be reaped at once,
	 * and its time is the write's (WS_T_WRITE), not a submission's */
	bool completes_at_once;
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

/* One write at a time through an I/O backend: ctx is a struct
 * ioq_sync_ctx, and depth must be 1. */
struct io_ops;
struct ioq_sync_ctx {
	const struct io_ops *io;
	void *io_ctx;
};
extern const struct ioq_ops ioq_sync_ops;

#endif
