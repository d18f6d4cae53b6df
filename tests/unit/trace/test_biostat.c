/* The bios behind the requests: trace/biostat.c on made streams, one per
 * rule (a bio's wait for its request, merges, splits, a getrq read before
 * its bio, the bounds and ages), their text form, and a recorded run whose
 * merges the device counted itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "trace/evidence.h"
#include "trace_fixture.h"

struct rig {
	struct biostat s;
	struct ws_block_figures iv, run;
};

static struct rig *fresh(void)
{
	struct rig *r = calloc(1, sizeof(*r));

	ck_assert_ptr_nonnull(r);
	biostat_init(&r->s, NULL);
	return r;
}

static void bio(struct rig *r, enum bio_event_kind kind, uint64_t ts, uint64_t sector,
		uint64_t nr, const char *rwbs)
{
	struct bio_event e = { .kind = kind, .ts_ns = ts, .sector = sector, .nr_sector = nr };

	snprintf(e.rwbs, sizeof(e.rwbs), "%s", rwbs);
	biostat_event(&r->s, &e, &r->iv, &r->run);
}

static void getrq(struct rig *r, uint64_t ts, uint64_t sector, uint32_t nr, const char *rwbs)
{
	struct blk_event e = { .kind = BLK_GETRQ, .ts_ns = ts, .sector = sector, .nr_sector = nr };

	snprintf(e.rwbs, sizeof(e.rwbs), "%s", rwbs);
	biostat_getrq(&r->s, &e, &r->iv, &r->run);
}

static const struct ws_block_dir *writes(const struct rig *r)
{
	return &r->run.dir[WS_BLK_WRITE];
}

/* A bio's wait is from its queueing to its getrq at the same sector and
 * direction; the interval's and the run's both count it. */
START_TEST(test_wait_for_a_request)
{
	struct rig *r = fresh();

	bio(r, BIO_QUEUE, 100, 8, 8, "WS");
	bio(r, BIO_QUEUE, 120, 64, 8, "RA");
	getrq(r, 350, 8, 8, "WS");
	getrq(r, 125, 64, 8, "RA");
	ck_assert_uint_eq(writes(r)->bios, 1);
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 250);
	ck_assert_uint_eq(writes(r)->max_request_wait_ns, 250);
	ck_assert_uint_eq(r->iv.dir[WS_BLK_WRITE].request_wait_ns, 250);
	ck_assert_uint_eq(r->run.dir[WS_BLK_READ].request_wait_ns, 5);
	ck_assert_uint_eq(r->run.dir[WS_BLK_READ].bios, 1);
	/* the same sector written again: a new wait, the longest kept */
	bio(r, BIO_QUEUE, 1000, 8, 8, "WS");
	getrq(r, 1100, 8, 8, "WS");
	ck_assert_uint_eq(writes(r)->request_waits, 2);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 350);
	ck_assert_uint_eq(writes(r)->max_request_wait_ns, 250);
	free(r);
}
END_TEST

/* A bio merged into a request has no request of its own: counted merged,
 * its wait never ends (a later getrq there is another bio's); a request
 * merged into another counts as a merge too, as the device counts it. */
START_TEST(test_merges)
{
	struct rig *r = fresh();

	bio(r, BIO_QUEUE, 100, 16, 8, "WS");
	bio(r, BIO_MERGE, 101, 16, 8, "WS");
	bio(r, BIO_RQ_MERGE, 102, 512, 8, "WS");
	getrq(r, 5000, 16, 8, "WS");
	ck_assert_uint_eq(writes(r)->bios, 1);
	ck_assert_uint_eq(writes(r)->merged, 2);
	ck_assert_uint_eq(writes(r)->request_waits, 0);
	free(r);
}
END_TEST

/* A split bio: its first part goes on at its sector, the rest (not queued
 * again) at the new one, both waiting from the whole one's queueing. */
START_TEST(test_split)
{
	struct rig *r = fresh();

	bio(r, BIO_QUEUE, 1000, 100, 2048, "W");
	bio(r, BIO_SPLIT, 1005, 100, 100 + 1024, "W");
	getrq(r, 1010, 100, 1024, "W");
	getrq(r, 1040, 100 + 1024, 1024, "W");
	ck_assert_uint_eq(writes(r)->bios, 1);
	ck_assert_uint_eq(writes(r)->splits, 1);
	ck_assert_uint_eq(writes(r)->request_waits, 2);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 10 + 40);
	ck_assert_uint_eq(writes(r)->max_request_wait_ns, 40);
	free(r);
}
END_TEST

/* A split with every waiting place taken: the rest takes the oldest
 * other's place, never its first part's; and a rest whose getrq was read
 * before the split is matched at once. */
START_TEST(test_split_edges)
{
	struct rig *r = fresh();

	bio(r, BIO_QUEUE, 1000, 8, 2048, "W");		/* the oldest */
	for (unsigned int i = 1; i < BIO_WAITING; i++)
		bio(r, BIO_QUEUE, 2000 + i, 100000 + 8 * (uint64_t)i, 8, "W");
	bio(r, BIO_SPLIT, 3000, 8, 8 + 1024, "W");
	getrq(r, 3010, 8, 1024, "W");			/* the first part */
	getrq(r, 3020, 8 + 1024, 1024, "W");		/* the rest */
	ck_assert_uint_eq(writes(r)->request_waits, 2);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 2010 + 2020);
	getrq(r, 3030, 100000 + 8, 8, "W");		/* the one replaced */
	ck_assert_uint_eq(writes(r)->request_waits, 2);
	/* the rest's getrq read first */
	bio(r, BIO_QUEUE, 5000, 4096, 2048, "W");
	getrq(r, 5040, 4096 + 1024, 1024, "W");
	bio(r, BIO_SPLIT, 5005, 4096, 4096 + 1024, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 3);
	ck_assert_uint_eq(writes(r)->max_request_wait_ns, 2020);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 2010 + 2020 + 40);
	free(r);
}
END_TEST

/* The rings are read CPU by CPU: a getrq read before its bio's queueing
 * (the task moved while it waited) is matched when the bio comes, if the
 * bio was queued before it; a bio queued after it is another one. */
START_TEST(test_getrq_read_first)
{
	struct rig *r = fresh();

	getrq(r, 200, 8, 8, "WS");
	bio(r, BIO_QUEUE, 100, 8, 8, "WS");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 100);
	getrq(r, 300, 24, 8, "WS");
	bio(r, BIO_QUEUE, 301, 24, 8, "WS");	/* after it: not its bio */
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	getrq(r, 400, 24, 8, "WS");		/* the one it was */
	ck_assert_uint_eq(writes(r)->request_waits, 2);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 100 + 99);
	free(r);
}
END_TEST

/* An fsync's empty flush (no data, all at sector 0) is a bio but its wait
 * is not told apart from another's; a discard is neither direction. */
START_TEST(test_empty_flush_and_discard)
{
	struct rig *r = fresh();

	bio(r, BIO_QUEUE, 100, 0, 0, "FWS");
	getrq(r, 200, 0, 0, "FWS");
	bio(r, BIO_QUEUE, 300, 4096, 64, "DS");
	bio(r, BIO_MERGE, 301, 4096, 64, "DS");
	getrq(r, 400, 4096, 64, "DS");
	ck_assert_uint_eq(writes(r)->bios, 1);
	ck_assert_uint_eq(writes(r)->merged, 0);
	ck_assert_uint_eq(writes(r)->request_waits, 0);
	ck_assert_uint_eq(r->run.dir[WS_BLK_READ].bios, 0);
	/* a journal commit's write with a flush has data: its wait counts */
	bio(r, BIO_QUEUE, 500, 800, 8, "FWFSM");
	getrq(r, 530, 800, 8, "FWFSM");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	ck_assert_uint_eq(writes(r)->request_wait_ns, 30);
	free(r);
}
END_TEST

/* 64 bios wait at most: a 65th replaces the oldest, whose getrq then
 * finds nothing; the newest is matched. */
START_TEST(test_waiting_bounded)
{
	struct rig *r = fresh();

	ck_assert_uint_eq(BIO_WAITING, 64);
	for (unsigned int i = 0; i < 65; i++)
		bio(r, BIO_QUEUE, 1000 + i, 8 * (uint64_t)i, 8, "W");
	getrq(r, 2000, 0, 8, "W");	/* the oldest: replaced */
	ck_assert_uint_eq(writes(r)->request_waits, 0);
	getrq(r, 2000, 8, 8, "W");	/* the second oldest: kept */
	getrq(r, 2000, 8 * 64, 8, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 2);
	ck_assert_uint_eq(writes(r)->request_wait_ns, (2000 - 1001) + (2000 - 1064));
	free(r);
}
END_TEST

/* A getrq read first waits a second (1000000000 ns) for its bio: at that
 * age it is still matched, past it forgotten; all go at the end. */
START_TEST(test_early_getrq_ages)
{
	const uint64_t s = 1000000000ull;
	struct rig *r = fresh();

	getrq(r, 10 * s, 8, 8, "W");
	getrq(r, 10 * s, 16, 8, "W");
	getrq(r, 11 * s, 4096, 8, "W");	/* a second later */
	biostat_settle(&r->s, false);
	bio(r, BIO_QUEUE, 10 * s - 5, 8, 8, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	getrq(r, 11 * s + 1, 8192, 8, "W");	/* a second and 1 ns */
	biostat_settle(&r->s, false);
	bio(r, BIO_QUEUE, 10 * s - 5, 16, 8, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	biostat_settle(&r->s, true);	/* the end: none is kept */
	bio(r, BIO_QUEUE, 11 * s - 5, 4096, 8, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	free(r);
}
END_TEST

/* A queued bio whose getrq never came goes after 10 s (10000000000 ns):
 * at that age it is kept, past it gone. */
START_TEST(test_stale_bio_ages)
{
	const uint64_t s = 1000000000ull;
	struct rig *r = fresh();

	bio(r, BIO_QUEUE, s, 8, 8, "W");
	bio(r, BIO_QUEUE, s, 16, 8, "W");
	bio(r, BIO_QUEUE, 11 * s, 4096, 8, "W");	/* 10 s later */
	biostat_settle(&r->s, false);
	getrq(r, 11 * s, 8, 8, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	ck_assert_uint_eq(writes(r)->max_request_wait_ns, 10 * s);
	bio(r, BIO_QUEUE, 11 * s + 1, 8192, 8, "W");
	biostat_settle(&r->s, false);
	getrq(r, 11 * s + 2, 16, 8, "W");
	ck_assert_uint_eq(writes(r)->request_waits, 1);
	free(r);
}
END_TEST

/* The bios' lines: written and read back by the tracer's own text form. */
START_TEST(test_text_form)
{
	static const char *const lines[] = {
		"B 41720474011547 266248 8 WS\n",
		"M 41720474011548 266256 8 WS\n",
		"R 41720474011549 266264 16 W\n",
		"S 41720474011550 266248 268296 W\n",
	};
	struct trace_event e;
	char buf[128];

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		FILE *f = fmemopen(buf, sizeof(buf), "w");

		ck_assert_int_eq(trace_event_parse(lines[i], &e), 1);
		ck_assert_int_eq(e.kind, TE_BIO);
		ck_assert_int_eq(e.bio.kind, (int)i);
		trace_event_write(f, &e);
		fclose(f);
		ck_assert_str_eq(buf, lines[i]);
	}
	ck_assert_int_eq(trace_event_parse("B 1 2 WS\n", &e), -1);
}
END_TEST

/* Once bios are traced their figures stay meaningful in every interval
 * (0 included), and they go into the request figures the evidence takes. */
START_TEST(test_evidence_keeps_bios_on)
{
	struct evidence *ev = malloc(sizeof(*ev));
	struct ws_block_figures iv;
	struct trace_event e = { .kind = TE_BIO };

	ck_assert_ptr_nonnull(ev);
	evidence_init(ev, 0);
	ck_assert(!ev->bs.run.bios_on);
	e.bio = (struct bio_event){ .kind = BIO_QUEUE, .ts_ns = 10, .sector = 8, .nr_sector = 8 };
	strcpy(e.bio.rwbs, "WS");
	evidence_event(ev, &e);
	e = (struct trace_event){ .kind = TE_BLOCK };
	e.blk = (struct blk_event){ .kind = BLK_GETRQ, .ts_ns = 30, .sector = 8, .nr_sector = 8 };
	strcpy(e.blk.rwbs, "WS");
	evidence_event(ev, &e);
	evidence_take(ev, &iv, &(struct ws_journal_figures){ 0 });
	ck_assert(iv.bios_on);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].bios, 1);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].request_wait_ns, 20);
	evidence_take(ev, &iv, &(struct ws_journal_figures){ 0 });
	ck_assert(iv.bios_on);
	ck_assert_uint_eq(iv.dir[WS_BLK_WRITE].bios, 0);
	ck_assert_uint_eq(ev->bs.run.dir[WS_BLK_WRITE].bios, 1);
	evidence_free(ev);
	free(ev);
}
END_TEST

/* A recorded flood (tests/fixtures/trace/record.sh bios): the merges the
 * trace saw are the device's own count over the same span, give or take
 * those at its two edges (the counters are read before the trace begins
 * and after it ends: 2%, and 2), and the run's bios each went somewhere:
 * a request, a merge, or (after a split) more than one request. */
START_TEST(test_recorded_merges_agree)
{
	struct recorded rec;
	struct evidence *ev = malloc(sizeof(*ev));
	const struct ws_block_dir *w;

	ck_assert_ptr_nonnull(ev);
	recorded_load("bios-ext4-loop.events", &rec);
	evidence_init(ev, rec.origin_ns);
	for (size_t i = 0; i < rec.n; i++)
		evidence_event(ev, &rec.ev[i]);
	evidence_settle(ev, true);
	w = &ev->bs.run.dir[WS_BLK_WRITE];
	ck_assert(rec.have_merges);
	ck_assert_uint_ge(rec.merges, 20);
	ck_assert_msg((double)w->merged >= (double)rec.merges * 0.98 - 2 &&
		      (double)w->merged <= (double)rec.merges * 1.02 + 2,
		      "merges: traced %llu, counted %lu", (unsigned long long)w->merged, rec.merges);
	ck_assert_uint_gt(w->request_waits, w->requests / 2);
	ck_assert_uint_le(w->bios + w->splits, w->merged + w->requests + 16);
	ck_assert_uint_ge(w->bios + w->splits + 16, w->merged + w->requests);
	recorded_free(&rec);
	evidence_free(ev);
	free(ev);
}
END_TEST

Suite *biostat_suite(void)
{
	Suite *s = suite_create("biostat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_wait_for_a_request);
	tcase_add_test(tc, test_merges);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_split_edges);
	tcase_add_test(tc, test_getrq_read_first);
	tcase_add_test(tc, test_empty_flush_and_discard);
	tcase_add_test(tc, test_waiting_bounded);
	tcase_add_test(tc, test_early_getrq_ages);
	tcase_add_test(tc, test_stale_bio_ages);
	tcase_add_test(tc, test_text_form);
	tcase_add_test(tc, test_evidence_keeps_bios_on);
	tcase_add_test(tc, test_recorded_merges_agree);
	suite_add_tcase(s, tc);
	return s;
}
