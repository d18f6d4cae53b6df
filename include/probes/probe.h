/* probe.h - desktop-latency probes: one small operation that a person's
 * programs do all day, timed by the monitor while the writer streams.
 *
 *   fsync  append --probe-size bytes to a probe file and fsync (or
 *          fdatasync) it: a mail client storing a message;
 *   save   write a temporary file, fsync it, rename it over the previous
 *          one, fsync the directory: an editor or browser saving;
 *   read   read a random 4 KiB block of --read-probe PATH, with O_DIRECT
 *          where allowed, else after dropping the block from the page
 *          cache, so every read reaches the device: an application
 *          starting, a mail opened;
 *   sqlite one transaction of a real SQLite database (libsqlite3) that
 *          inserts a --probe-size row: a mail store, a browser's history
 *          (probe_sqlite.c);
 *   dsync  an in-place --probe-size overwrite, O_DSYNC, of a file
 *          allocated at setup: a database's WAL, ioping -W -y;
 *   cmd    the user's own command (--probe-cmd NAME=CMD, one probe
 *          each): its wall time, a non-zero exit an error (probe_cmd.c).
 * Each probe is an ops table in probe_kinds[].  A struct probe is owned by
 * one probe thread; setup() and cleanup() run in the main thread before
 * and after it.  Probe files are created exclusively (O_EXCL|O_NOFOLLOW)
 * in the probe directory and removed by cleanup(); every name a probe may
 * leave is in probe_file_names(), for the signal handler's last resort.
 */
#ifndef WS_PROBE_H
#define WS_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"

struct probe;

struct probe_ops {
	/* which probe: its name is the record's (ws_probe_kind_name) */
	enum ws_probe_kind kind;
	/* create files; 0 or -errno with p->err filled */
	int (*setup)(struct probe *p);
	/* untimed housekeeping before each timed run (may be NULL) */
	void (*prepare)(struct probe *p);
	/* the timed operation: 0 or -errno; -ECANCELED: it did not run, or
	 * was cut short, because the run is stopping (not recorded) */
	int (*run)(struct probe *p);
	void (*cleanup)(struct probe *p);
	/* the probe's own options (long names, NULL-terminated): given
	 * while no probe that takes them runs, they are a usage error */
	const char *const *options;
	/* an option it cannot run without: given alone, it adds the probe;
	 * needs_what says what its value is */
	const char *needs;
	const char *needs_what;
	/* what to try when setup fails (its files are in the probe dir) */
	const char *setup_hint;
	/* the application it stands for, for --help and the header */
	const char *stands_for;
	/* bytes of the kind's own state (p->priv), as fio's engines own
	 * theirs; 0: none */
	size_t priv_size;
	/* one probe per --probe-cmd, run once (not once per filesystem);
	 * its latency is the command's own business, not the disk's: not the
	 * adaptive pacer's signal, not in the idle check */
	bool per_command;
	/* the synchronous calls one operation makes, each a wait for the
	 * disk (fsync, O_DSYNC, a read): where --pace adaptive's count of
	 * the writer's sojourns a probe spans starts (adapt.h) */
	unsigned int (*syncs)(const struct probe *p);
};

extern const struct probe_ops *const probe_kinds[WS_PROBE_NR];

struct probe {
	const struct probe_ops *ops;
	const struct ws_config *cfg;
	void *priv;		/* the kind's own state, ops->priv_size bytes
				   (probe_kinds.h): zeroed by probe_init,
				   freed by probe_cleanup */
	int dirfd;		/* the probe directory */
	int fd;			/* probe file (fsync, dsync) or file read (read) */
	unsigned int instance;	/* cmd: which --probe-cmd */
	/* every name the probe has or may create in dirfd, read by the
	 * signal handler's last resort (probe_file_names): our file, save's
	 * temporary, sqlite's database and journals */
	char name[64];
	char tmp_name[64];
	char aux_name[4][80];
	char dir[PATH_MAX];	/* for messages */
	void *buf;		/* page-aligned, cfg->set.probe_size bytes */
	char fail[96];		/* why the last run failed, beyond its errno */
	char fail_stderr[WS_STDERR_LINE];	/* cmd: its stderr's last
						   line when it failed, or "" */
	char err[256];
};

/* Resolve the probe directory: cfg->set.probe_dir, else dirname(cfg->set.path). */
void probe_dir_of(const struct ws_config *cfg, char *out, size_t len);

/* Prepare probe `kind` (files, buffer; instance: which --probe-cmd for
 * cmd, else 0).  0 or -errno with p->err. */
int probe_init(struct probe *p, enum ws_probe_kind kind, unsigned int instance,
	       const struct ws_config *cfg);
/* The names the probe has or may create in its directory (at most
 * PROBE_MAX_NAMES), into names[], files before the directories they are
 * in; their count. */
#define PROBE_MAX_NAMES 6
unsigned int probe_file_names(const struct probe *p, const char **names);
/* Remove the probe's files, close, free.  Safe to call twice. */
void probe_cleanup(struct probe *p);

/* The probe's name ("fsync"), as --probe and the results spell it (in
 * the header: each kind's file names its probe without calling back
 * into probe.c, which calls it). */
static inline const char *probe_name(const struct probe *p)
{
	return ws_probe_kind_name(p->ops->kind);
}

/* Who a cmd probe's command runs as ("nobody"), or "" when it runs as
 * the caller or P is another kind. */
const char *probe_cmd_user(const struct probe *p);

#endif
