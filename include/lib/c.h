/* c.h - the small things every module uses, in util-linux's spirit: array
 * sizes that refuse pointers, a bounded string builder, MiB/s, I/O
 * priority classes and the kernel's schedulers (one table each), the
 * usage hint, a path's directory and name, a CSV field; and the few calls
 * every layer makes to end or to complain: ws_fail() and errtryhelp()
 * print, ws_write_text() writes a knob, ws_exit_now() exits.  Nothing
 * here knows of a run (record/kinds.h has its timers and endings).
 *
 * Any thread may call anything here; only those four do I/O.
 */
#ifndef WS_C_H
#define WS_C_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* 0, or a compile error when e is true. */
#define WS_BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
/* 0, or a compile error when a is a pointer, not an array. */
#define WS_MUST_BE_ARRAY(a) \
	WS_BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(__typeof__(a), \
							  __typeof__(&(a)[0])))
/* On a function whose result must not be ignored (an error that must
 * end the run, a resource to release): the compiler says when it is. */
#define WS_MUST_CHECK __attribute__((warn_unused_result))

/* The number of elements of array a (never of a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + (size_t)WS_MUST_BE_ARRAY(a))

/* A string built piece by piece into a fixed buffer: it stays
 * NUL-terminated and stops growing when full, and says so. */
struct ws_buf {
	char *s;
	size_t cap, len;
	bool truncated;
};

/* A builder over char array arr, emptied. */
#define WS_BUF(arr) ws_buf_init((arr), sizeof(arr) + (size_t)WS_MUST_BE_ARRAY(arr))

struct ws_buf ws_buf_init(char *s, size_t cap);
/* Append; returns the string so far. */
__attribute__((format(printf, 2, 3)))
const char *ws_buf_printf(struct ws_buf *b, const char *fmt, ...);
const char *ws_buf_vprintf(struct ws_buf *b, const char *fmt, va_list ap);
/* Append an item of a list: sep first unless the string is empty. */
__attribute__((format(printf, 3, 4)))
const char *ws_buf_item(struct ws_buf *b, const char *sep, const char *fmt, ...);

/* bytes over ns in MiB/s (2^20 bytes a second); 0 when ns is 0. */
static inline double ws_mibps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / 1048576.0 * 1e9 / (double)ns : 0.0;
}

/* |v| and the larger of two, for the statistics that need no libm. */
static inline double ws_absd(double v)
{
	return v < 0 ? -v : v;
}

static inline double ws_maxd(double a, double b)
{
	return a > b ? a : b;
}

/* I/O priority classes, as the kernel numbers them. */
enum { WS_IOPRIO_NONE = 0, WS_IOPRIO_RT = 1, WS_IOPRIO_BE = 2, WS_IOPRIO_IDLE = 3 };

/* The I/O schedulers of Linux's blk-mq as sysfs names them, NULL-ended:
 * the words shell completion offers for --scheduler (the queue's own
 * scheduler file is what a run checks a name against). */
extern const char *const ws_blk_schedulers[];

/* "rt", "be", "idle"; NULL for WS_IOPRIO_NONE or out of range. */
const char *ws_ioprio_class_name(int class);
/* "be:4", "idle"; "" for WS_IOPRIO_NONE.  Returns buf. */
char *ws_ioprio_name(int class, int level, char *buf, size_t len);

/* The second line of every usage error: "Try 'writestress compare
 * --help' for more information." (cmd "writestress compare"). */
void errtryhelp(FILE *err, const char *cmd);

/* Write text to an existing file (a sysfs or /proc knob) in one write(2):
 * 0, or -errno. */
int ws_write_text(const char *path, const char *text);

/* A run that cannot go on: "writestress: MSG" and, if given, "hint: HINT"
 * on stderr; returns status (the exit status to end with). */
int ws_fail(const char *msg, const char *hint, int status);

/* PATH's directory into out: "dir/f" -> "dir", "/f" -> "/", "f" -> ".".
 * 0, or -EOVERFLOW when it does not fit in len. */
int ws_dirname(const char *path, char *out, size_t len);
/* PATH's last name: "/dev/mapper/root" -> "root" (a pointer into path). */
const char *ws_basename(const char *path);

/* Do a and b name one file, whether it exists yet or not ("f", "./f",
 * "dir/../f", a link to its directory, another hard link)?  Symlinks in
 * the last name are not followed. */
bool ws_same_path(const char *a, const char *b);

/* One CSV field (RFC 4180), quoted when it holds a comma, a quote or a
 * line break; the separators and the CRLF line ends are the caller's. */
void ws_csv_field(FILE *out, const char *s);

/* _exit(status): at once, without atexit handlers or stdio (the end of a
 * signal handler or of a forked child).  A COVERAGE=1 build writes its
 * gcov counts first, or the lines that lead here would count as never
 * run (make coverage). */
_Noreturn void ws_exit_now(int status);

#endif
