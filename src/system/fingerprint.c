/* fingerprint.c - the one-time system fingerprint.  The device chain
 * follows Documentation/ABI/stable/sysfs-block: /sys/dev/block/MAJ:MIN;
 * a partition sits inside its disk; dm and md list theirs in slaves/.
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

#include "lib/c.h"
#include "system/fingerprint.h"
#include "system/sysfs.h"
#include "lib/units.h"

#define MIB (UINT64_C(1) << 20)

/* ---- small readers: absent means unknown, never an error ---- */

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

/* False if it was cut. */
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

/* "key\t: value" -> value */
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

/* ---- /proc/self/mountinfo (proc(5)): optional fields end at "-";
 * paths escape spaces, tabs, newlines and backslashes as \ooo. */

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

/* -1 if path is not under point ("/data" does not cover "/database"). */
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

/* Bind mounts list a device more than once: the one covering most of the
 * path wins, among equals the later, shadowing one. */
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

/* By path when no entry has the device: btrfs subvolumes and overlayfs
 * hand out anonymous devices. */
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

/* start in 512-byte sectors, unit in bytes */
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
		copy(d->driver, sizeof(d->driver), ws_basename(link));
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

/* part: the partition it is used through, NULL for the whole disk */
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
	copy(d->name, sizeof(d->name), ws_basename(sysdir));
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

/* Itself (a disk), its disk (a partition), or its slaves (dm, md). */
static void add_underlying(const char *root, struct ws_fingerprint *fp,
			   const char *dir, int depth)
{
	char slaves[WS_FP_MAX_DISKS * 2][SYSFS_NAME_MAX];
	char p[PATH_MAX], sub[PATH_MAX];
	int n = -1;

	if (has(root, dir, "partition")) {
		if (!ws_dirname(dir, sub, sizeof(sub)))
			add_disk(root, fp, sub, ws_basename(dir),
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

/* "/dev/mapper/NAME" is found by each dm device's dm/name. */
static bool dir_of_source(const char *root, const char *source, char *out,
			  size_t len)
{
	char names[64][SYSFS_NAME_MAX], p[PATH_MAX], dm[128];
	struct stat st;
	int n;

	if (strncmp(source, "/dev/", 5))
		return false;
	if (strncmp(source, "/dev/mapper/", 12) &&
	    join(p, sizeof(p), "/sys/class/block", ws_basename(source)) &&
	    sysfs_exists(root, p))
		return !sysfs_resolve(root, p, out, len);
	n = sysfs_list(root, "/sys/block", names, 64);
	for (int i = 0; i < n; i++) {
		if (!join(p, sizeof(p), "/sys/block", names[i]) ||
		    !read_str(root, p, "dm/name", dm, sizeof(dm)) ||
		    strcmp(dm, ws_basename(source)))
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
	copy(fp->bdev, sizeof(fp->bdev), ws_basename(dir));
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
	/* dm over md, LUKS over LVM; deeper trees would not fit the header */
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
	/* mount points are matched as the kernel spells them */
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

int fingerprint_queue_path(const struct ws_fingerprint *fp, char *out,
			   size_t len)
{
	if (fp->ndisks < 1 || !fp->disk[0].sysdir[0])
		return -ENOENT;
	return join(out, len, fp->disk[0].sysdir, "queue") ? 0 : -ENAMETOOLONG;
}
