/* blockstamp.h - the stamp at the head of every 4 KiB block of random and
 * compressible data: which run wrote it, where, in which pass over the
 * file, and a hash of the rest of the block.
 *
 * Two jobs.  It makes every block of a run unique (no two share offset
 * and pass), so an SSD that deduplicates 4 KiB blocks gains nothing,
 * although the rest of each block comes from a pool generated once: the
 * writer rewrites 40 bytes a block, not the whole buffer.  And it lets a
 * later read check each block on its own (writestress verify): a block
 * with a bad hash was corrupted, one whose offset is not where it sits
 * was misplaced, one of an older pass was lost (never rewritten).
 *
 * Fields are in the host's byte order (verify on the same architecture).
 * Pure functions; any thread.
 */
#ifndef WS_BLOCKSTAMP_H
#define WS_BLOCKSTAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

#define WS_STAMP_MAGIC UINT64_C(0x3162736574697277)	/* "writesb1" */

struct ws_block_stamp {
	uint64_t magic;		/* WS_STAMP_MAGIC */
	uint64_t run;		/* the run's seed: which run wrote it */
	uint64_t offset;	/* the file offset the block was written at */
	uint64_t payload;	/* ws_block_hash of the block after the stamp */
	uint32_t pass;		/* wraps of the file before it was written */
	uint32_t check;		/* hash of the fields above */
};

#define WS_STAMP_LEN sizeof(struct ws_block_stamp)	/* 40 */

/* A 64-bit hash of len bytes (len a multiple of 8), for corruption, not
 * for adversaries: every word is mixed in, so a flipped bit changes it. */
uint64_t ws_block_hash(const void *p, size_t len, uint64_t seed);

/* The stamp's own check over its other fields. */
uint32_t ws_stamp_check(const struct ws_block_stamp *s);

/* Write the stamp at the head of block (WS_BLOCK bytes whose payload hash
 * is payload). */
void ws_stamp_block(void *block, uint64_t run, uint64_t offset,
		    uint32_t pass, uint64_t payload);

/* What block (WS_BLOCK bytes read at file offset `offset`) is, for a run
 * (its seed) when run is not 0; *stamp gets the stamp read. */
enum ws_block_state ws_block_check(const void *block, uint64_t offset,
				   uint64_t run, struct ws_block_stamp *stamp);

#endif
