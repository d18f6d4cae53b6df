/* test_probe.c - the desktop-latency probes: --probe lists parsed into
 * bits (and the bad name pointed at), the probe directory of a config,
 * the ops table, and each probe's setup, run and cleanup on a temporary
 * directory: its own files only (created exclusively, never an existing
 * name or a symlink), sizes as the operation leaves them, and nothing left
 * behind.  No time is measured here: the monitor times the runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "c.h"
#include "config.h"
#include "probe.h"
#include "suites.h"
#include "testutil.h"

#define BIT(k) (1u << (k))
#define ALL (BIT(WS_PROBE_FSYNC) | BIT(WS_PROBE_SAVE) | BIT(WS_PROBE_READ))

/* ---- probe_parse_list ---- */

static const struct {
	const char *s;
	int ret;
	unsigned int set;	/* on success */
	const char *bad;	/* on failure */
} lists[] = {
	{ "fsync", 0, BIT(WS_PROBE_FSYNC), NULL },
	{ "save", 0, BIT(WS_PROBE_SAVE), NULL },
	{ "read", 0, BIT(WS_PROBE_READ), NULL },
	{ "save,read", 0, BIT(WS_PROBE_SAVE) | BIT(WS_PROBE_READ), NULL },
	{ "read,fsync,save", 0, ALL, NULL },
	{ "fsync,fsync", 0, BIT(WS_PROBE_FSYNC), NULL },	/* once is enough */
	{ "", -EINVAL, 0, "" },
	{ "fsync,", -EINVAL, 0, "" },		/* trailing comma */
	{ ",fsync", -EINVAL, 0, "" },		/* empty first name */
	{ "fsync,,save", -EINVAL, 0, "" },
	{ "fsync,bogus", -EINVAL, 0, "bogus" },
	{ "bogus,fsync", -EINVAL, 0, "bogus" },	/* the bad one, not the rest */
	{ "fsyncx", -EINVAL, 0, "fsyncx" },
	{ "fsyn", -EINVAL, 0, "fsyn" },
	{ "FSYNC", -EINVAL, 0, "FSYNC" },		/* names are lower case */
	{ "save ,read", -EINVAL, 0, "save " },
};

START_TEST(test_parse_list)
{
	unsigned int set = 0xdead;
	char bad[32] = "untouched";

	ck_assert_int_eq(probe_parse_list(lists[_i].s, &set, bad, sizeof(bad)),
			 lists[_i].ret);
	if (lists[_i].ret == 0) {
		ck_assert_uint_eq(set, lists[_i].set);
		ck_assert_str_eq(bad, "untouched");
	} else {
		ck_assert_uint_eq(set, 0xdead);		/* no half result */
		ck_assert_str_eq(bad, lists[_i].bad);
	}
}
END_TEST

START_TEST(test_parse_list_bad_cut)
{
	unsigned int set = 0;
	char bad[4];

	ck_assert_int_eq(probe_parse_list("fsync,verylongname", &set, bad,
					  sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "ver");
}
END_TEST

/* Every kind is in the table, under the name the list parser knows. */
START_TEST(test_kinds_table)
{
	for (int k = 0; k < WS_PROBE_NR; k++) {
		const struct probe_ops *ops = probe_kinds[k];
		unsigned int set = 0;
		char bad[16];

		ck_assert_ptr_nonnull(ops);
		ck_assert_ptr_nonnull(ops->name);
		ck_assert_ptr_nonnull(ops->setup);
		ck_assert_ptr_nonnull(ops->run);
		ck_assert_ptr_nonnull(ops->cleanup);
		ck_assert_int_eq(probe_parse_list(ops->name, &set, bad, sizeof(bad)), 0);
		ck_assert_uint_eq(set, BIT(k));
	}
}
END_TEST

/* ---- probe_dir_of ---- */

static const struct {
	const char *probe_dir, *path, *want;
} dirs[] = {
	{ NULL, "/data/big.dat", "/data" },
	{ NULL, "/a/b/c/file", "/a/b/c" },
	{ NULL, "big.dat", "." },
	{ NULL, "sub/big.dat", "sub" },
	{ NULL, "/big.dat", "/" },
	{ "/elsewhere", "/data/big.dat", "/elsewhere" },
	{ "rel", "big.dat", "rel" },
};

START_TEST(test_dir_of)
{
	struct ws_config cfg;
	char out[64];

	config_defaults(&cfg);
	cfg.path = dirs[_i].path;
	cfg.probe_dir = dirs[_i].probe_dir;
	probe_dir_of(&cfg, out, sizeof(out));
	ck_assert_str_eq(out, dirs[_i].want);
}
END_TEST

/* ---- probes on a temporary directory ---- */

static char dir[64];
static struct ws_config cfg;
static struct probe p;

static void tmp_setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ws-probe-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	config_defaults(&cfg);
	cfg.path = "unused";
	cfg.probe_dir = dir;
	cfg.probe_size = 4096;
	memset(&p, 0, sizeof(p));
	p.fd = p.dirfd = -1;
}

/* The directory must be empty again: every probe removes its files. */
static void tmp_teardown(void)
{
	probe_cleanup(&p);
	ck_assert_msg(rmdir(dir) == 0, "%s not empty: %s", dir, strerror(errno));
}

static bool exists(const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static struct stat stat_of(const char *name)
{
	char path[160];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_msg(lstat(path, &st) == 0, "%s: %s", path, strerror(errno));
	return st;
}

static void remove_file(const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(unlink(path), 0);
}

static void our_name(char *buf, size_t len, const char *suffix)
{
	snprintf(buf, len, "writestress-probe.%d.%s", (int)getpid(), suffix);
}

START_TEST(test_fsync_probe)
{
	char name[64], head[32];
	struct stat st;
	int fd;

	cfg.probe_size = 256 * 1024;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, &cfg), 0);
	our_name(name, sizeof(name), "fsync");
	ck_assert_str_eq(p.name, name);
	ck_assert_str_eq(p.dir, dir);
	st = stat_of(name);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 0777, 0600);	/* ours alone */
	ck_assert_int_eq(st.st_size, 0);

	/* every run appends probe_size bytes */
	for (int i = 1; i * cfg.probe_size <= WS_PROBE_FSYNC_WRAP; i++) {
		if (p.ops->prepare)
			p.ops->prepare(&p);
		ck_assert_int_eq(p.ops->run(&p), 0);
		ck_assert_int_eq(stat_of(name).st_size, i * cfg.probe_size);
	}
	/* the next would pass the wrap: emptied first, untimed */
	p.ops->prepare(&p);
	ck_assert_int_eq(stat_of(name).st_size, 0);
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_int_eq(stat_of(name).st_size, cfg.probe_size);

	/* recognisable text, not zeros a filesystem could skip */
	fd = openat(p.dirfd, name, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, head, 18), 18);
	close(fd);
	ck_assert_int_eq(memcmp(head, "writestress probe\n", 18), 0);

	probe_cleanup(&p);
	ck_assert(!exists(name));
	ck_assert_int_eq(p.fd, -1);
	ck_assert_int_eq(p.dirfd, -1);
	probe_cleanup(&p);		/* twice is safe */
}
END_TEST

START_TEST(test_fsync_probe_fdatasync)
{
	char name[64];

	cfg.probe_fdatasync = true;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, &cfg), 0);
	our_name(name, sizeof(name), "fsync");
	ck_assert_int_eq(p.ops->run(&p), 0);
	ck_assert_int_eq(stat_of(name).st_size, cfg.probe_size);
}
END_TEST

START_TEST(test_save_probe)
{
	char name[64], tmp[64];

	cfg.probe_size = 1000;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SAVE, &cfg), 0);
	our_name(name, sizeof(name), "save");
	our_name(tmp, sizeof(tmp), "save.tmp");
	ck_assert_str_eq(p.name, name);
	ck_assert_str_eq(p.tmp_name, tmp);
	/* both names were claimed; the temporary is not kept */
	ck_assert_int_eq(stat_of(name).st_size, 0);
	ck_assert(!exists(tmp));
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(p.ops->run(&p), 0);
		/* renamed over: one file of one save, no temporary left */
		ck_assert_int_eq(stat_of(name).st_size, 1000);
		ck_assert(!exists(tmp));
	}
	probe_cleanup(&p);
	ck_assert(!exists(name));
}
END_TEST

/* A name already there is never taken over, nor removed. */
START_TEST(test_existing_file_is_not_ours)
{
	char name[64], want[256];

	our_name(name, sizeof(name), "fsync");
	tu_write_file(dir, name, "someone else's\n");
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, &cfg), -EEXIST);
	snprintf(want, sizeof(want), "fsync probe: cannot create its file in '%s': %s",
		 dir, strerror(EEXIST));
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	ck_assert_int_eq(stat_of(name).st_size, 15);	/* still there, intact */
	remove_file(name);
}
END_TEST

/* A symlink planted at the name is not followed. */
START_TEST(test_symlink_is_not_followed)
{
	char name[64], link[160], target[160];

	our_name(name, sizeof(name), "save");
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/%s", dir, name);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SAVE, &cfg), -EEXIST);
	ck_assert(!exists("target"));		/* nothing created through it */
	ck_assert(S_ISLNK(stat_of(name).st_mode));
	probe_cleanup(&p);
	ck_assert(S_ISLNK(stat_of(name).st_mode));
	remove_file(name);
}
END_TEST

/* The save probe's temporary name taken: its own first file goes again,
 * the stranger's stays. */
START_TEST(test_save_tmp_taken)
{
	char name[64], tmp[64], want[256];

	our_name(name, sizeof(name), "save");
	our_name(tmp, sizeof(tmp), "save.tmp");
	tu_write_file(dir, tmp, "x");
	ck_assert_int_eq(probe_init(&p, WS_PROBE_SAVE, &cfg), -EEXIST);
	snprintf(want, sizeof(want),
		 "save probe: cannot create its temporary file in '%s': %s", dir,
		 strerror(EEXIST));
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	ck_assert(!exists(name));
	ck_assert(exists(tmp));
	remove_file(tmp);
}
END_TEST

START_TEST(test_no_directory)
{
	char want[256];

	cfg.probe_dir = "/nonexistent/ws-probe";
	ck_assert_int_eq(probe_init(&p, WS_PROBE_FSYNC, &cfg), -ENOENT);
	snprintf(want, sizeof(want), "fsync probe: cannot open the directory in "
		 "'/nonexistent/ws-probe': %s", strerror(ENOENT));
	ck_assert_str_eq(p.err, want);
}
END_TEST

/* ---- the read probe ---- */

static void make_sized(const char *name, off_t size)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, size), 0);
	close(fd);
}

START_TEST(test_read_probe)
{
	char path[160];

	make_sized("data", 64 * 1024);
	snprintf(path, sizeof(path), "%s/data", dir);
	cfg.read_probe = path;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_READ, &cfg), 0);
	ck_assert_uint_eq(p.read_blocks, 16);
	for (int i = 0; i < 50; i++) {
		p.ops->prepare(&p);
		/* a whole block of the file, wherever it falls */
		ck_assert_uint_eq(p.appended % 4096, 0);
		ck_assert_uint_lt(p.appended, 64 * 1024);
		ck_assert_int_eq(p.ops->run(&p), 0);
	}
	probe_cleanup(&p);
	/* the file read is not ours: it stays */
	ck_assert_int_eq(stat_of("data").st_size, 64 * 1024);
	remove_file("data");
}
END_TEST

static const struct {
	const char *make;	/* "small", "dir", or NULL: nothing there */
	int ret;
	const char *why;	/* after the path */
} read_refusals[] = {
	{ "small", -EINVAL, "' must be a regular file of at least 4 KiB" },
	{ "dir", -EINVAL, "' must be a regular file of at least 4 KiB" },
	{ NULL, -ENOENT, "' must be a regular file of at least 4 KiB: " },
};

START_TEST(test_read_probe_refused)
{
	char path[160], want[512];

	snprintf(path, sizeof(path), "%s/input", dir);
	if (read_refusals[_i].make && !strcmp(read_refusals[_i].make, "small"))
		make_sized("input", 4095);
	else if (read_refusals[_i].make)
		ck_assert_int_eq(mkdir(path, 0700), 0);
	cfg.read_probe = path;
	ck_assert_int_eq(probe_init(&p, WS_PROBE_READ, &cfg), read_refusals[_i].ret);
	snprintf(want, sizeof(want), "read probe: '%s%s%s", path,
		 read_refusals[_i].why,
		 read_refusals[_i].ret == -ENOENT ? strerror(ENOENT) : "");
	ck_assert_str_eq(p.err, want);
	probe_cleanup(&p);
	if (read_refusals[_i].make && !strcmp(read_refusals[_i].make, "dir"))
		ck_assert_int_eq(rmdir(path), 0);
	else if (read_refusals[_i].make)
		remove_file("input");
}
END_TEST

START_TEST(test_read_probe_needs_path)
{
	ck_assert_int_eq(probe_init(&p, WS_PROBE_READ, &cfg), -EINVAL);
	ck_assert_str_eq(p.err, "read probe: needs --read-probe PATH, an existing "
				"file to read from");
}
END_TEST

Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *parse = tcase_create("parse");
	TCase *files = tcase_create("files");

	tcase_add_loop_test(parse, test_parse_list, 0, ARRAY_SIZE(lists));
	tcase_add_test(parse, test_parse_list_bad_cut);
	tcase_add_test(parse, test_kinds_table);
	tcase_add_loop_test(parse, test_dir_of, 0, ARRAY_SIZE(dirs));
	tcase_add_checked_fixture(files, tmp_setup, tmp_teardown);
	tcase_set_timeout(files, 60);
	tcase_add_test(files, test_fsync_probe);
	tcase_add_test(files, test_fsync_probe_fdatasync);
	tcase_add_test(files, test_save_probe);
	tcase_add_test(files, test_existing_file_is_not_ours);
	tcase_add_test(files, test_symlink_is_not_followed);
	tcase_add_test(files, test_save_tmp_taken);
	tcase_add_test(files, test_no_directory);
	tcase_add_test(files, test_read_probe);
	tcase_add_loop_test(files, test_read_probe_refused, 0,
			    ARRAY_SIZE(read_refusals));
	tcase_add_test(files, test_read_probe_needs_path);
	suite_add_tcase(s, parse);
	suite_add_tcase(s, files);
	return s;
}
