/* Buffer contents: datagen.c. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/blockstamp.h"
#include "engine/datagen.h"
#include "lib/units.h"
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
	size_t equal = 0;

	datagen_init(&g, WS_DATA_RANDOM, 0, 1);
	datagen_fill(&g, a, LEN);
	datagen_fill(&g, b, LEN);
	ck_assert(memcmp(a, b, LEN) != 0);
	/* 255 degrees of freedom: 400 is far beyond any honest PRNG's range */
	ck_assert_double_lt(chi_square(a, LEN), 400.0);
	/* no 4 KiB block repeats within or across buffers (no dedup) */
	for (size_t i = 0; i < LEN; i += 4096)
		for (size_t j = 0; j < LEN; j += 4096)
			equal += !memcmp(a + i, b + j, 4096) ||
				 (i != j && !memcmp(a + i, a + j, 4096));
	ck_assert_uint_eq(equal, 0);
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
	size_t nonzero = 0;

	datagen_init(&g, WS_DATA_FIXED, 0, 3);
	datagen_fill(&g, a, LEN);
	memcpy(b, a, LEN);
	datagen_fill(&g, a, LEN);
	ck_assert(memcmp(a, b, LEN) == 0);
	ck_assert_double_lt(chi_square(a, LEN), 400.0);

	datagen_init(&g, WS_DATA_ZERO, 0, 3);
	datagen_fill(&g, a, LEN);
	for (size_t i = 0; i < LEN; i++)
		nonzero += a[i] != 0;
	ck_assert_uint_eq(nonzero, 0);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_compressible_zeroes_share)
{
	struct datagen g;
	unsigned char *a = page_buf();
	size_t zeros = 0, nonzero = 0;
	double worst = 0;

	datagen_init(&g, WS_DATA_COMPRESSIBLE, 50, 3);
	datagen_fill(&g, a, LEN);
	/* half of what follows the stamp's 40 bytes: 2028 zeros from 40 */
	for (size_t blk = 0; blk < LEN; blk += 4096) {
		for (size_t i = 40; i < 40 + 2028; i++)
			nonzero += a[blk + i] != 0;
		worst = fmax(worst, chi_square(a + blk + 2068, 2028));
	}
	ck_assert_uint_eq(nonzero, 0);
	ck_assert_double_lt(worst, 400.0);
	for (size_t i = 0; i < LEN; i++)
		zeros += !a[i];
	/* half zeroed, plus the 1/256 of random bytes that happen to be 0 */
	ck_assert_uint_lt(zeros, LEN / 2 + LEN / 100);
	free(a);
}
END_TEST

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* 4 GiB of stamped random data, as the writer asks for it (1 MiB buffers
 * at rising offsets, wrapping at 1 GiB: four passes), holds no two equal
 * 4 KiB blocks: each block's 64-bit hash is collected and the sorted list
 * has no repeat (two different blocks share a hash with odds of about
 * 3e-8 here, so a repeat means a repeated block). */
START_TEST(test_feed_no_duplicate_block)
{
	const size_t len = WS_MIB, file = WS_GIB, total = 4 * WS_GIB;
	size_t n = total / 4096, k = 0, repeats = 0;
	uint64_t *h = malloc(n * sizeof(*h));
	struct datagen_feed f;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(datagen_feed_start(&f, WS_DATA_RANDOM, 0, 42, len, 1), 0);
	ck_assert_uint_eq(f.nslots, 16);	/* the pool spans 16 MiB */
	for (size_t pos = 0; pos < total; pos += len) {
		const char *buf = datagen_feed_get(&f, pos % file,
						   (uint32_t)(pos / file), len);

		for (size_t b = 0; b < len; b += 4096)
			h[k++] = ws_block_hash(buf + b, 4096, 0);
		datagen_feed_put(&f);
	}
	datagen_feed_stop(&f);
	qsort(h, n, sizeof(*h), by_value);
	/* counted, then asserted once: Check records every passing assert */
	for (size_t i = 1; i < n; i++)
		repeats += h[i] == h[i - 1];
	ck_assert_msg(!repeats, "%zu pairs of equal 4 KiB blocks", repeats);
	free(h);
}
END_TEST

/* Each block handed out checks as written where it was asked for; one
 * flipped bit or one block carried elsewhere is caught. */
START_TEST(test_feed_stamps_check)
{
	const size_t len = 64 * 1024;
	struct datagen_feed f;
	struct ws_block_stamp st;
	char *buf, copy[4096];

	ck_assert_int_eq(datagen_feed_start(&f, WS_DATA_COMPRESSIBLE, 30, 7, len, 1), 0);
	ck_assert_uint_eq(f.nslots, 256);
	buf = datagen_feed_get(&f, 3 * len, 2, len);
	for (size_t b = 0; b < len; b += 4096) {
		ck_assert_int_eq(ws_block_check(buf + b, 3 * len + b, 7, &st), WS_BLOCK_OK);
		ck_assert_uint_eq(st.pass, 2);
	}
	ck_assert_int_eq(ws_block_check(buf, 3 * len, 8, &st), WS_BLOCK_OTHER_RUN);
	ck_assert_int_eq(ws_block_check(buf + 4096, 3 * len, 7, &st), WS_BLOCK_MISPLACED);
	memcpy(copy, buf + 8192, sizeof(copy));
	copy[1000] ^= 0x10;	/* in the payload */
	ck_assert_int_eq(ws_block_check(copy, 3 * len + 8192, 7, &st), WS_BLOCK_CORRUPT);
	memcpy(copy, buf + 8192, sizeof(copy));
	copy[20] ^= 0x01;	/* in the stamp's offset */
	ck_assert_int_eq(ws_block_check(copy, 3 * len + 8192, 7, &st), WS_BLOCK_CORRUPT);
	memset(copy, 0, sizeof(copy));
	ck_assert_int_eq(ws_block_check(copy, 0, 7, &st), WS_BLOCK_UNSTAMPED);
	datagen_feed_put(&f);
	datagen_feed_stop(&f);
}
END_TEST

/* Fixed and zero data are one buffer, never stamped (overwrite.c's). */
START_TEST(test_feed_fixed_unstamped)
{
	struct datagen_feed f;
	char *a, *b;

	ck_assert_int_eq(datagen_feed_start(&f, WS_DATA_FIXED, 0, 5, 65536, 1), 0);
	ck_assert_uint_eq(f.nslots, 1);
	a = datagen_feed_get(&f, 0, 0, 65536);
	datagen_feed_put(&f);
	b = datagen_feed_get(&f, 65536, 0, 65536);
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_ne(*(uint64_t *)a, WS_STAMP_MAGIC);
	datagen_feed_stop(&f);
}
END_TEST

/* Queued writes hold buffers: the pool has a slot more than they hold,
 * and get() hands slots out in turn, so the writer knows which is next. */
START_TEST(test_feed_slots_for_queued_writes)
{
	struct datagen_feed f;

	ck_assert_int_eq(datagen_feed_start(&f, WS_DATA_RANDOM, 0, 3, 8 * WS_MIB, 8), 0);
	ck_assert_uint_eq(f.nslots, 9);
	for (unsigned int i = 0; i < 2 * f.nslots; i++) {
		ck_assert_uint_eq(datagen_feed_slot(&f), i % f.nslots);
		ck_assert_ptr_eq(datagen_feed_get(&f, (uint64_t)i * 8 * WS_MIB, 0, 4096),
				 (char *)f.pool + (size_t)(i % f.nslots) * 8 * WS_MIB);
		datagen_feed_put(&f);
	}
	datagen_feed_stop(&f);
	/* fixed data is one buffer, however many writes hold it */
	ck_assert_int_eq(datagen_feed_start(&f, WS_DATA_FIXED, 0, 3, 65536, 8), 0);
	ck_assert_uint_eq(f.nslots, 1);
	datagen_feed_stop(&f);
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
	tcase_add_test(tc, test_feed_stamps_check);
	tcase_add_test(tc, test_feed_fixed_unstamped);
	tcase_add_test(tc, test_feed_no_duplicate_block);
	tcase_add_test(tc, test_feed_slots_for_queued_writes);
	/* 4 GiB hashed: seconds, more under the sanitizers */
	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return s;
}
