/* ioq.h - queue backends for the writer's writes (fio's FIO_Q_QUEUED and
 * FIO_Q_COMPLETED): io_uring completes in any order; sync does each write
 * in submit() through io.h.  main opens a queue before dropping its
 * capabilities (kernel.io_uring_disabled=1 lets only privileged processes
 * make rings); then the writer thread alone uses it.  0 or -errno.
 */
#ifndef WS_IOQ_H
#define WS_IOQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct ioq_completion {
	uint64_t tag;		/* submit()'s */
	int64_t res;		/* bytes written, or -errno */
};

struct ioq_ops {
	const char *name;	/* "io_uring", "sync" */
	/* submit() does the write: its time is WS_T_WRITE */
	bool completes_at_once;
	/* *registered: the kernel pinned bufs.  ctx: NULL for io_uring. */
	int (*open)(void *ctx, void **q, unsigned int depth,
		    const struct iovec *bufs, unsigned int nbufs,
		    bool *registered);
	/* buf lies in bufs[buf_index].  Never waits for the write. */
	int (*submit)(void *q, int fd, const void *buf, unsigned int buf_index,
		      size_t len, uint64_t off, int rwf, uint64_t tag);
	/* Waits for one at least; how many, or -errno (-EINTR: retry). */
	int (*reap)(void *q, struct ioq_completion *out, unsigned int max);
	void (*close)(void *q);
};

extern const struct ioq_ops ioq_uring_ops;

/* ctx: a struct ioq_sync_ctx; depth 1. */
struct io_ops;
struct ioq_sync_ctx {
	const struct io_ops *io;
	void *io_ctx;
};
extern const struct ioq_ops ioq_sync_ops;

#endif
