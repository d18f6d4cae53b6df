/* record/stall.h - a probe's stall and why it happened: the layer that
 * held it and the figures that show it, as data.  The tracer judges
 * (src/trace/stallcause.h has the rules) and fills struct ws_stall_reason;
 * ws_stall_words() alone turns it into the sentence every output prints
 * (the summary's line, the JSON's "why"), so no output words a cause of
 * its own and the record keeps no sentence.
 */
#ifndef WS_RECORD_STALL_H
#define WS_RECORD_STALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/kinds.h"

/* Why a stall happened, from the traced figures: the layer that held the
 * probe's wait. */
enum ws_stall_cause {
	WS_CAUSE_NOT_TRACED,	/* no trace to judge by */
	WS_CAUSE_DEVICE,	/* the device took long to answer */
	WS_CAUSE_QUEUE,		/* waiting behind other writes */
	WS_CAUSE_JOURNAL,	/* the journal commit's own work */
	WS_CAUSE_DIRTY,		/* paused by the dirty limit */
	WS_CAUSE_LIMIT,		/* a cgroup I/O limit held the requests */
	WS_CAUSE_WBT,		/* writeback throttling held the write */
	WS_CAUSE_UNKNOWN,	/* traced, and no rule held */
	WS_CAUSE_NR
};

/* Its name in every output ("journal commit"); "" when not traced. */
const char *ws_stall_cause_name(enum ws_stall_cause c);

/* What the device's figures over a span showed (the last rule's): the
 * cause follows from it, a queue or the device, else the commit's own
 * work or nothing traced. */
enum ws_span_finding {
	WS_SPAN_NOTHING,	/* neither a queue nor a busy device */
	WS_SPAN_DEPTH,		/* requests at once enough to make a queue */
	WS_SPAN_ISSUE_WAIT,	/* a request waited half the span to issue */
	WS_SPAN_BUSY,		/* busy half the span with fewer at once */
};

enum ws_commit_phase { WS_PHASE_LOCKED, WS_PHASE_FLUSHING, WS_PHASE_LOGGING };

/* The device over a span: at once on average is busy_ns / span_ns. */
struct ws_stall_span {
	uint64_t span_ns;
	uint64_t busy_ns;		/* issue to completion, added up */
	uint64_t max_service_ns;	/* the longest request */
	uint64_t max_queue_ns;		/* the longest getrq to issue */
};

/* The cause and the figures its rule used; which member of the union
 * holds them follows from the cause (the last rule's for the rest). */
struct ws_stall_reason {
	enum ws_stall_cause cause;
	/* short evidence, said of any cause: the run's first commits,
	 * pauses or wbt changes were overwritten (rings wrapped) before the
	 * stall; it began before the trace started; events lost in it */
	bool overwritten, before_trace;
	uint64_t lost_events;
	union {
		struct {
			uint64_t paused_ns;	/* by balance_dirty_pages */
		} dirty;
		struct {
			double rate;	/* the device's writes a second */
			uint64_t limit;	/* the cgroup's, in the same unit */
			bool requests;	/* both in requests, not bytes */
		} limit;
		struct {
			uint32_t lat_us;	/* its latency target */
			bool traced;	/* its wbt_step events were read */
			bool known;	/* a change traced: the limits below */
			int32_t step;
			uint32_t normal, bg;	/* writes allowed in flight */
			uint32_t changes;	/* while the stall lasted */
			bool bios_waited;	/* for a request, while it lasted */
			uint64_t max_bio_wait_ns;	/* ... the longest */
		} wbt;
		/* the last rule: the span judged is the commit's that covered
		 * half the stall (on_commit), else the stall's own; a commit
		 * that ran in it, the probe in the journal's code, is named
		 * with its share all the same (named) */
		struct {
			enum ws_span_finding finding;
			enum ws_commit_phase phase;	/* its longest */
			bool on_commit, named;
			struct ws_stall_span dev;
			uint32_t tid;
			uint32_t iclogs;	/* xfs: a log write of so many */
			uint64_t commit_ns;
			uint64_t own_ns;	/* of the stall, this commit's */
			uint64_t phase_ns;
			uint64_t log_bytes;	/* its own log blocks */
			uint64_t wbytes;	/* the device wrote while it ran */
		} span;
	};
};

struct ws_stall {
	uint64_t start_ns;	/* since the writer started (0: before it) */
	uint64_t at_ns;		/* its start, CLOCK_MONOTONIC: what the trace is
				 * asked about, before the writer's start too */
	uint64_t duration_ns;
	uint64_t writer_bytes;	/* written by then */
	uint64_t dirty, writeback;	/* /proc/meminfo bytes at its start */
	char site[WS_SITE_LEN];	/* where it waited most ("" unknown) */
	struct ws_stall_reason reason;
};

/* Room for the words, as the record kept them: a sentence with every
 * remark at its longest is cut there. */
#define WS_STALL_WORDS_LEN 512

/* The evidence of st's cause in one sentence into buf[len] ("" not
 * traced), probe the name of the probe that stalled; returns buf. */
char *ws_stall_words(const struct ws_stall *st, const char *probe, char *buf, size_t len);

#endif
