/* c.c - the shared tables and helpers of c.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "lib/c.h"

struct ws_buf ws_buf_init(char *s, size_t cap)
{
	if (cap)
		s[0] = '\0';
	return (struct ws_buf){ .s = s, .cap = cap };
}

const char *ws_buf_vprintf(struct ws_buf *b, const char *fmt, va_list ap)
{
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	int n;

	if (!room) {
		b->truncated = true;
		return b->s;
	}
	n = vsnprintf(b->s + b->len, room, fmt, ap);
	if (n < 0) {
		b->s[b->len] = '\0';
		b->truncated = true;
	} else if ((size_t)n >= room) {
		b->len = b->cap - 1;
		b->truncated = true;
	} else {
		b->len += (size_t)n;
	}
	return b->s;
}

const char *ws_buf_printf(struct ws_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ws_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return b->s;
}

const char *ws_buf_item(struct ws_buf *b, const char *sep, const char *fmt, ...)
{
	va_list ap;

	if (b->len)
		ws_buf_printf(b, "%s", sep);
	va_start(ap, fmt);
	ws_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return b->s;
}

static const char *const ioprio_classes[] = {
	[WS_IOPRIO_RT] = "rt", [WS_IOPRIO_BE] = "be", [WS_IOPRIO_IDLE] = "idle",
};

const char *const ws_blk_schedulers[] = { "mq-deadline", "bfq", "kyber", "none", NULL };

const char *ws_ioprio_class_name(int class)
{
	return class > 0 && (size_t)class < ARRAY_SIZE(ioprio_classes) ?
	       ioprio_classes[class] : NULL;
}

char *ws_ioprio_name(int class, int level, char *buf, size_t len)
{
	const char *name = ws_ioprio_class_name(class);

	if (!name)
		snprintf(buf, len, "%s", "");
	else if (class == WS_IOPRIO_IDLE)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s:%d", name, level);
	return buf;
}

void errtryhelp(FILE *err, const char *cmd)
{
	fprintf(err, "Try '%s --help' for more information.\n", cmd);
}

int ws_fail(const char *msg, const char *hint, int status)
{
	fprintf(stderr, "writestress: %s\n", msg);
	if (hint && *hint)
		fprintf(stderr, "hint: %s\n", hint);
	return status;
}

int ws_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

void ws_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* The directory resolved, then the last name: one spelling per file. */
static bool canonical(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];

	if (ws_dirname(path, dir, sizeof(dir)) || !realpath(dir, real))
		return false;
	return (size_t)snprintf(out, len, "%s/%s", real, ws_basename(path)) < len;
}

bool ws_same_path(const char *a, const char *b)
{
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
	struct stat sa, sb;

	if (!lstat(a, &sa) && !lstat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (canonical(a, ca, sizeof(ca)) && canonical(b, cb, sizeof(cb)))
		return !strcmp(ca, cb);
	return !strcmp(a, b);
}

int ws_dirname(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;

	if (slash == path)
		n = 1;
	if (n >= len)
		return -EOVERFLOW;
	memcpy(out, slash ? path : ".", n);
	out[n] = '\0';
	return 0;
}

const char *ws_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

#ifdef WS_COVERAGE
void __gcov_dump(void);
#endif

_Noreturn void ws_exit_now(int status)
{
#ifdef WS_COVERAGE
	__gcov_dump();
#endif
	_exit(status);
}
