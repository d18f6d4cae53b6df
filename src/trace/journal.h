/* journal.h - journal commits into figures, the last JNL_KEPT kept whole
 * so a stall can name its commit.  Pure.  xfs has no commit events: its
 * "commit" is a log write, iclogs overlapping or within JNL_XLOG_GAP_NS
 * (what xlog_wait_on_iclog waits for).  Per-CPU rings give ends before
 * starts: iclogs are grouped at journal_settle.
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
	uint32_t blocks, logged;	/* 0 unknown */
	uint32_t iclogs;		/* xfs */
	uint64_t log_bytes;		/* xfs */
	uint64_t at[JNL_NR];		/* each phase's start, 0 unseen */
};

struct jnl_iclog {
	uint64_t lsn;
	uint64_t ts_ns;		/* start; end in ended[] */
	uint64_t to_ns;		/* spans[] only */
	uint32_t bytes;
};

struct journal {
	struct jnl_commit open;		/* running now (xfs: the log write) */
	bool have_open;
	/* xfs: iclogs not done, and ends read before their start */
	struct jnl_iclog begun[JNL_ICLOGS], ended[JNL_ICLOGS];
	unsigned int nbegun, nended;
	struct jnl_iclog spans[JNL_SPANS];	/* not yet grouped */
	unsigned int nspans;
	uint32_t xlog_seq;
	struct jnl_commit *kept;	/* ring of ended commits */
	uint64_t nkept;			/* ended so far */
	size_t kept_cap, kept_ring;
	struct ws_journal_figures iv, run;
};

/* Traced until journal_traced() says otherwise. */
void journal_init(struct journal *j);
/* j may be inited again. */
void journal_free(struct journal *j);
/* Which events the kernel has, flagged in every take. */
void journal_traced(struct journal *j, bool commits, bool xfs, bool pauses);
void journal_event(struct journal *j, const struct jnl_event *e);
/* One of writestress's threads paused by the dirty limit. */
void journal_dirty_pause(struct journal *j, uint64_t pause_ns, bool writer);
void journal_take(struct journal *j, struct ws_journal_figures *out);
/* After a drain: group xfs's iclogs, end the log write if over (or final). */
void journal_settle(struct journal *j, uint64_t latest_ns, bool final);

/* 0 when unseen. */
uint64_t jnl_phase_ns(const struct jnl_commit *c, enum jnl_phase phase);
uint64_t jnl_commit_ns(const struct jnl_commit *c);

/* Covered together, and the commit covering most; false if none. */
bool journal_overlap(const struct journal *j, uint64_t from_ns, uint64_t to_ns,
		     struct jnl_commit *longest, uint64_t *covered_ns);
/* The oldest kept once the ring wrapped, else NULL. */
const struct jnl_commit *journal_oldest(const struct journal *j);

#endif
