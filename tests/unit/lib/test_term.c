/* term.c: widths of UTF-8 text with escapes, lines wrapped at blanks
 * under their label and never inside a word, and --color against TERM
 * and NO_COLOR. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/c.h"
#include "suites.h"
#include "lib/term.h"

START_TEST(test_width)
{
	ck_assert_uint_eq(term_width("abc", 3), 3);
	ck_assert_uint_eq(term_width("1.2 µs ≥ 5", SIZE_MAX), 10);
	ck_assert_uint_eq(term_width("\033[31mred\033[0m x", SIZE_MAX), 5);
	ck_assert_uint_eq(term_width("[██▏ ]", SIZE_MAX), 6);
	ck_assert_uint_eq(term_width("abcdef", 2), 2);
}
END_TEST

static char *wrap(const char *text, unsigned int cols)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(m);
	term_wrap(m, text, cols);
	ck_assert_int_eq(fclose(m), 0);
	return out;
}

/* The words of S, blanks and newlines squeezed to one blank. */
static char *words(const char *s)
{
	char *w = malloc(strlen(s) + 1), *o = w;

	ck_assert_ptr_nonnull(w);
	for (; *s; s++)
		if (*s != ' ' && *s != '\n')
			*o++ = *s;
		else if (o > w && o[-1] != ' ')
			*o++ = ' ';
	while (o > w && o[-1] == ' ')
		o--;
	*o = '\0';
	return w;
}

static const char *const texts[] = {
	"writestress 0.3 — /data/test.dat on ext4 (rw,relatime) · /dev/sda2 → sda\n"
	"  space    412 GiB free of 932 GiB, 1.00 GiB kept in reserve, file wraps at 77.9 GiB\n"
	"  fsync    10 190 probes, p50 3.1 ms, p99 840 ms, p99.9 2.1 s, max 12.4 s (corrected p99 1.2 s)\n"
	"           17 stalls ≥ 500 ms, 41 s in total, longest 12.4 s at 3.2 GiB (Dirty 1.1 GiB)\n"
	"short\n",
	"  file     /a/very/long/path/that/is/wider/than/any/room/we/have/here/really.dat done\n",
};

START_TEST(test_wrap_fits_whole_words)
{
	static const unsigned int cols[] = { 40, 60, 80, 120 };

	for (size_t t = 0; t < ARRAY_SIZE(texts); t++)
		for (size_t c = 0; c < ARRAY_SIZE(cols); c++) {
			char *out = wrap(texts[t], cols[c]), *a = words(texts[t]), *b = words(out);
			char *save, *copy = strdup(out);

			ck_assert_str_eq(a, b);		/* every word, whole, in order */
			for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
				ck_assert_msg(term_width(l, SIZE_MAX) <= cols[c] ||
					      !strchr(l + strspn(l, " "), ' '),
					      "%u columns: '%s'", cols[c], l);
			free(a);
			free(b);
			free(copy);
			free(out);
		}
}
END_TEST

/* A label's text goes on under the text, not under the label. */
START_TEST(test_wrap_hangs_under_label)
{
	char *out = wrap("  space    412 GiB free of 932 GiB, 1.00 GiB kept in reserve, file wraps at 77.9 GiB\n", 61);

	ck_assert_str_eq(out, "  space    412 GiB free of 932 GiB, 1.00 GiB kept in reserve,\n"
			      "           file wraps at 77.9 GiB\n");
	free(out);
	out = wrap("8.000 GiB written in 63.90 s (128.2 MiB/s)\n", 30);
	ck_assert_str_eq(out, "8.000 GiB written in 63.90 s\n  (128.2 MiB/s)\n");
	free(out);
	/* "77.9 GiB" would fit up to the '9' at 30 columns: it moves whole */
	out = wrap("  space    file wraps at 77.9 GiB\n", 30);
	ck_assert_str_eq(out, "  space    file wraps at\n           77.9 GiB\n");
	free(out);
	out = wrap("as it is\n", 0);
	ck_assert_str_eq(out, "as it is\n");
	free(out);
}
END_TEST

START_TEST(test_colour_modes)
{
	FILE *f = tmpfile();	/* not a terminal */

	ck_assert_ptr_nonnull(f);
	setenv("TERM", "xterm", 1);
	unsetenv("NO_COLOR");
	ck_assert(term_wants_colour(WS_COLOUR_ALWAYS, f));
	ck_assert(!term_wants_colour(WS_COLOUR_NEVER, f));
	ck_assert(!term_wants_colour(WS_COLOUR_AUTO, f));
	setenv("NO_COLOR", "1", 1);
	ck_assert(term_wants_colour(WS_COLOUR_ALWAYS, f));	/* asked for */
	fclose(f);
}
END_TEST

Suite *term_suite(void)
{
	Suite *s = suite_create("term");
	TCase *tc = tcase_create("term");

	tcase_add_test(tc, test_width);
	tcase_add_test(tc, test_wrap_fits_whole_words);
	tcase_add_test(tc, test_wrap_hangs_under_label);
	tcase_add_test(tc, test_colour_modes);
	suite_add_tcase(s, tc);
	return s;
}
