/* record/verify.h - the file read back after a run by its block stamps
 * (readback.h). */
#ifndef WS_RECORD_VERIFY_H
#define WS_RECORD_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "record/kinds.h"

#define WS_BLOCK 4096		/* the unit of stamps and of verify */

#define WS_VERIFY_LISTED 8

struct ws_verify_bad {
	uint64_t offset;
	enum ws_block_state state;	/* WS_BLOCK_OK when stale */
	bool stale;			/* of an older pass */
	uint64_t found;			/* misplaced: the offset it was for */
};

struct ws_verify {
	uint64_t run;			/* id of the run that wrote the blocks */
	uint64_t blocks;		/* whole ones read */
	uint64_t count[WS_BLOCK_NR];	/* stale ones not as ok */
	uint64_t stale;
	uint32_t last_pass;		/* the newest seen */
	uint64_t last_pass_end;
	/* past run_end, intact blocks of another run in place are an
	 * earlier, longer run's tail, not damage */
	uint64_t run_end;
	uint64_t older_tail;		/* blocks */
	uint64_t older_run;
	unsigned int nlisted;
	struct ws_verify_bad listed[WS_VERIFY_LISTED];
	int err;			/* the read failed: positive errno */
	bool clean;			/* all read, every block ok */
};

#endif
