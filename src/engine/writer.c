/* writer.c - the writer thread. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/clock.h"
#include "lib/units.h"
#include "engine/readback.h"
#include "engine/write_queue.h"
#include "engine/writer.h"

#define RATE_SLICE_NS (100 * WS_NSEC_PER_MSEC)	/* re-check stop this often */
#define RATE_SLACK_NS (100 * WS_NSEC_PER_MSEC)	/* lateness kept as debt */

/* Pieces of about 20 ms of --rate, so the pace is smooth, not bursts. */
static uint64_t rate_piece(uint64_t rate, uint64_t buffer_size)
{
	uint64_t piece;

	if (!rate)
		return buffer_size;
	piece = rate / 50;
	piece -= piece % (4 * WS_KIB);
	if (piece < 64 * WS_KIB)
		piece = 64 * WS_KIB;
	return piece < buffer_size ? piece : buffer_size;
}

static int open_queue(struct writer *w, const struct ioq_ops *ops, void *ctx,
		      unsigned int depth)
{
	struct write_queue q;
	int ret = wq_open(&q, ops, ctx, depth, w->feed.pool, w->feed.nslots,
			  w->feed.len, w->fd, w->mode->rwf, w->snap);

	if (ret)
		return ret;
	q.clock = w->clock;
	wq_close(&w->queue);
	w->queue = q;
	return 0;
}

int writer_init(struct writer *w, const struct ws_config *cfg,
		const struct ws_plan *plan, struct ws_snapshot *snap,
		atomic_bool *stop, int fd, const struct io_ops *io,
		void *io_ctx)
{
	uint64_t seed = cfg->set.seed ? cfg->set.seed : ws_now_ns() ^ (uint64_t)getpid();
	int ret;

	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	w->plan = plan;
	w->snap = snap;
	w->stop = stop;
	w->fd = fd;
	w->io = io;
	w->io_ctx = io_ctx;
	w->mode = pace_modes[cfg->set.pace];
	w->piece = rate_piece(cfg->set.rate, plan->buffer_size);
	w->clock = &ws_real_clock;

	ret = datagen_feed_start(&w->feed, cfg->set.data, cfg->set.compress_pct, seed,
				 plan->buffer_size, cfg->set.pacing.iodepth);
	if (ret)
		return ret;
	ret = pace_init(&w->pace, cfg, io, io_ctx, fd, snap);
	w->pace.clock = w->clock;
	if (!ret) {
		w->sync = (struct ioq_sync_ctx){ .io = io, .io_ctx = io_ctx };
		ret = open_queue(w, &ioq_sync_ops, &w->sync, 1);
		if (ret)
			pace_destroy(&w->pace);
	}
	if (ret)
		datagen_feed_stop(&w->feed);
	return ret;
}

int writer_open_queue(struct writer *w, const struct ioq_ops *ops, void *ctx)
{
	return open_queue(w, ops, ctx, w->cfg->set.pacing.iodepth);
}

void writer_set_clock(struct writer *w, const struct ws_clock *clock)
{
	w->clock = clock;
	w->pace.clock = clock;
	w->queue.clock = clock;
}

void writer_destroy(struct writer *w)
{
	wq_close(&w->queue);
	pace_destroy(&w->pace);
	datagen_feed_stop(&w->feed);
}

static uint64_t now_ns(const struct writer *w)
{
	return w->clock->now(w->clock);
}

static void set_error(struct ws_outcome *o, int ret, const char *op,
		      uint64_t off)
{
	if (o->reason == WS_STOP_ERROR)
		return;		/* the first error is the story */
	o->reason = WS_STOP_ERROR;
	o->err = -ret;
	o->err_op = op;
	o->err_offset = off;
}

static bool should_stop(struct writer *w, uint64_t start,
			struct ws_outcome *o)
{
	int verdict;

	if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
		o->reason = WS_STOP_SIGNAL;
		return true;
	}
	verdict = atomic_load_explicit(&w->snap->verdict, memory_order_relaxed);
	if (verdict) {
		o->reason = (enum ws_stop_reason)verdict;
		return true;
	}
	if (w->cfg->set.duration_ns && now_ns(w) - start >= w->cfg->set.duration_ns) {
		o->reason = WS_STOP_TIME;
		return true;
	}
	return false;
}

/* The lower of --rate and the mode's own cap (--headroom); 0: none. */
static uint64_t rate_now(const struct writer *w)
{
	return pace_rate_limit(w->cfg->set.rate,
			       w->mode->rate_cap ? w->mode->rate_cap(&w->pace) : 0);
}

/* In slices, so a stop is never kept waiting.  A writer that fell behind
 * forgets the debt rather than burst: latency-versus-load curves need a
 * smooth cap. */
static void rate_wait(struct writer *w, uint64_t len, uint64_t rate)
{
	uint64_t now = now_ns(w), t0 = now;

	if (!w->rate_due || w->rate_due + RATE_SLACK_NS < now)
		w->rate_due = now;
	while (now < w->rate_due &&
	       !atomic_load_explicit(w->stop, memory_order_relaxed)) {
		uint64_t until = w->rate_due - now > RATE_SLICE_NS ?
				 now + RATE_SLICE_NS : w->rate_due;

		w->clock->sleep_until(w->clock, until);
		now = now_ns(w);
	}
	snapshot_add_time(w->snap, WS_T_RATE, now - t0);
	w->rate_due += (uint64_t)((unsigned __int128)len * WS_NSEC_PER_SEC / rate);
}

/* Checked per extent: someone else may be filling the filesystem. */
static int guard_reserve(struct writer *w, const struct ws_extent *e,
			 struct ws_outcome *o)
{
	uint64_t avail, end = e->off + e->len;
	int ret;

	if (!w->avail || end <= w->allocated || !w->plan->reserve)
		return 0;
	ret = w->avail(w->fd, &avail);
	if (ret)
		return 0;	/* no figure, no guard: the kernel still says ENOSPC */
	if (avail >= w->plan->reserve + (end - w->allocated))
		return 0;
	set_error(o, -ENOSPC, "reserve", e->off);
	o->detail = WS_DETAIL_RESERVE;
	o->detail_bytes = w->plan->reserve;
	return -ENOSPC;
}

/* 0 when all written, 1 when a stop ended it early, or -errno; *done is
 * what was written either way. */
static int write_extent(struct writer *w, const char *buf, unsigned int slot,
			const struct ws_extent *e, uint64_t start,
			uint64_t *done, struct ws_outcome *o)
{
	*done = 0;
	while (*done < e->len) {
		uint64_t len = e->len - *done, off = e->off + *done, rate;
		int ret;

		if (*done && should_stop(w, start, o))
			return 1;
		if (len > w->piece)
			len = w->piece;
		if (w->mode->piece && len > w->mode->piece(&w->pace))
			len = w->mode->piece(&w->pace);
		rate = rate_now(w);
		if (rate)
			rate_wait(w, len, rate);
		ret = wq_write(&w->queue, buf + *done, slot, len, off);
		if (ret) {
			set_error(o, ret, w->queue.err_op, w->queue.err_off);
			if (w->mode->rwf && (ret == -EOPNOTSUPP || ret == -EINVAL))
				o->detail = WS_DETAIL_DONTCACHE;
			return ret;
		}
		*done += len;
		if (w->mode->after_piece) {
			struct ws_extent piece = { off, len };

			ret = w->mode->after_piece(&w->pace, &piece);

			if (ret) {
				set_error(o, ret, w->pace.err_op, w->pace.err_off);
				return ret;
			}
		}
	}
	return 0;
}

/* Before the clock stops (overwrite.c stopped it first and over-reported). */
static void finish_writeback(struct writer *w, struct ws_outcome *o)
{
	uint64_t t0;
	int ret;

	if (wq_drain(&w->queue))
		set_error(o, w->queue.err, w->queue.err_op, w->queue.err_off);
	ret = w->mode->drain(&w->pace);
	if (ret)
		set_error(o, ret, w->pace.err_op, w->pace.err_off);
	t0 = now_ns(w);
	ret = w->io->fdatasync(w->io_ctx, w->fd);
	snapshot_add_time(w->snap, WS_T_WAIT, now_ns(w) - t0);
	if (ret)	/* the data ends where the writer stopped */
		set_error(o, ret, "fdatasync",
			  atomic_load_explicit(&w->snap->offset, memory_order_relaxed));
}

static uint64_t pending_bytes(const struct writer *w)
{
	return w->pace.pending_bytes + w->queue.inflight_bytes;
}

int writer_run(struct writer *w)
{
	struct ws_outcome o = { .reason = WS_STOP_BOUND };
	uint64_t start = now_ns(w), pos = 0;
	struct ws_extent e;

	snapshot_start(w->snap, start);
	while (plan_next(w->plan, pos, &e)) {
		uint64_t done, t0;
		const char *buf;
		unsigned int slot;
		int ret;

		if (should_stop(w, start, &o) || guard_reserve(w, &e, &o))
			break;
		if (e.off == 0 && pos)
			atomic_fetch_add_explicit(&w->snap->wraps, 1,
						  memory_order_relaxed);
		slot = datagen_feed_slot(&w->feed);
		/* a stamped slot is rewritten: no write from it may be in flight */
		if (w->feed.stamped &&
		    (ret = wq_slot_idle(&w->queue, slot))) {
			set_error(&o, ret, w->queue.err_op, w->queue.err_off);
			break;
		}
		t0 = now_ns(w);
		buf = datagen_feed_get(&w->feed, e.off,
				       (uint32_t)atomic_load_explicit(&w->snap->wraps,
								      memory_order_relaxed),
				       e.len);
		snapshot_add_time(w->snap, WS_T_FILL, now_ns(w) - t0);

		ret = write_extent(w, buf, slot, &e, start, &done, &o);
		datagen_feed_put(&w->feed);
		pos += done;
		if (e.off + done > w->allocated)
			w->allocated = e.off + done;
		if (done) {
			struct ws_extent written = { e.off, done };
			int pret = w->mode->after_buffer(&w->pace, &written);

			if (pret) {
				set_error(&o, pret, w->pace.err_op,
					  w->pace.err_off);
				break;
			}
		}
		if (ret)
			break;
		atomic_fetch_add_explicit(&w->snap->buffers, 1,
					  memory_order_relaxed);
		snapshot_mark(w->snap, now_ns(w) - start, pos - pending_bytes(w),
			      pending_bytes(w));
	}
	/* where writing ended; not a mark a window late, which would credit
	 * the window to a span shorter than the spacing */
	if (!pending_bytes(w))
		snapshot_mark_last(w->snap, now_ns(w) - start, pos, 0);
	finish_writeback(w, &o);
	o.end_ns = now_ns(w);
	o.writer_cpu_ns = ws_thread_cpu_ns();
	o.queue_peak = w->queue.peak;
	/* after the clock stopped: no part of the figures */
	if (w->cfg->verify) {
		uint64_t end = pos < w->plan->file_size ? pos : w->plan->file_size;

		/* what was issued past a failed write never landed */
		if (w->queue.err && w->queue.err_off < end)
			end = w->queue.err_off;
		readback_fd(w->fd, end, w->feed.run, &w->verify);
		o.verify = &w->verify;
		o.verify_cpu_ns = ws_thread_cpu_ns() - o.writer_cpu_ns;
	}
	snapshot_finish(w->snap, &o);
	return o.reason == WS_STOP_ERROR ? -o.err : 0;
}

void *writer_thread(void *arg)
{
	writer_run(arg);
	return NULL;
}
