/* The --prom sink (sink_prom.c) against the fixed record of
 * record_fixture.c.  Rendered to a stream, it writes one exposition per
 * interval and the last one at the summary: the last, and the fourth
 * interval's (a probe blocked), are compared byte for byte with
 * tests/expected/sink_prom*.prom.  Every exposition is read back by a
 * small parser of the text format 0.0.4: each family has its HELP and
 * TYPE before its samples, label values are quoted and escaped, a
 * histogram's buckets are cumulative and end with +Inf at _count, and from
 * one exposition to the next no counter and no bucket goes down.  Label
 * values with a quote, a backslash and a line break come out escaped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "record_fixture.h"
#include "suites.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX_SAMPLES 256
#define MAX_EXPOSITIONS (FIXTURE_MAX_INTERVALS + 1)

static const struct row {
	const char *golden;		/* the last state */
	const char *golden_blocked;	/* the fourth interval's, or NULL */
	enum fixture_ending ending;
} rows[] = {
	{ "sink_prom.prom", "sink_prom_blocked.prom", FIXTURE_BOUND },
	{ "sink_prom_signal.prom", NULL, FIXTURE_SIGNAL },
	{ "sink_prom_error.prom", NULL, FIXTURE_ERROR },
	{ "sink_prom_targets.prom", NULL, FIXTURE_TWO_TARGETS },
};

struct sample {
	char family[96];	/* the name without _bucket/_sum/_count */
	char key[512];		/* name and labels as written, le dropped */
	char le[16];		/* a bucket's bound, or "" */
	double value;
	char type[16];		/* its family's TYPE */
};

struct exposition {
	struct sample s[MAX_SAMPLES];
	unsigned int n;
};

/* A label value from *p (after its opening quote) into out, unescaped;
 * *p ends after the closing quote. */
static void label_value(const char **p, char *out, size_t len)
{
	size_t n = 0;
	const char *s = *p;

	for (; *s != '"'; s++) {
		ck_assert_msg(*s && *s != '\n', "unterminated label value");
		if (*s == '\\') {
			s++;
			ck_assert_msg(*s == '\\' || *s == '"' || *s == 'n',
				      "bad escape \\%c", *s);
		}
		if (n + 1 < len)
			out[n++] = *s == 'n' && s[-1] == '\\' ? '\n' : *s;
	}
	out[n] = '\0';
	*p = s + 1;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* One sample line into *sm, its family declared by the lines before. */
static void parse_sample(const char *line, const char *help_of,
			 const char *type_of, const char *type, struct sample *sm)
{
	const char *p = line;
	size_t n = strcspn(p, "{ ");
	char name[96], value[600];

	ck_assert_msg(n > 0 && n < sizeof(name), "no metric name: %s", line);
	memcpy(name, p, n);
	name[n] = '\0';
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(strchr("abcdefghijklmnopqrstuvwxyz_:", name[i]) ||
			      (i && name[i] >= '0' && name[i] <= '9'),
			      "bad name %s", name);
	snprintf(sm->family, sizeof(sm->family), "%s", name);
	if (!strcmp(type, "histogram"))
		for (const char *const *x = (const char *const[]){ "_bucket", "_sum", "_count", NULL }; *x; x++)
			if (has_suffix(name, *x)) {
				sm->family[n - strlen(*x)] = '\0';
				break;
			}
	ck_assert_msg(!strcmp(sm->family, help_of) && !strcmp(sm->family, type_of),
		      "%s: HELP and TYPE of %s/%s before it", name, help_of, type_of);
	snprintf(sm->type, sizeof(sm->type), "%s", type);
	snprintf(sm->key, sizeof(sm->key), "%s", name);
	sm->le[0] = '\0';
	p += n;
	if (*p == '{') {
		p++;
		while (*p != '}') {
			size_t k = strcspn(p, "=");
			char key[32];

			ck_assert_msg(k > 0 && k < sizeof(key) && p[k + 1] == '"', "label: %s", line);
			memcpy(key, p, k);
			key[k] = '\0';
			p += k + 2;
			label_value(&p, value, sizeof(value));
			if (!strcmp(key, "le"))
				snprintf(sm->le, sizeof(sm->le), "%.15s", value);
			else
				snprintf(sm->key + strlen(sm->key), sizeof(sm->key) - strlen(sm->key),
					 ",%s=%s", key, value);
			if (*p == ',')
				p++;
			else
				ck_assert_msg(*p == '}', "after a label: %s", line);
		}
		p++;
	}
	ck_assert_msg(*p == ' ', "no value: %s", line);
	sm->value = strtod(p + 1, (char **)&p);
	ck_assert_msg(!*p && isfinite(sm->value), "bad value: %s", line);
}

/* Parse one exposition text[0..len) (lines end with \n). */
static void parse(const char *text, size_t len, struct exposition *e)
{
	char help_of[96] = "", type_of[96] = "", type[16] = "";
	char *copy = strndup(text, len), *save = NULL;

	ck_assert_ptr_nonnull(copy);
	ck_assert_msg(len && text[len - 1] == '\n', "no line break at the end");
	e->n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "# HELP ", 7)) {
			ck_assert_msg(sscanf(l + 7, "%95s", help_of) == 1, "%s", l);
		} else if (!strncmp(l, "# TYPE ", 7)) {
			ck_assert_msg(sscanf(l + 7, "%95s %15s", type_of, type) == 2, "%s", l);
			ck_assert_str_eq(type_of, help_of);
			ck_assert_msg(!strcmp(type, "gauge") || !strcmp(type, "counter") ||
				      !strcmp(type, "histogram"), "type %s", type);
			if (!strcmp(type, "counter"))
				ck_assert_msg(has_suffix(type_of, "_total"), "counter %s", type_of);
		} else {
			ck_assert_msg(l[0] != '#', "stray comment %s", l);
			ck_assert_uint_lt(e->n, MAX_SAMPLES);
			parse_sample(l, help_of, type_of, type, &e->s[e->n++]);
		}
	}
	free(copy);
}

static const struct sample *find(const struct exposition *e, const char *key,
				 const char *le);

/* After a histogram's buckets (key NAME_bucket,LABELS): its _sum, and its
 * _count, which is the +Inf bucket's. */
static void check_count(const struct exposition *e, const struct sample *b,
			double inf)
{
	const char *rest = strstr(b->key, "_bucket,");
	char key[600];
	const struct sample *c;

	ck_assert_ptr_nonnull(rest);
	snprintf(key, sizeof(key), "%.*s_sum%s", (int)(rest - b->key), b->key, rest + 7);
	ck_assert_msg(find(e, key, ""), "no %s", key);
	snprintf(key, sizeof(key), "%.*s_count%s", (int)(rest - b->key), b->key, rest + 7);
	c = find(e, key, "");
	ck_assert_msg(c, "no %s", key);
	ck_assert_msg(c->value == inf, "%s: _count %g, +Inf %g", b->key, c->value, inf);
}

/* Every histogram's buckets rise with le, end with +Inf, and +Inf is
 * its _count. */
static void check_histograms(const struct exposition *e)
{
	for (unsigned int i = 0; i < e->n; i++) {
		const struct sample *b = &e->s[i];
		double prev_le = -1, prev = 0;
		unsigned int j;

		if (!b->le[0] || (i && !strcmp(e->s[i - 1].key, b->key)))
			continue;
		for (j = i; j < e->n && !strcmp(e->s[j].key, b->key); j++) {
			double le = !strcmp(e->s[j].le, "+Inf") ? INFINITY :
				    strtod(e->s[j].le, NULL);

			ck_assert_msg(le > prev_le, "%s: le %s out of order", b->key, e->s[j].le);
			ck_assert_msg(e->s[j].value >= prev, "%s le=%s: %g after %g",
				      b->key, e->s[j].le, e->s[j].value, prev);
			prev_le = le;
			prev = e->s[j].value;
		}
		ck_assert_msg(isinf(prev_le), "%s: no +Inf bucket", b->key);
		ck_assert_uint_ge(j - i, 2);
		check_count(e, b, prev);
	}
}

static const struct sample *find(const struct exposition *e, const char *key,
				 const char *le)
{
	for (unsigned int i = 0; i < e->n; i++)
		if (!strcmp(e->s[i].key, key) && !strcmp(e->s[i].le, le))
			return &e->s[i];
	return NULL;
}

/* From a to b, no counter and no histogram series goes down, and none
 * disappears. */
static void check_rising(const struct exposition *a, const struct exposition *b)
{
	for (unsigned int i = 0; i < a->n; i++) {
		const struct sample *x = &a->s[i], *y;

		if (strcmp(x->type, "counter") && strcmp(x->type, "histogram"))
			continue;
		y = find(b, x->key, x->le);
		ck_assert_msg(y, "%s%s gone", x->key, x->le);
		ck_assert_msg(y->value >= x->value, "%s le=%s: %g then %g", x->key,
			      x->le, x->value, y->value);
	}
}

static double value_of(const struct exposition *e, const char *key)
{
	const struct sample *s = find(e, key, "");

	ck_assert_msg(s, "no %s", key);
	return s->value;
}

/* The output split at each exposition's first line. */
static unsigned int split(const char *out, const char *at[MAX_EXPOSITIONS + 1])
{
	static const char first[] = "# HELP writestress_run_info ";
	unsigned int n = 0;

	for (const char *p = strstr(out, first); p; p = strstr(p + 1, first)) {
		ck_assert_uint_lt(n, MAX_EXPOSITIONS);
		at[n++] = p;
	}
	at[n] = out + strlen(out);
	return n;
}

START_TEST(test_golden)
{
	const struct row *r = &rows[_i];
	const struct record_fixture *f = record_fixture_shared(r->ending);
	static struct exposition e[MAX_EXPOSITIONS];
	const char *at[MAX_EXPOSITIONS + 1];
	size_t len;
	char *out = record_fixture_render(f, &sink_prom_ops, &len);
	unsigned int n = split(out, at);
	char target[128], key[256];

	/* the FILEs joined by commas name a run of several */
	snprintf(target, sizeof(target), "%s", f->run.target.path);
	if (f->run.ntargets)
		snprintf(target, sizeof(target), "%s,%s", f->run.targets[0].target.path,
			 f->run.targets[1].target.path);
	ck_assert_ptr_eq(at[0], out);
	ck_assert_uint_eq(n, f->niv + 1);
	golden_check(r->golden, at[n - 1], (size_t)(at[n] - at[n - 1]));
	if (r->golden_blocked)
		golden_check(r->golden_blocked, at[3], (size_t)(at[4] - at[3]));
	for (unsigned int i = 0; i < n; i++) {
		parse(at[i], (size_t)(at[i + 1] - at[i]), &e[i]);
		check_histograms(&e[i]);
		if (i)
			check_rising(&e[i - 1], &e[i]);
		snprintf(key, sizeof(key), "writestress_run_finished,target=%s", target);
		ck_assert_double_eq(value_of(&e[i], key), i == n - 1);
		snprintf(key, sizeof(key), "writestress_written_bytes_total,target=%s", target);
		ck_assert_double_eq(value_of(&e[i], key),
				    i < f->niv ? f->iv[i].bytes : f->sum.bytes);
	}
	/* the blocked probe shows its age; the end, how it ended */
	snprintf(key, sizeof(key), "writestress_probe_blocked,target=%s,probe=fsync", target);
	ck_assert_double_eq(value_of(&e[3], key), f->iv[3].probes[0].blocked);
	snprintf(key, sizeof(key), "writestress_ending_info,target=%s,reason=%s,signal=%s,error=%s",
		 target, ws_stop_key(f->sum.ending.reason),
		 r->ending == FIXTURE_SIGNAL ? "SIGINT" : "",
		 f->sum.ending.reason == WS_STOP_ERROR ? "No space left on device" : "");
	ck_assert_double_eq(value_of(&e[n - 1], key), 1);
	snprintf(key, sizeof(key), "writestress_probe_latency_seconds_count,target=%s,probe=fsync",
		 target);
	ck_assert_double_eq(value_of(&e[n - 1], key), f->sum.probes[0].count);
	free(out);
}
END_TEST

/* Label values with a quote, a backslash and a line break are escaped. */
START_TEST(test_escaping)
{
	struct record_fixture *f = record_fixture_make(FIXTURE_BOUND);
	static struct exposition e;
	char *buf = NULL;
	size_t len;
	struct sink s = { .ops = &sink_prom_ops };

	f->run.target.path = "/tmp/a \"b\"\\c\nd.dat";
	f->iv[0].probes[0].name = "my\"cmd\\\n";
	s.out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(s.out);
	sink_prom_ops.header(&s, &f->run);
	sink_prom_ops.interval(&s, &f->run, &f->iv[0]);
	ck_assert_int_eq(fclose(s.out), 0);
	s.out = NULL;
	ck_assert_msg(strstr(buf, "{target=\"/tmp/a \\\"b\\\"\\\\c\\nd.dat\""), "%.300s", buf);
	ck_assert_msg(strstr(buf, ",probe=\"my\\\"cmd\\\\\\n\""), "probe name");
	parse(buf, len, &e);
	check_histograms(&e);
	ck_assert_double_eq(value_of(&e, "writestress_probe_stalls_total,target=/tmp/a \"b\"\\c\nd.dat,probe=my\"cmd\\\n"),
			    f->iv[0].probes[0].stalls_total);
	sink_prom_ops.close(&(struct sink){ .ops = &sink_prom_ops, .priv = s.priv });
	free(buf);
	record_fixture_free(f);
}
END_TEST

Suite *sink_prom_suite(void)
{
	Suite *s = suite_create("sink_prom");
	TCase *tc = tcase_create("golden");

	tcase_add_loop_test(tc, test_golden, 0, N_ROWS(rows));
	tcase_add_test(tc, test_escaping);
	suite_add_tcase(s, tc);
	return s;
}
