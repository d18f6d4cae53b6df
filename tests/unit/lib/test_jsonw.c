/* test_jsonw.c - the streaming JSON writer, read back with json-c:
 * string escaping (quotes, backslashes, every control character, UTF-8),
 * nesting and commas, integers at their limits, doubles read back exactly
 * and non-finite ones as null, the *_or_null shapes, and the aborts that
 * catch an unbalanced or too deep document. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "lib/c.h"
#include "lib/jsonw.h"
#include "suites.h"

/* One document written into memory. */
struct doc {
	char *text;
	size_t len;
	FILE *f;
	struct jsonw w;
};

static void doc_open(struct doc *d)
{
	d->text = NULL;
	d->len = 0;
	d->f = open_memstream(&d->text, &d->len);
	ck_assert_ptr_nonnull(d->f);
	jsonw_init(&d->w, d->f);
}

/* Close the document and parse it; it must be JSON, all of it. */
static struct json_object *doc_parse(struct doc *d)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;

	fclose(d->f);
	o = json_tokener_parse_ex(tok, d->text, (int)d->len);
	ck_assert_msg(o && json_tokener_get_error(tok) == json_tokener_success,
		      "not JSON: %s", d->text);
	ck_assert_msg(json_tokener_get_parse_end(tok) == d->len,
		      "trailing text after the JSON value: %s", d->text);
	json_tokener_free(tok);
	return o;
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no member %s", key);
	return v;
}

/* ---- strings ---- */

static const char *const strings[] = {
	"plain",
	"",
	"say \"hi\"",
	"back\\slash \\n is not a newline",
	"line\nbreak\ttab\rreturn",
	"\x01\x02\x1b[31m\x1f",			/* control characters, ANSI escape */
	"\x7f delete is legal JSON",
	"UTF-8: é → 😀 ≤ 4.6 GiB",
	"/slash and </script>",
	"{\"not\": [\"json\"]}",
};

START_TEST(test_string_round_trip)
{
	const char *s = strings[_i];
	struct doc d;
	struct json_object *o, *a;

	doc_open(&d);
	jsonw_object(&d.w, NULL);
	jsonw_str(&d.w, s, s);		/* as a key and as a value */
	jsonw_array(&d.w, "list");
	jsonw_str(&d.w, NULL, s);
	jsonw_end(&d.w);
	jsonw_end(&d.w);
	o = doc_parse(&d);

	/* no raw control character may reach the file */
	for (const char *p = d.text; *p; p++)
		ck_assert_msg((unsigned char)*p >= 0x20, "raw byte 0x%02x in %s",
			      (unsigned char)*p, d.text);
	ck_assert_str_eq(json_object_get_string(member(o, s)), s);
	a = member(o, "list");
	ck_assert_int_eq(json_object_array_length(a), 1);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 0)), s);
	json_object_put(o);
	free(d.text);
}
END_TEST

/* Short escapes for the common ones, \u00XX for the rest. */
START_TEST(test_escape_forms)
{
	struct doc d;

	doc_open(&d);
	jsonw_str(&d.w, NULL, "\"\\\n\t\x01\x1f");
	fclose(d.f);
	ck_assert_str_eq(d.text, "\"\\\"\\\\\\n\\t\\u0001\\u001f\"");
	free(d.text);
}
END_TEST

/* ---- structure ---- */

START_TEST(test_nesting)
{
	struct doc d;
	struct json_object *o, *a, *inner;

	doc_open(&d);
	jsonw_object(&d.w, NULL);
	jsonw_u64(&d.w, "n", 1);
	jsonw_array(&d.w, "empty");
	jsonw_end(&d.w);
	jsonw_object(&d.w, "none");
	jsonw_end(&d.w);
	jsonw_array(&d.w, "rows");
	for (int i = 0; i < 3; i++) {
		jsonw_object(&d.w, NULL);
		jsonw_i64(&d.w, "i", i);
		jsonw_array(&d.w, "pair");
		jsonw_bool(&d.w, NULL, i % 2);
		jsonw_null(&d.w, NULL);
		jsonw_end(&d.w);
		jsonw_end(&d.w);
	}
	jsonw_end(&d.w);
	jsonw_str(&d.w, "last", "x");
	jsonw_end(&d.w);
	ck_assert_int_eq(d.w.depth, 0);
	o = doc_parse(&d);

	ck_assert_int_eq(json_object_object_length(o), 5);
	ck_assert_int_eq(json_object_get_int(member(o, "n")), 1);
	ck_assert_int_eq(json_object_array_length(member(o, "empty")), 0);
	ck_assert(json_object_is_type(member(o, "none"), json_type_object));
	ck_assert_int_eq(json_object_object_length(member(o, "none")), 0);
	a = member(o, "rows");
	ck_assert_int_eq(json_object_array_length(a), 3);
	for (int i = 0; i < 3; i++) {
		inner = json_object_array_get_idx(a, (size_t)i);
		ck_assert_int_eq(json_object_get_int(member(inner, "i")), i);
		inner = member(inner, "pair");
		ck_assert_int_eq(json_object_array_length(inner), 2);
		ck_assert(json_object_is_type(json_object_array_get_idx(inner, 0),
					      json_type_boolean));
		ck_assert_int_eq(json_object_get_boolean(
			json_object_array_get_idx(inner, 0)), i % 2);
		ck_assert_ptr_null(json_object_array_get_idx(inner, 1));
	}
	ck_assert_str_eq(json_object_get_string(member(o, "last")), "x");
	json_object_put(o);
	free(d.text);
}
END_TEST

/* JSONW_DEPTH - 1 containers nest; their closers come back in order. */
START_TEST(test_deepest)
{
	struct doc d;
	struct json_object *o, *v;
	int levels = JSONW_DEPTH - 1;

	doc_open(&d);
	/* objects at even levels, arrays at odd ones: an array in an
	 * object is member "a", an object in an array has no key */
	for (int i = 0; i < levels; i++) {
		if (i % 2)
			jsonw_array(&d.w, "a");
		else
			jsonw_object(&d.w, NULL);
	}
	jsonw_u64(&d.w, (levels - 1) % 2 ? NULL : "leaf", 7);
	for (int i = 0; i < levels; i++)
		jsonw_end(&d.w);
	o = doc_parse(&d);
	v = o;
	for (int i = 1; i < levels; i++)
		v = i % 2 ? member(v, "a") : json_object_array_get_idx(v, 0);
	v = (levels - 1) % 2 ? json_object_array_get_idx(v, 0) : member(v, "leaf");
	ck_assert_int_eq(json_object_get_int(v), 7);
	json_object_put(o);
	free(d.text);
}
END_TEST

/* One level more is a programming error: abort, not a broken file. */
START_TEST(test_too_deep_aborts)
{
	struct jsonw w;
	FILE *f = fopen("/dev/null", "w");

	jsonw_init(&w, f);
	for (int i = 0; i < JSONW_DEPTH; i++)
		jsonw_array(&w, NULL);
	fclose(f);	/* not reached */
}
END_TEST

START_TEST(test_unbalanced_end_aborts)
{
	struct jsonw w;
	FILE *f = fopen("/dev/null", "w");

	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_end(&w);
	jsonw_end(&w);
	fclose(f);	/* not reached */
}
END_TEST

/* ---- numbers ---- */

START_TEST(test_integers)
{
	struct doc d;
	struct json_object *o;

	doc_open(&d);
	jsonw_object(&d.w, NULL);
	jsonw_u64(&d.w, "u0", 0);
	jsonw_u64(&d.w, "umax", UINT64_MAX);
	jsonw_i64(&d.w, "imin", INT64_MIN);
	jsonw_i64(&d.w, "imax", INT64_MAX);
	jsonw_i64(&d.w, "minus", -42);
	jsonw_end(&d.w);
	o = doc_parse(&d);
	/* integers as integers: no exponent, no fraction (no key has e) */
	ck_assert_ptr_null(strpbrk(d.text, ".eE"));
	ck_assert_uint_eq(json_object_get_uint64(member(o, "u0")), 0);
	ck_assert_uint_eq(json_object_get_uint64(member(o, "umax")), UINT64_MAX);
	ck_assert(json_object_get_int64(member(o, "imin")) == INT64_MIN);
	ck_assert(json_object_get_int64(member(o, "imax")) == INT64_MAX);
	ck_assert_int_eq(json_object_get_int64(member(o, "minus")), -42);
	json_object_put(o);
	free(d.text);
}
END_TEST

/* Doubles come back bit for bit (17 significant digits). */
static const double doubles[] = {
	0.0, 0.1, 1.0 / 3, -2.5, 1e-300, 4.9406564584124654e-324, 1e300,
	123456789.123456789, 9007199254740993.0, 1e308, -1e308,
};

START_TEST(test_double_exact)
{
	struct doc d;
	struct json_object *o, *v;

	doc_open(&d);
	jsonw_array(&d.w, NULL);
	jsonw_double(&d.w, NULL, doubles[_i]);
	jsonw_end(&d.w);
	o = doc_parse(&d);
	v = json_object_array_get_idx(o, 0);
	ck_assert_msg(json_object_is_type(v, json_type_double) ||
		      json_object_is_type(v, json_type_int), "%s", d.text);
	/* compare the bits: a double read back is the double written */
	ck_assert_msg(json_object_get_double(v) == doubles[_i],
		      "%.17g came back as %.17g (%s)", doubles[_i],
		      json_object_get_double(v), d.text);
	json_object_put(o);
	free(d.text);
}
END_TEST

/* NaN and the infinities are no JSON numbers: null. */
START_TEST(test_double_non_finite)
{
	struct doc d;
	struct json_object *o;

	doc_open(&d);
	jsonw_object(&d.w, NULL);
	jsonw_double(&d.w, "a", NAN);
	jsonw_double(&d.w, "b", INFINITY);
	jsonw_double(&d.w, "c", -INFINITY);
	jsonw_seconds(&d.w, "d", 0);	/* the comma after a null */
	jsonw_end(&d.w);
	o = doc_parse(&d);
	ck_assert_ptr_null(strcasestr(d.text, "nan"));
	ck_assert_ptr_null(strcasestr(d.text, "inf"));
	ck_assert(json_object_is_type(member(o, "a"), json_type_null));
	ck_assert(json_object_is_type(member(o, "b"), json_type_null));
	ck_assert(json_object_is_type(member(o, "c"), json_type_null));
	ck_assert(json_object_is_type(member(o, "d"), json_type_int) ||
		  json_object_is_type(member(o, "d"), json_type_double));
	ck_assert_double_eq(json_object_get_double(member(o, "d")), 0);
	json_object_put(o);
	free(d.text);
}
END_TEST

static const struct {
	uint64_t ns;
	double s, ms;
} times[] = {
	{ 0, 0, 0 },
	{ 1500000000, 1.5, 1500 },
	{ 2500000, 0.0025, 2.5 },
	{ 1, 1e-9, 1e-6 },
	{ UINT64_C(86400000000000), 86400, 86400000 },
};

START_TEST(test_seconds_ms)
{
	struct doc d;
	struct json_object *o;

	doc_open(&d);
	jsonw_object(&d.w, NULL);
	jsonw_seconds(&d.w, "s", times[_i].ns);
	jsonw_ms(&d.w, "ms", times[_i].ns);
	jsonw_end(&d.w);
	o = doc_parse(&d);
	ck_assert_double_eq_tol(json_object_get_double(member(o, "s")),
				times[_i].s, times[_i].s * 1e-15 + 1e-300);
	ck_assert_double_eq_tol(json_object_get_double(member(o, "ms")),
				times[_i].ms, times[_i].ms * 1e-15 + 1e-300);
	json_object_put(o);
	free(d.text);
}
END_TEST

/* ---- the *_or_null shapes ---- */

START_TEST(test_or_null)
{
	struct doc d;
	struct json_object *o;

	doc_open(&d);
	jsonw_object(&d.w, NULL);
	jsonw_count_or_null(&d.w, "count_unknown", -1);
	jsonw_count_or_null(&d.w, "count_very_negative", INT64_MIN);
	jsonw_count_or_null(&d.w, "count_zero", 0);
	jsonw_count_or_null(&d.w, "count", 12345678901LL);
	jsonw_text_or_null(&d.w, "text_null", NULL);
	jsonw_text_or_null(&d.w, "text_empty", "");
	jsonw_text_or_null(&d.w, "text", "x\"y");
	jsonw_bool_or_null(&d.w, "bool_unknown", -1);
	jsonw_bool_or_null(&d.w, "bool_false", 0);
	jsonw_bool_or_null(&d.w, "bool_true", 1);
	jsonw_bool_or_null(&d.w, "bool_two", 2);
	jsonw_str(&d.w, "str_null", NULL);
	jsonw_str(&d.w, "str_empty", "");
	jsonw_end(&d.w);
	o = doc_parse(&d);
	ck_assert(json_object_is_type(member(o, "count_unknown"), json_type_null));
	ck_assert(json_object_is_type(member(o, "count_very_negative"),
				      json_type_null));
	ck_assert(json_object_is_type(member(o, "count_zero"), json_type_int));
	ck_assert_int_eq(json_object_get_int64(member(o, "count_zero")), 0);
	ck_assert_int_eq(json_object_get_int64(member(o, "count")), 12345678901LL);
	ck_assert(json_object_is_type(member(o, "text_null"), json_type_null));
	ck_assert(json_object_is_type(member(o, "text_empty"), json_type_null));
	ck_assert_str_eq(json_object_get_string(member(o, "text")), "x\"y");
	ck_assert(json_object_is_type(member(o, "bool_unknown"), json_type_null));
	ck_assert(json_object_is_type(member(o, "bool_false"), json_type_boolean));
	ck_assert(!json_object_get_boolean(member(o, "bool_false")));
	ck_assert(json_object_get_boolean(member(o, "bool_true")));
	ck_assert(json_object_is_type(member(o, "bool_two"), json_type_boolean));
	ck_assert(json_object_get_boolean(member(o, "bool_two")));
	ck_assert(json_object_is_type(member(o, "str_null"), json_type_null));
	/* jsonw_str keeps an empty string; only *_or_null makes it null */
	ck_assert(json_object_is_type(member(o, "str_empty"), json_type_string));
	ck_assert_str_eq(json_object_get_string(member(o, "str_empty")), "");
	json_object_put(o);
	free(d.text);
}
END_TEST

Suite *jsonw_suite(void)
{
	Suite *s = suite_create("jsonw");
	TCase *str = tcase_create("strings");
	TCase *shape = tcase_create("structure");
	TCase *num = tcase_create("numbers");

	tcase_add_loop_test(str, test_string_round_trip, 0, ARRAY_SIZE(strings));
	tcase_add_test(str, test_escape_forms);
	tcase_add_test(shape, test_nesting);
	tcase_add_test(shape, test_deepest);
	tcase_add_test_raise_signal(shape, test_too_deep_aborts, SIGABRT);
	tcase_add_test_raise_signal(shape, test_unbalanced_end_aborts, SIGABRT);
	tcase_add_test(num, test_integers);
	tcase_add_loop_test(num, test_double_exact, 0, ARRAY_SIZE(doubles));
	tcase_add_test(num, test_double_non_finite);
	tcase_add_loop_test(num, test_seconds_ms, 0, ARRAY_SIZE(times));
	tcase_add_test(num, test_or_null);
	suite_add_tcase(s, str);
	suite_add_tcase(s, shape);
	suite_add_tcase(s, num);
	return s;
}
