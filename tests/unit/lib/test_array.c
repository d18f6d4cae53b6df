/* test_array.c - array_grow: room for one more, doubling from 16, what
 * was there kept, and a size that would overflow refused. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/array.h"
#include "suites.h"

START_TEST(test_grows_by_doubling)
{
	int *v = NULL;
	size_t cap = 0;

	/* the first element makes room for 16 */
	ck_assert_int_eq(array_grow((void **)&v, 0, &cap, sizeof(*v)), 0);
	ck_assert_uint_eq(cap, 16);
	for (size_t n = 0; n < 100; n++) {
		ck_assert_int_eq(array_grow((void **)&v, n, &cap, sizeof(*v)), 0);
		ck_assert_uint_gt(cap, n);
		v[n] = (int)n;
	}
	/* 16, 32, 64, 128: it doubled only when full */
	ck_assert_uint_eq(cap, 128);
	for (size_t n = 0; n < 100; n++)
		ck_assert_int_eq(v[n], (int)n);
	/* n below cap: nothing to do */
	ck_assert_int_eq(array_grow((void **)&v, 127, &cap, sizeof(*v)), 0);
	ck_assert_uint_eq(cap, 128);
	ck_assert_int_eq(array_grow((void **)&v, 128, &cap, sizeof(*v)), 0);
	ck_assert_uint_eq(cap, 256);
	free(v);
}
END_TEST

START_TEST(test_overflow_refused)
{
	char one = 'x';
	char *v = malloc(1);
	size_t cap = SIZE_MAX / 4 + 1;

	ck_assert_ptr_nonnull(v);
	*v = one;
	/* doubling cap elements of 4 bytes would wrap size_t */
	ck_assert_int_eq(array_grow((void **)&v, cap, &cap, 4), -ENOMEM);
	ck_assert_uint_eq(cap, SIZE_MAX / 4 + 1);
	ck_assert_int_eq(*v, 'x');
	/* ... and so would doubling the count itself */
	cap = SIZE_MAX / 2 + 1;
	ck_assert_int_eq(array_grow((void **)&v, cap, &cap, 1), -ENOMEM);
	ck_assert_uint_eq(cap, SIZE_MAX / 2 + 1);
	free(v);
}
END_TEST

Suite *array_suite(void)
{
	Suite *s = suite_create("array");
	TCase *tc = tcase_create("grow");

	tcase_add_test(tc, test_grows_by_doubling);
	tcase_add_test(tc, test_overflow_refused);
	suite_add_tcase(s, tc);
	return s;
}
