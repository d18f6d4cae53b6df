/* The system fingerprint (fingerprint.c) and its sysfs readers (sysfs.c),
 * against the canned trees in tests/fixtures/fp/: nvme (btrfs on a
 * partition), sata (a partition at sector 63, kernel without PSI), loop
 * (over a file, direct I/O), virtio (a whole disk), dm (over a partition
 * and a whole disk).  One live test reads this machine's /sys. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/c.h"
#include "system/fingerprint.h"
#include "outputs/fingerprint_show.h"
#include "lib/jsonw.h"
#include "fixtures.h"
#include "suites.h"
#include "system/sysfs.h"

static struct ws_fingerprint fp;

static void collect(const char *name, unsigned maj, unsigned min,
		    const char *path)
{
	ck_assert_int_eq(fingerprint_collect(tree(name), makedev(maj, min),
					     path, &fp), 0);
}

/* ---- sysfs.c ---- */

START_TEST(test_sysfs_read)
{
	const char *root = tree("nvme");
	char buf[64];
	uint64_t u;
	int64_t i;

	/* nvme pads the model to 40 characters; trimmed */
	ck_assert_int_eq(sysfs_read(root,
		"/sys/devices/virtual/nvme-subsystem/nvme-subsys0/model",
		buf, sizeof(buf)), 23);
	ck_assert_str_eq(buf, "Samsung SSD 980 PRO 1TB");
	ck_assert_int_eq(sysfs_read(root, "/sys/block/nvme0n1/queue/scheduler",
				    buf, 5), 4);
	ck_assert_str_eq(buf, "[non");	/* cut to the buffer */
	ck_assert_int_eq(sysfs_read_u64(root, "/sys/block/nvme0n1/size", &u), 0);
	ck_assert_uint_eq(u, 1953525168);
	ck_assert_int_eq(sysfs_read_i64(root, "/proc/sys/vm/dirty_ratio", &i), 0);
	ck_assert_int_eq(i, 20);
	ck_assert_int_eq(sysfs_read_u64(root, "/sys/block/nvme0n1/queue/scheduler",
					&u), -EINVAL);
	ck_assert_int_eq(sysfs_read_u64(root, "/sys/block/nvme0n1/stat", &u),
			 -EINVAL);
	ck_assert_int_eq(sysfs_read(root, "/sys/block/nope/size", buf,
				    sizeof(buf)), -ENOENT);
	ck_assert(sysfs_exists(root, "/sys/block/nvme0n1/queue"));
	ck_assert(!sysfs_exists(root, "/sys/block/nvme0n1/loop"));
}
END_TEST

START_TEST(test_sysfs_links)
{
	const char *root = tree("dm");
	char buf[PATH_MAX];

	ck_assert_int_gt(sysfs_readlink(root, "/sys/dev/block/253:0", buf,
					sizeof(buf)), 0);
	ck_assert_str_eq(buf, "../../devices/virtual/block/dm-0");
	ck_assert_int_eq(sysfs_resolve(root, "/sys/dev/block/253:0", buf,
				       sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/sys/devices/virtual/block/dm-0");
	ck_assert_int_eq(sysfs_resolve(root,
		"/sys/devices/virtual/block/dm-0/slaves/sdb1", buf,
		sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/sys/devices/pci0000:00/0000:00:17.0/ata2/host1/"
			      "target1:0:0/1:0:0:0/block/sdb/sdb1");
	/* not a link: the path itself, normalised */
	ck_assert_int_eq(sysfs_resolve(root, "/sys/block/../block/./dm-0/dm",
				       buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/sys/block/dm-0/dm");
	ck_assert_int_eq(sysfs_resolve(root, "/sys/block/nope", buf,
				       sizeof(buf)), -ENOENT);
	ck_assert_int_eq(sysfs_readlink(root, "/sys/dev/block/253:0", buf, 8),
			 -EOVERFLOW);
}
END_TEST

START_TEST(test_sysfs_list)
{
	const char *root = tree("dm");
	char names[3][SYSFS_NAME_MAX];

	ck_assert_int_eq(sysfs_list(root, "/sys/devices/virtual/block/dm-0/slaves",
				    names, 3), 2);
	ck_assert_str_eq(names[0], "sdb1");
	ck_assert_str_eq(names[1], "sdc");
	/* more entries than room: the smallest names, sorted */
	ck_assert_int_eq(sysfs_list(root, "/sys/dev/block", names, 3), 3);
	ck_assert_str_eq(names[0], "253:0");
	ck_assert_str_eq(names[1], "8:16");
	ck_assert_str_eq(names[2], "8:17");
	ck_assert_int_eq(sysfs_list(root, "/sys/nope", names, 3), -ENOENT);
}
END_TEST

START_TEST(test_sysfs_names)
{
	char buf[16];

	ck_assert_str_eq(ws_basename("/sys/block/sda"), "sda");
	ck_assert_str_eq(ws_basename("sda"), "sda");
	ck_assert_int_eq(ws_dirname("/sys/block/sda", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/sys/block");
	ck_assert_int_eq(ws_dirname("/sys", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/");
	ck_assert_int_eq(ws_dirname("/sys/block/sda", buf, 5), -EOVERFLOW);
	ck_assert_int_eq(sysfs_path("/r", "/sys", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/r/sys");
	ck_assert_int_eq(sysfs_path("/a/long/root", "/sys/block", buf,
				    sizeof(buf)), -ENAMETOOLONG);
}
END_TEST

/* ---- device resolution, one tree each ---- */

START_TEST(test_nvme_partition)
{
	const struct ws_fp_disk *d = &fp.disk[0];

	collect("nvme", 0, 33, "/var/tmp/big.dat");	/* btrfs: anonymous dev */
	ck_assert(fp.mount_found && !fp.mount_by_path);
	ck_assert_str_eq(fp.fs_type, "btrfs");
	ck_assert_str_eq(fp.mount_point, "/");
	ck_assert_str_eq(fp.mount_source, "/dev/nvme0n1p1");
	ck_assert_str_eq(fp.mount_opts, "rw,relatime");
	ck_assert_int_eq(fp.kind, WS_FP_PARTITION);
	ck_assert_str_eq(fp.bdev, "nvme0n1p1");
	ck_assert_int_eq(fp.ndisks, 1);
	ck_assert_str_eq(d->name, "nvme0n1");
	ck_assert_str_eq(d->model, "Samsung SSD 980 PRO 1TB");
	ck_assert_str_eq(d->firmware, "5B2QGXA7");
	ck_assert_str_eq(d->vendor, "");
	ck_assert_str_eq(d->scheduler, "none");
	ck_assert_str_eq(d->schedulers, "[none] mq-deadline");
	ck_assert_int_eq(d->size, INT64_C(1953525168) * 512);
	ck_assert_int_eq(d->rotational, 0);
	ck_assert_int_eq(d->nr_requests, 1023);
	ck_assert_int_eq(d->queue_depth, WS_FP_UNKNOWN);
	ck_assert_int_eq(d->wbt_lat_usec, 2000);
	ck_assert_str_eq(d->part, "nvme0n1p1");
	ck_assert_int_eq(d->part_start, 2048);
	ck_assert_int_eq(d->aligned_1mib, 1);
	ck_assert_int_eq(d->aligned_physical, 1);
	ck_assert_int_eq(d->aligned_optimal, WS_FP_UNKNOWN);
	ck_assert(!d->loop);

	ck_assert_str_eq(fp.kernel, "6.8.0-51-generic");
	ck_assert_str_eq(fp.machine, "x86_64");
	ck_assert_str_eq(fp.cpu, "13th Gen Intel(R) Core(TM) i7-1360P");
	ck_assert_int_eq(fp.cpus, 4);
	ck_assert_int_eq(fp.mem_total, INT64_C(32588380) * 1024);
	ck_assert_int_eq(fp.vm.dirty_ratio, 20);
	ck_assert_int_eq(fp.vm.dirty_background_ratio, 10);
	ck_assert_int_eq(fp.vm.dirty_bytes, 0);
	ck_assert_int_eq(fp.vm.dirty_expire_centisecs, 3000);
	ck_assert_int_eq(fp.vm.dirty_writeback_centisecs, 500);
	ck_assert_int_eq(fp.block_size, WS_FP_UNKNOWN);	/* the caller's */
}
END_TEST

/* A file in a nested btrfs subvolume has a device no mountinfo line shows:
 * the mount is found by the longest mount point covering the path. */
START_TEST(test_nvme_subvolume_by_path)
{
	collect("nvme", 0, 77, "/home/u/.snapshots/1/big.dat");
	ck_assert(fp.mount_found && fp.mount_by_path);
	ck_assert_str_eq(fp.mount_point, "/home");
	ck_assert_str_eq(fp.super_opts, "rw,ssd,discard=async,space_cache=v2,"
					"subvolid=257,subvol=/@home");
	ck_assert_int_eq(fp.kind, WS_FP_PARTITION);
	ck_assert_str_eq(fp.disk[0].name, "nvme0n1");

	/* "/homework" is not under "/home" */
	collect("nvme", 0, 77, "/homework/x");
	ck_assert_str_eq(fp.mount_point, "/");
}
END_TEST

START_TEST(test_sata_misaligned)
{
	const struct ws_fp_disk *d = &fp.disk[0];

	collect("sata", 8, 1, "/data.bin");
	ck_assert(!fp.mount_by_path);
	ck_assert_str_eq(fp.fs_type, "ext4");
	ck_assert_str_eq(fp.super_opts, "rw,errors=remount-ro");
	ck_assert_int_eq(fp.kind, WS_FP_PARTITION);
	ck_assert_str_eq(fp.bdev, "sda1");
	ck_assert_str_eq(d->name, "sda");
	ck_assert_str_eq(d->model, "Samsung SSD 830 Series");
	ck_assert_str_eq(d->vendor, "ATA");
	ck_assert_str_eq(d->firmware, "CXM03B1Q");
	ck_assert_str_eq(d->driver, "sd");
	ck_assert_str_eq(d->scheduler, "mq-deadline");
	ck_assert_str_eq(d->write_cache, "write back");
	ck_assert_int_eq(d->queue_depth, 31);
	ck_assert_int_eq(d->max_sectors_kb, 512);
	ck_assert_int_eq(d->physical_block, 4096);
	ck_assert_int_eq(d->discard_max_bytes, 2147450880);
	ck_assert_int_eq(d->discard_granularity, 512);
	ck_assert_int_eq(d->part_start, 63);
	ck_assert_int_eq(d->aligned_1mib, 0);
	ck_assert_int_eq(d->aligned_physical, 0);
	ck_assert_int_eq(d->aligned_optimal, WS_FP_UNKNOWN);
	ck_assert_str_eq(fp.kernel, "4.19.0-27-amd64");
	ck_assert_str_eq(fp.machine, "");	/* no kernel.arch, not live */
	ck_assert_int_eq(fp.cpus, 8);
}
END_TEST

START_TEST(test_tmpfs_has_no_device)
{
	collect("sata", 0, 19, "/run/lock/x");
	ck_assert_str_eq(fp.fs_type, "tmpfs");
	ck_assert_str_eq(fp.mount_point, "/run");
	ck_assert_int_eq(fp.kind, WS_FP_NONE);
	ck_assert_int_eq(fp.ndisks, 0);
	ck_assert_int_eq(fingerprint_queue_path(&fp, (char[64]){ 0 }, 64),
			 -ENOENT);
}
END_TEST

START_TEST(test_loop_backing_file)
{
	const struct ws_fp_disk *d = &fp.disk[0];

	collect("loop", 7, 0, "/mnt/test/big.dat");
	ck_assert_str_eq(fp.mount_point, "/mnt/test");
	ck_assert_int_eq(fp.kind, WS_FP_LOOP);
	ck_assert_int_eq(fp.ndisks, 1);
	ck_assert_str_eq(d->name, "loop0");
	ck_assert(d->loop);
	ck_assert_str_eq(d->backing_file, "/var/tmp/writestress-loop.img");
	ck_assert_int_eq(d->loop_dio, 1);
	ck_assert_str_eq(d->part, "");
	ck_assert_int_eq(d->rotational, 1);
	ck_assert_int_eq(fp.vm.dirty_bytes, 268435456);
	ck_assert_int_eq(fp.vm.dirty_ratio, 0);
}
END_TEST

START_TEST(test_virtio_whole_disk)
{
	const struct ws_fp_disk *d = &fp.disk[0];

	collect("virtio", 254, 0, "/tmp/big.dat");
	ck_assert_int_eq(fp.kind, WS_FP_DISK);
	ck_assert_str_eq(fp.bdev, "vda");
	ck_assert_str_eq(d->name, "vda");
	ck_assert_str_eq(d->model, "");
	ck_assert_str_eq(d->vendor, "0x1af4");
	ck_assert_str_eq(d->driver, "virtio_blk");
	ck_assert_int_eq(d->rotational, 1);
	ck_assert_int_eq(d->wbt_lat_usec, 75000);
	ck_assert_str_eq(d->part, "");
	ck_assert_int_eq(d->aligned_1mib, WS_FP_UNKNOWN);
}
END_TEST

START_TEST(test_dm_two_disks)
{
	char q[PATH_MAX];

	collect("dm", 253, 0, "/srv/big.dat");
	ck_assert_str_eq(fp.mount_point, "/srv");
	ck_assert_str_eq(fp.fs_type, "xfs");
	ck_assert_int_eq(fp.kind, WS_FP_DM);
	ck_assert_str_eq(fp.bdev, "dm-0");
	ck_assert_str_eq(fp.holder_name, "data-vol");
	ck_assert_int_eq(fp.ndisks, 2);
	ck_assert_str_eq(fp.disk[0].name, "sdb");
	ck_assert_str_eq(fp.disk[0].part, "sdb1");
	ck_assert_int_eq(fp.disk[0].part_start, 2048);
	ck_assert_int_eq(fp.disk[0].aligned_1mib, 1);
	ck_assert_str_eq(fp.disk[0].model, "WDC WD40EFRX-68N32N0");
	ck_assert_int_eq(fp.disk[0].queue_depth, 32);
	ck_assert_str_eq(fp.disk[1].name, "sdc");
	ck_assert_str_eq(fp.disk[1].part, "");
	ck_assert_int_eq(fp.disk[1].discard_max_bytes, 0);
	ck_assert_int_eq(fp.vm.dirty_ratio, 40);
	/* --scheduler acts on the first disk under the dm device */
	ck_assert_int_eq(fingerprint_queue_path(&fp, q, sizeof(q)), 0);
	ck_assert_str_eq(q, "/sys/devices/pci0000:00/0000:00:17.0/ata2/host1/"
			    "target1:0:0/1:0:0:0/block/sdb/queue");
}
END_TEST

/* Mount points with a space are escaped as \040 in mountinfo; a device
 * mounted twice is matched at the mount point covering the path. */
START_TEST(test_dm_bind_and_escape)
{
	collect("dm", 253, 0, "/mnt/my backup/x");
	ck_assert_str_eq(fp.mount_point, "/mnt/my backup");
	ck_assert(!fp.mount_by_path);
}
END_TEST

/* An anonymous device over dm: the mount source /dev/mapper/NAME is found
 * by the dm/name of each dm device. */
START_TEST(test_dm_by_mapper_name)
{
	collect("dm", 0, 99, "/srv/sub/x");
	ck_assert(fp.mount_by_path);
	ck_assert_int_eq(fp.kind, WS_FP_DM);
	ck_assert_str_eq(fp.bdev, "dm-0");
	ck_assert_int_eq(fp.ndisks, 2);
}
END_TEST

START_TEST(test_no_path_matches_by_device)
{
	ck_assert_int_eq(fingerprint_collect(tree("sata"), makedev(8, 1), NULL,
					     &fp), 0);
	ck_assert_str_eq(fp.mount_point, "/");
	ck_assert_int_eq(fp.kind, WS_FP_PARTITION);
}
END_TEST

START_TEST(test_empty_root)
{
	char dir[] = "/tmp/ws-fp-XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(fingerprint_collect(dir, makedev(8, 1), "/x", &fp),
			 -ENOENT);
	ck_assert_int_eq(fp.kind, WS_FP_NONE);
	rmdir(dir);
}
END_TEST

/* ---- this machine ---- */

static bool live_target(char *path, size_t len, struct stat *st)
{
	static const char *const dirs[] = { "/tmp", "/var/tmp" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd;

		snprintf(path, len, "%s/ws-fp-XXXXXX", dirs[i]);
		fd = mkstemp(path);
		if (fd < 0)
			continue;
		fstat(fd, st);
		close(fd);
		if (fingerprint_collect("", st->st_dev, path, &fp) == 0 &&
		    fp.ndisks > 0)
			return true;
		unlink(path);
	}
	return false;
}

/* Tagged blockdev: /tmp or /var/tmp is on a block device (requirements.h). */
START_TEST(test_live_tmp)
{
	char path[64], q[PATH_MAX];
	struct stat st;

	ck_assert_msg(live_target(path, sizeof(path), &st),
		      "no fingerprint with a disk for /tmp or /var/tmp");
	unlink(path);
	ck_assert(fp.mount_found);
	ck_assert_int_ne(fp.kind, WS_FP_NONE);
	ck_assert_msg(fp.disk[0].scheduler[0], "no scheduler for %s",
		      fp.disk[0].name);
	ck_assert_str_ne(fp.kernel, "");
	ck_assert_str_ne(fp.machine, "");
	ck_assert_int_gt(fp.block_size, 0);
	ck_assert_int_eq(fingerprint_queue_path(&fp, q, sizeof(q)), 0);
	ck_assert(sysfs_exists("", q));
}
END_TEST

/* Tagged root: a loop device made here, resolved through the real sysfs. */
START_TEST(test_live_loop)
{
	char file[] = "/tmp/ws-fp-loop-XXXXXX", dev[32];
	int ctl, fd, lfd, n;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(ctl, 0);
	fd = mkstemp(file);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 8 << 20), 0);
	/* other tests may take the free device between asking and binding */
	for (int tries = 0; ; tries++) {
		n = ioctl(ctl, LOOP_CTL_GET_FREE);
		ck_assert_int_ge(n, 0);
		snprintf(dev, sizeof(dev), "/dev/loop%d", n);
		lfd = open(dev, O_RDWR | O_CLOEXEC);
		ck_assert_int_ge(lfd, 0);
		if (ioctl(lfd, LOOP_SET_FD, fd) == 0)
			break;
		ck_assert_msg(errno == EBUSY && tries < 10,
			      "LOOP_SET_FD %s: %s", dev, strerror(errno));
		close(lfd);
	}
	close(ctl);

	n = fingerprint_collect("", makedev(7, (unsigned)n), NULL, &fp);
	ioctl(lfd, LOOP_CLR_FD, 0);
	close(lfd);
	close(fd);
	unlink(file);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(fp.kind, WS_FP_LOOP);
	ck_assert(fp.disk[0].loop);
	ck_assert_str_eq(fp.disk[0].backing_file, file);
	ck_assert_int_eq(fp.disk[0].size, 8 << 20);
}
END_TEST

Suite *fingerprint_suite(void)
{
	Suite *s = suite_create("fingerprint");
	TCase *sys = tcase_create("sysfs");
	TCase *dev = tcase_create("devices");
	TCase *live = tcase_create("live");
	TCase *root = tcase_create("root");

	tcase_add_test(sys, test_sysfs_read);
	tcase_add_test(sys, test_sysfs_links);
	tcase_add_test(sys, test_sysfs_list);
	tcase_add_test(sys, test_sysfs_names);
	tcase_add_test(dev, test_nvme_partition);
	tcase_add_test(dev, test_nvme_subvolume_by_path);
	tcase_add_test(dev, test_sata_misaligned);
	tcase_add_test(dev, test_tmpfs_has_no_device);
	tcase_add_test(dev, test_loop_backing_file);
	tcase_add_test(dev, test_virtio_whole_disk);
	tcase_add_test(dev, test_dm_two_disks);
	tcase_add_test(dev, test_dm_bind_and_escape);
	tcase_add_test(dev, test_dm_by_mapper_name);
	tcase_add_test(dev, test_no_path_matches_by_device);
	tcase_add_test(dev, test_empty_root);
	tcase_add_test(live, test_live_tmp);
	tcase_set_tags(live, "blockdev");
	tcase_add_test(root, test_live_loop);
	tcase_set_tags(root, "root");
	suite_add_tcase(s, sys);
	suite_add_tcase(s, dev);
	suite_add_tcase(s, live);
	suite_add_tcase(s, root);
	return s;
}
