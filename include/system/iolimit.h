/* iolimit.h - the write limit cgroups put on a disk for this process.
 *
 * blk-throttle holds a bio before it becomes a request, so a limit is
 * invisible to the block tracepoints: a request's own times are short while
 * the process waits.  The only witness is the limit itself, read here, and
 * the rate the device wrote at while a probe waited (stallcause.h).
 *
 * Both hierarchies, through a root prefix (sysfs.h) so a canned tree tests
 * them: cgroup v1's blkio.throttle.write_bps_device and write_iops_device
 * (/sys/fs/cgroup/blkio) and cgroup v2's io.max "wbps=" and "wiops="
 * (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid system), from the
 * process's own cgroup (/proc/self/cgroup) up to the root: a parent's limit
 * holds its children too, so the lowest wins.
 */
#ifndef WS_IOLIMIT_H
#define WS_IOLIMIT_H

#include <stddef.h>
#include <stdint.h>

struct io_limit {
	uint64_t bps, iops;	/* the lowest of each; 0 when none limits */
	char where[256];	/* the file of the lower bps, else iops ("") */
};

/* The write limits on disk MAJ:MIN.  Returns 0, or -errno when
 * /proc/self/cgroup cannot be read (*out then says none). */
int iolimit_write(const char *root, unsigned int major, unsigned int minor,
		  struct io_limit *out);

#endif
