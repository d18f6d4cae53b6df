/* test_sink_svg.c - the --svg sink (sink_svg.c, svgplot.c).
 *
 * On synthetic runs: empty, one point, zero throughput, a NaN point, a
 * full story (two phases, slowdown, steady state, stalls), hostile path
 * names, a full 8192-point series with three probes, a steady state low
 * on its axis (whose label used to sit on the tick labels), runs of 120
 * MiB and of 7 GiB, and one that ends 3.9 s past a nice number.  Each
 * plot is checked for what must be in it, for coordinates inside the
 * 1200x700 canvas, for no NaN or infinity, and for no label or tick
 * label over another text (their boxes estimated as svgplot does).
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
#include "analysis/series.h"
#include "outputs/sink.h"
#include "suites.h"
#include "lib/svgplot.h"
#include "lib/units.h"

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
	cfg.set.path = "data";
	argv_[3] = "data";
	cfg.set.svg_path = "out.svg";
	cfg.set.interval_ns = SEC;
	run = (struct ws_run){ .set = cfg.set, .argc = 4, .argv = argv_,
			       .plan = { .buffer_size = WS_MIB, .total = WS_UNBOUNDED },
			       .target = { .fs_type = "ext4" },
			       .data = "random" };
	ws_summary_release(&sum);
	memset(&sum, 0, sizeof(sum));
	memset(&an, 0, sizeof(an));
	series_free(&series);
	sum.series = &series;
	sum.analysis = &an;
}

/* n one-second points at rate(i) MiB/s; probe j's p99 and max from lat. */
static void fill(size_t n, double (*rate)(size_t), uint64_t (*lat)(size_t, unsigned int))
{
	uint64_t bytes = 0;

	/* written in place, as a full recorder's series holds them */
	series_free(&series);
	series.pts = calloc(WS_SERIES_CAP, sizeof(*series.pts));
	ck_assert_ptr_nonnull(series.pts);
	series.cap = WS_SERIES_CAP;
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

	ck_assert_int_eq(ws_summary_hold_probes(&sum, n), 0);
	sum.nprobes = n;
	for (unsigned int j = 0; j < n; j++)
		sum.probes[j].name = names[j];
}

static double rate_100(size_t i) { (void)i; return 100; }
static double rate_0(size_t i) { (void)i; return 0; }
static double rate_two(size_t i) { return i < 30 ? 120 + (double)(i % 3) : 23 + (double)(i % 2); }
static double rate_wavy(size_t i) { return 200 + (double)(i % 50); }
static double rate_drop(size_t i) { return i < 30 ? 240 : 5; }
static double rate_small(size_t i) { return i < 30 ? 3 : 1; }
static double rate_big(size_t i) { return i < 30 ? 200 : 50; }
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
	run.set.path = "dir/a&b<c>\"d'e\x01\xff\xc3\x28 f";
	fill(3, rate_100, NULL);
}

static void case_long_path(void)
{
	static char path[4000];

	memset(path, 'x', sizeof(path) - 6);
	strcpy(path + sizeof(path) - 6, "/tail");
	run.set.path = path;
	run.argv[3] = path;
	fill(3, rate_100, NULL);
}

/* Two phases split at point 30, slowed there, steady over the second
 * from point 55 on (the rates as fill() made them). */
static void two_phases(double fast, double slow)
{
	uint64_t split = series.pts[29].bytes;

	an.nphases = 2;
	an.phases[0] = (struct ws_phase){ .to_bytes = split, .to_ns = 30 * SEC,
					  .mibps = fast, .last = 29 };
	an.phases[1] = (struct ws_phase){ .from_bytes = split,
					  .to_bytes = series.pts[series.n - 1].bytes,
					  .from_ns = 30 * SEC,
					  .to_ns = series.pts[series.n - 1].t_ns,
					  .mibps = slow, .first = 30,
					  .last = (unsigned int)series.n - 1 };
	an.initial_mibps = fast;
	an.slowed = true;
	an.slowdown_bytes = split;
	an.slowdown_ns = 30 * SEC;
	an.steady = (struct ws_steady){ .judged = true, .reached = true,
					.at_bytes = series.pts[54].bytes,
					.at_ns = 55 * SEC };
	an.steady.final = (struct ws_stretch){
		.from_bytes = split, .to_bytes = sum.bytes,
		.from_ns = 30 * SEC, .to_ns = sum.elapsed_ns, .mibps = slow };
}

/* 240 then 5 MiB/s: the steady label's first spot, below the diamond
 * near the right, lay on the x axis's tick labels ("7" at 1025). */
static void case_low_steady(void)
{
	probes(1);
	fill(60, rate_drop, lat_1ms);
	two_phases(240, 5);
}

/* 90 MiB at 3 MiB/s, then 30 at 1: 120 MiB in all, slowed at 90. */
static void case_small(void)
{
	probes(1);
	fill(60, rate_small, lat_1ms);
	two_phases(3, 1);
}

/* 6000 MiB at 200 MiB/s, then 1500 at 50: 7.32 GiB, slowed at 5.86. */
static void case_big(void)
{
	probes(1);
	fill(60, rate_big, lat_1ms);
	two_phases(200, 50);
}

/* 63 whole intervals and a run that ended 0.9 s after the last: the
 * axis used to run on to 65 s. */
static void case_tail(void)
{
	probes(1);
	fill(63, rate_two, lat_1ms);
	sum.elapsed_ns = 63900 * MS;
	two_phases(120, 23);
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

/* Three probes (the widest legend) and a traced device answering each
 * write in 20 ms on average, but in the 10th interval, which wrote
 * nothing it saw: the pen lifts there. */
static void case_traced(void)
{
	probes(3);
	fill(60, rate_two, lat_1ms);
	for (size_t i = 0; i < series.n; i++)
		if (i != 9) {
			series.pts[i].dev_writes = 10;
			series.pts[i].dev_write_service_ns = 200 * MS;
		}
	sum.probes[0].nstalls = sum.probes[0].nrecorded = 0;
}

static const struct row {
	const char *name;
	void (*build)(void);
	const char *want[6];
} rows[] = {
	{ "empty", case_empty,
	  { "no data: the run ended", "no probes (--no-probe)", "MiB written" } },
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
	{ "low steady", case_low_steady,
	  { ">steady 5.0 MiB/s<", ">240.0 MiB/s<", ">slowed at 7.03 GiB<", ">GiB written<",
	    "stall ≥ 500 ms" } },
	{ "small", case_small,
	  { ">MiB written<", ">slowed at 90.0 MiB<", ">steady 1.0 MiB/s<", ">3.0 MiB/s<",
	    ">1.0 MiB/s<" } },
	{ "big", case_big,
	  { ">GiB written<", ">slowed at 5.86 GiB<", ">steady 50.0 MiB/s<",
	    ">200.0 MiB/s<", ">50.0 MiB/s<" } },
	{ "tail", case_tail, { ">slowed at 3.54 GiB<", ">GiB written<" } },
	{ "traced", case_traced, { ">device write (mean)<", ">fsync<", ">read<" } },
};

static char *render(const struct row *r, size_t *len)
{
	struct sink s = { .ops = &sink_svg_ops };
	char *buf = NULL;
	const char *dir = getenv("WS_TEST_SVG_DIR");

	base();
	r->build();
	run.target.path = run.set.path;
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

/* ---- texts and their boxes ----------------------------------------- */

#define TEXTS_MAX 160

/* A <text> of the plot: its class, content and estimated box. */
struct text {
	char cls[24];
	char s[160];
	struct svg_box box;
};

/* The font size of a class, as style[] in sink_svg.c sets it. */
static double class_px(const char *cls)
{
	static const struct { const char *cls; double px; } sizes[] = {
		{ "title", 20 }, { "sub", 13 }, { "head", 14 }, { "tick", 11 },
		{ "foot", 11 }, { "note", 14 },
	};

	for (int i = 0; i < N_ROWS(sizes); i++)
		if (!strncmp(cls, sizes[i].cls, strlen(sizes[i].cls)))
			return sizes[i].px;
	return 12;
}

/* XML character data as text: an entity is one character. */
static void unescape(char *dst, size_t len, const char *src, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < len; i++) {
		dst[k++] = src[i] == '&' ? '?' : src[i];
		if (src[i] == '&')
			while (i < n && src[i] != ';')
				i++;
	}
	dst[k] = '\0';
}

/* Every <text> of svg with its box; the y-axis titles, turned a quarter
 * to read upwards, with theirs turned too. */
static int texts_of(const char *svg, struct text *t, int max)
{
	int n = 0;

	for (const char *p = svg; n < max && (p = strstr(p, "<text ")); n++) {
		const char *cls = strstr(p, "class=\"") + 7, *a = strstr(p, "text-anchor=\"") + 13;
		const char *body = strchr(p, '>') + 1, *end = strstr(body, "</text>");
		char anchor[8] = "";
		struct svg_spot at = { strtod(strstr(p, "x=\"") + 3, NULL),
				       strtod(strstr(p, "y=\"") + 3, NULL), anchor };

		snprintf(t[n].cls, sizeof(t[n].cls), "%.*s", (int)strcspn(cls, "\""), cls);
		snprintf(anchor, sizeof(anchor), "%.*s", (int)strcspn(a, "\""), a);
		unescape(t[n].s, sizeof(t[n].s), body, (size_t)(end - body));
		t[n].box = svg_text_box(&at, class_px(t[n].cls), t[n].s);
		if (strstr(p, "transform=\"rotate(-90") && strstr(p, "transform") < body) {
			struct svg_box b = t[n].box;

			t[n].box = (struct svg_box){ at.x + b.y0 - at.y, at.y - (b.x1 - at.x),
						     at.x + b.y1 - at.y, at.y - (b.x0 - at.x) };
		}
		p = end;
	}
	return n;
}

/* Labels, tick labels and notes are what may be placed badly. */
static bool placed(const struct text *t)
{
	return !strcmp(t->cls, "tick") || !strncmp(t->cls, "lbl", 3) ||
	       !strcmp(t->cls, "note");
}

/* No label, tick label or note covers any other text. */
static void check_no_overlap(const char *name, const char *svg)
{
	static struct text t[TEXTS_MAX];
	int n = texts_of(svg, t, TEXTS_MAX);

	ck_assert_int_lt(n, TEXTS_MAX);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			ck_assert_msg(!(placed(&t[i]) || placed(&t[k])) ||
				      !svg_boxes_meet(&t[i].box, &t[k].box),
				      "%s: '%s' (%s at %.1f,%.1f-%.1f,%.1f) over '%s' (%s at %.1f,%.1f-%.1f,%.1f)",
				      name, t[i].s, t[i].cls, t[i].box.x0, t[i].box.y0,
				      t[i].box.x1, t[i].box.y1, t[k].s, t[k].cls,
				      t[k].box.x0, t[k].box.y0, t[k].box.x1, t[k].box.y1);
}

/* The labels of the tick texts on row y (349.0: the top panel's x axis,
 * 643.0: the bottom's), in order, '|' after each. */
static void ticks_at(const char *svg, const char *y, char *buf, size_t len)
{
	char key[48];
	size_t k = 0;

	snprintf(key, sizeof(key), "y=\"%s\" class=\"tick\"", y);
	buf[0] = '\0';
	for (const char *p = svg; (p = strstr(p, key)); p++) {
		const char *body = strchr(p, '>') + 1;
		size_t n = strcspn(body, "<");

		ck_assert_uint_lt(k + n + 1, len);
		memcpy(buf + k, body, n);
		k += n;
		buf[k++] = '|';
		buf[k] = '\0';
	}
}

/* What every plot must be: an SVG document of its own on the canvas,
 * with the texts `want` (up to 6, NULL-ended), no NaN or infinity, and
 * no text over another. */
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
	check_no_overlap(name, svg);
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

/* The legend's p99 and max keys are drawn as the lines are, thick (2.5)
 * and thin (1), in no probe's colour (grey): they are every probe's, and
 * the probes' own keys give the colours. */
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
	ck_assert_msg(!strncmp(strstr(line, "stroke="), "stroke=\"#555\" stroke-width=\"2.5\"", 32),
		      "p99 key: %.80s", line);
	for (const char *k = svg; (k = strstr(k, "<line ")) && k < max; k++)
		line = k;
	ck_assert_msg(!strncmp(strstr(line, "stroke="), "stroke=\"#555\" stroke-width=\"1.0\"", 32),
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

/* The traced device's mean write time is one dashed line on the latency
 * panel, broken where an interval saw no write, and its key
 * fits in the legend with three probes; untraced, neither. */
START_TEST(test_device_line)
{
	size_t len;
	char *svg = render(&rows[N_ROWS(rows) - 1], &len);
	const char *path = strstr(svg, "stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" stroke-linejoin");
	const char *stall = strstr(svg, ">stall<");
	const char *x;

	ck_assert_ptr_nonnull(path);
	{	/* two stretches in its d: the gap */
		const char *d = strstr(path, "d=\""), *end = strstr(d + 3, "\"");
		unsigned int moves = 0;

		for (const char *c = d + 3; c < end; c++)
			moves += *c == 'M';
		ck_assert_uint_eq(moves, 2);
	}
	ck_assert_ptr_nonnull(stall);
	for (x = stall; x > svg && strncmp(x, "<text x=\"", 9); x--)
		;
	/* the last key ends inside the 1200 px width */
	ck_assert_double_le(strtod(x + 9, NULL) + 7.0 * 5, 1200);
	free(svg);
	svg = render(&rows[4], &len);
	ck_assert_ptr_null(strstr(svg, "device write"));
	ck_assert_ptr_null(strstr(svg, "stroke=\"#444\""));
	free(svg);
}
END_TEST

static const struct row *row_named(const char *name)
{
	for (int i = 0; i < N_ROWS(rows); i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	ck_abort_msg("no row %s", name);
	return NULL;
}

/* The steady label of the low steady state: not on its first spot,
 * below the diamond, where it covered the tick labels, but the next
 * that is clear: to the left at the same height, still in the panel. */
START_TEST(test_label_off_ticks)
{
	size_t len;
	char *svg = render(row_named("low steady"), &len);
	struct text t[TEXTS_MAX];
	int n = texts_of(svg, t, TEXTS_MAX), i = 0;

	while (i < n && strcmp(t[i].s, "steady 5.0 MiB/s"))
		i++;
	ck_assert_int_lt(i, n);
	ck_assert_double_le(t[i].box.y1, 334);		/* above the panel's bottom */
	for (int k = 0; k < n; k++)
		if (!strcmp(t[k].cls, "tick"))
			ck_assert(!svg_boxes_meet(&t[i].box, &t[k].box));
	free(svg);
}
END_TEST

/* The bytes axis reads in MiB for a 120 MiB run and in GiB for 7 GiB:
 * its title, its ticks and the slowdown's label in the one unit. */
static const struct {
	const char *row, *title, *ticks, *label, *not;
} bytes_axes[] = {
	{ "small", ">MiB written<", "0|20|40|60|80|100|120|",
	  ">slowed at 90.0 MiB<", ">GiB written<" },
	{ "big", ">GiB written<", "0|1|2|3|4|5|6|7|",
	  ">slowed at 5.86 GiB<", ">MiB written<" },
};

START_TEST(test_bytes_axis_unit)
{
	size_t len;
	char *svg = render(row_named(bytes_axes[_i].row), &len);
	char ticks[256];

	ck_assert_msg(strstr(svg, bytes_axes[_i].title), "no %s", bytes_axes[_i].title);
	ck_assert_msg(!strstr(svg, bytes_axes[_i].not), "%s", bytes_axes[_i].not);
	ck_assert_msg(strstr(svg, bytes_axes[_i].label), "no %s", bytes_axes[_i].label);
	ticks_at(svg, "349.0", ticks, sizeof(ticks));
	ck_assert_str_eq(ticks, bytes_axes[_i].ticks);
	free(svg);
}
END_TEST

/* A run of 63.9 s: the time axis ends at 63.9 (its last tick, 60, at
 * 80 + 60 / 63.9 * 1080), not at 65; the last phase's band, in both
 * panels, reaches the right edge: no unshaded stretch past the run. */
START_TEST(test_axes_end_with_run)
{
	size_t len;
	char *svg = render(row_named("tail"), &len);
	char ticks[256];
	const char *band;
	double x, w;

	ticks_at(svg, "643.0", ticks, sizeof(ticks));
	ck_assert_str_eq(ticks, "0|5|10|15|20|25|30|35|40|45|50|55|60|");
	ck_assert(strstr(svg, "<text x=\"1094.1\" y=\"643.0\" class=\"tick\" "
			      "text-anchor=\"middle\">60</text>"));
	ck_assert_uint_eq(count(svg, "class=\"band1\""), 2);
	for (band = svg; (band = strstr(band, "class=\"band1\"")); band++) {
		const char *r = band;

		while (strncmp(r, "<rect ", 6))
			r--;
		ck_assert_int_eq(sscanf(r, "<rect x=\"%lf\" y=\"%*f\" width=\"%lf\"", &x, &w), 2);
		ck_assert_double_eq_tol(x + w, 1160, 0.11);
	}
	/* and the bytes axis ends with the bytes: 4.30 GiB, ticks to 4 */
	ticks_at(svg, "349.0", ticks, sizeof(ticks));
	ck_assert_str_eq(ticks, "0.0|0.5|1.0|1.5|2.0|2.5|3.0|3.5|4.0|");
	free(svg);
}
END_TEST

/* The sink keeps a previous file (an earlier plot of ours) when no
 * summary came. */
START_TEST(test_close_without_summary)
{
	static const char old[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				  "<svg xmlns=\"http://www.w3.org/2000/svg\">\n"
				  "<title>writestress — old</title>\n";
	struct sink_set set = { .n = 0 };
	char dir[] = "/tmp/ws-svg-XXXXXX", path[64], err[256], back[sizeof(old)] = "";
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.svg", dir);
	f = fopen(path, "w");
	fputs(old, f);
	fclose(f);
	ck_assert_int_eq(sink_add_file(&set, &sink_svg_ops, path, err, sizeof(err)), 0);
	ck_assert_int_lt(sink_close_all(&set), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(back, 1, sizeof(back) - 1, f), sizeof(old) - 1);
	ck_assert_str_eq(back, old);
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
	  { "8.000 GiB written in 63.90 s (128.2 MiB/s)", "240.0 MiB/s", "56.4 MiB/s",
	    "steady 56.4 MiB/s", ">slowed<", "4 stalls ≥ 500 ms" } },
	{ "sink_svg_signal.svg", FIXTURE_SIGNAL, { " — stopped by SIGINT" } },
	{ "sink_svg_error.svg", FIXTURE_ERROR,
	  { " — failed: reserve: No space left on device" } },
};

START_TEST(test_golden)
{
	const struct golden *g = &goldens[_i];
	const struct record_fixture *f = record_fixture_shared(g->ending);
	size_t len;
	char *svg = record_fixture_render(f, &sink_svg_ops, &len);

	check_plot(g->file, svg, len, g->want);
	ck_assert_msg(strstr(svg, ">writestress @VERSION@</text>"), "no version");
	golden_check(g->file, svg, len);
	free(svg);
}
END_TEST

Suite *sink_svg_suite(void)
{
	Suite *s = suite_create("sink_svg");
	TCase *plot = tcase_create("plot");
	TCase *golden = tcase_create("golden");

	tcase_add_loop_test(plot, test_plot, 0, N_ROWS(rows));
	tcase_add_test(plot, test_stall_bars);
	tcase_add_test(plot, test_device_line);
	tcase_add_test(plot, test_legend_keys_match_lines);
	tcase_add_test(plot, test_label_off_ticks);
	tcase_add_loop_test(plot, test_bytes_axis_unit, 0, N_ROWS(bytes_axes));
	tcase_add_test(plot, test_axes_end_with_run);
	tcase_add_test(plot, test_close_without_summary);
	suite_add_tcase(s, plot);
	tcase_add_loop_test(golden, test_golden, 0, N_ROWS(goldens));
	suite_add_tcase(s, golden);
	return s;
}
