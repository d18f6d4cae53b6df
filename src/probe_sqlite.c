/* probe_sqlite.c - the sqlite probe: one transaction of a real SQLite
 * database inserting a --probe-size row, as a mail store or a browser's
 * history commits (see probe.h).
 *
 * The database is our own file, created exclusively in the probe
 * directory; its journal names (-journal, -wal, -shm) must be free at
 * setup, so that whatever is removed at the end is ours.  Journal mode and
 * synchronous level are set before the load starts (--sqlite-journal,
 * --sqlite-sync; defaults delete and full, what mail stores and browsers
 * used for years).  The table is emptied, untimed, when it would grow past
 * WS_PROBE_FSYNC_WRAP, as a mail folder is compacted now and then.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "c.h"
#include "probe.h"
#include "probe_kinds.h"

static const char *const journal_suffix[] = { "-journal", "-wal", "-shm" };

/* SQLite's failure as -errno: the system call's where there was one */
static int sqlite_errno(struct probe *p)
{
	int e = p->db ? sqlite3_system_errno(p->db) : 0;

	return e > 0 ? -e : -EIO;
}

static int sqlite_fail(struct probe *p, const char *what)
{
	int ret = sqlite_errno(p);

	snprintf(p->err, sizeof(p->err), "%s probe: %s in '%.120s': %s",
		 p->ops->name, what, p->dir,
		 p->db ? sqlite3_errmsg(p->db) : strerror(-ret));
	return ret;
}

/* Our file, and the names SQLite will use beside it, free now. */
static int claim_names(struct probe *p)
{
	int fd;

	snprintf(p->name, sizeof(p->name), "writestress-probe.%d.sqlite",
		 (int)getpid());
	fd = openat(p->dirfd, p->name, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		p->name[0] = '\0';
		return -errno;
	}
	close(fd);
	for (size_t i = 0; i < ARRAY_SIZE(journal_suffix); i++) {
		snprintf(p->aux_name[i], sizeof(p->aux_name[i]), "%s%s", p->name,
			 journal_suffix[i]);
		int r = faccessat(p->dirfd, p->aux_name[i], F_OK, AT_SYMLINK_NOFOLLOW);

		if (r == 0 || errno != ENOENT) {
			int ret = r == 0 ? -EEXIST : -errno;

			p->aux_name[i][0] = '\0';
			return ret;
		}
	}
	return 0;
}

int probe_sqlite_setup(struct probe *p)
{
	char path[PATH_MAX + 80], sql[160];
	int ret;

	ret = claim_names(p);
	if (ret) {
		snprintf(p->err, sizeof(p->err), "%s probe: cannot create its database in '%.120s': %s",
			 p->ops->name, p->dir, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/%s", p->dir, p->name);
	if (sqlite3_open_v2(path, (sqlite3 **)&p->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot open its database");
	snprintf(sql, sizeof(sql),
		 "PRAGMA journal_mode=%s; PRAGMA synchronous=%s;"
		 " CREATE TABLE mail(id INTEGER PRIMARY KEY, body BLOB);",
		 p->cfg->sqlite_wal ? "WAL" : "DELETE",
		 p->cfg->sqlite_sync_normal ? "NORMAL" : "FULL");
	if (sqlite3_exec(p->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot set up its database");
	if (sqlite3_prepare_v2(p->db, "INSERT INTO mail(body) VALUES (?)", -1,
			       (sqlite3_stmt **)&p->stmt, NULL) != SQLITE_OK)
		return sqlite_fail(p, "cannot prepare its insert");
	return 0;
}

/* A compaction now and then, untimed. */
void probe_sqlite_prepare(struct probe *p)
{
	if (p->appended + p->cfg->probe_size <= WS_PROBE_FSYNC_WRAP)
		return;
	if (sqlite3_exec(p->db, "DELETE FROM mail", NULL, NULL, NULL) == SQLITE_OK)
		p->appended = 0;
}

/* BEGIN, one row, COMMIT: what the application waits for. */
int probe_sqlite_run(struct probe *p)
{
	sqlite3_stmt *st = p->stmt;
	int rc;

	if (sqlite3_exec(p->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_errno(p);
	sqlite3_bind_blob(st, 1, p->buf, (int)p->cfg->probe_size, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		int ret = sqlite_errno(p);

		sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	if (sqlite3_exec(p->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int ret = sqlite_errno(p);

		sqlite3_exec(p->db, "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	p->appended += p->cfg->probe_size;
	return 0;
}

/* Closed first (a WAL database checkpoints and removes its files), then
 * every name that is ours removed. */
void probe_sqlite_cleanup(struct probe *p)
{
	if (p->stmt)
		sqlite3_finalize(p->stmt);
	if (p->db)
		sqlite3_close(p->db);
	p->stmt = p->db = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(journal_suffix); i++) {
		if (p->aux_name[i][0])
			unlinkat(p->dirfd, p->aux_name[i], 0);
		p->aux_name[i][0] = '\0';
	}
	if (p->name[0])
		unlinkat(p->dirfd, p->name, 0);
	p->name[0] = '\0';
}
