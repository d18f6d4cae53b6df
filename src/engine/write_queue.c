/* write_queue.c - the writer's writes in flight. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/write_queue.h"

static uint64_t now_ns(const struct write_queue *wq)
{
	return wq->clock->now(wq->clock);
}

static void failed(struct write_queue *wq, int ret, const char *op,
		   uint64_t off)
{
	if (wq->err)
		return;		/* the first error is the story */
	wq->err = ret;
	wq->err_op = op;
	wq->err_off = off;
}

int wq_open(struct write_queue *wq, const struct ioq_ops *ops, void *ctx,
	    unsigned int depth, void *pool, unsigned int nslots,
	    size_t slot_len, int fd, int rwf, struct ws_snapshot *snap)
{
	struct iovec *iov;
	int ret = -ENOMEM;

	memset(wq, 0, sizeof(*wq));
	wq->ops = ops;
	wq->depth = depth;
	wq->nslots = nslots;
	wq->fd = fd;
	wq->rwf = rwf;
	wq->snap = snap;
	wq->clock = &ws_real_clock;
	wq->writes = calloc(depth, sizeof(*wq->writes));
	wq->slot_users = calloc(nslots, sizeof(*wq->slot_users));
	iov = calloc(nslots, sizeof(*iov));
	if (!wq->writes || !wq->slot_users || !iov)
		goto out_free;
	for (unsigned int i = 0; i < nslots; i++)
		iov[i] = (struct iovec){ (char *)pool + i * slot_len, slot_len };
	ret = ops->open(ctx, &wq->q, depth, iov, nslots, &wq->registered);
	if (!ret) {
		free(iov);
		return 0;
	}
out_free:
	free(iov);
	free(wq->writes);
	free(wq->slot_users);
	wq->writes = NULL;
	wq->slot_users = NULL;
	return ret;
}

void wq_close(struct write_queue *wq)
{
	if (wq->q)
		wq->ops->close(wq->q);
	free(wq->writes);
	free(wq->slot_users);
	memset(wq, 0, sizeof(*wq));
}

static int submit(struct write_queue *wq, unsigned int tag)
{
	struct wq_write *w = &wq->writes[tag];
	uint64_t t0 = now_ns(wq);
	int ret = wq->ops->submit(wq->q, wq->fd, w->buf, w->slot, w->len,
				  w->off, wq->rwf, tag);

	snapshot_add_time(wq->snap, wq->ops->completes_at_once ? WS_T_WRITE : WS_T_SUBMIT,
			  now_ns(wq) - t0);
	if (ret) {
		failed(wq, ret, "io_uring submit", w->off);
		return ret;
	}
	w->busy = true;
	wq->inflight++;
	wq->inflight_bytes += w->len;
	/* a write done in submit() was never in flight: peak stays 0 */
	if (!wq->ops->completes_at_once && wq->inflight > wq->peak)
		wq->peak = wq->inflight;
	return 0;
}

/* The rest of a short write is resubmitted: a regular file takes it or
 * says why not. */
static void complete(struct write_queue *wq, const struct ioq_completion *c)
{
	struct wq_write *w;

	if (c->tag >= wq->depth || !wq->writes[c->tag].busy)
		return;
	w = &wq->writes[c->tag];
	w->busy = false;
	wq->inflight--;
	wq->inflight_bytes -= w->len;
	if (c->res <= 0 || (uint64_t)c->res > w->len) {
		failed(wq, c->res < 0 ? (int)c->res : -EIO, "write", w->off);
	} else {
		if (w->seq >= wq->done_seq) {
			wq->done_seq = w->seq;
			wq->done_end = w->off + (uint64_t)c->res;
		}
		snapshot_add_bytes(wq->snap, (uint64_t)c->res, wq->done_end);
		if ((uint64_t)c->res < w->len && !wq->err) {
			w->buf += c->res;
			w->off += (uint64_t)c->res;
			w->len -= (uint64_t)c->res;
			if (!submit(wq, (unsigned int)c->tag))
				return;		/* the slot stays in use */
		}
	}
	wq->slot_users[w->slot]--;
}

/* A backend that completes at once: no wait to time. */
static void take_done(struct write_queue *wq)
{
	struct ioq_completion done[16];

	while (wq->inflight) {
		int n = wq->ops->reap(wq->q, done, ARRAY_SIZE(done));

		if (n <= 0) {
			failed(wq, n ? n : -EIO, "write", 0);
			return;
		}
		for (int i = 0; i < n; i++)
			complete(wq, &done[i]);
	}
}

static int reap(struct write_queue *wq)
{
	struct ioq_completion done[16];
	uint64_t t0 = now_ns(wq);
	int n;

	do
		n = wq->ops->reap(wq->q, done, ARRAY_SIZE(done));
	while (n == -EINTR);
	snapshot_add_time(wq->snap, WS_T_COMPLETE, now_ns(wq) - t0);
	if (n < 0) {
		/* the ring itself failed: nothing more will come back */
		failed(wq, n, "io_uring wait", 0);
		return n;
	}
	for (int i = 0; i < n; i++)
		complete(wq, &done[i]);
	return 0;
}

int wq_write(struct write_queue *wq, const char *buf, unsigned int slot,
	     uint64_t len, uint64_t off)
{
	unsigned int tag;

	while (!wq->err && wq->inflight == wq->depth)
		if (reap(wq))
			break;
	if (wq->err)
		return wq->err;
	for (tag = 0; wq->writes[tag].busy; tag++)
		;
	wq->writes[tag] = (struct wq_write){ .buf = buf, .off = off,
					     .len = len, .slot = slot,
					     .seq = ++wq->next_seq };
	wq->slot_users[slot]++;
	if (submit(wq, tag)) {
		wq->slot_users[slot]--;
		return wq->err;
	}
	if (wq->ops->completes_at_once)
		take_done(wq);
	return wq->err;
}

int wq_slot_idle(struct write_queue *wq, unsigned int slot)
{
	while (wq->slot_users[slot] && wq->inflight)
		if (reap(wq))
			return wq->err;
	return wq->err;
}

int wq_drain(struct write_queue *wq)
{
	while (wq->inflight)
		if (reap(wq))
			break;
	return wq->err;
}
