/* test_analysis_props.c - the analysis never contradicts its own figures:
 * properties held on every run the tests have and on generated ones.
 *
 * The runs: every recorded trace (tests/fixtures/trace/NAME.events, the
 * device's completed writes in spans of 250 ms, judged with intervals of
 * 1 s and of 250 ms), the compare fixtures that carry intervals
 * (tests/fixtures/compare/NAME.json, their intervals as the marks), the
 * sinks' record (unit/record_fixture.c, each ending, its own analysis),
 * and seeded pseudo-random runs: flat, steps up or down by 1.5x to 10x at
 * random places, spikes, spans that wrote nothing, runs of 1 to 5
 * intervals, a tmpfs's huge first interval, an unpaced run's final wait.
 *
 * What must hold on each, checked here from the run's own spans (the
 * marks that wrote something, one that wrote nothing lending its time to
 * the one before, then what reached the disk after the last), not from
 * the analysis's helpers:
 *   - the phases tile the run: from its start to its end, no gap, no
 *     overlap, each on the spans' edges;
 *   - a phase's rate lies within the rates of the spans it covers;
 *   - a change of more than 2x lasting at least a third of the run is a
 *     phase: within a phase no stretch of a third of the run's time or
 *     more is more than 2x apart from the phase's part before it, where
 *     that part is a level (an interval long, or a third of the run's
 *     bytes); or the run is marked too short, which it is exactly when
 *     it is under 6 intervals or 2 spans;
 *   - the slowdown is where a phase starts, the phases from it below 80%
 *     of the first, the one before not;
 *   - steady state reached from the round after a phase boundary starts
 *     at that boundary;
 *   - "at the cgroup's limit" only within 10% of it, "above" or "below"
 *     it otherwise (recorded stalls replayed, and made-up figures).
 * Each property fails with one of its fixes reverted (see CHANGES). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "analysis/analysis.h"
#include "record_fixture.h"
#include "suites.h"
#include "trace/evidence.h"
#include "trace/stallcause.h"
#include "trace/trace_fixture.h"

#define MIB 1048576ull
#define MS 1000000ull
#define SEC 1000000000ull
#define MAX_PTS 2048

/* ---- the run's spans, as the man page defines them ---- */

struct spans {
	struct ws_point s[MAX_PTS + 1];
	size_t n;
	uint64_t end_ns;
};

static uint64_t start_bytes(const struct ws_point *p)
{
	return p->bytes - p->dbytes;
}

static uint64_t start_ns(const struct ws_point *p)
{
	return p->t_ns - p->dt_ns;
}

/* b joins a: a's start, b's end. */
static void join(struct ws_point *a, const struct ws_point *b)
{
	a->t_ns = b->t_ns;
	a->bytes = b->bytes;
	a->dt_ns += b->dt_ns;
	a->dbytes += b->dbytes;
}

/* A mark that wrote nothing lends its time to the span before it (one at
 * the start borrows the next's bytes), but the last, the final wait after
 * some that wrote, is a span of its own; then what reached the disk after
 * the last mark, up to the run's end. */
static void spans_of(const struct ws_analysis_input *in, struct spans *sp)
{
	sp->n = 0;
	for (size_t i = 0; i < in->nmarks; i++) {
		struct ws_point *last = sp->n ? &sp->s[sp->n - 1] : NULL;
		bool final_wait = i + 1 == in->nmarks && i > 0 && !in->marks[i].dbytes &&
				  last->dbytes;

		if (last && !final_wait && (!in->marks[i].dbytes || !last->dbytes))
			join(last, &in->marks[i]);
		else
			sp->s[sp->n++] = in->marks[i];
	}
	if (sp->n) {
		struct ws_point *last = &sp->s[sp->n - 1];

		if (in->elapsed_ns >= last->t_ns && in->end_bytes >= last->bytes &&
		    (in->elapsed_ns > last->t_ns || in->end_bytes > last->bytes)) {
			struct ws_point tail = {
				.t_ns = in->elapsed_ns, .bytes = in->end_bytes,
				.dt_ns = in->elapsed_ns - last->t_ns,
				.dbytes = in->end_bytes - last->bytes,
			};

			if (tail.dt_ns && last->dbytes)
				sp->s[sp->n++] = tail;
			else
				join(last, &tail);
		}
	}
	sp->end_ns = sp->n ? sp->s[sp->n - 1].t_ns : 0;
}

static double span_rate(const struct ws_point *p)
{
	return p->dt_ns ? (double)p->dbytes / (double)MIB * 1e9 / (double)p->dt_ns : 0;
}

/* a over b more than 2x apart, with room for rounding. */
static bool more_than_2x(double a, double b)
{
	double hi = a > b ? a : b, lo = a > b ? b : a;

	return hi > 2 * lo * (1 + 1e-9);
}

/* ---- the properties ---- */

static char why[512];

#define FAIL(...) do { snprintf(why, sizeof(why), __VA_ARGS__); return why; } while (0)

static const char *check_tiling(const struct spans *sp, const struct ws_analysis *a)
{
	for (unsigned int i = 0; i < a->nphases; i++) {
		const struct ws_phase *ph = &a->phases[i];

		if (ph->first > ph->last || ph->last >= sp->n)
			FAIL("phase %u: spans %zu..%zu of %zu", i, ph->first, ph->last, sp->n);
		if (ph->first != (i ? a->phases[i - 1].last + 1 : 0))
			FAIL("phase %u starts at span %zu, not after the one before", i, ph->first);
		if (ph->from_bytes != start_bytes(&sp->s[ph->first]) ||
		    ph->from_ns != start_ns(&sp->s[ph->first]) ||
		    ph->to_bytes != sp->s[ph->last].bytes || ph->to_ns != sp->s[ph->last].t_ns)
			FAIL("phase %u: %llu..%llu bytes, %llu..%llu ns: not its spans' edges",
			     i, (unsigned long long)ph->from_bytes, (unsigned long long)ph->to_bytes,
			     (unsigned long long)ph->from_ns, (unsigned long long)ph->to_ns);
	}
	if (a->nphases && a->phases[a->nphases - 1].last != sp->n - 1)
		FAIL("the phases end at span %zu of %zu", a->phases[a->nphases - 1].last, sp->n);
	return NULL;
}

static const char *check_rates(const struct spans *sp, const struct ws_analysis *a)
{
	for (unsigned int i = 0; i < a->nphases; i++) {
		const struct ws_phase *ph = &a->phases[i];
		double lo = 1e300, hi = 0;

		for (size_t k = ph->first; k <= ph->last; k++) {
			double r = span_rate(&sp->s[k]);

			lo = r < lo ? r : lo;
			hi = r > hi ? r : hi;
		}
		if (ph->mibps < lo * (1 - 1e-9) || ph->mibps > hi * (1 + 1e-9))
			FAIL("phase %u at %.3f MiB/s, its spans %.3f..%.3f", i, ph->mibps, lo, hi);
	}
	if (a->nphases && a->initial_mibps != a->phases[0].mibps)
		FAIL("initial %.3f, the first phase %.3f", a->initial_mibps, a->phases[0].mibps);
	return NULL;
}

/* Within each phase: [first, k), a level (an interval long, or a third
 * of the run's bytes), against [k, c) of a third of the run's time. */
static const char *check_lasting(const struct spans *sp, const struct ws_analysis *a)
{
	static uint64_t cb[MAX_PTS + 2], ct[MAX_PTS + 2];
	uint64_t T = sp->end_ns, iv = a->params.interval_ns;

	cb[0] = ct[0] = 0;
	for (size_t i = 0; i < sp->n; i++) {
		cb[i + 1] = cb[i] + sp->s[i].dbytes;
		ct[i + 1] = ct[i] + sp->s[i].dt_ns;
	}
	for (unsigned int i = 0; i < a->nphases; i++) {
		size_t f = a->phases[i].first, end = a->phases[i].last + 1;

		for (size_t k = f + 1; k < end; k++) {
			double before = (double)(cb[k] - cb[f]) / (double)(ct[k] - ct[f]);

			if (ct[k] - ct[f] < iv && (cb[k] - cb[f]) * 3 < cb[sp->n])
				continue;	/* a burst, no level */

			for (size_t c = k + 1; c <= end; c++) {
				double after;

				if ((ct[c] - ct[k]) * 3 < T)
					continue;
				after = (double)(cb[c] - cb[k]) / (double)(ct[c] - ct[k]);
				if (more_than_2x(before, after))
					FAIL("phase %u (spans %zu..%zu) hides a change: %.3f MiB/s, "
					     "then %.3f for spans %zu..%zu (%.1f%% of the run)",
					     i, f, end - 1, before / MIB * 1e9, after / MIB * 1e9,
					     k, c - 1, 100.0 * (double)(ct[c] - ct[k]) / (double)T);
			}
		}
	}
	return NULL;
}

static const char *check_slowdown(const struct ws_analysis *a)
{
	double thr = a->params.slowdown_fraction * a->initial_mibps;
	bool should = a->phases_verdict == WS_PHASES_JUDGED && a->nphases >= 2 &&
		      a->phases[a->nphases - 1].mibps < thr;
	unsigned int j;

	if (a->slowed != should)
		FAIL("slowed %d, the last phase at %.3f against %.3f", a->slowed,
		     a->nphases ? a->phases[a->nphases - 1].mibps : 0, thr);
	if (!a->slowed)
		return NULL;
	for (j = 1; j < a->nphases; j++)
		if (a->phases[j].from_bytes == a->slowdown_bytes &&
		    a->phases[j].from_ns == a->slowdown_ns)
			break;
	if (j == a->nphases)
		FAIL("slowed from %llu bytes (%llu ns): where no phase starts",
		     (unsigned long long)a->slowdown_bytes, (unsigned long long)a->slowdown_ns);
	if (!(a->phases[j - 1].mibps >= thr))
		FAIL("slowed at phase %u, the one before already below %.3f", j, thr);
	for (unsigned int k = j; k < a->nphases; k++)
		if (!(a->phases[k].mibps < thr))
			FAIL("slowed from phase %u, phase %u at %.3f not below %.3f", j, k,
			     a->phases[k].mibps, thr);
	return NULL;
}

static const char *check_steady(const struct ws_analysis *a)
{
	const struct ws_steady *st = &a->steady;
	uint64_t g, from_ns = 0, from_bytes = 0;
	bool boundary = false;

	if (!st->reached || a->phases_verdict != WS_PHASES_JUDGED)
		return NULL;
	g = (uint64_t)st->final.first_round * st->round_ns;
	for (unsigned int j = 1; j < a->nphases; j++)
		if (a->phases[j].from_ns < g && a->phases[j].from_ns + st->round_ns > g) {
			boundary = true;
			from_ns = a->phases[j].from_ns;
			from_bytes = a->phases[j].from_bytes;
		}
	if (boundary && (st->final.from_ns != from_ns || st->final.from_bytes != from_bytes))
		FAIL("steady from %llu ns, the phase boundary in the round before at %llu ns",
		     (unsigned long long)st->final.from_ns, (unsigned long long)from_ns);
	if (!boundary && st->final.from_ns != g)
		FAIL("steady from %llu ns, its first round at %llu ns",
		     (unsigned long long)st->final.from_ns, (unsigned long long)g);
	return NULL;
}

static struct spans the_spans;

/* Every property of a's phases, slowdown and steady state on in. */
static const char *check(const struct ws_analysis_input *in, const struct ws_analysis *a)
{
	struct spans *sp = &the_spans;
	bool short_run;
	const char *err;

	spans_of(in, sp);
	short_run = sp->n < 2 || sp->end_ns < 6 * a->params.interval_ns;
	if (!sp->n) {
		if (a->nphases || a->phases_verdict != WS_PHASES_NONE)
			FAIL("no spans, %u phases, verdict %d", a->nphases, a->phases_verdict);
		return NULL;
	}
	if (a->phases_spans != sp->n || a->phases_run_ns != sp->end_ns)
		FAIL("judged over %zu spans, %llu ns; the run has %zu, %llu ns", a->phases_spans,
		     (unsigned long long)a->phases_run_ns, sp->n, (unsigned long long)sp->end_ns);
	if (a->phases_verdict != (short_run ? WS_PHASES_TOO_SHORT : WS_PHASES_JUDGED))
		FAIL("verdict %s over %zu spans, %.3f intervals", ws_phases_verdict_key(a->phases_verdict),
		     sp->n, (double)sp->end_ns / (double)a->params.interval_ns);
	if (short_run && a->nphases != 1)
		FAIL("too short, yet %u phases", a->nphases);
	if ((err = check_tiling(sp, a)) || (err = check_rates(sp, a)) ||
	    (!short_run && (err = check_lasting(sp, a))) || (err = check_slowdown(a)) ||
	    (err = check_steady(a)))
		return err;
	return NULL;
}

/* The pipeline on in with interval iv; fails the test with name. */
static void run_and_check(const char *name, const struct ws_analysis_input *in, uint64_t iv)
{
	struct ws_analysis_params p;
	struct ws_analysis a;
	const char *err;

	analysis_defaults(&p);
	p.interval_ns = iv;
	ck_assert_int_eq(analysis_run(in, &p, &a), 0);
	err = check(in, &a);
	analysis_release(&a);
	if (err)
		ck_abort_msg("%s: %s", name, err);
}

/* ---- generated runs ---- */

static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* [0, 1) */
static double unit(uint64_t *s)
{
	return (double)(next_rand(s) >> 11) / (double)(UINT64_C(1) << 53);
}

static size_t below(uint64_t *s, size_t n)
{
	return (size_t)(next_rand(s) % n);
}

/* lo * (hi / lo)^u */
static double log_uniform(uint64_t *s, double lo, double hi)
{
	return lo * pow(hi / lo, unit(s));
}

static struct ws_point gen_pts[MAX_PTS];

/* Seed's run: gen_pts and in; its reporting interval. */
static uint64_t generate(uint64_t seed, struct ws_analysis_input *in, char *name, size_t len)
{
	static const uint64_t intervals[] = { SEC, SEC, SEC, 250 * MS, 10 * SEC };
	double rate[MAX_PTS];
	uint64_t s = seed, iv = intervals[below(&s, 5)], t = 0, bytes = 0;
	bool short_run = below(&s, 6) == 0;
	double nint = short_run ? 0.5 + unit(&s) * 5 : 6 + (double)below(&s, 150);
	size_t per = 1 + below(&s, 4), n = (size_t)(nint * (double)per), i;
	double base = log_uniform(&s, 1, 3000), noise = unit(&s) * 0.1;
	unsigned int steps = (unsigned int)below(&s, 4), spikes = (unsigned int)below(&s, 5);
	unsigned int zeros = (unsigned int)below(&s, 4);
	bool tmpfs = below(&s, 8) == 0, unpaced = below(&s, 8) == 0, tail = below(&s, 3) == 0;

	if (n < 1)
		n = 1;
	if (n > MAX_PTS - 2)
		n = MAX_PTS - 2;
	for (i = 0; i < n; i++)
		rate[i] = base;
	for (unsigned int k = 0; k < steps; k++) {
		size_t at = below(&s, n);
		double x = 1.5 + unit(&s) * 8.5;

		if (below(&s, 2))
			x = 1 / x;
		for (i = at; i < n; i++)
			rate[i] *= x;
	}
	for (unsigned int k = 0; k < spikes; k++)
		rate[below(&s, n)] *= below(&s, 2) ? 0.1 + unit(&s) * 0.4 : 2 + unit(&s) * 8;
	for (unsigned int k = 0; k < zeros; k++) {
		size_t at = below(&s, n), len2 = 1 + below(&s, 3);

		for (i = at; i < n && i < at + len2; i++)
			rate[i] = 0;
	}
	if (tmpfs)
		for (i = 0; i < per && i < n; i++)
			rate[i] *= 8;
	for (i = 0; i < n; i++) {
		uint64_t dt = iv / per;
		uint64_t db;

		dt = (uint64_t)((double)dt * (0.8 + 0.4 * unit(&s)));
		if (!dt)
			dt = 1;
		db = (uint64_t)(rate[i] * (1 + noise * (2 * unit(&s) - 1)) * (double)MIB *
				(double)dt / 1e9);
		t += dt;
		bytes += db;
		gen_pts[i] = (struct ws_point){ .t_ns = t, .dt_ns = dt, .bytes = bytes, .dbytes = db };
		gen_pts[i].mibps = ws_mibps(db, dt);
	}
	*in = (struct ws_analysis_input){
		.marks = gen_pts, .nmarks = n, .writing_ns = t, .elapsed_ns = t, .end_bytes = bytes,
	};
	if (unpaced) {	/* the final wait: a mark that wrote nothing */
		uint64_t dt = iv * (1 + below(&s, (size_t)nint + 1));

		t += dt;
		gen_pts[n++] = (struct ws_point){ .t_ns = t, .dt_ns = dt, .bytes = bytes };
		in->nmarks = n;
		in->elapsed_ns = t;
	} else if (tail) {	/* a window reached the disk after the last mark */
		in->end_bytes = bytes + (1 + below(&s, 16)) * MIB;
		in->elapsed_ns = t + (1 + below(&s, 500)) * MS;
	}
	snprintf(name, len, "seed %llu (%zu marks, %.1f intervals of %llu ms, %u steps, %u spikes, "
		 "%u zeros%s%s%s)", (unsigned long long)seed, n, nint,
		 (unsigned long long)(iv / MS), steps, spikes, zeros, tmpfs ? ", tmpfs" : "",
		 unpaced ? ", unpaced" : "", tail ? ", tail" : "");
	return iv;
}

#define GEN_RUNS 400

START_TEST(test_generated)
{
	char name[256];

	for (uint64_t k = 0; k < GEN_RUNS; k++) {
		struct ws_analysis_input in;
		uint64_t iv = generate((uint64_t)_i * GEN_RUNS + k, &in, name, sizeof(name));

		run_and_check(name, &in, iv);
	}
}
END_TEST

/* The shapes the issue named, as literals: an unpaced 100 MiB run whose
 * final wait took four intervals of its five, and ten; a tmpfs's 3 s at
 * 1480, 152, 144 MiB/s, and 30 s of it. */
START_TEST(test_named_runs)
{
	struct ws_analysis_input in;
	size_t n = 0;

	/* four marks of 25 MiB in the first second, then 4 s of the wait */
	for (int i = 0; i < 4; i++)
		gen_pts[n++] = (struct ws_point){ .t_ns = (uint64_t)(i + 1) * 250 * MS,
						  .dt_ns = 250 * MS,
						  .bytes = (uint64_t)(i + 1) * 25 * MIB,
						  .dbytes = 25 * MIB, .mibps = 100 };
	gen_pts[n++] = (struct ws_point){ .t_ns = 5 * SEC, .dt_ns = 4 * SEC, .bytes = 100 * MIB };
	in = (struct ws_analysis_input){ .marks = gen_pts, .nmarks = n, .writing_ns = SEC,
					 .elapsed_ns = 5 * SEC, .end_bytes = 100 * MIB };
	run_and_check("unpaced, 5 s", &in, SEC);
	gen_pts[n - 1].t_ns = 10 * SEC;
	gen_pts[n - 1].dt_ns = 9 * SEC;
	in.elapsed_ns = 10 * SEC;
	run_and_check("unpaced, 10 s", &in, SEC);

	for (int len = 3; len <= 30; len += 27) {
		uint64_t bytes = 0;

		n = 0;
		for (int i = 0; i < 4 * len; i++) {
			double r = i < 4 ? 1480 : i < 8 ? 152 : 144;
			uint64_t db = (uint64_t)(r * (double)MIB / 4);

			bytes += db;
			gen_pts[n++] = (struct ws_point){ .t_ns = (uint64_t)(i + 1) * 250 * MS,
							  .dt_ns = 250 * MS, .bytes = bytes,
							  .dbytes = db, .mibps = r };
		}
		in = (struct ws_analysis_input){ .marks = gen_pts, .nmarks = n,
						 .writing_ns = (uint64_t)len * SEC,
						 .elapsed_ns = (uint64_t)len * SEC, .end_bytes = bytes };
		run_and_check(len == 3 ? "tmpfs, 3 s" : "tmpfs, 30 s", &in, SEC);
	}
}
END_TEST

/* ---- recorded runs ---- */

static const char *const traces[] = {
	"bios-ext4-loop.events", "device-ext4-loop.events", "dirty-ext4-loop.events",
	"flood-ext4-loop.events", "journal-ext4-loop.events", "limit-ext4-loop.events", "limit-file-ext4-loop.events",
	"lost-ext4-loop.events", "queue-ext4-loop.events", "unknown-ext4-loop.events",
	"wbt-ext4-loop.events", "window-ext4-loop.events", "xfs-loop.events",
};

/* Every recorded trace is here: one added to the directory is judged too. */
START_TEST(test_every_trace_listed)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	source_path(path, sizeof(path), "tests/fixtures/trace");
	d = opendir(path);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name), k;

		if (len < 7 || strcmp(e->d_name + len - 7, ".events"))
			continue;
		for (k = 0; k < sizeof(traces) / sizeof(traces[0]); k++)
			if (!strcmp(traces[k], e->d_name))
				break;
		ck_assert_msg(k < sizeof(traces) / sizeof(traces[0]),
			      "%s is not judged here", e->d_name);
	}
	closedir(d);
}
END_TEST

/* The device's completed writes in spans of 250 ms from the origin. */
static size_t trace_points(const struct recorded *r, uint64_t *end_bytes)
{
	uint64_t origin = r->origin_ns, last = 0, bytes = 0;
	size_t n = 0;

	if (!origin) {
		origin = UINT64_MAX;
		for (size_t i = 0; i < r->n; i++)
			if (r->ev[i].kind == TE_BLOCK && r->ev[i].blk.ts_ns < origin)
				origin = r->ev[i].blk.ts_ns;
	}
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].kind == TE_BLOCK && r->ev[i].blk.ts_ns > last)
			last = r->ev[i].blk.ts_ns;
	for (uint64_t t = origin; t < last && n < MAX_PTS; t += 250 * MS) {
		uint64_t db = 0;

		for (size_t i = 0; i < r->n; i++) {
			const struct blk_event *b = &r->ev[i].blk;

			if (r->ev[i].kind == TE_BLOCK && b->kind == BLK_COMPLETE &&
			    strchr(b->rwbs, 'W') && b->ts_ns >= t && b->ts_ns < t + 250 * MS)
				db += (uint64_t)b->nr_sector * 512;
		}
		bytes += db;
		gen_pts[n] = (struct ws_point){ .t_ns = t + 250 * MS - origin, .dt_ns = 250 * MS,
						.bytes = bytes, .dbytes = db };
		gen_pts[n].mibps = ws_mibps(db, 250 * MS);
		n++;
	}
	*end_bytes = bytes;
	return n;
}

START_TEST(test_recorded_traces)
{
	struct recorded r;
	struct ws_analysis_input in = { .marks = gen_pts };
	char name[128];

	recorded_load(traces[_i], &r);
	in.nmarks = trace_points(&r, &in.end_bytes);
	ck_assert_uint_gt(in.nmarks, 0);
	in.writing_ns = in.elapsed_ns = gen_pts[in.nmarks - 1].t_ns;
	snprintf(name, sizeof(name), "%s, intervals of 1 s", traces[_i]);
	run_and_check(name, &in, SEC);
	snprintf(name, sizeof(name), "%s, intervals of 250 ms", traces[_i]);
	run_and_check(name, &in, 250 * MS);
	recorded_free(&r);
}
END_TEST

/* The compare fixtures: intervals as marks (those files predate them). */
START_TEST(test_compare_fixtures)
{
	static const char *const files[] = { "window.json", "none.json", "regressed.json",
					     "partial.json" };
	unsigned int judged = 0;

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char rel[128], path[4096];
		struct json_object *d, *ivs, *cfg, *x;
		struct ws_analysis_input in = { .marks = gen_pts };
		uint64_t prev_bytes = 0, prev_ns = 0, iv;
		size_t n;

		snprintf(rel, sizeof(rel), "tests/fixtures/compare/%s", files[f]);
		source_path(path, sizeof(path), rel);
		d = json_object_from_file(path);
		ck_assert_msg(d, "cannot read %s", path);
		if (!json_object_object_get_ex(d, "intervals", &ivs)) {
			json_object_put(d);	/* partial.json: a summary only */
			continue;
		}
		ck_assert(json_object_object_get_ex(d, "config", &cfg));
		ck_assert(json_object_object_get_ex(cfg, "interval_s", &x));
		iv = (uint64_t)(json_object_get_double(x) * 1e9 + 0.5);
		n = json_object_array_length(ivs);
		ck_assert_uint_le(n, MAX_PTS);
		for (size_t i = 0; i < n; i++) {
			struct json_object *o = json_object_array_get_idx(ivs, i), *t, *b;
			uint64_t ns, bytes;

			ck_assert(json_object_object_get_ex(o, "t_s", &t));
			ck_assert(json_object_object_get_ex(o, "bytes", &b));
			ns = (uint64_t)(json_object_get_double(t) * 1e9 + 0.5);
			bytes = (uint64_t)json_object_get_int64(b);
			gen_pts[i] = (struct ws_point){ .t_ns = ns, .dt_ns = ns - prev_ns,
							.bytes = bytes, .dbytes = bytes - prev_bytes };
			gen_pts[i].mibps = ws_mibps(bytes - prev_bytes, ns - prev_ns);
			prev_ns = ns;
			prev_bytes = bytes;
		}
		in.nmarks = n;
		in.writing_ns = in.elapsed_ns = prev_ns;
		in.end_bytes = prev_bytes;
		run_and_check(files[f], &in, iv);
		judged++;
		json_object_put(d);
	}
	ck_assert_uint_eq(judged, 3);
}
END_TEST

/* The sinks' record, each ending: its own analysis, as the sinks print it. */
START_TEST(test_record_fixture)
{
	const struct record_fixture *f = record_fixture_shared((enum fixture_ending)_i);
	struct ws_analysis_input in = {
		.marks = f->progress.pts, .nmarks = f->progress.n,
		.end_bytes = f->sum.bytes, .elapsed_ns = f->sum.elapsed_ns,
	};
	const char *err = check(&in, &f->analysis);

	ck_assert_msg(!err, "record fixture %d: %s", _i, err);
	/* the two targets' own */
	for (int t = 0; f->part[0] && t < 2; t++) {
		const struct record_fixture *g = f->part[t];

		in = (struct ws_analysis_input){
			.marks = g->progress.pts, .nmarks = g->progress.n,
			.end_bytes = g->sum.bytes, .elapsed_ns = g->sum.elapsed_ns,
		};
		err = check(&in, &g->analysis);
		ck_assert_msg(!err, "record fixture %d, target %d: %s", _i, t + 1, err);
	}
}
END_TEST

/* ---- the cgroup's limit in words ---- */

static const char *limit_check(const struct ws_stall *st, const char *words)
{
	double x = st->reason.limit.rate / (double)st->reason.limit.limit;
	const char *want = x < 0.9 ? " below the cgroup's limit" :
			   x > 1.1 ? " above the cgroup's limit" : " at the cgroup's limit";

	if (!strstr(words, want))
		FAIL("rate %.6g, limit %llu (x%.4f): \"%s\", not%s", st->reason.limit.rate,
		     (unsigned long long)st->reason.limit.limit, x, words, want);
	return NULL;
}

START_TEST(test_limit_words_generated)
{
	uint64_t s = 42;

	for (int k = 0; k < 20000; k++) {
		struct ws_stall st = { .reason = { .cause = WS_CAUSE_LIMIT } };
		char words[WS_STALL_WORDS_LEN];
		double x = 0.5 + 1.5 * unit(&s);
		const char *err;

		st.reason.limit.requests = below(&s, 2);
		st.reason.limit.limit = st.reason.limit.requests ? 1 + below(&s, 5000) :
					(1 + below(&s, 1000)) * MIB / 4;
		st.reason.limit.rate = x * (double)st.reason.limit.limit;
		/* on an edge the rule itself decides: test_stall_words.c */
		if ((x > 0.9 - 1e-9 && x < 0.9 + 1e-9) || (x > 1.1 - 1e-9 && x < 1.1 + 1e-9))
			continue;
		ws_stall_words(&st, "fsync", words, sizeof(words));
		err = limit_check(&st, words);
		ck_assert_msg(!err, "%s", err);
	}
}
END_TEST

/* Each recorded stall explained again: a limit's words by the rule. */
START_TEST(test_limit_words_recorded)
{
	struct recorded r;
	struct evidence *ev = malloc(sizeof(*ev));

	ck_assert_ptr_nonnull(ev);
	recorded_load(traces[_i], &r);
	evidence_init(ev, r.origin_ns);
	ev->wbt_lat_us = r.wbt_lat_us;
	ev->wbt_traced = r.wbt_lat_us > 0;
	for (size_t i = 0; i < r.n; i++)
		evidence_event(ev, &r.ev[i]);
	evidence_settle(ev, true);
	for (unsigned int i = 0; i < r.nstalls; i++) {
		const struct recorded_stall *rs = &r.stalls[i];
		struct stall_query q = { rs->start_ns, rs->duration_ns, rs->site,
					 rs->tid, r.limit_bps, r.limit_iops };
		struct explained x;
		const char *err;

		if (explain_stall(ev, &q, &x) != WS_CAUSE_LIMIT) {
			ck_assert_ptr_null(strstr(x.why, "the cgroup's limit"));
			continue;
		}
		err = limit_check(&x.st, x.why);
		ck_assert_msg(!err, "%s, stall %u: %s", traces[_i], i, err);
	}
	recorded_free(&r);
	evidence_free(ev);
	free(ev);
}
END_TEST

#define NTRACES (int)(sizeof(traces) / sizeof(traces[0]))

Suite *analysis_props_suite(void)
{
	Suite *s = suite_create("analysis_props");
	TCase *gen = tcase_create("generated");
	TCase *rec = tcase_create("recorded");
	TCase *lim = tcase_create("limit");

	/* thousands of runs, each checked in O(spans^2): slow under sanitizers */
	tcase_set_timeout(gen, 60);
	tcase_add_loop_test(gen, test_generated, 0, 10);
	tcase_add_test(gen, test_named_runs);
	suite_add_tcase(s, gen);

	tcase_set_timeout(rec, 60);
	tcase_add_test(rec, test_every_trace_listed);
	tcase_add_loop_test(rec, test_recorded_traces, 0, NTRACES);
	tcase_add_test(rec, test_compare_fixtures);
	tcase_add_loop_test(rec, test_record_fixture, 0, FIXTURE_TWO_TARGETS + 1);
	suite_add_tcase(s, rec);

	tcase_set_timeout(lim, 60);
	tcase_add_test(lim, test_limit_words_generated);
	tcase_add_loop_test(lim, test_limit_words_recorded, 0, NTRACES);
	suite_add_tcase(s, lim);
	return s;
}
