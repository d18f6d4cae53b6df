/* ioq_uring.c - queued writes through io_uring.  No SQPOLL: a whole
 * buffer per system call leaves a polling thread nothing to save.
 * Registered buffers need RLIMIT_MEMLOCK: tried, given up quietly. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "engine/ioq.h"

struct uring_queue {
	struct io_uring ring;
	bool registered;
};

static int uring_open(void *ctx, void **q, unsigned int depth,
		      const struct iovec *bufs, unsigned int nbufs,
		      bool *registered)
{
	struct uring_queue *u = calloc(1, sizeof(*u));
	int ret;

	(void)ctx;
	if (!u)
		return -ENOMEM;
	ret = io_uring_queue_init(depth, &u->ring, 0);
	if (ret) {
		free(u);
		return ret;
	}
	u->registered = io_uring_register_buffers(&u->ring, bufs, nbufs) == 0;
	*registered = u->registered;
	*q = u;
	return 0;
}

static int uring_submit(void *q, int fd, const void *buf,
			unsigned int buf_index, size_t len, uint64_t off,
			int rwf, uint64_t tag)
{
	struct uring_queue *u = q;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int ret;

	if (!sqe)
		return -EBUSY;	/* the caller keeps at most depth in flight */
	if (u->registered)
		io_uring_prep_write_fixed(sqe, fd, buf, (unsigned int)len, off,
					  (int)buf_index);
	else
		io_uring_prep_write(sqe, fd, buf, (unsigned int)len, off);
	sqe->rw_flags = rwf;
	io_uring_sqe_set_data64(sqe, tag);
	ret = io_uring_submit(&u->ring);
	return ret < 0 ? ret : 0;
}

static int uring_reap(void *q, struct ioq_completion *out, unsigned int max)
{
	struct uring_queue *u = q;
	struct io_uring_cqe *cqe;
	unsigned int head, n = 0;
	int ret = io_uring_wait_cqe(&u->ring, &cqe);

	if (ret)
		return ret;
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if (n == max)
			break;
		out[n].tag = io_uring_cqe_get_data64(cqe);
		out[n].res = cqe->res;
		n++;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)n;
}

static void uring_close(void *q)
{
	struct uring_queue *u = q;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u);
}

const struct ioq_ops ioq_uring_ops = {
	.name = "io_uring",
	.open = uring_open,
	.submit = uring_submit,
	.reap = uring_reap,
	.close = uring_close,
};
