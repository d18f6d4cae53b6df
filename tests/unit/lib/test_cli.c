/* test_cli.c - the option-table command line (cli.c) on a table of its
 * own: every row type lands its value at its offset within its bounds,
 * seen[] marks the rows given, the operands follow, every usage error
 * names the option and the value and ends with the errtryhelp line, and
 * --help lays out headings, short and long forms and wrapped help. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "suites.h"
#include "lib/units.h"

struct dest {
	bool flag;
	uint64_t count, size, ns, rate;
	unsigned int small;
	const char *name;
	int custom;
};

static int parse_even(void *dest, const char *arg, char *why)
{
	int v = atoi(arg);

	if (v % 2) {
		snprintf(why, CLI_WHY_LEN, "must be even");
		return -EINVAL;
	}
	((struct dest *)dest)->custom = v;
	return 0;
}

enum { KEY_SIZE = 256, KEY_NAME };

static const struct cli_option rows[] = {
	{ .type = CLI_HEADING, .help = "Things:" },
	{ .name = "flag", .key = 'f', .type = CLI_FLAG,
	  .offset = offsetof(struct dest, flag), .help = "a flag" },
	{ .name = "count", .key = 'c', .type = CLI_U64, .arg = "N",
	  .offset = offsetof(struct dest, count), .min = 2, .max = 9,
	  .help = "a count" },
	{ .name = "small", .key = 's', .type = CLI_UINT, .arg = "N",
	  .offset = offsetof(struct dest, small), .min = 1,
	  .help = "an unsigned int" },
	{ .name = "size", .key = KEY_SIZE, .type = CLI_SIZE, .arg = "SIZE",
	  .offset = offsetof(struct dest, size), .min = 4096, .max = WS_MIB,
	  .align = 4096, .help = "a size, with words enough to need wrapping at seventy-nine columns of a terminal" },
	{ .name = "time", .key = 't', .type = CLI_DURATION, .arg = "DURATION",
	  .offset = offsetof(struct dest, ns), .min = WS_NSEC_PER_MSEC,
	  .help = "a duration" },
	{ .name = "rate", .key = 'r', .type = CLI_RATE, .arg = "RATE",
	  .offset = offsetof(struct dest, rate), .help = "a rate" },
	{ .name = "name", .key = KEY_NAME, .type = CLI_STRING, .arg = "NAME",
	  .offset = offsetof(struct dest, name), .help = "a name" },
	{ .name = "even", .key = 'e', .type = CLI_CUSTOM, .arg = "N",
	  .parse = parse_even, .help = "an even number" },
	{ .name = "help", .key = 'h', .type = CLI_HELP, .help = "help" },
};

static const struct cli_alias aliases[] = {
	{ "bs", "fio", "--size" },
	{ NULL, NULL, NULL }
};

static const struct cli test_cli = {
	.cmd = "writestress thing",
	.error_prefix = "thing: ",
	.opts = rows,
	.nopts = ARRAY_SIZE(rows),
	.aliases = aliases,
};

/* Parse a NULL-terminated list; stderr's text in err. */
static enum cli_result run(struct dest *d, bool *seen, int *first, char *err,
			   size_t errlen, const char *const *args)
{
	char *argv[24];
	int argc = 0;
	FILE *f = fmemopen(err, errlen, "w");
	enum cli_result r;

	ck_assert_ptr_nonnull(f);
	argv[argc++] = (char *)"writestress";
	while (*args) {
		ck_assert_int_lt(argc, (int)ARRAY_SIZE(argv) - 1);
		argv[argc++] = (char *)*args++;
	}
	argv[argc] = NULL;
	memset(d, 0, sizeof(*d));
	r = cli_parse(&test_cli, argc, argv, d, seen, first, f);
	fclose(f);
	return r;
}

START_TEST(test_every_type)
{
	const char *args[] = { "-f", "--count", "9", "-s", "4294967295",
			       "--size", "8k", "-t", "250ms", "-r", "5M/s",
			       "--name", "x", "-e", "4", "op1", "op2", NULL };
	bool seen[ARRAY_SIZE(rows)] = { false };
	struct dest d;
	char err[256] = "";
	int first = 0;

	ck_assert_int_eq(run(&d, seen, &first, err, sizeof(err), args), CLI_RUN);
	ck_assert_str_eq(err, "");
	ck_assert(d.flag);
	ck_assert_uint_eq(d.count, 9);
	ck_assert_uint_eq(d.small, 4294967295u);
	ck_assert_uint_eq(d.size, 8192);
	ck_assert_uint_eq(d.ns, 250 * WS_NSEC_PER_MSEC);
	ck_assert_uint_eq(d.rate, 5 * WS_MIB);
	ck_assert_str_eq(d.name, "x");
	ck_assert_int_eq(d.custom, 4);
	/* operands: argv[first..] */
	ck_assert_int_eq(first, 16);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		ck_assert_msg(seen[i] == (rows[i].name && rows[i].type != CLI_HELP),
			      "seen[%zu]", i);
}
END_TEST

static const struct {
	const char *args[4];
	const char *msg;
} bad[] = {
	{ { "--count", "1" }, "writestress: thing: invalid --count '1': must be between 2 and 9" },
	{ { "-c", "10" }, "writestress: thing: invalid --count '10': must be between 2 and 9" },
	{ { "-c", "3x" }, "writestress: thing: invalid --count '3x': not a whole number" },
	{ { "-c", "" }, "writestress: thing: invalid --count '': empty value" },
	{ { "-s", "4294967296" }, "writestress: thing: invalid --small '4294967296': must be between 1 and 4294967295" },
	{ { "--size", "1k" }, "writestress: thing: invalid --size '1k': must be at least 4 KiB" },
	{ { "--size", "6k" }, "writestress: thing: invalid --size '6k': must be a multiple of 4 KiB" },
	{ { "--size", "2M" }, "writestress: thing: invalid --size '2M': must be at most 1 MiB" },
	{ { "--size", "0" }, "writestress: thing: invalid --size '0': must be greater than zero" },
	{ { "-t", "10us" }, "writestress: thing: invalid --time '10us': must be at least 1.00 ms" },
	{ { "-t", "0" }, "writestress: thing: invalid --time '0': must be greater than zero" },
	{ { "-r", "0" }, "writestress: thing: invalid --rate '0': must be greater than zero" },
	{ { "--name", "" }, "writestress: thing: invalid --name '': empty value" },
	{ { "-e", "3" }, "writestress: thing: invalid --even '3': must be even" },
	{ { "-c" }, "writestress: thing: option '-c' needs a value" },
	{ { "--count" }, "writestress: thing: option '--count' needs a value" },
	{ { "--flag=1" }, "writestress: thing: option '--flag' takes no value" },
	{ { "--help=1" }, "writestress: thing: option '--help' takes no value" },
	{ { "-x" }, "writestress: thing: unknown option '-x'" },
	{ { "--bogus" }, "writestress: thing: unknown option '--bogus'" },
	/* a unique prefix is taken (getopt); several are named */
	{ { "--s", "1" }, "writestress: thing: option '--s' is ambiguous: --small or --size" },
	{ { "--s=4k" }, "writestress: thing: option '--s' is ambiguous: --small or --size" },
	{ { "--bs", "4k" }, "writestress: thing: unknown option '--bs' (fio's name; writestress says --size)" },
	{ { "--szie", "4k" }, "writestress: thing: unknown option '--szie' (did you mean --size?)" },
	{ { "--cuont=3" }, "writestress: thing: unknown option '--cuont=3' (did you mean --count?)" },
	{ { "--timeout", "1" }, "writestress: thing: unknown option '--timeout'" },
};

START_TEST(test_usage_errors)
{
	struct dest d;
	char err[512] = "", *nl;
	int first;

	ck_assert_int_eq(run(&d, NULL, &first, err, sizeof(err), bad[_i].args),
			 CLI_USAGE);
	nl = strchr(err, '\n');
	ck_assert_ptr_nonnull(nl);
	ck_assert_str_eq(nl + 1, "Try 'writestress thing --help' for more information.\n");
	*nl = '\0';
	ck_assert_str_eq(err, bad[_i].msg);
}
END_TEST

START_TEST(test_help_layout)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cli_help(&test_cli, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "\nThings:\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  -f, --flag" "              " "a flag\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n      --size SIZE" "         " "a size, with words"));
	/* wrapped under the help column, no line past 79 */
	ck_assert_ptr_nonnull(strstr(text, "\n                          "));
	for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1)
		ck_assert_msg(nl - line <= 79, "line too long: %.*s", (int)(nl - line), line);
	free(text);
}
END_TEST

START_TEST(test_find_and_bounds)
{
	char b[32];

	ck_assert_ptr_eq(cli_find(&test_cli, "size"), &rows[4]);
	ck_assert_ptr_null(cli_find(&test_cli, "siz"));
	ck_assert_str_eq(cli_bound_text(b, sizeof(b), 4096), "4 KiB");
	ck_assert_str_eq(cli_bound_text(b, sizeof(b), WS_GIB), "1 GiB");
	ck_assert_str_eq(cli_bound_text(b, sizeof(b), 1536 * WS_KIB), "1536 KiB");
	ck_assert_str_eq(cli_bound_text(b, sizeof(b), 1000), "1000 bytes");
	ck_assert_str_eq(cli_bound_text(b, sizeof(b), 0), "0 bytes");
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_every_type);
	tcase_add_loop_test(tc, test_usage_errors, 0, (int)ARRAY_SIZE(bad));
	tcase_add_test(tc, test_help_layout);
	tcase_add_test(tc, test_find_and_bounds);
	suite_add_tcase(s, tc);
	return s;
}
