/* kstat.c - kernel figures sampled during the run (see kstat.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstat.h"

/* Read a small /proc file in one go: no stdio, no allocation, so probe
 * threads can afford it before every probe. */
static ssize_t read_small(const char *root, const char *path, char *buf,
			  size_t len)
{
	char full[256];
	ssize_t n;
	int fd;

	snprintf(full, sizeof(full), "%s%s", root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* "Key:   123 kB" -> bytes; false if the key is absent. */
static bool field_kib(const char *text, const char *key, uint64_t *out)
{
	const char *p = text;
	size_t klen = strlen(key);

	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == '\n') && p[klen] == ':') {
			*out = strtoull(p + klen + 1, NULL, 10) * 1024;
			return true;
		}
		p += klen;
	}
	return false;
}

int kstat_meminfo(const char *root, struct ws_meminfo *m)
{
	char buf[8192];
	ssize_t n = read_small(root, "/proc/meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (!field_kib(buf, "Dirty", &m->dirty) ||
	    !field_kib(buf, "Writeback", &m->writeback))
		return -EINVAL;
	return 0;
}
