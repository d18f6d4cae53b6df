/* Bounds, wrapping and the reserve: plan.c. */
#include <errno.h>

#include "config/config.h"
#include "config/plan.h"
#include "suites.h"
#include "lib/units.h"

static const struct {
	uint64_t fs_size;
	bool system;
	uint64_t reserve;
} reserve_cases[] = {
	{ 0, false, 0 },
	{ 64 * WS_MIB, false, 64 * WS_MIB / 20 },
	{ 10 * WS_GIB, false, 512 * WS_MIB },
	{ 20 * WS_GIB - 20, false, WS_GIB - 1 },
	{ 20 * WS_GIB, false, WS_GIB },
	{ 20 * WS_GIB + 20, false, WS_GIB },
	{ 4000 * WS_GIB, false, WS_GIB },
	/* the filesystem of /, /var or /home: a tenth, rounded up, no cap */
	{ 0, true, 0 },
	{ 999, true, 100 },
	{ 1000, true, 100 },
	{ 1001, true, 101 },
	{ 10 * WS_GIB, true, WS_GIB },
	{ 4000 * WS_GIB, true, 400 * WS_GIB },
};

START_TEST(test_default_reserve)
{
	ck_assert_uint_eq(plan_default_reserve(reserve_cases[_i].fs_size,
					       reserve_cases[_i].system),
			  reserve_cases[_i].reserve);
}
END_TEST


static struct ws_config cfg_with(uint64_t buffers, uint64_t size,
				 uint64_t file_size)
{
	struct ws_config cfg;

	config_defaults(&cfg);
	cfg.set.buffers = buffers;
	cfg.set.total_size = size;
	cfg.file_size = file_size;
	cfg.set.probes = 0;		/* probe footprint: its own test */
	return cfg;
}

static const struct ws_space roomy = { 100 * WS_GIB, 50 * WS_GIB, 0, 1, NULL };

/* On the system's filesystem a run keeps a tenth of it free: it fits up
 * to that line and not a block past it; --reserve still decides. */
START_TEST(test_system_reserve_boundary)
{
	struct ws_config cfg = cfg_with(0, 8 * WS_MIB, 0);
	struct ws_space sp = { 100 * WS_GIB, 10 * WS_GIB + 8 * WS_MIB, 0, 1, "/" };
	struct ws_plan plan;
	struct ws_plan_refusal why;

	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	ck_assert_uint_eq(plan.reserve, 10 * WS_GIB);
	ck_assert(plan.reserve_system);
	sp.avail -= 1;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
	ck_assert_uint_eq(why.reserve, 10 * WS_GIB);
	/* the same room on a filesystem the system does not use: 1 GiB */
	sp.holds = NULL;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	ck_assert_uint_eq(plan.reserve, WS_GIB);
	ck_assert(!plan.reserve_system);
	sp.holds = "/home";
	cfg.reserve_set = true;
	cfg.reserve = 0;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	ck_assert_uint_eq(plan.reserve, 0);
	ck_assert(!plan.reserve_system);
}
END_TEST

START_TEST(test_total_is_first_bound)
{
	struct ws_config cfg = cfg_with(10000, 0, 0);
	struct ws_plan plan;
	struct ws_plan_refusal why;

	ck_assert_int_eq(plan_make(&cfg, &roomy, &plan, &why), -ENOSPC);
	ck_assert_uint_eq(why.needed, 10000 * 8 * WS_MIB);
	ck_assert_uint_eq(why.usable, 50 * WS_GIB);
	ck_assert_uint_eq(why.reserve, WS_GIB);
	/* the hint keeps 1% for metadata, so following it works */
	ck_assert_uint_eq(why.fits, (49 * WS_GIB - 49 * WS_GIB / 100) / 4096 * 4096);

	cfg = cfg_with(16, 100 * WS_MIB, 0);
	ck_assert_int_eq(plan_make(&cfg, &roomy, &plan, &why), 0);
	ck_assert_uint_eq(plan.total, 100 * WS_MIB);
	ck_assert_uint_eq(plan.file_size, 100 * WS_MIB);

	cfg = cfg_with(16, 200 * WS_MIB, 0);
	ck_assert_int_eq(plan_make(&cfg, &roomy, &plan, &why), 0);
	ck_assert_uint_eq(plan.total, 128 * WS_MIB);
}
END_TEST

START_TEST(test_wrap_makes_it_fit)
{
	struct ws_config cfg = cfg_with(3000, 0, 4 * WS_GIB);
	struct ws_plan plan;
	struct ws_plan_refusal why;

	ck_assert_int_eq(plan_make(&cfg, &roomy, &plan, &why), 0);
	ck_assert_uint_eq(plan.total, 3000 * 8 * WS_MIB);
	ck_assert_uint_eq(plan.file_size, 4 * WS_GIB);
	ck_assert(!plan.file_size_derived);
}
END_TEST

START_TEST(test_unbounded_wraps_before_reserve)
{
	struct ws_config cfg = cfg_with(0, 0, 0);
	struct ws_space sp = { 1000 * WS_MIB, 300 * WS_MIB + 5, 0, 1, NULL };
	struct ws_plan plan;
	struct ws_plan_refusal why;

	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	ck_assert_uint_eq(plan.total, WS_UNBOUNDED);
	ck_assert_uint_eq(plan.reserve, 50 * WS_MIB);
	/* 250 MiB + 5 bytes of room, rounded down to whole buffers */
	ck_assert_uint_eq(plan.file_size, 248 * WS_MIB);
	ck_assert(plan.file_size_derived);

	sp.avail = 52 * WS_MIB;	/* less than a buffer above the reserve */
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
	ck_assert_uint_eq(why.needed, 8 * WS_MIB);
}
END_TEST

START_TEST(test_reclaimed_and_explicit_reserve)
{
	struct ws_config cfg = cfg_with(0, 100 * WS_MIB, 0);
	struct ws_space sp = { 1000 * WS_MIB, 60 * WS_MIB, 60 * WS_MIB, 1, NULL };
	struct ws_plan plan;
	struct ws_plan_refusal why;

	/* our old file's blocks come back on truncation: 120 - 50 >= 100? no */
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
	ck_assert_uint_eq(why.usable, 120 * WS_MIB);
	cfg.reserve_set = true;
	cfg.reserve = 0;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	ck_assert_uint_eq(plan.reserve, 0);
	cfg.reserve = 20 * WS_MIB + 1;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
}
END_TEST

START_TEST(test_probe_footprint_counted)
{
	struct ws_config cfg = cfg_with(0, 99 * WS_MIB, 0);
	struct ws_space sp = { 1000 * WS_MIB, 100 * WS_MIB, 0, 1, NULL };
	struct ws_plan plan;
	struct ws_plan_refusal why;

	cfg.reserve_set = true;
	cfg.reserve = 0;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	/* the fsync probe's file may grow to 1 MiB + a probe beside it */
	cfg.set.probes = 1u << WS_PROBE_FSYNC;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
	cfg.set.total_size = 99 * WS_MIB - 4096;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	cfg.set.probes |= 1u << WS_PROBE_SAVE;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
	/* the sqlite probe's database, grown to 1 MiB, a quarter of that
	 * for SQLite's pages and two rows (its journal): at the byte and
	 * one over */
	cfg.set.probes = 1u << WS_PROBE_SQLITE;
	cfg.set.total_size = 100 * WS_MIB - (WS_MIB + WS_MIB / 4 + 2 * 4096);
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), 0);
	cfg.set.total_size += 4096;
	ck_assert_int_eq(plan_make(&cfg, &sp, &plan, &why), -ENOSPC);
}
END_TEST

START_TEST(test_buffer_count_overflow)
{
	struct ws_config cfg = cfg_with(UINT64_MAX / 2, 0, 4 * WS_GIB);
	struct ws_plan plan;
	struct ws_plan_refusal why;

	ck_assert_int_eq(plan_make(&cfg, &roomy, &plan, &why), 0);
	ck_assert_uint_eq(plan.total, WS_UNBOUNDED - 1);
}
END_TEST

START_TEST(test_next_wraps_and_cuts)
{
	struct ws_plan plan = { .buffer_size = 8, .total = 50, .file_size = 20 };
	static const struct ws_extent want[] = {
		{ 0, 8 }, { 8, 8 }, { 16, 4 }, { 0, 8 }, { 8, 8 },
		{ 16, 4 }, { 0, 8 }, { 8, 2 },
	};
	struct ws_extent e;
	uint64_t pos = 0;
	unsigned int i = 0;

	while (plan_next(&plan, pos, &e)) {
		ck_assert_uint_lt(i, sizeof(want) / sizeof(want[0]));
		ck_assert_uint_eq(e.off, want[i].off);
		ck_assert_uint_eq(e.len, want[i].len);
		pos += e.len;
		i++;
	}
	ck_assert_uint_eq(i, sizeof(want) / sizeof(want[0]));
	ck_assert_uint_eq(pos, 50);
}
END_TEST

START_TEST(test_next_file_smaller_than_buffer)
{
	struct ws_plan plan = { .buffer_size = 8 * WS_MIB, .total = 10 * WS_MIB,
				.file_size = 4 * WS_MIB };
	struct ws_extent e;
	uint64_t pos = 0, n = 0;

	while (plan_next(&plan, pos, &e)) {
		ck_assert_uint_eq(e.off, 0);
		ck_assert_uint_le(e.len, 4 * WS_MIB);
		pos += e.len;
		n++;
	}
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(pos, 10 * WS_MIB);
}
END_TEST

Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_default_reserve, 0,
			    sizeof(reserve_cases) / sizeof(reserve_cases[0]));
	tcase_add_test(tc, test_system_reserve_boundary);
	tcase_add_test(tc, test_total_is_first_bound);
	tcase_add_test(tc, test_wrap_makes_it_fit);
	tcase_add_test(tc, test_unbounded_wraps_before_reserve);
	tcase_add_test(tc, test_reclaimed_and_explicit_reserve);
	tcase_add_test(tc, test_probe_footprint_counted);
	tcase_add_test(tc, test_buffer_count_overflow);
	tcase_add_test(tc, test_next_wraps_and_cuts);
	tcase_add_test(tc, test_next_file_smaller_than_buffer);
	suite_add_tcase(s, tc);
	return s;
}
