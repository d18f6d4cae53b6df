/* The --json sink (sink_json.c, with fingerprint_show.c's member) against
 * the fixed record of record_fixture.c: compared byte for byte with
 * tests/expected/sink_json*.json for the three endings (the one-line
 * document broken into lines after its commas, golden_json_lines(), so
 * a difference names its member), then parsed with
 * json-c, which must accept it, and a few members checked against the
 * record: the schema, completeness, the writer's limit, the ending, the
 * intervals, the probes' histograms. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <json-c/json.h>

#include "record_fixture.h"
#include "recorder/recorder.h"
#include "suites.h"
#include "testutil.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct row {
	const char *golden;
	enum fixture_ending ending;
	const char *exit_reason;
} rows[] = {
	{ "sink_json.json", FIXTURE_BOUND, "bound" },
	{ "sink_json_signal.json", FIXTURE_SIGNAL, "signal" },
	{ "sink_json_error.json", FIXTURE_ERROR, "error" },
	{ "sink_json_targets.json", FIXTURE_TWO_TARGETS, "error" },
};

static void assert_str(struct json_object *j, const char *path, const char *want)
{
	struct json_object *o = tu_jget(j, path);

	ck_assert_msg(o && json_object_is_type(o, json_type_string),
		      "%s: not a string", path);
	ck_assert_str_eq(json_object_get_string(o), want);
}

static int64_t get_int(struct json_object *j, const char *path)
{
	struct json_object *o = tu_jget(j, path);

	ck_assert_msg(o && json_object_is_type(o, json_type_int), "%s: not an integer", path);
	return json_object_get_int64(o);
}

static size_t get_len(struct json_object *j, const char *path)
{
	struct json_object *o = tu_jget(j, path);

	ck_assert_msg(o && json_object_is_type(o, json_type_array), "%s: not an array", path);
	return json_object_array_length(o);
}

START_TEST(test_golden)
{
	const struct row *r = &rows[_i];
	const struct record_fixture *f = record_fixture_shared(r->ending);
	struct json_object *j, *complete;
	char path[64];
	size_t len;
	char *out = record_fixture_render(f, &sink_json_ops, &len);
	size_t nlines;
	char *lines = golden_json_lines(out, len, &nlines);

	ck_assert_uint_eq(strlen(out), len);
	ck_assert_msg(len && out[len - 1] == '\n' && !memchr(out, '\n', len - 1),
		      "%s: not one line", r->golden);
	golden_check(r->golden, lines, nlines);
	free(lines);

	j = json_tokener_parse(out);
	ck_assert_msg(j, "%s: json-c cannot parse the result", r->golden);
	assert_str(j, "schema", "writestress-result/1");
	complete = tu_jget(j, "complete");
	ck_assert(complete && json_object_is_type(complete, json_type_boolean));
	ck_assert(json_object_get_boolean(complete));
	assert_str(j, "tool.version", "@VERSION@");
	assert_str(j, "started_at", "2025-01-01T12:00:00Z");
	assert_str(j, "summary.exit_reason", r->exit_reason);
	assert_str(j, "summary.writer_limit.kind", ws_limit_key(f->sum.limit));
	assert_str(j, "summary.writer_limit.words", ws_limit_words(f->sum.limit));
	ck_assert_int_eq(get_int(j, "summary.bytes"), (int64_t)f->sum.bytes);
	ck_assert_uint_eq(get_len(j, "intervals"), f->niv);
	ck_assert_uint_eq(get_len(j, "command_line"), (size_t)f->run.argc);
	ck_assert_uint_eq(get_len(j, "probes"), 2);
	ck_assert_uint_eq(get_len(j, "phases"), f->analysis.nphases);
	for (unsigned int p = 0; p < 2; p++) {
		int64_t n = 0;

		snprintf(path, sizeof(path), "probes.%u.histogram_ns", p);
		for (size_t b = 0; b < get_len(j, path); b++) {
			char cell[96];

			snprintf(cell, sizeof(cell), "%s.%zu.2", path, b);
			n += get_int(j, cell);
		}
		snprintf(path, sizeof(path), "probes.%u.count", p);
		ck_assert_int_eq(n, get_int(j, path));
	}
	switch (r->ending) {
	case FIXTURE_BOUND:
		assert_str(j, "summary.writer_limit.kind", "disk");
		ck_assert_ptr_null(tu_jget(j, "summary.error"));
		ck_assert(json_object_get_boolean(tu_jget(j, "steady.reached")));
		break;
	case FIXTURE_SIGNAL:
		assert_str(j, "summary.signal", "SIGINT");
		ck_assert_ptr_null(tu_jget(j, "summary.error"));
		break;
	case FIXTURE_ERROR:
		assert_str(j, "summary.error.operation", "reserve");
		ck_assert_int_eq(get_int(j, "summary.error.errno"), ENOSPC);
		ck_assert_int_eq(get_int(j, "summary.error.offset"),
				 (int64_t)f->sum.ending.err_offset);
		break;
	case FIXTURE_TWO_TARGETS:
		/* each target's own result, and the run's their sum; the
		 * worst ending (target 2's error) is the run's */
		ck_assert_uint_eq(get_len(j, "targets"), 2);
		ck_assert_uint_eq(get_len(j, "config.files"), 2);
		assert_str(j, "targets.1.target.path", "/var/tmp/big.dat.2");
		ck_assert_int_eq(get_int(j, "targets.1.same_device_as"), 1);
		assert_str(j, "targets.0.summary.exit_reason", "bound");
		assert_str(j, "targets.1.summary.exit_reason", "error");
		ck_assert_int_eq(get_int(j, "targets.0.summary.bytes") +
				 get_int(j, "targets.1.summary.bytes"),
				 get_int(j, "summary.bytes"));
		ck_assert_uint_eq(get_len(j, "targets.0.phases"),
				  f->part[0]->analysis.nphases);
		ck_assert_uint_eq(get_len(j, "intervals.0.targets"), 2);
		ck_assert_uint_eq(get_len(j, "intervals.6.targets"), 1);
		ck_assert_int_eq(get_int(j, "intervals.0.targets.0.dbytes") +
				 get_int(j, "intervals.0.targets.1.dbytes"),
				 get_int(j, "intervals.0.dbytes"));
		break;
	}
	json_object_put(j);
	free(out);
}
END_TEST

/* A run that ends before its summary (a thread that could not start):
 * the result file is discarded, its temporary removed, and what the
 * sink held is freed (the sanitizer builds see a leak otherwise). */
START_TEST(test_abort_before_summary)
{
	const struct record_fixture *f = record_fixture_shared(FIXTURE_BOUND);
	struct sink_set set = { .n = 0 };
	char dir[] = "/tmp/ws-json-XXXXXX", path[64], err[256];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	ck_assert_int_eq(sink_add_file(&set, &sink_json_ops, path, err, sizeof(err)), 0);
	sink_header(&set, &f->run);
	ck_assert_ptr_nonnull(set.sinks[0].priv);
	sink_abort_all(&set);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(rmdir(dir), 0);	/* nor a temporary */
}
END_TEST

Suite *sink_json_suite(void)
{
	Suite *s = suite_create("sink_json");
	TCase *tc = tcase_create("golden");

	tcase_add_loop_test(tc, test_golden, 0, N_ROWS(rows));
	tcase_add_test(tc, test_abort_before_summary);
	suite_add_tcase(s, tc);
	return s;
}
