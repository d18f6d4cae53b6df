/* fingerprint.h - the one-time system fingerprint: what kernel, what
 * filesystem, what block devices (through partitions, loop devices,
 * device-mapper and md), their queue settings, the partition alignment and
 * the vm.dirty_* sysctls, collected.  fingerprint_show.h prints it as a
 * short header and writes it complete in the JSON result.
 *
 * The facts themselves (struct ws_fingerprint) are the record's
 * (record/fingerprint_facts.h): outputs show them without this header.
 *
 * Everything is read through a root prefix ("" = the live system; tests
 * pass canned trees under tests/fixtures/fp/).  A struct ws_fingerprint is
 * plain data of fixed size: no pointers, copy it freely.  What could not be
 * read is left empty ("") or WS_FP_UNKNOWN (-1), never an error.
 *
 * fingerprint_collect() runs in the main thread before the run (it reads a
 * few dozen small files); the other functions are pure and may be called
 * from any thread on a fingerprint nobody is writing.
 */
#ifndef WS_FINGERPRINT_H
#define WS_FINGERPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/fingerprint_facts.h"

/* Fill *fp for a file at `path` whose stat() gave st_dev, reading root +
 * "/proc/..." and root + "/sys/...".  fp->block_size is read with statvfs()
 * when root is ""; otherwise it is WS_FP_UNKNOWN and the caller may set it.
 * `path` should be absolute; when root is "" it is resolved with
 * realpath() (it may be relative then).  It may be NULL, and then the mount
 * is matched by device only.
 * Returns 0 when anything at all was found, -ENOENT when nothing was (a
 * root that holds neither /proc nor /sys). */
int fingerprint_collect(const char *root, dev_t st_dev, const char *path,
			struct ws_fingerprint *fp);

/* The live sysfs queue directory of the first disk
 * ("/sys/devices/.../block/sda/queue"), for reading and writing
 * queue/scheduler.  0, or -ENOENT when there is no disk. */
int fingerprint_queue_path(const struct ws_fingerprint *fp, char *out,
			   size_t len);

/* The alignment verdicts of d (aligned_1mib, aligned_physical,
 * aligned_optimal) from part_start, physical_block and opt_io: the start in
 * bytes (sectors of 512) is a multiple of 1 MiB, of the physical block, of
 * the optimal I/O size.  WS_FP_UNKNOWN where an input is unknown or, for
 * opt_io, 0 (the device states none).  Pure. */
void fingerprint_alignment(struct ws_fp_disk *d);

/* The capacity in bytes of the drive under the filesystem, what SNIA's
 * preconditioning is a multiple of: the whole disk under a partition, the
 * loop device, the one disk under dm/md; 0 when there is no such single
 * device or its size is unknown.  Pure. */
uint64_t fingerprint_capacity(const struct ws_fingerprint *fp);


#endif
