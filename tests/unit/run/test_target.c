/* Opening the file under test safely: target.c, in a scratch directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/exit.h"
#include "suites.h"
#include "run/target.h"

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
	cfg.set.path = p;
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

/* A socket, and (as root, tagged) a block device node: refused as what
 * they are, looked at through O_PATH only (nothing is opened). */
START_TEST(test_refuse_socket)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ws_target t;
	struct ws_target_error err;
	struct ws_config cfg;
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	ck_assert_int_ge(s, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock", dir);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	cfg = cfg_for(sa.sun_path);
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -EPERM);
	ck_assert_int_eq(err.status, WS_EXIT_REFUSED);
	ck_assert_ptr_nonnull(strstr(err.msg, "it is a socket"));
	close(s);

	/* a symbolic link to a file that exists: never followed, even with
	 * --force */
	{
		char link[300], before[16] = "", after[16] = "";
		FILE *f = fopen(path, "w");

		ck_assert_ptr_nonnull(f);
		fputs("theirs\n", f);
		fclose(f);
		snprintf(link, sizeof(link), "%s/link2", dir);
		ck_assert_int_eq(symlink(path, link), 0);
		cfg = cfg_for(link);
		cfg.force = true;
		ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -ELOOP);
		ck_assert_int_eq(err.status, WS_EXIT_REFUSED);
		ck_assert_ptr_nonnull(strstr(err.msg, "symbolic link"));
		f = fopen(path, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_ptr_nonnull(fgets(after, sizeof(after), f));
		fclose(f);
		snprintf(before, sizeof(before), "theirs\n");
		ck_assert_str_eq(after, before);
	}
}
END_TEST

START_TEST(test_refuse_block_device)
{
	struct ws_target t;
	struct ws_target_error err;
	struct ws_config cfg;
	char p[300];

	snprintf(p, sizeof(p), "%s/blk", dir);
	/* loop255's numbers: never opened, only looked at */
	ck_assert_int_eq(mknod(p, S_IFBLK | 0600, makedev(7, 255)), 0);
	cfg = cfg_for(p);
	cfg.force = true;	/* --force never extends to devices */
	ck_assert_int_eq(target_open(&cfg, 0, &t, &err), -EPERM);
	ck_assert_ptr_nonnull(strstr(err.msg, "it is a block device"));
}
END_TEST

/* A user who may not write in the directory: the errno, and what to do
 * about it.  A child of this test case becomes nobody (as root) and
 * answers with its exit status: the number of the check that failed. */
static int open_as_nobody(void)
{
	struct ws_target t;
	struct ws_target_error err;
	struct ws_config cfg = cfg_for(path);
	int ret = 0;

	/* nobody in effect; root kept as the saved ids, to take back before
	 * the end (a coverage build writes its counts then) */
	if (setresgid(65534, 65534, 0) || setresuid(65534, 65534, 0))
		return 1;
	if (target_open(&cfg, 0, &t, &err) != -EACCES)
		ret = 2;
	else if (err.status != WS_EXIT_FAILURE || !strstr(err.msg, "Permission denied"))
		ret = 3;
	else if (!strstr(err.hint, "pick a directory you can write to"))
		ret = 4;
	else if (access(path, F_OK) != -1)
		ret = 5;
	if (setresuid(0, 0, 0) || setresgid(0, 0, 0))
		return 6;
	return ret;
}

START_TEST(test_no_right_to_the_directory)
{
	int status;
	pid_t pid;

	ck_assert_int_eq(chmod(dir, 0755), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		ws_exit_now(open_as_nobody());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "check %d of open_as_nobody failed", WEXITSTATUS(status));
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
	TCase *root;

	tcase_add_checked_fixture(xattr, make_dir, remove_dir);
	tcase_add_test(xattr, test_create_mark_reopen);
	tcase_set_tags(xattr, "xattr");
	suite_add_tcase(s, xattr);
	tcase_add_checked_fixture(tc, make_dir, remove_dir);
	tcase_add_test(tc, test_foreign_file_untouched);
	tcase_add_test(tc, test_refuse_non_regular);
	tcase_add_test(tc, test_missing_directory);
	tcase_add_test(tc, test_refuse_socket);
	suite_add_tcase(s, tc);
	root = tcase_create("root");
	tcase_add_checked_fixture(root, make_dir, remove_dir);
	tcase_add_test(root, test_refuse_block_device);
	tcase_add_test(root, test_no_right_to_the_directory);
	tcase_set_tags(root, "root");
	suite_add_tcase(s, root);
	return s;
}
