/* compare_tree.h - inside `writestress compare` only: reading the json-c
 * trees of result files, shared by compare.c (the rows) and
 * compare_diff.c (the differences); looking fields up is result_read.h.
 * Nothing else includes this; the command's interface is compare.h.
 *
 * Pure; any thread.  Nothing here keeps a pointer into a tree.
 */
#ifndef WS_COMPARE_TREE_H
#define WS_COMPARE_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/compare/compare.h"

struct json_object;

/* Append to *v (n used of *cap) every scalar leaf under KEY of A and of B
 * that differs (see struct cmp_diff), but the fields that differ on every
 * run or repeat another (target.path, target.fs_avail).  0 or -ENOMEM. */
int compare_diff_key(struct cmp_diff **v, size_t *n, size_t *cap, const char *key,
		     const struct json_object *a, const struct json_object *b);

/* Mark R's differences that change the result (of a MATRIX's settings or
 * a run's), count them, note the values writestress chose, and set
 * R->judged.  0 or -ENOMEM. */
int compare_settle_diffs(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, bool matrix);

void compare_free_diffs(struct cmp_diff *d, size_t n);

#endif
