/* record/stall.h - a stall and its cause as data, filled by the tracer
 * (src/trace/stallcause.h); ws_stall_words() words it for every output.
 */
#ifndef WS_RECORD_STALL_H
#define WS_RECORD_STALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/culprit.h"
#include "record/kinds.h"

enum ws_stall_cause {
	WS_CAUSE_NOT_TRACED,
	WS_CAUSE_DEVICE,
	WS_CAUSE_QUEUE,
	WS_CAUSE_JOURNAL,	/* the commit's own work */
	WS_CAUSE_DIRTY,		/* the dirty limit */
	WS_CAUSE_LIMIT,		/* a cgroup's */
	WS_CAUSE_WBT,
	WS_CAUSE_UNKNOWN,	/* traced, no rule held */
	WS_CAUSE_NR
};

/* "journal commit"; "" when not traced. */
const char *ws_stall_cause_name(enum ws_stall_cause c);

/* The device over a span, the last rule's. */
enum ws_span_finding {
	WS_SPAN_NOTHING,
	WS_SPAN_DEPTH,		/* a queue */
	WS_SPAN_ISSUE_WAIT,	/* waited half the span to issue */
	WS_SPAN_BUSY,		/* half the span, fewer at once */
};

enum ws_commit_phase { WS_PHASE_LOCKED, WS_PHASE_FLUSHING, WS_PHASE_LOGGING };

/* Requests at once, on average: busy_ns / span_ns. */
struct ws_stall_span {
	uint64_t span_ns;
	uint64_t busy_ns;		/* requests' issue to completion */
	uint64_t max_service_ns;
	uint64_t max_queue_ns;		/* getrq to issue */
};

/* The union member is the cause's; span for the rest. */
struct ws_stall_reason {
	enum ws_stall_cause cause;
	/* of any cause: rings wrapped before it, it began before the trace */
	bool overwritten, before_trace;
	uint64_t lost_events;
	union {
		struct {
			uint64_t paused_ns;	/* by balance_dirty_pages */
		} dirty;
		struct {
			double rate;	/* the device's writes a second */
			uint64_t limit;	/* the cgroup's, same unit */
			bool requests;	/* else bytes */
		} limit;
		struct {
			uint32_t lat_us;	/* its target */
			bool traced;	/* wbt_step read */
			bool known;	/* a change seen: the limits below */
			int32_t step;
			uint32_t normal, bg;	/* writes allowed in flight */
			uint32_t changes;
			bool bios_waited;	/* for a request */
			uint64_t max_bio_wait_ns;
		} wbt;
		/* on_commit: the span is the commit's covering half the
		 * stall; named: a commit ran in it */
		struct {
			enum ws_span_finding finding;
			enum ws_commit_phase phase;	/* its longest */
			bool on_commit, named;
			struct ws_stall_span dev;
			uint32_t tid;
			uint32_t iclogs;	/* xfs */
			uint64_t commit_ns;
			uint64_t own_ns;	/* of the stall, this commit's */
			uint64_t phase_ns;
			uint64_t log_bytes;
			uint64_t wbytes;	/* the device's meanwhile */
		} span;
	};
};

struct ws_stall {
	uint64_t start_ns;	/* since the writer started; 0: before */
	uint64_t at_ns;		/* CLOCK_MONOTONIC */
	uint64_t duration_ns;
	uint64_t writer_bytes;
	uint64_t dirty, writeback;	/* at its start */
	char site[WS_SITE_LEN];	/* where it waited most; "" unknown */
	struct ws_stall_reason reason;
	struct ws_stall_culprits culprits;	/* who wrote meanwhile */
};

/* A rate within WS_STALL_AT_LIMIT_PCT % of a cgroup's limit, either side
 * and inclusive, is "at" it; else "above" or "below" it.  (The tracer
 * names the limit the cause from 90% to 150% of it: stallcause.h.) */
#define WS_STALL_AT_LIMIT_PCT 10
const char *ws_stall_limit_side(double rate, uint64_t limit);

/* Longer words (every remark at its longest) are cut. */
#define WS_STALL_WORDS_LEN 512

/* The cause's evidence in a sentence ("" not traced); returns buf. */
char *ws_stall_words(const struct ws_stall *st, const char *probe, char *buf, size_t len);

#endif
