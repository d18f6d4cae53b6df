/* sink.c - the sink set: fan-out of run events to every output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/c.h"
#include "outputs/sink.h"
#include "lib/units.h"

int sink_add(struct sink_set *set, const struct sink_ops *ops, FILE *out)
{
	if (set->n == WS_MAX_SINKS)
		return -ENOSPC;
	set->sinks[set->n++] = (struct sink){ .ops = ops, .out = out };
	return 0;
}

/* How each file writestress writes begins; an SVG is ours when its
 * title, within its first lines, names writestress. */
static const char *const begins[] = {
	"{\"schema\":\"writestress-",
	"# HELP writestress_",
	"interval,t_s,dt_s,bytes,",
	"interval,target,t_s,dt_s,bytes,",
	"group,file,host,model,",
};
#define SVG_BEGINS "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
#define SVG_TITLE "<title>writestress"

bool sink_file_is_ours(const char *path)
{
	char head[1024];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n <= 0)
		return false;
	head[n] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(begins); i++)
		if (!strncmp(head, begins[i], strlen(begins[i])))
			return true;
	return !strncmp(head, SVG_BEGINS, strlen(SVG_BEGINS)) && strstr(head, SVG_TITLE);
}

int sink_check_path(const char *path, bool force, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' exists and is not a regular file (results replace only regular files; '-' is standard output)",
			 path);
		return -EEXIST;
	}
	if (st.st_size == 0 || force || sink_file_is_ours(path))
		return 0;
	snprintf(err, errlen, "'%s' exists and writestress did not write it", path);
	return -EPERM;
}

static int open_tmp(struct sink *s)
{
	int fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int ret;

	if (fd >= 0 && (s->out = fdopen(fd, "w")))
		return 0;
	ret = -errno;
	if (fd >= 0) {
		close(fd);
		unlink(s->tmp);
	}
	return ret;
}

int sink_add_file(struct sink_set *set, const struct sink_ops *ops,
		  const char *path, char *err, size_t errlen)
{
	struct sink *s;
	int ret;

	if (set->n == WS_MAX_SINKS) {
		snprintf(err, errlen, "too many outputs (at most %d)", WS_MAX_SINKS);
		return -ENOSPC;
	}
	s = &set->sinks[set->n];
	memset(s, 0, sizeof(*s));
	if (!strcmp(path, "-")) {	/* to stdout: the human output is on stderr */
		s->out = stdout;
		s->to_stdout = true;
		s->ops = ops;
		s->path = path;
		set->n++;
		return 0;
	}
	for (unsigned int i = 0; i < set->n; i++)
		if (set->sinks[i].path && ws_same_path(set->sinks[i].path, path)) {
			snprintf(err, errlen, "'%s' is already another output of this run", path);
			return -EINVAL;
		}
	ret = sink_check_path(path, set->force, err, errlen);
	if (ret)
		return ret;
	/* .N past a stale one of our PID (a container's is always 1) */
	for (int n = 0; n < 100; n++) {
		snprintf(s->tmp, sizeof(s->tmp), n ? "%s.tmp.%d.%d" : "%s.tmp.%d",
			 path, (int)getpid(), n);
		ret = open_tmp(s);
		if (ret != -EEXIST)
			break;
	}
	if (ret) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(-ret));
		return ret;
	}
	s->ops = ops;
	s->path = path;
	s->force = set->force;
	set->n++;
	/* a second ^C exits at once: no half-written temporary stays */
	if (set->tmp_made)
		set->tmp_made(AT_FDCWD, s->tmp);
	return 0;
}

/* The rename lasts a crash only once the directory is on disk; one that
 * cannot be synced is no reason to fail the result. */
static void sync_dir_of(const char *path)
{
	char dir[4096];
	int fd;

	if (ws_dirname(path, dir, sizeof(dir)))
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* On failure the temporary is removed and the first call's own -errno
 * returned: ENOSPC says more than EIO (EIO when only the stream's error
 * flag tells of a failed write). */
static int publish_tmp(struct sink *s, bool durable)
{
	int ret = 0;

	if (fflush(s->out) || (durable && fsync(fileno(s->out))))
		ret = -errno;
	else if (ferror(s->out))
		ret = -EIO;
	if (fclose(s->out) && !ret)
		ret = -errno;
	s->out = NULL;
	/* a file put there while the run went on is not ours to replace */
	if (!ret)
		ret = sink_check_path(s->path, s->force, (char[8]){ 0 }, 8);
	if (!ret && rename(s->tmp, s->path))
		ret = -errno;
	if (ret)
		unlink(s->tmp);
	else if (durable)
		sync_dir_of(s->path);
	return ret;
}

int sink_close_file(struct sink *s)
{
	int ret;

	if (s->to_stdout) {
		ret = fflush(s->out) ? -errno : ferror(s->out) ? -EIO : 0;
		s->out = NULL;
		return ret;
	}
	return publish_tmp(s, true);
}

int sink_publish_file(struct sink *s)
{
	int ret, reopen;

	if (!s->out)
		return -EBADF;
	if (!s->path || s->to_stdout)
		return fflush(s->out) ? -errno : ferror(s->out) ? -EIO : 0;
	ret = publish_tmp(s, false);	/* a reader wants it whole, not durable */
	reopen = open_tmp(s);
	return ret ? ret : reopen;
}

int sink_reopen_file(struct sink *s)
{
	if (s->out)
		return 0;
	return s->path && !s->to_stdout ? open_tmp(s) : -EBADF;
}

void sink_drop_file(struct sink *s)
{
	if (s->out && !s->to_stdout) {
		fclose(s->out);
		unlink(s->tmp);
	}
	s->out = NULL;
}

void sink_abort_all(struct sink_set *set)
{
	for (unsigned int i = 0; i < set->n; i++) {
		struct sink *s = &set->sinks[i];

		if (s->ops->abort)
			s->ops->abort(s);
		if (s->path)
			sink_drop_file(s);
	}
	set->n = 0;
}

void sink_header(struct sink_set *set, const struct ws_run *run)
{
	for (unsigned int i = 0; i < set->n; i++)
		if (set->sinks[i].ops->header)
			set->sinks[i].ops->header(&set->sinks[i], run);
}

void sink_interval(struct sink_set *set, const struct ws_run *run,
		   const struct ws_interval *iv)
{
	for (unsigned int i = 0; i < set->n; i++)
		if (set->sinks[i].ops->interval)
			set->sinks[i].ops->interval(&set->sinks[i], run, iv);
}

void sink_summary(struct sink_set *set, const struct ws_run *run,
		  const struct ws_summary *sum)
{
	for (unsigned int i = 0; i < set->n; i++)
		if (set->sinks[i].ops->summary)
			set->sinks[i].ops->summary(&set->sinks[i], run, sum);
}

int sink_close_all(struct sink_set *set)
{
	int first = 0;

	for (unsigned int i = 0; i < set->n; i++) {
		int ret = set->sinks[i].ops->close ?
			  set->sinks[i].ops->close(&set->sinks[i]) : 0;

		if (ret && !first)
			first = ret;
	}
	set->n = 0;
	return first;
}

void sink_format_result(char *buf, size_t len, const struct ws_summary *sum)
{
	/* overwrite.c's line in honest units; MiB under a GiB, as elsewhere */
	bool gib = sum->bytes >= WS_GIB - WS_MIB / 2;

	snprintf(buf, len, "%.*f %s written in %.2f s (%.1f MiB/s)", gib ? 3 : 1,
		 (double)sum->bytes / (double)(gib ? WS_GIB : WS_MIB),
		 gib ? "GiB" : "MiB", (double)sum->elapsed_ns / 1e9, sum->mibps);
}
