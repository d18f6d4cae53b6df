/* kstat.c - kernel figures sampled during the run. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/kstat.h"
#include "system/sysfs.h"

/* No stdio, no allocation: probe threads call it before every probe. */
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

/* "Key:   123 kB" -> bytes */
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

/* fmt: a path with one %s.  Its length, or -errno. */
static int read_named(const char *root, const char *fmt, const char *name,
		      char *buf, size_t len)
{
	char path[600];
	int n = snprintf(path, sizeof(path), fmt, name);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return sysfs_read(root, path, buf, len);
}

int kstat_diskstat(const char *root, const char *disk, struct ws_diskstat *out)
{
	uint64_t *field[] = {
		&out->read_ios, &out->read_merges, &out->read_sectors,
		&out->read_ticks, &out->write_ios, &out->write_merges,
		&out->write_sectors, &out->write_ticks, &out->in_flight,
		&out->io_ticks, &out->time_in_queue, &out->discard_ios,
		&out->discard_merges, &out->discard_sectors,
		&out->discard_ticks, &out->flush_ios, &out->flush_ticks,
	};
	char buf[512];
	const char *p = buf;
	int n, ret;

	ret = read_named(root, disk[0] == '/' ? "%s/stat" : "/sys/block/%s/stat", disk,
			 buf, sizeof(buf));
	if (ret < 0)
		return ret;
	memset(out, 0, sizeof(*out));
	for (n = 0; n < (int)(sizeof(field) / sizeof(field[0])); n++) {
		char *end;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		*field[n] = strtoull(p, &end, 10);
		p = end;
	}
	out->nfields = n;
	return n >= 11 ? 0 : -EINVAL;
}

/* After "key " at a line's start, or NULL. */
static const char *line_of(const char *text, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ' ')
			return p + k;
	return NULL;
}

int kstat_xfs_log(const char *root, const char *fs, uint64_t *writes, uint64_t *blocks)
{
	char buf[4096];
	unsigned long long w, b;
	const char *p;
	int ret = read_named(root, "/sys/fs/xfs/%s/stats/stats", fs, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	/* "log writes blocks noiclogs forces force_sleeps" */
	p = line_of(buf, "log");
	if (!p || sscanf(p, "%llu %llu", &w, &b) != 2)
		return -EINVAL;
	*writes = w;
	*blocks = b;
	return 0;
}

int kstat_jbd2_info(const char *root, const char *journal, uint64_t *transactions,
		    uint64_t *logging_ms)
{
	char buf[2048];
	unsigned long long n, ms;
	const char *p;
	int ret = read_named(root, "/proc/fs/jbd2/%s/info", journal, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	/* "86 transactions (86 requested), ..." then "  0ms logging
	 * transaction", which an idle journal leaves out */
	if (sscanf(buf, "%llu transactions", &n) != 1)
		return -EINVAL;
	if (!n) {
		*transactions = *logging_ms = 0;
		return 0;
	}
	p = strstr(buf, "ms logging transaction");
	if (!p)
		return -EINVAL;
	while (p > buf && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (sscanf(p, "%llu", &ms) != 1)
		return -EINVAL;
	*transactions = n;
	*logging_ms = n * ms;
	return 0;
}

/* "some avg10=0.12 avg60=0.05 avg300=0.01 total=123456" */
static bool psi_line(const char *text, const char *kind,
		     struct ws_psi_line *l)
{
	const char *p = line_of(text, kind);
	unsigned long long total;

	if (!p)
		return false;
	if (sscanf(p, " avg10=%lf avg60=%lf avg300=%lf total=%llu",
		   &l->avg10, &l->avg60, &l->avg300, &total) != 4)
		return false;
	l->total_us = total;
	return true;
}

int kstat_psi_io(const char *root, struct ws_psi *out)
{
	char buf[256];
	int ret = sysfs_read(root, "/proc/pressure/io", buf, sizeof(buf));

	if (ret < 0)
		return ret;
	memset(out, 0, sizeof(*out));
	if (!psi_line(buf, "some", &out->some))
		return -EINVAL;
	out->has_full = psi_line(buf, "full", &out->full);
	return 0;
}
