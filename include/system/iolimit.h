/* iolimit.h - cgroup write limits on a disk for this process.
 *
 * blk-throttle holds a bio before it becomes a request, so the block
 * tracepoints never see the wait; the limit itself is the only witness.
 * Reads cgroup v1 blkio.throttle.* and v2 io.max from the process's cgroup
 * up to the root: a parent's limit holds its children, so the lowest wins.
 */
#ifndef WS_IOLIMIT_H
#define WS_IOLIMIT_H

#include <stddef.h>
#include <stdint.h>

struct io_limit {
	uint64_t bps, iops;	/* 0: no limit */
	char where[256];	/* the file of bps, else of iops */
};

/* 0, or -errno when /proc/self/cgroup is unreadable (*out: no limit). */
int iolimit_write(const char *root, unsigned int major, unsigned int minor,
		  struct io_limit *out);

#endif
