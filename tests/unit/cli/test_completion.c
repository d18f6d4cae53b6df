/* test_completion.c - the words shell completion offers (struct cli's
 * words_of, cli_complete.h) against the parsers: every word of every
 * option of every command (the run's and each subcommand's of the
 * commands table) is taken by the option's own parser, a word a value
 * follows ("compressible=") once a value follows it; a matrix option
 * that passes a run option on is held to the run's parser, and its
 * strategies to matrix_parse_strategies.  Which options offer words is
 * written here as literals: an option that gains or loses its words
 * fails until this list says so.  The zsh script has a suite of its own
 * (test_completion_zsh.c).  The scripts' shape is judged by the shells
 * themselves in tests/cli/t_completion.sh (bash) and t_completion_zsh.sh
 * (zsh).
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/cli_complete.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cmd/matrix/matrix.h"
#include "suites.h"

/* command, option: every one that offers words */
static const char *const with_words[][2] = {
	{ "writestress", "pace" }, { "writestress", "steer-by" },
	{ "writestress", "data" }, { "writestress", "probe" },
	{ "writestress", "probe-sync" }, { "writestress", "sqlite-journal" },
	{ "writestress", "sqlite-sync" }, { "writestress", "steady-criterion" },
	{ "writestress", "scheduler" }, { "writestress", "ioprio" },
	{ "writestress", "probe-ioprio" }, { "writestress", "color" },
	{ "writestress report", "by" },
	{ "writestress matrix", "strategies" }, { "writestress matrix", "schedulers" },
	{ "writestress matrix", "probe" }, { "writestress matrix", "sqlite-journal" },
	{ "writestress matrix", "sqlite-sync" },
	{ "writestress watch", "probe" }, { "writestress watch", "probe-sync" },
	{ "writestress watch", "sqlite-journal" }, { "writestress watch", "sqlite-sync" },
	{ "writestress watch", "probe-ioprio" }, { "writestress watch", "color" },
};

static const struct cli *table(size_t i)
{
	size_t n;
	const struct ws_command *cmds = ws_commands(&n);

	if (i == 0)
		return opts_cli();
	return i <= n ? cmds[i - 1].options() : NULL;
}

static bool listed(const char *cmd, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(with_words); i++)
		if (!strcmp(with_words[i][0], cmd) && !strcmp(with_words[i][1], name))
			return true;
	return false;
}

static alignas(64) unsigned char dest[1 << 20];

/* "--name=word" by c's table; true if taken (msg: the refusal) */
static bool parses(const struct cli *c, const char *name, const char *word,
		   char *msg, size_t len)
{
	char arg[160], prog[] = "writestress";
	char *argv[] = { prog, arg, NULL };
	size_t n = strlen(word);
	int first = 0;
	enum cli_result r;
	FILE *err = fmemopen(msg, len, "w");

	ck_assert_ptr_nonnull(err);
	memset(msg, 0, len);
	/* a word a value follows: the least value it could take */
	snprintf(arg, sizeof(arg), "--%s=%s%s", name, word,
		 n && (word[n - 1] == '=' || word[n - 1] == ':') ? "5" : "");
	memset(dest, 0, sizeof(dest));
	r = cli_parse(c, 2, argv, dest, NULL, &first, err);
	fclose(err);
	return r == CLI_RUN;
}

START_TEST(test_words_listed)
{
	size_t seen = 0;

	for (size_t t = 0; table(t); t++) {
		const struct cli *c = table(t);

		for (size_t i = 0; i < c->nopts; i++) {
			const struct cli_option *o = &c->opts[i];
			bool has = o->name && c->words_of && c->words_of(o->name);

			ck_assert_msg(has == (o->name && listed(c->cmd, o->name)),
				      "%s --%s: %s words, this test says it %s", c->cmd,
				      o->name, has ? "offers" : "offers no",
				      has ? "does not" : "does");
			seen += has;
		}
	}
	ck_assert_uint_eq(seen, ARRAY_SIZE(with_words));
}
END_TEST

START_TEST(test_every_word_parses)
{
	char msg[512], why[160];

	for (size_t t = 0; table(t); t++) {
		const struct cli *c = table(t);
		bool matrix = !strcmp(c->cmd, "writestress matrix");

		for (size_t i = 0; i < c->nopts; i++) {
			const char *name = c->opts[i].name;
			const char *const *w = name && c->words_of ? c->words_of(name) : NULL;

			for (size_t k = 0; w && w[k]; k++) {
				struct matrix_strategy s[16];
				unsigned int ns = 0;

				ck_assert_msg(parses(c, name, w[k], msg, sizeof(msg)),
					      "%s --%s %s: %s", c->cmd, name, w[k], msg);
				if (!matrix)
					continue;
				/* the matrix passes these on: the run must take them */
				if (!strcmp(name, "strategies"))
					ck_assert_msg(!matrix_parse_strategies(w[k], s, &ns, why, sizeof(why)),
						      "matrix strategy %s: %s", w[k], why);
				else
					ck_assert_msg(parses(opts_cli(), strcmp(name, "schedulers") ? name : "scheduler",
							     w[k], msg, sizeof(msg)),
						      "matrix --%s %s, as the run takes it: %s", name, w[k], msg);
			}
		}
	}
}
END_TEST

/* A word the parser refuses is not offered: the check above can fail */
START_TEST(test_a_wrong_word_is_refused)
{
	char msg[512];

	ck_assert(!parses(opts_cli(), "pace", "windowz", msg, sizeof(msg)));
	ck_assert_ptr_nonnull(strstr(msg, "--pace"));
	ck_assert(!parses(opts_cli(), "data", "compressible", msg, sizeof(msg)));
}
END_TEST

/* The script names every subcommand and defines the one function */
START_TEST(test_script_names_the_commands)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *out = open_memstream(&buf, &len);
	const struct ws_command *cmds = ws_commands(&n);
	const struct cli *subs[16];

	ck_assert_uint_le(n, ARRAY_SIZE(subs));
	for (size_t i = 0; i < n; i++)
		subs[i] = cmds[i].options();
	cli_complete_bash(out, opts_cli(), subs, n);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "\ncomplete -F _writestress writestress\n"));
	for (size_t i = 0; i < n; i++) {
		char pat[64];

		snprintf(pat, sizeof(pat), "\t'%s')\n", cmds[i].name);
		ck_assert_msg(strstr(buf, pat), "%s's options not in the script", cmds[i].name);
	}
	ck_assert_ptr_nonnull(strstr(buf, "'idle none window window+fadvise fdatasync direct dontcache adaptive'"));
	free(buf);
}
END_TEST

Suite *completion_suite(void)
{
	Suite *s = suite_create("completion");
	TCase *tc = tcase_create("words");

	tcase_add_test(tc, test_words_listed);
	tcase_add_test(tc, test_every_word_parses);
	tcase_add_test(tc, test_a_wrong_word_is_refused);
	tcase_add_test(tc, test_script_names_the_commands);
	suite_add_tcase(s, tc);
	return s;
}
