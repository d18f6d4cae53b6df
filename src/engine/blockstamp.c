/* blockstamp.c - block stamps. */
#include <string.h>

#include "engine/blockstamp.h"

_Static_assert(sizeof(struct ws_block_stamp) == 40, "the stamp is 40 bytes");
_Static_assert((WS_BLOCK - sizeof(struct ws_block_stamp)) % 8 == 0,
	       "the payload is whole words");

static inline uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	return h ^ (h >> 33);
}

uint64_t ws_block_hash(const void *p, size_t len, uint64_t seed)
{
	const unsigned char *b = p;
	/* four lanes, so the multiplies overlap */
	uint64_t h[4] = { seed, seed ^ 1, seed ^ 2, seed ^ 3 };
	size_t i = 0;

	for (; i + 32 <= len; i += 32) {
		for (int l = 0; l < 4; l++) {
			uint64_t w;

			memcpy(&w, b + i + 8 * (size_t)l, 8);
			h[l] = (h[l] ^ w) * UINT64_C(0x9e3779b97f4a7c15);
			h[l] ^= h[l] >> 29;
		}
	}
	for (int l = 0; i + 8 <= len; i += 8, l++) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		h[l] = (h[l] ^ w) * UINT64_C(0x9e3779b97f4a7c15);
	}
	return mix(h[0] ^ mix(h[1] ^ mix(h[2] ^ mix(h[3] ^ len))));
}

uint32_t ws_stamp_check(const struct ws_block_stamp *s)
{
	uint64_t h = mix(s->magic ^ mix(s->run ^ mix(s->offset ^
			 mix(s->payload ^ mix(s->pass)))));

	return (uint32_t)(h ^ (h >> 32));
}

void ws_stamp_block(void *block, uint64_t run, uint64_t offset,
		    uint32_t pass, uint64_t payload)
{
	struct ws_block_stamp s = {
		.magic = WS_STAMP_MAGIC, .run = run, .offset = offset,
		.payload = payload, .pass = pass,
	};

	s.check = ws_stamp_check(&s);
	memcpy(block, &s, sizeof(s));
}

enum ws_block_state ws_block_check(const void *block, uint64_t offset,
				   uint64_t run, struct ws_block_stamp *stamp)
{
	const unsigned char *b = block;

	memcpy(stamp, b, sizeof(*stamp));
	if (stamp->magic != WS_STAMP_MAGIC)
		return WS_BLOCK_UNSTAMPED;
	if (stamp->check != ws_stamp_check(stamp) ||
	    stamp->payload != ws_block_hash(b + WS_STAMP_LEN,
					    WS_BLOCK - WS_STAMP_LEN, stamp->run))
		return WS_BLOCK_CORRUPT;
	if (run && stamp->run != run)
		return WS_BLOCK_OTHER_RUN;
	if (stamp->offset != offset)
		return WS_BLOCK_MISPLACED;
	return WS_BLOCK_OK;
}
