/* datagen.h - what the writer writes.
 *
 *   random        every buffer refilled from xoshiro256+ (four lanes, so it
 *                 runs at memory speed): nothing repeats, nothing compresses,
 *                 SSD controllers that deduplicate or compress gain nothing;
 *   fixed         one random buffer written again and again (overwrite.c);
 *   zero          zeros;
 *   compressible  random, with PCT % of every 4 KiB block zeroed.
 * One datagen per writer thread; not shared.
 */
#ifndef WS_DATAGEN_H
#define WS_DATAGEN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c.h"
#include "config.h"

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

/* A feed of filled buffers for the writer.  For kinds that refill (random,
 * compressible) a filler thread fills one buffer while the writer writes
 * the other, so generating data costs the writer nothing on a machine
 * with a second core; fixed and zero use one buffer filled once.  The
 * writer thread is the only caller of get/put; start/stop are its owner's.
 * Buffers are page-aligned (O_DIRECT) and len bytes long. */
struct datagen_feed {
	struct datagen gen;
	void *buf[2];
	size_t len;
	bool refill;		/* two buffers and a filler thread */
	unsigned int next;	/* the buffer get() hands out next */

	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool full[2];		/* guarded by lock */
	bool stop;		/* guarded by lock */
	pthread_t filler;
};

/* 0 or -errno. */
WS_MUST_CHECK int datagen_feed_start(struct datagen_feed *f, enum ws_data mode,
		       unsigned int pct, uint64_t seed, size_t len);
/* The next filled buffer (waits for the filler if it is behind). */
void *datagen_feed_get(struct datagen_feed *f);
/* The writer is done with the buffer get() returned: refill it. */
void datagen_feed_put(struct datagen_feed *f);
void datagen_feed_stop(struct datagen_feed *f);

/* Parse "random", "fixed", "zero", "compressible=PCT".  0 or -EINVAL. */
int datagen_parse(const char *s, enum ws_data *mode, unsigned int *pct);
const char *datagen_name(enum ws_data mode);

#endif
