/* Opening the file under test safely: target.c, in a scratch directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "suites.h"
#include "target.h"

static char dir[] = "/tmp/ws-target-XXXXXX";
static char path[256];

static void make_dir(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
}

static void remove_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static struct ws_config cfg_for(const char *p)
{
	struct ws_config cfg;

	config_defaults(&cfg);
	cfg.path = p;
	return cfg;
}

/* Tagged xattr (requirements.h): the mark needs user xattrs.  A reopened
 * file of ours is known with its size, rewritten in place unless
 * truncated. */
START_TEST(test_create_mark_reopen)
{
	struct ws_config cfg = cfg_for(path);
	struct ws_target t;
	struct ws_target_error err;

	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), 0);
	ck_assert(t.created);
	ck_assert(!t.xattr_unsupported);
	ck_assert(t.marked);
	ck_assert_uint_eq(t.size_at_open, 0);
	ck_assert_int_eq(write(t.fd, "xyz", 3), 3);
	target_close(&t, path, false);

	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), 0);
	ck_assert(!t.created && t.marked && !t.forced && !t.truncated);
	ck_assert_uint_ge(t.space.reclaimed, 1);
	ck_assert_uint_eq(t.size_at_open, 3);
	ck_assert_int_eq(target_truncate(&t), 0);
	ck_assert(t.truncated);
	ck_assert_int_eq(target_close(&t, path, true), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

START_TEST(test_foreign_file_untouched)
{
	struct ws_config cfg = cfg_for(path);
	struct ws_target t;
	struct ws_target_error err;
	struct stat before, after;
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	ck_assert_int_eq(write(fd, "precious", 8), 8);
	close(fd);
	stat(path, &before);
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -EEXIST);
	ck_assert_int_eq(err.status, WS_EXIT_REFUSED);
	ck_assert_ptr_nonnull(strstr(err.msg, "was not created by writestress"));
	ck_assert_ptr_nonnull(strstr(err.hint, "--force"));
	stat(path, &after);
	ck_assert_uint_eq(after.st_size, 8);
	ck_assert_int_eq(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);

	/* --force takes it, but --remove still will not delete it */
	cfg.force = true;
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), 0);
	ck_assert(t.forced && !t.created && !t.marked);
	ck_assert_int_eq(target_close(&t, path, true), 0);
	ck_assert_int_eq(access(path, F_OK), 0);
}
END_TEST

START_TEST(test_refuse_non_regular)
{
	struct ws_target t;
	struct ws_target_error err;
	char p[300];
	struct ws_config cfg;

	/* a symlink to a file that does not exist yet: nothing is created */
	snprintf(p, sizeof(p), "%s/link", dir);
	ck_assert_int_eq(symlink(path, p), 0);
	cfg = cfg_for(p);
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -ELOOP);
	ck_assert_int_eq(err.status, WS_EXIT_REFUSED);
	ck_assert_ptr_nonnull(strstr(err.msg, "symbolic link"));
	ck_assert_int_eq(access(path, F_OK), -1);

	/* a FIFO: refused without blocking on open */
	snprintf(p, sizeof(p), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	cfg = cfg_for(p);
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(err.msg, "a FIFO"));

	cfg = cfg_for(dir);
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(err.msg, "a directory"));

	cfg = cfg_for("/dev/null");
	cfg.force = true;	/* --force never extends to devices */
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(err.msg, "a character device"));
}
END_TEST

START_TEST(test_missing_directory)
{
	char p[300];
	struct ws_config cfg;
	struct ws_target t;
	struct ws_target_error err;

	snprintf(p, sizeof(p), "%s/no/such/file", dir);
	cfg = cfg_for(p);
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -ENOENT);
	ck_assert_int_eq(err.status, WS_EXIT_FAILURE);
	ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
}
END_TEST

Suite *target_suite(void)
{
	Suite *s = suite_create("target");
	TCase *tc = tcase_create("core");
	TCase *xattr = tcase_create("xattr");

	tcase_add_checked_fixture(xattr, make_dir, remove_dir);
	tcase_add_test(xattr, test_create_mark_reopen);
	tcase_set_tags(xattr, "xattr");
	suite_add_tcase(s, xattr);
	tcase_add_checked_fixture(tc, make_dir, remove_dir);
	tcase_add_test(tc, test_foreign_file_untouched);
	tcase_add_test(tc, test_refuse_non_regular);
	tcase_add_test(tc, test_missing_directory);
	suite_add_tcase(s, tc);
	return s;
}
