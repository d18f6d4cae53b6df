/* matrix_state.h - inside `writestress matrix` only: what the command
 * holds from its command line to its table, and the calls between its
 * files.  Main thread.
 */
#ifndef WS_MATRIX_STATE_H
#define WS_MATRIX_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/matrix/matrix.h"
#include "matrix_runs.h"
#include "matrix_settings.h"

struct matrix_args {
	const char *strategies;
	const char *each;
	uint64_t target_latency_ns;
	unsigned int headroom;
	bool shuffle, force;
	unsigned int repeat;
	const char *json_path, *svg_path;
	uint64_t file_size;
	const char *schedulers, *dirty_bytes;
	const char *probe, *probe_dir, *probe_interval, *stall;
	const char *probe_cmd, *probe_user, *sqlite_journal, *sqlite_sync;
};

struct matrix_state {
	struct matrix_args args;
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int ns;
	struct matrix_cfg mc;
	struct matrix_settings st;
	struct matrix_runs runs;
	unsigned int total;
	char tmpdir[64];
	uint64_t idle_dirty;
};

/* SIGINT and SIGTERM reach the running child (matrix_run.c); the signal
 * that came, or 0. */
void matrix_catch_signals(void);
int matrix_interrupted(void);

/* FILE laid out to the size every run wraps at, when it does not exist;
 * 0, or the child's exit status with a message. */
int matrix_lay_out(struct matrix_state *m);

/* Every run, in order; the exit status the matrix ends with so far. */
int matrix_run_all(struct matrix_state *m);

#endif
