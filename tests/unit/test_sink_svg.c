/* test_sink_svg.c - the --svg sink (sink_svg.c, svgplot.c).
 *
 * On synthetic runs: empty, one point, zero throughput, a NaN point, a
 * full story (two phases, slowdown, steady state, stalls), hostile path
 * names and a full 8192-point series with three probes.  Each plot is
 * checked for what must be in it, for coordinates inside the 1200x700
 * canvas and for no NaN or infinity.
 *
 * On the fixed record of record_fixture.c (the run to its bound, and
 * stopped by SIGINT and by an error): the same checks, and the plot
 * compared byte for byte with tests/expected/sink_svg*.svg.
 *
 * WS_TEST_SVG_DIR=DIR writes every plot there too, to look at. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <check.h>

#include "record_fixture.h"
#include "series.h"
#include "sink.h"
#include "suites.h"
#include "units.h"

#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SEC UINT64_C(1000000000)
#define MS UINT64_C(1000000)

static struct ws_series series;
static struct ws_analysis an;
static struct ws_summary sum;
static struct ws_config cfg;
static struct ws_run run;
static struct ws_stall stalls[3];
static char *argv_[] = { "writestress", "--svg", "out.svg", "data", NULL };

static void base(void)
{
	config_defaults(&cfg);
	cfg.path = "data";
	argv_[3] = "data";
	cfg.svg_path = "out.svg";
	cfg.interval_ns = SEC;
	run = (struct ws_run){ .cfg = &cfg, .argc = 4, .argv = argv_,
			       .plan = { .buffer_size = WS_MIB, .total = WS_UNBOUNDED },
			       .target = { .fs_type = "ext4" },
			       .pace = "window(1) + fadvise", .data = "random" };
	memset(&sum, 0, sizeof(sum));
	memset(&an, 0, sizeof(an));
	series_init(&series);
	sum.series = &series;
	sum.analysis = &an;
}

/* n one-second points at rate(i) MiB/s; probe j's p99 and max from lat. */
static void fill(size_t n, double (*rate)(size_t), uint64_t (*lat)(size_t, unsigned int))
{
	uint64_t bytes = 0;

	for (size_t i = 0; i < n; i++) {
		struct ws_point *p = &series.pts[i];
		uint64_t db = (uint64_t)(rate(i) * (double)WS_MIB);

		bytes += db;
		*p = (struct ws_point){ .t_ns = (i + 1) * SEC, .dt_ns = SEC,
					.bytes = bytes, .dbytes = db,
					.mibps = (double)db / (double)WS_MIB };
		for (unsigned int j = 0; lat && j < sum.nprobes; j++) {
			p->probe_p99[j] = lat(i, j);
			p->probe_max[j] = lat(i, j) * 3;
		}
	}
	series.n = n;
	sum.bytes = bytes;
	sum.elapsed_ns = n * SEC;
	sum.mibps = n ? (double)bytes / (double)WS_MIB / (double)n : 0;
}

static void probes(unsigned int n)
{
	static const char *const names[] = { "fsync", "save", "read" };

	sum.nprobes = n;
	for (unsigned int j = 0; j < n; j++)
		sum.probes[j].name = names[j];
}

static double rate_100(size_t i) { (void)i; return 100; }
static double rate_0(size_t i) { (void)i; return 0; }
static double rate_two(size_t i) { return i < 30 ? 120 + (double)(i % 3) : 23 + (double)(i % 2); }
static double rate_wavy(size_t i) { return 200 + (double)(i % 50); }
static uint64_t lat_1ms(size_t i, unsigned int j) { (void)i; return (j + 1) * MS; }
static uint64_t lat_0(size_t i, unsigned int j) { (void)i; (void)j; return 0; }
static uint64_t lat_grow(size_t i, unsigned int j) { return (uint64_t)(i + 1) * 4 * MS * (j + 1); }

static void case_empty(void)
{
	fill(0, rate_0, NULL);
}

static void case_one(void)
{
	probes(1);
	fill(1, rate_100, lat_1ms);
}

static void case_zero(void)
{
	probes(2);
	fill(10, rate_0, lat_0);
}

static void case_nan(void)
{
	probes(1);
	fill(5, rate_100, lat_1ms);
	series.pts[2].dt_ns = 0;
	series.pts[2].mibps = 0.0 / 0.0;
	series.pts[3].mibps = 1.0 / 0.0;
	an.nphases = 1;
	an.phases[0] = (struct ws_phase){ .from_bytes = 0, .to_bytes = sum.bytes,
					  .to_ns = 5 * SEC, .mibps = 0.0 / 0.0 };
}

/* The whole story: fast then slow, steady, two stalls. */
static void case_story(void)
{
	probes(2);
	fill(60, rate_two, lat_1ms);
	an.nphases = 2;
	an.phases[0] = (struct ws_phase){ .to_bytes = series.pts[29].bytes,
					  .to_ns = 30 * SEC, .mibps = 120.0,
					  .last = 29 };
	an.phases[1] = (struct ws_phase){ .from_bytes = series.pts[29].bytes,
					  .to_bytes = sum.bytes,
					  .from_ns = 30 * SEC, .to_ns = 60 * SEC,
					  .mibps = 23.0, .first = 30, .last = 59 };
	an.initial_mibps = 120.0;
	an.slowed = true;
	an.slowdown_bytes = series.pts[29].bytes;
	an.slowdown_ns = 30 * SEC;
	an.params.round_ns = 5 * SEC;
	an.params.steady_window = 5;
	an.steady = (struct ws_steady){ .judged = true, .reached = true,
					.at_bytes = series.pts[54].bytes,
					.at_ns = 55 * SEC };
	an.steady.final = (struct ws_stretch){
		.first_round = 6, .last_round = 11,
		.from_bytes = series.pts[29].bytes, .to_bytes = sum.bytes,
		.from_ns = 30 * SEC, .to_ns = 60 * SEC, .mibps = 23.0 };
	stalls[0] = (struct ws_stall){ .start_ns = 35 * SEC, .duration_ns = 1200 * MS };
	stalls[1] = (struct ws_stall){ .start_ns = 45 * SEC, .duration_ns = 600 * MS };
	memcpy(sum.probes[0].stalls, stalls, sizeof(stalls));
	sum.probes[0].nrecorded = 2;
	sum.probes[0].nstalls = 5;	/* 3 more than recorded */
	sum.probes[0].longest = stalls[0];
	series.pts[35].probe_max[0] = 1200 * MS;
	series.pts[45].probe_max[0] = 600 * MS;
}

static void case_escape(void)
{
	cfg.path = "dir/a&b<c>\"d'e\x01\xff\xc3\x28 f";
	fill(3, rate_100, NULL);
}

static void case_long_path(void)
{
	static char path[4000];

	memset(path, 'x', sizeof(path) - 6);
	strcpy(path + sizeof(path) - 6, "/tail");
	cfg.path = path;
	run.argv[3] = path;
	fill(3, rate_100, NULL);
}

static void case_full(void)
{
	probes(3);
	fill(WS_SERIES_CAP, rate_wavy, lat_grow);
	series.stride = 4;
	sum.ending.reason = WS_STOP_SIGNAL;
	sum.ending.signo = 2;
	sum.ending.signal = "SIGINT";
}

static const struct row {
	const char *name;
	void (*build)(void);
	const char *want[6];
} rows[] = {
	{ "empty", case_empty,
	  { "no data: the run ended", "no probes (--no-probe)", "GiB written" } },
	{ "one", case_one, { "fsync", "stall ≥ 500 ms", "<circle" } },
	{ "zero", case_zero,
	  { "0.0 MiB written", "MiB/s", "save", "nothing was written",
	    "no probe completed" } },
	{ "nan", case_nan, { "0.0 MiB/s" } },
	{ "story", case_story,
	  { "120.0 MiB/s", "23.0 MiB/s", ">slowed<", "steady 23.0 MiB/s",
	    "stall (first 2 of 5)", "5 stalls ≥ 500 ms" } },
	{ "escape", case_escape,
	  { "a&amp;b&lt;c&gt;&quot;d&apos;e?\xef\xbf\xbd\xef\xbf\xbd( f on ext4" } },
	{ "long path", case_long_path, { "…xxxx", "xxx/tail on ext4", "…</text>" } },
	{ "full", case_full,
	  { "stopped by SIGINT", ">10 s<", "read", "seconds since start",
	    "per 4 intervals" } },
};

static char *render(const struct row *r, size_t *len)
{
	struct sink s = { .ops = &sink_svg_ops };
	char *buf = NULL;
	const char *dir = getenv("WS_TEST_SVG_DIR");

	base();
	r->build();
	run.target.path = cfg.path;
	s.out = open_memstream(&buf, len);
	ck_assert_ptr_nonnull(s.out);
	sink_svg_ops.summary(&s, &run, &sum);
	ck_assert_int_eq(fclose(s.out), 0);
	if (dir) {
		char path[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.svg", dir, r->name);
		f = fopen(path, "w");
		if (f) {
			fwrite(buf, 1, *len, f);
			fclose(f);
		}
	}
	return buf;
}

static unsigned int count(const char *s, const char *what)
{
	unsigned int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* Every number that starts an attribute value or follows M or L in a
 * path lies on the canvas. */
static void check_coords(const char *svg)
{
	for (const char *p = svg; *p; p++) {
		bool attr = p[0] == '=' && p[1] == '"';
		bool move = (p[0] == 'M' || p[0] == 'L') && (p[1] == '-' || (p[1] >= '0' && p[1] <= '9'));
		double v;
		char *end;

		if (!attr && !move)
			continue;
		if (!(p[attr ? 2 : 1] == '-' || (p[attr ? 2 : 1] >= '0' && p[attr ? 2 : 1] <= '9')))
			continue;
		v = strtod(p + (attr ? 2 : 1), &end);
		ck_assert_msg(v >= 0 && v <= 1200, "coordinate %.40s off the canvas", p);
		if (move) {
			v = strtod(end, NULL);
			ck_assert_msg(v >= 0 && v <= 700, "y in %.40s off the canvas", p);
		}
	}
}

/* What every plot must be: an SVG document of its own on the canvas,
 * with the texts `want` (up to 6, NULL-ended) and no NaN or infinity. */
static void check_plot(const char *name, const char *svg, size_t len,
		       const char *const *want)
{
	ck_assert_uint_eq(strlen(svg), len);
	ck_assert_msg(!strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44),
		      "%s: no XML declaration and svg root", name);
	ck_assert_msg(len > 8 && !strcmp(svg + len - 7, "</svg>\n"), "%s: not closed", name);
	ck_assert_str_eq(strstr(svg, "viewBox=") + 8, strstr(svg, "\"0 0 1200 700\""));
	ck_assert_uint_eq(count(svg, "<text"), count(svg, "</text>"));
	ck_assert_msg(!strcasestr(svg, "nan") && !strcasestr(svg, "inf"),
		      "%s: NaN or infinity in the plot", name);
	ck_assert_msg(!strstr(svg, "<script") && !strstr(svg, "href"),
		      "%s: not self-contained", name);
	for (int k = 0; k < 6 && want[k]; k++)
		ck_assert_msg(strstr(svg, want[k]), "%s: no '%s' in the plot",
			      name, want[k]);
	check_coords(svg);
}

START_TEST(test_plot)
{
	const struct row *r = &rows[_i];
	size_t len;
	char *svg = render(r, &len);

	check_plot(r->name, svg, len, r->want);
	free(svg);
}
END_TEST

/* The legend's p99 and max keys are drawn as the lines are: in the
 * first probe's colour, thick (2.5) and thin (1). */
START_TEST(test_legend_keys_match_lines)
{
	size_t len;
	char *svg = render(&rows[4], &len);
	const char *p99 = strstr(svg, ">p99 (thick)<"), *max = strstr(svg, ">max (thin)<");
	const char *line;

	ck_assert_ptr_nonnull(p99);
	ck_assert_ptr_nonnull(max);
	/* the key is the last <line> before its label */
	for (const char *k = svg; (k = strstr(k, "<line ")) && k < p99; k++)
		line = k;
	ck_assert_msg(!strncmp(strstr(line, "stroke="), "stroke=\"#1b9e77\" stroke-width=\"2.5\"", 35),
		      "p99 key: %.80s", line);
	for (const char *k = svg; (k = strstr(k, "<line ")) && k < max; k++)
		line = k;
	ck_assert_msg(!strncmp(strstr(line, "stroke="), "stroke=\"#1b9e77\" stroke-width=\"1.0\"", 35),
		      "max key: %.80s", line);
	/* and the lines themselves */
	ck_assert(strstr(svg, "stroke=\"#1b9e77\" stroke-width=\"2.5\" stroke-linejoin"));
	ck_assert(strstr(svg, "stroke=\"#1b9e77\" stroke-width=\"1\" stroke-linejoin"));
	free(svg);
}
END_TEST

/* The story's two recorded stalls are two red bars, and the threshold
 * is one dashed red line. */
START_TEST(test_stall_bars)
{
	size_t len;
	char *svg = render(&rows[4], &len);

	ck_assert_uint_eq(count(svg, "stroke=\"#d62728\" stroke-width=\"3\"/>"), 2);
	ck_assert_uint_eq(count(svg, "stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray"), 1);
	ck_assert_uint_eq(count(svg, "class=\"band0\""), 2);	/* both panels */
	ck_assert_uint_eq(count(svg, "class=\"band1\""), 2);
	free(svg);
}
END_TEST

/* The sink keeps a previous file when no summary came. */
START_TEST(test_close_without_summary)
{
	struct sink_set set = { .n = 0 };
	char dir[] = "/tmp/ws-svg-XXXXXX", path[64], err[256];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.svg", dir);
	f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	ck_assert_int_eq(sink_add_file(&set, &sink_svg_ops, path, err, sizeof(err)), 0);
	ck_assert_int_lt(sink_close_all(&set), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fgetc(f), 'o');
	fclose(f);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);	/* no temporary left */
}
END_TEST

/* ---- the fixed record ---------------------------------------------- */

static const struct golden {
	const char *file;
	enum fixture_ending ending;
	const char *want[6];
} goldens[] = {
	{ "sink_svg.svg", FIXTURE_BOUND,
	  { "8.000 GiB written in 63.90 s (128.2 MiB/s)", "240.0 MiB/s", "56.3 MiB/s",
	    "steady 56.3 MiB/s", ">slowed<", "4 stalls ≥ 500 ms" } },
	{ "sink_svg_signal.svg", FIXTURE_SIGNAL, { " — stopped by SIGINT" } },
	{ "sink_svg_error.svg", FIXTURE_ERROR,
	  { " — failed: reserve: No space left on device" } },
};

START_TEST(test_golden)
{
	const struct golden *g = &goldens[_i];
	struct record_fixture *f = record_fixture_make(g->ending);
	size_t len;
	char *svg = record_fixture_render(f, &sink_svg_ops, &len);

	check_plot(g->file, svg, len, g->want);
	ck_assert_msg(strstr(svg, ">writestress @VERSION@</text>"), "no version");
	golden_check(g->file, svg, len);
	free(svg);
	record_fixture_free(f);
}
END_TEST

Suite *sink_svg_suite(void)
{
	Suite *s = suite_create("sink_svg");
	TCase *plot = tcase_create("plot");
	TCase *golden = tcase_create("golden");

	tcase_add_loop_test(plot, test_plot, 0, N_ROWS(rows));
	tcase_add_test(plot, test_stall_bars);
	tcase_add_test(plot, test_legend_keys_match_lines);
	tcase_add_test(plot, test_close_without_summary);
	suite_add_tcase(s, plot);
	tcase_add_loop_test(golden, test_golden, 0, N_ROWS(goldens));
	suite_add_tcase(s, golden);
	return s;
}
