/* fingerprint.h - collect the system fingerprint (record/fingerprint_facts.h)
 * through a root prefix ("": the live system).  Unreadable facts are left
 * "" or WS_FP_UNKNOWN, never an error.  fingerprint_collect() runs in the
 * main thread; the rest is pure.
 */
#ifndef WS_FINGERPRINT_H
#define WS_FINGERPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/fingerprint_facts.h"

/* For the file at PATH (may be NULL: match the mount by ST_DEV only).
 * block_size is read only when root is "".  0, or -ENOENT when nothing at
 * all was found. */
int fingerprint_collect(const char *root, dev_t st_dev, const char *path,
			struct ws_fingerprint *fp);

/* The first disk's live sysfs queue directory.  0 or -ENOENT. */
int fingerprint_queue_path(const struct ws_fingerprint *fp, char *out,
			   size_t len);

/* Set d's aligned_* from part_start (512-byte sectors); WS_FP_UNKNOWN
 * where an input is unknown or opt_io is 0. */
void fingerprint_alignment(struct ws_fp_disk *d);

/* Bytes of the single drive under the filesystem (SNIA preconditions a
 * multiple of it), 0 when none or unknown. */
uint64_t fingerprint_capacity(const struct ws_fingerprint *fp);

#endif
