/* target.h - the file under test, opened safely (we run as root): no
 * symlink, only regular files, modified only if ours (WS_XATTR_NAME) or
 * with --force, and rewritten in place so a discard mount never TRIMs its
 * blocks between runs.  Main thread only.
 */
#ifndef WS_TARGET_H
#define WS_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "lib/c.h"
#include "lib/exit.h"
#include "config/plan.h"

#define WS_XATTR_NAME "user.writestress"

struct ws_target {
	int fd;
	uint64_t dev, ino;	/* checked before unlink */
	bool created;
	bool marked;		/* carries our xattr */
	bool xattr_unsupported;
	bool forced;
	uint64_t size_at_open;
	bool truncated;
	char fs_type[16];	/* or "0x..." */
	struct ws_space space;
};

/* msg follows "writestress: ". */
struct ws_target_error {
	int status;		/* WS_EXIT_REFUSED or WS_EXIT_FAILURE */
	char msg[512];
	char hint[256];
};

/* Creates it if absent, modifies nothing.  0, or -errno with *err. */
WS_MUST_CHECK int target_open(const struct ws_config *cfg, int extra_flags,
		struct ws_target *t, struct ws_target_error *err);

/* writestress watch: the directory's filesystem, nothing opened kept,
 * nothing made (fd -1).  0, or -errno with *err. */
WS_MUST_CHECK int target_open_dir(const char *path, struct ws_target *t,
				  struct ws_target_error *err);

/* Once the plan was accepted.  0 or -errno. */
int target_truncate(struct ws_target *t);

/* So re-runs need no --force.  0 or -errno. */
int target_mark(struct ws_target *t);

/* remove: unlink path if still ours.  0 or -errno. */
int target_close(struct ws_target *t, const char *path, bool remove);

/* 0 or -errno. */
int target_avail(int fd, uint64_t *avail);

#endif
