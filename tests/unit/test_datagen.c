/* Buffer contents: datagen.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"
#include "suites.h"

#define LEN (256 * 1024)

static void *page_buf(void)
{
	void *p = NULL;

	ck_assert_int_eq(posix_memalign(&p, 4096, LEN), 0);
	memset(p, 0xa5, LEN);
	return p;
}

/* Chi-square of the byte histogram: random bytes give about 255. */
static double chi_square(const unsigned char *b, size_t len)
{
	size_t count[256] = { 0 };
	double expect = (double)len / 256, chi = 0;

	for (size_t i = 0; i < len; i++)
		count[b[i]]++;
	for (int v = 0; v < 256; v++)
		chi += ((double)count[v] - expect) * ((double)count[v] - expect) / expect;
	return chi;
}

START_TEST(test_random_refills_and_is_random)
{
	struct datagen g;
	unsigned char *a = page_buf(), *b = page_buf();

	datagen_init(&g, WS_DATA_RANDOM, 0, 1);
	datagen_fill(&g, a, LEN);
	datagen_fill(&g, b, LEN);
	ck_assert(memcmp(a, b, LEN) != 0);
	/* 255 degrees of freedom: 400 is far beyond any honest PRNG's range */
	ck_assert_double_lt(chi_square(a, LEN), 400.0);
	/* no 4 KiB block repeats within or across buffers (no dedup) */
	for (size_t i = 0; i < LEN; i += 4096)
		for (size_t j = 0; j < LEN; j += 4096) {
			ck_assert(memcmp(a + i, b + j, 4096) != 0);
			if (i != j)
				ck_assert(memcmp(a + i, a + j, 4096) != 0);
		}
	free(a);
	free(b);
}
END_TEST

START_TEST(test_seed_reproduces)
{
	struct datagen g1, g2, g3;
	unsigned char *a = page_buf(), *b = page_buf(), *c = page_buf();

	datagen_init(&g1, WS_DATA_RANDOM, 0, 7);
	datagen_init(&g2, WS_DATA_RANDOM, 0, 7);
	datagen_init(&g3, WS_DATA_RANDOM, 0, 8);
	datagen_fill(&g1, a, LEN);
	datagen_fill(&g2, b, LEN);
	datagen_fill(&g3, c, LEN);
	ck_assert(memcmp(a, b, LEN) == 0);
	ck_assert(memcmp(a, c, LEN) != 0);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_fixed_and_zero)
{
	struct datagen g;
	unsigned char *a = page_buf(), *b = page_buf();

	datagen_init(&g, WS_DATA_FIXED, 0, 3);
	datagen_fill(&g, a, LEN);
	memcpy(b, a, LEN);
	datagen_fill(&g, a, LEN);
	ck_assert(memcmp(a, b, LEN) == 0);
	ck_assert_double_lt(chi_square(a, LEN), 400.0);

	datagen_init(&g, WS_DATA_ZERO, 0, 3);
	datagen_fill(&g, a, LEN);
	for (size_t i = 0; i < LEN; i++)
		ck_assert_uint_eq(a[i], 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_compressible_zeroes_share)
{
	struct datagen g;
	unsigned char *a = page_buf();
	size_t zeros = 0;

	datagen_init(&g, WS_DATA_COMPRESSIBLE, 50, 3);
	datagen_fill(&g, a, LEN);
	for (size_t blk = 0; blk < LEN; blk += 4096) {
		for (size_t i = 0; i < 2048; i++)
			ck_assert_uint_eq(a[blk + i], 0);
		ck_assert_double_lt(chi_square(a + blk + 2048, 2048), 400.0);
	}
	for (size_t i = 0; i < LEN; i++)
		zeros += !a[i];
	/* half zeroed, plus the 1/256 of random bytes that happen to be 0 */
	ck_assert_uint_lt(zeros, LEN / 2 + LEN / 100);
	free(a);
}
END_TEST

static const struct {
	const char *in;
	int ret;
	enum ws_data mode;
	unsigned int pct;
} parse_cases[] = {
	{ "random", 0, WS_DATA_RANDOM, 0 },
	{ "fixed", 0, WS_DATA_FIXED, 0 },
	{ "zero", 0, WS_DATA_ZERO, 0 },
	{ "compressible=0", 0, WS_DATA_COMPRESSIBLE, 0 },
	{ "compressible=75", 0, WS_DATA_COMPRESSIBLE, 75 },
	{ "compressible=100", 0, WS_DATA_COMPRESSIBLE, 100 },
	{ "compressible", -EINVAL, 0, 0 },
	{ "compressible=", -EINVAL, 0, 0 },
	{ "compressible=101", -EINVAL, 0, 0 },
	{ "compressible=5x", -EINVAL, 0, 0 },
	{ "compressible=-5", -EINVAL, 0, 0 },
	{ "Random", -EINVAL, 0, 0 },
	{ "", -EINVAL, 0, 0 },
};

START_TEST(test_parse)
{
	enum ws_data mode = WS_DATA_NR;
	unsigned int pct = 999;

	ck_assert_int_eq(datagen_parse(parse_cases[_i].in, &mode, &pct),
			 parse_cases[_i].ret);
	if (!parse_cases[_i].ret) {
		ck_assert_int_eq(mode, parse_cases[_i].mode);
		ck_assert_uint_eq(pct, parse_cases[_i].pct);
	}
}
END_TEST

Suite *datagen_suite(void)
{
	Suite *s = suite_create("datagen");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_random_refills_and_is_random);
	tcase_add_test(tc, test_seed_reproduces);
	tcase_add_test(tc, test_fixed_and_zero);
	tcase_add_test(tc, test_compressible_zeroes_share);
	tcase_add_loop_test(tc, test_parse, 0,
			    sizeof(parse_cases) / sizeof(parse_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
