/* test_fingerprint_show.c - the fingerprint shown (fingerprint_show.c):
 * the header's first-line summary, its device/queue/layout/kernel lines
 * and the "fingerprint" member of the JSON result.  Golden headers and
 * JSON of the canned trees in tests/fixtures/fp/ (nvme, sata, loop,
 * virtio, dm; collected by fingerprint.c, whose own suite checks what was
 * read), then hand-built fingerprints for what no tree has: unknowns,
 * md, the vendor rules, buffered loops, a short buffer. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include <check.h>
#include <json-c/json.h>

#include "lib/c.h"
#include "system/fingerprint.h"
#include "outputs/fingerprint_show.h"
#include "fixtures.h"
#include "lib/jsonw.h"
#include "suites.h"
#include "testutil.h"

static struct ws_fingerprint fp;

static void collect(const char *name, unsigned maj, unsigned min,
		    const char *path)
{
	ck_assert_int_eq(fingerprint_collect(tree(name), makedev(maj, min),
					     path, &fp), 0);
}

/* What a function printed to a FILE, as a string (caller frees). */
static char *header_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fingerprint_header(&fp, f);
	fclose(f);
	return buf;
}

static char *json_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;

	ck_assert_ptr_nonnull(f);
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	fingerprint_json(&fp, &w);
	jsonw_end(&w);
	fclose(f);
	return buf;
}

static void assert_jstr(struct json_object *o, const char *path,
			const char *want)
{
	struct json_object *v = tu_jget(o, path);

	ck_assert_msg(v && json_object_is_type(v, json_type_string),
		      "%s is not a string", path);
	ck_assert_str_eq(json_object_get_string(v), want);
}

static void assert_jint(struct json_object *o, const char *path, int64_t want)
{
	struct json_object *v = tu_jget(o, path);

	ck_assert_msg(v && json_object_is_type(v, json_type_int),
		      "%s is not an integer", path);
	ck_assert_int_eq(json_object_get_int64(v), want);
}

static void assert_jbool(struct json_object *o, const char *path, bool want)
{
	struct json_object *v = tu_jget(o, path);

	ck_assert_msg(v && json_object_is_type(v, json_type_boolean),
		      "%s is not a boolean", path);
	ck_assert_int_eq(json_object_get_boolean(v), want);
}

/* Present, and null. */
static void assert_jnull(struct json_object *o, const char *path)
{
	char parent[256];
	const char *dot = strrchr(path, '.');
	struct json_object *p;

	snprintf(parent, sizeof(parent), "%.*s", (int)(dot - path), path);
	p = tu_jget(o, parent);
	ck_assert_msg(p && json_object_object_get_ex(p, dot + 1, NULL) &&
		      !tu_jget(o, path), "%s is not null", path);
}

/* The fingerprint of the current `fp` as the result file would hold it,
 * parsed back. */
static struct json_object *json_parsed(void)
{
	char *text = json_text();
	struct json_object *o = json_tokener_parse(text);

	ck_assert_msg(o != NULL, "not JSON: %s", text);
	free(text);
	return o;
}

static void assert_has(const char *text, const char *want)
{
	ck_assert_msg(strstr(text, want), "'%s' not in:\n%s", want, text);
}

/* ---- alignment verdicts and their words ---- */

static const struct {
	int64_t start, phys, opt;
	int a1m, aphys, aopt;
	const char *words;
} aligns[] = {
	{ 2048, 4096, 0, 1, 1, -1, "(1 MiB aligned)" },
	{ 63, 4096, 0, 0, 0, -1,
	  "(NOT aligned to 1 MiB or to the 4096-byte physical block)" },
	{ 63, 512, 0, 0, 1, -1,
	  "(NOT aligned to 1 MiB; aligned to the 512-byte physical block)" },
	{ 2048, 4096, 1572864, 1, 1, 0,
	  "(1 MiB aligned, NOT aligned to the 1572864-byte optimal I/O size)" },
	{ 3072, 4096, 1572864, 0, 1, 1,
	  "(NOT aligned to 1 MiB; aligned to the 4096-byte physical block)" },
	{ 34, 4096, 65536, 0, 0, 0,
	  "(NOT aligned to 1 MiB, to the 4096-byte physical block or to the "
	  "65536-byte optimal I/O size)" },
	{ 4096, -1, 0, 1, -1, -1, "(1 MiB aligned)" },
};

START_TEST(test_alignment)
{
	struct ws_fp_disk *d;
	char want[256], *text;

	memset(&fp, 0, sizeof(fp));
	fp.kind = WS_FP_PARTITION;
	fp.ndisks = 1;
	d = &fp.disk[0];
	d->part_start = aligns[_i].start;
	d->physical_block = aligns[_i].phys;
	d->opt_io = aligns[_i].opt;
	snprintf(d->part, sizeof(d->part), "sda1");
	fingerprint_alignment(d);
	ck_assert_int_eq(d->aligned_1mib, aligns[_i].a1m);
	ck_assert_int_eq(d->aligned_physical, aligns[_i].aphys);
	ck_assert_int_eq(d->aligned_optimal, aligns[_i].aopt);

	text = header_text();
	snprintf(want, sizeof(want),
		 "\n  layout   partition starts at sector %lld %s\n",
		 (long long)aligns[_i].start, aligns[_i].words);
	assert_has(text, want);
	free(text);
}
END_TEST

/* ---- header lines (golden) ---- */

static const struct {
	const char *tree;
	unsigned maj, min;
	const char *path, *summary, *header;
} goldens[] = {
	{ "nvme", 0, 33, "/var/tmp/big.dat",
	  "btrfs (rw,relatime) · /dev/nvme0n1p1 → nvme0n1",
	  "  device   Samsung SSD 980 PRO 1TB, fw 5B2QGXA7, 932 GiB, non-rotational, write cache on, discard\n"
	  "  queue    none, nr_requests 1023, max_sectors_kb 128, read_ahead_kb 128, wbt 2 ms\n"
	  "  layout   partition starts at sector 2048 (1 MiB aligned)\n"
	  "  kernel   6.8.0-51-generic x86_64 · vm.dirty_ratio 20 (≤ 6.22 GiB) · dirty_background_ratio 10\n" },
	{ "sata", 8, 1, "/data.bin",
	  "ext4 (rw,relatime) · /dev/sda1 → sda",
	  "  device   Samsung SSD 830 Series, fw CXM03B1Q, 238 GiB, non-rotational, write cache on, discard\n"
	  "  queue    mq-deadline, nr_requests 64, queue_depth 31, max_sectors_kb 512, read_ahead_kb 128, wbt 2 ms\n"
	  "  layout   partition starts at sector 63 (NOT aligned to 1 MiB or to the 4096-byte physical block)\n"
	  "  kernel   4.19.0-27-amd64 · vm.dirty_ratio 20 (≤ 3.11 GiB) · dirty_background_ratio 10\n" },
	{ "sata", 0, 19, "/run/x",
	  "tmpfs (rw,nosuid,noexec,relatime)",
	  "  device   none: tmpfs has no block device\n"
	  "  kernel   4.19.0-27-amd64 · vm.dirty_ratio 20 (≤ 3.11 GiB) · dirty_background_ratio 10\n" },
	{ "loop", 7, 0, "/mnt/test/big.dat",
	  "ext4 (rw,relatime) · /dev/loop0 → /var/tmp/writestress-loop.img",
	  "  device   loop0 over /var/tmp/writestress-loop.img (direct I/O), 1.00 GiB, rotational, write cache on, discard\n"
	  "  queue    none, nr_requests 128, max_sectors_kb 1280, read_ahead_kb 2560, wbt 2 ms\n"
	  "  kernel   6.12.6-200.fc41.x86_64 x86_64 · vm.dirty_bytes 256 MiB · dirty_background_bytes 128 MiB\n" },
	{ "virtio", 254, 0, "/tmp/big.dat",
	  "ext4 (rw,relatime) · /dev/vda",
	  "  device   vda (virtio_blk), 256 GiB, rotational, write cache on, discard\n"
	  "  queue    mq-deadline, nr_requests 256, max_sectors_kb 4096, read_ahead_kb 8192, wbt 75 ms\n"
	  "  layout   whole disk, no partition\n"
	  "  kernel   6.18.4 x86_64 · vm.dirty_ratio 20 (≤ 4.71 GiB) · dirty_background_ratio 10\n" },
	{ "dm", 253, 0, "/srv/big.dat",
	  "xfs (rw,noatime) · /dev/mapper/data-vol → dm-0 → sdb1, sdc",
	  "  device   dm-0 (data-vol) over 2 disks\n"
	  "           sdb   WDC WD40EFRX-68N32N0, fw 82.00A82, 3.64 TiB, rotational, write cache on, no discard\n"
	  "           sdc   WDC WD40EFRX-68N32N0, fw 82.00A82, 3.64 TiB, rotational, write cache on, no discard\n"
	  "  queue    sdb   mq-deadline, nr_requests 64, queue_depth 32, max_sectors_kb 1280, read_ahead_kb 128, wbt 75 ms\n"
	  "           sdc   mq-deadline, nr_requests 64, queue_depth 32, max_sectors_kb 1280, read_ahead_kb 128, wbt 75 ms\n"
	  "  layout   sdb1  starts at sector 2048 (1 MiB aligned)\n"
	  "           sdc   whole disk, no partition\n"
	  "  kernel   6.1.0-18-amd64 x86_64 · vm.dirty_ratio 40 (≤ 25.0 GiB) · dirty_background_ratio 5\n" },
};

START_TEST(test_header_golden)
{
	char summary[512], *text;

	collect(goldens[_i].tree, goldens[_i].maj, goldens[_i].min,
		goldens[_i].path);
	fingerprint_summary(&fp, summary, sizeof(summary));
	ck_assert_str_eq(summary, goldens[_i].summary);
	text = header_text();
	ck_assert_str_eq(text, goldens[_i].header);
	free(text);
}
END_TEST

/* ---- JSON ---- */

START_TEST(test_json_sata)
{
	struct json_object *j;

	collect("sata", 8, 1, "/data.bin");
	fp.block_size = 4096;	/* what the caller's statvfs would say */
	j = json_parsed();
	assert_jstr(j, "fingerprint.system.kernel", "4.19.0-27-amd64");
	assert_jnull(j, "fingerprint.system.machine");
	assert_jstr(j, "fingerprint.system.cpu",
		    "Intel(R) Core(TM) i7-2600K CPU @ 3.40GHz");
	assert_jint(j, "fingerprint.system.cpus", 8);
	assert_jint(j, "fingerprint.system.mem_total", INT64_C(16314772) * 1024);
	assert_jint(j, "fingerprint.system.vm.dirty_ratio", 20);
	assert_jint(j, "fingerprint.system.vm.dirty_background_bytes", 0);
	assert_jint(j, "fingerprint.system.vm.dirty_writeback_centisecs", 500);
	assert_jstr(j, "fingerprint.filesystem.dev", "8:1");
	assert_jstr(j, "fingerprint.filesystem.type", "ext4");
	assert_jstr(j, "fingerprint.filesystem.mount_point", "/");
	assert_jstr(j, "fingerprint.filesystem.source", "/dev/sda1");
	assert_jstr(j, "fingerprint.filesystem.options", "rw,relatime");
	assert_jstr(j, "fingerprint.filesystem.matched_by", "device");
	assert_jint(j, "fingerprint.filesystem.block_size", 4096);
	assert_jstr(j, "fingerprint.block.kind", "partition");
	assert_jstr(j, "fingerprint.block.device", "sda1");
	ck_assert_int_eq(json_object_array_length(
		tu_jget(j, "fingerprint.block.disks")), 1);
	assert_jstr(j, "fingerprint.block.disks.0.name", "sda");
	assert_jstr(j, "fingerprint.block.disks.0.model", "Samsung SSD 830 Series");
	assert_jstr(j, "fingerprint.block.disks.0.vendor", "ATA");
	assert_jstr(j, "fingerprint.block.disks.0.firmware", "CXM03B1Q");
	assert_jint(j, "fingerprint.block.disks.0.size", INT64_C(256060514304));
	assert_jbool(j, "fingerprint.block.disks.0.rotational", false);
	assert_jint(j, "fingerprint.block.disks.0.physical_block_size", 4096);
	assert_jstr(j, "fingerprint.block.disks.0.queue.scheduler", "mq-deadline");
	assert_jstr(j, "fingerprint.block.disks.0.queue.schedulers.3", "none");
	assert_jint(j, "fingerprint.block.disks.0.queue.queue_depth", 31);
	assert_jstr(j, "fingerprint.block.disks.0.queue.write_cache", "write back");
	assert_jbool(j, "fingerprint.block.disks.0.queue.discard", true);
	assert_jint(j, "fingerprint.block.disks.0.queue.wbt_lat_usec", 2000);
	assert_jstr(j, "fingerprint.block.disks.0.partition.name", "sda1");
	assert_jint(j, "fingerprint.block.disks.0.partition.start_sector", 63);
	assert_jbool(j, "fingerprint.block.disks.0.partition.aligned_1mib", false);
	assert_jbool(j, "fingerprint.block.disks.0.partition.aligned_physical",
		     false);
	assert_jnull(j, "fingerprint.block.disks.0.partition.aligned_optimal");
	ck_assert(!tu_jget(j, "fingerprint.block.disks.0.loop"));
	json_object_put(j);
}
END_TEST

START_TEST(test_json_loop_dm_none)
{
	struct json_object *j;

	collect("loop", 7, 0, "/mnt/test/big.dat");
	j = json_parsed();
	assert_jstr(j, "fingerprint.block.kind", "loop");
	assert_jnull(j, "fingerprint.block.disks.0.partition");
	assert_jstr(j, "fingerprint.block.disks.0.loop.backing_file",
		    "/var/tmp/writestress-loop.img");
	assert_jbool(j, "fingerprint.block.disks.0.loop.dio", true);
	assert_jint(j, "fingerprint.system.vm.dirty_bytes", 268435456);
	json_object_put(j);

	collect("dm", 253, 0, "/mnt/my backup/x");
	j = json_parsed();
	assert_jstr(j, "fingerprint.filesystem.mount_point", "/mnt/my backup");
	assert_jstr(j, "fingerprint.block.kind", "dm");
	assert_jstr(j, "fingerprint.block.dm_name", "data-vol");
	assert_jstr(j, "fingerprint.block.disks.0.name", "sdb");
	assert_jint(j, "fingerprint.block.disks.0.partition.start_sector", 2048);
	assert_jstr(j, "fingerprint.block.disks.1.name", "sdc");
	assert_jnull(j, "fingerprint.block.disks.1.partition");
	assert_jbool(j, "fingerprint.block.disks.1.queue.discard", false);
	json_object_put(j);

	collect("nvme", 0, 77, "/home/u/x");
	j = json_parsed();
	assert_jstr(j, "fingerprint.filesystem.matched_by", "path");
	assert_jnull(j, "fingerprint.filesystem.block_size");
	assert_jnull(j, "fingerprint.block.disks.0.queue.queue_depth");
	json_object_put(j);

	collect("sata", 0, 19, "/run/x");
	j = json_parsed();
	assert_jstr(j, "fingerprint.block.kind", "none");
	assert_jnull(j, "fingerprint.block.device");
	ck_assert_int_eq(json_object_array_length(
		tu_jget(j, "fingerprint.block.disks")), 0);
	json_object_put(j);
}
END_TEST

/* ---- hand-built fingerprints ---- */

/* Nothing known: every string empty, every figure WS_FP_UNKNOWN. */
static void unknown_disk(struct ws_fp_disk *d, const char *name)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->size = d->logical_block = d->physical_block = WS_FP_UNKNOWN;
	d->min_io = d->opt_io = WS_FP_UNKNOWN;
	d->rotational = WS_FP_UNKNOWN;
	d->nr_requests = d->read_ahead_kb = d->max_sectors_kb = WS_FP_UNKNOWN;
	d->queue_depth = d->discard_max_bytes = WS_FP_UNKNOWN;
	d->discard_granularity = d->wbt_lat_usec = WS_FP_UNKNOWN;
	d->part_start = WS_FP_UNKNOWN;
	d->aligned_1mib = d->aligned_physical = d->aligned_optimal = WS_FP_UNKNOWN;
	d->loop_dio = WS_FP_UNKNOWN;
}

static void unknown(void)
{
	memset(&fp, 0, sizeof(fp));
	fp.mem_total = WS_FP_UNKNOWN;
	fp.vm.dirty_ratio = fp.vm.dirty_background_ratio = WS_FP_UNKNOWN;
	fp.vm.dirty_bytes = fp.vm.dirty_background_bytes = WS_FP_UNKNOWN;
	fp.vm.dirty_expire_centisecs = WS_FP_UNKNOWN;
	fp.vm.dirty_writeback_centisecs = WS_FP_UNKNOWN;
	fp.block_size = WS_FP_UNKNOWN;
	fp.kind = WS_FP_NONE;
}

/* A disk: every queue figure known. */
static void plain_disk(void)
{
	struct ws_fp_disk *d = &fp.disk[0];

	unknown();
	snprintf(fp.kernel, sizeof(fp.kernel), "6.1.0");
	snprintf(fp.machine, sizeof(fp.machine), "aarch64");
	fp.vm.dirty_ratio = 10;
	fp.vm.dirty_background_ratio = 5;
	fp.kind = WS_FP_DISK;
	snprintf(fp.bdev, sizeof(fp.bdev), "vdb");
	fp.ndisks = 1;
	unknown_disk(d, "vdb");
	snprintf(d->driver, sizeof(d->driver), "virtio_blk");
	d->size = INT64_C(1) << 30;
	d->rotational = 0;
	snprintf(d->write_cache, sizeof(d->write_cache), "write through");
	d->discard_max_bytes = 0;
	snprintf(d->scheduler, sizeof(d->scheduler), "none");
	d->nr_requests = 256;
	d->wbt_lat_usec = 0;
}

static void nothing_known(void)
{
	unknown();
}

static void no_sysfs(void)
{
	unknown();
	fp.kind = WS_FP_DISK;
	snprintf(fp.bdev, sizeof(fp.bdev), "sdz");
	snprintf(fp.fs_type, sizeof(fp.fs_type), "ext4");
}

static void loop_buffered(void)
{
	plain_disk();
	fp.kind = WS_FP_LOOP;
	fp.disk[0].loop = true;
	snprintf(fp.disk[0].name, sizeof(fp.disk[0].name), "loop3");
	snprintf(fp.disk[0].backing_file, sizeof(fp.disk[0].backing_file), "/img");
	fp.disk[0].loop_dio = 0;
	fp.vm.dirty_ratio = 20;
	fp.mem_total = INT64_C(8) << 30;	/* 20 % of it: 1.6 GiB */
}

static void md_one_disk(void)
{
	plain_disk();
	fp.kind = WS_FP_MD;
	snprintf(fp.bdev, sizeof(fp.bdev), "md0");
	snprintf(fp.holder_name, sizeof(fp.holder_name), "raid1");
	snprintf(fp.disk[0].name, sizeof(fp.disk[0].name), "sda");
	snprintf(fp.disk[0].part, sizeof(fp.disk[0].part), "sda1");
	fp.disk[0].part_start = WS_FP_UNKNOWN;
	fp.vm.dirty_ratio = WS_FP_UNKNOWN;
	fp.vm.dirty_bytes = INT64_C(64) << 20;
	fp.vm.dirty_background_bytes = INT64_C(16) << 20;
}

static const struct {
	const char *what;
	void (*make)(void);
	const char *header;
} hand_headers[] = {
	{ "nothing known", nothing_known,
	  "  device   none: the filesystem has no block device\n"
	  "  kernel   unknown kernel\n" },
	{ "a device /sys says nothing of", no_sysfs,
	  "  device   sdz (nothing more in /sys)\n"
	  "  kernel   unknown kernel\n" },
	{ "a whole disk", plain_disk,
	  "  device   vdb (virtio_blk), 1.00 GiB, non-rotational, write cache off, no discard\n"
	  "  queue    none, nr_requests 256, wbt off\n"
	  "  layout   whole disk, no partition\n"
	  "  kernel   6.1.0 aarch64 · vm.dirty_ratio 10 · dirty_background_ratio 5\n" },
	{ "a buffered loop device: no layout line", loop_buffered,
	  "  device   loop3 over /img (buffered), 1.00 GiB, non-rotational, write cache off, no discard\n"
	  "  queue    none, nr_requests 256, wbt off\n"
	  "  kernel   6.1.0 aarch64 · vm.dirty_ratio 20 (≤ 1.60 GiB) · dirty_background_ratio 5\n" },
	{ "md over one disk, start unknown", md_one_disk,
	  "  device   md0 (raid1) over 1 disk\n"
	  "           sda   sda (virtio_blk), 1.00 GiB, non-rotational, write cache off, no discard\n"
	  "  queue    sda   none, nr_requests 256, wbt off\n"
	  "  layout   sda1  start unknown\n"
	  "  kernel   6.1.0 aarch64 · vm.dirty_bytes 64.0 MiB · dirty_background_bytes 16.0 MiB\n" },
};

START_TEST(test_header_by_hand)
{
	char *text;

	hand_headers[_i].make();
	text = header_text();
	ck_assert_msg(!strcmp(text, hand_headers[_i].header), "%s:\n%s",
		      hand_headers[_i].what, text);
	free(text);
}
END_TEST

/* Which words name the disk: the vendor only when it says something. */
static const struct {
	const char *vendor, *model, *driver, *want;
} identities[] = {
	{ "ATA", "Samsung SSD 830", "", "Samsung SSD 830" },	/* SATA says ATA */
	{ "0x144d", "Samsung 980", "", "Samsung 980" },		/* a PCI id */
	{ "Samsung", "SAMSUNG MZ7LN", "", "SAMSUNG MZ7LN" },	/* said already */
	{ "WDC", "WD40EFRX", "", "WDC WD40EFRX" },
	{ "", "Model X", "sd", "Model X" },
	{ "NVMe", "", "nvme", "vdb (nvme)" },			/* no model */
	{ "", "", "", "vdb" },
};

START_TEST(test_disk_identity)
{
	struct ws_fp_disk *d = &fp.disk[0];
	char want[128], *text;

	unknown();
	fp.kind = WS_FP_DISK;
	fp.ndisks = 1;
	unknown_disk(d, "vdb");
	snprintf(d->vendor, sizeof(d->vendor), "%s", identities[_i].vendor);
	snprintf(d->model, sizeof(d->model), "%s", identities[_i].model);
	snprintf(d->driver, sizeof(d->driver), "%s", identities[_i].driver);
	d->wbt_lat_usec = 75000;
	text = header_text();
	snprintf(want, sizeof(want), "  device   %s\n  queue    wbt 75 ms\n",
		 identities[_i].want);
	ck_assert_msg(!strncmp(text, want, strlen(want)), "want:\n%sgot:\n%s",
		      want, text);
	free(text);
}
END_TEST

/* The first line's summary, by hand. */
static void summary_tmpfs(void)
{
	unknown();
	snprintf(fp.fs_type, sizeof(fp.fs_type), "tmpfs");
	snprintf(fp.mount_opts, sizeof(fp.mount_opts), "rw,nosuid");
	snprintf(fp.mount_source, sizeof(fp.mount_source), "tmpfs");
}

static void summary_none_source(void)
{
	summary_tmpfs();
	snprintf(fp.mount_source, sizeof(fp.mount_source), "none");
}

static void summary_root_alias(void)
{
	plain_disk();
	fp.kind = WS_FP_PARTITION;
	snprintf(fp.fs_type, sizeof(fp.fs_type), "ext4");
	snprintf(fp.mount_opts, sizeof(fp.mount_opts), "rw");
	snprintf(fp.mount_source, sizeof(fp.mount_source), "/dev/root");
	snprintf(fp.bdev, sizeof(fp.bdev), "mmcblk0p2");
	snprintf(fp.disk[0].name, sizeof(fp.disk[0].name), "mmcblk0");
}

static void summary_md(void)
{
	md_one_disk();
	snprintf(fp.fs_type, sizeof(fp.fs_type), "ext4");
	snprintf(fp.mount_opts, sizeof(fp.mount_opts), "rw");
	snprintf(fp.mount_source, sizeof(fp.mount_source), "/dev/md0");
	fp.ndisks = 2;
	fp.disk[1] = fp.disk[0];
	snprintf(fp.disk[1].name, sizeof(fp.disk[1].name), "sdb");
	fp.disk[1].part[0] = '\0';
}

static void summary_dm_by_mapper(void)
{
	summary_md();
	fp.kind = WS_FP_DM;
	snprintf(fp.bdev, sizeof(fp.bdev), "dm-1");
	snprintf(fp.mount_source, sizeof(fp.mount_source), "/dev/mapper/vg-home");
}

static const struct {
	void (*make)(void);
	const char *want;
} summaries[] = {
	{ summary_tmpfs, "tmpfs (rw,nosuid)" },		/* source = type: left out */
	{ summary_none_source, "tmpfs (rw,nosuid)" },
	{ summary_root_alias, "ext4 (rw) · /dev/root → mmcblk0" },
	{ summary_md, "ext4 (rw) · /dev/md0 → sda1, sdb" },	/* no md0 twice */
	{ summary_dm_by_mapper, "ext4 (rw) · /dev/mapper/vg-home → dm-1 → sda1, sdb" },
	{ nothing_known, "" },
};

START_TEST(test_summary_by_hand)
{
	char buf[256];

	summaries[_i].make();
	ck_assert_int_eq(fingerprint_summary(&fp, buf, sizeof(buf)),
			 (int)strlen(summaries[_i].want));
	ck_assert_str_eq(buf, summaries[_i].want);
}
END_TEST

/* Like snprintf: the whole length returned, the text cut and ended. */
START_TEST(test_summary_short_buffer)
{
	char buf[8];

	summary_root_alias();
	ck_assert_int_eq(fingerprint_summary(&fp, buf, sizeof(buf)),
			 (int)strlen("ext4 (rw) · /dev/root → mmcblk0"));
	ck_assert_str_eq(buf, "ext4 (r");
}
END_TEST

/* JSON of hand-built fingerprints: nulls for unknowns, tristates, the
 * scheduler list, the md level, strings that need escaping. */
START_TEST(test_json_by_hand)
{
	struct json_object *j;

	md_one_disk();
	fp.dev_major = 9;
	fp.dev_minor = 0;
	snprintf(fp.disk[0].model, sizeof(fp.disk[0].model), "Disk \"Q\"\\1");
	snprintf(fp.disk[0].schedulers, sizeof(fp.disk[0].schedulers),
		 "none [mq-deadline]  kyber");
	fp.disk[0].discard_max_bytes = WS_FP_UNKNOWN;
	fp.disk[0].aligned_1mib = 1;
	j = json_parsed();
	assert_jstr(j, "fingerprint.filesystem.dev", "9:0");
	assert_jnull(j, "fingerprint.filesystem.matched_by");	/* no mount found */
	assert_jnull(j, "fingerprint.filesystem.type");
	assert_jnull(j, "fingerprint.filesystem.block_size");
	assert_jnull(j, "fingerprint.system.cpus");		/* 0: unknown */
	assert_jnull(j, "fingerprint.system.mem_total");
	assert_jnull(j, "fingerprint.system.vm.dirty_ratio");
	assert_jint(j, "fingerprint.system.vm.dirty_bytes", INT64_C(64) << 20);
	assert_jstr(j, "fingerprint.block.kind", "md");
	assert_jstr(j, "fingerprint.block.md_level", "raid1");
	ck_assert(!tu_jget(j, "fingerprint.block.dm_name"));
	assert_jstr(j, "fingerprint.block.disks.0.model", "Disk \"Q\"\\1");
	assert_jnull(j, "fingerprint.block.disks.0.vendor");
	assert_jnull(j, "fingerprint.block.disks.0.queue.discard");
	assert_jbool(j, "fingerprint.block.disks.0.rotational", false);
	ck_assert_int_eq(json_object_array_length(
		tu_jget(j, "fingerprint.block.disks.0.queue.schedulers")), 3);
	assert_jstr(j, "fingerprint.block.disks.0.queue.schedulers.0", "none");
	assert_jstr(j, "fingerprint.block.disks.0.queue.schedulers.1", "mq-deadline");
	assert_jstr(j, "fingerprint.block.disks.0.queue.schedulers.2", "kyber");
	assert_jstr(j, "fingerprint.block.disks.0.partition.name", "sda1");
	assert_jnull(j, "fingerprint.block.disks.0.partition.start_sector");
	assert_jbool(j, "fingerprint.block.disks.0.partition.aligned_1mib", true);
	assert_jnull(j, "fingerprint.block.disks.0.partition.aligned_optimal");
	ck_assert(!tu_jget(j, "fingerprint.block.disks.0.loop"));
	json_object_put(j);

	/* a loop device: its own object; discard said no; no schedulers */
	loop_buffered();
	fp.disk[0].schedulers[0] = '\0';
	fp.cpus = 2;
	fp.mount_found = true;
	j = json_parsed();
	assert_jstr(j, "fingerprint.filesystem.matched_by", "device");
	assert_jint(j, "fingerprint.system.cpus", 2);
	assert_jstr(j, "fingerprint.block.kind", "loop");
	ck_assert(!tu_jget(j, "fingerprint.block.md_level"));
	assert_jbool(j, "fingerprint.block.disks.0.queue.discard", false);
	assert_jbool(j, "fingerprint.block.disks.0.loop.dio", false);
	assert_jstr(j, "fingerprint.block.disks.0.loop.backing_file", "/img");
	assert_jnull(j, "fingerprint.block.disks.0.partition");
	ck_assert_int_eq(json_object_array_length(
		tu_jget(j, "fingerprint.block.disks.0.queue.schedulers")), 0);
	json_object_put(j);
}
END_TEST

Suite *fingerprint_show_suite(void)
{
	Suite *s = suite_create("fingerprint_show");
	TCase *trees = tcase_create("trees");
	TCase *hand = tcase_create("by-hand");

	tcase_add_loop_test(trees, test_alignment, 0,
			    sizeof(aligns) / sizeof(aligns[0]));
	tcase_add_loop_test(trees, test_header_golden, 0,
			    sizeof(goldens) / sizeof(goldens[0]));
	tcase_add_test(trees, test_json_sata);
	tcase_add_test(trees, test_json_loop_dm_none);
	tcase_add_loop_test(hand, test_header_by_hand, 0, ARRAY_SIZE(hand_headers));
	tcase_add_loop_test(hand, test_disk_identity, 0, ARRAY_SIZE(identities));
	tcase_add_loop_test(hand, test_summary_by_hand, 0, ARRAY_SIZE(summaries));
	tcase_add_test(hand, test_summary_short_buffer);
	tcase_add_test(hand, test_json_by_hand);
	suite_add_tcase(s, trees);
	suite_add_tcase(s, hand);
	return s;
}
