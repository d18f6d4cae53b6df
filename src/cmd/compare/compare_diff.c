/* compare_diff.c - the leaves two result files differ in, and which of
 * them change the result (see compare_tree.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/array.h"
#include "lib/c.h"
#include "cmd/compare/compare.h"
#include "compare_tree.h"
#include "cmd/common/result_read.h"

struct diff_list {
	struct cmp_diff **v;
	size_t *n, *cap;
};

/* Fractions to 15 digits: the file's 0.20000000000000001 is 0.2. */
static char *printable(const struct json_object *v, enum result_found f,
		       enum cmp_unit unit)
{
	char num[32];
	const char *s = num;
	char *out;

	if (f == RESULT_ABSENT)
		s = "-";
	else if (f == RESULT_NULL)
		s = "null";
	else if (result_is_number(v) &&
		 compare_format_unit(num, sizeof(num), json_object_get_double(v), unit))
		s = num;
	else if (json_object_is_type(v, json_type_double))
		snprintf(num, sizeof(num), "%.15g", json_object_get_double(v));
	else
		s = json_object_get_string((struct json_object *)v);
	out = strdup(s ? s : "");
	if (out)
		result_sanitize(out);
	return out;
}

static void free_diff(struct cmp_diff *d)
{
	free(d->path);
	free(d->a);
	free(d->b);
	free(d->note);
}

/* Sizes that differ but read the same get their bytes: "65.6 GiB
 * (70447529984)". */
static int add_exact(char **text, const struct json_object *v, enum result_found f)
{
	char *raw = printable(v, f, CMP_UNIT_NONE), *both = NULL;
	int ret = raw && asprintf(&both, "%s (%s)", *text, raw) >= 0 ? 0 : -ENOMEM;

	free(raw);
	if (!ret) {
		free(*text);
		*text = both;
	}
	return ret;
}

static bool same_scalar(const struct json_object *a, enum result_found fa,
			const struct json_object *b, enum result_found fb)
{
	if (fa != RESULT_FOUND || fb != RESULT_FOUND)
		return fa == fb;
	if (result_is_number(a) && result_is_number(b)) {
		if (json_object_is_type(a, json_type_int) &&
		    json_object_is_type(b, json_type_int))
			return json_object_get_int64(a) == json_object_get_int64(b);
		return json_object_get_double(a) == json_object_get_double(b);
	}
	return json_object_get_type(a) == json_object_get_type(b) &&
	       !strcmp(json_object_get_string((struct json_object *)a),
		       json_object_get_string((struct json_object *)b));
}

static int add_diff(struct diff_list *l, const char *path,
		    const struct json_object *a, enum result_found fa,
		    const struct json_object *b, enum result_found fb)
{
	enum cmp_unit unit = compare_unit_of(path);
	struct cmp_diff *d;

	if (same_scalar(a, fa, b, fb))
		return 0;
	if (array_grow((void **)l->v, *l->n, l->cap, sizeof(*d)))
		return -ENOMEM;
	d = &(*l->v)[*l->n];
	*d = (struct cmp_diff){ .path = strdup(path), .a = printable(a, fa, unit),
				.b = printable(b, fb, unit) };
	if (!d->path || !d->a || !d->b ||
	    (unit && !strcmp(d->a, d->b) &&
	     (add_exact(&d->a, a, fa) || add_exact(&d->b, b, fb)))) {
		free_diff(d);
		return -ENOMEM;
	}
	(*l->n)++;
	return 0;
}

static bool is_container(const struct json_object *v, enum result_found f)
{
	return f == RESULT_FOUND && (json_object_is_type(v, json_type_object) ||
				  json_object_is_type(v, json_type_array));
}

static int diff_leaves(struct diff_list *l, const char *path,
		       const struct json_object *a, enum result_found fa,
		       const struct json_object *b, enum result_found fb);

/* A's keys in A's order, then B's that A lacks. */
static int diff_objects(struct diff_list *l, const char *path,
			const struct json_object *a, const struct json_object *b)
{
	const struct json_object *objs[2] = { a, b };

	for (int side = 0; side < 2; side++) {
		const struct json_object *o = objs[side], *other = objs[!side];
		struct json_object_iterator it, end;

		if (!json_object_is_type(o, json_type_object))
			continue;
		it = json_object_iter_begin((struct json_object *)o);
		end = json_object_iter_end(o);
		for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
			const char *key = json_object_iter_peek_name(&it);
			struct json_object *v = json_object_iter_peek_value(&it), *w = NULL;
			enum result_found fw = RESULT_ABSENT;
			char *sub;
			int ret;

			if (json_object_is_type(other, json_type_object) &&
			    json_object_object_get_ex(other, key, &w))
				fw = w ? RESULT_FOUND : RESULT_NULL;
			if (side == 1 && fw != RESULT_ABSENT)
				continue;	/* compared from A's side */
			if (asprintf(&sub, "%s.%s", path, key) < 0)
				return -ENOMEM;
			if (side == 0)
				ret = diff_leaves(l, sub, v, v ? RESULT_FOUND : RESULT_NULL, w, fw);
			else
				ret = diff_leaves(l, sub, w, fw, v, v ? RESULT_FOUND : RESULT_NULL);
			free(sub);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int diff_arrays(struct diff_list *l, const char *path,
		       const struct json_object *a, const struct json_object *b)
{
	size_t na = json_object_is_type(a, json_type_array) ? result_array_len(a) : 0;
	size_t nb = json_object_is_type(b, json_type_array) ? result_array_len(b) : 0;

	for (size_t i = 0; i < na || i < nb; i++) {
		struct json_object *va = i < na ? result_array_idx(a, i) : NULL;
		struct json_object *vb = i < nb ? result_array_idx(b, i) : NULL;
		enum result_found fa = i >= na ? RESULT_ABSENT : va ? RESULT_FOUND : RESULT_NULL;
		enum result_found fb = i >= nb ? RESULT_ABSENT : vb ? RESULT_FOUND : RESULT_NULL;
		char *sub;
		int ret;

		if (asprintf(&sub, "%s[%zu]", path, i) < 0)
			return -ENOMEM;
		ret = diff_leaves(l, sub, va, fa, vb, fb);
		free(sub);
		if (ret)
			return ret;
	}
	return 0;
}

/* Where only one side is a container, its leaves meet absent ones. */
static int diff_leaves(struct diff_list *l, const char *path,
		       const struct json_object *a, enum result_found fa,
		       const struct json_object *b, enum result_found fb)
{
	bool ca = is_container(a, fa), cb = is_container(b, fb);
	int ret = 0;

	if (!ca && !cb)
		return add_diff(l, path, a, fa, b, fb);
	if (ca != cb)
		ret = ca ? add_diff(l, path, NULL, RESULT_ABSENT, b, fb) :
			   add_diff(l, path, a, fa, NULL, RESULT_ABSENT);
	if (ret)
		return ret;
	if (!ca)
		a = NULL;
	if (!cb)
		b = NULL;
	if (json_object_is_type(a, json_type_object) ||
	    json_object_is_type(b, json_type_object))
		ret = diff_objects(l, path, a, b);
	if (!ret && (json_object_is_type(a, json_type_array) ||
		     json_object_is_type(b, json_type_array)))
		ret = diff_arrays(l, path, a, b);
	return ret;
}

static const char *const not_system[] = { "target.path", "target.fs_avail" };

static bool skipped(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(not_system); i++)
		if (!strcmp(path, not_system[i]))
			return true;
	return false;
}

static void drop_skipped(struct diff_list *l, size_t from)
{
	struct cmp_diff *d = *l->v;
	size_t j = from;

	for (size_t i = from; i < *l->n; i++) {
		if (skipped(d[i].path)) {
			free_diff(&d[i]);
		} else {
			d[j++] = d[i];
		}
	}
	*l->n = j;
}

int compare_diff_key(struct cmp_diff **v, size_t *n, size_t *cap, const char *key,
		     const struct json_object *a, const struct json_object *b)
{
	struct diff_list l = { v, n, cap };
	struct json_object *va = NULL, *vb = NULL;
	enum result_found fa = result_lookup(a, key, &va), fb = result_lookup(b, key, &vb);
	size_t before = *n;
	int ret;

	if (fa == RESULT_ABSENT && fb == RESULT_ABSENT)
		return 0;
	ret = diff_leaves(&l, key, va, fa, vb, fb);
	drop_skipped(&l, before);
	return ret;
}

/* Did DOC's command line give AU's option (abbreviated too)?  -1: no
 * command line. */
static int option_given(const struct json_object *doc, const struct cmp_auto *au)
{
	struct json_object *argv = result_array_at(doc, "command_line");

	if (!argv)
		return -1;
	for (size_t i = 1; i < result_array_len(argv); i++) {
		struct json_object *v = result_array_idx(argv, i);
		const char *arg;
		size_t n;

		if (!json_object_is_type(v, json_type_string))
			continue;
		arg = json_object_get_string(v);
		if (!strcmp(arg, "--"))
			break;		/* operands from here on */
		n = strcspn(arg, "=");
		if (n >= au->min_len && n <= strlen(au->option) &&
		    !strncmp(arg, au->option, n))
			return 1;
	}
	return 0;
}

/* "chosen by writestress" where a run left the value to what it found. */
static int note_auto(struct cmp_diff *d, const struct json_object *a,
		     const struct json_object *b)
{
	const struct cmp_auto *au = compare_auto_of(d->path);
	bool in_a, in_b;

	if (!au)
		return 0;
	/* without a command line (-1) nobody knows */
	in_a = option_given(a, au) == 0;
	in_b = option_given(b, au) == 0;
	if (!in_a && !in_b)
		return 0;
	if (asprintf(&d->note, "chosen by writestress in %s", in_a && in_b ? "A and B" :
		     in_a ? "A" : "B") < 0) {
		d->note = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* A null on the way ("config": null) is a damaged file, not a setting. */
static bool has(const struct json_object *doc, const char *path)
{
	const char *dot = strrchr(path, '.');
	struct json_object *v;
	char parent[128];

	if (!dot)
		return result_lookup(doc, path, &v) != RESULT_ABSENT;
	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - path), path);
	return result_lookup(doc, parent, &v) == RESULT_FOUND &&
	       result_lookup(doc, path, &v) != RESULT_ABSENT;
}

/* An older file that lacks a setting has not another value of it. */
static const char *changes_of(const struct cmp_diff *d, const struct json_object *a,
			      const struct json_object *b, bool matrix)
{
	const struct cmp_setting *s = compare_setting_of(d->path, matrix);
	char root[128];

	if (!s)
		return NULL;
	snprintf(root, sizeof(root), "%.*s", (int)strcspn(s->path, "["), s->path);
	return has(a, root) && has(b, root) ? s->label : NULL;
}

int compare_settle_diffs(struct cmp_report *r, const struct json_object *a,
			 const struct json_object *b, bool matrix)
{
	struct cmp_diff *lists[2] = { r->config, r->system };
	size_t counts[2] = { r->nconfig, r->nsystem };

	for (int l = 0; l < 2; l++) {
		for (size_t i = 0; i < counts[l]; i++) {
			struct cmp_diff *d = &lists[l][i];

			d->changes = changes_of(d, a, b, matrix);
			r->changing += !!d->changes;
			if (note_auto(d, a, b))
				return -ENOMEM;
		}
	}
	r->judged = !r->changing || r->rules.force;
	return 0;
}

void compare_free_diffs(struct cmp_diff *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free_diff(&d[i]);
	free(d);
}
