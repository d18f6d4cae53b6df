/* target.h - the file under test, opened safely.
 *
 * Rules (writestress runs as root on people's machines):
 *   - never follow a symlink (O_NOFOLLOW, and an O_PATH look before open);
 *   - only regular files: directories, device nodes, FIFOs and sockets are
 *     refused before anything is opened for writing;
 *   - a pre-existing file is modified only if writestress created it (the
 *     extended attribute user.writestress marks it) or with --force;
 *   - nothing is modified by target_open(); an existing file is rewritten
 *     in place from offset 0, as overwrite.c does (its blocks stay
 *     allocated, so a discard mount never TRIMs them between runs), unless
 *     --truncate asks for target_truncate() after the plan was accepted.
 * Called from the main thread only.
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
	uint64_t dev, ino;	/* to recognise it again before unlink */
	bool created;		/* did not exist; created by this run */
	bool marked;		/* carries (or now carries) our xattr */
	bool xattr_unsupported;	/* the filesystem refused user xattrs */
	bool forced;		/* foreign file taken because of --force */
	uint64_t size_at_open;	/* an existing file's size: what a rewrite
				   overwrites in place */
	bool truncated;		/* emptied by target_truncate() (--truncate) */
	char fs_type[16];	/* "ext4", "tmpfs", ... or "0x..." */
	struct ws_space space;
};

/* Why target_open() refused: the message follows "writestress: ". */
struct ws_target_error {
	int status;		/* WS_EXIT_REFUSED or WS_EXIT_FAILURE */
	char msg[512];
	char hint[256];		/* may be empty */
};

/* Open (creating if absent) cfg->set.path for writing with extra open flags.
 * Returns 0, or -errno with *err filled; on failure nothing was created or
 * modified. */
WS_MUST_CHECK int target_open(const struct ws_config *cfg, int extra_flags,
		struct ws_target *t, struct ws_target_error *err);

/* Empty the file before the run (it is ours or forced; --truncate).
 * 0 or -errno. */
int target_truncate(struct ws_target *t);

/* Mark a file taken with --force as ours, so re-runs need no --force.
 * 0 or -errno (ENOTSUP where the filesystem has no user xattrs). */
int target_mark(struct ws_target *t);

/* Close; with remove, unlink the path if it is still our file and we may
 * (created or marked).  Returns 0 or -errno of the unlink. */
int target_close(struct ws_target *t, const char *path, bool remove);

/* Free space now, for the writer's guard.  0 or -errno. */
int target_avail(int fd, uint64_t *avail);

#endif
