/* sysfs.c - /sys and /proc under a root prefix. */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/c.h"
#include "system/sysfs.h"

int sysfs_path(const char *root, const char *path, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", root ? root : "", path);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
}

/* Trimmed; *cut says whether there was more.  Its length, or -errno. */
static int read_text(const char *root, const char *path, char *buf,
		     size_t len, bool *cut)
{
	char full[PATH_MAX], more;
	size_t got = 0;
	ssize_t n;
	int fd, ret;

	*cut = false;
	if (!len)
		return -EINVAL;
	ret = sysfs_path(root, path, full, sizeof(full));
	if (ret)
		return ret;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs hands out a page in one read; /proc files may take several */
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			ret = -errno;
			goto out_close_fd;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	*cut = got == len - 1 && read(fd, &more, 1) > 0;
	buf[got] = '\0';
	trim(buf);
	ret = (int)strlen(buf);
out_close_fd:
	close(fd);
	return ret;
}

int sysfs_read(const char *root, const char *path, char *buf, size_t len)
{
	bool cut;

	return read_text(root, path, buf, len, &cut);
}

/* Checked whole: a file that holds more than a number is not one. */
static int number_text(const char *root, const char *path, char *buf,
		       size_t len, bool neg)
{
	bool cut;
	int ret = read_text(root, path, buf, len, &cut);

	if (ret < 0)
		return ret;
	if (cut || !ret || (!neg && buf[0] == '-'))
		return -EINVAL;
	errno = 0;
	return 0;
}

static int number_end(const char *end)
{
	if (errno == ERANGE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

int sysfs_read_i64(const char *root, const char *path, int64_t *out)
{
	char buf[64], *end;
	long long v;
	int ret = number_text(root, path, buf, sizeof(buf), true);

	if (ret)
		return ret;
	v = strtoll(buf, &end, 10);
	ret = number_end(end);
	if (!ret)
		*out = v;
	return ret;
}

int sysfs_read_u64(const char *root, const char *path, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	int ret = number_text(root, path, buf, sizeof(buf), false);

	if (ret)
		return ret;
	v = strtoull(buf, &end, 10);
	ret = number_end(end);
	if (!ret)
		*out = v;
	return ret;
}

int sysfs_readlink(const char *root, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];
	ssize_t n;
	int ret = sysfs_path(root, path, full, sizeof(full));

	if (ret)
		return ret;
	n = readlink(full, buf, len);
	if (n < 0)
		return -errno;
	if ((size_t)n >= len)
		return -EOVERFLOW;
	buf[n] = '\0';
	return (int)n;
}

/* Lexically: "." and ".." and "//" removed. */
static int normalise(const char *in, char *out, size_t len)
{
	size_t o = 0;
	const char *p = in;

	if (len < 2)
		return -EOVERFLOW;
	while (*p) {
		const char *seg;
		size_t n;

		while (*p == '/')
			p++;
		seg = p;
		while (*p && *p != '/')
			p++;
		n = (size_t)(p - seg);
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;	/* the slash; ".." above "/" stays at "/" */
			continue;
		}
		if (o + 1 + n >= len)
			return -EOVERFLOW;
		out[o++] = '/';
		memcpy(out + o, seg, n);
		o += n;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}

int sysfs_resolve(const char *root, const char *path, char *out, size_t len)
{
	char target[PATH_MAX], joined[2 * PATH_MAX + 2], dir[PATH_MAX];
	int ret = sysfs_readlink(root, path, target, sizeof(target));

	if (ret == -EINVAL)	/* not a symlink */
		return normalise(path, out, len);
	if (ret < 0)
		return ret;
	if (target[0] == '/') {
		/* root-relative: it would point out of a canned tree */
		return normalise(target, out, len);
	}
	ret = ws_dirname(path, dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(joined, sizeof(joined), "%s/%s", dir, target);
	return normalise(joined, out, len);
}

/* The `max` smallest names survive, whatever the readdir order. */
static void insert_sorted(char (*names)[SYSFS_NAME_MAX], size_t *n,
			  size_t max, const char *name)
{
	size_t i = *n;

	if (i == max) {
		if (!max || strcmp(name, names[max - 1]) >= 0)
			return;
		i--;	/* drop the largest */
	} else {
		(*n)++;
	}
	while (i > 0 && strcmp(name, names[i - 1]) < 0) {
		memcpy(names[i], names[i - 1], SYSFS_NAME_MAX);
		i--;
	}
	snprintf(names[i], SYSFS_NAME_MAX, "%s", name);
}

int sysfs_list(const char *root, const char *dir,
	       char (*names)[SYSFS_NAME_MAX], size_t max)
{
	char full[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;
	int ret = sysfs_path(root, dir, full, sizeof(full));

	if (ret)
		return ret;
	d = opendir(full);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    strlen(de->d_name) >= SYSFS_NAME_MAX)
			continue;
		insert_sorted(names, &n, max, de->d_name);
	}
	closedir(d);
	return (int)n;
}

bool sysfs_exists(const char *root, const char *path)
{
	char full[PATH_MAX];

	return !sysfs_path(root, path, full, sizeof(full)) &&
	       access(full, F_OK) == 0;
}
