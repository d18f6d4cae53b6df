/* ioq_sync.c - submit() is the write itself, its completion there to reap
 * at once (fio's FIO_Q_COMPLETED), so the writer has one path.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/io.h"
#include "engine/ioq.h"

struct sync_q {
	const struct io_ops *io;
	void *io_ctx;
	struct ioq_completion done;
	bool pending;
};

static int sync_open(void *ctx, void **q, unsigned int depth,
		     const struct iovec *bufs, unsigned int nbufs, bool *registered)
{
	const struct ioq_sync_ctx *c = ctx;
	struct sync_q *s;

	(void)bufs;
	(void)nbufs;
	if (depth != 1)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->io = c->io;
	s->io_ctx = c->io_ctx;
	*registered = false;
	*q = s;
	return 0;
}

static int sync_submit(void *q, int fd, const void *buf, unsigned int buf_index,
		       size_t len, uint64_t off, int rwf, uint64_t tag)
{
	struct sync_q *s = q;

	(void)buf_index;
	s->done = (struct ioq_completion){ .tag = tag,
		.res = s->io->pwrite(s->io_ctx, fd, buf, len, off, rwf) };
	s->pending = true;
	return 0;
}

static int sync_reap(void *q, struct ioq_completion *out, unsigned int max)
{
	struct sync_q *s = q;

	if (!s->pending || !max)
		return -EAGAIN;	/* nothing to wait for */
	out[0] = s->done;
	s->pending = false;
	return 1;
}

static void sync_close(void *q)
{
	free(q);
}

const struct ioq_ops ioq_sync_ops = {
	.name = "sync",
	.completes_at_once = true,
	.open = sync_open,
	.submit = sync_submit,
	.reap = sync_reap,
	.close = sync_close,
};
