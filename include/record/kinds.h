/* record/kinds.h - the kinds a run's record names: where the writer's
 * time goes, how a run ended, what a block read back is, and how long a
 * wait site's name may be; each with its keys and words, one table each
 * for every output (kinds.c). */
#ifndef WS_RECORD_KINDS_H
#define WS_RECORD_KINDS_H

/* Where the writer's time goes: one timer per kind of wait. */
enum ws_timer {
	WS_T_FILL,	/* generating buffer contents */
	WS_T_WRITE,	/* inside write(): copying, dirty throttling */
	WS_T_START,	/* starting writeback (SYNC_FILE_RANGE_WRITE) */
	WS_T_WAIT,	/* waiting for writeback / fdatasync */
	WS_T_FADVISE,	/* dropping pages */
	WS_T_RATE,	/* sleeping to honour --rate */
	WS_T_SUBMIT,	/* --iodepth: queueing writes (write_queue.h) */
	WS_T_COMPLETE,	/* --iodepth: waiting for a write to complete */
	WS_T_NR
};

/* "wait writeback": the summary's words. */
const char *ws_timer_words(enum ws_timer t);
/* "wait_ms": plain lines and CSV columns. */
const char *ws_timer_key(enum ws_timer t);
/* "wait_writeback": JSON members. */
const char *ws_timer_json(enum ws_timer t);

/* How a run ended. */
enum ws_stop_reason {
	WS_STOP_BOUND,		/* -b / --size reached */
	WS_STOP_TIME,		/* --time reached */
	WS_STOP_SIGNAL,		/* SIGINT / SIGTERM */
	WS_STOP_ERROR,		/* an I/O error ended the run */
	WS_STOP_STEADY,		/* --until-steady: steady state held */
	WS_STOP_NOT_STEADY,	/* --until-steady gave up: --steady-max-rounds */
	WS_STOP_NR
};

/* "bound", "not_steady": the result's exit_reason. */
const char *ws_stop_key(enum ws_stop_reason r);

/* What a 4 KiB block read back is, by its stamp (blockstamp.h). */
enum ws_block_state {
	WS_BLOCK_OK,		/* stamped, intact, where it was written */
	WS_BLOCK_UNSTAMPED,	/* no stamp: never written by a run with
				   stamps, or its head was overwritten */
	WS_BLOCK_CORRUPT,	/* the stamp or the payload does not match
				   its hash */
	WS_BLOCK_MISPLACED,	/* intact, but written for another offset */
	WS_BLOCK_OTHER_RUN,	/* intact, of another run */
	WS_BLOCK_NR
};

/* "other_run": JSON members.  "of another run": people. */
const char *ws_block_state_key(enum ws_block_state s);
const char *ws_block_state_words(enum ws_block_state s);

/* The longest kernel function name kept for a wait site. */
#define WS_SITE_LEN 48

#endif
