/* test_priv.c - the privileged options on a fake config and fingerprint:
 * what priv_setup refuses without CAP_SYS_ADMIN (naming the option) and
 * that a refusal changes nothing, --scheduler on fake queue directories
 * (one disk, a dm pair, one that does not offer the scheduler), and
 * priv_restore: with nothing set, after a partial setup, and when a
 * device went away.  Cases that need CAP_SYS_ADMIN held are tagged root. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "capset.h"
#include "system/fingerprint.h"
#include "system/priv.h"
#include "suites.h"

static struct priv_ask ask;
static struct ws_fingerprint fp;
static struct ws_priv priv;
static char top[64];

/* disk i's fake sysfs directory, with queue/scheduler listing `list` */
static void fake_disk(int i, const char *list)
{
	struct ws_fp_disk *d = &fp.disk[i];
	char path[WS_FP_PATH + 32], name[8];
	FILE *f;

	snprintf(name, sizeof(name), "sd%c", 'b' + i);
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->sysdir, sizeof(d->sysdir), "%s/%s", top, name);
	ck_assert_int_eq(mkdir(d->sysdir, 0755), 0);
	snprintf(path, sizeof(path), "%s/queue", d->sysdir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/queue/scheduler", d->sysdir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(list, f);
	fclose(f);
	snprintf(d->scheduler, sizeof(d->scheduler), "as collected");
	if (fp.ndisks <= i)
		fp.ndisks = i + 1;
}

static const char *scheduler_of(int i)
{
	static char buf[64];
	char path[WS_FP_PATH + 32];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/queue/scheduler", fp.disk[i].sysdir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A regular file stands in for the sysfs attribute: a write lands at
 * offset 0 without truncating, so disk i's file holds `text` (what a
 * sysfs store would take) over the start of what it listed before. */
static void assert_written(int i, const char *before, const char *text)
{
	char want[128];
	size_t n = strlen(text);

	snprintf(want, sizeof(want), "%s%s", text,
		 strlen(before) > n ? before + n : "");
	ck_assert_str_eq(scheduler_of(i), want);
}

/* Empty disk i's file, so the next write is all it holds. */
static void emptied(int i)
{
	char path[WS_FP_PATH + 32];

	snprintf(path, sizeof(path), "%s/queue/scheduler", fp.disk[i].sysdir);
	ck_assert_int_eq(truncate(path, 0), 0);
}

static void setup(void)
{
	ask = (struct priv_ask){ .path = "/data/big.dat" };
	memset(&fp, 0, sizeof(fp));
	snprintf(fp.fs_type, sizeof(fp.fs_type), "ext4");
	fp.kind = WS_FP_DISK;
	memset(&priv, 0, sizeof(priv));
	snprintf(top, sizeof(top), "/tmp/ws-priv-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void teardown(void)
{
	/* our own mkdtemp directory, depth first, links not followed */
	ck_assert_int_eq(nftw(top, remove_one, 8, FTW_DEPTH | FTW_PHYS), 0);
}

/* ---- refusals without CAP_SYS_ADMIN ---- */

enum { NO_DISK, TMPFS, NO_FS, FAKE_DISK };

static const struct {
	int ioprio, probe_ioprio;
	bool drop_caches;
	const char *scheduler;
	int disks;		/* NO_DISK ... FAKE_DISK */
	int ret;
	const char *why;
} refusals[] = {
	{ WS_IOPRIO_RT, 0, false, NULL, NO_DISK, -EPERM,
	  "--ioprio rt needs CAP_SYS_ADMIN" },
	{ 0, WS_IOPRIO_RT, false, NULL, NO_DISK, -EPERM,
	  "--probe-ioprio rt needs CAP_SYS_ADMIN" },
	{ WS_IOPRIO_RT, WS_IOPRIO_RT, false, NULL, NO_DISK, -EPERM,
	  "--ioprio rt needs CAP_SYS_ADMIN" },		/* the first named */
	{ WS_IOPRIO_BE, WS_IOPRIO_RT, false, NULL, NO_DISK, -EPERM,
	  "--probe-ioprio rt needs CAP_SYS_ADMIN" },
	{ 0, 0, true, NULL, NO_DISK, -EPERM, "--drop-caches needs CAP_SYS_ADMIN" },
	{ WS_IOPRIO_RT, 0, true, "kyber", FAKE_DISK, -EPERM,
	  "--ioprio rt needs CAP_SYS_ADMIN" },		/* before anything is done */
	{ 0, 0, false, "kyber", FAKE_DISK, -EPERM, "--scheduler needs CAP_SYS_ADMIN" },
	{ 0, 0, true, "kyber", FAKE_DISK, -EPERM, "--scheduler needs CAP_SYS_ADMIN" },
	{ 0, 0, false, "kyber", TMPFS, -ENODEV,
	  "--scheduler: '/data/big.dat' is on tmpfs, which has no block device" },
	{ 0, 0, false, "kyber", NO_FS, -ENODEV,
	  "--scheduler: '/data/big.dat' is on a filesystem, which has no block device" },
	{ 0, 0, false, "bfq", FAKE_DISK, -EINVAL,
	  "--scheduler 'bfq': the device offers [mq-deadline] kyber none" },
	/* nothing privileged asked: nothing to refuse */
	{ WS_IOPRIO_BE, WS_IOPRIO_IDLE, false, NULL, NO_DISK, 0, "untouched" },
};

START_TEST(test_refused)
{
	char why[256] = "untouched";

	capset_flag(CAP_SYS_ADMIN, false, false);
	ask.ioprio_class = refusals[_i].ioprio;
	ask.probe_ioprio_class = refusals[_i].probe_ioprio;
	ask.drop_caches = refusals[_i].drop_caches;
	ask.scheduler = refusals[_i].scheduler;
	if (refusals[_i].disks == FAKE_DISK)
		fake_disk(0, "[mq-deadline] kyber none\n");
	if (refusals[_i].disks == TMPFS || refusals[_i].disks == NO_FS) {
		fp.kind = WS_FP_NONE;
		snprintf(fp.fs_type, sizeof(fp.fs_type), "%s",
			 refusals[_i].disks == TMPFS ? "tmpfs" : "");
	}
	ck_assert_int_eq(priv_setup(&ask, &fp, &priv, why, sizeof(why)),
			 refusals[_i].ret);
	ck_assert_str_eq(why, refusals[_i].why);
	/* a refusal leaves nothing to put back and changed nothing */
	ck_assert_uint_eq(priv.nsched, 0);
	ck_assert(!priv.caches_dropped);
	if (refusals[_i].disks == FAKE_DISK) {
		ck_assert_str_eq(scheduler_of(0), "[mq-deadline] kyber none\n");
		ck_assert_str_eq(fp.disk[0].scheduler, "as collected");
	}
}
END_TEST

START_TEST(test_restore_nothing)
{
	char why[64] = "untouched";

	ck_assert_int_eq(priv_restore(&priv, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "untouched");
	ck_assert_uint_eq(priv.nsched, 0);
}
END_TEST

/* ---- --scheduler done, then undone (CAP_SYS_ADMIN) ---- */

START_TEST(test_scheduler_dm_pair)
{
	char why[256] = "untouched", want[WS_FP_PATH + 32];
	static const char *const lists[] = {
		"[mq-deadline] kyber none\n", "mq-deadline kyber [none]\n",
	};

	capset_flag(CAP_SYS_ADMIN, true, false);
	fp.kind = WS_FP_DM;
	fake_disk(0, lists[0]);
	fake_disk(1, lists[1]);
	ask.scheduler = "kyber";
	ck_assert_int_eq(priv_setup(&ask, &fp, &priv, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "untouched");
	ck_assert_uint_eq(priv.nsched, 2);
	for (int i = 0; i < 2; i++) {
		assert_written(i, lists[i], "kyber");
		emptied(i);
		/* the fingerprint tells what the run ran with */
		ck_assert_str_eq(fp.disk[i].scheduler, "kyber");
		snprintf(want, sizeof(want), "%s/queue", fp.disk[i].sysdir);
		ck_assert_str_eq(priv.queue_dir[i], want);
		snprintf(want, sizeof(want), "%s/queue/scheduler", fp.disk[i].sysdir);
		ck_assert_str_eq(priv.sched_file[i], want);
	}
	ck_assert_str_eq(priv.scheduler_old[0], "mq-deadline");
	ck_assert_str_eq(priv.scheduler_old[1], "none");
	ck_assert(!priv.caches_dropped);

	ck_assert_int_eq(priv_restore(&priv, why, sizeof(why)), 0);
	ck_assert_str_eq(scheduler_of(0), "mq-deadline");
	ck_assert_str_eq(scheduler_of(1), "none");
	ck_assert_uint_eq(priv.nsched, 0);
	/* a second restore has nothing left to do */
	ck_assert_int_eq(priv_restore(&priv, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "untouched");
}
END_TEST

/* The second disk refuses: the first, already switched, is recorded so
 * the restore puts it back. */
START_TEST(test_scheduler_partial)
{
	char why[256];

	capset_flag(CAP_SYS_ADMIN, true, false);
	fp.kind = WS_FP_MD;
	fake_disk(0, "[mq-deadline] kyber none\n");
	fake_disk(1, "[mq-deadline] none\n");
	ask.scheduler = "kyber";
	ck_assert_int_eq(priv_setup(&ask, &fp, &priv, why, sizeof(why)), -EINVAL);
	ck_assert_str_eq(why, "--scheduler 'kyber': the device offers "
			      "[mq-deadline] none");
	ck_assert_uint_eq(priv.nsched, 1);
	assert_written(0, "[mq-deadline] kyber none\n", "kyber");
	ck_assert_str_eq(scheduler_of(1), "[mq-deadline] none\n");
	ck_assert_str_eq(fp.disk[1].scheduler, "as collected");
	emptied(0);
	ck_assert_int_eq(priv_restore(&priv, why, sizeof(why)), 0);
	ck_assert_str_eq(scheduler_of(0), "mq-deadline");
}
END_TEST

/* A device gone before the restore: the error names it, the others are
 * still put back. */
START_TEST(test_restore_device_gone)
{
	char why[1024], want[1024], path[WS_FP_PATH + 32];

	capset_flag(CAP_SYS_ADMIN, true, false);
	fp.kind = WS_FP_DM;
	fake_disk(0, "[mq-deadline] kyber none\n");
	fake_disk(1, "[bfq] kyber none\n");
	ask.scheduler = "none";
	ck_assert_int_eq(priv_setup(&ask, &fp, &priv, why, sizeof(why)), 0);
	ck_assert_uint_eq(priv.nsched, 2);
	assert_written(1, "[bfq] kyber none\n", "none");
	emptied(1);
	snprintf(path, sizeof(path), "%s/queue/scheduler", fp.disk[0].sysdir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(priv_restore(&priv, why, sizeof(why)), -ENOENT);
	snprintf(want, sizeof(want), "could not restore scheduler 'mq-deadline' "
		 "in %s/queue: %s", fp.disk[0].sysdir, strerror(ENOENT));
	ck_assert_str_eq(why, want);
	ck_assert_str_eq(scheduler_of(1), "bfq");
	ck_assert_uint_eq(priv.nsched, 0);
}
END_TEST

Suite *priv_suite(void)
{
	Suite *s = suite_create("priv");
	TCase *any = tcase_create("refusals");
	TCase *root = tcase_create("root");

	tcase_add_checked_fixture(any, setup, teardown);
	tcase_add_loop_test(any, test_refused, 0, ARRAY_SIZE(refusals));
	tcase_add_test(any, test_restore_nothing);
	tcase_set_tags(root, "root");
	tcase_add_checked_fixture(root, setup, teardown);
	tcase_add_test(root, test_scheduler_dm_pair);
	tcase_add_test(root, test_scheduler_partial);
	tcase_add_test(root, test_restore_device_gone);
	suite_add_tcase(s, any);
	suite_add_tcase(s, root);
	return s;
}
