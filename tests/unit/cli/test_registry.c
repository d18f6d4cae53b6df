/* The settings table (record/fields.h) against what it feeds and what
 * documents it: the run's option rows (config/options.h), the defaults
 * config_defaults() sets (as literals, so changing one fails here),
 * --help, the JSON result's "config", the settings compare judges, the
 * schema (doc/result-json.md) and the man page (man/writestress.1), read
 * from the source tree.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cmd/compare/compare.h"
#include "cmd/matrix/matrix.h"
#include "config/options.h"
#include "lib/cli.h"
#include "lib/jsonw.h"
#include "lib/units.h"
#include "outputs/sink_json.h"
#include "record/fields.h"
#include "record_fixture.h"
#include "suites.h"

/* The whole of the source tree's REL, or fail the test. */
static char *slurp(const char *rel)
{
	char path[4096];
	FILE *f;
	char *text = NULL;
	size_t len = 0, n;
	char chunk[8192];

	source_path(path, sizeof(path), rel);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot read %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		text = realloc(text, len + n + 1);
		ck_assert(text);
		memcpy(text + len, chunk, n);
		len += n;
	}
	fclose(f);
	ck_assert(text);
	text[len] = '\0';
	return text;
}

/* ---- the defaults, each a literal --------------------------------------- */

START_TEST(test_defaults_are_the_documented_ones)
{
	struct ws_config cfg;

	config_defaults(&cfg);
	ck_assert_uint_eq(cfg.set.buffer_size, 8388608);
	ck_assert_int_eq(cfg.set.pace, WS_PACE_WINDOW);
	ck_assert_uint_eq(cfg.set.pacing.window, 1);
	ck_assert_uint_eq(cfg.set.pacing.sync_every, 1);
	ck_assert_uint_eq(cfg.set.pacing.iodepth, 1);
	ck_assert_uint_eq(cfg.set.pacing.target_latency_ns, 100000000);
	ck_assert_int_eq(cfg.set.data, WS_DATA_RANDOM);
	ck_assert_uint_eq(cfg.set.interval_ns, 1000000000);
	ck_assert_uint_eq(cfg.set.probes, 1u << WS_PROBE_FSYNC);
	ck_assert_uint_eq(cfg.set.probe_interval_ns, 100000000);
	ck_assert_uint_eq(cfg.set.probe_size, 4096);
	ck_assert(!cfg.set.probe_fdatasync);
	ck_assert_uint_eq(cfg.set.stall_ns, 500000000);
	ck_assert_uint_eq(cfg.set.cmds.timeout_ns, 30000000000ull);
	ck_assert_uint_eq(cfg.set.steady.window, 5);
	ck_assert_uint_eq(cfg.set.steady.round_ns, 10000000000ull);
	ck_assert_int_eq(cfg.steady_criterion, WS_STEADY_SNIA);
	ck_assert(cfg.steady_limit_pct == 20 && cfg.steady_slope_pct == 10);
	ck_assert(!cfg.set.sqlite.wal && !cfg.set.sqlite.sync_normal);
	/* no bound, no rate, no seed: none unless given */
	ck_assert_uint_eq(cfg.set.buffers + cfg.set.total_size + cfg.set.duration_ns, 0);
	ck_assert_uint_eq(cfg.set.rate + cfg.set.seed, 0);
}
END_TEST

/* ---- each row against the command line and --help ----------------------- */

/* Each row is a heading, an option, or a key another option (or none)
 * makes; keys and option names are unique, and what a key says of its
 * option holds. */
START_TEST(test_every_row_is_whole)
{
	size_t n, keys = 0;
	const struct ws_field *f = ws_fields(&n);

	for (size_t i = 0; i < n; i++) {
		const char *option = ws_field_option(&f[i]);
		const char *what = f[i].result.key ? f[i].result.key : option;

		if (!f[i].opt.name && f[i].opt.help) {
			ck_assert_int_eq(f[i].opt.type, CLI_HEADING);
			ck_assert_ptr_null(f[i].result.key);
			continue;
		}
		ck_assert_msg(f[i].opt.name || f[i].result.key, "row %zu: no option, no key", i);
		if (f[i].opt.name)
			ck_assert_msg(ws_field_of(f[i].opt.name) == &f[i], "--%s twice", option);
		else
			ck_assert_msg(!f[i].of || ws_field_of(f[i].of), "%s: no option %s", what, f[i].of);
		if (option)
			ck_assert_msg(cli_find(opts_cli(), option), "%s: no option --%s", what, option);
		if (!f[i].result.key) {
			ck_assert(!f[i].result.changes);
			continue;
		}
		keys++;
		ck_assert_msg(ws_field_by_key(f[i].result.key) == &f[i], "key %s twice", what);
		ck_assert_msg(!f[i].result.changes || option, "%s changes the result: by which option?", what);
		/* a value beside the settings has no place in them to read */
		ck_assert_msg(!f[i].wiring || f[i].result.type == WS_FIELD_OWN, "%s", what);
		if (f[i].result.type == WS_FIELD_WORD)
			ck_assert_msg(f[i].words && f[i].words[0] && f[i].words[1] && !f[i].words[2],
				      "%s: a word row takes two words", what);
	}
	ck_assert_uint_ge(keys, 40);
}
END_TEST

/* The result's order names every key once, and no other. */
START_TEST(test_result_order_names_every_key)
{
	size_t n, keys = 0, i;
	const struct ws_field *f = ws_fields(&n), *r;

	for (i = 0; i < n; i++)
		keys += f[i].result.key != NULL;
	for (i = 0; (r = ws_field_in_result(i)); i++) {
		ck_assert_ptr_nonnull(r->result.key);
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(ws_field_in_result(j) != r, "%s twice", r->result.key);
	}
	ck_assert_uint_eq(i, keys);
	/* the format's own ends */
	ck_assert_str_eq(ws_field_in_result(0)->result.key, "file");
	ck_assert_str_eq(ws_field_in_result(keys - 1)->result.key, "no_trace");
}
END_TEST

/* The run's command line is the table's option rows, in its order, each
 * as the table says, with what the configuration attaches: a parse for
 * every value no type describes, a place for every value beside the
 * settings. */
START_TEST(test_the_command_line_is_the_table)
{
	size_t n, k = 0;
	const struct ws_field *f = ws_fields(&n);
	const struct cli *c = opts_cli();

	for (size_t i = 0; i < n; i++) {
		const struct cli_option *t = &f[i].opt, *o;

		if (!t->name && !t->help)
			continue;
		ck_assert_uint_lt(k, c->nopts);
		o = &c->opts[k++];
		ck_assert_ptr_eq(o->name, t->name);
		ck_assert_ptr_eq(o->help, t->help);
		ck_assert_ptr_eq(o->arg, t->arg);
		ck_assert_int_eq(o->key, t->key);
		ck_assert_int_eq(o->type, t->type);
		ck_assert(o->min == t->min && o->max == t->max && o->align == t->align);
		if (t->name)
			ck_assert_ptr_eq(config_option(t->name), o);
		if (o->type == CLI_CUSTOM)
			ck_assert_msg(o->parse, "--%s: no parse", o->name);
		else if (f[i].wiring)
			ck_assert_msg(o->offset, "--%s: nowhere to go", o->name);
		else
			ck_assert_uint_eq(o->offset, t->offset);
	}
	ck_assert_uint_eq(k, c->nopts);
	ck_assert_ptr_null(config_option("no-such-option"));
}
END_TEST

/* Every default is shown where --help says "{default}", and only there;
 * every allowed word is in the option's help. */
START_TEST(test_help_shows_each_default_and_word)
{
	const struct cli *c = opts_cli();
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (size_t i = 0; i < c->nopts; i++) {
		const struct cli_option *o = &c->opts[i];
		const struct ws_field *f;

		if (!o->name)
			continue;
		f = ws_field_of(o->name);
		ck_assert_ptr_nonnull(f);
		ck_assert_msg(!strstr(o->help, "{default}") == !f->def,
			      "--%s: its help and the table disagree on a default", o->name);
		for (size_t w = 0; f->words && f->words[w]; w++)
			ck_assert_msg(strstr(o->help, f->words[w]),
				      "--%s: help lacks the word %s", o->name, f->words[w]);
	}
	opts_help(out);
	fclose(out);
	ck_assert_ptr_null(strstr(text, "{default}"));
	ck_assert_ptr_null(strstr(text, "(default ?"));
	ck_assert_ptr_nonnull(strstr(text, "(default 8M)"));
	ck_assert_ptr_nonnull(strstr(text, "(default 100ms); refused"));
	free(text);
}
END_TEST

/* The matrix's target latency is the run's row: its help and default. */
START_TEST(test_matrix_shares_the_target_latency)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cli_help(matrix_options(), out);
	fclose(out);
	ck_assert_ptr_null(strstr(text, "{default}"));
	ck_assert_ptr_nonnull(strstr(text, "(default 100ms); refused"));
	ck_assert_ptr_nonnull(strstr(text, "(default 1)"));
	ck_assert_ptr_eq(cli_find(matrix_options(), "target-latency")->help,
			 config_option("target-latency")->help);
	free(text);
}
END_TEST

/* A default its own option would refuse is refused, naming both. */
static const char *bad_default(const char *name)
{
	return !strcmp(name, "window") ? "0" : NULL;
}

START_TEST(test_a_default_obeys_its_bounds)
{
	struct cli c = *opts_cli();
	struct ws_config cfg;
	char why[CLI_WHY_LEN];

	c.default_of = bad_default;
	memset(&cfg, 0, sizeof(cfg));
	ck_assert_int_ne(cli_defaults(&c, &cfg, why), 0);
	ck_assert_ptr_nonnull(strstr(why, "--window default '0'"));
}
END_TEST

/* ---- the result and compare --------------------------------------------- */

START_TEST(test_every_own_row_has_its_writer)
{
	size_t n;
	const struct ws_field *f = ws_fields(&n);
	const struct record_fixture *fx = record_fixture_shared(FIXTURE_BOUND);
	const struct ws_run *run = &fx->run;
	FILE *null = fopen("/dev/null", "w");
	struct jsonw w;

	jsonw_init(&w, null);
	jsonw_object(&w, NULL);
	for (size_t i = 0; i < n; i++)
		if (f[i].result.key && f[i].result.type == WS_FIELD_OWN)
			ck_assert_msg(json_put_own(&w, f[i].result.key, run), "%s has no writer",
				      f[i].result.key);
	ck_assert(!json_put_own(&w, "no_such_key", run));
	jsonw_end(&w);
	fclose(null);
}
END_TEST

/* compare judges like for like by the rows marked so, and only by them. */
START_TEST(test_compare_judges_the_marked_rows)
{
	size_t n;
	const struct ws_field *f = ws_fields(&n);
	char path[64], label[64];

	for (size_t i = 0; i < n; i++) {
		const struct cmp_setting *s;

		if (!f[i].result.key)
			continue;
		snprintf(path, sizeof(path), "config.%s", f[i].result.key);
		s = compare_setting_of(path, false);
		ck_assert_msg(!s == !f[i].result.changes, "%s", path);
		snprintf(label, sizeof(label), "--%s", ws_field_option(&f[i]));
		if (s)
			ck_assert_str_eq(s->label, label);
	}
	ck_assert_ptr_nonnull(compare_setting_of("config.rate_bytes_per_s", false));
	ck_assert_str_eq(compare_setting_of("config.rate_bytes_per_s", false)->label, "--rate");
	ck_assert_ptr_null(compare_setting_of("config.interval_s", false));
	ck_assert_ptr_nonnull(compare_setting_of("fingerprint.block.disks[1].model", false));
}
END_TEST

/* ---- the documents ------------------------------------------------------- */

/* The schema's "config" row names every key. */
START_TEST(test_schema_names_every_key)
{
	char *doc = slurp("doc/result-json.md");
	char *row = strstr(doc, "| `config` |");
	char *end, want[64];
	size_t n;
	const struct ws_field *f = ws_fields(&n);

	ck_assert_ptr_nonnull(row);
	end = strchr(row, '\n');
	if (end)
		*end = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!f[i].result.key)
			continue;
		snprintf(want, sizeof(want), "`%s`", f[i].result.key);
		ck_assert_msg(strstr(row, want), "doc/result-json.md's config lacks %s", want);
	}
	free(doc);
}
END_TEST

/* Roff to words: requests' names and quotes dropped, "\-" and "\~"
 * resolved, lines joined, every run of spaces one. */
static void roff_plain(const char *from, const char *to, char *out, size_t len)
{
	size_t j = 0;
	bool line_start = true;

	for (const char *p = from; p < to && j + 1 < len; p++) {
		if (line_start && *p == '.') {
			while (p < to && *p != ' ' && *p != '\n')
				p++;
			if (p < to && *p == '\n') {
				out[j++] = ' ';
				continue;
			}
			line_start = false;
			continue;
		}
		line_start = *p == '\n';
		if (*p == '\\' && p + 1 < to && (p[1] == '-' || p[1] == '~')) {
			out[j++] = p[1] == '-' ? '-' : ' ';
			p++;
		} else if (*p == '\\' && p + 1 < to && p[1] == '%') {
			p++;
		} else if (*p != '"') {
			char ch = *p == '\n' ? ' ' : *p;

			if (ch != ' ' || (j && out[j - 1] != ' '))
				out[j++] = ch;
		}
	}
	out[j] = '\0';
}

/* The entry of OPTION in the man page ("--buffer-size"), as words: from
 * its tag line under .TP to the next .TP, .SS or .SH at its level. */
static bool man_entry(const char *man, const char *option, char *out, size_t len)
{
	char esc[64];
	size_t k = 0;
	const char *p = man;

	for (const char *o = option; *o && k + 3 < sizeof(esc); o++) {
		if (*o == '-')
			esc[k++] = '\\';
		esc[k++] = *o;
	}
	esc[k] = '\0';
	while ((p = strstr(p, ".TP\n"))) {
		const char *tag = p + 4, *eol = strchr(tag, '\n'), *at;
		int depth = 0;

		p = tag;
		if (!eol || !(at = strstr(tag, esc)) || at > eol ||
		    at[k] == '\\' || isalnum((unsigned char)at[k]))
			continue;
		for (const char *q = eol + 1; *q; q = strchr(q, '\n') + 1) {
			depth += !strncmp(q, ".RS", 3) - !strncmp(q, ".RE", 3);
			if (!depth && (!strncmp(q, ".TP\n", 4) || !strncmp(q, ".SS", 3) ||
				       !strncmp(q, ".SH", 3) || !strncmp(q, ".PP", 3))) {
				roff_plain(tag, q, out, len);
				return true;
			}
			if (!strchr(q, '\n'))
				break;
		}
	}
	return false;
}

/* "default 8M", "Default: 8M", "window (default" or "snia (the default". */
static bool states_default(const char *text, const char *def)
{
	static const char *const before[] = { "default ", "Default: " };
	static const char *const after[] = { " (default", " (the default" };
	char want[64];

	/* the value must end where the default does: "8M", not "80M" */
	for (size_t i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "%s%s", before[i], def);
		for (const char *at = strstr(text, want); at; at = strstr(at + 1, want))
			if (!isalnum((unsigned char)at[strlen(want)]))
				return true;
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "%s%s", def, after[i]);
		for (const char *at = strstr(text, want); at; at = strstr(at + 1, want))
			if (at == text || at[-1] == ' ')
				return true;
	}
	return false;
}

START_TEST(test_man_page_states_each_default)
{
	char *man = slurp("man/writestress.1");
	size_t n;
	const struct ws_field *f = ws_fields(&n);
	static char entry[16384];

	for (size_t i = 0; i < n; i++) {
		char option[64];

		if (!f[i].opt.name || (!f[i].def && !f[i].words))
			continue;
		snprintf(option, sizeof(option), "--%s", f[i].opt.name);
		ck_assert_msg(man_entry(man, option, entry, sizeof(entry)),
			      "man/writestress.1 has no entry for %s", option);
		if (f[i].def)
			ck_assert_msg(states_default(entry, f[i].def),
				      "man/writestress.1: %s does not say its default is %s",
				      option, f[i].def);
		for (size_t w = 0; f[i].words && f[i].words[w]; w++)
			ck_assert_msg(strstr(entry, f[i].words[w]),
				      "man/writestress.1: %s lacks the word %s", option,
				      f[i].words[w]);
	}
	ck_assert(!states_default("default 80M", "8M"));
	ck_assert(states_default("Default: 8M (8 MiB)", "8M"));
	free(man);
}
END_TEST

/* The man page's list of what makes runs unlike is the rows marked so:
 * every one named, and no other row's option. */
START_TEST(test_man_page_lists_what_changes_the_result)
{
	char *man = slurp("man/writestress.1");
	const char *from = strstr(man, "Only like is judged against like.");
	const char *to = from ? strstr(from, "and the device and filesystem under the file") : NULL;
	static char text[8192];
	size_t n;
	const struct ws_field *f = ws_fields(&n);

	ck_assert_msg(from && to, "man/writestress.1: the like-for-like paragraph moved");
	roff_plain(from, to, text, sizeof(text));
	for (size_t i = 0; i < n; i++) {
		char want[64];
		const char *at;
		bool named = false;

		if (!f[i].result.key || !ws_field_option(&f[i]))
			continue;
		snprintf(want, sizeof(want), "--%s", ws_field_option(&f[i]));
		for (at = strstr(text, want); at; at = strstr(at + 1, want))
			named |= !isalnum((unsigned char)at[strlen(want)]) && at[strlen(want)] != '-';
		ck_assert_msg(named == f[i].result.changes,
			      "man/writestress.1: %s is %s the like-for-like list", want,
			      named ? "in" : "missing from");
	}
	free(man);
}
END_TEST

Suite *registry_suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults_are_the_documented_ones);
	tcase_add_test(tc, test_every_row_is_whole);
	tcase_add_test(tc, test_result_order_names_every_key);
	tcase_add_test(tc, test_the_command_line_is_the_table);
	tcase_add_test(tc, test_help_shows_each_default_and_word);
	tcase_add_test(tc, test_matrix_shares_the_target_latency);
	tcase_add_test(tc, test_a_default_obeys_its_bounds);
	tcase_add_test(tc, test_every_own_row_has_its_writer);
	tcase_add_test(tc, test_compare_judges_the_marked_rows);
	tcase_add_test(tc, test_schema_names_every_key);
	tcase_add_test(tc, test_man_page_states_each_default);
	tcase_add_test(tc, test_man_page_lists_what_changes_the_result);
	suite_add_tcase(s, tc);
	return s;
}
