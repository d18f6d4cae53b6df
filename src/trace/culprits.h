/* culprits.h - who wrote to the traced disk.  Three events say it, each
 * chosen by its cost (one per bio, per dirtied folio, per inode's
 * writeback pass, never per page):
 *   block_bio_queue        a process's own writes (direct, fsync's,
 *                          sync_file_range's), by the thread that queued
 *   writeback_dirty_folio  who dirtied which inode's pages
 *   writeback_single_inode a kernel worker's writeback of an inode: its
 *                          pages are credited to the inode's dirtiers,
 *                          shared by the folios each dirtied
 *   block_rq_complete      the device wrote them: a stall's culprits are
 *                          whose bytes the device wrote while it waited
 *                          (the bytes sent, taken in the order sent: a
 *                          cgroup limit or a queue holds them a while;
 *                          a completion of bytes none of these events
 *                          sent, such as a throttled process's own bios,
 *                          takes the turn of the next in line)
 * A thread is who /proc said it was when first seen, read again after an
 * exec (a pid reused later keeps the old name until the cache forgets
 * it); one gone already is named as its fork, exec or rename said
 * (sched_process_fork, sched_process_exec, task_rename: one event per
 * process, not per write); writestress's children and what they start
 * (sched_process_fork) are writestress's.
 * A kernel worker's own bios are that writeback, so not counted again; a
 * kernel thread that writes for itself (jbd2) has a row of its own, but
 * is no stall's culprit: a journal writes for every writer.
 * The writestress process is nobody's culprit, but its inodes are
 * remembered so their writeback is credited to nobody else.
 *
 * Memory is fixed at culprits_init(): the processes (past
 * CULPRITS_PROCS the least is summed into "others"), the threads,
 * inodes and names known (a newcomer takes an old one's place), and the
 * history of
 * CULPRITS_SLOTS slots (full, neighbours merge and a slot spans twice
 * the time), so a day's watch holds what a minute's does.
 * Pure: the tracer says who a thread is (culprits_learn) when asked.
 * One thread (the tracer's, under its lock).
 */
#ifndef WS_TRACE_CULPRITS_H
#define WS_TRACE_CULPRITS_H

#include <stdbool.h>
#include <stdint.h>

#include "record/culprit.h"

#define CULPRITS_PROCS 64
#define CULPRITS_TIDS 1024	/* a power of two */
#define CULPRITS_INODES 4096	/* a power of two */
#define CULPRITS_NAMES 1024	/* names seen at forks, execs and renames */
#define CULPRITS_SLOTS 2048
#define CULPRITS_SLOT_NS 250000000ULL
#define CULPRITS_SLOT_TOP 6
#define CULPRITS_OURS 64	/* writestress's processes kept (culprits_add_ours) */
#define CULPRITS_OURS_PINNED 8
#define CULPRITS_PENDING 4096	/* runs of one sender's bytes in flight */
/* Bytes sent this long before a completion and never seen done are
 * dropped: a throttled disk's queue holds seconds, not a minute. */
#define CULPRITS_PENDING_NS 60000000000ULL

/* A thread, as /proc said when it was first seen. */
struct culprit_who {
	int32_t tid, tgid;
	bool kernel;	/* a kernel thread */
	bool worker;	/* a kernel worker: its writes are others' pages */
	char comm[WS_COMM_LEN];
	char cgroup[WS_CGROUP_LEN];
};

/* A kernel thread named so writes back others' pages ("kworker/u8:1",
 * "flush-8:0"). */
bool culprits_is_worker(const char *comm);

/* From /proc/PID/cgroup's text, the first path not "/" of the unified
 * hierarchy ("0::"), blkio, io or systemd's, in that order: where a
 * limit or a unit would be; "" when all are "/". */
void culprits_pick_cgroup(const char *text, char *out, size_t len);

struct culprit_part {
	int32_t pid;
	uint32_t dirtied;
	uint64_t written;
};

struct culprit_slot {
	struct culprit_part top[CULPRITS_SLOT_TOP];
	unsigned int n;
	uint64_t rest_written;
};

struct culprit_row {
	struct culprit_who who;
	uint64_t written, dirtied;
};

struct culprit_pending {
	int32_t pid;
	bool counted;	/* a culprit's, not writestress's or a journal's */
	uint64_t bytes;
	uint64_t sent_ns;
};

struct culprit_inode {
	uint64_t ino;	/* 0: free */
	uint64_t last_ns;	/* last dirtied: the oldest of 4 gives way */
	struct { int32_t pid; uint32_t folios; } by[2];
};

struct culprit_name {
	int32_t pid;	/* 0: free */
	char comm[WS_COMM_LEN];
	uint64_t ts_ns;	/* the event's that gave it */
};

struct culprits {
	uint64_t origin_ns;
	int32_t ours_pid;		/* nobody's culprit */
	struct culprit_who *tids;	/* CULPRITS_TIDS, by tid's hash */
	struct culprit_inode *inodes;	/* CULPRITS_INODES, by ino's hash */
	struct culprit_name *names;	/* CULPRITS_NAMES, by pid's hash */
	struct culprit_row rows[CULPRITS_PROCS];
	unsigned int nrows;
	uint32_t others;
	uint64_t others_written, others_dirtied;
	struct culprit_slot *slots;	/* history, oldest first */
	uint64_t slot_ns;		/* CULPRITS_SLOT_NS, doubled at each merge */
	uint64_t nslots;		/* used */
	struct culprit_slot now;	/* since culprits_take_now() */
	struct culprit_pending *pending;	/* CULPRITS_PENDING, a ring */
	unsigned int pending_at, npending;
	uint64_t before_trace;		/* bytes of pages dirtied before it */
	int32_t ours[CULPRITS_OURS];	/* pinned first; 0: free */
	unsigned int npinned, ours_at;
};

/* 0 or -ENOMEM. */
int culprits_init(struct culprits *c, uint64_t origin_ns, int32_t ours_pid);
void culprits_free(struct culprits *c);

/* NULL: not known, ask /proc and culprits_learn(). */
const struct culprit_who *culprits_who(const struct culprits *c, int32_t tid);
void culprits_learn(struct culprits *c, const struct culprit_who *w);

/* tid ran a new program (sched_process_exec) at ts_ns: forgotten, so
 * its next event reads its new name; writestress's own stay its own.
 * FILENAME's last part, cut as the kernel cuts a comm (15 bytes), is
 * kept as its name (NULL: not traced), for a process gone before its
 * first event is read: a build's or a spool's many short writers. */
void culprits_exec(struct culprits *c, uint64_t ts_ns, int32_t tid, const char *filename);
/* tid renamed itself (task_rename: prctl, a kernel thread's name): a
 * known process leader's row takes the name, and it is kept as above. */
void culprits_rename(struct culprits *c, uint64_t ts_ns, int32_t tid, const char *comm);
/* pid's name as the trace saw it at ts_ns, at a fork (its parent's), an
 * exec or a rename; the last CULPRITS_NAMES pids, one to a slot by pid's
 * hash.  An older event of the same pid read later changes nothing. */
void culprits_name_seen(struct culprits *c, uint64_t ts_ns, int32_t pid, const char *comm);
/* NULL: no name kept for pid (none seen, or another pid took its slot). */
const char *culprits_name_of(const struct culprits *c, int32_t pid);

/* writestress's own processes beyond its threads (the probes' launchers,
 * pinned, then what they start, the last CULPRITS_OURS): a set no other
 * thread's learning evicts.  A fork that is not ours forgets its pid as
 * ours (a pid reused). */
void culprits_add_ours(struct culprits *c, int32_t pid, bool pinned);
bool culprits_is_ours(const struct culprits *c, int32_t pid);
void culprits_forget(struct culprits *c, int32_t pid);

/* The events, at trace time ts_ns (the tracer's clock). */
void culprits_bio(struct culprits *c, uint64_t ts_ns, int32_t tid, uint64_t bytes);
void culprits_dirtied(struct culprits *c, uint64_t ts_ns, int32_t tid, uint64_t ino);
void culprits_inode_written(struct culprits *c, uint64_t ts_ns, int32_t tid,
			    uint64_t ino, uint64_t pages);
/* The device finished writing bytes (block_rq_complete). */
void culprits_completed(struct culprits *c, uint64_t ts_ns, uint64_t bytes);

/* The run's table: most written first. */
void culprits_table(const struct culprits *c, struct ws_culprits *out);
/* Who wrote in the slots [start_ns, start_ns + duration_ns] touches. */
void culprits_window(const struct culprits *c, uint64_t start_ns, uint64_t duration_ns,
		     struct ws_stall_culprits *out);
/* Since the last take: the top writers, most first, named. */
void culprits_take_now(struct culprits *c, struct ws_writers_now *out);

#endif
