/* test_readback.c - readback_fd on files made from the writer's own feed:
 * clean, one corrupt block, a misplaced one, lost writes (an older pass
 * where the newest wrote), unstamped blocks, another run, a partial last
 * block, and the first bad blocks listed at most WS_VERIFY_LISTED. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "engine/datagen.h"
#include "suites.h"
#include "engine/readback.h"

#define LEN (64 * 1024)	/* a buffer */
#define RUN 77

static char path[64];
static int fd = -1;

static void setup(void)
{
	snprintf(path, sizeof(path), "/tmp/ws-verify-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
}

static void teardown(void)
{
	close(fd);
	unlink(path);
}

/* Write `bytes` as the writer would, wrapping at `file` (pass = wraps). */
static void write_run(uint64_t run, uint64_t file, uint64_t bytes)
{
	struct datagen_feed f;

	ck_assert_int_eq(datagen_feed_start(&f, WS_DATA_RANDOM, 0, run, LEN, 1), 0);
	for (uint64_t pos = 0; pos < bytes; pos += LEN) {
		uint64_t off = pos % file;
		const char *buf = datagen_feed_get(&f, off, (uint32_t)(pos / file), LEN);

		ck_assert_int_eq(pwrite(fd, buf, LEN, (off_t)off), LEN);
		datagen_feed_put(&f);
	}
	datagen_feed_stop(&f);
}

static void copy_block(uint64_t from, uint64_t to)
{
	char b[WS_BLOCK];

	ck_assert_int_eq(pread(fd, b, sizeof(b), (off_t)from), WS_BLOCK);
	ck_assert_int_eq(pwrite(fd, b, sizeof(b), (off_t)to), WS_BLOCK);
}

static struct ws_verify check_file(uint64_t run)
{
	struct ws_verify v;

	ck_assert_int_eq(readback_fd(fd, (uint64_t)lseek(fd, 0, SEEK_END), run, &v), 0);
	return v;
}

START_TEST(test_clean)
{
	struct ws_verify v;

	write_run(RUN, 4 * LEN, 6 * LEN);	/* pass 1 over the first half */
	v = check_file(0);
	ck_assert_uint_eq(v.run, RUN);
	ck_assert_uint_eq(v.blocks, 4 * LEN / WS_BLOCK);
	ck_assert_uint_eq(v.count[WS_BLOCK_OK], v.blocks);
	ck_assert_uint_eq(v.last_pass, 1);
	ck_assert_uint_eq(v.last_pass_end, 2 * LEN);
	ck_assert(readback_clean(&v));
	ck_assert_uint_eq(v.nlisted, 0);
}
END_TEST

START_TEST(test_each_kind_of_damage)
{
	char zero[WS_BLOCK] = { 0 }, byte = 0x5a;
	struct ws_verify v;

	write_run(RUN, 4 * LEN, 4 * LEN);
	ck_assert_int_eq(pwrite(fd, &byte, 1, 3 * WS_BLOCK + 1000), 1);	/* corrupt */
	copy_block(0, 5 * WS_BLOCK);					/* misplaced */
	ck_assert_int_eq(pwrite(fd, zero, sizeof(zero), 9 * WS_BLOCK), WS_BLOCK);
	v = check_file(RUN);
	ck_assert_uint_eq(v.count[WS_BLOCK_CORRUPT], 1);
	ck_assert_uint_eq(v.count[WS_BLOCK_MISPLACED], 1);
	ck_assert_uint_eq(v.count[WS_BLOCK_UNSTAMPED], 1);
	ck_assert_uint_eq(v.count[WS_BLOCK_OK], v.blocks - 3);
	ck_assert(!readback_clean(&v));
	/* listed in the order met */
	ck_assert_uint_eq(v.nlisted, 3);
	ck_assert_uint_eq(v.listed[0].offset, 3 * WS_BLOCK);
	ck_assert_int_eq(v.listed[0].state, WS_BLOCK_CORRUPT);
	ck_assert_uint_eq(v.listed[1].offset, 5 * WS_BLOCK);
	ck_assert_uint_eq(v.listed[1].found, 0);
	ck_assert_int_eq(v.listed[2].state, WS_BLOCK_UNSTAMPED);
}
END_TEST

/* Pass 0 of the same run, then pass 1 over the first half with two
 * blocks of pass 0 put back: lost writes.  A block of pass 0 after the
 * newest pass's end is as it should be. */
START_TEST(test_lost_writes)
{
	char old[2][WS_BLOCK];
	struct ws_verify v;

	write_run(RUN, 4 * LEN, 4 * LEN);
	ck_assert_int_eq(pread(fd, old[0], WS_BLOCK, WS_BLOCK), WS_BLOCK);
	ck_assert_int_eq(pread(fd, old[1], WS_BLOCK, LEN), WS_BLOCK);
	write_run(RUN, 4 * LEN, 6 * LEN);
	ck_assert_int_eq(pwrite(fd, old[0], WS_BLOCK, WS_BLOCK), WS_BLOCK);
	ck_assert_int_eq(pwrite(fd, old[1], WS_BLOCK, LEN), WS_BLOCK);
	v = check_file(RUN);
	ck_assert_uint_eq(v.last_pass, 1);
	ck_assert_uint_eq(v.last_pass_end, 2 * LEN);
	ck_assert_uint_eq(v.stale, 2);
	ck_assert_uint_eq(v.count[WS_BLOCK_OK], v.blocks - 2);
	ck_assert_uint_eq(v.nlisted, 2);
	ck_assert(v.listed[0].stale && v.listed[1].stale);
	ck_assert_uint_eq(v.listed[0].offset, WS_BLOCK);
	ck_assert_uint_eq(v.listed[1].offset, LEN);
}
END_TEST

START_TEST(test_other_run_and_listing_limit)
{
	struct ws_verify v;

	write_run(RUN, 4 * LEN, 4 * LEN);
	v = check_file(RUN + 1);
	ck_assert_uint_eq(v.count[WS_BLOCK_OTHER_RUN], v.blocks);
	ck_assert_uint_eq(v.nlisted, WS_VERIFY_LISTED);
	ck_assert_uint_eq(v.listed[WS_VERIFY_LISTED - 1].offset,
			  (WS_VERIFY_LISTED - 1) * WS_BLOCK);
}
END_TEST

/* Nothing to verify is no pass: an empty file, and one shorter than a
 * block. */
START_TEST(test_nothing_to_verify)
{
	struct ws_verify v;

	v = check_file(0);
	ck_assert_uint_eq(v.blocks, 0);
	ck_assert(!readback_clean(&v));
	ck_assert_int_eq(pwrite(fd, "short", 5, 0), 5);
	v = check_file(0);
	ck_assert_uint_eq(v.blocks, 0);
	ck_assert(!readback_clean(&v));
}
END_TEST

/* A shorter run rewrote an earlier one's file in place: the newest run's
 * extent is judged, and the earlier run's intact tail after it is named
 * as what it is, not damage.  A block of the earlier run inside the
 * extent is (a lost write), and so is a tail that is not all intact
 * blocks of one run. */
START_TEST(test_earlier_runs_tail)
{
	char old[WS_BLOCK], zero[WS_BLOCK] = { 0 };
	struct ws_verify v;

	write_run(RUN + 7, 4 * LEN, 4 * LEN);
	ck_assert_int_eq(pread(fd, old, WS_BLOCK, WS_BLOCK), WS_BLOCK);
	write_run(RUN, 4 * LEN, LEN);
	v = check_file(0);
	ck_assert_uint_eq(v.run, RUN);
	ck_assert_uint_eq(v.run_end, LEN);
	ck_assert_uint_eq(v.older_tail, 3 * LEN / WS_BLOCK);
	ck_assert_uint_eq(v.older_run, RUN + 7);
	ck_assert_uint_eq(v.count[WS_BLOCK_OTHER_RUN], 0);
	ck_assert_uint_eq(v.nlisted, 0);
	ck_assert(readback_clean(&v));

	/* the earlier run's block inside the extent: not clean */
	ck_assert_int_eq(pwrite(fd, old, WS_BLOCK, WS_BLOCK), WS_BLOCK);
	v = check_file(0);
	ck_assert_uint_eq(v.count[WS_BLOCK_OTHER_RUN], 1);
	ck_assert(!readback_clean(&v));
	write_run(RUN, 4 * LEN, LEN);

	/* an unstamped block in the tail: the tail is no earlier run's */
	ck_assert_int_eq(pwrite(fd, zero, WS_BLOCK, 2 * LEN), WS_BLOCK);
	v = check_file(0);
	ck_assert_uint_eq(v.older_tail, 0);
	ck_assert(!readback_clean(&v));
}
END_TEST

/* Only whole blocks are judged: a partial last block is not read. */
START_TEST(test_partial_tail)
{
	struct ws_verify v;

	write_run(RUN, 4 * LEN, 4 * LEN);
	ck_assert_int_eq(pwrite(fd, "tail", 4, 4 * LEN), 4);
	v = check_file(0);
	ck_assert_uint_eq(v.blocks, 4 * LEN / WS_BLOCK);
	ck_assert(readback_clean(&v));
}
END_TEST

START_TEST(test_unreadable)
{
	struct ws_verify v;
	int wfd = open(path, O_WRONLY);

	ck_assert_int_ge(wfd, 0);
	write_run(RUN, LEN, LEN);
	ck_assert_int_eq(readback_fd(wfd, LEN, 0, &v), -EBADF);
	ck_assert_int_eq(v.err, EBADF);
	ck_assert(!readback_clean(&v));
	close(wfd);
}
END_TEST

Suite *readback_suite(void)
{
	Suite *s = suite_create("readback");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* random data of a few MiB per test: under TSan, four suites at
	 * once on two CPUs, that took over Check's 4 s default (one CI run) */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_nothing_to_verify);
	tcase_add_test(tc, test_earlier_runs_tail);
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_each_kind_of_damage);
	tcase_add_test(tc, test_lost_writes);
	tcase_add_test(tc, test_other_run_and_listing_limit);
	tcase_add_test(tc, test_partial_tail);
	tcase_add_test(tc, test_unreadable);
	suite_add_tcase(s, tc);
	return s;
}
