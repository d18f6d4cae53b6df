/* c.h - what every module uses, in util-linux's spirit: checked array
 * sizes, a bounded string builder, small tables and the calls that end or
 * complain.  Nothing here knows of a run.  Any thread; only ws_fail,
 * errtryhelp, ws_write_text and ws_exit_now do I/O.
 */
#ifndef WS_C_H
#define WS_C_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WS_BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#define WS_MUST_BE_ARRAY(a) \
	WS_BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(__typeof__(a), \
							  __typeof__(&(a)[0])))
#define WS_MUST_CHECK __attribute__((warn_unused_result))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + (size_t)WS_MUST_BE_ARRAY(a))

/* Stays NUL-terminated; when full it stops growing and says so. */
struct ws_buf {
	char *s;
	size_t cap, len;
	bool truncated;
};

#define WS_BUF(arr) ws_buf_init((arr), sizeof(arr) + (size_t)WS_MUST_BE_ARRAY(arr))

struct ws_buf ws_buf_init(char *s, size_t cap);
/* Append; return the string. */
__attribute__((format(printf, 2, 3)))
const char *ws_buf_printf(struct ws_buf *b, const char *fmt, ...);
const char *ws_buf_vprintf(struct ws_buf *b, const char *fmt, va_list ap);
/* sep first unless the string is empty. */
__attribute__((format(printf, 3, 4)))
const char *ws_buf_item(struct ws_buf *b, const char *sep, const char *fmt, ...);

/* MiB/s; 0 when ns is 0. */
static inline double ws_mibps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / 1048576.0 * 1e9 / (double)ns : 0.0;
}

/* No libm. */
static inline double ws_absd(double v)
{
	return v < 0 ? -v : v;
}

static inline double ws_maxd(double a, double b)
{
	return a > b ? a : b;
}

/* As the kernel numbers them. */
enum { WS_IOPRIO_NONE = 0, WS_IOPRIO_RT = 1, WS_IOPRIO_BE = 2, WS_IOPRIO_IDLE = 3 };

/* blk-mq's, NULL-ended, for completion. */
extern const char *const ws_blk_schedulers[];

/* NULL for WS_IOPRIO_NONE or out of range. */
const char *ws_ioprio_class_name(int class);
/* "be:4", "idle"; "" for WS_IOPRIO_NONE. */
char *ws_ioprio_name(int class, int level, char *buf, size_t len);

/* "Try 'CMD --help' for more information." */
void errtryhelp(FILE *err, const char *cmd);

/* To an existing file (a knob) in one write(2): 0, or -errno. */
int ws_write_text(const char *path, const char *text);

/* "writestress: MSG" and "hint: HINT" (if given) on stderr; returns
 * status. */
int ws_fail(const char *msg, const char *hint, int status);

/* "/f" -> "/", "f" -> ".".  0, or -EOVERFLOW. */
int ws_dirname(const char *path, char *out, size_t len);
/* A pointer into path. */
const char *ws_basename(const char *path);

/* Existing yet or not; a last-name symlink is not followed. */
bool ws_same_path(const char *a, const char *b);

/* RFC 4180, quoted as needed; separators and CRLFs are the caller's. */
void ws_csv_field(FILE *out, const char *s);

/* _exit(); a COVERAGE=1 build writes its gcov counts first. */
_Noreturn void ws_exit_now(int status);

#endif
