/* fileext.h - where the written file lies on the traced disk, in sectors,
 * so a request a kernel worker sent (the flusher, or blk-throttle's
 * dispatch of bios a cgroup limit held) is credited to the writer whose
 * pages it carried: the submitting task is then never the writer.
 * The set is pure; fileext_refresh reads the file's extents (FIEMAP).
 * The tracer's lock.
 */
#ifndef WS_TRACE_FILEEXT_H
#define WS_TRACE_FILEEXT_H

#include <stdbool.h>
#include <stdint.h>

/* Beyond this many extents the rest are left out: credited to the flusher. */
#define FILEEXT_MAX 4096

struct fileext_span {
	uint64_t start, end;	/* disk sectors, [start, end) */
};

struct fileext {
	struct fileext_span *span;	/* sorted, disjoint */
	unsigned int n, cap;
	uint64_t part_start;	/* the filesystem's first sector on the disk */
};

void fileext_init(struct fileext *x, uint64_t part_start);
void fileext_free(struct fileext *x);
/* Sectors relative to the disk.  0 or -ENOMEM. */
int fileext_add(struct fileext *x, uint64_t sector, uint64_t nr_sector);
/* Whether any sector of [sector, sector + nr_sector) is the file's. */
bool fileext_holds(const struct fileext *x, uint64_t sector, uint64_t nr_sector);
/* The file's extents now, allocated ones only (a delayed allocation has
 * no place yet: its request comes after it has one).  0 or -errno. */
int fileext_refresh(struct fileext *x, const char *path);

#endif
