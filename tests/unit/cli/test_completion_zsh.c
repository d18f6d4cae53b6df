/* test_completion_zsh.c - the zsh completion script (cli_complete_zsh.c)
 * as text: it names every option of every table (the run's and each
 * subcommand's of the commands table) in its command's function, a
 * words option completes by its words and a LIST by _sequence, and help
 * text with what _arguments and eval read specially (a quote, brackets,
 * a colon, a backslash) is escaped and cut to its first phrase.  That
 * zsh completes with it is tests/cli/t_completion_zsh.sh's to show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/cli_complete.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "suites.h"

static const struct cli *table(size_t i)
{
	size_t n;
	const struct ws_command *cmds = ws_commands(&n);

	if (i == 0)
		return opts_cli();
	return i <= n ? cmds[i - 1].options() : NULL;
}

/* The zsh script of every table, from the commands table as
 * `writestress completion zsh` writes it; free() it. */
static char *zsh_script(void)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *out = open_memstream(&buf, &len);
	const struct ws_command *cmds = ws_commands(&n);
	const struct cli *subs[16];

	ck_assert_ptr_nonnull(out);
	ck_assert_uint_le(n, ARRAY_SIZE(subs));
	for (size_t i = 0; i < n; i++)
		subs[i] = cmds[i].options();
	cli_complete_zsh(out, opts_cli(), subs, n);
	fclose(out);
	return buf;
}

/* The body of zsh function fn in script, up to its closing brace, as a
 * string of its own; free() it. */
static char *zsh_function(const char *script, const char *fn)
{
	char head[96];
	const char *start, *end;

	snprintf(head, sizeof(head), "\n%s()\n{\n", fn);
	start = strstr(script, head);
	ck_assert_msg(start, "no function %s in the zsh script", fn);
	end = strstr(start + 1, "\n}\n");
	ck_assert_ptr_nonnull(end);
	return strndup(start, (size_t)(end - start));
}

/* Every option of every table is in its command's _arguments call: the
 * run's in _writestress, each subcommand's in _writestress-NAME. */
START_TEST(test_zsh_names_every_option)
{
	char *script = zsh_script();
	size_t checked = 0;

	ck_assert(!strncmp(script, "#compdef writestress\n", 21));
	for (size_t t = 0; table(t); t++) {
		const struct cli *c = table(t);
		const char *sp = strchr(c->cmd, ' ');
		char fn[64], spec[96];
		char *body;

		snprintf(fn, sizeof(fn), "_writestress%s%s", sp ? "-" : "", sp ? sp + 1 : "");
		body = zsh_function(script, fn);
		for (size_t i = 0; i < c->nopts; i++) {
			const struct cli_option *o = &c->opts[i];
			bool value = o->arg && o->type != CLI_FLAG && o->type != CLI_HELP;

			if (!o->name)
				continue;
			if (o->key > 0 && o->key < 256)
				snprintf(spec, sizeof(spec), "'*'{-%c%s,--%s%s}'[", o->key,
					 value ? "+" : "", o->name, value ? "=" : "");
			else
				snprintf(spec, sizeof(spec), "'*--%s%s[", o->name, value ? "=" : "");
			ck_assert_msg(strstr(body, spec), "%s --%s: no %s in %s", c->cmd,
				      o->name, spec, fn);
			checked++;
		}
		free(body);
	}
	ck_assert_uint_gt(checked, 60);
	free(script);
}
END_TEST

/* A words option completes to its words, in the table's order; a LIST
 * to its words after commas; files and directories by zsh's _files. */
START_TEST(test_zsh_values)
{
	char *script = zsh_script();
	char *top = zsh_function(script, "_writestress");
	char *report = zsh_function(script, "_writestress-report");

	ck_assert_ptr_nonnull(strstr(top, "'*'{-p+,--pace=}'[how the writer paces writeback]:MODE:"
				     "_writestress_words - window none fdatasync direct dontcache adaptive'"));
	ck_assert_ptr_nonnull(strstr(top, "'*--probe=[probes to run, comma-separated]:LIST:"
				     "_sequence -s , compadd - fsync save read sqlite dsync cmd'"));
	/* a word a value follows, escaped for eval and for _arguments */
	ck_assert_ptr_nonnull(strstr(top, ":_writestress_words - random fixed zero compressible\\='"));
	ck_assert_ptr_nonnull(strstr(top, ":_writestress_words - snia bw-slope\\: bw-dev\\:'"));
	ck_assert_ptr_nonnull(strstr(top, "'*--json=[write the complete result]:FILE:_files'"));
	ck_assert_ptr_nonnull(strstr(top, ":DIR:_files -/'"));
	ck_assert_ptr_nonnull(strstr(top, "\t\t'*:FILE:_writestress_operand'"));
	ck_assert_ptr_nonnull(strstr(report, ":KEY:_writestress_words - model kernel host fs'"));
	ck_assert_ptr_nonnull(strstr(script, "compadd - compare report verify matrix watch completion && ret=0"));
	ck_assert_ptr_nonnull(strstr(script, "\t\t(compare|report|verify|matrix|watch|completion)\n"));
	free(report);
	free(top);
	free(script);
}
END_TEST

/* Help text with what _arguments and the shell read specially: a quote,
 * brackets, a colon, a backslash; and the first phrase of each help. */
static const struct cli_option odd_opts[] = {
	{ .name = "odd", .key = 'o', .type = CLI_STRING, .arg = "A:B",
	  .help = "it's [a] \"b\" c:d \\e" },
	{ .name = "cut", .key = 256, .type = CLI_FLAG,
	  .help = "for --pace adaptive: how long it waits (default {default}); more" },
	{ .name = "long", .key = 257, .type = CLI_FLAG,
	  .help = "cap the average write rate, e.g. 50M/s, a phrase that runs on well past the width" },
	{ .name = "pct", .key = 258, .type = CLI_FLAG,
	  .help = "keep the writer under (100 - PCT)% of the rate. Then more" },
	{ .name = "files", .key = 259, .type = CLI_FLAG,
	  .help = "write N files, FILE.1 ... FILE.N" },
};

static const char *const *odd_words(const char *name)
{
	static const char *const w[] = { "x:", "y=", "p q", "it's", "(z)", NULL };

	return strcmp(name, "odd") ? NULL : w;
}

START_TEST(test_zsh_escapes_help)
{
	const struct cli odd = {
		.cmd = "writestress", .opts = odd_opts, .nopts = ARRAY_SIZE(odd_opts),
		.words_of = odd_words,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	cli_complete_zsh(out, &odd, NULL, 0);
	fclose(out);
	ck_assert_msg(strstr(buf, "\t\t'*'{-o+,--odd=}'[it'\\''s \\[a\\] \"b\" c\\:d \\\\e]:A\\:B:"
				  "_writestress_words - x\\: y\\= \\(z\\)' \\\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "\t\t'*--cut[for --pace adaptive\\: how long it waits]' \\\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "\t\t'*--long[cap the average write rate, e.g. 50M/s, a phrase that runs...]' \\\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "\t\t'*--pct[keep the writer under (100 - PCT)% of the rate]' \\\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "\t\t'*--files[write N files, FILE.1 ... FILE.N]' \\\n"), "%s", buf);
	/* no subcommand, no dispatch on one */
	ck_assert_ptr_null(strstr(buf, "case $words[2]"));
	free(buf);
}
END_TEST

Suite *completion_zsh_suite(void)
{
	Suite *s = suite_create("completion_zsh");
	TCase *tc = tcase_create("script");

	tcase_add_test(tc, test_zsh_names_every_option);
	tcase_add_test(tc, test_zsh_values);
	tcase_add_test(tc, test_zsh_escapes_help);
	suite_add_tcase(s, tc);
	return s;
}
