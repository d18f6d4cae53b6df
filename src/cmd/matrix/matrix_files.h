/* matrix_files.h - the matrix's result files: JSON (every run's full
 * result and the table, schema MATRIX_SCHEMA, doc/result-json.md) and an
 * SVG of throughput against the probe's p99, through the outputs' safe
 * result file.  Main thread only. */
#ifndef WS_MATRIX_FILES_H
#define WS_MATRIX_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/matrix/matrix.h"

struct json_object;

/* What a finished (or interrupted) matrix holds. */
struct matrix_doc {
	const struct matrix_strategy *s;
	unsigned int ns;
	const struct matrix_outcome *o;
	struct json_object *const *results;	/* per outcome, or NULL */
	size_t no;
	const struct matrix_row *rows;
	size_t nrows;
	int best;				/* the recommended row, or -1 */
	double target_ms;
	unsigned int headroom_pct;		/* the adaptive row's, 0: none */
	uint64_t each_bytes, each_ns;
	const char *setting_kind;		/* "scheduler", "dirty_bytes", NULL */
	const char *const *settings;
	unsigned int nsettings;
	bool complete;				/* every run ran */
	bool force;				/* --force: may replace a file
						   writestress did not write */
};

/* The JSON document, and the plot of throughput against the probe's p99,
 * written to f. */
void matrix_json(FILE *f, const struct matrix_doc *d);
void matrix_svg(FILE *f, const struct matrix_doc *d);
/* ... as the result file PATH (sink_add_file; "-": stdout).  0, or
 * -errno with err filled ("cannot write '...': ..."). */
int matrix_write_json(const char *path, const struct matrix_doc *d, char *err,
		      size_t len);
int matrix_write_svg(const char *path, const struct matrix_doc *d, char *err,
		     size_t len);

#endif
