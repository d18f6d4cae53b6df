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

#include <stddef.h>
#include <stdint.h>

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

/* Parse "random", "fixed", "zero", "compressible=PCT".  0 or -EINVAL. */
int datagen_parse(const char *s, enum ws_data *mode, unsigned int *pct);
const char *datagen_name(enum ws_data mode);

#endif
