/* matrix_runs.h - inside `writestress matrix` only: the runs done so far,
 * on the heap, grown as they come and bounded by MATRIX_MAX_RUNS.  Main
 * thread. */
#ifndef WS_MATRIX_RUNS_H
#define WS_MATRIX_RUNS_H

#include <stddef.h>

#include "cmd/matrix/matrix.h"

struct json_object;

struct matrix_runs {
	struct matrix_outcome *o;
	struct json_object **results;	/* o[i]'s result tree, or NULL */
	size_t n;
	size_t o_cap, results_cap;
};

/* One more run, o[n - 1] zeroed and its result NULL.  0; -E2BIG past
 * MATRIX_MAX_RUNS; -ENOMEM, with the runs as they were. */
int matrix_runs_add(struct matrix_runs *r);

/* Every result put and both arrays freed; r is empty again. */
void matrix_runs_free(struct matrix_runs *r);

#endif
