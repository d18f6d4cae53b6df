/* test_probe.c - the desktop-latency probes: the probe directory of a
 * config, the ops table, and each probe's setup, run and cleanup on a temporary
 * directory: its own files only (created exclusively, never an existing
 * name or a symlink), sizes as the operation leaves them, and nothing left
 * behind; the sqlite probe's rows in its database, the dsync probe's
 * overwrites in place, the cmd probe's commands run as whom they should,
 * their exit statuses and timeouts.  No latency is measured here: the
 * monitor times the runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <sqlite3.h>

#include "lib/c.h"
#include "config/config.h"
#include "probes/probe.h"
#include "probes/probe_kinds.h"
#include "system/signals.h"
#include "suites.h"
#include "testutil.h"

/* the kinds' own state (probe_kinds.h) */
#define FILE_OF(p) ((struct file_probe *)(p).priv)
#define SQLITE_OF(p) ((struct sqlite_probe *)(p).priv)
#define CMD_OF(p) ((struct cmd_probe *)(p).priv)

#define BIT(k) (1u << (k))

/* What the last run's failure says ("" for none), as the outputs word it. */
static const char *fail_words(const struct probe *pr)
{
	static char buf[160];

	if (pr->fail.kind == WS_FAIL_NONE)
		return "";
	return ws_probe_failure_words(&pr->fail, 0, buf, sizeof(buf));
}

/* Every kind is in the table, at its own place, under the name the
 * list parser knows (the record's). */
START_TEST(test_kinds_table)
{
	for (int k = 0; k < WS_PROBE_NR; k++) {
		const struct probe_ops *ops = probe_kinds[k];
		unsigned int set = 0;
		char bad[16];

		ck_assert_ptr_nonnull(ops);
		ck_assert_int_eq(ops->kind, k);
		ck_assert_ptr_nonnull(ops->setup);
		ck_assert_ptr_nonnull(ops->run);
		ck_assert_ptr_nonnull(ops->cleanup);
		ck_assert_int_eq(ws_probe_parse_list(ws_probe_kind_name(ops->kind), &set, bad,
						     sizeof(bad)), 0);
		ck_assert_uint_eq(set, BIT(k));
		/* a command's time is its own: it has no count of syncs */
		ck_assert_int_eq(ops->syncs == NULL, ops->per_command);
	}
}
END_TEST

/*
 * The synchronous calls an operation makes, where adaptive pacing's
 * waits start (writestress(1)): fsync, dsync and read 1, save 2, sqlite
 * 4 in a rollback journal under FULL, 3 under NORMAL, 1 in WAL.
 */
static const struct {
	enum ws_probe_kind kind;
	bool wal, normal;
	unsigned int syncs;
} syncs_rows[] = {
	{ WS_PROBE_FSYNC, false, false, 1 }, { WS_PROBE_DSYNC, false, false, 1 },
	{ WS_PROBE_READ, false, false, 1 }, { WS_PROBE_SAVE, false, false, 2 },
	{ WS_PROBE_SQLITE, false, false, 4 }, { WS_PROBE_SQLITE, false, true, 3 },
	{ WS_PROBE_SQLITE, true, false, 1 }, { WS_PROBE_SQLITE, true, true, 1 },
};

START_TEST(test_syncs)
{
	struct ws_config cfg;
	struct probe p = { .cfg = &cfg };

	config_defaults(&cfg);
	cfg.set.sqlite.wal = syncs_rows[_i].wal;
	cfg.set.sqlite.sync_normal = syncs_rows[_i].normal;
	p.ops = probe_kinds[syncs_rows[_i].kind];
	ck_assert_uint_eq(p.ops->syncs(&p), syncs_rows[_i].syncs);
}
END_TEST

/* ---- probe_dir_of ---- */

static const struct {
	const char *probe_dir, *path, *want;
} dirs[] = {
	{ NULL, "/data/big.dat", "/data" },
	{ NULL, "/a/b/c/file", "/a/b/c" },
	{ NULL, "big.dat", "." },
	{ NULL, "sub/big.dat", "sub" },
	{ NULL, "/big.dat", "/" },
	{ "/elsewhere", "/data/big.dat", "/elsewhere" },
	{ "rel", "big.dat", "rel" },
};

START_TEST(test_dir_of)
{
	struct ws_config cfg;
	char out[64];

	config_defaults(&cfg);
	cfg.set.path = dirs[_i].path;
	cfg.set.probe_dir = dirs[_i].probe_dir;
	probe_dir_of(&cfg, out, sizeof(out));
	ck_assert_str_eq(out, dirs[_i].want);
}
END_TEST

/* ---- probes on a temporary directory ---- */

static char dir[64];
static struct ws_config cfg;
static struct probe p;

static void tmp_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ws-probe-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	config_defaults(&cfg);
	cfg.set.path = "unused";
	cfg.set.probe_dir = dir;
	cfg.set.probe_size = 4096;
	memset(&p, 0, sizeof(p));
	p.fd = p.dirfd = -1;
}

/* The directory must be empty again: every probe removes its files. */
static void tmp_teardown(void)
{
	probe_cleanup(&p);
	ck_assert_msg(rmdir(dir) == 0, "%s not empty: %s", dir, strerror(errno));
}

static bool exists(const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static struct stat stat_of(const char *name)
{
	char path[160];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_msg(lstat(path, &st) == 0, "%s: %s", path, strerror(errno));
	return st;
}

static void remove_file(const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(unlink(path), 0);
}

static void our_name(char *buf, size_t len, const char *suffix)
{
	snprintf(buf, len, "writestress-probe.%d.%s", (int)getpid(), suffix);
}

START_TEST(test_fsync_probe)
{
	char name[64], head[32];
	struct stat st;
	int fd;

	cfg.set.probe_size = 256 * 1024;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, 0, &cfg), 0);
	our_name(name, sizeof(name), "fsync");
	ck_assert_str_eq(p.name, name);
	ck_assert_str_eq(p.dir, dir);
	st = stat_of(name);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 0777, 0600);	/* ours alone */
	ck_assert_int_eq(st.st_size, 0);

	/* every run appends probe_size bytes */
	for (int i = 1; i * cfg.set.probe_size <= WS_PROBE_FSYNC_WRAP; i++) {
		if (p.ops->prepare)
			p.ops->prepare(&p);
		ck_assert_int_eq(p.ops->run(&p), 0);
		ck_assert_int_eq(stat_of(name).st_size, i * cfg.set.probe_size);
	}
	/* the next would pass the wrap: emptied first, untimed */
	p.ops->prepare(&p);
	ck_assert_int_eq(stat_of(name).st_size, 0);
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_int_eq(stat_of(name).st_size, cfg.set.probe_size);

	/* recognisable text, not zeros a filesystem could skip */
	fd = openat(p.dirfd, name, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, head, 18), 18);
	close(fd);
	ck_assert_int_eq(memcmp(head, "writestress probe\n", 18), 0);

	probe_cleanup(&p);
	ck_assert(!exists(name));
	ck_assert_int_eq(p.fd, -1);
	ck_assert_int_eq(p.dirfd, -1);
	probe_cleanup(&p);		/* twice is safe */
}
END_TEST

START_TEST(test_fsync_probe_fdatasync)
{
	char name[64];

	cfg.set.probe_fdatasync = true;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, 0, &cfg), 0);
	our_name(name, sizeof(name), "fsync");
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_int_eq(stat_of(name).st_size, cfg.set.probe_size);
}
END_TEST

START_TEST(test_save_probe)
{
	char name[64], tmp[64];

	cfg.set.probe_size = 1000;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SAVE, 0, &cfg), 0);
	our_name(name, sizeof(name), "save");
	our_name(tmp, sizeof(tmp), "save.tmp");
	ck_assert_str_eq(p.name, name);
	ck_assert_str_eq(p.tmp_name, tmp);
	/* both names were claimed; the temporary is not kept */
	ck_assert_int_eq(stat_of(name).st_size, 0);
	ck_assert(!exists(tmp));
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(p.ops->run(&p), 0);
		/* renamed over: one file of one save, no temporary left */
		ck_assert_int_eq(stat_of(name).st_size, 1000);
		ck_assert(!exists(tmp));
	}
	probe_cleanup(&p);
	ck_assert(!exists(name));
}
END_TEST

/* A name already there is never taken over, nor removed. */
START_TEST(test_existing_file_is_not_ours)
{
	char name[64], want[256];

	our_name(name, sizeof(name), "fsync");
	tu_write_file(dir, name, "someone else's\n");
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, 0, &cfg), -EEXIST);
	snprintf(want, sizeof(want), "fsync probe: cannot create its file in '%s': %s",
		 dir, strerror(EEXIST));
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	ck_assert_int_eq(stat_of(name).st_size, 15);	/* still there, intact */
	remove_file(name);
}
END_TEST

/* A symlink planted at the name is not followed. */
START_TEST(test_symlink_is_not_followed)
{
	char name[64], link[160], target[160];

	our_name(name, sizeof(name), "save");
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/%s", dir, name);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SAVE, 0, &cfg), -EEXIST);
	ck_assert(!exists("target"));		/* nothing created through it */
	ck_assert(S_ISLNK(stat_of(name).st_mode));
	probe_cleanup(&p);
	ck_assert(S_ISLNK(stat_of(name).st_mode));
	remove_file(name);
}
END_TEST

/* The save probe's temporary name taken: its own first file goes again,
 * the stranger's stays. */
START_TEST(test_save_tmp_taken)
{
	char name[64], tmp[64], want[256];

	our_name(name, sizeof(name), "save");
	our_name(tmp, sizeof(tmp), "save.tmp");
	tu_write_file(dir, tmp, "x");
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SAVE, 0, &cfg), -EEXIST);
	snprintf(want, sizeof(want),
		 "save probe: cannot create its temporary file in '%s': %s", dir,
		 strerror(EEXIST));
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	ck_assert(!exists(name));
	ck_assert(exists(tmp));
	remove_file(tmp);
}
END_TEST

START_TEST(test_no_directory)
{
	char want[256];

	cfg.set.probe_dir = "/nonexistent/ws-probe";
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, 0, &cfg), -ENOENT);
	snprintf(want, sizeof(want), "fsync probe: cannot open the directory in "
		 "'/nonexistent/ws-probe': %s", strerror(ENOENT));
	ck_assert_str_eq(p.err, want);
}
END_TEST

/* ---- the read probe ---- */

static void make_sized(const char *name, off_t size)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	close(fd);
}

START_TEST(test_read_probe)
{
	char path[160];

	make_sized("data", 64 * 1024);
	snprintf(path, sizeof(path), "%s/data", dir);
	cfg.set.read_probe = path;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_READ, 0, &cfg), 0);
	ck_assert_uint_eq(FILE_OF(p)->read_blocks, 16);
	for (int i = 0; i < 50; i++) {
		p.ops->prepare(&p);
		/* a whole block of the file, wherever it falls */
		ck_assert_uint_eq(FILE_OF(p)->offset % 4096, 0);
		ck_assert_uint_lt(FILE_OF(p)->offset, 64 * 1024);
		ck_assert_int_eq(p.ops->run(&p), 0);
	}
	probe_cleanup(&p);
	/* the file read is not ours: it stays */
	ck_assert_int_eq(stat_of("data").st_size, 64 * 1024);
	remove_file("data");
}
END_TEST

static const struct {
	const char *make;	/* "small", "dir", or NULL: nothing there */
	int ret;
	const char *why;	/* after the path */
} read_refusals[] = {
	{ "small", -EINVAL, "' must be a regular file of at least 4 KiB" },
	{ "dir", -EINVAL, "' must be a regular file of at least 4 KiB" },
	{ NULL, -ENOENT, "' must be a regular file of at least 4 KiB: " },
};

START_TEST(test_read_probe_refused)
{
	char path[160], want[512];

	snprintf(path, sizeof(path), "%s/input", dir);
	if (read_refusals[_i].make && !strcmp(read_refusals[_i].make, "small"))
		make_sized("input", 4095);
	else if (read_refusals[_i].make)
		ck_assert_int_eq(mkdir(path, 0700), 0);
	cfg.set.read_probe = path;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_READ, 0, &cfg), read_refusals[_i].ret);
	snprintf(want, sizeof(want), "read probe: '%s%s%s", path,
		 read_refusals[_i].why,
		 read_refusals[_i].ret == -ENOENT ? strerror(ENOENT) : "");
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	if (read_refusals[_i].make && !strcmp(read_refusals[_i].make, "dir"))
		ck_assert_int_eq(rmdir(path), 0);
	else if (read_refusals[_i].make)
		remove_file("input");
}
END_TEST

START_TEST(test_read_probe_needs_path)
{
	ck_assert_int_eq(probe_init(&p, WS_PROBE_READ, 0, &cfg), -EINVAL);
	ck_assert_str_eq(p.err, "read probe: needs --read-probe PATH, an existing "
				"file to read from");
}
END_TEST

/* ---- the sqlite probe ---- */

static long long sqlite_rows(const char *name)
{
	char path[200];
	sqlite3 *db;
	sqlite3_stmt *st;
	long long n = -1;

	snprintf(path, sizeof(path), "%s/%s/mail.db", dir, name);
	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM mail", -1, &st, NULL),
			 SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* In a directory of its own (0700: nobody else can plant a name where
 * SQLite opens its journals), one row a run, committed (another connection
 * sees it), the rollback journal gone after each commit; emptied untimed
 * at the wrap; nothing left at the end. */
START_TEST(test_sqlite_probe)
{
	char name[64], db[96], journal[96];
	const char *names[PROBE_MAX_NAMES];

	cfg.set.probe_size = 256 * 1024;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SQLITE, 0, &cfg), 0);
	our_name(name, sizeof(name), "sqlite");
	snprintf(db, sizeof(db), "%s/mail.db", name);
	snprintf(journal, sizeof(journal), "%s/mail.db-journal", name);
	ck_assert_str_eq(p.name, name);
	ck_assert(S_ISDIR(stat_of(name).st_mode));
	ck_assert_uint_eq(stat_of(name).st_mode & 0777, 0700);
	ck_assert(S_ISREG(stat_of(db).st_mode));
	/* the files before their directory, for the signal handler */
	ck_assert_uint_eq(probe_file_names(&p, names), 5);
	ck_assert_str_eq(names[0], db);
	ck_assert_str_eq(names[1], journal);
	ck_assert_str_eq(names[4], name);
	for (int i = 1; i <= 4; i++) {
		p.ops->prepare(&p);
		ck_assert_int_eq(p.ops->run(&p), 0);
		ck_assert_int_eq(sqlite_rows(name), i);
		ck_assert(!exists(journal));	/* delete mode: committed */
	}
	p.ops->prepare(&p);	/* 4 x 256 KiB: the next passes the wrap */
	ck_assert_int_eq(sqlite_rows(name), 0);
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_int_eq(sqlite_rows(name), 1);
	probe_cleanup(&p);
	ck_assert(!exists(name));
}
END_TEST

/* WAL and synchronous=NORMAL as asked; the -wal and -shm files go too. */
START_TEST(test_sqlite_probe_wal)
{
	char name[64], wal[96], sql[64];
	sqlite3_stmt *st;

	cfg.set.sqlite.wal = true;
	cfg.set.sqlite.sync_normal = true;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SQLITE, 0, &cfg), 0);
	our_name(name, sizeof(name), "sqlite");
	snprintf(wal, sizeof(wal), "%s/mail.db-wal", name);
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert(exists(wal));
	for (int i = 0; i < 2; i++) {
		snprintf(sql, sizeof(sql), "PRAGMA %s", i ? "synchronous" : "journal_mode");
		ck_assert_int_eq(sqlite3_prepare_v2(SQLITE_OF(p)->db, sql, -1, &st, NULL), SQLITE_OK);
		ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
		if (i)
			ck_assert_int_eq(sqlite3_column_int(st, 0), 1);	/* NORMAL */
		else
			ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
		sqlite3_finalize(st);
	}
	probe_cleanup(&p);
	ck_assert(!exists(name));
}
END_TEST

/* Its directory's name taken by a stranger's file: the probe does not
 * start and leaves the stranger's file alone. */
START_TEST(test_sqlite_name_taken)
{
	char name[64], want[256];

	our_name(name, sizeof(name), "sqlite");
	tu_write_file(dir, name, "someone else's\n");
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SQLITE, 0, &cfg), -EEXIST);
	snprintf(want, sizeof(want), "sqlite probe: cannot create its directory in '%s': %s",
		 dir, strerror(EEXIST));
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	ck_assert_int_eq(stat_of(name).st_size, 15);
	remove_file(name);
}
END_TEST

/* A failed commit says SQLite's own words (here: the connection made
 * read-only under it). */
START_TEST(test_sqlite_failure_says_why)
{
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SQLITE, 0, &cfg), 0);
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_int_eq(sqlite3_exec(SQLITE_OF(p)->db, "PRAGMA query_only=1", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_lt(p.ops->run(&p), 0);
	ck_assert_msg(!strncmp(fail_words(&p), "SQLite: ", 8), "fail: '%s'", fail_words(&p));
	probe_cleanup(&p);
}
END_TEST

/* A transaction that cannot even begin (one is open already) is a failed
 * probe with SQLite's reason, and so is a commit SQLite refuses (a
 * deferred foreign key left broken); the probe goes on after each. */
START_TEST(test_sqlite_begin_and_commit_refused)
{
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SQLITE, 0, &cfg), 0);
	ck_assert_int_eq(sqlite3_exec(SQLITE_OF(p)->db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_lt(p.ops->run(&p), 0);
	ck_assert_msg(strstr(fail_words(&p), "within a transaction"), "fail: '%s'", fail_words(&p));
	ck_assert_int_eq(sqlite3_exec(SQLITE_OF(p)->db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(p.ops->run(&p), 0);

	ck_assert_int_eq(sqlite3_exec(SQLITE_OF(p)->db,
		"PRAGMA foreign_keys=ON;"
		" CREATE TABLE parent(id INTEGER PRIMARY KEY);"
		" CREATE TABLE child(pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);"
		" CREATE TRIGGER orphan AFTER INSERT ON mail BEGIN INSERT INTO child VALUES (42); END;",
		NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_lt(p.ops->run(&p), 0);
	ck_assert_msg(strstr(fail_words(&p), "FOREIGN KEY"), "fail: '%s'", fail_words(&p));
	ck_assert_int_eq(sqlite3_get_autocommit(SQLITE_OF(p)->db), 1);	/* rolled back */
	ck_assert_int_eq(sqlite3_exec(SQLITE_OF(p)->db, "DROP TRIGGER orphan", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(p.ops->run(&p), 0);
	probe_cleanup(&p);
}
END_TEST

/* ---- the dsync probe ---- */

/* Allocated at setup, then overwritten in place, block after block, by an
 * O_DSYNC descriptor: the size never changes. */
START_TEST(test_dsync_probe)
{
	char name[64];
	off_t size;

	ck_assert_int_eq(probe_init(&p, WS_PROBE_DSYNC, 0, &cfg), 0);
	our_name(name, sizeof(name), "dsync");
	size = stat_of(name).st_size;
	ck_assert_int_eq(size, 1024 * 1024);
	ck_assert(fcntl(p.fd, F_GETFL) & O_DSYNC);
	for (int i = 0; i < 300; i++) {
		uint64_t before = FILE_OF(p)->offset;

		p.ops->prepare(&p);
		ck_assert_uint_eq(FILE_OF(p)->offset, before + 4096 >= (uint64_t)size ? 0 : before + 4096);
		ck_assert_int_eq(p.ops->run(&p), 0);
	}
	ck_assert_int_eq(stat_of(name).st_size, size);
	probe_cleanup(&p);
	ck_assert(!exists(name));
}
END_TEST

/* ---- the cmd probe ---- */

static void one_command(const char *line)
{
	struct ws_probe_cmd c = { .name = "t", .line = line };

	cfg.set.cmds.list[0] = c;
	cfg.set.cmds.n = 1;
}

/* Exit 0 is a probe that worked; any other status, a signal or the
 * timeout is a failure that says which, with the last line the command
 * wrote to its stderr (a success's stderr is no reason).  The command
 * over its timeout is killed, not waited for: when the probe returns, the
 * process it became (its pid in the file pid) is gone. */
START_TEST(test_cmd_probe_outcomes)
{
	char buf[32] = "", path[160];
	pid_t pid;
	FILE *f;

	one_command("case $(cat n 2>/dev/null) in '') echo 1 > n; echo chatter >&2;;"
		    " 1) echo 2 > n; printf 'first\\nno space left\\n\\n' >&2; exit 3;;"
		    " 2) echo 3 > n; echo dying >&2; kill -TERM $$;;"
		    " *) echo $$ > pid; echo stuck >&2; exec sleep 3600;; esac");
	cfg.set.cmds.timeout_ns = 300 * 1000000ull;
	if (geteuid() == 0)
		cfg.probe_user = "root";	/* to write n in the test's directory */
	ck_assert_int_eq(probe_init(&p, WS_PROBE_CMD, 0, &cfg), 0);
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_str_eq(fail_words(&p), "");
	ck_assert_str_eq(p.fail_stderr, "");
	ck_assert_int_eq(p.ops->run(&p), -ECHILD);
	ck_assert_str_eq(fail_words(&p), "exit status 3");
	ck_assert_str_eq(p.fail_stderr, "no space left");
	ck_assert_int_eq(p.ops->run(&p), -ECHILD);
	ck_assert_str_eq(fail_words(&p), "killed by signal 15");
	ck_assert_str_eq(p.fail_stderr, "dying");
	ck_assert_int_eq(p.ops->run(&p), -ETIMEDOUT);
	ck_assert_str_eq(fail_words(&p), "killed after the --probe-timeout");
	ck_assert_str_eq(p.fail_stderr, "stuck");
	snprintf(path, sizeof(path), "%s/pid", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	pid = (pid_t)atoi(buf);
	ck_assert_int_gt(pid, 1);
	ck_assert_int_eq(kill(pid, 0), -1);	/* killed and reaped */
	ck_assert_int_eq(errno, ESRCH);
	probe_cleanup(&p);
	remove_file("n");
	remove_file("pid");
}
END_TEST

/* The launcher's wait where the kernel has no pidfd (before Linux 5.3),
 * by polling: a command that ends is done with its status, one still
 * running at the timeout timed out (and is still there: the launcher
 * kills it), a byte on the socket is a stop. */
START_TEST(test_cmd_wait_polling)
{
	int sv[2], errp[2], status = -1;
	struct cmd_stderr t = { .len = 0 };
	char line[WS_STDERR_LINE];
	pid_t quick, slow;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(pipe2(errp, O_NONBLOCK), 0);
	quick = fork();
	ck_assert_int_ge(quick, 0);
	if (!quick) {
		ck_assert_int_eq(write(errp[1], "bye\n", 4), 4);
		ws_exit_now(7);
	}
	close(errp[1]);
	ck_assert_int_eq(probe_cmd_wait_polling(quick, 3600000, sv[0], errp[0], &t, &status),
			 CMD_DONE);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	probe_cmd_drain(errp[0], &t);
	probe_cmd_last_line(&t, line, sizeof(line));
	ck_assert_str_eq(line, "bye");
	close(errp[0]);
	ck_assert_int_eq(probe_cmd_wait_polling(quick, 10, sv[0], -1, &t, &status), CMD_LOST);

	slow = fork();
	ck_assert_int_ge(slow, 0);
	if (!slow) {
		pause();
		ws_exit_now(0);
	}
	ck_assert_int_eq(probe_cmd_wait_polling(slow, 5, sv[0], -1, &t, &status), CMD_TIMED_OUT);
	ck_assert_int_eq(kill(slow, 0), 0);	/* left to the launcher to kill */
	ck_assert_int_eq(send(sv[1], "k", 1, 0), 1);
	ck_assert_int_eq(probe_cmd_wait_polling(slow, 3600000, sv[0], -1, &t, &status), CMD_STOPPED);
	ck_assert_int_eq(kill(slow, SIGKILL), 0);
	ck_assert_int_eq(waitpid(slow, &status, 0), slow);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* What a failed command said: the last line with text, trailing blank
 * lines and spaces cut, control bytes shown, at most 159 bytes; of a
 * stderr longer than the kept tail, its end. */
static const struct {
	const char *in, *want;
} last_lines[] = {
	{ "", "" },
	{ "\n\n  \n", "" },
	{ "one", "one" },
	{ "one\ntwo\n", "two" },
	{ "one\ntwo  \r\n\n\n", "two" },
	{ "a\tb\x1b[31mc\n", "a?b?[31mc" },
};

START_TEST(test_cmd_last_line)
{
	struct cmd_stderr t = { .len = strlen(last_lines[_i].in) };
	char out[WS_STDERR_LINE];

	memcpy(t.tail, last_lines[_i].in, t.len);
	probe_cmd_last_line(&t, out, sizeof(out));
	ck_assert_str_eq(out, last_lines[_i].want);
}
END_TEST

START_TEST(test_cmd_stderr_tail)
{
	struct cmd_stderr t = { .len = 0 };
	char out[WS_STDERR_LINE], big[2000], want[WS_STDERR_LINE];
	int pp[2];

	ck_assert_int_eq(pipe2(pp, O_NONBLOCK), 0);
	/* 2000 bytes: the tail keeps the last 512, the line its first 159 */
	memset(big, 'x', sizeof(big));
	for (size_t i = 0; i < sizeof(big); i += 100)
		big[i] = 'a' + (char)(i / 100);
	big[sizeof(big) - 301] = '\n';
	ck_assert_int_eq(write(pp[1], big, sizeof(big)), (ssize_t)sizeof(big));
	ck_assert_int_eq(probe_cmd_drain(pp[0], &t), 1);	/* open: may say more */
	ck_assert_uint_eq(t.len, 512);
	ck_assert(!memcmp(t.tail, big + sizeof(big) - 512, 512));
	close(pp[1]);
	ck_assert_int_eq(probe_cmd_drain(pp[0], &t), 0);	/* its end */
	probe_cmd_last_line(&t, out, sizeof(out));
	memcpy(want, big + sizeof(big) - 300, sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	ck_assert_str_eq(out, want);
	close(pp[0]);
}
END_TEST

/* A Ctrl-C while a command runs ends it now, not at its --probe-timeout
 * (an hour here): the probe returns "cancelled" (no latency), the
 * command's process is gone, and no new command starts after it. */
static void *ctrl_c_once_running(void *arg)
{
	const char *pidfile = arg;

	while (access(pidfile, F_OK))
		sched_yield();
	raise(SIGINT);
	return NULL;
}

START_TEST(test_cmd_probe_ctrl_c)
{
	char buf[32] = "", path[160];
	pthread_t tid;
	pid_t pid;
	FILE *f;

	one_command("echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 3600");
	cfg.set.cmds.timeout_ns = 3600 * 1000000000ull;
	if (geteuid() == 0)
		cfg.probe_user = "root";	/* to write in the test's directory */
	ck_assert_int_eq(probe_init(&p, WS_PROBE_CMD, 0, &cfg), 0);
	ck_assert_int_eq(signals_install(), 0);	/* this test's process only */
	snprintf(path, sizeof(path), "%s/pid", dir);
	ck_assert_int_eq(pthread_create(&tid, NULL, ctrl_c_once_running, path), 0);
	ck_assert_int_eq(p.ops->run(&p), -ECANCELED);
	pthread_join(tid, NULL);
	ck_assert_int_eq(signals_received(), SIGINT);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	pid = (pid_t)atoi(buf);
	ck_assert_int_gt(pid, 1);
	ck_assert_int_eq(kill(pid, 0), -1);	/* killed and reaped */
	ck_assert_int_eq(errno, ESRCH);
	ck_assert_int_eq(p.ops->run(&p), -ECANCELED);	/* no new command */
	probe_cleanup(&p);
	remove_file("pid");
}
END_TEST

/* As root a command runs as --probe-user, nobody by default, never root
 * unless named; otherwise as the caller.  In the probe directory. */
START_TEST(test_cmd_probe_user)
{
	char line[160];
	uid_t want = geteuid();
	struct passwd *pw = getpwnam("nobody");
	pid_t launcher;

	if (geteuid() == 0) {
		ck_assert_ptr_nonnull(pw);
		want = pw->pw_uid;
		ck_assert_int_eq(chmod(dir, 0711), 0);	/* nobody may enter */
	}
	snprintf(line, sizeof(line), "test \"$(id -u)\" = %u && test \"$(pwd -P)\" = \"$(cd %s && pwd -P)\"",
		 (unsigned int)want, dir);
	one_command(line);
	ck_assert_int_eq(probe_init(&p, WS_PROBE_CMD, 0, &cfg), 0);
	ck_assert_str_eq(probe_cmd_user(&p), geteuid() == 0 ? "nobody" : "");
	ck_assert_msg(p.ops->run(&p) == 0, "the command failed: %s", fail_words(&p));
	launcher = CMD_OF(p)->launcher;
	ck_assert_int_gt(launcher, 0);
	probe_cleanup(&p);
	/* the launcher has ended and been reaped */
	ck_assert_int_eq(kill(launcher, 0), -1);
	ck_assert_int_eq(errno, ESRCH);
}
END_TEST

/* Root: a user that does not exist stops the probe before any command.
 * Anyone else runs commands as themselves (opts refuses another user). */
START_TEST(test_cmd_probe_unknown_user)
{
	one_command("true");
	cfg.probe_user = "no-such-user-ws";
	if (geteuid() != 0) {
		ck_assert_int_eq(probe_init(&p, WS_PROBE_CMD, 0, &cfg), 0);
		ck_assert_str_eq(probe_cmd_user(&p), "");
		ck_assert_int_eq(p.ops->run(&p), 0);
		return;
	}
	ck_assert_int_eq(probe_init(&p, WS_PROBE_CMD, 0, &cfg), -ENOENT);
	ck_assert_str_eq(p.err, "cmd probe: no user 'no-such-user-ws' to run its command as");
}
END_TEST

Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *parse = tcase_create("parse");
	TCase *files = tcase_create("files");

	tcase_add_test(parse, test_kinds_table);
	tcase_add_loop_test(parse, test_syncs, 0, ARRAY_SIZE(syncs_rows));
	tcase_add_loop_test(parse, test_dir_of, 0, ARRAY_SIZE(dirs));
	tcase_add_test(parse, test_cmd_wait_polling);
	tcase_add_loop_test(parse, test_cmd_last_line, 0, sizeof(last_lines) / sizeof(last_lines[0]));
	tcase_add_test(parse, test_cmd_stderr_tail);
	tcase_add_checked_fixture(files, tmp_setup, tmp_teardown);
	tcase_set_timeout(files, 60);
	tcase_add_test(files, test_fsync_probe);
	tcase_add_test(files, test_fsync_probe_fdatasync);
	tcase_add_test(files, test_save_probe);
	tcase_add_test(files, test_existing_file_is_not_ours);
	tcase_add_test(files, test_symlink_is_not_followed);
	tcase_add_test(files, test_save_tmp_taken);
	tcase_add_test(files, test_no_directory);
	tcase_add_test(files, test_read_probe);
	tcase_add_loop_test(files, test_read_probe_refused, 0,
			    ARRAY_SIZE(read_refusals));
	tcase_add_test(files, test_read_probe_needs_path);
	tcase_add_test(files, test_sqlite_probe);
	tcase_add_test(files, test_sqlite_probe_wal);
	tcase_add_test(files, test_sqlite_name_taken);
	tcase_add_test(files, test_sqlite_failure_says_why);
	tcase_add_test(files, test_sqlite_begin_and_commit_refused);
	tcase_add_test(files, test_dsync_probe);
	tcase_add_test(files, test_cmd_probe_outcomes);
	tcase_add_test(files, test_cmd_probe_user);
	tcase_add_test(files, test_cmd_probe_unknown_user);
	suite_add_tcase(s, parse);
	suite_add_tcase(s, files);
	return s;
}

/* The stop signal's handler stays installed in the process that raised
 * it: a suite of its own, fork-only (suites.h). */
Suite *probe_stop_suite(void)
{
	Suite *s = suite_create("probe_stop");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cmd_probe_ctrl_c);
	suite_add_tcase(s, tc);
	return s;
}
