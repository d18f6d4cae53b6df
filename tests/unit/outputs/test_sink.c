/* test_sink.c - the sink set: the WS_MAX_SINKS limit, fan-out of header,
 * intervals and summary to every sink in order (hooks a sink lacks are
 * skipped), sink_close_all's first-error rule, and the result files on a
 * temporary directory: written to PATH.tmp.PID (created exclusively, never
 * through a symlink) and renamed over PATH only by a good close, so PATH
 * is the old file or the complete new one; what is refused and left
 * untouched; abort and failed closes leaving PATH as it was and no
 * temporary behind.  sink_format_result's line, figures worked by hand. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <dirent.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "outputs/sink.h"
#include "record_fixture.h"
#include "suites.h"
#include "lib/units.h"

/* ---- fake sinks: every call logged, in order ---- */

struct fake {
	const char *name;
	int close_ret;
	unsigned int closes;
};

static struct ws_run run;
static struct ws_interval iv1, iv2;
static struct ws_summary sum;
static struct sink_set *logged_set;	/* the set whose sinks are called */
static char calls[512];

static void log_call(struct sink *s, const char *what)
{
	struct fake *f = s->priv;
	size_t used = strlen(calls);

	/* the hook gets its own slot of the set, not a copy */
	ck_assert_ptr_nonnull(logged_set);
	ck_assert(s >= logged_set->sinks && s < logged_set->sinks + logged_set->n);
	snprintf(calls + used, sizeof(calls) - used, "%s%s.%s",
		 used ? " " : "", f->name, what);
}

static void fake_header(struct sink *s, const struct ws_run *r)
{
	ck_assert_ptr_eq(r, &run);
	log_call(s, "header");
}

static void fake_interval(struct sink *s, const struct ws_run *r,
			  const struct ws_interval *iv)
{
	ck_assert_ptr_eq(r, &run);
	ck_assert(iv == &iv1 || iv == &iv2);
	log_call(s, iv == &iv1 ? "iv1" : "iv2");
}

static void fake_summary(struct sink *s, const struct ws_run *r,
			 const struct ws_summary *su)
{
	ck_assert_ptr_eq(r, &run);
	ck_assert_ptr_eq(su, &sum);
	log_call(s, "summary");
}

static int fake_close(struct sink *s)
{
	struct fake *f = s->priv;

	log_call(s, "close");
	f->closes++;
	return f->close_ret;
}

static const struct sink_ops full_ops = {
	.name = "full",
	.header = fake_header,
	.interval = fake_interval,
	.summary = fake_summary,
	.close = fake_close,
};

/* like --quiet: the summary only */
static const struct sink_ops summary_only_ops = {
	.name = "summary-only",
	.summary = fake_summary,
	.close = fake_close,
};

static const struct sink_ops no_hooks_ops = { .name = "none" };

static void set_setup(void)
{
	calls[0] = '\0';
	logged_set = NULL;
}

static void add_fake(struct sink_set *set, const struct sink_ops *ops,
		     struct fake *f)
{
	ck_assert_int_eq(sink_add(set, ops, NULL), 0);
	set->sinks[set->n - 1].priv = f;
}

/* ---- sink_add and the limit ---- */

START_TEST(test_add)
{
	struct sink_set set = { .n = 0 };

	for (unsigned int i = 0; i < WS_MAX_SINKS; i++) {
		ck_assert_int_eq(sink_add(&set, &full_ops, i % 2 ? stdout : stderr), 0);
		ck_assert_uint_eq(set.n, i + 1);
		ck_assert_ptr_eq(set.sinks[i].ops, &full_ops);
		ck_assert_ptr_eq(set.sinks[i].out, i % 2 ? stdout : stderr);
		ck_assert_ptr_null(set.sinks[i].path);	/* not a file sink */
		ck_assert_ptr_null(set.sinks[i].priv);
		ck_assert_int_eq(set.sinks[i].dirty_line, 0);
	}
	ck_assert_int_eq(sink_add(&set, &no_hooks_ops, stdout), -ENOSPC);
	ck_assert_uint_eq(set.n, WS_MAX_SINKS);
	ck_assert_ptr_eq(set.sinks[WS_MAX_SINKS - 1].ops, &full_ops);
}
END_TEST

/* ---- fan-out ---- */

START_TEST(test_fanout_order)
{
	struct sink_set set = { .n = 0 };
	struct fake a = { "A", 0, 0 }, b = { "B", 0, 0 }, q = { "Q", 0, 0 },
		    none = { "N", 0, 0 };

	logged_set = &set;
	add_fake(&set, &full_ops, &a);
	add_fake(&set, &summary_only_ops, &q);
	add_fake(&set, &no_hooks_ops, &none);
	add_fake(&set, &full_ops, &b);

	sink_header(&set, &run);
	ck_assert_str_eq(calls, "A.header B.header");
	calls[0] = '\0';
	sink_interval(&set, &run, &iv1);
	sink_interval(&set, &run, &iv2);
	ck_assert_str_eq(calls, "A.iv1 B.iv1 A.iv2 B.iv2");
	calls[0] = '\0';
	sink_summary(&set, &run, &sum);
	ck_assert_str_eq(calls, "A.summary Q.summary B.summary");
	calls[0] = '\0';
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(calls, "A.close Q.close B.close");
	ck_assert_uint_eq(set.n, 0);
	ck_assert_uint_eq(a.closes + b.closes + q.closes + none.closes, 3);

	/* an empty set: nothing called, nothing to report */
	calls[0] = '\0';
	sink_header(&set, &run);
	sink_interval(&set, &run, &iv1);
	sink_summary(&set, &run, &sum);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(calls, "");
}
END_TEST

/* sink_close_all: every sink is closed, whatever the others returned, and
 * the first error is the one reported.  1 = no close op. */
static const struct {
	int ret[4];
	unsigned int n;
	int want;
} closes[] = {
	{ { 0, 0, 0 }, 3, 0 },
	{ { -EIO, -ENOSPC, 0 }, 3, -EIO },
	{ { 0, -ENOSPC, -EIO }, 3, -ENOSPC },
	{ { 0, 0, 0, -EBADF }, 4, -EBADF },
	{ { 1, -EROFS, 1, -EIO }, 4, -EROFS },
	{ { 1, 1 }, 2, 0 },
};

START_TEST(test_close_all_first_error)
{
	struct sink_set set = { .n = 0 };
	struct fake f[4];
	char want[128] = "";
	unsigned int n = closes[_i].n;

	logged_set = &set;
	for (unsigned int k = 0; k < n; k++) {
		static const char *const names[] = { "s0", "s1", "s2", "s3" };
		bool no_close = closes[_i].ret[k] == 1;

		f[k] = (struct fake){ names[k], no_close ? 0 : closes[_i].ret[k], 0 };
		add_fake(&set, no_close ? &no_hooks_ops : &summary_only_ops, &f[k]);
		if (!no_close)
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "%s%s.close", want[0] ? " " : "", names[k]);
	}
	ck_assert_int_eq(sink_close_all(&set), closes[_i].want);
	ck_assert_str_eq(calls, want);
	ck_assert_uint_eq(set.n, 0);
	for (unsigned int k = 0; k < n; k++)
		ck_assert_uint_eq(f[k].closes, closes[_i].ret[k] == 1 ? 0 : 1);
}
END_TEST

/* ---- sink_format_result ---- */

#define GIB_D ((double)WS_GIB)
#define MIB_D ((double)WS_MIB)

static const struct {
	uint64_t bytes, elapsed_ns;
	double mibps;
	const char *want;
} results[] = {
	/* 8 GiB in 63.9 s: 8192 MiB / 63.9 s = 128.2003 MiB/s */
	{ 8 * WS_GIB, UINT64_C(63900000000), 8192.0 / 63.9,
	  "8.000 GiB written in 63.90 s (128.2 MiB/s)" },
	{ 0, 0, 0.0, "0.0 MiB written in 0.00 s (0.0 MiB/s)" },
	/* 1536 MiB = 1.5 GiB in 3 s = 512 MiB/s */
	{ 1536 * WS_MIB, 3 * WS_NSEC_PER_SEC, 512.0,
	  "1.500 GiB written in 3.00 s (512.0 MiB/s)" },
	/* 123456789 B = 117.74 MiB; 1.23456789 s; 1e8 B/s = 95.367 MiB/s */
	{ 123456789, 1234567890, 1e8 / MIB_D,
	  "117.7 MiB written in 1.23 s (95.4 MiB/s)" },
	/* under a GiB in MiB, as the live line: 1023 MiB = 0.999 GiB */
	{ 1023 * WS_MIB, WS_NSEC_PER_SEC, 1023.0, "1023.0 MiB written in 1.00 s (1023.0 MiB/s)" },
	/* a byte short of 1 GiB, a nanosecond short of 1 s: both round up */
	{ WS_GIB - 1, WS_NSEC_PER_SEC - 1, (GIB_D - 1) / MIB_D / 0.999999999,
	  "1.000 GiB written in 1.00 s (1024.0 MiB/s)" },
	/* 1 TiB in an hour: 1048576 MiB / 3600 s = 291.27 MiB/s */
	{ 1024 * WS_GIB, 3600 * WS_NSEC_PER_SEC, 1048576.0 / 3600.0,
	  "1024.000 GiB written in 3600.00 s (291.3 MiB/s)" },
	/* the rate is the summary's own figure, not recomputed here */
	{ 2 * WS_GIB, 4 * WS_NSEC_PER_SEC, 300.25,
	  "2.000 GiB written in 4.00 s (300.2 MiB/s)" },
};

START_TEST(test_format_result)
{
	struct ws_summary s = { .bytes = results[_i].bytes,
				.elapsed_ns = results[_i].elapsed_ns,
				.mibps = results[_i].mibps };
	char buf[128];

	memset(buf, 'x', sizeof(buf));
	sink_format_result(buf, sizeof(buf), &s);
	ck_assert_str_eq(buf, results[_i].want);
}
END_TEST

START_TEST(test_format_result_cut)
{
	struct ws_summary s = { .bytes = 8 * WS_GIB,
				.elapsed_ns = UINT64_C(63900000000),
				.mibps = 8192.0 / 63.9 };
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	sink_format_result(buf, 12, &s);
	ck_assert_str_eq(buf, "8.000 GiB w");
	ck_assert_int_eq(buf[12], 'x');		/* nothing past len */
}
END_TEST

/* ---- result files, on a temporary directory ---- */

static char dir[64];
static char path[128];		/* dir/out.json: the result's name */
static char tmp[160];		/* its temporary, PATH.tmp.PID */

/* begins as a result of ours does, so the next state may replace it */
#define HEADER_TEXT "{\"schema\":\"writestress-test/1\"}\n"

static void file_header(struct sink *s, const struct ws_run *r)
{
	(void)r;
	fputs(HEADER_TEXT, s->out);
}

static void file_interval(struct sink *s, const struct ws_run *r,
			  const struct ws_interval *iv)
{
	(void)r;
	fprintf(s->out, "interval %d\n", iv == &iv1 ? 1 : 2);
}

static void file_summary(struct sink *s, const struct ws_run *r,
			 const struct ws_summary *su)
{
	(void)r;
	(void)su;
	fputs("summary\n", s->out);
}

static int file_close(struct sink *s)
{
	return sink_close_file(s);
}

static const struct sink_ops file_ops = {
	.name = "file",
	.header = file_header,
	.interval = file_interval,
	.summary = file_summary,
	.close = file_close,
};

#define NEW_TEXT HEADER_TEXT "interval 1\ninterval 2\nsummary\n"

static void file_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ws-sink-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	umask(022);
	set_setup();
}

static int remove_entry(const char *p, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* No temporary may be left behind by any test; then everything goes. */
static void file_teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		ck_assert_msg(!strstr(de->d_name, ".tmp."), "%s/%s left behind",
			      dir, de->d_name);
	closedir(d);
	ck_assert_int_eq(nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS), 0);
}

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	ck_assert_msg(f != NULL, "%s: %s", p, strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole file at p, or NULL (and errno) when it cannot be opened. */
static const char *contents(const char *p)
{
	static char buf[4096];
	FILE *f = fopen(p, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static bool gone(const char *p)
{
	struct stat st;

	return lstat(p, &st) == -1 && errno == ENOENT;
}

static void feed(struct sink_set *set)
{
	sink_header(set, &run);
	sink_interval(set, &run, &iv1);
	sink_interval(set, &run, &iv2);
	sink_summary(set, &run, &sum);
}

START_TEST(test_file_new)
{
	struct sink_set set = { .n = 0 };
	char err[256] = "untouched";
	struct stat st;
	struct sink *s;

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "untouched");
	ck_assert_uint_eq(set.n, 1);
	s = &set.sinks[0];
	ck_assert_ptr_eq(s->ops, &file_ops);
	ck_assert_str_eq(s->path, path);
	ck_assert_str_eq(s->tmp, tmp);
	ck_assert_ptr_nonnull(s->out);
	ck_assert_int_eq(lstat(tmp, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
	ck_assert_int_eq(st.st_size, 0);
	/* not inherited by a child the tool might run */
	ck_assert(fcntl(fileno(s->out), F_GETFD) & FD_CLOEXEC);
	ck_assert(gone(path));

	feed(&set);
	ck_assert(gone(path));			/* not before the close */
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_str_eq(contents(path), NEW_TEXT);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644);
	ck_assert(gone(tmp));
	/* what main.c does on its way out: a no-op once closed */
	sink_abort_all(&set);
	ck_assert_str_eq(contents(path), NEW_TEXT);
}
END_TEST

/* A state sink (--prom) publishes each state by a rename: PATH holds the
 * whole of one state at every moment, never a part or a mix, and after
 * each publish a fresh, empty temporary takes the next one; the last is
 * published by the close. */
START_TEST(test_file_publish)
{
	struct sink_set set = { .n = 0 };
	char err[256];
	struct stat st, tst;
	struct sink *s;

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	s = &set.sinks[0];
	fputs(HEADER_TEXT "state 1\n", s->out);
	ck_assert(gone(path));
	ck_assert_int_eq(sink_publish_file(s), 0);
	ck_assert_str_eq(contents(path), HEADER_TEXT "state 1\n");
	ck_assert_int_eq(lstat(tmp, &tst), 0);	/* the next one, empty */
	ck_assert_int_eq(tst.st_size, 0);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_uint_ne(st.st_ino, tst.st_ino);
	ck_assert(fcntl(fileno(s->out), F_GETFD) & FD_CLOEXEC);
	fputs(HEADER_TEXT "state 2, longer\n", s->out);
	fflush(s->out);
	ck_assert_str_eq(contents(path), HEADER_TEXT "state 1\n");	/* until published */
	ck_assert_int_eq(sink_publish_file(s), 0);
	ck_assert_str_eq(contents(path), HEADER_TEXT "state 2, longer\n");
	fputs("end\n", s->out);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(contents(path), "end\n");
	ck_assert(gone(tmp));
}
END_TEST

/* A publish that cannot rename leaves the last state, says why and
 * starts the next temporary: the next state is published once the way
 * is clear again.  Without a temporary (it could not be made), the sink
 * makes it again on asking (sink_reopen_file). */
START_TEST(test_file_publish_fails)
{
	struct sink_set set = { .n = 0 };
	char err[256];
	struct sink *s;

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	s = &set.sinks[0];
	fputs(HEADER_TEXT "state 1\n", s->out);
	ck_assert_int_eq(sink_publish_file(s), 0);
	fputs(HEADER_TEXT "state 2\n", s->out);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0755), 0);	/* rename cannot replace it */
	ck_assert_int_eq(sink_publish_file(s), -EEXIST);	/* not a file */
	ck_assert_ptr_nonnull(s->out);		/* the next state's */
	ck_assert_int_eq(rmdir(path), 0);
	fputs(HEADER_TEXT "state 3\n", s->out);
	ck_assert_int_eq(sink_publish_file(s), 0);
	ck_assert_str_eq(contents(path), HEADER_TEXT "state 3\n");
	/* a sink that lost its temporary makes it again */
	fclose(s->out);
	ck_assert_int_eq(unlink(tmp), 0);
	s->out = NULL;
	ck_assert_int_eq(sink_publish_file(s), -EBADF);
	ck_assert_int_eq(sink_reopen_file(s), 0);
	ck_assert_ptr_nonnull(s->out);
	fputs(HEADER_TEXT "state 4\n", s->out);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(contents(path), HEADER_TEXT "state 4\n");
	ck_assert(gone(tmp));
}
END_TEST

/* An earlier result of ours, which a new one may replace */
#define OLD_TEXT "{\"schema\":\"writestress-result/1\",\"old\":true}\n"

/* An existing regular file is replaced by a rename, not rewritten in
 * place: until the close it is intact, and a hard link to it keeps the
 * old contents afterwards. */
START_TEST(test_file_replaces_regular)
{
	struct sink_set set = { .n = 0 };
	char err[256], hard[160];
	struct stat before, after, tmpst;

	write_file(path, OLD_TEXT);
	snprintf(hard, sizeof(hard), "%s/old-link", dir);
	ck_assert_int_eq(link(path, hard), 0);
	ck_assert_int_eq(lstat(path, &before), 0);

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	ck_assert_int_eq(lstat(tmp, &tmpst), 0);
	feed(&set);
	fflush(set.sinks[0].out);
	ck_assert_str_eq(contents(path), OLD_TEXT);
	ck_assert_str_eq(contents(tmp), NEW_TEXT);
	ck_assert_int_eq(sink_close_all(&set), 0);

	ck_assert_str_eq(contents(path), NEW_TEXT);
	ck_assert_int_eq(lstat(path, &after), 0);
	ck_assert_uint_ne(after.st_ino, before.st_ino);
	ck_assert_uint_eq(after.st_ino, tmpst.st_ino);	/* the temporary, renamed */
	ck_assert_str_eq(contents(hard), OLD_TEXT);
	ck_assert(gone(tmp));
}
END_TEST

/* What PATH may not be: refused with -EEXIST and a message, and left as
 * it was, with nothing created through it or beside it. */
enum refused_kind {
	R_SYMLINK_FILE, R_SYMLINK_DANGLING, R_SYMLINK_DIR, R_DIR, R_FIFO,
	R_SOCKET, R_DEVICE,
};

static const struct {
	enum refused_kind kind;
	mode_t type;		/* what lstat says PATH is, before and after */
} refusals[] = {
	{ R_SYMLINK_FILE, S_IFLNK },
	{ R_SYMLINK_DANGLING, S_IFLNK },
	{ R_SYMLINK_DIR, S_IFLNK },
	{ R_DIR, S_IFDIR },
	{ R_FIFO, S_IFIFO },
	{ R_SOCKET, S_IFSOCK },
	{ R_DEVICE, S_IFCHR },	/* /dev/null itself */
};

static int make_socket(const char *p)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_uint_lt(strlen(p), sizeof(sa.sun_path));
	memcpy(sa.sun_path, p, strlen(p) + 1);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

START_TEST(test_file_refused)
{
	struct sink_set set = { .n = 0 };
	char err[512], want[512], target[160], inside[160], ptmp[200];
	const char *p = path;
	struct stat st;
	int sock = -1;

	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(inside, sizeof(inside), "%s/out.json/inside", dir);
	switch (refusals[_i].kind) {
	case R_SYMLINK_FILE:
		write_file(target, "someone else's\n");
		ck_assert_int_eq(symlink("target", path), 0);
		break;
	case R_SYMLINK_DANGLING:
		ck_assert_int_eq(symlink("target", path), 0);
		break;
	case R_SYMLINK_DIR:
		ck_assert_int_eq(mkdir(target, 0755), 0);
		ck_assert_int_eq(symlink("target", path), 0);
		break;
	case R_DIR:
		ck_assert_int_eq(mkdir(path, 0755), 0);
		write_file(inside, "kept\n");
		break;
	case R_FIFO:
		ck_assert_int_eq(mkfifo(path, 0644), 0);
		break;
	case R_SOCKET:
		sock = make_socket(path);
		break;
	case R_DEVICE:
		p = "/dev/null";
		break;
	}
	snprintf(ptmp, sizeof(ptmp), "%s.tmp.%d", p, (int)getpid());

	ck_assert_int_eq(sink_add_file(&set, &file_ops, p, err, sizeof(err)), -EEXIST);
	snprintf(want, sizeof(want), "'%s' exists and is not a regular file "
		 "(results replace only regular files; '-' is standard output)", p);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_int_eq(sink_close_all(&set), 0);	/* nothing to close */

	ck_assert_int_eq(lstat(p, &st), 0);
	ck_assert_uint_eq(st.st_mode & S_IFMT, refusals[_i].type);
	ck_assert(gone(ptmp));
	switch (refusals[_i].kind) {
	case R_SYMLINK_FILE:
		ck_assert_str_eq(contents(target), "someone else's\n");
		break;
	case R_SYMLINK_DANGLING:
		ck_assert(gone(target));	/* nothing created through it */
		break;
	case R_SYMLINK_DIR:
		ck_assert_int_eq(rmdir(target), 0);	/* still empty */
		break;
	case R_DIR:
		ck_assert_str_eq(contents(inside), "kept\n");
		break;
	default:
		break;
	}
	if (sock >= 0)
		close(sock);
}
END_TEST

/* The temporary's name already taken (a stale one of an earlier process
 * with our PID, as a container's PID 1 leaves; a stranger's file; a
 * symlink planted there): PATH.tmp.PID.1 is used instead, the stranger's
 * entry stays intact, nothing is created through the link, and PATH gets
 * the new result. */
static const struct {
	const char *what;	/* "file", "link" (to an existing file),
				   "dangling" */
} takens[] = { { "file" }, { "link" }, { "dangling" } };

START_TEST(test_tmp_taken)
{
	struct sink_set set = { .n = 0 };
	char err[512], victim[160], next[200];
	struct stat st;

	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(next, sizeof(next), "%s.1", tmp);
	write_file(path, OLD_TEXT);
	if (!strcmp(takens[_i].what, "file")) {
		write_file(tmp, "theirs\n");
	} else {
		if (!strcmp(takens[_i].what, "link"))
			write_file(victim, "victim\n");
		ck_assert_int_eq(symlink(victim, tmp), 0);
	}

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	ck_assert_uint_eq(set.n, 1);
	ck_assert_str_eq(set.sinks[0].tmp, next);
	ck_assert_str_eq(contents(path), OLD_TEXT);
	feed(&set);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(contents(path), NEW_TEXT);
	ck_assert(gone(next));
	ck_assert_int_eq(lstat(tmp, &st), 0);
	if (!strcmp(takens[_i].what, "file")) {
		ck_assert(S_ISREG(st.st_mode));
		ck_assert_str_eq(contents(tmp), "theirs\n");
	} else {
		ck_assert(S_ISLNK(st.st_mode));
		if (!strcmp(takens[_i].what, "link"))
			ck_assert_str_eq(contents(victim), "victim\n");
		else
			ck_assert(gone(victim));
	}
	ck_assert_int_eq(unlink(tmp), 0);	/* the stranger's, ours to clean */
}
END_TEST

/* Every file writestress writes is known for its own by how it begins
 * (each sink's golden output), and nothing else is: a result replaces
 * only those. */
static const char *const goldens[] = {
	"sink_json.json", "sink_json_error.json", "sink_json_targets.json",
	"sink_csv.csv", "sink_csv_error.csv", "sink_csv_targets.csv",
	"sink_svg.svg", "sink_svg_error.svg", "sink_prom.prom", "sink_prom_targets.prom",
};

START_TEST(test_golden_is_ours)
{
	char p[4096], rel[128];

	snprintf(rel, sizeof(rel), "tests/expected/%s", goldens[_i]);
	source_path(p, sizeof(p), rel);
	ck_assert_msg(sink_file_is_ours(p), "%s is not recognised as writestress's", rel);
}
END_TEST

static const char *const foreign[] = {
	"hello\n",
	"{\"schema\":\"other/1\"}\n",
	"{ \"schema\": \"writestress-result/1\" }\n",	/* not as we write it */
	"interval,value\n1,2\n",
	"# HELP node_load1 1m load average.\n",
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"x\"><title>my plot</title>\n",
	"<svg><title>writestress</title>\n",		/* no XML declaration */
	"\n{\"schema\":\"writestress-result/1\"}\n",	/* not at its start */
};

/* A regular file that is not ours is refused and left whole, unless the
 * set is forced; an empty one (mktemp's) is taken. */
START_TEST(test_foreign_refused)
{
	struct sink_set set = { .n = 0 };
	char err[512], want[512];

	write_file(path, foreign[_i]);
	ck_assert(!sink_file_is_ours(path));
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), -EPERM);
	snprintf(want, sizeof(want), "'%s' exists and writestress did not write it", path);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_str_eq(contents(path), foreign[_i]);
	ck_assert(gone(tmp));
	set.force = true;
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	feed(&set);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(contents(path), NEW_TEXT);
}
END_TEST

START_TEST(test_empty_taken)
{
	struct sink_set set = { .n = 0 };
	char err[512];

	write_file(path, "");
	ck_assert_int_eq(sink_check_path(path, false, err, sizeof(err)), 0);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	feed(&set);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(contents(path), NEW_TEXT);
}
END_TEST

/* A file put at PATH while the run went on is not replaced at the end:
 * the close fails, PATH keeps it, the temporary goes. */
START_TEST(test_foreign_put_meanwhile)
{
	struct sink_set set = { .n = 0 };
	char err[512];

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	feed(&set);
	write_file(path, "someone's notes\n");
	ck_assert_int_eq(sink_close_all(&set), -EPERM);
	ck_assert_str_eq(contents(path), "someone's notes\n");
	ck_assert(gone(tmp));
}
END_TEST

/* Two sinks for one name in one process (--json x --csv x): the second
 * is refused, and the first is not disturbed. */
START_TEST(test_same_path_twice)
{
	struct sink_set set = { .n = 0 };
	char err[512], want[512];

	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "'%s' is already another output of this run", path);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(set.n, 1);
	feed(&set);
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_str_eq(contents(path), NEW_TEXT);
	ck_assert(gone(tmp));
}
END_TEST

START_TEST(test_file_no_directory)
{
	struct sink_set set = { .n = 0 };
	char err[512], want[512], p[160];

	snprintf(p, sizeof(p), "%s/nodir/out.json", dir);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, p, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "cannot write '%s': %s", p, strerror(ENOENT));
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(set.n, 0);
}
END_TEST

/* A full set takes no file sink, and creates nothing. */
START_TEST(test_file_set_full)
{
	struct sink_set set = { .n = 0 };
	char err[256];

	for (unsigned int i = 0; i < WS_MAX_SINKS; i++)
		ck_assert_int_eq(sink_add(&set, &no_hooks_ops, stdout), 0);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), -ENOSPC);
	ck_assert_str_eq(err, "too many outputs (at most 8)");
	ck_assert_uint_eq(set.n, WS_MAX_SINKS);
	ck_assert(gone(path));
	ck_assert(gone(tmp));
}
END_TEST

/* Setup failed: every file sink's temporary goes, PATH stays as it was
 * (absent or the old file), streams that are not ours stay open. */
START_TEST(test_abort)
{
	struct sink_set set = { .n = 0 };
	struct fake f = { "F", 0, 0 };
	char err[256], second[160], second_tmp[200], *mem = NULL;
	size_t memlen = 0;
	FILE *stream = open_memstream(&mem, &memlen);
	bool had_old = _i == 1;

	ck_assert_ptr_nonnull(stream);
	snprintf(second, sizeof(second), "%s/out.csv", dir);
	snprintf(second_tmp, sizeof(second_tmp), "%s.tmp.%d", second, (int)getpid());
	if (had_old)
		write_file(path, OLD_TEXT);
	logged_set = &set;
	ck_assert_int_eq(sink_add(&set, &summary_only_ops, stream), 0);
	set.sinks[0].priv = &f;
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, second, err, sizeof(err)), 0);
	sink_header(&set, &run);
	ck_assert(!gone(tmp));
	ck_assert(!gone(second_tmp));

	sink_abort_all(&set);
	ck_assert_uint_eq(set.n, 0);
	ck_assert(gone(tmp));
	ck_assert(gone(second_tmp));
	ck_assert(gone(second));
	if (had_old)
		ck_assert_str_eq(contents(path), OLD_TEXT);
	else
		ck_assert(gone(path));
	/* nothing left to close: the fake's close is not called */
	ck_assert_int_eq(sink_close_all(&set), 0);
	ck_assert_uint_eq(f.closes, 0);
	/* the stream sink's FILE was not closed by the abort */
	ck_assert_int_ge(fputs("still open", stream), 0);
	ck_assert_int_eq(fclose(stream), 0);
	ck_assert_str_eq(mem, "still open");
	free(mem);
}
END_TEST

/* A directory appears at PATH before the close: it is not replaced, the
 * error comes back, the temporary goes, the directory stays. */
START_TEST(test_close_rename_fails)
{
	struct sink_set set = { .n = 0 };
	char err[256], inside[160];

	snprintf(inside, sizeof(inside), "%s/inside", path);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	feed(&set);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	write_file(inside, "kept\n");
	ck_assert_int_eq(sink_close_all(&set), -EEXIST);	/* not a file: not replaced */
	ck_assert_uint_eq(set.n, 0);
	ck_assert(gone(tmp));
	ck_assert_str_eq(contents(inside), "kept\n");
}
END_TEST

/* The data cannot all be written (the file size limit stands in for a
 * full filesystem): the close reports an error, the old PATH stays and
 * the temporary goes.  The limit is lifted before anything is checked:
 * Check's own messages are written to a file too. */
START_TEST(test_close_write_fails)
{
	struct sink_set set = { .n = 0 };
	struct rlimit old, low;
	static char big[256 * 1024];
	char err[256];
	void (*old_xfsz)(int);
	int lowered, ret = 0;

	write_file(path, OLD_TEXT);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	memset(big, 'x', sizeof(big));
	low = old;
	low.rlim_cur = 64 * 1024;
	old_xfsz = signal(SIGXFSZ, SIG_IGN);
	lowered = setrlimit(RLIMIT_FSIZE, &low);
	if (lowered == 0) {
		fwrite(big, 1, sizeof(big), set.sinks[0].out);
		ret = sink_close_all(&set);
		setrlimit(RLIMIT_FSIZE, &old);
	}
	signal(SIGXFSZ, old_xfsz);

	ck_assert_int_eq(lowered, 0);
	/* -errno; which one is the sink's choice (-EIO today) */
	ck_assert_int_lt(ret, 0);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_str_eq(contents(path), OLD_TEXT);
	ck_assert(gone(tmp));
}
END_TEST

/* One sink's failing close does not keep the others from publishing. */
START_TEST(test_close_all_files_and_error)
{
	struct sink_set set = { .n = 0 };
	struct fake f = { "F", -ENOSPC, 0 };
	char err[256], second[160];

	snprintf(second, sizeof(second), "%s/out.csv", dir);
	logged_set = &set;
	ck_assert_int_eq(sink_add_file(&set, &file_ops, path, err, sizeof(err)), 0);
	add_fake(&set, &full_ops, &f);
	ck_assert_int_eq(sink_add_file(&set, &file_ops, second, err, sizeof(err)), 0);
	feed(&set);
	ck_assert_str_eq(calls, "F.header F.iv1 F.iv2 F.summary");
	ck_assert_int_eq(sink_close_all(&set), -ENOSPC);
	ck_assert_uint_eq(f.closes, 1);
	ck_assert_str_eq(contents(path), NEW_TEXT);
	ck_assert_str_eq(contents(second), NEW_TEXT);
}
END_TEST

Suite *sink_suite(void)
{
	Suite *s = suite_create("sink");
	TCase *set = tcase_create("set");
	TCase *format = tcase_create("format");
	TCase *files = tcase_create("files");

	tcase_add_checked_fixture(set, set_setup, NULL);
	tcase_add_test(set, test_add);
	tcase_add_test(set, test_fanout_order);
	tcase_add_loop_test(set, test_close_all_first_error, 0, ARRAY_SIZE(closes));
	tcase_add_loop_test(format, test_format_result, 0, ARRAY_SIZE(results));
	tcase_add_test(format, test_format_result_cut);
	tcase_add_checked_fixture(files, file_setup, file_teardown);
	tcase_set_timeout(files, 60);	/* fsync on a busy disk */
	tcase_add_test(files, test_file_new);
	tcase_add_test(files, test_file_replaces_regular);
	tcase_add_test(files, test_file_publish);
	tcase_add_test(files, test_file_publish_fails);
	tcase_add_loop_test(files, test_file_refused, 0, ARRAY_SIZE(refusals));
	tcase_add_loop_test(files, test_tmp_taken, 0, ARRAY_SIZE(takens));
	tcase_add_test(files, test_same_path_twice);
	tcase_add_loop_test(files, test_golden_is_ours, 0, ARRAY_SIZE(goldens));
	tcase_add_loop_test(files, test_foreign_refused, 0, ARRAY_SIZE(foreign));
	tcase_add_test(files, test_empty_taken);
	tcase_add_test(files, test_foreign_put_meanwhile);
	tcase_add_test(files, test_file_no_directory);
	tcase_add_test(files, test_file_set_full);
	tcase_add_loop_test(files, test_abort, 0, 2);
	tcase_add_test(files, test_close_rename_fails);
	tcase_add_test(files, test_close_write_fails);
	tcase_add_test(files, test_close_all_files_and_error);
	suite_add_tcase(s, set);
	suite_add_tcase(s, format);
	suite_add_tcase(s, files);
	return s;
}
