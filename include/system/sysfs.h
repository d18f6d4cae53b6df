/* sysfs.h - /sys and /proc read through a root prefix ("": the live
 * system; a canned tree in tests, as `lscpu --sysroot`).  Paths are
 * absolute as on a live system.  No allocation, no stdio: any thread.
 * 0 (or a length, a count) or -errno; -ENAMETOOLONG when root + path
 * exceeds PATH_MAX, -EOVERFLOW when a result does not fit.
 */
#ifndef WS_SYSFS_H
#define WS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSFS_NAME_MAX 64

/* Trimmed of surrounding white space; returns its length.  A longer file
 * is cut, not an error. */
int sysfs_read(const char *root, const char *path, char *buf, size_t len);

/* One decimal integer: -EINVAL otherwise, -ERANGE if it does not fit. */
int sysfs_read_u64(const char *root, const char *path, uint64_t *out);
int sysfs_read_i64(const char *root, const char *path, int64_t *out);

/* The target as stored, often relative. */
int sysfs_readlink(const char *root, const char *path, char *buf, size_t len);

/* The link's target as a normalised absolute path without the root,
 * resolved lexically; a non-link comes back normalised. */
int sysfs_resolve(const char *root, const char *path, char *out, size_t len);

/* Sorted, so results do not depend on readdir order; names too long for
 * SYSFS_NAME_MAX are skipped.  Returns how many were stored. */
int sysfs_list(const char *root, const char *dir,
	       char (*names)[SYSFS_NAME_MAX], size_t max);

bool sysfs_exists(const char *root, const char *path);

/* root + path, for statvfs() or opendir(). */
int sysfs_path(const char *root, const char *path, char *buf, size_t len);

#endif
