/* pace.h - pacing modes: what the writer does around its writes so that
 * writeback keeps up (or, for `none`, does not).  Modes are ops in
 * pace_modes[ws_pace]: after_buffer() once a buffer, after_piece() after
 * each write() if the mode has one, drain() at the end; their calls go
 * through io.h, their time into the snapshot.  The writer thread only.
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

	/* written, not yet waited for, oldest first */
	struct pace_pending {
		struct ws_extent e;
		uint64_t started_ns;
	} *pending;
	unsigned int npending, cap, head;
	uint64_t pending_bytes;
	unsigned int since_sync;	/* buffers */

	struct adapt adapt;
	bool steering_known;		/* snapshot's steer_setup read */

	/* on failure */
	const char *err_op;
	uint64_t err_off;
};

/* The lower of --rate and the mode's cap; 0: none. */
static inline uint64_t pace_rate_limit(uint64_t rate, uint64_t cap)
{
	return cap && (!rate || cap < rate) ? cap : rate;
}

struct pace_ops {
	int open_flags;		/* O_DIRECT for direct */
	int rwf;		/* RWF_DONTCACHE */
	/* 0 or -errno with err_op and err_off set */
	int (*after_buffer)(struct pace_ctx *p, const struct ws_extent *e);
	int (*drain)(struct pace_ctx *p);
	/* optional, to pace each write(): its most bytes, what follows it */
	uint64_t (*piece)(const struct pace_ctx *p);
	int (*after_piece)(struct pace_ctx *p, const struct ws_extent *e);
	/* optional: bytes a second now (--headroom); 0: no cap */
	uint64_t (*rate_cap)(const struct pace_ctx *p);
	/* optional, on the emptied target: 0, or -errno: unsupported here */
	int (*check)(int fd);
	const char *unsupported_hint;
	/* marks count what write() accepted: nothing waits for the disk */
	bool marks_accepted;
	uint64_t size_align;	/* of --size (O_DIRECT); 0: none */
	/* long names, NULL-ended: a usage error with another mode */
	const char *const *options;
};

extern const struct pace_ops *const pace_modes[WS_PACE_NR];

WS_MUST_CHECK int pace_init(struct pace_ctx *p, const struct ws_config *cfg,
	      const struct io_ops *io, void *io_ctx, int fd,
	      struct ws_snapshot *snap);
void pace_destroy(struct pace_ctx *p);



#endif
