/* The call sequence of every pacing mode, checked on the recording fake
 * backend: pace.c driven by writer.c. */
#include <fcntl.h>
#include <stdlib.h>

#include "harness.h"
#include "engine/pace.h"
#include "suites.h"
#include "lib/units.h"

#define M WS_MIB
#define SR_W SYNC_FILE_RANGE_WRITE
#define SR_WAIT (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
		 SYNC_FILE_RANGE_WAIT_AFTER)
#define DN POSIX_FADV_DONTNEED

#define PW(i, f) { IO_PWRITE, (i) * M, M, (f) }
#define START(i) { IO_SYNC_RANGE, (i) * M, M, SR_W }
#define WAIT(i) { IO_SYNC_RANGE, (i) * M, M, SR_WAIT }
#define DROP(i) { IO_FADVISE, (i) * M, M, DN }
#define FDS { IO_FDATASYNC, 0, 0, 0 }

struct pace_case {
	const char *name;
	enum ws_pace pace;
	bool fadvise;
	unsigned int window, sync_every;
	struct io_call want[24];
	unsigned int nwant;
};

static const struct pace_case cases[] = {
	{ "overwrite.c: window 1 + fadvise", WS_PACE_WINDOW, true, 1, 1, {
		PW(0, 0), START(0),
		PW(1, 0), START(1), WAIT(0), DROP(0),
		PW(2, 0), START(2), WAIT(1), DROP(1),
		PW(3, 0), START(3), WAIT(2), DROP(2),
		WAIT(3), DROP(3), FDS }, 17 },
	{ "window 3, no fadvise", WS_PACE_WINDOW, false, 3, 1, {
		PW(0, 0), START(0), PW(1, 0), START(1), PW(2, 0), START(2),
		PW(3, 0), START(3), WAIT(0),
		WAIT(1), WAIT(2), WAIT(3), FDS }, 13 },
	{ "none", WS_PACE_NONE, false, 1, 1, {
		PW(0, 0), PW(1, 0), PW(2, 0), PW(3, 0), FDS }, 5 },
	{ "fdatasync every 2 + fadvise", WS_PACE_FDATASYNC, true, 1, 2, {
		PW(0, 0), PW(1, 0), FDS, DROP(0), DROP(1),
		PW(2, 0), PW(3, 0), FDS, DROP(2), DROP(3), FDS }, 11 },
	{ "fdatasync every 3, tail synced by drain", WS_PACE_FDATASYNC, false, 1, 3, {
		PW(0, 0), PW(1, 0), PW(2, 0), FDS, PW(3, 0), FDS, FDS }, 7 },
	{ "direct", WS_PACE_DIRECT, false, 1, 1, {
		PW(0, 0), PW(1, 0), PW(2, 0), PW(3, 0), FDS }, 5 },
	{ "dontcache", WS_PACE_DONTCACHE, false, 1, 1, {
		PW(0, RWF_DONTCACHE), PW(1, RWF_DONTCACHE),
		PW(2, RWF_DONTCACHE), PW(3, RWF_DONTCACHE), FDS }, 5 },
};

static const char *const kind_names[] = { "pwrite", "sync_range", "fadvise", "fdatasync" };

START_TEST(test_call_sequence)
{
	const struct pace_case *c = &cases[_i];
	struct harness *h = calloc(1, sizeof(*h));

	harness_setup(h, M, 4, 0);
	h->cfg.set.pace = c->pace;
	h->cfg.set.pacing.fadvise = c->fadvise;
	h->cfg.set.pacing.window = c->window;
	h->cfg.set.pacing.sync_every = c->sync_every;
	ck_assert_int_eq(harness_run(h), 0);

	for (unsigned int i = 0; i < c->nwant && i < h->fake.ncalls; i++) {
		const struct io_call *got = &h->fake.calls[i], *want = &c->want[i];

		ck_assert_msg(got->kind == want->kind && got->off == want->off &&
			      got->len == want->len && got->flags == want->flags,
			      "%s: call %u is %s(off %llu, len %llu, flags %u), expected %s(off %llu, len %llu, flags %u)",
			      c->name, i, kind_names[got->kind],
			      (unsigned long long)got->off, (unsigned long long)got->len,
			      got->flags, kind_names[want->kind],
			      (unsigned long long)want->off,
			      (unsigned long long)want->len, want->flags);
	}
	ck_assert_msg(h->fake.ncalls == c->nwant, "%s: %u calls, expected %u",
		      c->name, h->fake.ncalls, c->nwant);
	ck_assert_uint_eq(h->fake.bytes_written, 4 * M);
	harness_teardown(h);
	free(h);
}
END_TEST

START_TEST(test_direct_opens_o_direct)
{
	enum ws_pace mode;

	ck_assert(ws_pace_parse("direct", &mode));
	ck_assert_int_eq(mode, WS_PACE_DIRECT);
	ck_assert_int_eq(pace_modes[mode]->open_flags, O_DIRECT);
	for (int m = 0; m < WS_PACE_NR; m++)
		if (m != WS_PACE_DIRECT)
			ck_assert_int_eq(pace_modes[m]->open_flags, 0);
	ck_assert(!ws_pace_parse("windows", &mode));
	ck_assert_str_eq(ws_pace_name(WS_PACE_ADAPTIVE), "adaptive");
	ck_assert_str_eq(ws_pace_name(WS_PACE_NR), "?");
}
END_TEST

START_TEST(test_timers_accounted)
{
	struct harness *h = calloc(1, sizeof(*h));
	struct ws_sample s;

	harness_setup(h, M, 8, 0);
	h->cfg.set.pacing.fadvise = true;
	h->fake.delay_ns = 2 * WS_NSEC_PER_MSEC;
	ck_assert_int_eq(harness_run(h), 0);
	snapshot_read(&h->snap, &s);
	/* eight writes of 2 ms on the fake clock, and nothing else took
	 * time: 16 ms inside write(), all of the run */
	ck_assert_uint_eq(s.time_ns[WS_T_WRITE], 16 * WS_NSEC_PER_MSEC);
	ck_assert_uint_eq(s.time_ns[WS_T_WAIT] + s.time_ns[WS_T_START] +
			  s.time_ns[WS_T_FADVISE] + s.time_ns[WS_T_FILL], 0);
	ck_assert_uint_eq(h->snap.outcome.end_ns - s.start_ns, 16 * WS_NSEC_PER_MSEC);
	ck_assert_uint_eq(s.bytes, 8 * M);
	ck_assert_uint_eq(s.buffers, 8);
	harness_teardown(h);
	free(h);
}
END_TEST

/* --rate and --headroom's cap together: the lower holds; either alone
 * holds; neither is no limit (0).  In MiB/s. */
static const struct limit_row {
	uint64_t rate, cap, want;
} limit_rows[] = {
	{ 0, 0, 0 }, { 32, 0, 32 }, { 0, 19, 19 },
	{ 32, 19, 19 }, { 19, 32, 19 }, { 19, 19, 19 }, { 19, 18, 18 }, { 18, 19, 18 },
};

START_TEST(test_rate_limit_the_lower)
{
	const struct limit_row *r = &limit_rows[_i];

	ck_assert_uint_eq(pace_rate_limit(r->rate * M, r->cap * M), r->want * M);
}
END_TEST

Suite *pace_suite(void)
{
	Suite *s = suite_create("pace");
	TCase *tc = tcase_create("sequence");

	tcase_add_loop_test(tc, test_call_sequence, 0,
			    sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_direct_opens_o_direct);
	tcase_add_test(tc, test_timers_accounted);
	tcase_add_loop_test(tc, test_rate_limit_the_lower, 0,
			    sizeof(limit_rows) / sizeof(limit_rows[0]));
	suite_add_tcase(s, tc);
	return s;
}
