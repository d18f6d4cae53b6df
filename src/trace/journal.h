/* journal.h - the target filesystem's journal commits, event by event
 * (jbd2's tracepoints, events.h), into an interval's and the run's figures
 * (struct ws_journal_figures, record.h), with the last JNL_KEPT commits
 * kept whole so a stall can name the one it waited for (a ring on the
 * heap, grown as commits end until it first wraps; where there was no
 * memory to grow, it wraps there).  Pure.
 *
 * xfs has no commit events: it writes its log in buffers (iclogs), a few
 * in flight at once, each traced as it is written and done.  Its "commit"
 * here is a log write: iclogs whose writes overlap or follow each other
 * within JNL_XLOG_GAP_NS, from the first one's start to the last one's
 * end - what an fsync waiting in xlog_wait_on_iclog waits for - numbered
 * from 1 in time, its phase all logging.  The CPUs' rings are read one by
 * one, so an iclog's end may come before its start (JNL_ICLOGS of each
 * wait for the other, named by their lsn) and iclogs complete out of
 * order: the written ones are grouped when a drain is over
 * (journal_settle), in order of their start, and the growing write ends
 * only once JNL_XLOG_GAP_NS passed with no iclog of it still in flight
 * and no end waiting for its start.  An iclog begun and never seen done
 * is forgotten after JNL_ICLOG_STALE_NS, an end never matched after
 * JNL_ICLOG_UNMATCHED_NS (its start comes in the next drain or never).
 */
#ifndef WS_TRACE_JOURNAL_H
#define WS_TRACE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "record/record.h"

#define JNL_KEPT 1024
#define JNL_ICLOGS 16
#define JNL_SPANS 64
#define JNL_XLOG_GAP_NS 1000000ull	/* 1 ms */
#define JNL_ICLOG_STALE_NS 60000000000ull	/* 60 s */
#define JNL_ICLOG_UNMATCHED_NS 1000000000ull	/* 1 s */

struct jnl_commit {
	uint32_t tid;
	uint32_t blocks, logged;	/* from its run_stats (0 unknown) */
	uint32_t iclogs;		/* xfs: its iclogs */
	uint64_t log_bytes;		/* xfs: their bytes */
	/* when each phase began (0: not seen), and the end */
	uint64_t at[JNL_NR];
};

struct jnl_iclog {
	uint64_t lsn;
	uint64_t ts_ns;		/* its start, or its end (ended[]) */
	uint64_t to_ns;		/* spans[]: its end */
	uint32_t bytes;
};

struct journal {
	struct jnl_commit open;		/* the commit running now */
	bool have_open;
	/* xfs: iclogs begun and not done, and ends read before their
	 * start; the log write growing (open, have_open) and its number */
	struct jnl_iclog begun[JNL_ICLOGS], ended[JNL_ICLOGS];
	unsigned int nbegun, nended;
	struct jnl_iclog spans[JNL_SPANS];	/* written, not yet grouped */
	unsigned int nspans;
	uint32_t xlog_seq;
	struct jnl_commit *kept;	/* a ring of the ended ones ... */
	uint64_t nkept;			/* ... ended so far ... */
	size_t kept_cap, kept_ring;	/* ... allocated; the ring's size */
	struct ws_journal_figures iv, run;
};

/* Both traced until journal_traced() says otherwise. */
void journal_init(struct journal *j);
/* Its kept commits freed: j may be inited again. */
void journal_free(struct journal *j);
/* Which of the figures are traced (the kernel's events found; xfs: the
 * commits are xfs's log writes): their flags in every take and in the
 * run's. */
void journal_traced(struct journal *j, bool commits, bool xfs, bool pauses);
void journal_event(struct journal *j, const struct jnl_event *e);
/* A pause of one of writestress's threads by the dirty limit. */
/* A thread of writestress paused; writer: one of its writer threads. */
void journal_dirty_pause(struct journal *j, uint64_t pause_ns, bool writer);
void journal_take(struct journal *j, struct ws_journal_figures *out);
/* After a drain: xfs's written iclogs grouped, and the growing log write
 * counted once it is over (above; latest_ns: the latest event's time) or
 * at the end (final). */
void journal_settle(struct journal *j, uint64_t latest_ns, bool final);

/* A commit's phases in ns: locked, flushing, logging (0 when unseen). */
uint64_t jnl_phase_ns(const struct jnl_commit *c, enum jnl_phase phase);
uint64_t jnl_commit_ns(const struct jnl_commit *c);

/* The ended commits that overlap [from, to]: how much of the span they
 * covered together, and the one that covered most (false: none kept). */
bool journal_overlap(const struct journal *j, uint64_t from_ns, uint64_t to_ns,
		     struct jnl_commit *longest, uint64_t *covered_ns);
/* The oldest commit kept once the ring has wrapped (some ended ones are
 * no longer kept), else NULL. */
const struct jnl_commit *journal_oldest(const struct journal *j);

#endif
