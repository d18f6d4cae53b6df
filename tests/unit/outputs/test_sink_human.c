/* The human sinks (sink_human.c with human_header.c, human_summary.c and
 * fingerprint_show.c) against the fixed record of record_fixture.c,
 * compared byte for byte with tests/expected/sink_human_*.txt: the live
 * line (its \r and escape codes kept as they are) in the C locale and in
 * C.UTF-8, the plain lines, --quiet, and the endings by SIGINT and by an
 * error. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/units.h"
#include "record_fixture.h"
#include "suites.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct row {
	const char *golden;
	const struct sink_ops *ops;
	enum fixture_ending ending;
	const char *ctype;	/* the live line draws its bar by the codeset */
	bool verbose;
} rows[] = {
	{ "sink_human_live.txt", &sink_live_ops, FIXTURE_BOUND, "C", false },
	{ "sink_human_live_utf8.txt", &sink_live_ops, FIXTURE_BOUND, "C.UTF-8", false },
	{ "sink_human_plain.txt", &sink_plain_ops, FIXTURE_BOUND, "C", false },
	{ "sink_human_quiet.txt", &sink_quiet_ops, FIXTURE_BOUND, "C", false },
	{ "sink_human_signal.txt", &sink_plain_ops, FIXTURE_SIGNAL, "C", false },
	{ "sink_human_error.txt", &sink_plain_ops, FIXTURE_ERROR, "C", false },
	{ "sink_human_targets.txt", &sink_plain_ops, FIXTURE_TWO_TARGETS, "C", false },
	{ "sink_human_targets_live.txt", &sink_live_ops, FIXTURE_TWO_TARGETS, "C.UTF-8", false },
	{ "sink_human_verbose.txt", &sink_quiet_ops, FIXTURE_BOUND, "C", true },
	{ "sink_human_verbose_signal.txt", &sink_quiet_ops, FIXTURE_SIGNAL, "C", true },
	{ "sink_human_verbose_error.txt", &sink_quiet_ops, FIXTURE_ERROR, "C", true },
	{ "sink_human_verbose_targets.txt", &sink_quiet_ops, FIXTURE_TWO_TARGETS, "C", true },
};

START_TEST(test_golden)
{
	const struct row *r = &rows[_i];
	const struct record_fixture *f;
	size_t len;
	char *out;

	ck_assert_msg(setlocale(LC_ALL, "C"), "no C locale");
	/* C.UTF-8 is built into glibc since 2.35, and into musl */
	ck_assert_msg(setlocale(LC_CTYPE, r->ctype), "%s: locale %s is not available",
		      r->golden, r->ctype);
	f = record_fixture_shared(r->ending);
	out = record_fixture_render_as(f, r->ops, r->verbose, &len);
	ck_assert_uint_eq(strlen(out), len);
	golden_check(r->golden, out, len);
	free(out);
	setlocale(LC_ALL, "C");
}
END_TEST

/* The quiet sink prints the summary only, and it is the plain sink's. */
START_TEST(test_quiet_is_plain_summary)
{
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	size_t nq, np;
	char *quiet = record_fixture_render(f, &sink_quiet_ops, &nq);
	char *plain = record_fixture_render(f, &sink_plain_ops, &np);

	ck_assert_uint_gt(np, nq);
	ck_assert_msg(!strncmp(quiet, "8.000 GiB written in ", 21), "quiet: %.40s", quiet);
	ck_assert_str_eq(plain + np - nq, quiet);
	free(quiet);
	free(plain);
}
END_TEST

/* An interval where the save probe completed nothing and had nothing in
 * flight: its percentiles and max are empty in the interval lines and in
 * the CSV, not 0 (its count and stalls are 0, which is a figure). */
START_TEST(test_missing_is_empty)
{
	struct record_fixture *f = record_fixture_make(FIXTURE_BOUND);
	struct ws_probe_interval *pi = &f->iv[0].probes[1];
	size_t len;
	char *plain, *csv;

	ck_assert_str_eq(pi->name, "save");
	pi->count = 0;
	pi->inflight_ns = 0;
	plain = record_fixture_render(f, &sink_plain_ops, &len);
	ck_assert_msg(strstr(plain, " save_n=0 save_p50_ms= save_p99_ms= save_max_ms= save_stalls=0 "),
		      "%s", plain);
	csv = record_fixture_render(f, &sink_csv_ops, &len);
	/* the first interval's row ends with save's n, p50, p99, max,
	 * stalls, inflight_ms, errors */
	ck_assert_msg(strstr(csv, ",0,,,,0,0.000,0\r\n1,"), "%s", csv);
	free(plain);
	free(csv);
	record_fixture_free(f);
}
END_TEST

/* occurrences of needle in hay */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The out-of-reach note is said once, in the first interval that carries
 * the verdict, even when that comes an interval after the moment it names
 * (the recorder saw the controller's verdict late: its 3 s first in the
 * interval ending at 4 s, on a loaded CI); and once when on time. */
START_TEST(test_out_of_reach_said_once_even_late)
{
	static const char note[] = "writestress: --target-latency 50.0 ms is out of reach on this disk (target 2)";
	struct record_fixture *f = record_fixture_make(FIXTURE_TWO_TARGETS);
	unsigned int late = 0;
	size_t len;
	char *out;

	out = record_fixture_render(f, &sink_live_ops, &len);
	ck_assert_int_eq(count_of(out, note), 1);
	free(out);
	/* target 2's first interval that carries the verdict carries none
	 * yet: the next one is the first */
	for (unsigned int k = 0; k < f->niv && !late; k++)
		for (unsigned int i = 0; i < f->iv[k].ntargets; i++) {
			struct ws_interval *t = &f->tiv[k][i];	/* = iv[k].targets */

			if (t->number == 2 && t->adapt.unreachable_at_ns) {
				ck_assert_uint_eq(t->adapt.unreachable_at_ns, 3 * WS_NSEC_PER_SEC);
				ck_assert_uint_lt(k + 1, f->niv);
				t->adapt.unreachable_at_ns = 0;
				late++;
			}
		}
	ck_assert_uint_eq(late, 1);
	out = record_fixture_render(f, &sink_live_ops, &len);
	ck_assert_int_eq(count_of(out, note), 1);
	free(out);
	record_fixture_free(f);
}
END_TEST

Suite *sink_human_suite(void)
{
	Suite *s = suite_create("sink_human");
	TCase *tc = tcase_create("golden");

	tcase_add_loop_test(tc, test_golden, 0, N_ROWS(rows));
	tcase_add_test(tc, test_quiet_is_plain_summary);
	tcase_add_test(tc, test_missing_is_empty);
	tcase_add_test(tc, test_out_of_reach_said_once_even_late);
	suite_add_tcase(s, tc);
	return s;
}
