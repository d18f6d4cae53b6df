/* test_blockstamp.c - block stamps: the hash sees every word of a block
 * and its length, the stamp's check sees every field, and a block is
 * judged ok, corrupt, misplaced, of another run or unstamped by exactly
 * what differs. */
#include <string.h>

#include <check.h>

#include "engine/blockstamp.h"
#include "suites.h"

static unsigned char block[WS_BLOCK];

static void make_block(uint64_t run, uint64_t offset, uint32_t pass)
{
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (unsigned char)(i * 131 + 7);
	ws_stamp_block(block, run, offset, pass,
		       ws_block_hash(block + WS_STAMP_LEN, WS_BLOCK - WS_STAMP_LEN, run));
}

/* One flipped bit anywhere changes the hash; so do the seed and length. */
START_TEST(test_hash_sees_every_bit)
{
	uint64_t h0;

	make_block(1, 0, 0);
	h0 = ws_block_hash(block, WS_BLOCK, 9);
	ck_assert_uint_eq(h0, ws_block_hash(block, WS_BLOCK, 9));
	for (size_t bit = 0; bit < 8 * WS_BLOCK; bit += 61) {
		block[bit / 8] ^= (unsigned char)(1u << bit % 8);
		ck_assert_msg(ws_block_hash(block, WS_BLOCK, 9) != h0, "bit %zu", bit);
		block[bit / 8] ^= (unsigned char)(1u << bit % 8);
	}
	ck_assert_uint_ne(ws_block_hash(block, WS_BLOCK, 10), h0);
	ck_assert_uint_ne(ws_block_hash(block, WS_BLOCK - 8, 9), h0);
}
END_TEST

START_TEST(test_stamp_fields)
{
	struct ws_block_stamp st;

	make_block(0x1234, 8192, 3);
	memcpy(&st, block, sizeof(st));
	ck_assert_uint_eq(st.magic, WS_STAMP_MAGIC);
	ck_assert_uint_eq(st.run, 0x1234);
	ck_assert_uint_eq(st.offset, 8192);
	ck_assert_uint_eq(st.pass, 3);
	ck_assert_uint_eq(st.check, ws_stamp_check(&st));
	ck_assert_uint_eq(sizeof(st), 40);
}
END_TEST

/* Each of the stamp's fields is under its check: change one, and the
 * block is corrupt, not misplaced or of another run. */
START_TEST(test_check_covers_fields)
{
	struct ws_block_stamp st;
	static const size_t at[] = { 8, 16, 24, 32 };	/* run, offset, payload, pass */

	make_block(5, 4096, 1);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		block[at[i]] ^= 0x40;
		ck_assert_int_eq(ws_block_check(block, 4096, 5, &st), WS_BLOCK_CORRUPT);
		block[at[i]] ^= 0x40;
	}
	ck_assert_int_eq(ws_block_check(block, 4096, 5, &st), WS_BLOCK_OK);
}
END_TEST

static const struct {
	uint64_t run, offset;	/* what the reader expects */
	enum ws_block_state want;
} judged[] = {
	{ 5, 4096, WS_BLOCK_OK },
	{ 0, 4096, WS_BLOCK_OK },		/* any run */
	{ 6, 4096, WS_BLOCK_OTHER_RUN },
	{ 5, 8192, WS_BLOCK_MISPLACED },
	{ 0, 0, WS_BLOCK_MISPLACED },
};

START_TEST(test_judged)
{
	struct ws_block_stamp st;

	make_block(5, 4096, 1);
	ck_assert_int_eq(ws_block_check(block, judged[_i].offset, judged[_i].run, &st),
			 judged[_i].want);
}
END_TEST

START_TEST(test_unstamped_and_names)
{
	struct ws_block_stamp st;

	memset(block, 0, sizeof(block));
	ck_assert_int_eq(ws_block_check(block, 0, 0, &st), WS_BLOCK_UNSTAMPED);
	make_block(5, 0, 0);
	block[WS_BLOCK - 1] ^= 1;	/* the payload's last byte */
	ck_assert_int_eq(ws_block_check(block, 0, 5, &st), WS_BLOCK_CORRUPT);
	for (int s = 0; s < WS_BLOCK_NR; s++)
		ck_assert_str_ne(ws_block_state_words((enum ws_block_state)s), "?");
	ck_assert_str_eq(ws_block_state_words(WS_BLOCK_NR), "?");
}
END_TEST

Suite *blockstamp_suite(void)
{
	Suite *s = suite_create("blockstamp");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hash_sees_every_bit);
	tcase_add_test(tc, test_stamp_fields);
	tcase_add_test(tc, test_check_covers_fields);
	tcase_add_loop_test(tc, test_judged, 0, (int)(sizeof(judged) / sizeof(judged[0])));
	tcase_add_test(tc, test_unstamped_and_names);
	suite_add_tcase(s, tc);
	return s;
}
