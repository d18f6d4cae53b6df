/* matrix_settings.h - inside `writestress matrix` only: the settings its
 * rows compare (--schedulers or --dirty-bytes), parsed, applied row by
 * row and put back.  Main thread.
 */
#ifndef WS_MATRIX_SETTINGS_H
#define WS_MATRIX_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd/matrix/matrix.h"

struct cli;

struct matrix_settings {
	const struct cli *cli;		/* matrix's table: its messages' words */
	const char *kind;		/* "scheduler", "dirty_bytes", NULL */
	char copy[256];
	const char *names[MATRIX_MAX_SETTINGS];
	uint64_t bytes[MATRIX_MAX_SETTINGS];
	unsigned int n;
	/* --dirty-bytes: what to put back */
	char old_bytes[32], old_ratio[32];
	bool changed;
};

/* The lists given (NULL: not given; one of them at most).  0, or -errno
 * with a usage error printed (in cli's words: matrix's table). */
int matrix_parse_settings(struct matrix_settings *st, const struct cli *cli,
			  const char *schedulers, const char *dirty_bytes);
/* Row i's setting in force (vm.dirty_bytes; a scheduler is the child's
 * own option).  0, or -errno with a message. */
int matrix_apply_setting(struct matrix_settings *st, unsigned int i);
/* What a setting changed, as it was. */
void matrix_restore_settings(struct matrix_settings *st);

#endif
