/* pace.c - the pacing modes.  window: start buffer i's writeback, wait for
 * buffer i-W (W = 1 is overwrite.c); none: the kernel throttles write();
 * adaptive: window pacing whose chunk and window adapt.h sets.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "system/clock.h"
#include "engine/pace.h"
#include "lib/units.h"

#define WAIT_FLAGS (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
		    SYNC_FILE_RANGE_WAIT_AFTER)

static int failed(struct pace_ctx *p, int ret, const char *op, uint64_t off)
{
	p->err_op = op;
	p->err_off = off;
	return ret;
}

static uint64_t now_ns(const struct pace_ctx *p)
{
	return p->clock->now(p->clock);
}

static int timed_sync_range(struct pace_ctx *p, const struct ws_extent *e,
			    unsigned int flags, enum ws_timer t)
{
	uint64_t t0 = now_ns(p);
	int ret = p->io->sync_range(p->io_ctx, p->fd, e->off, e->len, flags);

	snapshot_add_time(p->snap, t, now_ns(p) - t0);
	return ret ? failed(p, ret, "sync_file_range", e->off) : 0;
}

static int timed_drop(struct pace_ctx *p, const struct ws_extent *e)
{
	uint64_t t0 = now_ns(p);
	int ret = p->io->fadvise(p->io_ctx, p->fd, e->off, e->len,
				 POSIX_FADV_DONTNEED);

	snapshot_add_time(p->snap, WS_T_FADVISE, now_ns(p) - t0);
	return ret ? failed(p, ret, "posix_fadvise", e->off) : 0;
}

static int timed_fdatasync(struct pace_ctx *p, uint64_t off)
{
	uint64_t t0 = now_ns(p);
	int ret = p->io->fdatasync(p->io_ctx, p->fd);

	snapshot_add_time(p->snap, WS_T_WAIT, now_ns(p) - t0);
	return ret ? failed(p, ret, "fdatasync", off) : 0;
}

static void pending_push(struct pace_ctx *p, const struct ws_extent *e,
			 uint64_t started_ns)
{
	p->pending[(p->head + p->npending) % p->cap] = (struct pace_pending){
		.e = *e, .started_ns = started_ns,
	};
	p->npending++;
	p->pending_bytes += e->len;
}

static struct pace_pending pending_pop(struct pace_ctx *p)
{
	struct pace_pending pp = p->pending[p->head];

	p->head = (p->head + 1) % p->cap;
	p->npending--;
	p->pending_bytes -= pp.e.len;
	return pp;
}

static int window_retire(struct pace_ctx *p)
{
	struct pace_pending old = pending_pop(p);
	int ret = timed_sync_range(p, &old.e, WAIT_FLAGS, WS_T_WAIT);

	if (!ret && p->cfg->set.pacing.fadvise)
		ret = timed_drop(p, &old.e);
	return ret;
}

static int window_after(struct pace_ctx *p, const struct ws_extent *e)
{
	int ret = timed_sync_range(p, e, SYNC_FILE_RANGE_WRITE, WS_T_START);

	if (ret)
		return ret;
	pending_push(p, e, 0);
	if (p->npending > p->cfg->set.pacing.window)
		return window_retire(p);
	return 0;
}

static int window_drain(struct pace_ctx *p)
{
	int ret = 0;

	while (p->npending && !ret)
		ret = window_retire(p);
	return ret;
}

static int nothing_after(struct pace_ctx *p, const struct ws_extent *e)
{
	(void)p;
	(void)e;
	return 0;
}

static int nothing_drain(struct pace_ctx *p)
{
	(void)p;
	return 0;
}

/* The ring keeps the buffers since the last sync, so -f drops exactly
 * what the sync made clean. */
static int fdatasync_flush(struct pace_ctx *p, uint64_t off)
{
	int ret = timed_fdatasync(p, off);

	p->since_sync = 0;
	while (!ret && p->npending) {
		struct pace_pending pp = pending_pop(p);

		if (p->cfg->set.pacing.fadvise)
			ret = timed_drop(p, &pp.e);
	}
	p->npending = 0;
	p->pending_bytes = 0;
	return ret;
}

static int fdatasync_after(struct pace_ctx *p, const struct ws_extent *e)
{
	pending_push(p, e, 0);
	if (++p->since_sync < p->cfg->set.pacing.sync_every)
		return 0;
	return fdatasync_flush(p, e->off);
}

static int fdatasync_drain(struct pace_ctx *p)
{
	return p->since_sync ? fdatasync_flush(p, 0) : 0;
}

static void adaptive_publish(struct pace_ctx *p)
{
	struct ws_adapt_state *st = &p->snap->adapt;
	const struct adapt *a = &p->adapt;

	atomic_store_explicit(&st->chunk, a->chunk, memory_order_relaxed);
	atomic_store_explicit(&st->window, a->window, memory_order_relaxed);
	atomic_store_explicit(&st->inflight, (uint64_t)a->inflight, memory_order_relaxed);
	atomic_store_explicit(&st->sojourn_ns, (uint64_t)a->sojourn_ns, memory_order_relaxed);
	atomic_store_explicit(&st->setpoint_ns, (uint64_t)a->setpoint_ns, memory_order_relaxed);
	atomic_store_explicit(&st->settled_ns, a->settled ? a->settled_ns : 0,
			      memory_order_relaxed);
	atomic_store_explicit(&st->why, a->why, memory_order_relaxed);
	atomic_store_explicit(&st->unreachable, a->unreachable, memory_order_relaxed);
	atomic_store_explicit(&st->floor_ns, a->unreachable ? a->floor_worst_ns :
			      a->unreachable_floor_ns, memory_order_relaxed);
	atomic_store_explicit(&st->floor_probe, a->unreachable ? a->floor_probe :
			      a->unreachable_probe, memory_order_relaxed);
	atomic_store_explicit(&st->unreachable_ns, a->unreachable_ns, memory_order_relaxed);
	atomic_store_explicit(&st->steering, adapt_steering_probe(a), memory_order_relaxed);
	atomic_store_explicit(&st->disk_bps, (uint64_t)a->disk_bps, memory_order_relaxed);
	atomic_store_explicit(&st->cap_bps, (uint64_t)a->cap_bps, memory_order_relaxed);
	atomic_store_explicit(&st->headroom_pct, a->headroom_pct, memory_order_relaxed);
	atomic_store_explicit(&st->headroom_met_ns, a->headroom_met_ns, memory_order_relaxed);
	for (unsigned int i = 0; i < a->nattempts; i++)
		atomic_store_explicit(&st->attempt[i], a->attempt[i].worst_ns << 8 |
				      (uint64_t)a->attempt[i].met << 7 |
				      a->attempt[i].headroom_pct, memory_order_relaxed);
	/* after them: a reader never sees an attempt not yet written */
	atomic_store_explicit(&st->nattempts, a->nattempts, memory_order_release);
	for (unsigned int i = 0; i < ADAPT_PROBES; i++)
		atomic_store_explicit(&st->waits_milli[i],
				      (uint64_t)(a->probe[i].waits * 1000 + 0.5),
				      memory_order_relaxed);
}

static void adaptive_hear(struct pace_ctx *p)
{
	struct adapt_obs obs[WS_SNAPSHOT_PROBES];
	uint64_t now;

	if (!snapshot_take_probes(p->snap, obs))
		return;
	now = now_ns(p);
	for (unsigned int i = 0; i < WS_SNAPSHOT_PROBES; i++)
		adapt_probe(&p->adapt, now, i, &obs[i]);
}

/* The oldest chunk's sojourn is the controller's fast signal. */
static int adaptive_retire(struct pace_ctx *p)
{
	struct pace_pending old = pending_pop(p);
	int ret = timed_sync_range(p, &old.e, WAIT_FLAGS, WS_T_WAIT);
	uint64_t now = now_ns(p);

	if (ret)
		return ret;
	adapt_retired(&p->adapt, now, now - old.started_ns, old.e.len);
	return p->cfg->set.pacing.fadvise ? timed_drop(p, &old.e) : 0;
}

static uint64_t adaptive_piece(const struct pace_ctx *p)
{
	return adapt_chunk(&p->adapt);
}

static uint64_t adaptive_rate_cap(const struct pace_ctx *p)
{
	return adapt_rate_cap(&p->adapt);
}

static int adaptive_after_piece(struct pace_ctx *p, const struct ws_extent *e)
{
	uint64_t started = now_ns(p);
	int ret = timed_sync_range(p, e, SYNC_FILE_RANGE_WRITE, WS_T_START);

	if (ret)
		return ret;
	pending_push(p, e, started);
	if (!p->steering_known) {
		for (unsigned int i = 0; i < WS_SNAPSHOT_PROBES; i++) {
			const struct ws_steer_setup *ss = &p->snap->steer_setup[i];

			if (ss->steers)
				adapt_steer_by(&p->adapt, i, ss->idle_ns, ss->syncs);
		}
		p->steering_known = true;
	}
	adaptive_hear(p);
	while (!ret && p->npending > adapt_window(&p->adapt))
		ret = adaptive_retire(p);
	adaptive_publish(p);
	return ret;
}

static int adaptive_drain(struct pace_ctx *p)
{
	int ret = 0;

	while (p->npending && !ret)
		ret = adaptive_retire(p);
	return ret;
}

/* Kernels before 6.14 and filesystems without RWF_DONTCACHE refuse it:
 * find out with one page, keeping the file's size and first page. */
static int dontcache_check(int fd)
{
	static char page[4096] __attribute__((aligned(4096)));
	struct iovec iov = { .iov_base = page, .iov_len = sizeof(page) };
	struct stat st;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size >= (off_t)sizeof(page) &&
	    pread(fd, page, sizeof(page), 0) != (ssize_t)sizeof(page))
		return -EIO;
	ret = pwritev2(fd, &iov, 1, 0, RWF_DONTCACHE) < 0 ? -errno : 0;
	if (st.st_size < (off_t)sizeof(page) && ftruncate(fd, st.st_size) && !ret)
		ret = -errno;
	return ret;
}

static const struct pace_ops pace_window = {
	.options = (const char *const[]){ "window", "fadvise", NULL },
	.after_buffer = window_after,
	.drain = window_drain,
};

static const struct pace_ops pace_none = {
	.marks_accepted = true,
	.after_buffer = nothing_after,
	.drain = nothing_drain,
};

static const struct pace_ops pace_fdatasync = {
	.options = (const char *const[]){ "sync-every", "fadvise", NULL },
	.after_buffer = fdatasync_after,
	.drain = fdatasync_drain,
};

static const struct pace_ops pace_direct = {
	.options = (const char *const[]){ "iodepth", NULL },
	.open_flags = O_DIRECT,
	.size_align = 4096,	/* O_DIRECT: the last write is whole blocks */
	.after_buffer = nothing_after,
	.drain = nothing_drain,
};

static const struct pace_ops pace_dontcache = {
	.options = (const char *const[]){ "iodepth", NULL },
	.rwf = RWF_DONTCACHE,
	.after_buffer = nothing_after,
	.drain = nothing_drain,
	.check = dontcache_check,
	.unsupported_hint = "it needs Linux 6.14 or later and a filesystem that implements it; use --pace window",
};

static const struct pace_ops pace_adaptive = {
	.options = (const char *const[]){ "target-latency", "steer-by", "headroom", "fadvise", NULL },
	.after_buffer = nothing_after,
	.piece = adaptive_piece,
	.after_piece = adaptive_after_piece,
	.rate_cap = adaptive_rate_cap,
	.drain = adaptive_drain,
};

const struct pace_ops *const pace_modes[WS_PACE_NR] = {
	[WS_PACE_WINDOW] = &pace_window,
	[WS_PACE_NONE] = &pace_none,
	[WS_PACE_FDATASYNC] = &pace_fdatasync,
	[WS_PACE_DIRECT] = &pace_direct,
	[WS_PACE_DONTCACHE] = &pace_dontcache,
	[WS_PACE_ADAPTIVE] = &pace_adaptive,
};

int pace_init(struct pace_ctx *p, const struct ws_config *cfg,
	      const struct io_ops *io, void *io_ctx, int fd,
	      struct ws_snapshot *snap)
{
	memset(p, 0, sizeof(*p));
	p->io = io;
	p->io_ctx = io_ctx;
	p->fd = fd;
	p->cfg = cfg;
	p->snap = snap;
	p->clock = &ws_real_clock;
	/* window keeps W+1 extents for a moment, fdatasync N */
	p->cap = (cfg->set.pacing.window > cfg->set.pacing.sync_every ? cfg->set.pacing.window
						 : cfg->set.pacing.sync_every) + 1;
	if (cfg->set.pace == WS_PACE_ADAPTIVE && p->cap < ADAPT_WINDOW_MAX + 1)
		p->cap = ADAPT_WINDOW_MAX + 1;
	if (cfg->set.pace == WS_PACE_ADAPTIVE) {
		adapt_init(&p->adapt, cfg->set.pacing.target_latency_ns, cfg->set.buffer_size);
		adapt_set_headroom(&p->adapt, cfg->set.pacing.headroom_pct);
	}
	p->pending = calloc(p->cap, sizeof(*p->pending));
	return p->pending ? 0 : -ENOMEM;
}

void pace_destroy(struct pace_ctx *p)
{
	free(p->pending);
	p->pending = NULL;
}
