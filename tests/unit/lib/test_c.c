/* test_c.c - c.h: ARRAY_SIZE, the bounded string builder (its truncation
 * flag and NUL at the exact boundary, list separators, an encoding error),
 * MiB/s, the name tables of timers, stop reasons and I/O priority classes
 * (every value named, distinctly), and the usage hint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include <check.h>
#include <errno.h>

#include "lib/c.h"
#include "suites.h"

/* ---- ARRAY_SIZE, WS_BUF ---- */

START_TEST(test_array_size)
{
	int ints[7];
	char names[3][10];
	struct { char c; double d; } structs[5];
	static const char *const words[] = { "a", "b", "c", "d" };
	char buf[24];
	struct ws_buf b = WS_BUF(buf);

	ck_assert_uint_eq(ARRAY_SIZE(ints), 7);
	ck_assert_uint_eq(ARRAY_SIZE(names), 3);	/* rows, not bytes */
	ck_assert_uint_eq(ARRAY_SIZE(names[0]), 10);
	ck_assert_uint_eq(ARRAY_SIZE(structs), 5);
	ck_assert_uint_eq(ARRAY_SIZE(words), 4);
	/* on an array the check adds nothing (on a pointer it does not compile) */
	ck_assert_int_eq(WS_MUST_BE_ARRAY(ints), 0);
	ck_assert_int_eq(WS_BUILD_BUG_ON_ZERO(0), 0);
	/* WS_BUF takes the whole array as its capacity, and empties it */
	ck_assert_ptr_eq(b.s, buf);
	ck_assert_uint_eq(b.cap, sizeof(buf));
	ck_assert_uint_eq(b.len, 0);
	ck_assert(!b.truncated);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* ---- ws_buf: pieces appended into a buffer of cap bytes ---- */

static const struct {
	size_t cap;
	const char *pieces[4];
	const char *want;
	bool truncated;
} bufs[] = {
	{ 16, { "abc", "def" }, "abcdef", false },
	{ 6, { "abcde" }, "abcde", false },		/* 5 + NUL: exactly full */
	{ 6, { "abc", "de" }, "abcde", false },	/* the same in two pieces */
	{ 6, { "abcdef" }, "abcde", true },		/* one byte over */
	{ 6, { "abc", "def" }, "abcde", true },
	{ 6, { "abcde", "f" }, "abcde", true },	/* full, then more */
	{ 6, { "abcde", "" }, "abcde", false },	/* nothing more fits, nothing asked */
	{ 6, { "abcdefgh", "ij", "k" }, "abcde", true },
	{ 1, { "" }, "", false },
	{ 1, { "a" }, "", true },
	{ 2, { "a", "b" }, "a", true },
};

START_TEST(test_buf_bounds)
{
	char mem[32];
	struct ws_buf b;

	/* a canary after the buffer: nothing may be written past cap */
	memset(mem, '#', sizeof(mem));
	b = ws_buf_init(mem, bufs[_i].cap);
	for (int k = 0; k < 4 && bufs[_i].pieces[k]; k++)
		ws_buf_printf(&b, "%s", bufs[_i].pieces[k]);
	ck_assert_str_eq(mem, bufs[_i].want);
	ck_assert_uint_eq(b.len, strlen(bufs[_i].want));
	ck_assert_int_eq(b.truncated, bufs[_i].truncated);
	ck_assert_uint_lt(b.len, b.cap);
	ck_assert_int_eq(mem[b.len], '\0');
	for (size_t k = bufs[_i].cap; k < sizeof(mem); k++)
		ck_assert_int_eq(mem[k], '#');
}
END_TEST

START_TEST(test_buf_zero_cap)
{
	char mem[4] = "xyz";
	struct ws_buf b = ws_buf_init(mem, 0);

	/* no room even for the NUL: nothing is written, and it says so */
	ck_assert_str_eq(mem, "xyz");
	ck_assert_ptr_eq(ws_buf_printf(&b, "%s", "a"), mem);
	ck_assert(b.truncated);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(mem, "xyz");
}
END_TEST

START_TEST(test_buf_returns_the_string)
{
	char mem[32];
	struct ws_buf b = WS_BUF(mem);

	ck_assert_str_eq(ws_buf_printf(&b, "%d-%s", 42, "x"), "42-x");
	ck_assert_str_eq(ws_buf_printf(&b, "%05.1f", 2.5), "42-x002.5");
	ck_assert_ptr_eq(ws_buf_printf(&b, "%s", ""), mem);
	ck_assert_uint_eq(b.len, 9);
}
END_TEST

/* vsnprintf fails (-1) on a wide character the C locale cannot encode:
 * the string stays what it was, and the builder says it lost something. */
START_TEST(test_buf_encoding_error)
{
	static const wchar_t wide[] = { 0x100, 0 };
	char mem[32];
	struct ws_buf b = WS_BUF(mem);

	ws_buf_printf(&b, "ab");
	ws_buf_printf(&b, "x%lsy", wide);
	ck_assert_str_eq(mem, "ab");
	ck_assert_uint_eq(b.len, 2);
	ck_assert(b.truncated);
	/* still usable: later pieces append after what was there */
	ws_buf_printf(&b, "cd");
	ck_assert_str_eq(mem, "abcd");
}
END_TEST

/* ---- ws_buf_item: a list with separators ---- */

START_TEST(test_buf_items)
{
	char mem[64], tiny[5];
	struct ws_buf b = WS_BUF(mem), t = WS_BUF(tiny);

	ws_buf_item(&b, ", ", "%s", "one");
	ck_assert_str_eq(mem, "one");		/* no separator before the first */
	ws_buf_item(&b, ", ", "%d", 2);
	ws_buf_item(&b, " · ", "%s", "three");
	ck_assert_str_eq(mem, "one, 2 · three");
	ck_assert(!b.truncated);

	/* an empty first item leaves the string empty: the next is first */
	b = WS_BUF(mem);
	ws_buf_item(&b, ", ", "%s", "");
	ws_buf_item(&b, ", ", "%s", "a");
	ck_assert_str_eq(mem, "a");

	/* room for the separator but not the item: cut, flagged, terminated */
	ws_buf_item(&t, ",", "%s", "ab");
	ws_buf_item(&t, ",", "%s", "cd");
	ck_assert_str_eq(tiny, "ab,c");
	ck_assert(t.truncated);
	ws_buf_item(&t, ",", "%s", "e");
	ck_assert_str_eq(tiny, "ab,c");
}
END_TEST

/* ---- ws_mibps ---- */

static const struct {
	uint64_t bytes, ns;
	double mibps;
} rates[] = {
	{ 1048576, 1000000000, 1.0 },			/* 1 MiB in 1 s */
	{ 3 * 1048576, 1500000000, 2.0 },
	{ 1048576, 500000000, 2.0 },
	{ 1000000, 1000000000, 1000000.0 / 1048576 },	/* MB are not MiB */
	{ UINT64_C(1) << 40, 1000000000, 1048576.0 },	/* 1 TiB/s */
	{ 0, 1000000000, 0.0 },
	{ 1048576, 0, 0.0 },				/* no time: 0, not inf */
};

START_TEST(test_mibps)
{
	ck_assert_double_eq_tol(ws_mibps(rates[_i].bytes, rates[_i].ns),
				rates[_i].mibps, 1e-9);
}
END_TEST

/* ---- name tables ---- */

START_TEST(test_ioprio_classes)
{
	ck_assert_ptr_null(ws_ioprio_class_name(WS_IOPRIO_NONE));
	ck_assert_str_eq(ws_ioprio_class_name(WS_IOPRIO_RT), "rt");
	ck_assert_str_eq(ws_ioprio_class_name(WS_IOPRIO_BE), "be");
	ck_assert_str_eq(ws_ioprio_class_name(WS_IOPRIO_IDLE), "idle");
	ck_assert_ptr_null(ws_ioprio_class_name(WS_IOPRIO_IDLE + 1));
	ck_assert_ptr_null(ws_ioprio_class_name(7));
	ck_assert_ptr_null(ws_ioprio_class_name(-1));
}
END_TEST

static const struct {
	int class, level;
	size_t len;
	const char *want;
} ioprios[] = {
	{ WS_IOPRIO_BE, 4, 16, "be:4" },
	{ WS_IOPRIO_RT, 0, 16, "rt:0" },
	{ WS_IOPRIO_BE, 7, 16, "be:7" },
	{ WS_IOPRIO_IDLE, 0, 16, "idle" },
	{ WS_IOPRIO_IDLE, 5, 16, "idle" },	/* idle has no level */
	{ WS_IOPRIO_NONE, 3, 16, "" },		/* unchanged: nothing to say */
	{ 4, 1, 16, "" },			/* no such class */
	{ -2, 1, 16, "" },
	{ WS_IOPRIO_BE, 4, 3, "be" },		/* cut to the buffer */
	{ WS_IOPRIO_IDLE, 0, 1, "" },
};

START_TEST(test_ioprio_name)
{
	char buf[16];

	memset(buf, '#', sizeof(buf));
	ck_assert_ptr_eq(ws_ioprio_name(ioprios[_i].class, ioprios[_i].level,
					buf, ioprios[_i].len), buf);
	ck_assert_str_eq(buf, ioprios[_i].want);
}
END_TEST

/* ---- errtryhelp ---- */

static const struct {
	const char *cmd, *want;
} tryhelps[] = {
	{ "writestress", "Try 'writestress --help' for more information.\n" },
	{ "writestress compare",
	  "Try 'writestress compare --help' for more information.\n" },
};

START_TEST(test_errtryhelp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	errtryhelp(f, tryhelps[_i].cmd);
	fclose(f);
	ck_assert_str_eq(text, tryhelps[_i].want);
	free(text);
}
END_TEST

/* ws_basename and ws_dirname: the last name and the directory of a path
 * (sysfs paths, result files, the file under test). */
static const struct {
	const char *path;
	size_t at;	/* where the answer starts */
	const char *want;
} basenames[] = {
	{ "/sys/block/sda", 11, "sda" },
	{ "/sys/dev/block/8:0", 15, "8:0" },
	{ "/dev/mapper/vg-root", 12, "vg-root" },
	{ "/sda", 1, "sda" },
	{ "sda", 0, "sda" },			/* no slash: all of it */
	{ "a/b", 2, "b" },
	{ "//x", 2, "x" },
	{ "/", 1, "" },
	{ "", 0, "" },
	/* as GNU basename(3): after a trailing slash, nothing (callers pass
	 * normalised paths, which never end in one) */
	{ "/sys/block/", 11, "" },
};

START_TEST(test_basename)
{
	const char *p = basenames[_i].path, *b = ws_basename(p);

	ck_assert_ptr_eq(b, p + basenames[_i].at);
	ck_assert_str_eq(b, basenames[_i].want);
}
END_TEST

static const struct {
	const char *path;
	size_t len;
	int ret;
	const char *want;
} dirnames[] = {
	{ "/sys/block/sda", 64, 0, "/sys/block" },
	{ "/sys/block/sda/sda2", 64, 0, "/sys/block/sda" },
	{ "/sys", 64, 0, "/" },
	{ "/", 64, 0, "/" },
	{ "/sys/block/", 64, 0, "/sys/block" },	/* up to the last '/' */
	{ "/sys/block/sda", 11, 0, "/sys/block" },	/* just fits */
	{ "/sys/block/sda", 10, -EOVERFLOW, NULL },
	{ "/sys", 2, 0, "/" },
	{ "/sys", 1, -EOVERFLOW, NULL },
	/* no slash: the current directory */
	{ "f.dat", 64, 0, "." },
	{ "f.dat", 2, 0, "." },
	{ "f.dat", 1, -EOVERFLOW, NULL },
};

START_TEST(test_dirname)
{
	char out[64];

	memset(out, '#', sizeof(out));
	ck_assert_int_eq(ws_dirname(dirnames[_i].path, out, dirnames[_i].len),
			 dirnames[_i].ret);
	if (dirnames[_i].want)
		ck_assert_str_eq(out, dirnames[_i].want);
}
END_TEST

/* One file, however its path is spelled, existing or not yet; another
 * name, or a symlink as the last name, is another file. */
START_TEST(test_same_path)
{
	char dir[] = "/tmp/ws-same-XXXXXX", a[64], b[64], link_dir[40];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(link_dir, sizeof(link_dir), "%s.link", dir);
	ck_assert_int_eq(symlink(dir, link_dir), 0);
	snprintf(a, sizeof(a), "%s/f", dir);
	ck_assert_int_eq(mkdir(strcat(strcpy(b, dir), "/sub"), 0755), 0);
	/* not there yet */
	snprintf(b, sizeof(b), "%s/./f", dir);
	ck_assert(ws_same_path(a, b));
	snprintf(b, sizeof(b), "%s/sub/../f", dir);
	ck_assert(ws_same_path(a, b));
	snprintf(b, sizeof(b), "%s/f", link_dir);
	ck_assert(ws_same_path(a, b));
	snprintf(b, sizeof(b), "%s/g", dir);
	ck_assert(!ws_same_path(a, b));
	snprintf(b, sizeof(b), "%s/sub/f", dir);
	ck_assert(!ws_same_path(a, b));
	/* there: a hard link is the same file, a symlink to it is not */
	f = fopen(a, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	snprintf(b, sizeof(b), "%s/hard", dir);
	ck_assert_int_eq(link(a, b), 0);
	ck_assert(ws_same_path(a, b));
	unlink(b);
	snprintf(b, sizeof(b), "%s/soft", dir);
	ck_assert_int_eq(symlink("f", b), 0);
	ck_assert(!ws_same_path(a, b));
	unlink(b);
	unlink(a);
	unlink(link_dir);
	rmdir(strcat(strcpy(b, dir), "/sub"));
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *c_suite(void)
{
	Suite *s = suite_create("c");
	TCase *buf = tcase_create("buf");
	TCase *tables = tcase_create("tables");

	tcase_add_test(buf, test_array_size);
	tcase_add_loop_test(buf, test_buf_bounds, 0, ARRAY_SIZE(bufs));
	tcase_add_test(buf, test_buf_zero_cap);
	tcase_add_test(buf, test_buf_returns_the_string);
	tcase_add_test(buf, test_buf_encoding_error);
	tcase_add_test(buf, test_buf_items);
	tcase_add_loop_test(tables, test_mibps, 0, ARRAY_SIZE(rates));
	tcase_add_loop_test(tables, test_basename, 0, ARRAY_SIZE(basenames));
	tcase_add_loop_test(tables, test_dirname, 0, ARRAY_SIZE(dirnames));
	tcase_add_test(tables, test_same_path);
	tcase_add_test(tables, test_ioprio_classes);
	tcase_add_loop_test(tables, test_ioprio_name, 0, ARRAY_SIZE(ioprios));
	tcase_add_loop_test(tables, test_errtryhelp, 0, ARRAY_SIZE(tryhelps));
	suite_add_tcase(s, buf);
	suite_add_tcase(s, tables);
	return s;
}
