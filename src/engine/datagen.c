/* datagen.c - buffer contents. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/blockstamp.h"
#include "engine/datagen.h"
#include "lib/units.h"

#define LANES 4
#define BLOCK WS_BLOCK

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void datagen_init(struct datagen *g, enum ws_data mode, unsigned int pct,
		  uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->mode = mode;
	g->compress_pct = pct;
	for (int w = 0; w < 4; w++)
		for (int l = 0; l < LANES; l++)
			g->s[w][l] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256+ in four lanes as structure of arrays, so the compiler keeps
 * them in vector registers. */
static void fill_random(struct datagen *g, uint64_t *out, size_t words)
{
	uint64_t s0[LANES], s1[LANES], s2[LANES], s3[LANES];
	size_t i;

	memcpy(s0, g->s[0], sizeof(s0));
	memcpy(s1, g->s[1], sizeof(s1));
	memcpy(s2, g->s[2], sizeof(s2));
	memcpy(s3, g->s[3], sizeof(s3));
	for (i = 0; i + LANES <= words; i += LANES) {
		for (int l = 0; l < LANES; l++) {
			uint64_t t = s1[l] << 17;

			out[i + l] = s0[l] + s3[l];
			s2[l] ^= s0[l];
			s3[l] ^= s1[l];
			s1[l] ^= s2[l];
			s0[l] ^= s3[l];
			s2[l] ^= t;
			s3[l] = rotl(s3[l], 45);
		}
	}
	for (int l = 0; i < words; i++, l++)
		out[i] = s0[l] + s3[l];
	memcpy(g->s[0], s0, sizeof(s0));
	memcpy(g->s[1], s1, sizeof(s1));
	memcpy(g->s[2], s2, sizeof(s2));
	memcpy(g->s[3], s3, sizeof(s3));
}

/* Zeros after each block's stamp: compressors see long runs. */
static void zero_part(void *buf, size_t len, unsigned int pct)
{
	size_t zero = (size_t)(BLOCK - WS_STAMP_LEN) * pct / 100;

	for (size_t off = 0; off + WS_STAMP_LEN < len; off += BLOCK) {
		size_t from = off + WS_STAMP_LEN;
		size_t n = len - from < zero ? len - from : zero;

		memset((char *)buf + from, 0, n);
	}
}

void datagen_fill(struct datagen *g, void *buf, size_t len)
{
	switch (g->mode) {
	case WS_DATA_RANDOM:
		fill_random(g, buf, len / 8);
		break;
	case WS_DATA_COMPRESSIBLE:
		fill_random(g, buf, len / 8);
		zero_part(buf, len, g->compress_pct);
		break;
	case WS_DATA_FIXED:
		/* the buffer is only ever as large as the first fill */
		if (!g->filled)
			fill_random(g, buf, len / 8);
		break;
	case WS_DATA_ZERO:
		if (!g->filled)
			memset(buf, 0, len);
		break;
	case WS_DATA_NR:
		abort();
	}
	g->filled = 1;
}

/* Larger than any compressor's window on the way to the disk (zstd's 2-8
 * MiB), so none sees a payload twice; small enough to stay mostly in the
 * CPU's cache while the kernel copies from it (64 MiB cost more). */
#define POOL_BYTES (16 * WS_MIB)

static unsigned int pool_slots(enum ws_data mode, size_t len,
			       unsigned int held)
{
	size_t n;

	if (!datagen_stamped(mode))
		return 1;	/* never rewritten: any number may be in flight */
	n = (POOL_BYTES + len - 1) / len;
	if (n < (size_t)held + 1)
		n = (size_t)held + 1;
	return n < 2 ? 2 : (unsigned int)n;
}

int datagen_feed_start(struct datagen_feed *f, enum ws_data mode,
		       unsigned int pct, uint64_t seed, size_t len,
		       unsigned int held)
{
	size_t nblocks;
	int ret;

	memset(f, 0, sizeof(*f));
	datagen_init(&f->gen, mode, pct, seed);
	f->len = len;
	f->run = seed;
	f->stamped = datagen_stamped(mode);
	f->nslots = pool_slots(mode, len, held);
	/* touch every page now, so no fault is ever timed */
	ret = posix_memalign(&f->pool, 4096, (size_t)f->nslots * len);
	if (ret) {
		f->pool = NULL;
		return -ret;
	}
	for (unsigned int i = 0; i < f->nslots; i++)
		datagen_fill(&f->gen, (char *)f->pool + (size_t)i * len, len);
	if (!f->stamped)
		return 0;
	nblocks = (size_t)f->nslots * len / WS_BLOCK;
	f->payload = malloc(nblocks * sizeof(*f->payload));
	if (!f->payload) {
		free(f->pool);
		f->pool = NULL;
		return -ENOMEM;
	}
	for (size_t b = 0; b < nblocks; b++)
		f->payload[b] = ws_block_hash((char *)f->pool + b * WS_BLOCK + WS_STAMP_LEN,
					      WS_BLOCK - WS_STAMP_LEN, f->run);
	return 0;
}

void *datagen_feed_get(struct datagen_feed *f, uint64_t offset, uint32_t pass,
		       size_t used)
{
	char *buf = (char *)f->pool + (size_t)f->next * f->len;
	size_t first = (size_t)f->next * f->len / WS_BLOCK;

	if (f->stamped)
		for (size_t i = 0; i * WS_BLOCK < used; i++)
			ws_stamp_block(buf + i * WS_BLOCK, f->run,
				       offset + i * WS_BLOCK, pass,
				       f->payload[first + i]);
	return buf;
}

unsigned int datagen_feed_slot(const struct datagen_feed *f)
{
	return f->next;
}

void datagen_feed_put(struct datagen_feed *f)
{
	f->next = (f->next + 1) % f->nslots;
}

void datagen_feed_stop(struct datagen_feed *f)
{
	free(f->pool);
	free(f->payload);
	f->pool = NULL;
	f->payload = NULL;
}

bool datagen_stamped(enum ws_data mode)
{
	return mode == WS_DATA_RANDOM || mode == WS_DATA_COMPRESSIBLE;
}
