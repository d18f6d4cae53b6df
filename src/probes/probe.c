/* probe.c - the probes' table and the file probes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/c.h"
#include "probes/probe.h"
#include "probe_kinds.h"

#define READ_BLOCK 4096

void probe_dir_of(const struct ws_config *cfg, char *out, size_t len)
{
	const char *slash;

	if (cfg->set.probe_dir) {
		snprintf(out, len, "%s", cfg->set.probe_dir);
		return;
	}
	slash = strrchr(cfg->set.path, '/');
	if (!slash)
		snprintf(out, len, ".");
	else if (slash == cfg->set.path)
		snprintf(out, len, "/");
	else
		snprintf(out, len, "%.*s", (int)(slash - cfg->set.path), cfg->set.path);
}

static int set_err(struct probe *p, int ret, const char *what)
{
	snprintf(p->err, sizeof(p->err), "%s probe: %s in '%.120s': %s",
		 probe_name(p), what, p->dir, strerror(-ret));
	return ret;
}

static int create_probe_file(struct probe *p, const char *name)
{
	int fd = openat(p->dirfd, name, O_WRONLY | O_CREAT | O_EXCL |
			O_NOFOLLOW | O_CLOEXEC, 0600);

	return fd < 0 ? -errno : fd;
}

static int fsync_setup(struct probe *p)
{
	int fd;

	snprintf(p->name, sizeof(p->name), "writestress-probe.%d.fsync",
		 (int)getpid());
	fd = create_probe_file(p, p->name);
	if (fd < 0) {
		p->name[0] = '\0';
		return set_err(p, fd, "cannot create its file");
	}
	p->fd = fd;
	return 0;
}

/* As a mail folder is compacted now and then. */
static void fsync_prepare(struct probe *p)
{
	struct file_probe *f = p->priv;

	if (f->offset + p->cfg->set.probe_size > WS_PROBE_FSYNC_WRAP) {
		if (ftruncate(p->fd, 0) == 0)
			f->offset = 0;
	}
}

static int fsync_run(struct probe *p)
{
	struct file_probe *f = p->priv;
	ssize_t n = pwrite(p->fd, p->buf, p->cfg->set.probe_size, (off_t)f->offset);

	if (n < 0)
		return -errno;
	f->offset += (uint64_t)n;
	if (p->cfg->set.probe_fdatasync ? fdatasync(p->fd) : fsync(p->fd))
		return -errno;
	return 0;
}

static void unlink_ours(struct probe *p, const char *name)
{
	if (name[0])
		unlinkat(p->dirfd, name, 0);
}

static void file_cleanup(struct probe *p)
{
	unlink_ours(p, p->name);
	unlink_ours(p, p->tmp_name);
	p->name[0] = p->tmp_name[0] = '\0';
}

static int save_setup(struct probe *p)
{
	int fd;

	snprintf(p->name, sizeof(p->name), "writestress-probe.%d.save",
		 (int)getpid());
	snprintf(p->tmp_name, sizeof(p->tmp_name), "writestress-probe.%d.save.tmp",
		 (int)getpid());
	/* both names must be free now, so every later rename is ours */
	fd = create_probe_file(p, p->name);
	if (fd < 0) {
		p->name[0] = p->tmp_name[0] = '\0';
		return set_err(p, fd, "cannot create its file");
	}
	close(fd);
	fd = create_probe_file(p, p->tmp_name);
	if (fd < 0) {
		p->tmp_name[0] = '\0';
		return set_err(p, fd, "cannot create its temporary file");
	}
	close(fd);
	unlinkat(p->dirfd, p->tmp_name, 0);
	return 0;
}

static int save_run(struct probe *p)
{
	int fd = openat(p->dirfd, p->tmp_name, O_WRONLY | O_CREAT | O_TRUNC |
			O_NOFOLLOW | O_CLOEXEC, 0600);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, p->buf, p->cfg->set.probe_size) < 0 || fsync(fd))
		ret = -errno;
	close(fd);
	if (!ret && renameat(p->dirfd, p->tmp_name, p->dirfd, p->name))
		ret = -errno;
	if (!ret && fsync(p->dirfd))
		ret = -errno;
	return ret;
}

/* Allocated and on disk first: an overwrite needs no journal. */
#define DSYNC_FILE (1024 * 1024)

static uint64_t dsync_span(const struct probe *p)
{
	uint64_t n = DSYNC_FILE / p->cfg->set.probe_size;

	return (n < 16 ? 16 : n) * p->cfg->set.probe_size;
}

static int dsync_setup(struct probe *p)
{
	uint64_t span = dsync_span(p);
	int fd, ret = 0;

	snprintf(p->name, sizeof(p->name), "writestress-probe.%d.dsync",
		 (int)getpid());
	fd = openat(p->dirfd, p->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC | O_DSYNC, 0600);
	if (fd < 0) {
		p->name[0] = '\0';
		return set_err(p, -errno, "cannot create its file");
	}
	p->fd = fd;
	for (uint64_t off = 0; off < span && !ret; off += p->cfg->set.probe_size)
		if (pwrite(fd, p->buf, p->cfg->set.probe_size, (off_t)off) < 0)
			ret = -errno;
	if (!ret && fsync(fd))
		ret = -errno;
	return ret ? set_err(p, ret, "cannot write its file") : 0;
}

static void dsync_prepare(struct probe *p)
{
	struct file_probe *f = p->priv;

	f->offset += p->cfg->set.probe_size;
	if (f->offset + p->cfg->set.probe_size > dsync_span(p))
		f->offset = 0;
}

static int dsync_run(struct probe *p)
{
	struct file_probe *f = p->priv;

	return pwrite(p->fd, p->buf, p->cfg->set.probe_size, (off_t)f->offset) < 0 ?
	       -errno : 0;
}

static int read_setup(struct probe *p)
{
	struct file_probe *f = p->priv;
	struct stat st;
	int fd;

	if (!p->cfg->set.read_probe) {
		snprintf(p->err, sizeof(p->err),
			 "read probe: needs --read-probe PATH, an existing file to read from");
		return -EINVAL;
	}
	fd = open(p->cfg->set.read_probe, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size < READ_BLOCK) {
		int ret = fd < 0 ? -errno : -EINVAL;

		if (fd >= 0)
			close(fd);
		snprintf(p->err, sizeof(p->err),
			 "read probe: '%.120s' must be a regular file of at least 4 KiB%s%s",
			 p->cfg->set.read_probe, ret == -EINVAL ? "" : ": ",
			 ret == -EINVAL ? "" : strerror(-ret));
		return ret;
	}
	p->fd = fd;
	f->read_blocks = (uint64_t)st.st_size / READ_BLOCK;
	f->direct = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_DIRECT) == 0;
	f->rng = (uint64_t)getpid() * 0x9e3779b97f4a7c15u | 1;
	return 0;
}

static uint64_t next_block(struct probe *p)
{
	struct file_probe *f = p->priv;

	/* xorshift64 */
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng % f->read_blocks;
}

static void read_prepare(struct probe *p)
{
	struct file_probe *f = p->priv;
	uint64_t block = next_block(p);

	/* without O_DIRECT, drop the block so the read reaches the device */
	f->offset = block * READ_BLOCK;
	if (!f->direct)
		posix_fadvise(p->fd, (off_t)f->offset, READ_BLOCK,
			      POSIX_FADV_DONTNEED);
}

static int read_run(struct probe *p)
{
	struct file_probe *f = p->priv;

	return pread(p->fd, p->buf, READ_BLOCK, (off_t)f->offset) < 0 ? -errno : 0;
}

static void read_cleanup(struct probe *p)
{
	(void)p;	/* the file read is not ours */
}

static unsigned int one_sync(const struct probe *p)
{
	(void)p;
	return 1;
}

static unsigned int two_syncs(const struct probe *p)
{
	(void)p;
	return 2;
}

static const struct probe_ops probe_fsync = {
	.kind = WS_PROBE_FSYNC,
	.stands_for = "a mail client storing a message (append + fsync)",
	.setup_hint = "--probe-dir DIR puts probe files elsewhere; --no-probe runs without",
	.options = (const char *const[]){ "probe-size", "probe-sync", NULL },
	.priv_size = sizeof(struct file_probe),
	.setup = fsync_setup,
	.prepare = fsync_prepare,
	.run = fsync_run,
	.cleanup = file_cleanup,
	.syncs = one_sync,
};

static const struct probe_ops probe_save = {
	.kind = WS_PROBE_SAVE,
	.stands_for = "an editor saving (write, fsync, rename, fsync the directory)",
	.setup_hint = "--probe-dir DIR puts probe files elsewhere; --no-probe runs without",
	.options = (const char *const[]){ "probe-size", NULL },
	.setup = save_setup,
	.run = save_run,
	.cleanup = file_cleanup,
	.syncs = two_syncs,
};

static const struct probe_ops probe_read = {
	.kind = WS_PROBE_READ,
	.stands_for = "an application starting, a mail opened (a cold 4 KiB read)",
	.options = (const char *const[]){ "read-probe", NULL },
	.needs = "read-probe",
	.needs_what = "an existing file to read from",
	.setup_hint = "give --read-probe a file you can read, e.g. one of your own; --probe without read runs without it",
	.priv_size = sizeof(struct file_probe),
	.setup = read_setup,
	.prepare = read_prepare,
	.run = read_run,
	.cleanup = read_cleanup,
	.syncs = one_sync,
};

static const struct probe_ops probe_sqlite = {
	.kind = WS_PROBE_SQLITE,
	.stands_for = "a mail store or a browser's history committing (a real SQLite transaction)",
	.setup_hint = "--probe-dir DIR puts probe files elsewhere; --no-probe runs without",
	.options = (const char *const[]){ "probe-size", "sqlite-journal", "sqlite-sync", NULL },
	.priv_size = sizeof(struct sqlite_probe),
	.setup = probe_sqlite_setup,
	.prepare = probe_sqlite_prepare,
	.run = probe_sqlite_run,
	.cleanup = probe_sqlite_cleanup,
	.syncs = probe_sqlite_syncs,
};

static const struct probe_ops probe_dsync = {
	.kind = WS_PROBE_DSYNC,
	.stands_for = "a database's write-ahead log (in-place O_DSYNC overwrite, as ioping -W -y)",
	.setup_hint = "--probe-dir DIR puts probe files elsewhere; --no-probe runs without",
	.options = (const char *const[]){ "probe-size", NULL },
	.priv_size = sizeof(struct file_probe),
	.setup = dsync_setup,
	.prepare = dsync_prepare,
	.run = dsync_run,
	.cleanup = file_cleanup,
	.syncs = one_sync,
};

static const struct probe_ops probe_cmd = {
	.kind = WS_PROBE_CMD,
	.stands_for = "your own command, e.g. mail='notmuch new' (its wall time)",
	.options = (const char *const[]){ "probe-cmd", "probe-user", "probe-timeout", NULL },
	.needs = "probe-cmd",
	.needs_what = "a command to time",
	.per_command = true,
	.priv_size = sizeof(struct cmd_probe),
	.setup = probe_cmd_setup,
	.run = probe_cmd_run,
	.cleanup = probe_cmd_cleanup,
};

const struct probe_ops *const probe_kinds[WS_PROBE_NR] = {
	[WS_PROBE_FSYNC] = &probe_fsync,
	[WS_PROBE_SAVE] = &probe_save,
	[WS_PROBE_READ] = &probe_read,
	[WS_PROBE_SQLITE] = &probe_sqlite,
	[WS_PROBE_DSYNC] = &probe_dsync,
	[WS_PROBE_CMD] = &probe_cmd,
};

int probe_init(struct probe *p, enum ws_probe_kind kind, unsigned int instance,
	       const struct ws_config *cfg)
{
	size_t bufsize = cfg->set.probe_size > READ_BLOCK ? cfg->set.probe_size : READ_BLOCK;
	int ret;

	memset(p, 0, sizeof(*p));
	p->ops = probe_kinds[kind];
	p->cfg = cfg;
	p->fd = p->dirfd = -1;
	p->instance = instance;
	probe_dir_of(cfg, p->dir, sizeof(p->dir));
	if (p->ops->priv_size && !(p->priv = calloc(1, p->ops->priv_size)))
		return set_err(p, -ENOMEM, "cannot allocate");
	p->dirfd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->dirfd < 0) {
		ret = set_err(p, -errno, "cannot open the directory");
		probe_cleanup(p);
		return ret;
	}
	ret = posix_memalign(&p->buf, READ_BLOCK, bufsize);
	if (ret) {
		p->buf = NULL;
		probe_cleanup(p);
		return set_err(p, -ret, "cannot allocate");
	}
	/* not zeros, which a filesystem may skip */
	for (size_t i = 0; i < bufsize; i++)
		((char *)p->buf)[i] = "writestress probe\n"[i % 18];
	ret = p->ops->setup(p);
	if (ret)
		probe_cleanup(p);
	return ret;
}

void probe_cleanup(struct probe *p)
{
	if (p->ops && p->dirfd >= 0)
		p->ops->cleanup(p);
	if (p->fd >= 0)
		close(p->fd);
	if (p->dirfd >= 0)
		close(p->dirfd);
	p->fd = p->dirfd = -1;
	free(p->buf);
	free(p->priv);
	p->buf = p->priv = NULL;
}

unsigned int probe_file_names(const struct probe *p, const char **names)
{
	const char *all[PROBE_MAX_NAMES] = { p->aux_name[0], p->aux_name[1],
					     p->aux_name[2], p->aux_name[3],
					     p->tmp_name, p->name };
	unsigned int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i][0])
			names[n++] = all[i];
	return n;
}
