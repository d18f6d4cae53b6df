/* The --csv sink (sink_csv.c) against the fixed record of
 * record_fixture.c: compared byte for byte with tests/expected/sink_csv*.csv
 * (the run to its bound and the one stopped by an error), then read as
 * RFC 4180: CRLF line ends, a header row, every row as many fields as the
 * header, one row per interval. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "record_fixture.h"
#include "suites.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct row {
	const char *golden;
	enum fixture_ending ending;
} rows[] = {
	{ "sink_csv.csv", FIXTURE_BOUND },
	{ "sink_csv_error.csv", FIXTURE_ERROR },
	{ "sink_csv_targets.csv", FIXTURE_TWO_TARGETS },
};

/* Fields of the line at s (no field of this record is quoted). */
static unsigned int fields(const char *s, const char *end)
{
	unsigned int n = 1;

	for (; s < end; s++) {
		ck_assert_msg(*s != '"', "a quoted field: %.60s", s);
		n += *s == ',';
	}
	return n;
}

START_TEST(test_golden)
{
	const struct row *r = &rows[_i];
	const struct record_fixture *f = record_fixture_shared(r->ending);
	unsigned int lines = 0, want = 0, rows_want = 1;
	size_t len;
	char *out = record_fixture_render(f, &sink_csv_ops, &len);

	golden_check(r->golden, out, len);
	ck_assert_uint_eq(strlen(out), len);
	ck_assert_msg(len > 2 && !strcmp(out + len - 2, "\r\n"), "no CRLF at the end");
	for (const char *s = out, *nl; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		ck_assert_msg(nl && nl > s && nl[-1] == '\r', "line %u: not CRLF", lines + 1);
		if (!lines)
			want = fields(s, nl - 1);
		else
			ck_assert_uint_eq(fields(s, nl - 1), want);
		lines++;
	}
	/* 7 columns, every timer, 8 of the system, 19 traced, 7 of other
	 * processes' writers, 7 per probe;
	 * with several targets, which one (a row each, then the run's), and
	 * (the targets' writers are adaptive) the controller's 8 and
	 * --headroom's 2 */
	ck_assert_uint_eq(want, 7 + WS_T_NR + 8 + 19 + 7 + 2 * 7 + (f->run.ntargets ? 1 + 8 + 2 : 0));
	if (f->run.ntargets) {
		/* target 2's controller found the target out of reach at 3 s */
		ck_assert_msg(strstr(out, ",adapt_settled,adapt_why,adapt_unreachable,"), "adaptive columns");
		ck_assert_msg(strstr(out, ",65536,1,65536,2.000,0.500,0,unreachable,1,"), "target 2's state");
		ck_assert_msg(strstr(out, ",1048576,6,6291456,31.000,33.000,1,settled,0,250.000,237.500,"), "target 1's state and cap");
		ck_assert_msg(strstr(out, ",adapt_unreachable,adapt_disk_mibps,adapt_rate_cap_mibps,"), "--headroom's columns");
		ck_assert_msg(strstr(out, ",unreachable,1,,,"), "target 2: no cap");
	}
	/* traced: the device's figures, no journal (btrfs), the pauses, the
	 * bios (2 a request, 1 merged, 2 ms each, the longest 5) */
	if (r->ending == FIXTURE_BOUND) {
		ck_assert_msg(strstr(out, ",45.000,3,6.000,0,,,,120.000,"), "traced columns");
		/* an interval of 2427 requests: 4854 bios, 2427 merged,
		 * 2 ms each, the longest 5; one flusher work of its pages
		 * (2544128000 bytes: 621125); wbt not traced there */
		ck_assert_msg(strstr(out, ",120.000,4854,2427,4854.000,5.000,1,621125,,,"),
			      "the bios', the flusher's and wbt's columns");
	}
	/* other processes' writers: none in the untraced interval 0,
	 * interval 1 names two (8 MiB of "rsync backup", pid 5000, and
	 * bash's 16 KiB), interval 2 one (12 MiB) */
	ck_assert_msg(strstr(out, ",others_bytes,writer1,writer1_pid,writer1_bytes,"
			     "writer2,writer2_pid,writer2_bytes,"), "the writers' columns");
	if (r->ending == FIXTURE_BOUND) {
		ck_assert_msg(strstr(out, ",12599296,rsync backup,5000,12582912,,,,"),
			      "one writer, the second's columns empty");
		ck_assert_msg(strstr(out, ",8404992,rsync backup,5000,8388608,bash,6000,16384,"),
			      "two writers");
	}
	for (unsigned int i = 0; i < f->niv; i++)
		rows_want += 1 + f->iv[i].ntargets;
	ck_assert_uint_eq(lines, rows_want);
	if (f->run.ntargets)
		ck_assert_msg(!strncmp(out, "interval,target,t_s,", 20) &&
			      strstr(out, "\r\n0,1,") && strstr(out, "\r\n0,2,") &&
			      strstr(out, "\r\n0,all,"), "target rows: %.80s", out);
	else
		ck_assert_msg(!strncmp(out, "interval,t_s,dt_s,bytes,dbytes,mibps,avg_mibps,", 47),
			      "header: %.60s", out);
	free(out);
}
END_TEST

/* Any process names itself: a writer's command never starts a formula
 * (= + - @ get a leading ') and carries no control character. */
START_TEST(test_hostile_names)
{
	struct record_fixture *f = record_fixture_make(FIXTURE_BOUND);
	size_t len;
	char *out;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_ge(f->iv[1].writers.n, 2);
	snprintf(f->iv[1].writers.top[0].comm, WS_COMM_LEN, "=1+2");
	snprintf(f->iv[1].writers.top[1].comm, WS_COMM_LEN, "a\x01" "b\x7f");
	snprintf(f->iv[2].writers.top[0].comm, WS_COMM_LEN, "-rf");
	out = record_fixture_render(f, &sink_csv_ops, &len);
	ck_assert_msg(strstr(out, ",'=1+2,5000,8388608,a?b?,6000,16384,"), "the first interval's");
	ck_assert_msg(strstr(out, ",'-rf,5000,12582912,,,,"), "the second's");
	free(out);
	record_fixture_free(f);
}
END_TEST

Suite *sink_csv_suite(void)
{
	Suite *s = suite_create("sink_csv");
	TCase *tc = tcase_create("golden");

	tcase_add_loop_test(tc, test_golden, 0, N_ROWS(rows));
	tcase_add_test(tc, test_hostile_names);
	suite_add_tcase(s, tc);
	return s;
}
