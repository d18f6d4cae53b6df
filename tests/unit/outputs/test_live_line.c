/* live_line.c: the live line of every interval of the fixed record
 * (record_fixture.c) at widths from 30 to 200 columns: never wider than
 * its room, every word one of the whole line's (nothing cut), the worst
 * probe and the ETA kept at 80 columns, and stalls in red only when
 * asked. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "outputs/live_line.h"
#include "record_fixture.h"
#include "suites.h"
#include "lib/term.h"

static char *render(const struct ws_interval *iv, unsigned int room, bool colour)
{
	struct live_style st = { .room = room, .utf8 = true, .colour = colour };
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(m);
	live_line_print(m, iv, &st);
	ck_assert_int_eq(fclose(m), 0);
	return text;
}

/* A and B the same word, a comma after either aside: a short form's
 * "741 ms," is the "741 ms (2 probes)," of the whole line. */
static bool same_word(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	na -= na && a[na - 1] == ',';
	nb -= nb && b[nb - 1] == ',';
	return na == nb && !strncmp(a, b, na);
}

/* Is every blank-separated word of PART a word of WHOLE, in order? */
static bool words_in_order(const char *part, const char *whole)
{
	char *p = strdup(part), *w = strdup(whole), *sp, *sw, *word, *at;
	bool ok = true;

	ck_assert(p && w);
	at = strtok_r(w, " ", &sw);
	for (word = strtok_r(p, " ", &sp); word && ok; word = strtok_r(NULL, " ", &sp)) {
		while (at && !same_word(at, word))
			at = strtok_r(NULL, " ", &sw);
		ok = at != NULL;
		if (at)
			at = strtok_r(NULL, " ", &sw);
	}
	free(p);
	free(w);
	return ok;
}

static const unsigned int widths[] = { 30, 40, 50, 60, 70, 80, 100, 120, 200 };

START_TEST(test_fits_whole_words)
{
	/* one target, then two (the aggregate's line names the slowest) */
	const struct record_fixture *f =
		record_fixture_shared(_i % 2 ? FIXTURE_TWO_TARGETS : FIXTURE_BOUND);
	unsigned int room = widths[_i / 2] - 1;

	for (unsigned int i = 0; i < f->niv; i++) {
		char *whole = render(&f->iv[i], 0, false);
		char *line = render(&f->iv[i], room, false);

		ck_assert_msg(term_width(line, strlen(line)) <= room,
			      "interval %u at %u: %zu wide: %s", i, room,
			      term_width(line, strlen(line)), line);
		ck_assert_msg(words_in_order(line, whole),
			      "interval %u at %u: a word not in\n%s\n%s", i, room, whole, line);
		/* what stays longest: the bytes, then the rate */
		if (room >= 30)
			ck_assert_msg(strstr(line, "GiB") && strstr(line, "MiB/s"),
				      "interval %u at %u: %s", i, room, line);
		free(whole);
		free(line);
	}
}
END_TEST

/* A watch's line: no bytes or rate of its own, the writers now with
 * their MiB/s ("rsync backup 0.8 MiB/s, bash 0.0 MiB/s": 8 MiB in the
 * fixture's second interval of 10 s); short of room the first writer
 * alone; never wider than its room.  (A run's writers go first: the
 * worst probe and the ETA stay, test_worst_probe_and_eta_stay.) */
START_TEST(test_watch_writers)
{
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	struct live_style st = { .room = 0, .utf8 = true, .watch = true };
	const struct ws_interval *iv = &f->iv[1];
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	ck_assert_uint_eq(iv->writers.n, 2);
	for (unsigned int i = 0; i < ARRAY_SIZE(widths); i++) {
		st.room = widths[i] - 1;
		m = open_memstream(&text, &len);
		ck_assert_ptr_nonnull(m);
		live_line_print(m, iv, &st);
		ck_assert_int_eq(fclose(m), 0);
		ck_assert_msg(term_width(text, len) <= st.room, "%u: %s", st.room, text);
		ck_assert_msg(!strstr(text, "GiB") && !strstr(text, "now ") && !strstr(text, "avg "),
			      "a watch's own bytes: %s", text);
		if (st.room >= 120)
			ck_assert_msg(strstr(text, "rsync backup 0.8 MiB/s, bash 0.0 MiB/s"), "%s", text);
		else if (st.room >= 60)
			ck_assert_msg(strstr(text, "rsync backup 0.8 MiB/s") && !strstr(text, "bash"),
				      "%u: %s", st.room, text);
		free(text);
		text = NULL;
	}
}
END_TEST

/* The live line's probe figures are the run's so far: its p99 once 1000
 * probes support one (10 beyond it, hist.h), before that its max and, in
 * parentheses after it, how many probes; 999, 1000 and 1001 probes. */
START_TEST(test_probe_so_far)
{
	static const uint64_t counts[] = { 999, 1000, 1001 };
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	static struct ws_interval iv;
	struct ws_probe_interval *pi = &iv.probes[0];
	char *line;

	iv = f->iv[0];
	iv.nprobes = 1;
	pi->blocked = false;
	pi->stalls_total = 0;
	pi->count = 10;
	pi->run_count = counts[_i];
	pi->run_p99_ns = 312000000;
	pi->run_max_ns = 1900000000;
	line = render(&iv, 200, false);
	if (counts[_i] >= 1000)
		ck_assert_msg(strstr(line, " fsync p99 312 ms, max 1.90 s") &&
			      !strstr(line, "probes)"), "%s", line);
	else
		ck_assert_msg(strstr(line, " fsync max 1.90 s (999 probes)") && !strstr(line, "p99"),
			      "%s", line);
	free(line);
}
END_TEST

/* Counts in words: "(1 probe)", "(2 probes)"; "1 stall", "2 stalls";
 * a probe with stalls but no figure yet: "fsync 1 stall". */
START_TEST(test_probe_counts_in_words)
{
	static const struct {
		uint64_t run_count, stalls;
		const char *want;
	} cases[] = {
		{ 1, 0, " fsync max 741 ms (1 probe)" },
		{ 2, 1, " fsync max 741 ms (2 probes), 1 stall" },
		{ 2, 2, " fsync max 741 ms (2 probes), 2 stalls" },
		{ 0, 1, " fsync 1 stall" },
		{ 1000, 3, " fsync p99 312 ms, max 741 ms, 3 stalls" },
	};
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	static struct ws_interval iv;
	struct ws_probe_interval *pi = &iv.probes[0];
	char *line;

	iv = f->iv[0];
	iv.nprobes = 1;
	pi->blocked = false;
	pi->count = cases[_i].run_count ? 1 : 0;
	pi->run_count = cases[_i].run_count;
	pi->stalls_total = cases[_i].stalls;
	pi->run_p99_ns = 312000000;
	pi->run_max_ns = 741000000;
	line = render(&iv, 0, false);
	ck_assert_msg(strstr(line, cases[_i].want), "want '%s' in: %s", cases[_i].want, line);
	/* the probe's part ends there: the line does, or the next part */
	{
		const char *after = strstr(line, cases[_i].want) + strlen(cases[_i].want);

		ck_assert_msg(!*after || !strncmp(after, "  ", 2), "more after '%s': %s",
			      cases[_i].want, line);
	}
	free(line);
}
END_TEST

/* An interval's p99 where 1000 probes support it, else its max. */
static uint64_t slowest(const struct ws_probe_interval *pi)
{
	return pi->count >= 1000 ? pi->p99_ns : pi->max_ns;
}

/* At 80 columns the worst probe (blocked, else the slowest) and the
 * ETA are shown; at 60 the worst probe still is. */
START_TEST(test_worst_probe_and_eta_stay)
{
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);

	for (unsigned int i = 0; i < f->niv; i++) {
		const struct ws_interval *iv = &f->iv[i];
		const struct ws_probe_interval *worst = NULL;
		char want[64];

		for (unsigned int p = 0; p < iv->nprobes; p++) {
			const struct ws_probe_interval *pi = &iv->probes[p];

			if (!worst || (pi->blocked && !worst->blocked) ||
			    (pi->blocked == worst->blocked && slowest(pi) > slowest(worst)))
				worst = pi;
		}
		ck_assert_ptr_nonnull(worst);
		/* the run's p99 from 1000 probes on, its max before */
		snprintf(want, sizeof(want), "%s %s", worst->name,
			 worst->blocked ? "BLOCKED" : worst->run_count >= 1000 ? "p99" : "max");
		for (unsigned int cols = 60; cols <= 80; cols += 20) {
			char *line = render(iv, cols - 1, false);

			ck_assert_msg(strstr(line, want), "interval %u at %u: no '%s': %s",
				      i, cols, want, line);
			if (cols == 80 && iv->progress > 0)
				ck_assert_msg(strstr(line, "ETA "), "interval %u: no ETA: %s", i, line);
			free(line);
		}
	}
}
END_TEST

/* The fourth interval ends with the fsync probe blocked: red only with
 * colour, and reset after it. */
START_TEST(test_blocked_in_red)
{
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	const struct ws_interval *iv = &f->iv[3];
	char *plain = render(iv, 0, false), *red = render(iv, 0, true);
	char *at = strstr(red, TERM_RED "fsync BLOCKED");

	ck_assert(iv->probes[0].blocked);
	ck_assert_ptr_null(strchr(plain, '\033'));
	ck_assert_msg(at, "%s", red);
	ck_assert_ptr_nonnull(strstr(at, TERM_RESET));
	/* the colour takes no room */
	ck_assert_uint_eq(term_width(red, strlen(red)), term_width(plain, strlen(plain)));
	free(plain);
	free(red);
}
END_TEST

Suite *live_line_suite(void)
{
	Suite *s = suite_create("live_line");
	TCase *tc = tcase_create("fit");

	tcase_add_loop_test(tc, test_fits_whole_words, 0, 2 * (int)ARRAY_SIZE(widths));
	tcase_add_loop_test(tc, test_probe_so_far, 0, 3);
	tcase_add_loop_test(tc, test_probe_counts_in_words, 0, 5);
	tcase_add_test(tc, test_worst_probe_and_eta_stay);
	tcase_add_test(tc, test_blocked_in_red);
	tcase_add_test(tc, test_watch_writers);
	suite_add_tcase(s, tc);
	return s;
}
