#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "fileext.h"

#define BATCH 256

void fileext_init(struct fileext *x, uint64_t part_start)
{
	memset(x, 0, sizeof(*x));
	x->part_start = part_start;
}

void fileext_free(struct fileext *x)
{
	free(x->span);
	fileext_init(x, x->part_start);
}

/* The first span ending after sector. */
static unsigned int after(const struct fileext *x, uint64_t sector)
{
	unsigned int lo = 0, hi = x->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (x->span[mid].end <= sector)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int fileext_add(struct fileext *x, uint64_t sector, uint64_t nr_sector)
{
	struct fileext_span s = { sector, sector + nr_sector };
	unsigned int i, j;

	if (!nr_sector)
		return 0;
	i = after(x, s.start ? s.start - 1 : 0);
	/* touching or overlapping spans become one */
	for (j = i; j < x->n && x->span[j].start <= s.end; j++) {
		if (x->span[j].start < s.start)
			s.start = x->span[j].start;
		if (x->span[j].end > s.end)
			s.end = x->span[j].end;
	}
	if (j == i) {
		if (x->n == FILEEXT_MAX)
			return 0;
		if (x->n == x->cap) {
			unsigned int cap = x->cap ? 2 * x->cap : 16;
			struct fileext_span *p = realloc(x->span, cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			x->span = p;
			x->cap = cap;
		}
		memmove(&x->span[i + 1], &x->span[i], (x->n - i) * sizeof(*x->span));
		x->n++;
	} else if (j > i + 1) {
		memmove(&x->span[i + 1], &x->span[j], (x->n - j) * sizeof(*x->span));
		x->n -= j - i - 1;
	}
	x->span[i] = s;
	return 0;
}

bool fileext_holds(const struct fileext *x, uint64_t sector, uint64_t nr_sector)
{
	unsigned int i = after(x, sector);

	return i < x->n && x->span[i].start < sector + (nr_sector ? nr_sector : 1);
}

int fileext_refresh(struct fileext *x, const char *path)
{
	struct {
		struct fiemap map;
		struct fiemap_extent ext[BATCH];
	} m;
	uint64_t from = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), ret = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		memset(&m.map, 0, sizeof(m.map));
		m.map.fm_start = from;
		m.map.fm_length = FIEMAP_MAX_OFFSET - from;
		m.map.fm_extent_count = BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, &m.map) < 0) {
			ret = -errno;
			break;
		}
		for (unsigned int i = 0; i < m.map.fm_mapped_extents && !ret; i++) {
			const struct fiemap_extent *e = &m.ext[i];

			if (!(e->fe_flags & (FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN)))
				ret = fileext_add(x, x->part_start + e->fe_physical / 512,
						  (e->fe_length + 511) / 512);
			from = e->fe_logical + e->fe_length;
		}
		if (ret || m.map.fm_mapped_extents < BATCH || !m.map.fm_mapped_extents ||
		    (m.ext[m.map.fm_mapped_extents - 1].fe_flags & FIEMAP_EXTENT_LAST))
			break;
	}
	close(fd);
	return ret;
}
