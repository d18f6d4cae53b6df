/* The record's kinds: kinds.c's tables of keys and words. */
#include <string.h>

#include <check.h>

#include "record/kinds.h"
#include "suites.h"

/* Every entry of a table named, non-empty and unlike every other. */
static void assert_distinct(const char *what, const char *(*name)(int), int n)
{
	for (int i = 0; i < n; i++) {
		const char *a = name(i);

		ck_assert_msg(a && a[0], "%s %d has no name", what, i);
		ck_assert_msg(strcmp(a, "?"), "%s %d is unnamed", what, i);
		for (int j = 0; j < i; j++)
			ck_assert_msg(strcmp(a, name(j)), "%s %d and %d are both '%s'",
				      what, i, j, a);
	}
}

static const char *timer_words(int t) { return ws_timer_words((enum ws_timer)t); }
static const char *timer_key(int t) { return ws_timer_key((enum ws_timer)t); }
static const char *timer_json(int t) { return ws_timer_json((enum ws_timer)t); }
static const char *stop_key(int r) { return ws_stop_key((enum ws_stop_reason)r); }

START_TEST(test_timer_tables)
{
	assert_distinct("timer words", timer_words, WS_T_NR);
	assert_distinct("timer key", timer_key, WS_T_NR);
	assert_distinct("timer json", timer_json, WS_T_NR);
	for (int t = 0; t < WS_T_NR; t++) {
		const char *key = ws_timer_key((enum ws_timer)t);
		const char *json = ws_timer_json((enum ws_timer)t);
		size_t n = strlen(key);

		/* CSV columns are milliseconds; JSON members identifiers */
		ck_assert_msg(n > 3 && !strcmp(key + n - 3, "_ms"), "key %s", key);
		ck_assert_msg(strspn(json, "abcdefghijklmnopqrstuvwxyz_") ==
			      strlen(json), "json member %s", json);
		ck_assert_msg(strspn(key, "abcdefghijklmnopqrstuvwxyz_") == n,
			      "key %s", key);
	}
	/* the header's own examples */
	ck_assert_str_eq(ws_timer_words(WS_T_WAIT), "wait writeback");
	ck_assert_str_eq(ws_timer_key(WS_T_WAIT), "wait_ms");
	ck_assert_str_eq(ws_timer_json(WS_T_WAIT), "wait_writeback");
	/* out of range: a placeholder, never NULL or a read past the table */
	ck_assert_str_eq(ws_timer_words(WS_T_NR), "?");
	ck_assert_str_eq(ws_timer_key(WS_T_NR), "?");
	ck_assert_str_eq(ws_timer_json((enum ws_timer)99), "?");
}
END_TEST

START_TEST(test_stop_keys)
{
	assert_distinct("stop reason", stop_key, WS_STOP_NR);
	for (int r = 0; r < WS_STOP_NR; r++) {
		const char *key = ws_stop_key((enum ws_stop_reason)r);

		ck_assert_msg(strspn(key, "abcdefghijklmnopqrstuvwxyz_") ==
			      strlen(key), "exit_reason %s", key);
	}
	ck_assert_str_eq(ws_stop_key(WS_STOP_BOUND), "bound");
	ck_assert_str_eq(ws_stop_key(WS_STOP_NOT_STEADY), "not_steady");
	ck_assert_str_eq(ws_stop_key(WS_STOP_NR), "?");
}
END_TEST

/* What a block read back is: every state named, its key a JSON word. */
static const char *block_key(int s) { return ws_block_state_key((enum ws_block_state)s); }
static const char *block_words(int s) { return ws_block_state_words((enum ws_block_state)s); }

START_TEST(test_block_states)
{
	assert_distinct("block state key", block_key, WS_BLOCK_NR);
	assert_distinct("block state words", block_words, WS_BLOCK_NR);
	ck_assert_str_eq(ws_block_state_key(WS_BLOCK_OTHER_RUN), "other_run");
	ck_assert_str_eq(ws_block_state_words(WS_BLOCK_OTHER_RUN), "of another run");
	ck_assert_str_eq(ws_block_state_key(WS_BLOCK_NR), "?");
}
END_TEST

Suite *kinds_suite(void)
{
	Suite *s = suite_create("kinds");
	TCase *tc = tcase_create("tables");

	tcase_add_test(tc, test_timer_tables);
	tcase_add_test(tc, test_stop_keys);
	tcase_add_test(tc, test_block_states);
	suite_add_tcase(s, tc);
	return s;
}
