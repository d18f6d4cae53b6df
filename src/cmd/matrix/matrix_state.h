/* matrix_state.h - inside `writestress matrix` only: what the command
 * holds from its command line to its table, and the calls between its
 * files.  Main thread.
 */
#ifndef WS_MATRIX_STATE_H
#define WS_MATRIX_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "cmd/matrix/matrix.h"
#include "matrix_runs.h"
#include "matrix_settings.h"

#define MATRIX_NOPTS 25	/* rows of matrix's option table, at most */

struct matrix_args {
	/* the run's options it passes on, as the run's parsers read them
	 * (config/options.h): they write the struct ws_config at dest */
	struct ws_config run;
	const char *probe;			/* as given, and */
	const char *probe_cmds[WS_MAX_PROBE_CMDS];	/* run.set.cmds.n of them */
	const char *strategies;
	const char *each;
	bool shuffle, force;
	unsigned int repeat;
	unsigned int idle_x;		/* 0: --target-latency as given */
	bool idle_x_done;		/* the target taken from idle */
	const char *json_path, *svg_path;
	uint64_t file_size;
	const char *schedulers, *dirty_bytes;
};

struct matrix_state {
	struct matrix_args args;
	bool seen[MATRIX_NOPTS];	/* cli_parse's: the rows given */
	char num[2][32];		/* numbers the children's options point into */
	struct matrix_strategy s[MATRIX_MAX_STRATEGIES];
	unsigned int ns;
	struct matrix_cfg mc;
	struct matrix_settings st;
	struct matrix_runs runs;
	unsigned int total;
	char tmpdir[64];
	uint64_t idle_dirty;
};

/* The run's options given to the matrix into m->mc, as every child gets
 * them, and the target latency and headroom the adaptive row gets. */
void matrix_pass_on(struct matrix_state *m);

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
