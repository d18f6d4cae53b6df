/* record/verify.h - the file read back after a run, block by block by its stamps
 * (readback.h makes it). */
#ifndef WS_RECORD_VERIFY_H
#define WS_RECORD_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "record/kinds.h"

#define WS_BLOCK 4096		/* the unit of stamps and of verify */

#define WS_VERIFY_LISTED 8	/* bad blocks named one by one */

struct ws_verify_bad {
	uint64_t offset;
	enum ws_block_state state;	/* WS_BLOCK_OK when stale */
	bool stale;			/* an older pass than expected */
	uint64_t found;			/* misplaced: the offset it was for */
};

struct ws_verify {
	uint64_t run;			/* the run checked for */
	uint64_t blocks;		/* whole 4 KiB blocks read */
	uint64_t count[WS_BLOCK_NR];	/* by state (stale ones not as ok) */
	uint64_t stale;			/* intact, but of an older pass */
	uint32_t last_pass;		/* the newest pass seen */
	uint64_t last_pass_end;		/* where it ended */
	/* the run's extent: where its last block ends; after it, blocks of
	 * another run intact and in place, nothing else, are the tail of an
	 * earlier, longer run (rewritten in place up to here), not damage */
	uint64_t run_end;
	uint64_t older_tail;		/* blocks in that tail */
	uint64_t older_run;		/* its run's id */
	unsigned int nlisted;
	struct ws_verify_bad listed[WS_VERIFY_LISTED];	/* the first ones */
	int err;			/* the read failed: positive errno */
	bool clean;			/* every block ok, all of it read */
};

#endif
