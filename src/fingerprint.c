/* fingerprint.c - the one-time system fingerprint (see fingerprint.h).
 *
 * The device chain follows sysfs as the kernel lays it out
 * (Documentation/ABI/stable/sysfs-block):
 *   st_dev MAJ:MIN -> /sys/dev/block/MAJ:MIN, a symlink into /sys/devices;
 *   a partition directory holds a `partition` file and sits inside its disk;
 *   dm and md devices list what they are built on in `slaves/`;
 *   a loop device names its file in loop/backing_file.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fingerprint.h"
#include "sysfs.h"
#include "units.h"

#define MIB (UINT64_C(1) << 20)

/* ---- small readers: absent means unknown, never an error ---- */

/* dir + "/" + rel into out; false if it does not fit. */
static bool join(char *out, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(out, len, "%s/%s", dir, rel);

	return n >= 0 && (size_t)n < len;
}

static bool read_str(const char *root, const char *dir, const char *rel,
		     char *buf, size_t len)
{
	char p[PATH_MAX];

	buf[0] = '\0';
	return join(p, sizeof(p), dir, rel) &&
	       sysfs_read(root, p, buf, len) > 0;
}

static int64_t read_num(const char *root, const char *dir, const char *rel)
{
	char p[PATH_MAX];
	int64_t v;

	if (!join(p, sizeof(p), dir, rel) || sysfs_read_i64(root, p, &v))
		return WS_FP_UNKNOWN;
	return v;
}

static bool has(const char *root, const char *dir, const char *rel)
{
	char p[PATH_MAX];

	return join(p, sizeof(p), dir, rel) && sysfs_exists(root, p);
}

/* Copy a string, cut to fit; false if it was cut. */
static bool copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	bool fits = n < len;

	if (!fits)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return fits;
}

/* ---- kernel, CPU, memory, sysctls ---- */

static void collect_kernel(const char *root, struct ws_fingerprint *fp)
{
	struct utsname u;
	bool live = !root[0];

	sysfs_read(root, "/proc/sys/kernel/osrelease", fp->kernel,
		   sizeof(fp->kernel));
	sysfs_read(root, "/proc/sys/kernel/arch", fp->machine,
		   sizeof(fp->machine));
	if (live && !uname(&u)) {
		if (!fp->kernel[0])
			copy(fp->kernel, sizeof(fp->kernel), u.release);
		if (!fp->machine[0])
			copy(fp->machine, sizeof(fp->machine), u.machine);
	}
}

/* "key\t: value" -> value, if the line is about key. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t k = strlen(key);
	const char *p = line + k;

	if (strncmp(line, key, k))
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void collect_cpu(const char *root, struct ws_fingerprint *fp)
{
	/* x86 "model name"; other architectures name the CPU differently */
	static const char *const keys[] = { "model name", "cpu model",
					    "Processor", "cpu" };
	char path[PATH_MAX], line[512];
	size_t best = sizeof(keys) / sizeof(keys[0]);
	FILE *f;

	if (sysfs_path(root, "/proc/cpuinfo", path, sizeof(path)))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *v;

		line[strcspn(line, "\n")] = '\0';
		if (cpuinfo_value(line, "processor"))
			fp->cpus++;
		for (size_t i = 0; i < best; i++) {
			v = cpuinfo_value(line, keys[i]);
			if (v && *v) {
				copy(fp->cpu, sizeof(fp->cpu), v);
				best = i;
				break;
			}
		}
	}
	fclose(f);
}

static void collect_memory(const char *root, struct ws_fingerprint *fp)
{
	char buf[4096];
	const char *p;

	if (sysfs_read(root, "/proc/meminfo", buf, sizeof(buf)) <= 0)
		return;
	p = strstr(buf, "MemTotal:");
	if (p && (p == buf || p[-1] == '\n'))
		fp->mem_total = (int64_t)strtoll(p + 9, NULL, 10) * 1024;
}

static void collect_vm(const char *root, struct ws_fingerprint *fp)
{
	const char *dir = "/proc/sys/vm";

	fp->vm.dirty_ratio = read_num(root, dir, "dirty_ratio");
	fp->vm.dirty_background_ratio =
		read_num(root, dir, "dirty_background_ratio");
	fp->vm.dirty_bytes = read_num(root, dir, "dirty_bytes");
	fp->vm.dirty_background_bytes =
		read_num(root, dir, "dirty_background_bytes");
	fp->vm.dirty_expire_centisecs =
		read_num(root, dir, "dirty_expire_centisecs");
	fp->vm.dirty_writeback_centisecs =
		read_num(root, dir, "dirty_writeback_centisecs");
}

/* ---- /proc/self/mountinfo ----
 * 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * (1)(2)(3)   (4)   (5)      (6)      (7...)  (8) (9)    (10)        (11)
 * Optional fields (7) end at the "-" separator.  Spaces, tabs, newlines
 * and backslashes in paths are escaped as \ooo octal. */

struct mount_line {
	unsigned major, minor;
	char *point, *opts, *type, *source, *super;
};

static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Split one line in place; false if it is malformed. */
static bool parse_mount_line(char *line, struct mount_line *m)
{
	char *field[32], *save = NULL, *tok;
	int n = 0, dash = -1;

	for (tok = strtok_r(line, " \n", &save); tok && n < 32;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (dash < 0 && n >= 6 && !strcmp(tok, "-"))
			dash = n;
		field[n++] = tok;
	}
	if (dash < 0 || n < dash + 3 ||
	    sscanf(field[2], "%u:%u", &m->major, &m->minor) != 2)
		return false;
	m->point = field[4];
	m->opts = field[5];
	m->type = field[dash + 1];
	m->source = field[dash + 2];
	m->super = n > dash + 3 ? field[dash + 3] : "";
	unescape(m->point);
	unescape(m->source);
	return true;
}

/* How many characters of path the mount point covers, or -1 if path is
 * not under it ("/data" covers "/data/x" but not "/database"). */
static int prefix_len(const char *point, const char *path)
{
	size_t n = strlen(point);

	if (!path)
		return -1;
	if (!strcmp(point, "/"))
		return 1;
	if (strncmp(point, path, n) || (path[n] && path[n] != '/'))
		return -1;
	return (int)n;
}

static void take_mount(struct ws_fingerprint *fp, const struct mount_line *m)
{
	fp->mount_found = true;
	copy(fp->fs_type, sizeof(fp->fs_type), m->type);
	copy(fp->mount_point, sizeof(fp->mount_point), m->point);
	copy(fp->mount_source, sizeof(fp->mount_source), m->source);
	copy(fp->mount_opts, sizeof(fp->mount_opts), m->opts);
	copy(fp->super_opts, sizeof(fp->super_opts), m->super);
}

/* One pass over mountinfo: by device, the entry with the file's device
 * whose mount point covers most of the path (bind mounts list a device more
 * than once; among equals the later, shadowing one); by path, the entry
 * covering most of the path. */
static bool scan_mounts(FILE *f, const char *path, bool by_dev,
			struct ws_fingerprint *fp)
{
	char line[4096];
	struct mount_line m;
	int best = -2;

	while (fgets(line, sizeof(line), f)) {
		int plen;

		if (!parse_mount_line(line, &m))
			continue;
		plen = prefix_len(m.point, path);
		if (by_dev ? (m.major != fp->dev_major ||
			      m.minor != fp->dev_minor || plen < best)
			   : (plen < 0 || plen < best))
			continue;
		best = plen;
		take_mount(fp, &m);
	}
	return best > -2;
}

/* The mount of the file, by device; without a device match (btrfs
 * subvolumes and overlayfs hand out anonymous devices that no entry
 * shows), by the longest mount point covering the path. */
static void collect_mount(const char *root, const char *path,
			  struct ws_fingerprint *fp)
{
	char file[PATH_MAX];
	FILE *f;

	if (sysfs_path(root, "/proc/self/mountinfo", file, sizeof(file)))
		return;
	f = fopen(file, "re");
	if (!f)
		return;
	if (!scan_mounts(f, path, true, fp) && path) {
		rewind(f);
		fp->mount_by_path = scan_mounts(f, path, false, fp);
	}
	fclose(f);
}

/* ---- block devices ---- */

static void parse_scheduler(struct ws_fp_disk *d)
{
	const char *open = strchr(d->schedulers, '[');
	const char *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(d->scheduler, sizeof(d->scheduler), "%.*s",
			 (int)(close - open - 1), open + 1);
	else if (d->schedulers[0] && !strchr(d->schedulers, ' '))
		copy(d->scheduler, sizeof(d->scheduler), d->schedulers);
}

/* start (512-byte sectors) aligned to `unit` bytes? */
static int aligned(int64_t start, int64_t unit)
{
	if (start < 0 || unit <= 0)
		return WS_FP_UNKNOWN;
	return (uint64_t)start * 512 % (uint64_t)unit == 0;
}

void fingerprint_alignment(struct ws_fp_disk *d)
{
	d->aligned_1mib = aligned(d->part_start, (int64_t)MIB);
	d->aligned_physical = aligned(d->part_start, d->physical_block);
	d->aligned_optimal = aligned(d->part_start, d->opt_io);
}

static void collect_identity(const char *root, struct ws_fp_disk *d)
{
	char p[PATH_MAX], link[PATH_MAX];
	const char *dir = d->sysdir;

	read_str(root, dir, "device/model", d->model, sizeof(d->model));
	read_str(root, dir, "device/vendor", d->vendor, sizeof(d->vendor));
	if (!read_str(root, dir, "device/rev", d->firmware,
		      sizeof(d->firmware)))
		read_str(root, dir, "device/firmware_rev", d->firmware,
			 sizeof(d->firmware));
	/* sd and virtio_blk bind the device itself; nvme binds its parent */
	if ((join(p, sizeof(p), dir, "device/driver") &&
	     sysfs_readlink(root, p, link, sizeof(link)) > 0) ||
	    (join(p, sizeof(p), dir, "device/device/driver") &&
	     sysfs_readlink(root, p, link, sizeof(link)) > 0))
		copy(d->driver, sizeof(d->driver), sysfs_basename(link));
}

static void collect_queue(const char *root, struct ws_fp_disk *d)
{
	char q[PATH_MAX];

	if (!join(q, sizeof(q), d->sysdir, "queue"))
		return;
	d->rotational = (int)read_num(root, q, "rotational");
	d->logical_block = read_num(root, q, "logical_block_size");
	d->physical_block = read_num(root, q, "physical_block_size");
	d->min_io = read_num(root, q, "minimum_io_size");
	d->opt_io = read_num(root, q, "optimal_io_size");
	read_str(root, q, "scheduler", d->schedulers, sizeof(d->schedulers));
	parse_scheduler(d);
	d->nr_requests = read_num(root, q, "nr_requests");
	d->read_ahead_kb = read_num(root, q, "read_ahead_kb");
	d->max_sectors_kb = read_num(root, q, "max_sectors_kb");
	read_str(root, q, "write_cache", d->write_cache,
		 sizeof(d->write_cache));
	d->discard_max_bytes = read_num(root, q, "discard_max_bytes");
	d->discard_granularity = read_num(root, q, "discard_granularity");
	d->wbt_lat_usec = read_num(root, q, "wbt_lat_usec");
}

/* A whole disk at sysdir, used through partition `part` (NULL: whole). */
static void add_disk(const char *root, struct ws_fingerprint *fp,
		     const char *sysdir, const char *part, int64_t start)
{
	struct ws_fp_disk *d;
	int64_t sectors;

	if (fp->ndisks >= WS_FP_MAX_DISKS)
		return;
	d = &fp->disk[fp->ndisks];
	if (!copy(d->sysdir, sizeof(d->sysdir), sysdir))
		return;		/* a cut path would read the wrong files */
	fp->ndisks++;
	copy(d->name, sizeof(d->name), sysfs_basename(sysdir));
	collect_identity(root, d);
	sectors = read_num(root, sysdir, "size");
	d->size = sectors < 0 ? WS_FP_UNKNOWN : sectors * 512;
	d->queue_depth = read_num(root, sysdir, "device/queue_depth");
	collect_queue(root, d);
	if (part) {
		copy(d->part, sizeof(d->part), part);
		d->part_start = start;
		fingerprint_alignment(d);
	}
	if (has(root, sysdir, "loop")) {
		d->loop = true;
		read_str(root, sysdir, "loop/backing_file", d->backing_file,
			 sizeof(d->backing_file));
		d->loop_dio = (int)read_num(root, sysdir, "loop/dio");
	}
}

/* What dir stands on: itself (a disk), its disk (a partition), or its
 * slaves (dm, md), following stacked devices `depth` more levels. */
static void add_underlying(const char *root, struct ws_fingerprint *fp,
			   const char *dir, int depth)
{
	char slaves[WS_FP_MAX_DISKS * 2][SYSFS_NAME_MAX];
	char p[PATH_MAX], sub[PATH_MAX];
	int n = -1;

	if (has(root, dir, "partition")) {
		if (!sysfs_dirname(dir, sub, sizeof(sub)))
			add_disk(root, fp, sub, sysfs_basename(dir),
				 read_num(root, dir, "start"));
		return;
	}
	if (depth > 0 && join(p, sizeof(p), dir, "slaves"))
		n = sysfs_list(root, p, slaves, WS_FP_MAX_DISKS * 2);
	if (n <= 0) {
		add_disk(root, fp, dir, NULL, WS_FP_UNKNOWN);
		return;
	}
	for (int i = 0; i < n; i++) {
		char link[PATH_MAX];

		if (join(link, sizeof(link), p, slaves[i]) &&
		    !sysfs_resolve(root, link, sub, sizeof(sub)))
			add_underlying(root, fp, sub, depth - 1);
	}
}

/* The sysfs directory of a block device named by a mount source:
 * "/dev/sda2" through /sys/class/block/sda2, "/dev/mapper/NAME" by the
 * dm/name of each dm device, and on the live system by stat()'s rdev. */
static bool dir_of_source(const char *root, const char *source, char *out,
			  size_t len)
{
	char names[64][SYSFS_NAME_MAX], p[PATH_MAX], dm[128];
	struct stat st;
	int n;

	if (strncmp(source, "/dev/", 5))
		return false;
	if (strncmp(source, "/dev/mapper/", 12) &&
	    join(p, sizeof(p), "/sys/class/block", sysfs_basename(source)) &&
	    sysfs_exists(root, p))
		return !sysfs_resolve(root, p, out, len);
	n = sysfs_list(root, "/sys/block", names, 64);
	for (int i = 0; i < n; i++) {
		if (!join(p, sizeof(p), "/sys/block", names[i]) ||
		    !read_str(root, p, "dm/name", dm, sizeof(dm)) ||
		    strcmp(dm, sysfs_basename(source)))
			continue;
		return !sysfs_resolve(root, p, out, len);
	}
	if (root[0] || stat(source, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	return !sysfs_resolve(root, p, out, len);
}

static void collect_block(const char *root, struct ws_fingerprint *fp)
{
	char p[PATH_MAX], dir[PATH_MAX];
	bool found = false;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", fp->dev_major,
		 fp->dev_minor);
	if (fp->dev_major && sysfs_exists(root, p))
		found = !sysfs_resolve(root, p, dir, sizeof(dir));
	if (!found && fp->mount_found)
		found = dir_of_source(root, fp->mount_source, dir, sizeof(dir));
	if (!found || !copy(fp->bdev_sysdir, sizeof(fp->bdev_sysdir), dir))
		return;
	copy(fp->bdev, sizeof(fp->bdev), sysfs_basename(dir));
	if (read_str(root, dir, "dm/name", fp->holder_name,
		     sizeof(fp->holder_name)))
		fp->kind = WS_FP_DM;
	else if (read_str(root, dir, "md/level", fp->holder_name,
			  sizeof(fp->holder_name)))
		fp->kind = WS_FP_MD;
	else if (has(root, dir, "partition"))
		fp->kind = WS_FP_PARTITION;
	else if (has(root, dir, "loop"))
		fp->kind = WS_FP_LOOP;
	else
		fp->kind = WS_FP_DISK;
	/* one level of stacking below the top device, as dm over md or
	 * LUKS over LVM: deeper trees are rare and the header would not
	 * fit them anyway */
	add_underlying(root, fp, dir, 2);
}

static void init(struct ws_fingerprint *fp)
{
	memset(fp, 0, sizeof(*fp));
	fp->mem_total = WS_FP_UNKNOWN;
	fp->block_size = WS_FP_UNKNOWN;
	for (int i = 0; i < WS_FP_MAX_DISKS; i++) {
		struct ws_fp_disk *d = &fp->disk[i];

		d->size = d->rotational = WS_FP_UNKNOWN;
		d->part_start = WS_FP_UNKNOWN;
		d->aligned_1mib = d->aligned_physical = WS_FP_UNKNOWN;
		d->aligned_optimal = d->loop_dio = WS_FP_UNKNOWN;
	}
}

int fingerprint_collect(const char *root, dev_t st_dev, const char *path,
			struct ws_fingerprint *fp)
{
	char abs[PATH_MAX];
	struct statvfs sv;

	if (!root)
		root = "";
	init(fp);
	fp->dev_major = major(st_dev);
	fp->dev_minor = minor(st_dev);
	/* mount points are matched as the kernel spells them: no symlinks,
	 * no "..", absolute */
	if (path && !root[0] && realpath(path, abs))
		path = abs;
	collect_kernel(root, fp);
	collect_cpu(root, fp);
	collect_memory(root, fp);
	collect_vm(root, fp);
	collect_mount(root, path, fp);
	collect_block(root, fp);
	if (!root[0] && path && !statvfs(path, &sv))
		fp->block_size = (int64_t)sv.f_bsize;
	if (!fp->kernel[0] && !fp->mount_found && fp->kind == WS_FP_NONE &&
	    fp->mem_total < 0 && !fp->cpus)
		return -ENOENT;
	return 0;
}

uint64_t fingerprint_capacity(const struct ws_fingerprint *fp)
{
	if (fp->kind == WS_FP_NONE || fp->ndisks != 1 || fp->disk[0].size <= 0)
		return 0;
	return (uint64_t)fp->disk[0].size;
}

const char *fingerprint_kind_name(enum ws_fp_kind kind)
{
	static const char *const names[] = {
		[WS_FP_NONE] = "none", [WS_FP_DISK] = "disk",
		[WS_FP_PARTITION] = "partition", [WS_FP_LOOP] = "loop",
		[WS_FP_DM] = "dm", [WS_FP_MD] = "md",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ?
		names[kind] : "none";
}

int fingerprint_queue_path(const struct ws_fingerprint *fp, char *out,
			   size_t len)
{
	if (fp->ndisks < 1 || !fp->disk[0].sysdir[0])
		return -ENOENT;
	return join(out, len, fp->disk[0].sysdir, "queue") ? 0 : -ENAMETOOLONG;
}

/* ---- text ---- */

/* A growing line: pieces joined by ", " (or another separator). */
struct line {
	char buf[512];
	size_t n;
	const char *sep;
};

static void add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (l->n >= sizeof(l->buf) - 1)
		return;
	if (l->n) {
		k = snprintf(l->buf + l->n, sizeof(l->buf) - l->n, "%s",
			     l->sep ? l->sep : ", ");
		l->n = k < 0 ? l->n : l->n + (size_t)k;
		if (l->n >= sizeof(l->buf))
			l->n = sizeof(l->buf) - 1;
	}
	va_start(ap, fmt);
	k = vsnprintf(l->buf + l->n, sizeof(l->buf) - l->n, fmt, ap);
	va_end(ap);
	l->n = k < 0 ? l->n : l->n + (size_t)k;
	if (l->n >= sizeof(l->buf))
		l->n = sizeof(l->buf) - 1;
}

/* Is the vendor worth printing?  SATA disks say "ATA", virtio a PCI id. */
static bool vendor_says_something(const struct ws_fp_disk *d)
{
	return d->vendor[0] && strcmp(d->vendor, "ATA") &&
	       strncmp(d->vendor, "0x", 2) &&
	       strncasecmp(d->model, d->vendor, strlen(d->vendor));
}

static void describe_disk(const struct ws_fp_disk *d, struct line *l)
{
	char size[32];

	if (d->loop && d->backing_file[0])
		add(l, "%s over %s%s", d->name, d->backing_file,
		    d->loop_dio == 1 ? " (direct I/O)" :
		    d->loop_dio == 0 ? " (buffered)" : "");
	else if (d->model[0] && vendor_says_something(d))
		add(l, "%s %s", d->vendor, d->model);
	else if (d->model[0])
		add(l, "%s", d->model);
	else if (d->driver[0])
		add(l, "%s (%s)", d->name, d->driver);
	else
		add(l, "%s", d->name);
	if (d->firmware[0])
		add(l, "fw %s", d->firmware);
	if (d->size >= 0)
		add(l, "%s", units_format_size(size, sizeof(size),
					       (uint64_t)d->size));
	if (d->rotational >= 0)
		add(l, "%s", d->rotational ? "rotational" : "non-rotational");
	if (!strcmp(d->write_cache, "write back"))
		add(l, "write cache on");
	else if (!strcmp(d->write_cache, "write through"))
		add(l, "write cache off");
	if (d->discard_max_bytes > 0)
		add(l, "discard");
	else if (d->discard_max_bytes == 0)
		add(l, "no discard");
}

static void describe_queue(const struct ws_fp_disk *d, struct line *l)
{
	if (d->scheduler[0])
		add(l, "%s", d->scheduler);
	if (d->nr_requests >= 0)
		add(l, "nr_requests %lld", (long long)d->nr_requests);
	if (d->queue_depth >= 0)
		add(l, "queue_depth %lld", (long long)d->queue_depth);
	if (d->max_sectors_kb >= 0)
		add(l, "max_sectors_kb %lld", (long long)d->max_sectors_kb);
	if (d->read_ahead_kb >= 0)
		add(l, "read_ahead_kb %lld", (long long)d->read_ahead_kb);
	if (d->wbt_lat_usec == 0)
		add(l, "wbt off");
	else if (d->wbt_lat_usec > 0)
		add(l, "wbt %g ms", (double)d->wbt_lat_usec / 1000);
}

/* "(1 MiB aligned)", "(NOT aligned to 1 MiB or to the 4096-byte physical
 * block)", ... */
static void describe_alignment(const struct ws_fp_disk *d, struct line *l)
{
	char phys[48] = "", opt[64] = "";
	const char *bad[3];
	int nbad = 0;

	if (d->physical_block > 0)
		snprintf(phys, sizeof(phys), "the %lld-byte physical block",
			 (long long)d->physical_block);
	if (d->opt_io > 0)
		snprintf(opt, sizeof(opt), "the %lld-byte optimal I/O size",
			 (long long)d->opt_io);
	if (d->aligned_1mib == 0)
		bad[nbad++] = "1 MiB";
	if (d->aligned_physical == 0)
		bad[nbad++] = phys;
	if (d->aligned_optimal == 0)
		bad[nbad++] = opt;

	if (d->part_start < 0) {
		add(l, "start unknown");
		return;
	}
	add(l, "starts at sector %lld (", (long long)d->part_start);
	l->sep = "";
	if (d->aligned_1mib == 1)
		add(l, "1 MiB aligned%s", nbad ? ", " : "");
	if (nbad) {
		add(l, "NOT aligned to %s", bad[0]);
		for (int i = 1; i < nbad; i++)
			add(l, "%s%s", i == nbad - 1 ? " or to " : ", to ",
			    bad[i]);
		if (d->aligned_1mib == 0 && d->aligned_physical == 1)
			add(l, "; aligned to %s", phys);
	}
	add(l, ")");
}

static void label(FILE *out, const char *name, int i)
{
	if (i == 0)
		fprintf(out, "  %-8s ", name);
	else
		fputs("           ", out);
}

/* Width of the name column on stacked devices (partition names for the
 * layout lines are longer than disk names). */
static int name_width(const struct ws_fingerprint *fp)
{
	size_t w = 0;

	for (int i = 0; i < fp->ndisks; i++) {
		const struct ws_fp_disk *d = &fp->disk[i];
		size_t n = strlen(d->part[0] ? d->part : d->name);

		if (n > w)
			w = n;
	}
	return (int)w;
}

/* One line per disk; on stacked devices each begins with the disk name. */
static void disk_lines(const struct ws_fingerprint *fp, FILE *out,
		       const char *name, int first,
		       void (*describe)(const struct ws_fp_disk *,
					struct line *))
{
	bool stacked = fp->kind == WS_FP_DM || fp->kind == WS_FP_MD;

	for (int i = 0; i < fp->ndisks; i++) {
		struct line l = { .n = 0 };

		l.buf[0] = '\0';
		describe(&fp->disk[i], &l);
		label(out, name, i + first);
		if (stacked)
			fprintf(out, "%-*s  ", name_width(fp), fp->disk[i].name);
		fprintf(out, "%s\n", l.buf);
	}
}

static void layout_of(const struct ws_fp_disk *d, struct line *l)
{
	if (d->part[0])
		describe_alignment(d, l);
	else
		add(l, "whole disk, no partition");
}

static void layout_lines(const struct ws_fingerprint *fp, FILE *out)
{
	bool stacked = fp->kind == WS_FP_DM || fp->kind == WS_FP_MD;

	if (fp->kind == WS_FP_LOOP)
		return;		/* alignment is the backing file's business */
	for (int i = 0; i < fp->ndisks; i++) {
		const struct ws_fp_disk *d = &fp->disk[i];
		struct line l = { .n = 0 };

		l.buf[0] = '\0';
		layout_of(d, &l);
		label(out, "layout", i);
		if (stacked)
			fprintf(out, "%-*s  %s\n", name_width(fp),
				d->part[0] ? d->part : d->name, l.buf);
		else
			fprintf(out, "%s%s\n", d->part[0] ? "partition " : "",
				l.buf);
	}
}

static void kernel_line(const struct ws_fingerprint *fp, FILE *out)
{
	struct line l = { .n = 0, .sep = " · " };
	char size[32];

	l.buf[0] = '\0';
	add(&l, "%s%s%s", fp->kernel[0] ? fp->kernel : "unknown kernel",
	    fp->machine[0] ? " " : "", fp->machine);
	if (fp->vm.dirty_bytes > 0) {
		add(&l, "vm.dirty_bytes %s", units_format_size(size,
		    sizeof(size), (uint64_t)fp->vm.dirty_bytes));
	} else if (fp->vm.dirty_ratio >= 0) {
		add(&l, "vm.dirty_ratio %lld", (long long)fp->vm.dirty_ratio);
		/* the limit applies to dirtyable memory, less than all RAM */
		if (fp->mem_total > 0) {
			l.sep = " ";
			add(&l, "(≤ %s)", units_format_size(size, sizeof(size),
			    (uint64_t)(fp->mem_total / 100 *
				       fp->vm.dirty_ratio)));
			l.sep = " · ";
		}
	}
	if (fp->vm.dirty_background_bytes > 0)
		add(&l, "dirty_background_bytes %s", units_format_size(size,
		    sizeof(size), (uint64_t)fp->vm.dirty_background_bytes));
	else if (fp->vm.dirty_background_ratio >= 0)
		add(&l, "dirty_background_ratio %lld",
		    (long long)fp->vm.dirty_background_ratio);
	fprintf(out, "  %-8s %s\n", "kernel", l.buf);
}

void fingerprint_header(const struct ws_fingerprint *fp, FILE *out)
{
	bool stacked = fp->kind == WS_FP_DM || fp->kind == WS_FP_MD;

	if (fp->kind == WS_FP_NONE) {
		fprintf(out, "  %-8s none: %s has no block device\n", "device",
			fp->fs_type[0] ? fp->fs_type : "the filesystem");
	} else if (!fp->ndisks) {
		fprintf(out, "  %-8s %s (nothing more in /sys)\n", "device",
			fp->bdev);
	} else {
		if (stacked)
			fprintf(out, "  %-8s %s%s%s%s over %d disk%s\n", "device",
				fp->bdev, fp->holder_name[0] ? " (" : "",
				fp->holder_name,
				fp->holder_name[0] ? ")" : "", fp->ndisks,
				fp->ndisks == 1 ? "" : "s");
		disk_lines(fp, out, "device", stacked, describe_disk);
		disk_lines(fp, out, "queue", 0, describe_queue);
		layout_lines(fp, out);
	}
	kernel_line(fp, out);
}

int fingerprint_summary(const struct ws_fingerprint *fp, char *buf,
			size_t len)
{
	struct line l = { .n = 0, .sep = " · " };
	const char *src = fp->mount_source;
	const struct ws_fp_disk *d0 = &fp->disk[0];

	l.buf[0] = '\0';
	if (fp->fs_type[0])
		add(&l, "%s (%s)", fp->fs_type, fp->mount_opts);
	if (src[0] && strcmp(src, fp->fs_type) && strcmp(src, "none"))
		add(&l, "%s", src);
	else if (fp->bdev[0])
		add(&l, "/dev/%s", fp->bdev);
	l.sep = " → ";
	if ((fp->kind == WS_FP_DM || fp->kind == WS_FP_MD) &&
	    strcmp(sysfs_basename(src), fp->bdev))
		add(&l, "%s", fp->bdev);
	if (fp->kind == WS_FP_LOOP && d0->backing_file[0]) {
		add(&l, "%s", d0->backing_file);
	} else if (fp->kind == WS_FP_DM || fp->kind == WS_FP_MD) {
		for (int i = 0; i < fp->ndisks; i++) {
			add(&l, "%s", fp->disk[i].part[0] ? fp->disk[i].part :
				      fp->disk[i].name);
			l.sep = ", ";
		}
	} else if (fp->ndisks && strcmp(sysfs_basename(src), d0->name)) {
		add(&l, "%s", d0->name);
	}
	return snprintf(buf, len, "%s", l.buf);
}

/* ---- JSON ---- */

static void json_num(struct jsonw *w, const char *key, int64_t v)
{
	if (v < 0)
		jsonw_null(w, key);
	else
		jsonw_i64(w, key, v);
}

static void json_str(struct jsonw *w, const char *key, const char *s)
{
	jsonw_str(w, key, s[0] ? s : NULL);
}

static void json_tri(struct jsonw *w, const char *key, int v)
{
	if (v < 0)
		jsonw_null(w, key);
	else
		jsonw_bool(w, key, v);
}

static void json_schedulers(struct jsonw *w, const char *list)
{
	char words[sizeof(((struct ws_fp_disk *)0)->schedulers)], *save = NULL;

	jsonw_array(w, "schedulers");
	copy(words, sizeof(words), list);
	for (char *t = strtok_r(words, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(t);

		if (t[0] == '[' && n > 1 && t[n - 1] == ']') {
			t[n - 1] = '\0';
			t++;
		}
		jsonw_str(w, NULL, t);
	}
	jsonw_end(w);
}

static void json_disk(struct jsonw *w, const struct ws_fp_disk *d)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "name", d->name);
	json_str(w, "sysfs", d->sysdir);
	json_str(w, "model", d->model);
	json_str(w, "vendor", d->vendor);
	json_str(w, "firmware", d->firmware);
	json_str(w, "driver", d->driver);
	json_num(w, "size", d->size);
	json_tri(w, "rotational", d->rotational);
	json_num(w, "logical_block_size", d->logical_block);
	json_num(w, "physical_block_size", d->physical_block);
	json_num(w, "minimum_io_size", d->min_io);
	json_num(w, "optimal_io_size", d->opt_io);

	jsonw_object(w, "queue");
	json_str(w, "scheduler", d->scheduler);
	json_schedulers(w, d->schedulers);
	json_num(w, "nr_requests", d->nr_requests);
	json_num(w, "read_ahead_kb", d->read_ahead_kb);
	json_num(w, "max_sectors_kb", d->max_sectors_kb);
	json_num(w, "queue_depth", d->queue_depth);
	json_str(w, "write_cache", d->write_cache);
	json_tri(w, "discard", d->discard_max_bytes < 0 ? -1 :
		 d->discard_max_bytes > 0);
	json_num(w, "discard_max_bytes", d->discard_max_bytes);
	json_num(w, "discard_granularity", d->discard_granularity);
	json_num(w, "wbt_lat_usec", d->wbt_lat_usec);
	jsonw_end(w);

	if (d->part[0]) {
		jsonw_object(w, "partition");
		jsonw_str(w, "name", d->part);
		json_num(w, "start_sector", d->part_start);
		json_tri(w, "aligned_1mib", d->aligned_1mib);
		json_tri(w, "aligned_physical", d->aligned_physical);
		json_tri(w, "aligned_optimal", d->aligned_optimal);
		jsonw_end(w);
	} else {
		jsonw_null(w, "partition");
	}
	if (d->loop) {
		jsonw_object(w, "loop");
		json_str(w, "backing_file", d->backing_file);
		json_tri(w, "dio", d->loop_dio);
		jsonw_end(w);
	}
	jsonw_end(w);
}

void fingerprint_json(const struct ws_fingerprint *fp, struct jsonw *w)
{
	char dev[32];

	jsonw_object(w, "fingerprint");

	jsonw_object(w, "system");
	json_str(w, "kernel", fp->kernel);
	json_str(w, "machine", fp->machine);
	json_str(w, "cpu", fp->cpu);
	json_num(w, "cpus", fp->cpus ? fp->cpus : -1);
	json_num(w, "mem_total", fp->mem_total);
	jsonw_object(w, "vm");
	json_num(w, "dirty_ratio", fp->vm.dirty_ratio);
	json_num(w, "dirty_background_ratio", fp->vm.dirty_background_ratio);
	json_num(w, "dirty_bytes", fp->vm.dirty_bytes);
	json_num(w, "dirty_background_bytes", fp->vm.dirty_background_bytes);
	json_num(w, "dirty_expire_centisecs", fp->vm.dirty_expire_centisecs);
	json_num(w, "dirty_writeback_centisecs",
		 fp->vm.dirty_writeback_centisecs);
	jsonw_end(w);
	jsonw_end(w);

	jsonw_object(w, "filesystem");
	snprintf(dev, sizeof(dev), "%u:%u", fp->dev_major, fp->dev_minor);
	jsonw_str(w, "dev", dev);
	json_str(w, "type", fp->fs_type);
	json_str(w, "mount_point", fp->mount_point);
	json_str(w, "source", fp->mount_source);
	json_str(w, "options", fp->mount_opts);
	json_str(w, "super_options", fp->super_opts);
	jsonw_str(w, "matched_by", !fp->mount_found ? NULL :
		  fp->mount_by_path ? "path" : "device");
	json_num(w, "block_size", fp->block_size);
	jsonw_end(w);

	jsonw_object(w, "block");
	jsonw_str(w, "kind", fingerprint_kind_name(fp->kind));
	json_str(w, "device", fp->bdev);
	json_str(w, "sysfs", fp->bdev_sysdir);
	if (fp->kind == WS_FP_DM)
		json_str(w, "dm_name", fp->holder_name);
	if (fp->kind == WS_FP_MD)
		json_str(w, "md_level", fp->holder_name);
	jsonw_array(w, "disks");
	for (int i = 0; i < fp->ndisks; i++)
		json_disk(w, &fp->disk[i]);
	jsonw_end(w);
	jsonw_end(w);

	jsonw_end(w);
}
