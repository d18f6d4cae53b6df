/* datagen.h - what the writer writes.
 *
 *   random        xoshiro256+ (four lanes), from a 16 MiB pool with a stamp
 *                 a 4 KiB block (datagen_feed): no block repeats, nothing
 *                 compresses, SSD controllers that deduplicate or compress
 *                 gain nothing;
 *   fixed         one random buffer written again and again (overwrite.c);
 *   zero          zeros;
 *   compressible  random, with PCT % of every 4 KiB block zeroed (after
 *                 its stamp).
 * One datagen per writer thread; not shared.
 */
#ifndef WS_DATAGEN_H
#define WS_DATAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/c.h"
#include "config/config.h"

struct datagen {
	enum ws_data mode;
	unsigned int compress_pct;
	uint64_t s[4][4];	/* four xoshiro256+ lanes */
	int filled;		/* fixed/zero: filled once already */
};

void datagen_init(struct datagen *g, enum ws_data mode, unsigned int pct,
		  uint64_t seed);
/* Make buf[0..len) the next buffer's contents.  len is a multiple of 8. */
void datagen_fill(struct datagen *g, void *buf, size_t len);

/* The writer's buffers.  Random and compressible data come from a pool
 * generated once (at start, untimed) that spans 16 MiB, two buffers or
 * --iodepth + 1 buffers, whichever is most:
 * each buffer handed out is the next slot of the pool with a stamp
 * (blockstamp.h) written at the head of each 4 KiB block for the offset
 * and pass it is written at, so every block of a run is unique while the
 * writer rewrites 40 bytes a block instead of refilling the buffer.
 * Fixed and zero data are one buffer, as overwrite.c's.  Buffers are
 * page-aligned (O_DIRECT) and len bytes long.  The writer thread is the
 * only caller of get/put; start/stop are its owner's. */
struct datagen_feed {
	struct datagen gen;
	void *pool;		/* nslots buffers of len bytes */
	unsigned int nslots, next;
	size_t len;
	bool stamped;		/* random, compressible */
	uint64_t run;		/* the seed: the stamps' run */
	uint64_t *payload;	/* each pool block's payload hash */
};

/* 0 or -errno.  held: how many buffers the writer may still have in
 * flight when it asks for the next (--iodepth): the pool has more slots
 * than that, so no slot is restamped while a write reads it. */
WS_MUST_CHECK int datagen_feed_start(struct datagen_feed *f, enum ws_data mode,
		       unsigned int pct, uint64_t seed, size_t len,
		       unsigned int held);
/* The pool slot the next get() hands out. */
unsigned int datagen_feed_slot(const struct datagen_feed *f);
/* The next buffer, stamped for its first `used` bytes written at file
 * offset `offset` (a multiple of 4 KiB) in pass `pass`. */
void *datagen_feed_get(struct datagen_feed *f, uint64_t offset, uint32_t pass,
		       size_t used);
/* The writer is done with the buffer get() returned. */
void datagen_feed_put(struct datagen_feed *f);
void datagen_feed_stop(struct datagen_feed *f);

/* Does mode carry a stamp a 4 KiB block (blockstamp.h)? */
bool datagen_stamped(enum ws_data mode);

#endif
