/* record_fixture.h - one fixed, realistic record (record.h) for the sinks'
 * golden-output tests, and the golden files they are compared with.
 *
 * The record is made by the code the tool runs, fed with a made-up but
 * consistent run instead of threads and a disk: recorder_make_run() for
 * the facts, the probes' doors, monitor_record() and recorder_probe_interval()
 * for the probe figures, recorder_make_interval() and recorder_fold_final()
 * for the intervals, recorder_make_summary(), monitor_copy_figures(),
 * recorder_probe_summary(), analysis_run() and recorder_make_cells() for
 * the summary.  What the tool
 * reads from the machine (uname, the clock, /proc and /sys) is fixed here:
 * the fingerprint is collected from tests/fixtures/fp/nvme.
 *
 * The run ("bound"): 8 GiB in 8 MiB buffers, --pace window(1) + fadvise,
 * --interval 10s, the fsync and save probes; 240 MiB/s for 25 s, then
 * about 56 MiB/s to the end at 63.9 s, so two phases, a slowdown and
 * steady state (SNIA, windows of 3 rounds of 10 s, after 4 GiB of
 * preconditioning) from 30 s on.  Seven intervals: the fourth ends with
 * the fsync probe blocked (it completes in the fifth as a 2.1 s stall),
 * the first has no device or PSI figures, the last is 3.9 s long (its rate
 * folded with the one before's).  The same run stopped by SIGINT at 34.2 s
 * ("signal") and by ENOSPC at the --reserve at 47.6 s ("error").
 */
#ifndef WS_TEST_RECORD_FIXTURE_H
#define WS_TEST_RECORD_FIXTURE_H

#include <stddef.h>

#include "system/fingerprint.h"
#include "probes/monitor.h"
#include "record/record.h"
#include "recorder/recorder.h"
#include "outputs/sink.h"
#include "engine/snapshot.h"

enum fixture_ending {
	FIXTURE_BOUND,		/* the run reached --size */
	FIXTURE_SIGNAL,		/* SIGINT */
	FIXTURE_ERROR,		/* ENOSPC at the reserve */
	/* two targets on one device: the run to its bound as target 1, the
	 * one stopped by ENOSPC as target 2 (its file /var/tmp/big.dat.2),
	 * and the aggregate made of them by aggregate.c */
	FIXTURE_TWO_TARGETS,
};

#define FIXTURE_MAX_INTERVALS 8

struct record_fixture {
	struct ws_config cfg;
	struct ws_plan plan;
	struct ws_fingerprint fp;
	struct ws_run run;
	struct ws_interval iv[FIXTURE_MAX_INTERVALS];
	unsigned int niv;
	struct ws_series series, progress;
	struct ws_analysis analysis;
	struct ws_summary sum;
	/* the engine's objects the record is made from */
	struct ws_snapshot snap;
	struct monitor mon;
	struct recorder_probe_run probe_run[WS_MAX_PROBES];
	/* FIXTURE_TWO_TARGETS: the targets' own records */
	struct record_fixture *part[2];
	struct ws_run runs[2];
	struct ws_interval tiv[FIXTURE_MAX_INTERVALS][2];
	struct ws_summary sums[2];
};

/* The record of one ending (heap; free with record_fixture_free). */
struct record_fixture *record_fixture_make(enum fixture_ending e);
void record_fixture_free(struct record_fixture *f);

/* The record of one ending, made once per process and kept to its end:
 * for the tests that only read it (one that changes it makes its own).
 * Under the sanitizers a suite runs in one process, and making a record
 * was most of those suites' time: each is 15 MB, whose shadow memory
 * TSan and ASan write afresh (live_line took 15 s under TSan). */
const struct record_fixture *record_fixture_shared(enum fixture_ending e);

/* What ops write for the whole run (header, every interval, summary;
 * the events it has no op for are skipped), as a NUL-terminated string
 * of *len bytes (caller frees). */
char *record_fixture_render(const struct record_fixture *f,
			    const struct sink_ops *ops, size_t *len);
/* verbose: as -v */
char *record_fixture_render_as(const struct record_fixture *f,
			       const struct sink_ops *ops, bool verbose, size_t *len);

/* Replace every "writestress VERSION" and JSON "version": "VERSION" of
 * this build in buf (malloc'd, *len bytes and a NUL) by "@VERSION@", so a
 * version bump leaves the goldens alone.  Returns the buffer, which may
 * have moved; *len is updated. */
char *golden_mask_version(char *buf, size_t *len);

/* The JSON text json[0..len) (one line, as sink_json writes it) with a
 * line break after every comma that comes before a member, a string, an
 * object or an array, outside strings: whitespace JSON allows, so the
 * expected file is the result itself, and a mismatch names its member.
 * Returns a new string of *outlen bytes (caller frees). */
char *golden_json_lines(const char *json, size_t len, size_t *outlen);

/* Compare buf[0..len) with tests/expected/NAME byte for byte.  On a
 * mismatch the test fails naming the first differing line of each, and
 * the output is left in tests/expected/NAME.actual; on a match a stale
 * .actual is removed.  With golden_update (`unit-tests --update-expected`,
 * which only `make update-expected` runs) the expected file is rewritten
 * instead.  WS_UPDATE_EXPECTED in the environment (how it was done once)
 * fails the check: left set, it would pass everything. */
void golden_check(const char *name, const char *buf, size_t len);

/* REL ("man/writestress.1") in the source tree, found as the goldens are. */
void source_path(char *buf, size_t len, const char *rel);
extern bool golden_update;

#endif
