/* target.c - opening the file under test safely. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/exit.h"
#include "run/target.h"

#define WS_XATTR_VALUE "created-by-writestress"

static int refuse(struct ws_target_error *err, int status, int ret,
		  const char *hint, const char *fmt, const char *path)
{
	err->status = status;
	snprintf(err->msg, sizeof(err->msg), fmt, path);
	snprintf(err->hint, sizeof(err->hint), "%s", hint ? hint : "");
	return ret;
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

static const struct {
	unsigned long magic;
	const char *name;
} fs_names[] = {
	{ 0xEF53, "ext4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" },
	{ 0x01021994, "tmpfs" }, { 0x2FC12FC1, "zfs" }, { 0xF2F52010, "f2fs" },
	{ 0x6969, "nfs" }, { 0x65735546, "fuse" }, { 0x794C7630, "overlay" },
	{ 0x4d44, "vfat" }, { 0x5346544e, "ntfs" }, { 0xCA451A4E, "bcachefs" },
	{ 0x858458f6, "ramfs" },
};

static void name_fs(int fd, char *buf, size_t len)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs)) {
		snprintf(buf, len, "unknown");
		return;
	}
	for (size_t i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++) {
		if ((unsigned long)sfs.f_type == fs_names[i].magic) {
			snprintf(buf, len, "%s", fs_names[i].name);
			return;
		}
	}
	snprintf(buf, len, "0x%lx", (unsigned long)sfs.f_type);
}

static const char *system_dir_on(int fd)
{
	static const char *const dirs[] = { "/", "/var", "/home" };
	struct stat st, d;

	if (fstat(fd, &st))
		return NULL;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!stat(dirs[i], &d) && d.st_dev == st.st_dev)
			return dirs[i];
	return NULL;
}

static int read_space(int fd, struct ws_space *sp)
{
	struct statvfs sv;

	if (fstatvfs(fd, &sv))
		return -errno;
	sp->holds = system_dir_on(fd);
	sp->fs_size = (uint64_t)sv.f_blocks * sv.f_frsize;
	sp->avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

int target_avail(int fd, uint64_t *avail)
{
	struct ws_space sp = { 0 };
	int ret = read_space(fd, &sp);

	if (!ret)
		*avail = sp.avail;
	return ret;
}

static int create_new(const char *path, int flags, struct ws_target *t,
		      struct ws_target_error *err)
{
	int fd = open(path, flags | O_CREAT | O_EXCL, 0644), ret;

	if (fd < 0)
		return -errno;
	t->fd = fd;
	t->created = true;
	ret = target_mark(t);
	if (ret == -ENOTSUP || ret == -EPERM)
		t->xattr_unsupported = true;
	(void)err;
	return 0;
}

static bool has_mark(int fd, bool *unsupported)
{
	char val[64];
	ssize_t n = fgetxattr(fd, WS_XATTR_NAME, val, sizeof(val));

	*unsupported = n < 0 && errno == ENOTSUP;
	return n == (ssize_t)(sizeof(WS_XATTR_VALUE) - 1) &&
	       !memcmp(val, WS_XATTR_VALUE, (size_t)n);
}

/* O_PATH opens neither devices nor FIFOs: look first, then reopen that
 * very inode for writing only if it is a regular file we may modify. */
static int open_existing(const struct ws_config *cfg, int flags,
			 struct ws_target *t, struct ws_target_error *err)
{
	const char *path = cfg->set.path;
	char proc[64];
	struct stat st, st2;
	int pfd, fd, ret;
	bool unsupported;

	pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st)) {
		ret = -errno;
		goto out_close_pfd;
	}
	if (!S_ISREG(st.st_mode)) {
		char fmt[128];

		snprintf(fmt, sizeof(fmt), "refusing '%%s': it is %s, and writestress only writes regular files",
			 kind_of(st.st_mode));
		ret = refuse(err, WS_EXIT_REFUSED, -EPERM,
			     "name a new or writestress-made file, e.g. /mnt/test/writestress.dat",
			     fmt, path);
		goto out_close_pfd;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	/* a magic link to the inode already looked at: follow it */
	fd = open(proc, flags & ~O_NOFOLLOW);
	if (fd < 0) {
		ret = -errno;
		goto out_close_pfd;
	}
	if (fstat(fd, &st2) || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
		ret = refuse(err, WS_EXIT_REFUSED, -EAGAIN, NULL,
			     "refusing '%s': it changed while being opened", path);
		goto out_close_fd;
	}
	t->fd = fd;
	t->marked = has_mark(fd, &unsupported);
	t->xattr_unsupported = unsupported;
	if (!t->marked) {
		if (!cfg->force) {
			ret = refuse(err, WS_EXIT_REFUSED, -EEXIST,
				     unsupported ?
				     "its filesystem has no extended attributes, so writestress cannot recognise its own files there; add --force to overwrite it, or pick a new name" :
				     "add --force to overwrite it anyway, or pick a new name",
				     "refusing to modify '%s': it exists and was not created by writestress",
				     path);
			goto out_close_fd;
		}
		t->forced = true;
	}
	/* rewritten in place: space the run has without taking more */
	t->space.reclaimed = (uint64_t)st2.st_blocks * 512;
	t->size_at_open = (uint64_t)st2.st_size;
	close(pfd);
	return 0;

out_close_fd:
	close(fd);
	t->fd = -1;
out_close_pfd:
	close(pfd);
	return ret;
}

static void explain_open_failure(const char *path, int ret,
				 struct ws_target_error *err)
{
	const char *hint = NULL;
	char dir[PATH_MAX], dirhint[256];
	struct stat dst;

	if (ret == -ENOENT) {
		if (ws_dirname(path, dir, sizeof(dir)))
			snprintf(dir, sizeof(dir), ".");
		if (stat(dir, &dst) || !S_ISDIR(dst.st_mode))
			snprintf(dirhint, sizeof(dirhint),
				 "the directory '%.120s' does not exist: create it first, or name a file in one that does", dir);
		else
			snprintf(dirhint, sizeof(dirhint),
				 "'%.120s' takes no new files (a filesystem such as /proc or /sys): name a file on a disk's filesystem", dir);
		hint = dirhint;
	} else if (ret == -EACCES || ret == -EPERM)
		hint = "writing there needs its owner's rights: pick a directory you can write to, or run as a user who can (sudo writestress ...)";
	else if (ret == -EROFS)
		hint = "the filesystem is mounted read-only: pick another, or remount it rw";
	err->status = ret == -ELOOP ? WS_EXIT_REFUSED : WS_EXIT_FAILURE;
	snprintf(err->msg, sizeof(err->msg), "cannot open '%s': %s",
		 path, ret == -ELOOP ? "it is a symbolic link" : strerror(-ret));
	snprintf(err->hint, sizeof(err->hint), "%s", hint ? hint : "");
}

/* The open fd's file and filesystem: 0, or -errno with *err. */
static int read_fs(struct ws_target *t, const char *path, struct ws_target_error *err)
{
	struct stat st;
	int ret;

	fstat(t->fd, &st);
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	name_fs(t->fd, t->fs_type, sizeof(t->fs_type));
	ret = read_space(t->fd, &t->space);
	if (ret)
		snprintf(err->msg, sizeof(err->msg), "cannot read free space of '%s': %s",
			 path, strerror(-ret));
	return ret;
}

int target_open(const struct ws_config *cfg, int extra_flags,
		struct ws_target *t, struct ws_target_error *err)
{
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
		    (extra_flags & ~O_DIRECT);
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	memset(err, 0, sizeof(*err));
	t->fd = -1;
	err->status = WS_EXIT_FAILURE;

	if (lstat(cfg->set.path, &st) == 0 && S_ISLNK(st.st_mode))
		return refuse(err, WS_EXIT_REFUSED, -ELOOP,
			      "name the real file; writestress never follows symbolic links",
			      "refusing '%s': it is a symbolic link", cfg->set.path);

	ret = create_new(cfg->set.path, flags, t, err);
	if (ret == -EISDIR)	/* "dir/" */
		return refuse(err, WS_EXIT_REFUSED, -EPERM,
			      "name a new or writestress-made file, e.g. /mnt/test/writestress.dat",
			      "refusing '%s': it is a directory, and writestress only writes regular files",
			      cfg->set.path);
	if (ret == -EEXIST)
		ret = open_existing(cfg, flags, t, err);
	if (ret && !err->msg[0])
		explain_open_failure(cfg->set.path, ret, err);
	if (ret)
		return ret;

	/* open(O_CREAT|O_DIRECT) where it is unsupported may create, then fail */
	if ((extra_flags & O_DIRECT) &&
	    fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_DIRECT)) {
		ret = -errno;
		snprintf(err->msg, sizeof(err->msg),
			 "--pace direct: the filesystem of '%s' does not support O_DIRECT (%s)",
			 cfg->set.path, strerror(-ret));
		snprintf(err->hint, sizeof(err->hint), "use --pace window or dontcache");
		err->status = WS_EXIT_FAILURE;
		fstat(t->fd, &st);
		t->dev = st.st_dev;
		t->ino = st.st_ino;
		target_close(t, cfg->set.path, t->created);
		return ret;
	}
	ret = read_fs(t, cfg->set.path, err);
	if (ret)
		target_close(t, cfg->set.path, t->created);
	return ret;
}

int target_open_dir(const char *path, struct ws_target *t, struct ws_target_error *err)
{
	struct stat st;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	memset(err, 0, sizeof(*err));
	err->status = WS_EXIT_USAGE;	/* the --probe-dir given */
	/* O_NOFOLLOW says ENOTDIR of a link to a directory */
	t->fd = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? (errno = ELOOP, -1) :
		open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (t->fd < 0) {
		ret = -errno;
		snprintf(err->msg, sizeof(err->msg), "invalid --probe-dir '%s': %s", path,
			 ret == -ELOOP ? "a symbolic link (never followed): name the directory itself" :
			 ret == -ENOTDIR ? "not a directory" : strerror(-ret));
		snprintf(err->hint, sizeof(err->hint),
			 "--probe-dir names a directory on the disk to watch");
		return ret;
	}
	ret = read_fs(t, path, err);
	if (ret)
		err->status = WS_EXIT_FAILURE;
	close(t->fd);
	t->fd = -1;
	return ret;
}

int target_mark(struct ws_target *t)
{
	if (fsetxattr(t->fd, WS_XATTR_NAME, WS_XATTR_VALUE,
		      sizeof(WS_XATTR_VALUE) - 1, 0))
		return -errno;
	t->marked = true;
	return 0;
}

int target_truncate(struct ws_target *t)
{
	if (ftruncate(t->fd, 0))
		return -errno;
	t->truncated = true;
	return 0;
}

int target_close(struct ws_target *t, const char *path, bool remove)
{
	struct stat st;
	int ret = 0;

	/* unlink only the inode we wrote, and only if it is ours */
	if (remove && (t->created || t->marked) && lstat(path, &st) == 0 &&
	    st.st_dev == t->dev && st.st_ino == t->ino && unlink(path))
		ret = -errno;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	return ret;
}
