/* datagen.h - what the writer writes: random (xoshiro256+, stamped so that
 * nothing dedupes or compresses), fixed (one random buffer again, as
 * bench/overwrite.c's), zero, or compressible (random with PCT % of each
 * 4 KiB block zeroed after its stamp).  One datagen per writer; not shared.
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
	int filled;		/* fixed, zero: once is enough */
};

void datagen_init(struct datagen *g, enum ws_data mode, unsigned int pct,
		  uint64_t seed);
/* len is a multiple of 8. */
void datagen_fill(struct datagen *g, void *buf, size_t len);

/* Stamped data come from a pool generated once, untimed, each slot
 * restamped where it is written.  Page-aligned (O_DIRECT).  get/put: the
 * writer thread only. */
struct datagen_feed {
	struct datagen gen;
	void *pool;		/* nslots buffers of len bytes */
	unsigned int nslots, next;
	size_t len;
	bool stamped;
	uint64_t run;		/* the seed */
	uint64_t *payload;	/* each pool block's payload hash */
};

/* 0 or -errno.  held: buffers still in flight at a get(); the pool has
 * more slots. */
WS_MUST_CHECK int datagen_feed_start(struct datagen_feed *f, enum ws_data mode,
		       unsigned int pct, uint64_t seed, size_t len,
		       unsigned int held);
unsigned int datagen_feed_slot(const struct datagen_feed *f);
/* Stamped over its first `used` bytes; offset a multiple of 4 KiB. */
void *datagen_feed_get(struct datagen_feed *f, uint64_t offset, uint32_t pass,
		       size_t used);
void datagen_feed_put(struct datagen_feed *f);
void datagen_feed_stop(struct datagen_feed *f);

bool datagen_stamped(enum ws_data mode);

#endif
