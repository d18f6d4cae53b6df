/* The cgroup write limit on a disk: system/iolimit.c on canned trees of
 * cgroup v1 (blkio), v2 (io.max) and a hybrid of both, the lowest limit
 * from the process's cgroup up to the root, other disks' lines ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "suites.h"
#include "system/iolimit.h"
#include "testutil.h"

static char root[64];

static void mkdirs(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];

	mkdirs(dir);
	snprintf(path, sizeof(path), "%s/%s", root, dir);
	tu_write_file(path, name, text);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/ws-iolimit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

static uint64_t limit_of(unsigned int major, unsigned int minor, char *where)
{
	struct io_limit l = { 12345, 12345, "x" };

	ck_assert_int_eq(iolimit_write(root, major, minor, &l), 0);
	if (where)
		strcpy(where, l.where);
	return l.bps;
}

static uint64_t iops_of(unsigned int major, unsigned int minor)
{
	struct io_limit l;

	ck_assert_int_eq(iolimit_write(root, major, minor, &l), 0);
	return l.iops;
}

/* cgroup v1: the process in /a/b; limits at the root and on /a. */
START_TEST(test_v1_lowest_up_the_tree)
{
	char where[256];

	put("proc/self", "cgroup", "9:name=systemd:/\n7:blkio:/a/b\n0::/\n");
	put("sys/fs/cgroup/blkio", "blkio.throttle.write_bps_device",
	    "7:0 41943040\n8:0 1000\n");
	put("sys/fs/cgroup/blkio/a", "blkio.throttle.write_bps_device", "7:0 20971520\n");
	put("sys/fs/cgroup/blkio/a/b", "blkio.throttle.write_bps_device", "");
	ck_assert_uint_eq(limit_of(7, 0, where), 20971520);
	ck_assert_str_eq(where, "/sys/fs/cgroup/blkio/a/blkio.throttle.write_bps_device");
	ck_assert_uint_eq(limit_of(8, 0, NULL), 1000);
	ck_assert_uint_eq(limit_of(7, 1, where), 0);	/* another disk */
	ck_assert_str_eq(where, "");
	/* "7:0" must not match "17:0" or "7:01" */
	put("sys/fs/cgroup/blkio", "blkio.throttle.write_bps_device", "17:0 5\n7:01 6\n");
	put("sys/fs/cgroup/blkio/a", "blkio.throttle.write_bps_device", "");
	ck_assert_uint_eq(limit_of(7, 0, NULL), 0);
	/* requests a second: their own file, the lowest up the tree */
	put("sys/fs/cgroup/blkio", "blkio.throttle.write_iops_device", "7:0 200\n");
	put("sys/fs/cgroup/blkio/a/b", "blkio.throttle.write_iops_device", "7:0 50\n7:1 9\n");
	ck_assert_uint_eq(iops_of(7, 0), 50);
	ck_assert_uint_eq(iops_of(7, 1), 9);
	ck_assert_uint_eq(limit_of(7, 1, where), 0);
	ck_assert_str_eq(where, "/sys/fs/cgroup/blkio/a/b/blkio.throttle.write_iops_device");
}
END_TEST

/* blkio named among other controllers on its line. */
START_TEST(test_v1_shared_hierarchy)
{
	/* a controller whose name only starts with "blkio" is another */
	put("proc/self", "cgroup", "5:blkio2:/y\n4:cpu,blkio,memory:/x\n");
	put("sys/fs/cgroup/blkio/y", "blkio.throttle.write_bps_device", "254:16 1000\n");
	put("sys/fs/cgroup/blkio/x", "blkio.throttle.write_bps_device", "254:16 5242880\n");
	ck_assert_uint_eq(limit_of(254, 16, NULL), 5242880);
}
END_TEST

/* cgroup v2: io.max's wbps, "max" meaning none, the lowest up the tree. */
START_TEST(test_v2_io_max)
{
	char where[256];

	put("proc/self", "cgroup", "0::/user.slice/app.scope\n");
	put("sys/fs/cgroup", "cgroup.controllers", "cpu io memory\n");
	put("sys/fs/cgroup/user.slice", "io.max",
	    "259:0 rbps=max wbps=104857600 riops=max wiops=max\n");
	put("sys/fs/cgroup/user.slice/app.scope", "io.max",
	    "259:0 rbps=1000 wbps=max riops=max wiops=max\n8:0 rbps=max wbps=2097152 riops=max wiops=max\n");
	ck_assert_uint_eq(limit_of(259, 0, where), 104857600);
	ck_assert_str_eq(where, "/sys/fs/cgroup/user.slice/io.max");
	ck_assert_uint_eq(limit_of(8, 0, NULL), 2097152);
	ck_assert_uint_eq(limit_of(8, 16, NULL), 0);
	ck_assert_uint_eq(iops_of(259, 0), 0);
	put("sys/fs/cgroup/user.slice", "io.max",
	    "259:0 rbps=max wbps=max riops=max wiops=300\n");
	ck_assert_uint_eq(iops_of(259, 0), 300);
	ck_assert_uint_eq(limit_of(259, 0, NULL), 0);
}
END_TEST

/* A hybrid system: v2 under /sys/fs/cgroup/unified, v1 beside it; the
 * lower of the two holds. */
START_TEST(test_hybrid)
{
	put("proc/self", "cgroup", "7:blkio:/\n0::/s\n");
	put("sys/fs/cgroup/blkio", "blkio.throttle.write_bps_device", "7:2 30000000\n");
	put("sys/fs/cgroup/unified/s", "io.max", "7:2 rbps=max wbps=20000000 riops=max wiops=max\n");
	ck_assert_uint_eq(limit_of(7, 2, NULL), 20000000);
	put("sys/fs/cgroup/unified/s", "io.max", "7:2 rbps=max wbps=40000000 riops=max wiops=max\n");
	ck_assert_uint_eq(limit_of(7, 2, NULL), 30000000);
}
END_TEST

/* No /proc/self/cgroup: an error, not a silent "no limit". */
START_TEST(test_no_cgroup_file)
{
	struct io_limit l = { 1, 1, "x" };

	ck_assert_int_lt(iolimit_write(root, 7, 0, &l), 0);
	ck_assert_uint_eq(l.bps, 0);
	ck_assert_uint_eq(l.iops, 0);
}
END_TEST

Suite *iolimit_suite(void)
{
	Suite *s = suite_create("iolimit");
	TCase *tc = tcase_create("trees");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_v1_lowest_up_the_tree);
	tcase_add_test(tc, test_v1_shared_hierarchy);
	tcase_add_test(tc, test_v2_io_max);
	tcase_add_test(tc, test_hybrid);
	tcase_add_test(tc, test_no_cgroup_file);
	suite_add_tcase(s, tc);
	return s;
}
