/* blockstamp.h - the stamp heading each 4 KiB block of random and
 * compressible data: every block unique (no deduplicating SSD gains) for
 * 40 bytes rewritten, and a read-back tells corrupted, misplaced and lost
 * (older pass) blocks.  Host byte order.  Pure; any thread.
 */
#ifndef WS_BLOCKSTAMP_H
#define WS_BLOCKSTAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

#define WS_STAMP_MAGIC UINT64_C(0x3162736574697277)	/* "writesb1" */

struct ws_block_stamp {
	uint64_t magic;
	uint64_t run;		/* the run's seed */
	uint64_t offset;
	uint64_t payload;	/* ws_block_hash of the rest of the block */
	uint32_t pass;		/* the file's wraps before it was written */
	uint32_t check;		/* ws_stamp_check */
};

#define WS_STAMP_LEN sizeof(struct ws_block_stamp)	/* 40 */

/* len a multiple of 8; against corruption, not adversaries. */
uint64_t ws_block_hash(const void *p, size_t len, uint64_t seed);

uint32_t ws_stamp_check(const struct ws_block_stamp *s);

/* block: WS_BLOCK bytes. */
void ws_stamp_block(void *block, uint64_t run, uint64_t offset,
		    uint32_t pass, uint64_t payload);

/* block: WS_BLOCK bytes read at offset; run 0: any run. */
enum ws_block_state ws_block_check(const void *block, uint64_t offset,
				   uint64_t run, struct ws_block_stamp *stamp);

#endif
