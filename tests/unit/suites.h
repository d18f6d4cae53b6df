/* suites.h - every Check suite of the unit-test runner, one line each:
 * name_suite() makes the suite "name" (run.sh runs it by that name).
 * A module's suite lives in tests/unit/LAYER/test_MODULE.c and is listed
 * here. */
#ifndef WS_TEST_SUITES_H
#define WS_TEST_SUITES_H

#include <check.h>

#define WS_TEST_SUITES(X) \
	X(units_suite)    \
	X(array_suite)    \
	X(opts_suite)     \
	X(blockstat_suite) \
	X(fileext_suite) \
	X(biostat_suite) \
	X(flusher_suite) \
	X(wbt_suite) \
	X(lostspans_suite) \
	X(stallcause_suite) \
	X(evidence_suite) \
	X(recorded_causes_suite) \
	X(roundlat_suite) \
	X(observer_suite) \
	X(culprits_suite) \
	X(culprit_words_suite) \
	X(journal_xfs_suite) \
	X(iolimit_suite) \
	X(registry_suite) \
	X(cli_suite)      \
	X(option_bounds_suite) \
	X(completion_suite) \
	X(completion_zsh_suite) \
	X(datagen_suite)  \
	X(blockstamp_suite) \
	X(readback_suite)   \
	X(plan_suite)     \
	X(pace_suite)     \
	X(adapt_suite)    \
	X(adapt_headroom_suite) \
	X(matrix_suite)   \
	X(writer_suite)   \
	X(write_queue_suite) \
	X(target_suite)   \
	X(hist_suite)     \
	X(monitor_suite)  \
	X(series_suite)   \
	X(analysis_suite) \
	X(analysis_props_suite) \
	X(steady_suite)   \
	X(recorder_suite) \
	X(aggregate_suite) \
	X(compare_suite)  \
	X(report_suite)   \
	X(snapshot_suite) \
	X(c_suite)        \
	X(kinds_suite)    \
	X(stall_words_suite) \
	X(settings_suite) \
	X(jsonw_suite)    \
	X(caps_suite)     \
	X(priv_suite)     \
	X(probe_suite)    \
	X(probe_stop_suite) \
	X(signals_suite)  \
	X(clock_suite)    \
	X(thread_suite)   \
	X(svgplot_suite)  \
	X(fingerprint_show_suite) \
	X(sink_suite)     \
	X(io_posix_suite) \
	X(sysfs_suite)    \
	X(fingerprint_suite) \
	X(kstat_suite)    \
	X(sink_human_suite) \
	X(summary_bounds_suite) \
	X(live_line_suite) \
	X(term_suite)     \
	X(sink_json_suite)  \
	X(sink_csv_suite)   \
	X(sink_svg_suite)   \
	X(sink_prom_suite)

#define WS_DECLARE_SUITE(fn) Suite *fn(void);
WS_TEST_SUITES(WS_DECLARE_SUITE)
#undef WS_DECLARE_SUITE

/* Suites whose test cases need a process each (fork mode) even to run in
 * order: caps and thread drop capabilities for good, target's fixture
 * setup runs once per process, jsonw checks that a misuse aborts,
 * probe_stop raises SIGINT at itself.  The
 * others also run all in one process (CK_FORK=no), which is how the ASan
 * build looks for leaks (tests/unit/run.sh): LeakSanitizer's scan at the
 * exit of every forked test case would take minutes. */
#define WS_FORK_ONLY_SUITES "caps", "jsonw", "probe_stop", "target", "thread"

#endif
