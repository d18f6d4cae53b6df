/* Kernel accounting parsers (kstat.c) against canned /proc and /sys files:
 * the trees in tests/fixtures/fp/ and a few hand-made ones for old and
 * broken formats.  The sata tree is a 4.19 kernel: no PSI, 15 stat fields. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/kstat.h"
#include "fixtures.h"
#include "suites.h"

/* A scratch root; put() writes one file under it. */
static char scratch[] = "/tmp/ws-kstat-XXXXXX";

static void make_scratch(void)
{
	memcpy(scratch, "/tmp/ws-kstat-XXXXXX", sizeof(scratch));
	ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void remove_scratch(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], cmd[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", scratch, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	ck_assert_int_eq(system(cmd), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_diskstat_17_fields)
{
	struct ws_diskstat s;

	ck_assert_int_eq(kstat_diskstat(tree("virtio"), "vda", &s), 0);
	ck_assert_int_eq(s.nfields, 17);
	ck_assert_uint_eq(s.read_ios, 124839);
	ck_assert_uint_eq(s.read_merges, 12025);
	ck_assert_uint_eq(s.read_sectors, 5590548);
	ck_assert_uint_eq(s.read_ticks, 145608);
	ck_assert_uint_eq(s.write_ios, 148085);
	ck_assert_uint_eq(s.write_merges, 11094);
	ck_assert_uint_eq(s.write_sectors, 826904944);
	ck_assert_uint_eq(s.write_ticks, 489081);
	ck_assert_uint_eq(s.in_flight, 0);
	ck_assert_uint_eq(s.io_ticks, 258492);
	ck_assert_uint_eq(s.time_in_queue, 711626);
	ck_assert_uint_eq(s.discard_ios, 19512);
	ck_assert_uint_eq(s.discard_merges, 23);
	ck_assert_uint_eq(s.discard_sectors, 767923280);
	ck_assert_uint_eq(s.discard_ticks, 73663);
	ck_assert_uint_eq(s.flush_ios, 5844);
	ck_assert_uint_eq(s.flush_ticks, 3272);
	ck_assert_uint_eq(s.write_sectors * WS_SECTOR, UINT64_C(423375331328));
}
END_TEST

/* 4.18 to 5.4: discard fields but no flush fields. */
START_TEST(test_diskstat_15_fields)
{
	struct ws_diskstat s;

	memset(&s, 0xff, sizeof(s));
	ck_assert_int_eq(kstat_diskstat(tree("sata"), "sda", &s), 0);
	ck_assert_int_eq(s.nfields, 15);
	ck_assert_uint_eq(s.write_sectors, 301234567);
	ck_assert_uint_eq(s.time_in_queue, 5201234);
	ck_assert_uint_eq(s.discard_ios, 0);
	ck_assert_uint_eq(s.flush_ios, 0);
	ck_assert_uint_eq(s.flush_ticks, 0);
}
END_TEST

/* A partition or dm device by its sysfs directory, as the fingerprint
 * names it; in_flight of a busy device. */
START_TEST(test_diskstat_by_dir)
{
	struct ws_diskstat s;

	ck_assert_int_eq(kstat_diskstat(tree("sata"),
		"/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/"
		"0:0:0:0/block/sda/sda1", &s), 0);
	ck_assert_uint_eq(s.read_ios, 84000);
	ck_assert_int_eq(kstat_diskstat(tree("dm"), "dm-0", &s), 0);
	ck_assert_uint_eq(s.in_flight, 3);
	ck_assert_int_eq(kstat_diskstat(tree("dm"), "sdz", &s), -ENOENT);
}
END_TEST

/* Before 4.18: 11 fields.  Fewer is not a stat file. */
START_TEST(test_diskstat_old_and_short)
{
	struct ws_diskstat s;

	make_scratch();
	put("/sys/block/sda/stat",
	    "    4123      12   98765     456     7890     123  4567890    7654        2     3456    8110\n");
	ck_assert_int_eq(kstat_diskstat(scratch, "sda", &s), 0);
	ck_assert_int_eq(s.nfields, 11);
	ck_assert_uint_eq(s.write_sectors, 4567890);
	ck_assert_uint_eq(s.in_flight, 2);
	ck_assert_uint_eq(s.time_in_queue, 8110);
	ck_assert_uint_eq(s.discard_ios, 0);

	put("/sys/block/sdb/stat", "    4123      12   98765\n");
	ck_assert_int_eq(kstat_diskstat(scratch, "sdb", &s), -EINVAL);
	put("/sys/block/sdc/stat", "");
	ck_assert_int_eq(kstat_diskstat(scratch, "sdc", &s), -EINVAL);
	remove_scratch();
}
END_TEST

/* jbd2's own statistics (a 6.18 kernel's info file, whole): its
 * transactions, and its average logging time (whole ms) times them; a
 * file without those lines is not one. */
START_TEST(test_jbd2_info)
{
	uint64_t n = 0, ms = 0;

	make_scratch();
	put("/proc/fs/jbd2/loop1-8/info",
	    "290 transactions (290 requested), each up to 2730 blocks\naverage: \n"
	    "  0ms waiting for transaction\n  0ms request delay\n  132ms running transaction\n"
	    "  0ms transaction was being locked\n  3ms flushing data (in ordered mode)\n"
	    "  17ms logging transaction\n  337us average transaction commit time\n"
	    "  9 handles per transaction\n  3 blocks per transaction\n  6 logged blocks per transaction\n");
	ck_assert_int_eq(kstat_jbd2_info(scratch, "loop1-8", &n, &ms), 0);
	ck_assert_uint_eq(n, 290);
	ck_assert_uint_eq(ms, 290 * 17);
	/* none committed yet: the first line alone */
	put("/proc/fs/jbd2/loop2-8/info", "0 transactions (0 requested), each up to 2730 blocks\n");
	ck_assert_int_eq(kstat_jbd2_info(scratch, "loop2-8", &n, &ms), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(ms, 0);
	put("/proc/fs/jbd2/sda2-8/info", "12 transactions (12 requested)\n  5ms locking\n");
	ck_assert_int_eq(kstat_jbd2_info(scratch, "sda2-8", &n, &ms), -EINVAL);
	put("/proc/fs/jbd2/sda3-8/info", "transactions: 12\n  5ms logging transaction\n");
	ck_assert_int_eq(kstat_jbd2_info(scratch, "sda3-8", &n, &ms), -EINVAL);
	ck_assert_int_eq(kstat_jbd2_info(scratch, "sdz-8", &n, &ms), -ENOENT);
	remove_scratch();
}
END_TEST

/* xfs's own count of its log writes: the "log" line of its stats file
 * (a 6.18 kernel's, whole), not the "log" of another line's name; a
 * file without it is not one. */
START_TEST(test_xfs_log)
{
	uint64_t w = 0, b = 0;

	make_scratch();
	put("/sys/fs/xfs/loop3/stats/stats",
	    "extent_alloc 441 1263391 113 352031\nabt 0 0 0 0\nblk_map 0 28038 82 2013 120 30419 0\n"
	    "bmbt 0 0 0 0\ndir 49 49 31 0\ntrans 36 6315 0\nig 67 13 0 54 0 54 0\n"
	    "log 593 2162 0 736 622\npush_ail 6369 0 4776 263 0 170 1586 0 0 85\n"
	    "xstrat 441 0\nrw 26171 0\nattr 62 18 0 0\nxpc 5174849536 189635932160 0\n"
	    "defer_relog 0\ndebug 0\n");
	ck_assert_int_eq(kstat_xfs_log(scratch, "loop3", &w, &b), 0);
	ck_assert_uint_eq(w, 593);
	ck_assert_uint_eq(b, 2162);
	put("/sys/fs/xfs/sda2/stats/stats", "logx 1 2\nblog 3 4\n");
	ck_assert_int_eq(kstat_xfs_log(scratch, "sda2", &w, &b), -EINVAL);
	ck_assert_int_eq(kstat_xfs_log(scratch, "sdz", &w, &b), -ENOENT);
	remove_scratch();
}
END_TEST

START_TEST(test_psi)
{
	struct ws_psi p;

	ck_assert_int_eq(kstat_psi_io(tree("dm"), &p), 0);
	ck_assert_double_eq_tol(p.some.avg10, 12.34, 1e-9);
	ck_assert_double_eq_tol(p.some.avg60, 8.10, 1e-9);
	ck_assert_double_eq_tol(p.some.avg300, 3.05, 1e-9);
	ck_assert_uint_eq(p.some.total_us, 912345678);
	ck_assert(p.has_full);
	ck_assert_double_eq_tol(p.full.avg10, 10.01, 1e-9);
	ck_assert_uint_eq(p.full.total_us, 812345678);

	ck_assert_int_eq(kstat_psi_io(tree("virtio"), &p), 0);
	ck_assert_uint_eq(p.some.total_us, 96330822);
	ck_assert_double_eq_tol(p.full.avg300, 5.47, 1e-9);
}
END_TEST

/* The sata tree is a 4.19 kernel: PSI arrived in 4.20. */
START_TEST(test_psi_absent)
{
	struct ws_psi p;

	ck_assert_int_eq(kstat_psi_io(tree("sata"), &p), -ENOENT);
}
END_TEST

START_TEST(test_psi_partial_and_broken)
{
	struct ws_psi p;

	make_scratch();
	put("/proc/pressure/io",
	    "some avg10=0.50 avg60=0.25 avg300=0.05 total=42\n");
	ck_assert_int_eq(kstat_psi_io(scratch, &p), 0);
	ck_assert(!p.has_full);
	ck_assert_uint_eq(p.some.total_us, 42);

	/* "full" first, then "some" (order is not assumed) */
	put("/proc/pressure/io",
	    "full avg10=1.00 avg60=2.00 avg300=3.00 total=7\n"
	    "some avg10=4.00 avg60=5.00 avg300=6.00 total=8\n");
	ck_assert_int_eq(kstat_psi_io(scratch, &p), 0);
	ck_assert(p.has_full);
	ck_assert_uint_eq(p.some.total_us, 8);
	ck_assert_uint_eq(p.full.total_us, 7);

	put("/proc/pressure/io", "some avg10=x\n");
	ck_assert_int_eq(kstat_psi_io(scratch, &p), -EINVAL);
	put("/proc/pressure/io", "");
	ck_assert_int_eq(kstat_psi_io(scratch, &p), -EINVAL);
	put("/proc/pressure/io",
	    "something avg10=4.00 avg60=5.00 avg300=6.00 total=8\n");
	ck_assert_int_eq(kstat_psi_io(scratch, &p), -EINVAL);
	remove_scratch();
}
END_TEST

START_TEST(test_meminfo_trees)
{
	struct ws_meminfo m;

	ck_assert_int_eq(kstat_meminfo(tree("nvme"), &m), 0);
	ck_assert_uint_eq(m.dirty, 1234 * 1024);
	ck_assert_uint_eq(m.writeback, 56 * 1024);
}
END_TEST

/* The live system, where it has the files. */
START_TEST(test_live)
{
	struct ws_diskstat s;
	struct ws_psi p;
	int ret = kstat_psi_io("", &p);

	ck_assert(ret == 0 || ret == -ENOENT || ret == -EOPNOTSUPP);
	if (access("/sys/block/vda/stat", F_OK) == 0)
		ck_assert_int_eq(kstat_diskstat("", "vda", &s), 0);
	else if (access("/sys/block/sda/stat", F_OK) == 0)
		ck_assert_int_eq(kstat_diskstat("", "sda", &s), 0);
}
END_TEST

Suite *kstat_suite(void)
{
	Suite *s = suite_create("kstat");
	TCase *disk = tcase_create("diskstat");
	TCase *psi = tcase_create("psi");
	TCase *other = tcase_create("other");

	tcase_add_test(disk, test_diskstat_17_fields);
	tcase_add_test(disk, test_diskstat_15_fields);
	tcase_add_test(disk, test_diskstat_by_dir);
	tcase_add_test(disk, test_diskstat_old_and_short);
	tcase_add_test(disk, test_xfs_log);
	tcase_add_test(disk, test_jbd2_info);
	tcase_add_test(psi, test_psi);
	tcase_add_test(psi, test_psi_absent);
	tcase_add_test(psi, test_psi_partial_and_broken);
	tcase_add_test(other, test_meminfo_trees);
	tcase_add_test(other, test_live);
	suite_add_tcase(s, disk);
	suite_add_tcase(s, psi);
	suite_add_tcase(s, other);
	return s;
}
