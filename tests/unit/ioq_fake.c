/* ioq_fake.c - the queue backend the unit tests use (see ioq_fake.h). */
#include <errno.h>
#include <string.h>

#include "engine/blockstamp.h"
#include "ioq_fake.h"

static uint64_t buf_sum(const void *buf, uint64_t len)
{
	return ws_block_hash(buf, len, 1);
}

static int fake_open(void *ctx, void **q, unsigned int depth,
		     const struct iovec *bufs, unsigned int nbufs,
		     bool *registered)
{
	struct ioq_fake *current = ctx;

	(void)bufs;
	(void)nbufs;
	if (current->open_errno)
		return -current->open_errno;
	current->depth = depth;
	*registered = current->registered;
	*q = current;
	return 0;
}

static int fake_submit(void *q, int fd, const void *buf,
		       unsigned int buf_index, size_t len, uint64_t off,
		       int rwf, uint64_t tag)
{
	struct ioq_fake *f = q;

	(void)fd;
	f->submits++;
	if (f->ninflight >= f->depth || f->ninflight == IOQ_FAKE_MAX) {
		f->overfull++;
		return -EBUSY;
	}
	f->inflight[f->ninflight++] = (struct ioq_fake_write){
		.buf = buf, .off = off, .len = len, .tag = tag,
		.sum = buf_sum(buf, len), .buf_index = buf_index, .rwf = rwf };
	if (f->ninflight > f->peak)
		f->peak = f->ninflight;
	return 0;
}

/* Newest first, all of them at once. */
static int fake_reap(void *q, struct ioq_completion *out, unsigned int max)
{
	struct ioq_fake *f = q;
	unsigned int n = 0;

	f->reaps++;
	if (f->clock)
		fake_clock_advance(f->clock, f->reap_ns);
	while (f->ninflight && n < (f->one_per_reap ? 1 : max)) {
		struct ioq_fake_write *w = &f->inflight[--f->ninflight];
		int64_t res = (int64_t)w->len;

		if (buf_sum(w->buf, w->len) != w->sum)
			f->changed++;
		if (f->fail_errno && w->off + w->len > f->fail_after)
			res = -f->fail_errno;
		else if (f->short_max && w->len > f->short_max)
			res = (int64_t)f->short_max;
		if (res > 0)
			f->bytes += (uint64_t)res;
		out[n++] = (struct ioq_completion){ .tag = w->tag, .res = res };
	}
	return n ? (int)n : -EINVAL;	/* reaping nothing would hang */
}

static void fake_close(void *q)
{
	(void)q;
}

const struct ioq_ops ioq_fake_ops = {
	.name = "fake",
	.open = fake_open,
	.submit = fake_submit,
	.reap = fake_reap,
	.close = fake_close,
};
