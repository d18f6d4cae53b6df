/* write_queue.h - the writer's writes, one at a time or in flight
 * (--iodepth N > 1): the one way the writer issues them.
 *
 * On top of a queue backend (ioq.h; the synchronous one completes each
 * write as it is submitted): at most `depth` writes in flight;
 * a write is counted in the snapshot when it completes, not when it is
 * submitted, so rates and progress marks are what the device finished;
 * a short completion is resubmitted for the rest; a failed one is the
 * run's error at its offset.  Time spent submitting is WS_T_SUBMIT, time
 * spent waiting for a completion WS_T_COMPLETE: together they replace
 * write and wait in the time split.  A write the backend completes at
 * once is WS_T_WRITE, as a plain write(2) is.
 *
 * Stamped data reuses the datagen pool's slots, so a slot must not be
 * restamped while a write from it is in flight: wq_slot_idle() waits.
 *
 * Owned by the writer; opened by its owner before the writer thread
 * starts (ioq.h says why), used by the writer thread alone.
 */
#ifndef WS_WRITE_QUEUE_H
#define WS_WRITE_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/c.h"
#include "system/clock.h"
#include "engine/ioq.h"
#include "engine/snapshot.h"

struct wq_write {
	const char *buf;
	uint64_t off, len;
	uint64_t seq;		/* order of queueing */
	unsigned int slot;
	bool busy;
};

struct write_queue {
	const struct ioq_ops *ops;
	void *q;
	int fd, rwf;
	unsigned int depth, inflight, peak;
	uint64_t inflight_bytes;
	/* where the latest-queued write that completed ends: the writer's
	 * offset (completions come in any order; the file may wrap) */
	uint64_t done_seq, done_end, next_seq;
	struct wq_write *writes;	/* depth entries; the tag is the index */
	unsigned int *slot_users;	/* writes in flight per pool slot */
	unsigned int nslots;
	bool registered;

	struct ws_snapshot *snap;
	const struct ws_clock *clock;

	/* the first failure: which call, where, -errno */
	int err;
	const char *err_op;
	uint64_t err_off;
};

/* Open the backend for depth writes from the pool's nslots slots of
 * slot_len bytes at pool.  0 or -errno (nothing to close then). */
WS_MUST_CHECK int wq_open(struct write_queue *wq, const struct ioq_ops *ops,
			  void *ctx, unsigned int depth, void *pool, unsigned int nslots,
			  size_t slot_len, int fd, int rwf,
			  struct ws_snapshot *snap);
void wq_close(struct write_queue *wq);

/* Queue buf[0..len) (from pool slot `slot`) at off, first waiting for
 * room.  0, or the -errno of this or an earlier write (wq->err_*). */
WS_MUST_CHECK int wq_write(struct write_queue *wq, const char *buf,
			   unsigned int slot, uint64_t len, uint64_t off);
/* Return once no write from `slot` is in flight.  0 or -errno. */
WS_MUST_CHECK int wq_slot_idle(struct write_queue *wq, unsigned int slot);
/* Wait for every write in flight (also after a failure).  0 or -errno. */
int wq_drain(struct write_queue *wq);

#endif
