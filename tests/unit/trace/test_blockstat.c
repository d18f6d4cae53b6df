/* Block requests into figures: trace/blockstat.c, on event streams
 * recorded from real runs (tests/fixtures/trace/, each with the device's
 * own counters over the same span in its header) and on made ones for
 * each rule of matching. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/blockstat.h"
#include "trace_fixture.h"

static struct blockstat *fresh(void)
{
	struct blockstat *b = malloc(sizeof(*b));

	ck_assert_ptr_nonnull(b);
	blockstat_init(b);
	return b;
}

static void gone(struct blockstat *b)
{
	blockstat_free(b);
	free(b);
}

/* The trace adds up to what the device counted: every write, every byte,
 * every flush, the time within the stat file's millisecond ticks (one per
 * request at most, and 2%).  A completion whose issue came before the
 * trace began is unmatched (the slow disk's fixture has one, in flight
 * when tracing began): the device counted it, the trace counts it apart
 * with its bytes, and its time is unknown.  On a run under a CPU limit
 * the device's clock ran over the trace's (127 ms against 117.5 in
 * unknown's fixture): the kernel stamps a request's start with a time it
 * keeps per plug (blk_time_get_ns) and drops only when the task sleeps,
 * not when a CPU limit stops it, so later requests are stamped early;
 * there the trace's time is judged a lower bound. */
static void assert_agrees(const struct blockstat *b, const struct recorded *r,
			  bool cpu_limited)
{
	const struct ws_block_dir *w = &b->run.dir[WS_BLK_WRITE];
	double ms = (double)w->time_ns / 1e6;

	ck_assert_uint_eq(w->requests + b->run.unmatched, r->writes);
	ck_assert_uint_eq(w->bytes + b->unmatched_bytes, r->bytes);
	ck_assert_uint_eq(b->run.flushes, r->flushes);
	ck_assert_uint_le(b->run.unmatched, 1);
	/* the device adds its flushes' time in ns and shows whole ms */
	if (r->flush_timed)
		ck_assert_msg((double)b->run.flush_ns / 1e6 >= (double)r->flush_ms * 0.98 - 1 &&
			      (double)b->run.flush_ns / 1e6 <= (double)r->flush_ms * 1.02 + 1,
			      "flushes: traced %.1f ms, counted %lu ms",
			      (double)b->run.flush_ns / 1e6, r->flush_ms);
	if (!b->run.unmatched && !cpu_limited)
		ck_assert_msg(ms > (double)r->time_ms * 0.98 - 1 && ms < (double)r->time_ms * 1.02 + 1,
			      "traced %.1f ms, counted %lu ms", ms, (unsigned long)r->time_ms);
	else
		ck_assert_msg(ms <= (double)r->time_ms * 1.02 + 1,
			      "traced %.1f ms, counted %lu ms", ms, (unsigned long)r->time_ms);
	ck_assert_uint_eq(b->used, 0);	/* nothing left in flight */
	ck_assert_uint_eq(b->nempty, 0);
}

static const struct {
	const char *name;
	bool cpu_limited;	/* recorded under a CPU limit */
} fixtures[] = {
	{ "flood-ext4-loop.events", false }, { "window-ext4-loop.events", false },
	{ "limit-ext4-loop.events", false }, { "queue-ext4-loop.events", false },
	{ "device-ext4-loop.events", false }, { "wbt-ext4-loop.events", false },
	{ "dirty-ext4-loop.events", false }, { "journal-ext4-loop.events", false },
	{ "unknown-ext4-loop.events", true }, { "xfs-loop.events", false },
	{ "bios-ext4-loop.events", false },
};
#define NFIXTURES (int)(sizeof(fixtures) / sizeof(fixtures[0]))

/* The block requests of a recorded run, in order. */
static void replay_block(struct blockstat *b, const struct recorded *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == TE_BLOCK)
			blockstat_event(b, &r->ev[i].blk);
}

START_TEST(test_recorded_run_agrees_with_the_device)
{
	struct recorded r;
	struct blockstat *b = fresh();

	recorded_load(fixtures[_i].name, &r);
	replay_block(b, &r);
	blockstat_settle(b, true);
	assert_agrees(b, &r, fixtures[_i].cpu_limited);
	recorded_free(&r);
	gone(b);
}
END_TEST

static int by_time(const void *a, const void *b)
{
	const struct blk_event *x = a, *y = b;

	return (x->ts_ns > y->ts_ns) - (x->ts_ns < y->ts_ns);
}

/* The ring is read CPU by CPU: within one 50 ms drain a completion may
 * come before its issue.  Worst case, every completion of a drain (the
 * events of 50 ms, in time order) first: the same figures. */
START_TEST(test_completions_before_their_issue)
{
	struct recorded r;
	struct blockstat *b = fresh();
	struct blk_event *blk;
	size_t from = 0, n = 0;

	recorded_load(fixtures[_i].name, &r);
	blk = calloc(r.n, sizeof(*blk));
	ck_assert_ptr_nonnull(blk);
	for (size_t i = 0; i < r.n; i++)
		if (r.ev[i].kind == TE_BLOCK)
			blk[n++] = r.ev[i].blk;
	qsort(blk, n, sizeof(*blk), by_time);
	while (from < n) {
		size_t to = from;

		while (to < n && blk[to].ts_ns < blk[from].ts_ns + 50000000)
			to++;
		for (size_t i = from; i < to; i++)
			if (blk[i].kind == BLK_COMPLETE)
				blockstat_event(b, &blk[i]);
		for (size_t i = from; i < to; i++)
			if (blk[i].kind != BLK_COMPLETE)
				blockstat_event(b, &blk[i]);
		blockstat_settle(b, false);
		from = to;
	}
	blockstat_settle(b, true);
	assert_agrees(b, &r, fixtures[_i].cpu_limited);
	free(blk);
	recorded_free(&r);
	gone(b);
}
END_TEST

/* Who sent the requests: each recorded request counted once, by its
 * submitter; on the slow disk's flood the flusher, the journal, the probe
 * and the writer all sent some. */
START_TEST(test_recorded_submitters)
{
	static const char *const recorded[] = {
		"limit-ext4-loop.events", "queue-ext4-loop.events", "device-ext4-loop.events",
	};
	struct recorded r;
	struct blockstat *b = fresh();
	uint64_t requests = 0, bytes = 0, service = 0;

	recorded_load(recorded[_i], &r);
	replay_block(b, &r);
	blockstat_settle(b, true);
	for (int k = 0; k < WS_SUB_NR; k++) {
		requests += b->run.by[k].requests;
		bytes += b->run.by[k].bytes;
		service += b->run.by[k].service_ns;
	}
	ck_assert_uint_eq(requests, b->run.dir[WS_BLK_READ].requests + b->run.dir[WS_BLK_WRITE].requests);
	ck_assert_uint_eq(bytes, b->run.dir[WS_BLK_READ].bytes + b->run.dir[WS_BLK_WRITE].bytes);
	ck_assert_uint_eq(service, b->run.dir[WS_BLK_READ].service_ns + b->run.dir[WS_BLK_WRITE].service_ns);
	ck_assert_uint_gt(b->run.by[WS_SUB_JOURNAL].requests, 0);
	ck_assert_uint_gt(b->run.by[WS_SUB_PROBES].requests, 0);
	if (_i == 1) {
		ck_assert_uint_gt(b->run.by[WS_SUB_FLUSHER].bytes, b->run.by[WS_SUB_PROBES].bytes);
		ck_assert_uint_gt(b->run.by[WS_SUB_WRITER].requests, 0);
	}
	recorded_free(&r);
	gone(b);
}
END_TEST

START_TEST(test_submitter_names)
{
	static const struct {
		const char *comm;
		enum ws_submitter sub;
	} cases[] = {
		{ "ws-writer", WS_SUB_WRITER }, { "ws-writer2", WS_SUB_WRITER },
		{ "ws-write", WS_SUB_OTHER }, { "ws-probe-fsync", WS_SUB_PROBES },
		{ "ws-probe", WS_SUB_OTHER }, { "jbd2/loop0-8", WS_SUB_JOURNAL },
		{ "jbd2", WS_SUB_OTHER }, { "kworker/u8:2", WS_SUB_FLUSHER },
		{ "kworker", WS_SUB_OTHER }, { "", WS_SUB_OTHER }, { "sqlite3", WS_SUB_OTHER },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(blockstat_submitter(cases[i].comm) == cases[i].sub,
			      "'%s'", cases[i].comm);
	ck_assert_str_eq(ws_submitter_name(WS_SUB_FLUSHER), "flusher");
	ck_assert_str_eq(ws_submitter_name(WS_SUB_OTHER), "other");
}
END_TEST

static void ev(struct blockstat *b, enum blk_event_kind k, uint64_t ts,
	       uint64_t sector, uint32_t nr, const char *rwbs)
{
	struct blk_event e = { .kind = k, .ts_ns = ts, .sector = sector, .nr_sector = nr };

	snprintf(e.rwbs, sizeof(e.rwbs), "%s", rwbs);
	blockstat_event(b, &e);
}

/* A write: its time from getrq, its service from issue. */
START_TEST(test_write_times)
{
	struct blockstat *b = fresh();
	struct ws_block_figures iv;

	ev(b, BLK_GETRQ, 1000, 8, 16, "WS");
	ev(b, BLK_INSERT, 2000, 8, 16, "WS");
	ev(b, BLK_ISSUE, 5000, 8, 16, "WS");
	ev(b, BLK_COMPLETE, 9000, 8, 16, "WS");
	blockstat_take(b, &iv);
	ck_assert(iv.on);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].requests, 1);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].bytes, 8192);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].time_ns, 8000);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].service_ns, 4000);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].max_service_ns, 4000);
	ck_assert_uint_eq(iv.dir[WS_BLK_READ].requests, 0);
	/* a take starts the next interval; the run keeps it all */
	blockstat_take(b, &iv);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].requests, 0);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 1);
	/* read off two CPUs, the insert may come before the getrq: the time
	 * still runs from getting the request */
	ev(b, BLK_INSERT, 22000, 16, 8, "W");
	ev(b, BLK_GETRQ, 21000, 16, 8, "W");
	ev(b, BLK_ISSUE, 23000, 16, 8, "W");
	ev(b, BLK_COMPLETE, 24000, 16, 8, "W");
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].time_ns, 8000 + 3000);
	/* a read that skipped the scheduler: its time is its service */
	ev(b, BLK_ISSUE, 10000, 64, 8, "RA");
	ev(b, BLK_COMPLETE, 13000, 64, 8, "RA");
	ck_assert_uint_eq(b->run.dir[WS_BLK_READ].time_ns, 3000);
	gone(b);
}
END_TEST

/* A getrq by COMM. */
static void asked(struct blockstat *b, uint64_t ts, const char *rwbs, const char *comm)
{
	struct blk_event e = { .kind = BLK_GETRQ, .ts_ns = ts };

	snprintf(e.rwbs, sizeof(e.rwbs), "%s", rwbs);
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	blockstat_event(b, &e);
}

/* A flush's time, issue to completion, booked to whoever last asked for
 * one within a second before its issue; a completion read before its
 * issue (another CPU's ring) still pairs; an issue whose completion was
 * lost is dropped at the next settle once a newer one is in flight. */
START_TEST(test_flush_times)
{
	struct blockstat *b = fresh();
	const uint64_t s = 1000000000ull;

	ev(b, BLK_ISSUE, 100, 0, 0, "FF");		/* nobody asked */
	ev(b, BLK_COMPLETE, 300, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.flush_ns, 200);
	ck_assert_uint_eq(b->run.by[WS_SUB_OTHER].flushes, 1);
	asked(b, 1000, "FWS", "ws-probe-fsync");	/* an fsync's empty flush */
	ev(b, BLK_ISSUE, 1100, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 1600, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.by[WS_SUB_PROBES].flushes, 1);
	ck_assert_uint_eq(b->run.by[WS_SUB_PROBES].flush_ns, 500);
	asked(b, 2000, "FWFSM", "jbd2/loop1-8");	/* a commit: pre and post */
	ev(b, BLK_COMPLETE, 2500, UINT64_MAX, 0, "FF");	/* read before its issue */
	ck_assert_uint_eq(b->run.flushes, 3);
	ck_assert_uint_eq(b->run.by[WS_SUB_JOURNAL].flushes, 0);
	ev(b, BLK_ISSUE, 2100, 0, 0, "FF");
	ck_assert_uint_eq(b->run.by[WS_SUB_JOURNAL].flush_ns, 400);
	ev(b, BLK_ISSUE, 2600, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 2900, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.by[WS_SUB_JOURNAL].flushes, 2);
	ck_assert_uint_eq(b->run.by[WS_SUB_JOURNAL].flush_ns, 700);
	ck_assert_uint_eq(b->run.max_flush_ns, 500);
	/* a lost completion: the next issue, a settle, and only it pairs */
	ev(b, BLK_ISSUE, 3000, 0, 0, "FF");
	ev(b, BLK_ISSUE, 4000, 0, 0, "FF");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->nflight, 1);
	ev(b, BLK_COMPLETE, 4200, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.flush_ns, 200 + 500 + 400 + 300 + 200);
	/* asked more than a second before: nobody's */
	ev(b, BLK_ISSUE, 4000 + s + 1, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 4000 + s + 11, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.by[WS_SUB_OTHER].flushes, 2);
	/* asked within the second: the asker's (as the lost one above was) */
	asked(b, 5 * s, "WFS", "jbd2/loop1-8");
	ev(b, BLK_ISSUE, 6 * s - 1, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 6 * s, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.by[WS_SUB_JOURNAL].flushes, 4);
	/* a completion never paired: counted, not timed, gone at the end */
	ev(b, BLK_COMPLETE, 7 * s, UINT64_MAX, 0, "FF");
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->nearly, 0);
	ck_assert_uint_eq(b->run.flushes, 8);
	gone(b);
}
END_TEST

/* An fsync's empty flush request ("FWS", no sectors) is never issued
 * itself: it completes as a write of nothing, timed from its getrq; the
 * next one 100 ms later, read before its getrq, is no second completion
 * of the first. */
START_TEST(test_empty_flush_requests)
{
	struct blockstat *b = fresh();

	asked(b, 1000, "FWS", "ws-probe-dsync");
	ev(b, BLK_ISSUE, 1100, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 1600, UINT64_MAX, 0, "FF");
	ev(b, BLK_COMPLETE, 1700, 0, 0, "WS");
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 1);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].bytes, 0);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].time_ns, 700);
	ck_assert_uint_eq(b->run.by[WS_SUB_PROBES].requests, 1);
	/* never issued itself: no service, no queue, not in the histogram */
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].empty, 1);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].service_ns, 0);
	ck_assert_uint_eq(b->write_service.count, 0);
	ev(b, BLK_COMPLETE, 100001700, 0, 0, "WS");	/* before its getrq */
	asked(b, 100001000, "FWS", "ws-probe-dsync");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 2);
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->run.unmatched, 0);
	gone(b);
}
END_TEST

/* Two empty flush requests in flight at once (the probe's and the
 * writer's fsync), both at sector 0, and a write with data there (xfs's
 * superblock) completed 50 ms before: each empty one is timed from its
 * own getrq, whether its completion is read before its getrq or after
 * (or is at the same time), and none is taken for the write's second
 * completion. */
START_TEST(test_empty_flush_requests_in_flight_together)
{
	struct blockstat *b = fresh();

	ev(b, BLK_GETRQ, 1000, 0, 3, "WM");
	ev(b, BLK_ISSUE, 1100, 0, 3, "WM");
	ev(b, BLK_COMPLETE, 1200, 0, 3, "WM");
	/* the superblock written again, in flight while they complete */
	ev(b, BLK_GETRQ, 50000000, 0, 3, "WM");
	ev(b, BLK_ISSUE, 50000100, 0, 3, "WM");
	ev(b, BLK_COMPLETE, 50001700, 0, 0, "WS");	/* the first's, read early */
	asked(b, 50001000, "FWS", "ws-probe-fsync");
	asked(b, 50001500, "FWS", "ws-writer");
	blockstat_settle(b, false);
	ev(b, BLK_COMPLETE, 50001900, 0, 0, "WS");	/* the second's, after */
	/* a third, its completion at the very time of its getrq */
	asked(b, 50002000, "FWS", "ws-writer");
	ev(b, BLK_COMPLETE, 50002000, 0, 0, "WS");
	ev(b, BLK_COMPLETE, 50003000, 0, 3, "WM");
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 5);
	ck_assert_uint_eq(b->run.unmatched, 0);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].empty, 3);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].bytes, 2 * 3 * 512);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].time_ns, 200 + 700 + 400 + 0 + 3000);
	ck_assert_uint_eq(b->run.by[WS_SUB_PROBES].requests, 1);
	ck_assert_uint_eq(b->run.by[WS_SUB_WRITER].requests, 2);
	ck_assert_uint_eq(b->nempty, 0);
	gone(b);
}
END_TEST

/* More than 16 empty flush requests waiting: the oldest goes (its
 * completion lost), and one waiting more than 10 s is forgotten; a
 * kworker's write with a flush or FUA is a log's, the journal's. */
START_TEST(test_empty_flush_requests_bounded)
{
	struct blockstat *b = fresh();

	for (uint64_t i = 0; i < 17; i++)
		asked(b, 1000 + i, "FWS", "ws-probe-fsync");
	ck_assert_uint_eq(b->nempty, 16);
	ck_assert_uint_eq(b->empty[0].start_ns, 1001);
	ev(b, BLK_COMPLETE, 2000, 0, 0, "WS");
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].time_ns, 999);
	ev(b, BLK_GETRQ, 10000001002, 8, 8, "W");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->nempty, 15);	/* 10 s after the oldest: kept */
	ev(b, BLK_GETRQ, 10000001003, 16, 8, "W");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->nempty, 14);	/* a nanosecond more: gone */
	ck_assert_uint_eq(b->empty[0].start_ns, 1003);
	gone(b);
	b = fresh();
	{
		struct blk_event e = { .kind = BLK_GETRQ, .ts_ns = 1, .sector = 64, .nr_sector = 8 };

		snprintf(e.rwbs, sizeof(e.rwbs), "FWFSM");
		snprintf(e.comm, sizeof(e.comm), "kworker/u8:1");
		blockstat_event(b, &e);
	}
	ev(b, BLK_ISSUE, 2, 64, 8, "WSM");
	ev(b, BLK_COMPLETE, 3, 64, 8, "WSM");
	ck_assert_uint_eq(b->run.by[WS_SUB_JOURNAL].requests, 1);
	ck_assert_uint_eq(b->run.by[WS_SUB_FLUSHER].requests, 0);
	gone(b);
}
END_TEST

/* A flush is 0 at issue and -1 at completion; a FUA write counts as one;
 * a write sent with a flush completes twice and is one request. */
START_TEST(test_flushes_and_fua)
{
	struct blockstat *b = fresh();

	ev(b, BLK_ISSUE, 100, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 300, UINT64_MAX, 0, "FF");
	ck_assert_uint_eq(b->run.flushes, 1);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 0);
	ev(b, BLK_GETRQ, 400, 500, 8, "FWFSM");
	ev(b, BLK_ISSUE, 500, 500, 8, "WFSM");
	ev(b, BLK_COMPLETE, 700, 500, 8, "WFSM");
	ev(b, BLK_COMPLETE, 900, 500, 8, "WSM");	/* after its post-flush */
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 1);
	ck_assert_uint_eq(b->run.fua, 1);
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->run.unmatched, 0);
	gone(b);
}
END_TEST

/* A completion whose issue never comes waits a second (1000000000 ns):
 * at that age it still waits, past it it is unmatched. */
START_TEST(test_unmatched_after_a_second)
{
	struct blockstat *b = fresh();

	ev(b, BLK_COMPLETE, 1000, 77, 8, "W");
	ev(b, BLK_GETRQ, 1000 + 1000000000, 900, 8, "W");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->run.unmatched, 0);
	ck_assert_uint_eq(b->npending, 1);
	ev(b, BLK_GETRQ, 1001 + 1000000000, 901, 8, "W");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->run.unmatched, 1);
	ck_assert_uint_eq(b->npending, 0);
	/* at the end none waits */
	ev(b, BLK_COMPLETE, 2000000000, 78, 8, "W");
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->run.unmatched, 2);
	gone(b);
}
END_TEST

/* A request merged away after getrq never completes under its sector: its
 * slot goes once 10 s (10000000000 ns) of later events have passed; an
 * issued one stays (a slow device answers late, not never). */
START_TEST(test_stale_slots_swept)
{
	struct blockstat *b = fresh();
	const uint64_t s = 1000000000ull;

	ev(b, BLK_GETRQ, s, 100, 8, "W");
	ev(b, BLK_ISSUE, s, 200, 8, "W");
	ck_assert_uint_eq(b->used, 2);
	ev(b, BLK_GETRQ, s + 10 * s, 300, 8, "W");	/* exactly 10 s */
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->used, 3);
	ev(b, BLK_GETRQ, s + 12 * s, 400, 8, "W");
	blockstat_settle(b, false);
	ck_assert_uint_eq(b->used, 3);	/* 100 gone, 200 (issued) kept */
	ev(b, BLK_COMPLETE, s + 12 * s, 200, 8, "W");
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 1);
	gone(b);
}
END_TEST

/* More requests in flight than slots: the rest complete unmatched, the
 * table keeps working. */
START_TEST(test_table_full)
{
	struct blockstat *b = fresh();

	for (unsigned int i = 0; i < BLK_INFLIGHT + 10; i++)
		ev(b, BLK_ISSUE, 10 + i, 8 * (uint64_t)i, 8, "W");
	ck_assert_uint_eq(b->used, BLK_INFLIGHT - 1);
	for (unsigned int i = 0; i < BLK_INFLIGHT + 10; i++)
		ev(b, BLK_COMPLETE, 100000 + i, 8 * (uint64_t)i, 8, "W");
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, BLK_INFLIGHT - 1);
	ck_assert_uint_eq(b->run.unmatched, 11);
	ck_assert_uint_eq(b->used, 0);
	gone(b);
}
END_TEST

/* The table at its bound, as before its slots were on the heap: 4096
 * of them, one always free, so 4095 requests in flight are matched, the
 * oldest, and each one issued beyond them completes unmatched. */
static const struct {
	unsigned int inflight, matched, unmatched;
} bound[] = {
	{ 4094, 4094, 0 }, { 4095, 4095, 0 }, { 4096, 4095, 1 }, { 4097, 4095, 2 },
};

START_TEST(test_table_bound)
{
	struct blockstat *b = fresh();
	unsigned int n = bound[_i].inflight, i;

	for (i = 0; i < n; i++)
		ev(b, BLK_ISSUE, 10 + i, 8 * (uint64_t)i, 8, "W");
	ck_assert_uint_eq(b->used, bound[_i].matched);
	ck_assert_uint_eq(b->nslots, 4096);
	for (i = 0; i < bound[_i].matched; i++)
		ev(b, BLK_COMPLETE, 100000 + i, 8 * (uint64_t)i, 8, "W");
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, bound[_i].matched);
	ck_assert_uint_eq(b->npending, 0);
	for (; i < n; i++)
		ev(b, BLK_COMPLETE, 100000 + i, 8 * (uint64_t)i, 8, "W");
	blockstat_settle(b, true);
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, bound[_i].matched);
	ck_assert_uint_eq(b->run.unmatched, bound[_i].unmatched);
	ck_assert_uint_eq(b->unmatched_bytes, bound[_i].unmatched * 4096);
	ck_assert_uint_eq(b->used, 0);
	gone(b);
}
END_TEST

/* The slots double as requests come, half full at most, and every
 * request in flight is found again across each doubling. */
START_TEST(test_table_grows)
{
	struct blockstat *b = fresh();

	ck_assert_uint_eq(b->nslots, 0);
	ev(b, BLK_ISSUE, 10, 8, 8, "W");
	ck_assert_uint_eq(b->nslots, 16);
	for (unsigned int i = 1; i < 1000; i++)
		ev(b, BLK_ISSUE, 10 + i, 8 * (uint64_t)i + 8, 8, "W");
	ck_assert_uint_eq(b->used, 1000);
	ck_assert_uint_eq(b->nslots, 2048);
	for (unsigned int i = 1000; i-- > 0;)
		ev(b, BLK_COMPLETE, 100000 + i, 8 * (uint64_t)i + 8, 8, "W");
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].requests, 1000);
	ck_assert_uint_eq(b->npending, 0);
	ck_assert_uint_eq(b->used, 0);
	gone(b);
}
END_TEST

/* Each issued request's queue wait (getrq to issue) and service (issue
 * to completion) in the fixed buckets, bounds inclusive: 1 ms is in the
 * 1 ms bucket, 1 ms + 1 ns in the 2.5 ms one; an empty flush request,
 * never issued, in neither; the run's as the intervals' added. */
START_TEST(test_latency_buckets)
{
	struct blockstat *b = fresh();
	struct ws_block_figures iv;
	const struct ws_block_dir *w;

	ev(b, BLK_GETRQ, 1000, 8, 16, "WS");
	ev(b, BLK_ISSUE, 1000 + 1000000, 8, 16, "WS");		/* queued 1 ms */
	ev(b, BLK_COMPLETE, 1000 + 2000001, 8, 16, "WS");	/* served 1 ms + 1 ns */
	ev(b, BLK_GETRQ, 3000000, 64, 16, "WS");
	ev(b, BLK_ISSUE, 3000000 + 1000001, 64, 16, "WS");	/* 1 ms + 1 ns */
	ev(b, BLK_COMPLETE, 3000000 + 2000001, 64, 16, "WS");	/* 1 ms */
	asked(b, 6000000, "FWS", "ws-probe-dsync");	/* an fsync's empty flush */
	ev(b, BLK_ISSUE, 6000100, 0, 0, "FF");
	ev(b, BLK_COMPLETE, 6000600, UINT64_MAX, 0, "FF");
	ev(b, BLK_COMPLETE, 6000700, 0, 0, "WS");
	blockstat_take(b, &iv);
	w = &iv.dir[WS_BLK_WRITE];
	ck_assert_uint_eq(w->requests, 3);
	ck_assert_uint_eq(w->queue.count, 2);
	ck_assert_uint_eq(w->service.count, 2);
	ck_assert_uint_eq(w->queue.sum_ns, 2000001);
	ck_assert_uint_eq(w->service.sum_ns, 2000001);
	ck_assert_uint_eq(w->queue.le[0], 1);	/* the 1 ms one */
	ck_assert_uint_eq(w->queue.le[1], 2);	/* both by 2.5 ms */
	ck_assert_uint_eq(w->service.le[0], 1);
	ck_assert_uint_eq(w->service.le[1], 2);
	ck_assert_uint_eq(w->service.le[14], 2);	/* 60 s */
	ck_assert_uint_eq(b->run.dir[WS_BLK_WRITE].service.count, 2);
	ck_assert_uint_eq(iv.dir[WS_BLK_READ].service.count, 0);
	gone(b);
}
END_TEST

Suite *blockstat_suite(void)
{
	Suite *s = suite_create("blockstat");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_recorded_run_agrees_with_the_device, 0, NFIXTURES);
	tcase_add_loop_test(tc, test_completions_before_their_issue, 0, NFIXTURES);
	tcase_add_loop_test(tc, test_recorded_submitters, 0, 3);
	tcase_add_test(tc, test_submitter_names);
	tcase_add_test(tc, test_write_times);
	tcase_add_test(tc, test_latency_buckets);
	tcase_add_test(tc, test_flushes_and_fua);
	tcase_add_test(tc, test_flush_times);
	tcase_add_test(tc, test_empty_flush_requests);
	tcase_add_test(tc, test_empty_flush_requests_in_flight_together);
	tcase_add_test(tc, test_empty_flush_requests_bounded);
	tcase_add_test(tc, test_unmatched_after_a_second);
	tcase_add_test(tc, test_stale_slots_swept);
	tcase_add_test(tc, test_table_full);
	tcase_add_loop_test(tc, test_table_bound, 0, sizeof(bound) / sizeof(bound[0]));
	tcase_add_test(tc, test_table_grows);
	suite_add_tcase(s, tc);
	return s;
}
