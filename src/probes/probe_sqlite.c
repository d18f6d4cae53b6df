/* probe_sqlite.c - the sqlite probe: one transaction of a real SQLite
 * database inserting a --probe-size row, as a mail store commits.
 *
 * The table is emptied, untimed, before it grows past
 * WS_PROBE_FSYNC_WRAP, and the database is grown to that size first, so
 * every timed commit reuses free pages as a store that has run a while
 * does, rather than also committing the file's new size.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lib/c.h"
#include "probes/probe.h"
#include "probe_kinds.h"

static const char *const files[] = { "mail.db", "mail.db-journal",
				     "mail.db-wal", "mail.db-shm" };

/* The system call's errno where there was one. */
static int sqlite_errno(struct probe *p)
{
	struct sqlite_probe *q = p->priv;
	int e = q->db ? sqlite3_system_errno(q->db) : 0;

	if (q->db) {
		p->fail.kind = WS_FAIL_SQLITE;
		snprintf(p->fail.text, sizeof(p->fail.text), "%s", sqlite3_errmsg(q->db));
	}
	return e > 0 ? -e : -EIO;
}

static int sqlite_fail(struct probe *p, const char *what)
{
	struct sqlite_probe *q = p->priv;
	int ret = sqlite_errno(p);

	snprintf(p->err, sizeof(p->err), "%s probe: %s in '%.120s': %s",
		 probe_name(p), what, p->dir,
		 q->db ? sqlite3_errmsg(q->db) : strerror(-ret));
	return ret;
}

/* SQLite opens its journals by name at every commit: in a directory of
 * our own (0700), nobody can plant one. */
static int claim_dir(struct probe *p)
{
	snprintf(p->name, sizeof(p->name), "writestress-probe.%d.sqlite",
		 (int)getpid());
	if (mkdirat(p->dirfd, p->name, 0700)) {
		p->name[0] = '\0';
		return -errno;
	}
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		snprintf(p->aux_name[i], sizeof(p->aux_name[i]), "%s/%s", p->name,
			 files[i]);
	return 0;
}

/* SQLite may keep another mode: WAL needs shared memory. */
static int set_journal_mode(struct probe *p)
{
	struct sqlite_probe *q = p->priv;
	const char *want = p->cfg->set.sqlite.wal ? "wal" : "delete";
	char sql[48];
	sqlite3_stmt *st;
	int ok;

	snprintf(sql, sizeof(sql), "PRAGMA journal_mode=%s", want);
	if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot set its journal_mode");
	ok = sqlite3_step(st) == SQLITE_ROW &&
	     !sqlite3_stricmp((const char *)sqlite3_column_text(st, 0), want);
	sqlite3_finalize(st);
	if (!ok) {
		snprintf(p->err, sizeof(p->err),
			 "%s probe: SQLite refused journal_mode %s in '%.120s'",
			 probe_name(p), want, p->dir);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Grown, then emptied: without auto_vacuum its pages stay free. */
static int pregrow(struct probe *p)
{
	struct sqlite_probe *q = p->priv;
	uint64_t rows = WS_PROBE_FSYNC_WRAP / p->cfg->set.probe_size;
	int rc = SQLITE_DONE;

	if (sqlite3_exec(q->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot grow its database");
	for (uint64_t i = 0; i < rows && rc == SQLITE_DONE; i++) {
		sqlite3_bind_blob(q->stmt, 1, p->buf, (int)p->cfg->set.probe_size,
				  SQLITE_STATIC);
		rc = sqlite3_step(q->stmt);
		sqlite3_reset(q->stmt);
	}
	if (rc != SQLITE_DONE ||
	    sqlite3_exec(q->db, "COMMIT; DELETE FROM mail", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL);
		return sqlite_fail(p, "cannot grow its database");
	}
	return 0;
}

int probe_sqlite_setup(struct probe *p)
{
	struct sqlite_probe *q = p->priv;
	char path[PATH_MAX + 120], sql[160];
	int ret;

	ret = claim_dir(p);
	if (ret) {
		snprintf(p->err, sizeof(p->err), "%s probe: cannot create its directory in '%.120s': %s",
			 probe_name(p), p->dir, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/%s", p->dir, p->aux_name[0]);
	if (sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot open its database");
	if ((ret = set_journal_mode(p)))
		return ret;
	snprintf(sql, sizeof(sql),
		 "PRAGMA synchronous=%s;"
		 " CREATE TABLE mail(id INTEGER PRIMARY KEY, body BLOB);",
		 p->cfg->set.sqlite.sync_normal ? "NORMAL" : "FULL");
	if (sqlite3_exec(q->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot set up its database");
	if (sqlite3_prepare_v2(q->db, "INSERT INTO mail(body) VALUES (?)", -1,
			       &q->stmt, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot prepare its insert");
	return pregrow(p);
}

void probe_sqlite_prepare(struct probe *p)
{
	struct sqlite_probe *q = p->priv;

	if (q->appended + p->cfg->set.probe_size <= WS_PROBE_FSYNC_WRAP)
		return;
	if (sqlite3_exec(q->db, "DELETE FROM mail", NULL, NULL, NULL) == SQLITE_OK)
		q->appended = 0;
}

int probe_sqlite_run(struct probe *p)
{
	struct sqlite_probe *q = p->priv;
	sqlite3_stmt *st = q->stmt;
	int rc;

	if (sqlite3_exec(q->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_errno(p);
	sqlite3_bind_blob(st, 1, p->buf, (int)p->cfg->set.probe_size, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		int ret = sqlite_errno(p);

		sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	if (sqlite3_exec(q->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int ret = sqlite_errno(p);

		sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	q->appended += p->cfg->set.probe_size;
	return 0;
}

/* As SQLite's pager syncs: a rollback journal (twice under FULL), the
 * database and the journal's directory; WAL's log once (under NORMAL
 * none, counted one: the commit still waits for its writes to queue). */
unsigned int probe_sqlite_syncs(const struct probe *p)
{
	if (p->cfg->set.sqlite.wal)
		return 1;
	return p->cfg->set.sqlite.sync_normal ? 3 : 4;
}

/* Closed first: a WAL database checkpoints and removes its files. */
void probe_sqlite_cleanup(struct probe *p)
{
	struct sqlite_probe *q = p->priv;
	int fd;
	DIR *d;

	if (q->stmt)
		sqlite3_finalize(q->stmt);
	if (q->db)
		sqlite3_close(q->db);
	q->stmt = NULL;
	q->db = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		p->aux_name[i][0] = '\0';
	if (!p->name[0])
		return;
	fd = openat(p->dirfd, p->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d) {
		struct dirent *e;

		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	} else if (fd >= 0) {
		close(fd);
	}
	unlinkat(p->dirfd, p->name, AT_REMOVEDIR);
	p->name[0] = '\0';
}
