/* The writer's file's place on the disk (trace/fileext.c) and the credit
 * it gives: a kernel worker's data write into it is the writer's, on a
 * recorded run under a cgroup limit (tests/fixtures/trace/), whose
 * writes were all sent by workers, and on made requests at each edge. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "suites.h"
#include "trace/blockstat.h"
#include "trace/evidence.h"
#include "trace/fileext.h"
#include "trace/filewatch.h"
#include "trace_fixture.h"

START_TEST(test_spans_edges)
{
	struct fileext x;

	fileext_init(&x, 0);
	ck_assert_int_eq(fileext_add(&x, 1000, 100), 0);
	ck_assert(!fileext_holds(&x, 999, 1));
	ck_assert(fileext_holds(&x, 1000, 1));
	ck_assert(fileext_holds(&x, 1099, 1));
	ck_assert(!fileext_holds(&x, 1100, 8));
	ck_assert(fileext_holds(&x, 996, 8));	/* straddles the start */
	ck_assert(!fileext_holds(&x, 992, 8));	/* ends where it starts */
	ck_assert(!fileext_holds(&x, 0, 0));
	fileext_free(&x);
}
END_TEST

/* Touching and overlapping spans are one; apart, two, in order. */
START_TEST(test_spans_merge)
{
	struct fileext x;

	fileext_init(&x, 0);
	ck_assert_int_eq(fileext_add(&x, 2000, 100), 0);
	ck_assert_int_eq(fileext_add(&x, 1000, 100), 0);
	ck_assert_uint_eq(x.n, 2);
	ck_assert_uint_eq(x.span[0].start, 1000);
	ck_assert_int_eq(fileext_add(&x, 1100, 50), 0);	/* touches the first */
	ck_assert_uint_eq(x.n, 2);
	ck_assert_uint_eq(x.span[0].end, 1150);
	ck_assert_int_eq(fileext_add(&x, 1149, 852), 0);	/* bridges both */
	ck_assert_uint_eq(x.n, 1);
	ck_assert_uint_eq(x.span[0].start, 1000);
	ck_assert_uint_eq(x.span[0].end, 2100);
	ck_assert_int_eq(fileext_add(&x, 1500, 10), 0);	/* within: no change */
	ck_assert_uint_eq(x.n, 1);
	ck_assert_uint_eq(x.span[0].start, 1000);
	ck_assert_uint_eq(x.span[0].end, 2100);
	fileext_free(&x);
}
END_TEST

/* FILEEXT_MAX spans, then the rest left out (the flusher's). */
START_TEST(test_spans_bounded)
{
	struct fileext x;

	fileext_init(&x, 0);
	for (uint64_t i = 0; i < FILEEXT_MAX + 1; i++)
		ck_assert_int_eq(fileext_add(&x, i * 16, 8), 0);
	ck_assert_uint_eq(x.n, FILEEXT_MAX);
	ck_assert(fileext_holds(&x, (FILEEXT_MAX - 1) * 16, 8));
	ck_assert(!fileext_holds(&x, FILEEXT_MAX * 16, 8));
	fileext_free(&x);
}
END_TEST

static struct evidence *replay(const char *name, bool extents, struct recorded *r)
{
	struct evidence *ev = malloc(sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, 0);
	recorded_load(name, r);
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == TE_BLOCK || (extents && r->ev[i].kind == TE_EXTENT))
			evidence_event(ev, &r->ev[i]);
	evidence_settle(ev, true);
	return ev;
}

/* --pace none under a 20 MiB/s cgroup limit for 3 s: the flusher wrote
 * the writer's pages and blk-throttle's worker sent them on, so no
 * request was the writer's task's.  With the file's place: the writer's
 * share is its data, all the device wrote but the journal's, the
 * metadata and the probe's (under 5% of what the device counted); the
 * shares add up to the requests', and those to the device's count. */
START_TEST(test_recorded_limit_credits_the_writer)
{
	struct recorded r;
	struct evidence *ev = replay("limit-file-ext4-loop.events", _i, &r);
	const struct ws_block_sub *by = ev->bs.run.by;
	uint64_t all = 0;

	for (int k = 0; k < WS_SUB_NR; k++)
		all += by[k].bytes;
	ck_assert_uint_eq(all, ev->bs.run.dir[WS_BLK_READ].bytes + ev->bs.run.dir[WS_BLK_WRITE].bytes);
	ck_assert_uint_eq(ev->bs.run.dir[WS_BLK_WRITE].bytes + ev->bs.unmatched_bytes, r.bytes);
	if (_i) {
		ck_assert_uint_gt(by[WS_SUB_WRITER].bytes, r.bytes / 100 * 95);
		ck_assert_uint_lt(by[WS_SUB_FLUSHER].bytes, r.bytes / 100 * 5);
	} else {
		ck_assert_uint_eq(by[WS_SUB_WRITER].bytes, 0);
		ck_assert_uint_gt(by[WS_SUB_FLUSHER].bytes, r.bytes / 100 * 95);
	}
	recorded_free(&r);
	evidence_free(ev);
	free(ev);
}
END_TEST

static void request(struct evidence *ev, uint64_t ts, uint64_t sector, const char *rwbs,
		    const char *comm)
{
	struct trace_event e = { .kind = TE_BLOCK };

	e.blk = (struct blk_event){ .kind = BLK_GETRQ, .ts_ns = ts, .sector = sector,
				    .nr_sector = 8 };
	strcpy(e.blk.rwbs, rwbs);
	strcpy(e.blk.comm, comm);
	evidence_event(ev, &e);
	e.blk.kind = BLK_ISSUE;
	e.blk.ts_ns = ts + 1;
	evidence_event(ev, &e);
	e.blk.kind = BLK_COMPLETE;
	e.blk.ts_ns = ts + 2;
	evidence_event(ev, &e);
}

/* The file at [1000, 1100): a worker's data write at its last sectors
 * is the writer's, one just past it the flusher's; a worker's metadata
 * in it stays the flusher's, jbd2's the journal's, the writer's own
 * outside it the writer's. */
START_TEST(test_credit_edges)
{
	static const struct {
		uint64_t sector;
		const char *rwbs, *comm;
		enum ws_submitter sub;
	} cases[] = {
		{ 1092, "W", "kworker/1:0", WS_SUB_WRITER },
		{ 1100, "W", "kworker/1:0", WS_SUB_FLUSHER },
		{ 992, "W", "kworker/u8:2", WS_SUB_FLUSHER },
		{ 1000, "WS", "kworker/u8:2", WS_SUB_WRITER },
		{ 1000, "WM", "kworker/u8:2", WS_SUB_FLUSHER },
		{ 1000, "WS", "jbd2/loop0-8", WS_SUB_JOURNAL },
		{ 5000, "W", "ws-writer", WS_SUB_WRITER },
	};
	struct trace_event x = { .kind = TE_EXTENT, .ext = { 1000, 100 } };
	struct evidence *ev = malloc(sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, 0);
	evidence_event(ev, &x);
	request(ev, 100, cases[_i].sector, cases[_i].rwbs, cases[_i].comm);
	ck_assert_uint_eq(ev->bs.run.by[cases[_i].sub].bytes, 4096);
	ck_assert_uint_eq(ev->bs.run.dir[WS_BLK_WRITE].bytes, 4096);
	evidence_free(ev);
	free(ev);
}
END_TEST

/* A worker's write that completes while the file's place is being read
 * waits for it: the writer's once the place holds it, the flusher's
 * when it does not; an interval's take counts what still waits. */
START_TEST(test_undecided_until_read)
{
	struct trace_event x = { .kind = TE_EXTENT, .ext = { 1000, 100 } };
	struct evidence *ev = malloc(sizeof(*ev));
	struct ws_block_figures iv;

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, 0);
	ev->bs.file_asked = true;
	request(ev, 100, 1050, "W", "kworker/1:0");
	request(ev, 200, 5000, "W", "kworker/1:0");
	ck_assert_uint_eq(ev->bs.nundecided, 2);
	ck_assert_uint_eq(ev->bs.run.dir[WS_BLK_WRITE].bytes, 0);
	evidence_event(ev, &x);		/* the place came in */
	ev->bs.file_asked = false;
	blockstat_decide(&ev->bs);
	ck_assert_uint_eq(ev->bs.run.by[WS_SUB_WRITER].bytes, 4096);
	ck_assert_uint_eq(ev->bs.run.by[WS_SUB_FLUSHER].bytes, 4096);
	ev->bs.file_asked = true;
	request(ev, 300, 1060, "W", "kworker/1:0");
	blockstat_take(&ev->bs, &iv);
	ck_assert_uint_eq(iv.by[WS_SUB_WRITER].bytes, 8192);
	ck_assert_uint_eq(ev->bs.nundecided, 0);
	evidence_free(ev);
	free(ev);
}
END_TEST

/* The reader reads only when asked, off the caller's thread, and hands
 * over the newest set once; stopped with a set untaken, it frees it
 * (ASan's leak check).  On a filesystem without FIEMAP the set is
 * empty, still handed over. */
START_TEST(test_watch_asked_taken_once)
{
	char path[] = "fileext-watch-XXXXXX";
	struct filewatch w;
	struct fileext *x = NULL;
	static char block[65536];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	memset(block, 0x5a, sizeof(block));
	ck_assert_int_eq(write(fd, block, sizeof(block)), (int)sizeof(block));
	ck_assert_int_eq(fsync(fd), 0);
	ck_assert_int_eq(filewatch_start(&w, path, 2048), 0);
	ck_assert_ptr_null(filewatch_take(&w));
	filewatch_ask(&w);
	for (int i = 0; i < 5000 && !x; i++) {	/* 5 s at most */
		x = filewatch_take(&w);
		if (!x)
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->part_start, 2048);
	for (unsigned int i = 0; i < x->n; i++)
		ck_assert_uint_ge(x->span[i].start, 2048);
	ck_assert_ptr_null(filewatch_take(&w));
	fileext_free(x);
	free(x);
	filewatch_ask(&w);	/* left for stop to free */
	filewatch_stop(&w);
	close(fd);
	unlink(path);
}
END_TEST

Suite *fileext_suite(void)
{
	Suite *s = suite_create("fileext");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_spans_edges);
	tcase_add_test(tc, test_spans_merge);
	tcase_add_test(tc, test_spans_bounded);
	tcase_add_loop_test(tc, test_recorded_limit_credits_the_writer, 0, 2);
	tcase_add_loop_test(tc, test_credit_edges, 0, 7);
	tcase_add_test(tc, test_watch_asked_taken_once);
	tcase_add_test(tc, test_undecided_until_read);
	suite_add_tcase(s, tc);
	return s;
}
