/* sysfs.h - reading /sys and /proc through a root prefix.
 *
 * Every path is absolute as on a live system ("/sys/block/sda/queue/
 * scheduler"); `root` is prepended to it: "" reads the live system, a
 * directory such as "tests/fixtures/fp/nvme" reads a canned tree (the idea
 * of util-linux's `lscpu --sysroot`).  Symlinks inside a canned tree are
 * relative, as in real sysfs, so they resolve inside the tree.
 *
 * No allocation, no stdio: open/read/close into caller buffers, so any
 * thread may call these (the sampling ones run once per interval).
 * Return 0 (or a length/count) on success, -errno on failure; -ENAMETOOLONG
 * when root + path does not fit in PATH_MAX, -EOVERFLOW when a result does
 * not fit in the caller's buffer.
 */
#ifndef WS_SYSFS_H
#define WS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSFS_NAME_MAX 64	/* one directory entry in sysfs_list() */

/* The whole file (up to len - 1 bytes) into buf, NUL-terminated, with
 * leading and trailing white space (the kernel's "\n") removed.  Returns the
 * trimmed length.  A longer file is cut, not an error: sysfs attributes are
 * one page at most and callers size buf for what they need. */
int sysfs_read(const char *root, const char *path, char *buf, size_t len);

/* A file holding one decimal integer ("4096\n").  -EINVAL if it holds
 * anything else; -ERANGE if it does not fit. */
int sysfs_read_u64(const char *root, const char *path, uint64_t *out);
int sysfs_read_i64(const char *root, const char *path, int64_t *out);

/* The target of a symlink, as stored (often relative: "../../devices/..."). */
int sysfs_readlink(const char *root, const char *path, char *buf, size_t len);

/* Where the symlink at `path` points, as a normalised absolute path without
 * the root ("/sys/dev/block/8:2" -> "/sys/devices/pci0000:00/.../sda/sda2").
 * Relative targets are resolved lexically against the link's directory; a
 * path that is not a symlink comes back normalised as it is. */
int sysfs_resolve(const char *root, const char *path, char *out, size_t len);

/* Up to `max` entry names of directory `dir` (without "." and ".."), sorted
 * so that results do not depend on readdir order.  Names longer than
 * SYSFS_NAME_MAX - 1 are skipped.  Returns how many were stored. */
int sysfs_list(const char *root, const char *dir,
	       char (*names)[SYSFS_NAME_MAX], size_t max);

/* Does root + path exist (following symlinks)? */
bool sysfs_exists(const char *root, const char *path);

/* root + path into buf: 0 or -ENAMETOOLONG.  For callers that need the
 * full name themselves (statvfs, opendir). */
int sysfs_path(const char *root, const char *path, char *buf, size_t len);


#endif
