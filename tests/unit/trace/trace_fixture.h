/* trace_fixture.h - a run recorded by tests/fixtures/trace/record.sh (or
 * an older WS_TRACE_RECORD file): its events, read back by the tracer's
 * own parser (trace/events.h), and what the kernel counted beside it. */
#ifndef WS_TEST_TRACE_FIXTURE_H
#define WS_TEST_TRACE_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/events.h"
#include "trace/evidence.h"

struct recorded_stall {
	uint64_t start_ns, duration_ns;
	int tid;
	char site[64], cause[48];	/* what the run said */
};

struct recorded {
	struct trace_event *ev;
	size_t n;
	/* /sys/block/DEV/stat over the traced span */
	unsigned long writes, bytes, time_ms, flushes, flush_ms;
	bool flush_timed;	/* flush_ms recorded */
	unsigned long merges;	/* write merges, where have_merges */
	bool have_merges;
	/* /proc/fs/jbd2/DEV-8/info around the run (transactions 0: none) */
	unsigned long transactions, logging_ms;
	/* xfs: /sys/fs/xfs/DEV/stats/stats's log line around the run: its
	 * log buffers written and their 512-byte blocks (0: none) */
	unsigned long xfs_log_writes, xfs_log_blocks;
	uint64_t origin_ns, limit_bps, limit_iops;
	uint32_t wbt_lat_us;	/* 0 also in recordings older than wbt's */
	struct recorded_stall stalls[32];
	unsigned int nstalls;
	/* the trace ring's count of lost events at each take ("# lost TS
	 * TOTAL"), in order */
	struct { uint64_t ts_ns, total; } lost[256];
	unsigned int nlost;
};

/* tests/fixtures/trace/NAME into *r (fails the test when unreadable). */
void recorded_load(const char *name, struct recorded *r);
void recorded_free(struct recorded *r);

/* A stall explained as the tracer explains it and worded as every output
 * words it: q judged from ev into st.reason (st's site and duration
 * q's), then why, the probe "fsync"'s.  Word it again after a change of
 * st.reason with explained_words(). */
struct explained {
	struct ws_stall st;
	char why[WS_STALL_WORDS_LEN];
};

enum ws_stall_cause explain_stall(const struct evidence *ev, const struct stall_query *q,
				  struct explained *x);
const char *explained_words(struct explained *x);

#endif
