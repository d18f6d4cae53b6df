/* pace.h - pacing modes: what the writer does around its writes so that
 * writeback keeps up (or, for `none`, does not).
 *
 * Each mode is an ops table in pace_modes[], indexed by enum ws_pace.  The
 * writer calls after_buffer() once per buffer written (after_piece() after
 * every write(), for a mode that has one) and drain() once at the end; the
 * mode issues its calls through the I/O backend and accounts
 * their time in the snapshot.  Owned and called by the writer thread only.
 */
#ifndef WS_PACE_H
#define WS_PACE_H

#include <stdint.h>

#include "engine/adapt.h"
#include "system/clock.h"
#include "config/config.h"
#include "engine/io.h"
#include "config/plan.h"
#include "engine/snapshot.h"

struct pace_ctx {
	const struct io_ops *io;
	void *io_ctx;
	int fd;
	const struct ws_config *cfg;
	struct ws_snapshot *snap;
	const struct ws_clock *clock;	/* the writer's */

	/* Buffers written but not yet waited for, oldest first, with when
	 * their writeback started. */
	struct pace_pending {
		struct ws_extent e;
		uint64_t started_ns;
	} *pending;
	unsigned int npending, cap, head;
	uint64_t pending_bytes;		/* written, not yet known on disk */
	unsigned int since_sync;	/* buffers since the last fdatasync */

	struct adapt adapt;		/* --pace adaptive */
	bool steering_known;		/* its probes' setup read */

	/* On failure: which call and where. */
	const char *err_op;
	uint64_t err_off;
};

/* The rate the writer keeps to: --rate (`rate`) or the mode's own cap
 * (`cap`), the lower of the two; 0 is none. */
static inline uint64_t pace_rate_limit(uint64_t rate, uint64_t cap)
{
	return cap && (!rate || cap < rate) ? cap : rate;
}

/* A mode's word is the settings' (ws_pace_name, settings.h). */
struct pace_ops {
	int open_flags;		/* added to open(2): O_DIRECT for direct */
	int rwf;		/* pwritev2 flags: RWF_DONTCACHE */
	/* 0 or -errno (err_op/err_off set) */
	int (*after_buffer)(struct pace_ctx *p, const struct ws_extent *e);
	int (*drain)(struct pace_ctx *p);
	/* Optional: modes that pace every write(), not every buffer: the
	 * most one write() may take now, and what follows each one. */
	uint64_t (*piece)(const struct pace_ctx *p);
	int (*after_piece)(struct pace_ctx *p, const struct ws_extent *e);
	/* Optional: the most bytes a second the mode lets the writer write
	 * now (adaptive's --headroom), 0: no cap of its own.  With --rate
	 * too, the lower one holds. */
	uint64_t (*rate_cap)(const struct pace_ctx *p);
	/* Before the run, on the emptied target: does this kernel and
	 * filesystem support the mode?  0 or -errno (may be NULL). */
	int (*check)(int fd);
	/* what a user is told when check() says no */
	const char *unsupported_hint;
	/* progress marks count what write() accepted, not what reached the
	 * disk (no pacing waits for it): the summary says so */
	bool marks_accepted;
	/* --size must be a multiple of this (O_DIRECT), or 0 */
	uint64_t size_align;
	/* the mode's own options (long names, NULL-terminated): given with
	 * another mode they are a usage error */
	const char *const *options;
};

extern const struct pace_ops *const pace_modes[WS_PACE_NR];

WS_MUST_CHECK int pace_init(struct pace_ctx *p, const struct ws_config *cfg,
	      const struct io_ops *io, void *io_ctx, int fd,
	      struct ws_snapshot *snap);
void pace_destroy(struct pace_ctx *p);

/* "window(1) + fadvise", "fdatasync every 4", "adaptive to 50 ms",
 * "none": for headers. */
void pace_describe(const struct ws_config *cfg, char *buf, size_t len);


#endif
