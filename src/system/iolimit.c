/* iolimit.c - the write limit cgroups put on a disk. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/iolimit.h"
#include "system/sysfs.h"

/* 0: none.  v1: "MAJ:MIN N"; v2: "MAJ:MIN rbps=max wbps=N ...", key "wbps=". */
static uint64_t limit_in(const char *text, unsigned int major, unsigned int minor,
			 const char *key)
{
	size_t klen = strlen(key);
	char want[32];
	size_t n = (size_t)snprintf(want, sizeof(want), "%u:%u ", major, minor);

	for (const char *line = text; *line; ) {
		const char *end = strchr(line, '\n'), *w;

		if (!end)
			end = line + strlen(line);
		if (!strncmp(line, want, n)) {
			w = klen ? strstr(line + n, key) : NULL;
			if (w && w < end)
				return strncmp(w + klen, "max", 3) ? strtoull(w + klen, NULL, 10) : 0;
			if (!klen && !memchr(line + n, '=', (size_t)(end - line - n)))
				return strtoull(line + n, NULL, 10);
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

/* From /proc/self/cgroup: v1's line names "blkio", v2's is "0::". */
static int cgroup_path(const char *cgroups, int v2, char *out, size_t len)
{
	for (const char *line = cgroups; *line; ) {
		const char *end = strchr(line, '\n'), *c1 = strchr(line, ':'), *c2;

		if (!end)
			end = line + strlen(line);
		c2 = c1 && c1 < end ? strchr(c1 + 1, ':') : NULL;
		if (c2 && c2 < end) {
			size_t ctl = (size_t)(c2 - c1 - 1);
			int match = v2 ? (ctl == 0 && !strncmp(line, "0:", 2)) : 0;

			for (const char *p = c1 + 1; !v2 && p < c2; ) {
				const char *comma = memchr(p, ',', (size_t)(c2 - p));
				size_t l = (size_t)((comma ? comma : c2) - p);

				if (l == 5 && !strncmp(p, "blkio", 5))
					match = 1;
				p += l + 1;
			}
			if (match) {
				snprintf(out, len, "%.*s", (int)(end - c2 - 1), c2 + 1);
				return 0;
			}
		}
		line = *end ? end + 1 : end;
	}
	return -ENOENT;
}

/* Up to the hierarchy's root, keeping the lowest. */
static void walk(const char *root, const char *base, const char *cg,
		 const char *file, const char *key, unsigned int major,
		 unsigned int minor, uint64_t *lowest, char *where, size_t len)
{
	char path[4096], dir[2048], text[4096];

	snprintf(dir, sizeof(dir), "%s", strcmp(cg, "/") ? cg : "");
	for (;;) {
		char *slash;
		uint64_t v;

		snprintf(path, sizeof(path), "%s%s/%s", base, dir, file);
		if (sysfs_read(root, path, text, sizeof(text)) >= 0 &&
		    (v = limit_in(text, major, minor, key)) && (!*lowest || v < *lowest)) {
			size_t n = strlen(path) < len ? strlen(path) : len - 1;

			*lowest = v;
			memcpy(where, path, n);
			where[n] = '\0';
		}
		slash = strrchr(dir, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
}

int iolimit_write(const char *root, unsigned int major, unsigned int minor,
		  struct io_limit *out)
{
	char cgroups[4096], cg[2048], probe[64], iops_where[sizeof(out->where)] = "";
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sysfs_read(root, "/proc/self/cgroup", cgroups, sizeof(cgroups));
	if (ret < 0)
		return ret;
	if (!cgroup_path(cgroups, 0, cg, sizeof(cg))) {
		walk(root, "/sys/fs/cgroup/blkio", cg, "blkio.throttle.write_bps_device", "",
		     major, minor, &out->bps, out->where, sizeof(out->where));
		walk(root, "/sys/fs/cgroup/blkio", cg, "blkio.throttle.write_iops_device", "",
		     major, minor, &out->iops, iops_where, sizeof(iops_where));
	}
	if (!cgroup_path(cgroups, 1, cg, sizeof(cg))) {
		/* pure v2 at /sys/fs/cgroup, hybrid at .../unified */
		const char *base = sysfs_read(root, "/sys/fs/cgroup/cgroup.controllers",
					      probe, sizeof(probe)) >= 0 ?
				   "/sys/fs/cgroup" : "/sys/fs/cgroup/unified";

		walk(root, base, cg, "io.max", "wbps=", major, minor, &out->bps,
		     out->where, sizeof(out->where));
		walk(root, base, cg, "io.max", "wiops=", major, minor, &out->iops,
		     iops_where, sizeof(iops_where));
	}
	if (!out->where[0])
		snprintf(out->where, sizeof(out->where), "%s", iops_where);
	return 0;
}
