/* fingerprint_facts.h - what the fingerprint found (system/fingerprint.h
 * collects it): the kernel, the filesystem, the block devices under it and
 * their queue settings, as plain data of fixed size (no pointers: copy it
 * freely).  Part of the record: outputs show it (fingerprint_show.h)
 * without knowing how it was read.  What could not be read is empty ("")
 * or WS_FP_UNKNOWN (-1).  Pure; any thread, on facts nobody is writing.
 */
#ifndef WS_FINGERPRINT_FACTS_H
#define WS_FINGERPRINT_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_FP_UNKNOWN (-1)
#define WS_FP_MAX_DISKS 4	/* underlying disks kept for dm/md */
#define WS_FP_PATH 512		/* sysfs paths, mount points, backing files */

/* What holds the filesystem. */
enum ws_fp_kind {
	WS_FP_NONE,		/* no block device (tmpfs, nfs, ...) or unknown */
	WS_FP_DISK,		/* a whole disk */
	WS_FP_PARTITION,	/* a partition of disk[0] */
	WS_FP_LOOP,		/* a loop device (backing file in disk[0]) */
	WS_FP_DM,		/* device-mapper over disk[0..ndisks) */
	WS_FP_MD,		/* md RAID over disk[0..ndisks) */
};

/* One underlying disk (or loop device) with its queue settings.  Integers
 * are WS_FP_UNKNOWN when the attribute is absent. */
struct ws_fp_disk {
	char name[32];			/* "sda", "nvme0n1", "vda", "loop0" */
	char sysdir[WS_FP_PATH];	/* "/sys/devices/.../block/sda", no root */
	char model[64];			/* device/model, trimmed */
	char vendor[32];		/* device/vendor ("ATA" on SATA disks) */
	char firmware[32];		/* device/rev or device/firmware_rev */
	char driver[32];		/* "sd", "nvme", "virtio_blk", "" */
	int64_t size;			/* bytes */
	int rotational;			/* 1, 0 or WS_FP_UNKNOWN */
	int64_t logical_block, physical_block;	/* bytes */
	int64_t min_io, opt_io;		/* bytes; opt_io 0 = none stated */

	/* queue/ */
	char scheduler[32];		/* the active one: "mq-deadline", "none" */
	char schedulers[128];		/* as listed: "none [mq-deadline] kyber" */
	int64_t nr_requests, read_ahead_kb, max_sectors_kb;
	int64_t queue_depth;		/* device/queue_depth (SCSI NCQ depth) */
	char write_cache[16];		/* "write back", "write through", "" */
	int64_t discard_max_bytes;	/* 0: no discard */
	int64_t discard_granularity;
	int64_t wbt_lat_usec;		/* 0: writeback throttling off */

	/* The partition of this disk that the filesystem (or the dm/md
	 * device) sits on; part[0] == '\0' when it uses the whole disk. */
	char part[32];			/* "sda2", "nvme0n1p1" */
	int64_t part_start;		/* in 512-byte sectors */
	int aligned_1mib;		/* 1, 0, WS_FP_UNKNOWN */
	int aligned_physical;		/* to physical_block */
	int aligned_optimal;		/* to opt_io; UNKNOWN when opt_io is 0 */

	/* Loop devices only (name "loopN"). */
	bool loop;
	char backing_file[WS_FP_PATH];	/* loop/backing_file */
	int loop_dio;			/* loop/dio: 1, 0, WS_FP_UNKNOWN */
};

struct ws_fingerprint {
	/* kernel and machine */
	char kernel[64];		/* /proc/sys/kernel/osrelease */
	char machine[32];		/* "x86_64" */
	char cpu[96];			/* /proc/cpuinfo "model name" */
	int cpus;			/* processors listed; 0 unknown */
	int64_t mem_total;		/* bytes */
	struct {
		int64_t dirty_ratio, dirty_background_ratio;
		int64_t dirty_bytes, dirty_background_bytes;
		int64_t dirty_expire_centisecs, dirty_writeback_centisecs;
	} vm;

	/* the filesystem holding the target file */
	unsigned dev_major, dev_minor;	/* st_dev of the file */
	bool mount_found;
	bool mount_by_path;		/* no device match (btrfs subvolume,
					 * overlay): longest mount prefix */
	char fs_type[32];		/* "ext4" */
	char mount_point[WS_FP_PATH];	/* "/data" */
	char mount_source[WS_FP_PATH];	/* "/dev/sda2" */
	char mount_opts[WS_FP_PATH];	/* per mount: "rw,relatime" */
	char super_opts[WS_FP_PATH];	/* per superblock: "rw,errors=..." */
	int64_t block_size;		/* statvfs f_bsize: set by the caller,
					 * or read when root is "" */

	/* the block device under it, and the disks under that */
	enum ws_fp_kind kind;
	char bdev[32];			/* "sda2", "dm-0", "loop0", "vda" */
	char bdev_sysdir[WS_FP_PATH];	/* its /sys/devices/... directory */
	char holder_name[64];		/* dm/name ("vg0-data") or md/level */
	int ndisks;
	struct ws_fp_disk disk[WS_FP_MAX_DISKS];
};

/* Words for a kind: "none", "disk", "partition", "loop", "dm", "md". */
const char *fingerprint_kind_name(enum ws_fp_kind kind);

#endif
