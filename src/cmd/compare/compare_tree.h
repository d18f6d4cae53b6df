/* compare_tree.h - inside `writestress compare` only: the differences
 * between two result trees.  Pure; keeps no pointer into a tree. */
#ifndef WS_COMPARE_TREE_H
#define WS_COMPARE_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/compare/compare.h"

struct json_object;

/* Append to *v every scalar leaf under KEY that differs in A and B, but
 * those that differ on every run (target.path, target.fs_avail).  0 or
 * -ENOMEM. */
int compare_diff_key(struct cmp_diff **v, size_t *n, size_t *cap, const char *key,
		     const struct json_object *a, const struct json_object *b);

/* Mark and count R's differences that change the result, note the values
 * writestress chose, set R->judged.  0 or -ENOMEM. */
int compare_settle_diffs(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, bool matrix);

void compare_free_diffs(struct cmp_diff *d, size_t n);

#endif
