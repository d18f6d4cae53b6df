/* record/kinds.h - the kinds a record names, each with its keys and words
 * for every output (kinds.c). */
#ifndef WS_RECORD_KINDS_H
#define WS_RECORD_KINDS_H

/* Where the writer's time goes. */
enum ws_timer {
	WS_T_FILL,	/* generating buffer contents */
	WS_T_WRITE,	/* in write(): copying, dirty throttling */
	WS_T_START,	/* SYNC_FILE_RANGE_WRITE */
	WS_T_WAIT,	/* for writeback or fdatasync */
	WS_T_FADVISE,	/* dropping pages */
	WS_T_RATE,	/* sleeping for --rate */
	WS_T_SUBMIT,	/* --iodepth: queueing writes */
	WS_T_COMPLETE,	/* --iodepth: waiting for one to complete */
	WS_T_NR
};

/* "wait writeback" (summary), "wait_ms" (plain, CSV), "wait_writeback"
 * (JSON). */
const char *ws_timer_words(enum ws_timer t);
const char *ws_timer_key(enum ws_timer t);
const char *ws_timer_json(enum ws_timer t);

enum ws_stop_reason {
	WS_STOP_BOUND,		/* -b or --size */
	WS_STOP_TIME,
	WS_STOP_SIGNAL,
	WS_STOP_ERROR,
	WS_STOP_STEADY,		/* --until-steady: held */
	WS_STOP_NOT_STEADY,	/* --until-steady gave up */
	WS_STOP_NR
};

/* The result's exit_reason. */
const char *ws_stop_key(enum ws_stop_reason r);

/* What an error adds to its errno. */
enum ws_err_detail {
	WS_DETAIL_NONE,
	WS_DETAIL_RESERVE,	/* bytes: the --reserve free space fell to */
	WS_DETAIL_DONTCACHE,	/* the --pace needs RWF_DONTCACHE */
	WS_DETAIL_NO_START,	/* the writer could not start */
};

/* A 4 KiB block read back, by its stamp (blockstamp.h). */
enum ws_block_state {
	WS_BLOCK_OK,		/* intact, where it was written */
	WS_BLOCK_UNSTAMPED,	/* never stamped, or its head overwritten */
	WS_BLOCK_CORRUPT,	/* stamp or payload fails its hash */
	WS_BLOCK_MISPLACED,	/* intact, written for another offset */
	WS_BLOCK_OTHER_RUN,	/* intact, of another run */
	WS_BLOCK_NR
};

/* "other_run" (JSON), "of another run" (people). */
const char *ws_block_state_key(enum ws_block_state s);
const char *ws_block_state_words(enum ws_block_state s);

/* The longest kernel function name kept for a wait site. */
#define WS_SITE_LEN 48

#endif
