/* test_option_bounds.c - every numeric option of every command held to
 * the bounds the docs state, at the bound and on both sides.
 *
 * The bounds are written here as literals, one row per option: a row of
 * an option table (the run's, compare's, matrix's, report's, verify's)
 * with a numeric type and no row here fails, and so does a row whose
 * bounds differ from the literal one, so a bound cannot change, and a new
 * bounded option cannot arrive, without a test saying so.  Each option is
 * then parsed by the table's own parser (cli_parse) at min - 1 (or min
 * less one alignment step), min, max and max + 1 (or + a step): the
 * outside values are refused with the bound named, the inside ones taken.
 */
#include <inttypes.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "lib/cli.h"
#include "cmd/compare/compare.h"
#include "cmd/matrix/matrix.h"
#include "cli/opts.h"
#include "cmd/report/report.h"
#include "suites.h"
#include "cmd/verify/verify.h"

/* Loop tests take an int count. */
#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct bound_row {
	const char *cmd;	/* the table's command */
	const char *name;
	enum cli_type type;
	uint64_t min;		/* the least value taken */
	uint64_t max;		/* the most, 0: none */
	uint64_t align;		/* a SIZE's step, 0: none */
} bounds[] = {
	/* the run (man page: OPTIONS) */
	{ "writestress", "buffers", CLI_U64, 1, 0, 0 },
	{ "writestress", "size", CLI_SIZE, 4096, 0, 0 },
	{ "writestress", "time", CLI_DURATION, 1, 0, 0 },
	{ "writestress", "jobs", CLI_UINT, 1, 8, 0 },
	{ "writestress", "file-size", CLI_SIZE, 4096, 0, 4096 },
	{ "writestress", "reserve", CLI_SIZE, 0, 0, 0 },
	{ "writestress", "buffer-size", CLI_SIZE, 4096, 1073741824, 4096 },
	{ "writestress matrix", "idle-x", CLI_UINT, 1, 1000, 0 },
	{ "writestress", "window", CLI_UINT, 1, 4096, 0 },
	{ "writestress", "sync-every", CLI_UINT, 1, 1048576, 0 },
	{ "writestress", "target-latency", CLI_DURATION, 1000000, 60000000000, 0 },
	{ "writestress", "iodepth", CLI_UINT, 1, 64, 0 },
	{ "writestress", "headroom", CLI_UINT, 0, 50, 0 },
	{ "writestress", "rate", CLI_RATE, 1, 0, 0 },
	{ "writestress", "seed", CLI_U64, 1, 0, 0 },
	{ "writestress", "probe-interval", CLI_DURATION, 1000000, 0, 0 },
	{ "writestress", "probe-size", CLI_SIZE, 1, 67108864, 0 },
	{ "writestress", "probe-timeout", CLI_DURATION, 1000000, 0, 0 },
	{ "writestress", "stall", CLI_DURATION, 1000000, 0, 0 },
	{ "writestress", "steady-window", CLI_UINT, 2, 1000, 0 },
	{ "writestress", "steady-round", CLI_DURATION, 10000000, 0, 0 },
	{ "writestress", "steady-max-rounds", CLI_UINT, 2, 1000000, 0 },
	{ "writestress", "bucket", CLI_SIZE, 1048576, 0, 0 },
	{ "writestress", "interval", CLI_DURATION, 10000000, 0, 0 },
	/* writestress matrix */
	{ "writestress matrix", "target-latency", CLI_DURATION, 1000000, 60000000000, 0 },
	{ "writestress matrix", "repeat", CLI_UINT, 1, 20, 0 },
	{ "writestress matrix", "headroom", CLI_UINT, 0, 50, 0 },
	{ "writestress matrix", "probe-interval", CLI_DURATION, 1000000, 0, 0 },
	{ "writestress matrix", "stall", CLI_DURATION, 1000000, 0, 0 },
	{ "writestress matrix", "file-size", CLI_SIZE, 1048576, 0, 4096 },
};

static const struct cli *tables(int i)
{
	switch (i) {
	case 0: return opts_cli();
	case 1: return compare_options();
	case 2: return matrix_options();
	case 3: return report_options();
	case 4: return verify_options();
	default: return NULL;
	}
}

static bool numeric(enum cli_type t)
{
	return t == CLI_U64 || t == CLI_UINT || t == CLI_SIZE ||
	       t == CLI_DURATION || t == CLI_RATE;
}

static const struct bound_row *literal_for(const char *cmd, const char *name)
{
	for (int i = 0; i < N_ROWS(bounds); i++)
		if (!strcmp(bounds[i].cmd, cmd) && !strcmp(bounds[i].name, name))
			return &bounds[i];
	return NULL;
}

/* The least value a row takes, as cli.c's rules give it: min; a plain
 * number or a SIZE without one takes 0, a DURATION or a RATE must be
 * above zero. */
static uint64_t least(const struct cli_option *o)
{
	if (o->min)
		return o->min;
	return o->type == CLI_DURATION || o->type == CLI_RATE ? 1 : 0;
}

/* Every numeric row of every table has its literal row, with the same
 * bounds, and every literal row a table row. */
START_TEST(test_tables_match_the_literals)
{
	int seen = 0;

	for (int t = 0; tables(t); t++) {
		const struct cli *c = tables(t);

		for (size_t i = 0; i < c->nopts; i++) {
			const struct cli_option *o = &c->opts[i];
			const struct bound_row *b;

			if (!o->name || !numeric(o->type))
				continue;
			b = literal_for(c->cmd, o->name);
			ck_assert_msg(b, "%s --%s has bounds and no literal row here",
				      c->cmd, o->name);
			ck_assert_msg(b->type == o->type, "%s --%s: type", c->cmd, o->name);
			ck_assert_msg(b->min == least(o) && b->max == o->max &&
				      b->align == o->align,
				      "%s --%s: the table says [%" PRIu64 ", %" PRIu64
				      "] step %" PRIu64 ", this test [%" PRIu64 ", %"
				      PRIu64 "] step %" PRIu64, c->cmd, o->name,
				      least(o), o->max, o->align, b->min, b->max,
				      b->align);
			seen++;
		}
	}
	ck_assert_int_eq(seen, N_ROWS(bounds));
}
END_TEST

/* v as the option's type writes it: bytes, nanoseconds, bytes a second. */
static void value_text(enum cli_type t, uint64_t v, char *buf, size_t len)
{
	switch (t) {
	case CLI_DURATION:
		snprintf(buf, len, "%" PRIu64 "ns", v);
		break;
	case CLI_RATE:
		snprintf(buf, len, "%" PRIu64 "B/s", v);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, v);
	}
}

/* Big enough for any command's options struct; cli_parse writes a typed
 * row's value at its offset. */
static alignas(64) unsigned char dest[1 << 20];

/* Parse "--name=VALUE" with c's table: true if taken; on refusal, the
 * message names the option. */
static bool takes(const struct cli *c, const char *name, enum cli_type t,
		  uint64_t v, char *msg, size_t len)
{
	char val[64], arg[128], prog[] = "writestress";
	char *argv[] = { prog, arg, NULL };
	int first = 0;
	enum cli_result r;
	FILE *err = fmemopen(msg, len, "w");

	ck_assert_ptr_nonnull(err);
	memset(msg, 0, len);
	value_text(t, v, val, sizeof(val));
	snprintf(arg, sizeof(arg), "--%s=%s", name, val);
	memset(dest, 0, sizeof(dest));
	r = cli_parse(c, 2, argv, dest, NULL, &first, err);
	fclose(err);
	return r == CLI_RUN;
}

static const struct cli *table_of(const char *cmd)
{
	for (int t = 0; tables(t); t++)
		if (!strcmp(tables(t)->cmd, cmd))
			return tables(t);
	return NULL;
}

START_TEST(test_bound)
{
	const struct bound_row *b = &bounds[_i];
	const struct cli *c = table_of(b->cmd);
	uint64_t step = b->align ? b->align : 1;
	char msg[512], flag[64];

	ck_assert_ptr_nonnull(c);
	snprintf(flag, sizeof(flag), "--%s", b->name);
	ck_assert_msg(takes(c, b->name, b->type, b->min, msg, sizeof(msg)),
		      "%s %s at its least, %" PRIu64 ": %s", b->cmd, flag, b->min, msg);
	if (b->min >= step) {
		ck_assert_msg(!takes(c, b->name, b->type, b->min - step, msg, sizeof(msg)),
			      "%s %s below its least", b->cmd, flag);
		ck_assert_msg(strstr(msg, flag), "%s: the refusal names it: %s", flag, msg);
		ck_assert_msg(strstr(msg, "at least") || strstr(msg, "between") ||
			      strstr(msg, "greater than zero"),
			      "%s: the refusal states the bound: %s", flag, msg);
	}
	if (!b->max) {
		/* no upper bound: a large value is taken */
		ck_assert_msg(takes(c, b->name, b->type, b->min + step * 1000000, msg,
				    sizeof(msg)), "%s %s with no upper bound: %s",
			      b->cmd, flag, msg);
		return;
	}
	ck_assert_msg(takes(c, b->name, b->type, b->max, msg, sizeof(msg)),
		      "%s %s at its most, %" PRIu64 ": %s", b->cmd, flag, b->max, msg);
	ck_assert_msg(!takes(c, b->name, b->type, b->max + step, msg, sizeof(msg)),
		      "%s %s above its most", b->cmd, flag);
	ck_assert_msg(strstr(msg, flag), "%s: the refusal names it: %s", flag, msg);
	ck_assert_msg(strstr(msg, "at most") || strstr(msg, "between"),
		      "%s: the refusal states the bound: %s", flag, msg);
}
END_TEST

Suite *option_bounds_suite(void)
{
	Suite *s = suite_create("option_bounds");
	TCase *tc = tcase_create("bounds");

	tcase_add_test(tc, test_tables_match_the_literals);
	tcase_add_loop_test(tc, test_bound, 0, N_ROWS(bounds));
	suite_add_tcase(s, tc);
	return s;
}
