/* Who wrote to the traced disk: trace/culprits.c's rules (culprits.h) on
 * made events: a process's own bios, a worker's writeback credited to an
 * inode's dirtiers by their folios, writestress never anyone's culprit,
 * a journal's own row but no stall's; a stall's bytes those the device
 * wrote meanwhile, in the order sent; the table's bound and its others;
 * the history's slots, merged when full, and a stall's window over
 * them; the cgroup read from /proc's text. */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "trace/culprits.h"
#include "trace/tracer.h"

#define SEC 1000000000ULL
#define MS 1000000ULL
#define T0 (1000 * SEC)
#define OURS 4242
#define MIB (1024 * 1024ULL)

static const struct culprit_who rsync = { 500, 500, false, false, "rsync", "/user.slice/a.scope" };
static const struct culprit_who rsync2 = { 501, 500, false, false, "rsync", "/user.slice/a.scope" };
static const struct culprit_who fox = { 600, 600, false, false, "firefox", "" };
static const struct culprit_who dd = { 700, 700, false, false, "dd", "/ws_flood" };
static const struct culprit_who ours = { OURS + 1, OURS, false, false, "ws-writer", "" };
static const struct culprit_who kw = { 77, 77, true, true, "kworker/u8:1", "" };
static const struct culprit_who jbd2 = { 78, 78, true, false, "jbd2/sda2-8", "" };

static void setup(struct culprits *c)
{
	const struct culprit_who *all[] = { &rsync, &rsync2, &fox, &dd, &ours, &kw, &jbd2 };

	ck_assert_int_eq(culprits_init(c, T0, OURS), 0);
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		culprits_learn(c, all[i]);
}

/* A bio the device wrote at once. */
static void sent(struct culprits *c, uint64_t ts, int32_t tid, uint64_t bytes)
{
	culprits_bio(c, ts, tid, bytes);
	culprits_completed(c, ts, bytes);
}

static const struct ws_culprit *row(const struct ws_culprits *t, int32_t pid)
{
	return ws_culprit_of(t, pid);
}

START_TEST(test_workers_named)
{
	ck_assert(culprits_is_worker("kworker/u8:1"));
	ck_assert(culprits_is_worker("kworker/0:1H"));
	ck_assert(culprits_is_worker("flush-8:0"));
	ck_assert(!culprits_is_worker("jbd2/sda2-8"));
	ck_assert(!culprits_is_worker("kworker"));
	ck_assert(!culprits_is_worker("rsync"));
}
END_TEST

/* A process's bios are its own, its threads' summed; a worker's are not
 * counted (they are an inode's writeback); writestress's are nobody's. */
START_TEST(test_own_bios)
{
	struct culprits c;
	struct ws_culprits t;

	setup(&c);
	culprits_bio(&c, T0 + SEC, 500, 3 * MIB);
	culprits_bio(&c, T0 + SEC, 501, MIB);
	culprits_bio(&c, T0 + SEC, 77, 8 * MIB);
	culprits_bio(&c, T0 + SEC, OURS + 1, 64 * MIB);
	culprits_bio(&c, T0 + SEC, 999, MIB);	/* never learnt: nobody's */
	culprits_table(&c, &t);
	ck_assert(t.traced);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_int_eq(t.row[0].pid, 500);
	ck_assert_str_eq(t.row[0].comm, "rsync");
	ck_assert_str_eq(t.row[0].cgroup, "/user.slice/a.scope");
	ck_assert_uint_eq(t.row[0].written, 4 * MIB);
	ck_assert_uint_eq(t.total_written, 4 * MIB);
	culprits_free(&c);
}
END_TEST

/* A worker's pass over an inode is credited to its dirtiers, shared by
 * the folios each dirtied (3:1); a third dirtier takes the lesser one's
 * place; a process's own pass (fsync's) is its bios', not counted
 * again; an inode writestress dirtied is nobody's; one dirtied before
 * the trace is "before the trace". */
START_TEST(test_inode_writeback)
{
	struct culprits c;
	struct ws_culprits t;

	setup(&c);
	for (int i = 0; i < 3; i++)
		culprits_dirtied(&c, T0 + SEC, 500, 12);
	culprits_dirtied(&c, T0 + SEC, 600, 12);
	culprits_inode_written(&c, T0 + 2 * SEC, 77, 12, 1024);	/* 4 MiB */
	culprits_inode_written(&c, T0 + 2 * SEC, 500, 12, 1024);	/* its own */
	culprits_dirtied(&c, T0 + SEC, OURS + 1, 13);
	culprits_inode_written(&c, T0 + 2 * SEC, 77, 13, 1024);
	culprits_inode_written(&c, T0 + 2 * SEC, 77, 14, 256);	/* 1 MiB */
	culprits_table(&c, &t);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_uint_eq(row(&t, 500)->written, 3 * MIB);
	ck_assert_uint_eq(row(&t, 500)->dirtied, 3);
	ck_assert_uint_eq(row(&t, 600)->written, MIB);
	ck_assert_uint_eq(t.before_trace, MIB);
	ck_assert_uint_eq(t.total_written, 5 * MIB);
	/* written back, the shares halve (3 to 2, 1 to 0: firefox's place
	 * is free); dd dirties it twice: 2 to 2 share the next 5 MiB */
	culprits_dirtied(&c, T0 + 3 * SEC, 700, 12);
	culprits_dirtied(&c, T0 + 3 * SEC, 700, 12);
	culprits_inode_written(&c, T0 + 4 * SEC, 77, 12, 1280);
	culprits_table(&c, &t);
	ck_assert_uint_eq(row(&t, 500)->written, 3 * MIB + 5 * MIB / 2);
	ck_assert_uint_eq(row(&t, 700)->written, 5 * MIB / 2);
	ck_assert_uint_eq(row(&t, 600)->written, MIB);
	/* a third dirtier takes the lesser one's place: rsync's 1 (2 halved)
	 * against dd's 1 (2 halved): the first of equals stays */
	culprits_dirtied(&c, T0 + 5 * SEC, 600, 12);
	culprits_dirtied(&c, T0 + 5 * SEC, 600, 12);
	culprits_inode_written(&c, T0 + 6 * SEC, 77, 12, 768);	/* 3 MiB: 1 to 2 */
	culprits_table(&c, &t);
	ck_assert_uint_eq(row(&t, 600)->written, MIB + 2 * MIB);
	ck_assert_uint_eq(row(&t, 500)->written, 3 * MIB + 5 * MIB / 2 + MIB);
	culprits_free(&c);
}
END_TEST

/* A journal's pages (its metadata, dirtied by jbd2): their writeback by
 * a worker is the journal's row, no stall's; a forgotten inode's is
 * "unknown". */
START_TEST(test_kernel_dirtier)
{
	struct culprits c;
	struct ws_culprits t;
	struct ws_stall_culprits w;

	setup(&c);
	culprits_dirtied(&c, T0 + SEC, 78, 1);
	culprits_inode_written(&c, T0 + 2 * SEC, 77, 1, 256);
	culprits_completed(&c, T0 + 2 * SEC, MIB);
	culprits_table(&c, &t);
	ck_assert(row(&t, 78)->kernel);
	ck_assert_uint_eq(row(&t, 78)->written, MIB);
	ck_assert_uint_eq(t.before_trace, 0);
	culprits_window(&c, T0 + 2 * SEC, 100 * MS, &w);
	ck_assert_uint_eq(w.total_written, 0);
	culprits_free(&c);
}
END_TEST

/* Sent bytes never seen done for CULPRITS_PENDING_NS (60 s) are not a
 * later completion's: at 60 s they still are, past it not. */
START_TEST(test_pending_expires)
{
	struct culprits c;
	struct ws_stall_culprits w;

	ck_assert_uint_eq(CULPRITS_PENDING_NS, 60 * SEC);
	setup(&c);
	culprits_bio(&c, T0, 500, MIB);
	culprits_completed(&c, T0 + 60 * SEC, MIB);
	culprits_window(&c, T0 + 60 * SEC, MS, &w);
	ck_assert_uint_eq(w.total_written, MIB);
	culprits_bio(&c, T0 + SEC, 600, MIB);
	culprits_completed(&c, T0 + 61 * SEC + 1, MIB);
	culprits_window(&c, T0 + 61 * SEC, MS, &w);
	ck_assert_uint_eq(w.total_written, 0);
	ck_assert_uint_eq(c.npending, 0);
	culprits_free(&c);
}
END_TEST

/* A journal's writes have their row, kernel, but are no stall's: a
 * window over them holds nothing. */
START_TEST(test_journal_no_culprit)
{
	struct culprits c;
	struct ws_culprits t;
	struct ws_stall_culprits w;

	setup(&c);
	sent(&c, T0 + SEC, 78, 2 * MIB);
	culprits_table(&c, &t);
	ck_assert_uint_eq(t.n, 1);
	ck_assert(t.row[0].kernel);
	ck_assert_uint_eq(t.row[0].written, 2 * MIB);
	culprits_window(&c, T0 + SEC - 100 * MS, 500 * MS, &w);
	ck_assert(w.traced);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_uint_eq(w.total_written, 0);
	culprits_free(&c);
}
END_TEST

/* Past CULPRITS_PROCS processes the least written one goes to others,
 * its bytes kept; the table shows the top WS_CULPRITS_KEPT. */
START_TEST(test_table_bounded)
{
	struct culprits c;
	struct ws_culprits t;
	uint64_t all = 0;

	ck_assert_uint_eq(CULPRITS_PROCS, 64);
	ck_assert_uint_eq(WS_CULPRITS_KEPT, 16);
	setup(&c);
	for (int32_t pid = 10000; pid < 10000 + CULPRITS_PROCS + 5; pid++) {
		struct culprit_who w = { pid, pid, false, false, "cc1", "" };

		culprits_learn(&c, &w);
		culprits_bio(&c, T0 + SEC, pid, (uint64_t)(pid - 9999) * 4096);
		all += (uint64_t)(pid - 9999) * 4096;
	}
	culprits_table(&c, &t);
	ck_assert_uint_eq(t.n, WS_CULPRITS_KEPT);
	ck_assert_int_eq(t.row[0].pid, 10000 + CULPRITS_PROCS + 4);
	ck_assert_uint_eq(t.others, CULPRITS_PROCS + 5 - WS_CULPRITS_KEPT);
	ck_assert_uint_eq(t.total_written, all);
	for (unsigned int i = 1; i < t.n; i++)
		ck_assert_uint_ge(t.row[i - 1].written, t.row[i].written);
	culprits_free(&c);
}
END_TEST

/* A window sums the slots it touches, no other; most written first. */
START_TEST(test_window)
{
	struct culprits c;
	struct ws_stall_culprits w;

	setup(&c);
	sent(&c, T0 + SEC, 500, 8 * MIB);
	sent(&c, T0 + SEC + 10 * MS, 600, MIB);
	sent(&c, T0 + 3 * SEC, 700, 2 * MIB);
	culprits_window(&c, T0 + 900 * MS, 200 * MS, &w);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_int_eq(w.top[0].pid, 500);
	ck_assert_uint_eq(w.top[0].written, 8 * MIB);
	ck_assert_int_eq(w.top[1].pid, 600);
	ck_assert_uint_eq(w.total_written, 9 * MIB);
	/* the slot after: 1.25 s to 1.5 s holds nothing */
	culprits_window(&c, T0 + 1250 * MS, 200 * MS, &w);
	ck_assert_uint_eq(w.n, 0);
	culprits_window(&c, T0 + 500 * MS, 3 * SEC, &w);
	ck_assert_int_eq(w.top[0].pid, 500);
	ck_assert_int_eq(w.top[1].pid, 700);
	ck_assert_uint_eq(w.total_written, 11 * MIB);
	/* before the first event, after the last: nothing, no fault */
	culprits_window(&c, T0 - 5 * SEC, SEC, &w);
	ck_assert_uint_eq(w.total_written, 0);
	culprits_window(&c, T0 + 100 * SEC, SEC, &w);
	ck_assert_uint_eq(w.total_written, 0);
	culprits_free(&c);
}
END_TEST

/* More writers in a slot than it names: the least go to its rest, the
 * total stays whole. */
START_TEST(test_slot_rest)
{
	struct culprits c;
	struct ws_stall_culprits w;

	setup(&c);
	for (int32_t pid = 20000; pid < 20000 + CULPRITS_SLOT_TOP + 3; pid++) {
		struct culprit_who who = { pid, pid, false, false, "make", "" };

		culprits_learn(&c, &who);
		sent(&c, T0 + 10 * MS, pid, (uint64_t)(pid - 19999) * MIB);
	}
	culprits_window(&c, T0, 100 * MS, &w);
	ck_assert_int_eq(w.top[0].pid, 20000 + CULPRITS_SLOT_TOP + 2);
	ck_assert_uint_eq(w.total_written, (uint64_t)(CULPRITS_SLOT_TOP + 3) *
					   (CULPRITS_SLOT_TOP + 4) / 2 * MIB);
	culprits_free(&c);
}
END_TEST

/* Full, the history's neighbours merge and a slot spans twice the time:
 * the memory stays, a window still finds its bytes. */
START_TEST(test_history_halves)
{
	struct culprits c;
	struct ws_stall_culprits w;
	uint64_t last = T0 + CULPRITS_SLOTS * CULPRITS_SLOT_NS + SEC;

	ck_assert_uint_eq(CULPRITS_SLOTS, 2048);
	ck_assert_uint_eq(CULPRITS_SLOT_NS, 250 * MS);
	setup(&c);
	sent(&c, T0 + SEC, 500, MIB);
	ck_assert_uint_eq(c.slot_ns, CULPRITS_SLOT_NS);
	sent(&c, last, 600, 2 * MIB);
	ck_assert_uint_eq(c.slot_ns, 2 * CULPRITS_SLOT_NS);
	ck_assert_uint_le(c.nslots, CULPRITS_SLOTS);
	culprits_window(&c, T0 + SEC, MS, &w);
	ck_assert_int_eq(w.top[0].pid, 500);
	ck_assert_uint_eq(w.total_written, MIB);
	culprits_window(&c, last, MS, &w);
	ck_assert_int_eq(w.top[0].pid, 600);
	/* a day of events: still CULPRITS_SLOTS slots */
	sent(&c, T0 + 86400 * SEC, 700, MIB);
	ck_assert_uint_le(c.nslots, CULPRITS_SLOTS);
	culprits_window(&c, T0, 86401 * SEC, &w);
	ck_assert_uint_eq(w.total_written, 4 * MIB);
	culprits_free(&c);
}
END_TEST

/* The interval's writers: named, most first, reset at each take. */
START_TEST(test_take_now)
{
	struct culprits c;
	struct ws_writers_now now;

	setup(&c);
	sent(&c, T0 + SEC, 600, MIB);
	sent(&c, T0 + SEC, 500, 2 * MIB);
	culprits_take_now(&c, &now);
	ck_assert(now.traced);
	ck_assert_uint_eq(now.n, 2);
	ck_assert_str_eq(now.top[0].comm, "rsync");
	ck_assert_str_eq(now.top[1].comm, "firefox");
	ck_assert_uint_eq(now.total_written, 3 * MIB);
	culprits_take_now(&c, &now);
	ck_assert_uint_eq(now.n, 0);
	ck_assert_uint_eq(now.total_written, 0);
	culprits_free(&c);
}
END_TEST

/* An exec forgets a thread, so its next event reads its new name, and
 * its row takes it; writestress's own (a probe's command) stay its own. */
START_TEST(test_exec)
{
	struct culprits c;
	struct ws_culprits t;
	struct culprit_who renamed = rsync;

	setup(&c);
	sent(&c, T0 + SEC, 500, MIB);
	culprits_exec(&c, T0, 500, NULL);
	ck_assert_ptr_null(culprits_who(&c, 500));
	snprintf(renamed.comm, sizeof(renamed.comm), "tar");
	culprits_learn(&c, &renamed);
	culprits_table(&c, &t);
	ck_assert_str_eq(row(&t, 500)->comm, "tar");
	culprits_exec(&c, T0, OURS + 1, NULL);
	ck_assert_ptr_nonnull(culprits_who(&c, OURS + 1));
	culprits_exec(&c, T0, 12345, NULL);	/* never known: nothing */
	culprits_free(&c);
}
END_TEST

/* A process gone before its first event is read is named as its fork,
 * exec or rename said: the exec's file, cut as the kernel cuts a comm;
 * an older event read late changes nothing; the table keeps the last
 * CULPRITS_NAMES pids. */
START_TEST(test_names)
{
	struct culprits c;
	struct ws_culprits t;
	unsigned int kept = 0;

	setup(&c);
	ck_assert_ptr_null(culprits_name_of(&c, 700));
	culprits_name_seen(&c, T0, 700, "sh");	/* forked by a shell */
	ck_assert_str_eq(culprits_name_of(&c, 700), "sh");
	culprits_exec(&c, T0 + 1, 700, "/usr/bin/dd");
	ck_assert_str_eq(culprits_name_of(&c, 700), "dd");
	culprits_name_seen(&c, T0, 700, "sh");	/* the fork, read after the exec */
	ck_assert_str_eq(culprits_name_of(&c, 700), "dd");
	culprits_rename(&c, T0 + 2, 700, "flooder");	/* prctl(PR_SET_NAME) */
	ck_assert_str_eq(culprits_name_of(&c, 700), "flooder");
	culprits_exec(&c, T0, 701, "/opt/x/averyveryverylongname");	/* 15 kept */
	ck_assert_str_eq(culprits_name_of(&c, 701), "averyveryverylo");
	culprits_exec(&c, T0, 702, "rsync");
	ck_assert_str_eq(culprits_name_of(&c, 702), "rsync");
	culprits_exec(&c, T0, 703, NULL);		/* not traced: no name */
	culprits_exec(&c, T0, 703, "");
	culprits_rename(&c, T0, 703, "");
	ck_assert_ptr_null(culprits_name_of(&c, 703));
	culprits_name_seen(&c, T0, 0, "swapper");	/* never pid 0's */
	ck_assert_ptr_null(culprits_name_of(&c, 0));
	/* a live leader's rename names its row; a thread's does not */
	sent(&c, T0 + SEC, 500, MIB);
	culprits_rename(&c, T0 + SEC, 500, "rsync-worker");
	culprits_rename(&c, T0 + SEC, 501, "rsync-io");	/* rsync2, a thread */
	culprits_table(&c, &t);
	ck_assert_str_eq(row(&t, 500)->comm, "rsync-worker");
	ck_assert_str_eq(culprits_who(&c, 501)->comm, "rsync");
	/* consecutive pids fill the slots one each: the last 1024 kept,
	 * the one before them gone */
	ck_assert_uint_eq(CULPRITS_NAMES, 1024);
	for (int32_t pid = 10000; pid < 10000 + 4096; pid++)
		culprits_name_seen(&c, T0, pid, "make");
	for (int32_t pid = 10000; pid < 10000 + 4096; pid++)
		kept += culprits_name_of(&c, pid) != NULL;
	ck_assert_uint_eq(kept, 1024);
	ck_assert_ptr_null(culprits_name_of(&c, 10000 + 4096 - 1025));
	ck_assert_ptr_nonnull(culprits_name_of(&c, 10000 + 4096 - 1024));
	ck_assert_ptr_nonnull(culprits_name_of(&c, 10000 + 4096 - 1));
	culprits_free(&c);
}
END_TEST

/* The names' fields as the kernel lays them out: a fork's child_comm
 * (char[16] in place), an exec's filename (__data_loc: offset and length
 * in a u32; __rel_loc: the offset from the field's end); a location out
 * of the record, or no field, is "". */
START_TEST(test_field_string)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event ev = { .tep = tep };
	struct tep_format_field comm = { .event = &ev, .offset = 8, .size = 16 };
	struct tep_format_field loc = { .event = &ev, .offset = 8, .size = 4,
					.flags = TEP_FIELD_IS_DYNAMIC };
	struct tep_format_field rel = { .event = &ev, .offset = 8, .size = 4,
					.flags = TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_RELATIVE };
	unsigned char data[64] = { 0 };
	struct tep_record rec = { .data = data, .size = 32 };
	char out[WS_COMM_LEN], path[64];
	uint32_t v;

	ck_assert_ptr_nonnull(tep);
	memcpy(data + 8, "kworker/u8:1", 12);
	tracer_field_string(&comm, &rec, out, sizeof(out));
	ck_assert_str_eq(out, "kworker/u8:1");
	memcpy(data + 8, "0123456789abcdef", 16);	/* no NUL: 15 kept */
	tracer_field_string(&comm, &rec, out, sizeof(out));
	ck_assert_str_eq(out, "0123456789abcde");

	memcpy(data + 20, "/usr/bin/dd", 12);	/* with its NUL */
	v = 12u << 16 | 20;
	memcpy(data + 8, &v, 4);
	tracer_field_string(&loc, &rec, path, sizeof(path));
	ck_assert_str_eq(path, "/usr/bin/dd");
	v = 12u << 16 | (20 - 12);
	memcpy(data + 8, &v, 4);
	tracer_field_string(&rel, &rec, path, sizeof(path));
	ck_assert_str_eq(path, "/usr/bin/dd");
	/* the string's end at the record's, then one byte past it */
	rec.size = 32;
	v = 12u << 16 | 20;
	memcpy(data + 8, &v, 4);
	tracer_field_string(&loc, &rec, path, sizeof(path));
	ck_assert_str_eq(path, "/usr/bin/dd");
	rec.size = 31;
	tracer_field_string(&loc, &rec, path, sizeof(path));
	ck_assert_str_eq(path, "");
	tracer_field_string(NULL, &rec, path, sizeof(path));
	ck_assert_str_eq(path, "");
	tep_free(tep);
}
END_TEST

/* writestress's own processes: the pinned ones (the launchers) stay
 * however many children come and go; the ring keeps the last; a pid
 * forgotten is nobody's own any more, a pinned one stays. */
START_TEST(test_ours_set)
{
	struct culprits c;

	setup(&c);
	culprits_add_ours(&c, 900, true);
	for (int32_t pid = 1000; pid < 1000 + 3 * CULPRITS_OURS; pid++)
		culprits_add_ours(&c, pid, false);
	ck_assert(culprits_is_ours(&c, 900));
	ck_assert(culprits_is_ours(&c, 1000 + 3 * CULPRITS_OURS - 1));
	ck_assert(!culprits_is_ours(&c, 1000));
	culprits_forget(&c, 1000 + 3 * CULPRITS_OURS - 1);
	ck_assert(!culprits_is_ours(&c, 1000 + 3 * CULPRITS_OURS - 1));
	culprits_forget(&c, 900);
	ck_assert(culprits_is_ours(&c, 900));
	ck_assert(!culprits_is_ours(&c, 0));
	culprits_free(&c);
}
END_TEST

/* /proc/PID/cgroup: the unified path, else blkio's, io's, systemd's;
 * "/" everywhere is no cgroup. */
START_TEST(test_pick_cgroup)
{
	char out[WS_CGROUP_LEN];

	culprits_pick_cgroup("0::/user.slice/user-1000.slice/session-2.scope\n", out, sizeof(out));
	ck_assert_str_eq(out, "/user.slice/user-1000.slice/session-2.scope");
	culprits_pick_cgroup("9:name=systemd:/system.slice/cron.service\n7:blkio:/ws_flood\n0::/\n",
			     out, sizeof(out));
	ck_assert_str_eq(out, "/ws_flood");
	culprits_pick_cgroup("9:name=systemd:/system.slice/cron.service\n7:blkio:/\n0::/\n",
			     out, sizeof(out));
	ck_assert_str_eq(out, "/system.slice/cron.service");
	culprits_pick_cgroup("7:blkio:/\n0::/\n", out, sizeof(out));
	ck_assert_str_eq(out, "");
	/* "10::" is no unified line */
	culprits_pick_cgroup("10::/x\n", out, sizeof(out));
	ck_assert_str_eq(out, "");
}
END_TEST

/* The device's completions take the bytes in the order sent: a
 * stall's culprits are whose bytes it wrote meanwhile, not who sent
 * them then; writestress's and the journal's take their turn, credited
 * to nobody's stall. */
START_TEST(test_completions_in_order)
{
	struct culprits c;
	struct ws_stall_culprits w;

	setup(&c);
	culprits_bio(&c, T0 + SEC, OURS + 1, 2 * MIB);
	culprits_bio(&c, T0 + SEC, 500, 4 * MIB);
	culprits_bio(&c, T0 + SEC, 78, MIB);
	culprits_bio(&c, T0 + SEC, 600, MIB);
	culprits_window(&c, T0 + SEC, 100 * MS, &w);
	ck_assert_uint_eq(w.total_written, 0);	/* sent, not yet written */
	culprits_completed(&c, T0 + 3 * SEC, 3 * MIB);
	culprits_window(&c, T0 + 3 * SEC, 100 * MS, &w);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_int_eq(w.top[0].pid, 500);
	ck_assert_uint_eq(w.top[0].written, MIB);
	culprits_completed(&c, T0 + 5 * SEC, 5 * MIB);
	culprits_window(&c, T0 + 5 * SEC, 100 * MS, &w);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_int_eq(w.top[0].pid, 500);
	ck_assert_uint_eq(w.top[0].written, 3 * MIB);
	ck_assert_int_eq(w.top[1].pid, 600);
	ck_assert_uint_eq(w.total_written, 4 * MIB);
	/* more done than sent: nobody's */
	culprits_completed(&c, T0 + 6 * SEC, 8 * MIB);
	culprits_window(&c, T0 + 6 * SEC, 100 * MS, &w);
	ck_assert_uint_eq(w.total_written, 0);
	culprits_free(&c);
}
END_TEST

/* A full queue of runs takes its oldest as written when a new one comes:
 * the memory stays, no byte is lost. */
START_TEST(test_pending_bounded)
{
	struct culprits c;
	struct ws_stall_culprits w;

	setup(&c);
	for (unsigned int i = 0; i < CULPRITS_PENDING + 1; i++)
		culprits_bio(&c, T0 + SEC, i % 2 ? 500 : 600, 4096);
	ck_assert_uint_eq(c.npending, CULPRITS_PENDING);
	culprits_completed(&c, T0 + 2 * SEC, UINT64_MAX / 2);
	culprits_window(&c, T0, 3 * SEC, &w);
	ck_assert_uint_eq(w.total_written, (uint64_t)(CULPRITS_PENDING + 1) * 4096);
	ck_assert_uint_eq(c.npending, 0);
	culprits_free(&c);
}
END_TEST

Suite *culprits_suite(void)
{
	Suite *s = suite_create("culprits");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_workers_named);
	tcase_add_test(tc, test_own_bios);
	tcase_add_test(tc, test_inode_writeback);
	tcase_add_test(tc, test_journal_no_culprit);
	tcase_add_test(tc, test_table_bounded);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_completions_in_order);
	tcase_add_test(tc, test_pending_bounded);
	tcase_add_test(tc, test_slot_rest);
	tcase_add_test(tc, test_history_halves);
	tcase_add_test(tc, test_take_now);
	tcase_add_test(tc, test_kernel_dirtier);
	tcase_add_test(tc, test_pending_expires);
	tcase_add_test(tc, test_exec);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_field_string);
	tcase_add_test(tc, test_ours_set);
	tcase_add_test(tc, test_pick_cgroup);
	suite_add_tcase(s, tc);
	return s;
}
