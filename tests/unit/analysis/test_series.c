/* The bounded series and its throughput-over-bytes cells: series.c. */
#include <stdlib.h>

#include "recorder/recorder.h"
#include "analysis/series.h"
#include "suites.h"
#include "lib/units.h"

#define SEC WS_NSEC_PER_SEC

static struct ws_point point(uint64_t *t, uint64_t *bytes, uint64_t dbytes,
			     uint64_t dt)
{
	struct ws_point p = { 0 };

	*t += dt;
	*bytes += dbytes;
	p.t_ns = *t;
	p.dt_ns = dt;
	p.bytes = *bytes;
	p.dbytes = dbytes;
	p.mibps = (double)dbytes / (double)WS_MIB * 1e9 / (double)dt;
	return p;
}

START_TEST(test_bounded_and_complete)
{
	struct ws_series *s = malloc(sizeof(*s));
	uint64_t t = 0, bytes = 0, sum = 0, n = 3 * WS_SERIES_CAP + 5;

	series_init(s);
	for (uint64_t i = 0; i < n; i++) {
		struct ws_point p = point(&t, &bytes, (i % 3 + 1) * WS_MIB, SEC);

		p.probe_max[0] = i == 5000 ? 12 * SEC : 1000;
		series_add(s, &p);
	}
	series_finish(s);
	ck_assert_uint_le(s->n, WS_SERIES_CAP);
	ck_assert_uint_eq(s->stride, 4);
	for (size_t i = 0; i < s->n; i++) {
		sum += s->pts[i].dbytes;
		if (i)
			ck_assert_uint_gt(s->pts[i].t_ns, s->pts[i - 1].t_ns);
	}
	/* nothing lost to merging: the whole run is still covered */
	ck_assert_uint_eq(sum, bytes);
	ck_assert_uint_eq(s->pts[s->n - 1].bytes, bytes);
	ck_assert_uint_eq(s->pts[s->n - 1].t_ns, n * SEC);
	/* the worst latency survives downsampling */
	uint64_t worst = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->pts[i].probe_max[0] > worst)
			worst = s->pts[i].probe_max[0];
	ck_assert_uint_eq(worst, 12 * SEC);
	series_free(s);
	free(s);
}
END_TEST

START_TEST(test_merge_rates)
{
	uint64_t t = 0, bytes = 0;
	struct ws_point a = point(&t, &bytes, 80 * WS_MIB, SEC);
	struct ws_point b = point(&t, &bytes, 20 * WS_MIB, 3 * SEC);
	struct ws_point m = series_merge(&a, &b);

	ck_assert_uint_eq(m.dbytes, 100 * WS_MIB);
	ck_assert_uint_eq(m.dt_ns, 4 * SEC);
	ck_assert_double_eq_tol(m.mibps, 25.0, 1e-9);
	ck_assert_uint_eq(m.t_ns, b.t_ns);
	ck_assert_uint_eq(m.bytes, b.bytes);
	/* the device's writes and their time add up: the mean is theirs */
	a.dev_writes = 3;
	a.dev_write_service_ns = 30 * SEC / 1000;
	b.dev_writes = 1;
	b.dev_write_service_ns = 50 * SEC / 1000;
	m = series_merge(&a, &b);
	ck_assert_uint_eq(m.dev_writes, 4);
	ck_assert_uint_eq(m.dev_write_service_ns, 80 * SEC / 1000);
}
END_TEST

START_TEST(test_cells_two_rates)
{
	struct ws_series *s = malloc(sizeof(*s));
	struct ws_cell cells[64];
	uint64_t t = 0, bytes = 0, cell;
	size_t n;

	series_init(s);
	/* 80 MiB/s for 1 GiB in 1 s points, then 16 MiB/s for 1 GiB */
	for (int i = 0; i < 1024 / 80 + 1 && bytes < WS_GIB; i++) {
		uint64_t d = WS_GIB - bytes < 80 * WS_MIB ? WS_GIB - bytes : 80 * WS_MIB;
		struct ws_point p = point(&t, &bytes, d, d / 80 * SEC / WS_MIB);

		series_add(s, &p);
	}
	while (bytes < 2 * WS_GIB) {
		struct ws_point p = point(&t, &bytes, 16 * WS_MIB, SEC);

		series_add(s, &p);
	}
	series_finish(s);
	cell = series_cell_size(bytes, 0, 8, 64);
	ck_assert_uint_eq(cell, 256 * WS_MIB);
	n = series_cells(s, NULL, cell, cells, 64);
	ck_assert_uint_eq(n, 8);
	for (size_t c = 0; c < n; c++)
		ck_assert_double_eq_tol(cells[c].mibps, c < 4 ? 80.0 : 16.0, 0.01);
	ck_assert_uint_eq(cells[7].to_bytes, 2 * WS_GIB);
	series_free(s);
	free(s);
}
END_TEST

START_TEST(test_cells_smaller_than_points)
{
	struct ws_series *s = malloc(sizeof(*s));
	struct ws_cell cells[64];
	uint64_t t = 0, bytes = 0;
	size_t n;

	series_init(s);
	for (int i = 0; i < 4; i++) {
		struct ws_point p = point(&t, &bytes, 16 * WS_MIB, SEC);

		series_add(s, &p);
	}
	series_finish(s);
	n = series_cells(s, NULL, WS_MIB, cells, 64);
	ck_assert_uint_eq(n, 64);
	for (size_t c = 0; c < n; c++)
		ck_assert_double_eq_tol(cells[c].mibps, 16.0, 0.01);
	/* requested cells too small for the limit double until they fit */
	ck_assert_uint_eq(series_cell_size(64 * WS_MIB, WS_MIB, 32, 16), 4 * WS_MIB);
	ck_assert_uint_eq(series_cells(s, NULL, 0, cells, 64), 0);
	series_free(s);
	free(s);
}
END_TEST

/* A span too short to stand alone joins the latest point: the stored
 * one, or the stride in progress. */
START_TEST(test_extend_last)
{
	static struct ws_series s;
	struct ws_point p;
	uint64_t t = 0, bytes = 0;

	series_init(&s);
	p = point(&t, &bytes, 10 * WS_MIB, SEC);
	series_extend_last(&s, &p);	/* nothing yet: it stands alone */
	ck_assert_uint_eq(s.n, 1);
	p = point(&t, &bytes, 2 * WS_MIB, SEC / 10);
	series_extend_last(&s, &p);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.pts[0].dbytes, 12 * WS_MIB);
	ck_assert_uint_eq(s.pts[0].dt_ns, SEC + SEC / 10);
	ck_assert_uint_eq(s.pts[0].bytes, 12 * WS_MIB);
	ck_assert_double_eq_tol(s.pts[0].mibps, 12 / 1.1, 1e-9);
	/* with a stride in progress, it joins that */
	s.stride = 2;
	p = point(&t, &bytes, 4 * WS_MIB, SEC);
	series_add(&s, &p);
	ck_assert_uint_eq(s.npartial, 1);
	p = point(&t, &bytes, 1 * WS_MIB, SEC / 10);
	series_extend_last(&s, &p);
	ck_assert_uint_eq(s.npartial, 1);
	series_finish(&s);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.pts[1].dbytes, 5 * WS_MIB);
	ck_assert_uint_eq(s.pts[1].bytes, 17 * WS_MIB);
	series_free(&s);
}
END_TEST

/* The points grow on the heap with the run, up to 8192 (WS_SERIES_CAP):
 * 8191 and 8192 added keep every one (memory for no more than they
 * need), and the 8192nd halves them into 4096 of two intervals each. */
START_TEST(test_grows_to_the_cap)
{
	static const struct {
		uint64_t added;
		size_t n, most_cap;
		unsigned int stride;
	} cases[] = {
		{ 1, 1, 16, 1 },
		{ 16, 16, 16, 1 },
		{ 17, 17, 32, 1 },
		{ 8191, 8191, 8192, 1 },
		{ 8192, 4096, 8192, 2 },
		{ 8193, 4096, 8192, 2 },	/* the 8193rd waits in partial */
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		static struct ws_series s;
		uint64_t t = 0, bytes = 0;

		series_init(&s);
		for (uint64_t i = 0; i < cases[c].added; i++) {
			struct ws_point p = point(&t, &bytes, WS_MIB, SEC);

			series_add(&s, &p);
		}
		ck_assert_uint_eq(s.n, cases[c].n);
		ck_assert_uint_le(s.cap, cases[c].most_cap);
		ck_assert_uint_eq(s.stride, cases[c].stride);
		series_finish(&s);
		ck_assert_uint_le(s.cap, 8192);
		ck_assert_uint_eq(s.pts[s.n - 1].bytes, bytes);
		series_free(&s);
		ck_assert_ptr_null(s.pts);
		ck_assert_uint_eq(s.n + s.cap, 0);
	}
}
END_TEST

/* Room reserved (a watch's) is made at once, never past the cap, never
 * shrunk; points fill it without moving it, and the series still merges
 * at the cap. */
START_TEST(test_reserve)
{
	static struct ws_series s;
	uint64_t t = 0, bytes = 0;
	const struct ws_point *at;

	series_init(&s);
	ck_assert_int_eq(series_reserve(&s, 100), 0);
	ck_assert_uint_eq(s.cap, 100);
	at = s.pts;
	for (int i = 0; i < 100; i++) {
		struct ws_point p = point(&t, &bytes, WS_MIB, SEC);

		series_add(&s, &p);
	}
	ck_assert_ptr_eq(s.pts, at);
	ck_assert_uint_eq(s.n, 100);
	ck_assert_int_eq(series_reserve(&s, 50), 0);
	ck_assert_uint_eq(s.cap, 100);
	ck_assert_int_eq(series_reserve(&s, 8193), 0);
	ck_assert_uint_eq(s.cap, 8192);
	ck_assert_uint_eq(s.pts[99].bytes, bytes);
	for (int i = 100; i < 8192; i++) {
		struct ws_point p = point(&t, &bytes, WS_MIB, SEC);

		series_add(&s, &p);
	}
	ck_assert_uint_eq(s.n, 4096);
	ck_assert_uint_eq(s.cap, 8192);
	series_free(&s);
}
END_TEST

/* A stride in progress when the points are exactly full (16 of 16) is
 * not lost at the end: the series makes room for it. */
START_TEST(test_finish_when_full)
{
	static struct ws_series s;
	uint64_t t = 0, bytes = 0;

	series_init(&s);
	s.stride = 2;
	for (int i = 0; i < 33; i++) {
		struct ws_point p = point(&t, &bytes, WS_MIB, SEC);

		series_add(&s, &p);
	}
	ck_assert_uint_eq(s.n, 16);
	ck_assert_uint_eq(s.cap, 16);
	ck_assert_uint_eq(s.npartial, 1);
	series_finish(&s);
	ck_assert_uint_eq(s.n, 17);
	ck_assert_uint_eq(s.pts[16].bytes, 33 * WS_MIB);
	ck_assert_uint_eq(s.pts[16].dt_ns, SEC);
	series_free(&s);
}
END_TEST

Suite *series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bounded_and_complete);
	tcase_add_test(tc, test_merge_rates);
	tcase_add_test(tc, test_cells_two_rates);
	tcase_add_test(tc, test_cells_smaller_than_points);
	tcase_add_test(tc, test_extend_last);
	tcase_add_test(tc, test_grows_to_the_cap);
	tcase_add_test(tc, test_finish_when_full);
	tcase_add_test(tc, test_reserve);
	suite_add_tcase(s, tc);
	return s;
}
