/* test_recorder.c - the recorder suite: how intervals and progress marks
 * become the series the outputs show, and that the end of a run invents
 * no rate.  The thread runs for real against a snapshot the test drives;
 * the marks carry the test's own times, so no assertion depends on how
 * fast this machine is. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "system/clock.h"
#include "recorder/recorder.h"
#include "suites.h"
#include "lib/units.h"

#define MS UINT64_C(1000000)

START_TEST(test_fold_final)
{
	struct ws_interval prev = { .index = 3, .dt_ns = 1000 * MS,
				    .dbytes = 20 * WS_MIB, .mibps = 20,
				    .have_device = true, .dev_mibps = 20 };
	struct ws_interval iv = { .index = 4, .dt_ns = 50 * MS,
				  .dbytes = 5 * WS_MIB, .mibps = 100,
				  .have_device = true, .dev_mibps = 400 };

	/* 5 MiB in 50 ms is one piece's noise: with the interval before */
	recorder_fold_final(&prev, 1000 * MS, &iv);
	ck_assert_double_eq_tol(iv.mibps, 25.0 / 1.05, 1e-9);
	ck_assert_double_eq_tol(iv.dev_mibps, (20.0 + 400.0 * 0.05) / 1.05, 1e-9);
	ck_assert_uint_eq(iv.dbytes, 5 * WS_MIB);	/* its own figures stay */
	ck_assert_uint_eq(iv.dt_ns, 50 * MS);
	/* half an interval or more stands alone */
	iv = (struct ws_interval){ .index = 4, .dt_ns = 500 * MS,
				   .dbytes = 5 * WS_MIB, .mibps = 10 };
	recorder_fold_final(&prev, 1000 * MS, &iv);
	ck_assert_double_eq(iv.mibps, 10);
	/* the first interval has none before it */
	iv = (struct ws_interval){ .index = 0, .dt_ns = 50 * MS,
				   .dbytes = 5 * WS_MIB, .mibps = 100 };
	recorder_fold_final(&prev, 1000 * MS, &iv);
	ck_assert_double_eq(iv.mibps, 100);
}
END_TEST

START_TEST(test_final_mark_rule)
{
	ck_assert(recorder_final_mark_stands(0, 10));
	ck_assert(!recorder_final_mark_stands(8 * WS_MIB, 10));
	/* alone it is the run's average: bytes over elapsed */
	ck_assert(recorder_final_mark_stands(8 * WS_MIB, 0));
}
END_TEST

static struct recorder rep;
static struct ws_series series, progress;

/* A recorder thread over a snapshot the test drives as the writer would,
 * with no sinks: what it made of the run is in rep afterwards. */
struct fixture {
	struct ws_config cfg;
	struct ws_plan plan;
	struct ws_target target;
	struct ws_snapshot snap;
	struct sink_set sinks;
	struct ws_run run;
	pthread_t tid;
	uint64_t start;
};

/* cfg as config_defaults() leaves it, but for 20 ms intervals and what
 * tune() changes; the thread runs and the writer has started. */
static void fixture_start(struct fixture *f, uint64_t buffer_size,
			  void (*tune)(struct ws_config *cfg))
{
	memset(f, 0, sizeof(*f));
	config_defaults(&f->cfg);
	f->cfg.set.path = "fake";
	f->cfg.set.interval_ns = 20 * MS;
	if (tune)
		tune(&f->cfg);
	f->plan = (struct ws_plan){ .buffer_size = buffer_size, .total = WS_UNBOUNDED };
	recorder_make_run(&(struct recorder_sources){ .cfg = &f->cfg, .plan = &f->plan,
						      .target = &f->target }, &f->run);
	ck_assert_int_eq(snapshot_init(&f->snap), 0);
	ck_assert_int_eq(recorder_init(&rep, &f->run, NULL, &f->snap, &f->sinks, &series,
					 &progress), 0);
	recorder_baseline(&rep);
	ck_assert_int_eq(pthread_create(&f->tid, NULL, recorder_thread, &rep), 0);
	f->start = ws_now_ns();
	snapshot_start(&f->snap, f->start);
}

/* The writer ends at end_ns after its start; the recorder writes the
 * summary and its thread is joined. */
static void fixture_finish(struct fixture *f, uint64_t end_ns)
{
	struct ws_outcome o = { .reason = WS_STOP_BOUND, .end_ns = f->start + end_ns };

	snapshot_finish(&f->snap, &o);
	snapshot_close(&f->snap);
	pthread_join(f->tid, NULL);
}

static void fixture_release(struct fixture *f)
{
	recorder_destroy(&rep);
	snapshot_destroy(&f->snap);
}

/*
 * A paced writer at 100 MiB/s (10 MiB buffers, a mark every 100 ms, one
 * buffer pending at each) whose final wait returns 5 ms after its last
 * mark: the drain credits the pending buffer to those 5 ms, 2000 MiB/s.
 * With pending set, no progress point may exceed the marks' own rate.
 */
static void run_paced(uint64_t pending, uint64_t *max_x1000, uint64_t *last_bytes)
{
	struct fixture f;
	uint64_t t = 0, bytes = 0;
	double max = 0;

	fixture_start(&f, 10 * WS_MIB, NULL);
	for (int i = 0; i < 20; i++) {
		t += 100 * MS;
		bytes += 10 * WS_MIB;
		snapshot_add_bytes(&f.snap, 10 * WS_MIB, bytes + pending);
		snapshot_mark(&f.snap, t, bytes, pending);
	}
	snapshot_add_bytes(&f.snap, pending, bytes + pending);
	fixture_finish(&f, t + 5 * MS);

	ck_assert_uint_eq(rep.summary.bytes, bytes + pending);
	for (size_t i = 0; i < progress.n; i++)
		if (progress.pts[i].mibps > max)
			max = progress.pts[i].mibps;
	*max_x1000 = (uint64_t)(max * 1000);
	*last_bytes = progress.n ? progress.pts[progress.n - 1].bytes : 0;
	fixture_release(&f);
}

START_TEST(test_no_invented_peak)
{
	uint64_t max, last;

	run_paced(10 * WS_MIB, &max, &last);
	/* every mark was 100 MiB/s; the drain's 2000 MiB/s is left out */
	ck_assert_uint_le(max, 100 * 1000 + 1);
	ck_assert_uint_ge(max, 100 * 1000 - 1);
	ck_assert_uint_eq(last, 200 * WS_MIB);
	/* nothing pending: the final mark adds nothing and the series ends
	 * where the run did */
	run_paced(0, &max, &last);
	ck_assert_uint_le(max, 100 * 1000 + 1);
	ck_assert_uint_eq(last, 200 * WS_MIB);
}
END_TEST

/*
 * --until-steady asks the writer to end through the snapshot, with the
 * same pipeline as the summary: marks that hold one rate are steady after
 * a window; marks alternating 10 and 30 MiB/s a round never are, and after
 * --steady-max-rounds judged rounds the recorder gives up.
 */
static unsigned int max_rounds;

static void until_steady_cfg(struct ws_config *cfg)
{
	cfg->set.steady.until = true;
	cfg->set.steady.round_ns = 1000 * MS;
	cfg->set.steady.max_rounds = max_rounds;
}

static int until_steady(bool alternate, unsigned int max)
{
	struct fixture f;
	uint64_t t = 0, bytes = 0;
	int verdict = 0;

	max_rounds = max;
	fixture_start(&f, WS_MIB, until_steady_cfg);
	/* 20 rounds of 1 s, a mark every 250 ms */
	for (int i = 0; i < 80; i++) {
		uint64_t mib = alternate && (i / 4) % 2 ? 30 : 10;

		t += 250 * MS;
		bytes += mib * WS_MIB / 4;
		snapshot_add_bytes(&f.snap, mib * WS_MIB / 4, bytes);
		snapshot_mark(&f.snap, t, bytes, 0);
	}
	/* the recorder's next tick judges them; wait for its verdict, with
	 * no time budget (the test case's timeout means "hung") */
	while (!(verdict = atomic_load(&f.snap.verdict)))
		sched_yield();
	fixture_finish(&f, ws_now_ns() - f.start);
	fixture_release(&f);
	return verdict;
}

START_TEST(test_until_steady_verdicts)
{
	ck_assert_int_eq(until_steady(false, 25), WS_STOP_STEADY);
	ck_assert_int_eq(until_steady(true, 6), WS_STOP_NOT_STEADY);
}
END_TEST

/* ---- two targets ---------------------------------------------------- */

/* Intervals the sink has been handed: the writer side waits on it. */
static _Atomic unsigned int ticks;

/* What a sink saw of a two-target run. */
static struct {
	unsigned int runs, finals[3], target_rows[3], alone;
	uint64_t run_dbytes, target_dbytes[3];
	bool sums_ok, summary_seen;
} seen;

static void seen_interval(struct sink *s, const struct ws_run *run,
			  const struct ws_interval *iv)
{
	uint64_t sum = 0;

	(void)s;
	(void)run;
	atomic_fetch_add(&ticks, 1);
	seen.runs++;
	seen.run_dbytes += iv->dbytes;
	for (unsigned int i = 0; i < iv->ntargets; i++) {
		const struct ws_interval *t = &iv->targets[i];

		ck_assert(t->number == 1 || t->number == 2);
		seen.target_rows[t->number]++;
		seen.target_dbytes[t->number] += t->dbytes;
		seen.finals[t->number] += t->final;
		sum += t->dbytes;
		ck_assert_uint_eq(t->nprobes, 0);
	}
	seen.alone += iv->ntargets == 1;
	seen.sums_ok = seen.sums_ok && sum == iv->dbytes;
}

static void seen_summary(struct sink *s, const struct ws_run *run,
			 const struct ws_summary *sum)
{
	(void)s;
	(void)run;
	seen.summary_seen = sum->ntargets == 2;
}

static const struct sink_ops seen_ops = {
	.name = "seen", .interval = seen_interval, .summary = seen_summary,
};

/* Write `n` buffers of 1 MiB into snap, marking each, one an interval:
 * before each, wait until the recorder has handed the sink one more
 * interval (however long the machine takes: no time budget), so the last
 * lands within an interval, and the writer's end with it. */
static void write_some(struct ws_snapshot *snap, uint64_t start, unsigned int n,
		       uint64_t *bytes)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int seen_ticks = atomic_load(&ticks);

		while (atomic_load(&ticks) == seen_ticks)
			sched_yield();
		*bytes += WS_MIB;
		snapshot_add_bytes(snap, WS_MIB, *bytes);
		snapshot_mark(snap, ws_now_ns() - start, *bytes, 0);
	}
}

/*
 * Two writers, the first ending after 10 buffers, the second after 30:
 * every tick the run's interval is the sum of the targets that wrote in
 * it, each target's last interval is flagged once and then it is gone,
 * and the summary is theirs added up, from the first start to the last
 * end, with a summary of each.
 */
START_TEST(test_two_targets)
{
	static struct ws_config cfg;
	static struct ws_plan plan;
	static struct ws_target target;
	static struct ws_run run, runs[2];
	static struct ws_snapshot snap[2];
	static struct ws_series tseries[4];
	static struct ws_summary sums[2];
	static struct recorder_target follow[2];
	struct sink_set sinks = { .n = 0 };
	uint64_t start[2], bytes[2] = { 0, 0 };
	pthread_t tid;

	memset(&seen, 0, sizeof(seen));
	seen.sums_ok = true;
	config_defaults(&cfg);
	cfg.set.path = "fake";
	cfg.set.interval_ns = 20 * MS;
	plan = (struct ws_plan){ .buffer_size = WS_MIB, .total = WS_UNBOUNDED };
	recorder_make_run(&(struct recorder_sources){ .cfg = &cfg, .plan = &plan,
						      .target = &target }, &run);
	for (int i = 0; i < 2; i++) {
		runs[i] = run;
		runs[i].number = (unsigned int)i + 1;
		ck_assert_int_eq(snapshot_init(&snap[i]), 0);
		follow[i] = (struct recorder_target){
			.run = &runs[i], .snap = &snap[i], .series = &tseries[i],
			.progress = &tseries[2 + i], .summary = &sums[i],
		};
	}
	runs[1].same_device_as = 1;
	run.ntargets = 2;
	run.targets = runs;
	ck_assert_int_eq(sink_add(&sinks, &seen_ops, stdout), 0);
	ck_assert_int_eq(recorder_init(&rep, &run, NULL, &snap[0], &sinks, &series,
					 &progress), 0);
	recorder_set_targets(&rep, follow, 2);
	recorder_baseline(&rep);
	ck_assert_int_eq(pthread_create(&tid, NULL, recorder_thread, &rep), 0);
	start[0] = ws_now_ns();
	snapshot_start(&snap[0], start[0]);
	while ((start[1] = ws_now_ns()) == start[0])
		;	/* the second starts later */
	snapshot_start(&snap[1], start[1]);

	write_some(&snap[0], start[0], 10, &bytes[0]);
	snapshot_finish(&snap[0], &(struct ws_outcome){ .reason = WS_STOP_BOUND,
							 .end_ns = ws_now_ns() });
	write_some(&snap[1], start[1], 20, &bytes[1]);
	snapshot_finish(&snap[1], &(struct ws_outcome){ .reason = WS_STOP_ERROR,
							 .err = EIO, .err_op = "write",
							 .end_ns = ws_now_ns() });
	snapshot_close(&snap[0]);
	snapshot_close(&snap[1]);
	pthread_join(tid, NULL);

	ck_assert(seen.sums_ok);
	ck_assert(seen.summary_seen);
	ck_assert_uint_eq(seen.finals[1], 1);
	ck_assert_uint_eq(seen.finals[2], 1);
	ck_assert_uint_gt(seen.alone, 0);	/* target 2 alone at the end */
	ck_assert_uint_gt(seen.target_rows[2], seen.target_rows[1]);
	ck_assert_uint_eq(seen.target_dbytes[1], 10 * WS_MIB);
	ck_assert_uint_eq(seen.target_dbytes[2], 20 * WS_MIB);
	ck_assert_uint_eq(seen.run_dbytes, 30 * WS_MIB);
	ck_assert_uint_eq(rep.summary.ntargets, 2);
	ck_assert_ptr_eq(rep.summary.targets, sums);
	ck_assert_uint_eq(rep.summary.bytes, 30 * WS_MIB);
	ck_assert_uint_eq(sums[0].bytes, 10 * WS_MIB);
	ck_assert_uint_eq(sums[1].bytes, 20 * WS_MIB);
	ck_assert_int_eq(sums[0].ending.reason, WS_STOP_BOUND);
	ck_assert_int_eq(rep.summary.ending.reason, WS_STOP_ERROR);
	ck_assert_uint_eq(rep.summary.elapsed_ns, snap[1].outcome.end_ns - start[0]);
	ck_assert_uint_eq(sums[1].start_offset_ns, start[1] - start[0]);
	/* the run's progress ends where both writers' did, all bytes in */
	ck_assert_uint_gt(progress.n, 0);
	ck_assert_uint_eq(progress.pts[progress.n - 1].bytes, 30 * WS_MIB);
	ck_assert_ptr_nonnull(rep.summary.analysis);
	ck_assert_ptr_nonnull(sums[0].analysis);
	recorder_destroy(&rep);
	snapshot_destroy(&snap[0]);
	snapshot_destroy(&snap[1]);
}
END_TEST

/* A probe's fixed-bucket totals: each interval's latencies added,
 * cumulative along the buckets, the sum exact, and a whole run's
 * histogram gives what its intervals added up give. */
START_TEST(test_latency_totals)
{
	static const uint64_t ms[][4] = {
		{ 1, 2, 3, 700 },		/* ms: one past a second's worth */
		{ 10, 11, 2500, 61000 },	/* 2.5 s on a bound, past 60 s */
	};
	static struct hist iv, run;
	struct ws_latency_totals t = { 0 }, whole = { 0 };

	hist_init(&run);
	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		hist_init(&iv);
		for (size_t j = 0; j < 4; j++) {
			hist_record(&iv, ms[i][j] * WS_NSEC_PER_MSEC);
			hist_record(&run, ms[i][j] * WS_NSEC_PER_MSEC);
		}
		recorder_add_latencies(&t, &iv);
	}
	ck_assert_uint_eq(t.count, 8);
	ck_assert_uint_eq(t.sum_ns, (1 + 2 + 3 + 700 + 10 + 11 + 2500 + 61000) *
			  WS_NSEC_PER_MSEC);
	ck_assert_uint_eq(ws_latency_bounds_ns[0], WS_NSEC_PER_MSEC);
	ck_assert_uint_eq(ws_latency_bounds_ns[WS_LATENCY_BUCKETS - 1],
			  60 * WS_NSEC_PER_SEC);
	ck_assert_uint_eq(t.le[0], 1);		/* 1 ms */
	ck_assert_uint_eq(t.le[1], 2);		/* 2.5 ms */
	ck_assert_uint_eq(t.le[2], 3);		/* 5 ms */
	ck_assert_uint_eq(t.le[3], 4);		/* 10 ms */
	ck_assert_uint_eq(t.le[4], 5);		/* 25 ms */
	ck_assert_uint_eq(t.le[9], 6);		/* 1 s */
	ck_assert_uint_eq(t.le[10], 7);		/* 2.5 s */
	ck_assert_uint_eq(t.le[WS_LATENCY_BUCKETS - 1], 7);	/* 61 s is past */
	for (unsigned int b = 1; b < WS_LATENCY_BUCKETS; b++) {
		ck_assert_uint_gt(ws_latency_bounds_ns[b], ws_latency_bounds_ns[b - 1]);
		ck_assert_uint_ge(t.le[b], t.le[b - 1]);
	}
	recorder_add_latencies(&whole, &run);
	ck_assert_mem_eq(&whole, &t, sizeof(t));
}
END_TEST

Suite *recorder_suite(void)
{
	Suite *s = suite_create("recorder");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_fold_final);
	tcase_add_test(tc, test_final_mark_rule);
	tcase_add_test(tc, test_no_invented_peak);
	tcase_add_test(tc, test_until_steady_verdicts);
	tcase_add_test(tc, test_two_targets);
	tcase_add_test(tc, test_latency_totals);
	suite_add_tcase(s, tc);
	return s;
}
