/* write_queue.h - every write of the writer, at most `depth` in flight on
 * a queue backend (ioq.h).  A write counts in the snapshot when it
 * completes, so rates are what the device finished; a short one is
 * resubmitted.  A pool slot must not be restamped while a write from it
 * is in flight (wq_slot_idle).  Opened before the writer thread starts
 * (ioq.h), then used by it alone.
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
	/* done_end: where the latest-queued completed write ends */
	uint64_t done_seq, done_end, next_seq;
	struct wq_write *writes;	/* depth entries; a tag is an index */
	unsigned int *slot_users;	/* writes in flight per pool slot */
	unsigned int nslots;
	bool registered;

	struct ws_snapshot *snap;
	const struct ws_clock *clock;

	/* the first failure */
	int err;
	const char *err_op;
	uint64_t err_off;
};

/* 0 or -errno (nothing to close then). */
WS_MUST_CHECK int wq_open(struct write_queue *wq, const struct ioq_ops *ops,
			  void *ctx, unsigned int depth, void *pool, unsigned int nslots,
			  size_t slot_len, int fd, int rwf,
			  struct ws_snapshot *snap);
void wq_close(struct write_queue *wq);

/* Waits for room first.  0, or the -errno of this or an earlier write. */
WS_MUST_CHECK int wq_write(struct write_queue *wq, const char *buf,
			   unsigned int slot, uint64_t len, uint64_t off);
/* Waits until no write from slot is in flight.  0 or -errno. */
WS_MUST_CHECK int wq_slot_idle(struct write_queue *wq, unsigned int slot);
/* Also after a failure.  0 or -errno. */
int wq_drain(struct write_queue *wq);

#endif
