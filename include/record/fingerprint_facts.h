/* fingerprint_facts.h - the kernel, filesystem and block devices the
 * fingerprint (system/fingerprint.h) found, as fixed-size data without
 * pointers: copy it freely.  Unread: "" or WS_FP_UNKNOWN.
 */
#ifndef WS_FINGERPRINT_FACTS_H
#define WS_FINGERPRINT_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_FP_UNKNOWN (-1)
#define WS_FP_MAX_DISKS 4	/* kept for dm/md */
#define WS_FP_PATH 512

enum ws_fp_kind {
	WS_FP_NONE,		/* no block device, or unknown */
	WS_FP_DISK,
	WS_FP_PARTITION,	/* of disk[0] */
	WS_FP_LOOP,		/* backing file in disk[0] */
	WS_FP_DM,		/* over disk[0..ndisks) */
	WS_FP_MD,		/* over disk[0..ndisks) */
};

/* A disk or loop device; sizes in bytes. */
struct ws_fp_disk {
	char name[32];			/* "sda" */
	char sysdir[WS_FP_PATH];	/* without the root prefix */
	char model[64];
	char vendor[32];
	char firmware[32];
	char driver[32];		/* "nvme" */
	int64_t size;
	int rotational;
	int64_t logical_block, physical_block;
	int64_t min_io, opt_io;		/* opt_io 0: none stated */

	/* queue/ */
	char scheduler[32];		/* the active one */
	char schedulers[128];		/* "none [mq-deadline] kyber" */
	int64_t nr_requests, read_ahead_kb, max_sectors_kb;
	int64_t queue_depth;		/* SCSI's */
	char write_cache[16];		/* "write back" */
	int64_t discard_max_bytes;
	int64_t discard_granularity;
	int64_t wbt_lat_usec;		/* 0: wbt off */

	/* the partition the filesystem (or dm/md) is on; "": the whole disk */
	char part[32];
	int64_t part_start;		/* 512-byte sectors */
	int aligned_1mib;
	int aligned_physical;
	int aligned_optimal;		/* UNKNOWN when opt_io is 0 */

	bool loop;
	char backing_file[WS_FP_PATH];
	int loop_dio;
};

struct ws_fingerprint {
	char kernel[64];		/* osrelease */
	char machine[32];
	char cpu[96];			/* "model name" */
	int cpus;			/* 0: unknown */
	int64_t mem_total;
	struct {
		int64_t dirty_ratio, dirty_background_ratio;
		int64_t dirty_bytes, dirty_background_bytes;
		int64_t dirty_expire_centisecs, dirty_writeback_centisecs;
	} vm;

	unsigned dev_major, dev_minor;	/* the file's st_dev */
	bool mount_found;
	bool mount_by_path;		/* no device match (btrfs, overlay):
					 * the longest mount prefix */
	char fs_type[32];
	char mount_point[WS_FP_PATH];
	char mount_source[WS_FP_PATH];
	char mount_opts[WS_FP_PATH];
	char super_opts[WS_FP_PATH];
	int64_t block_size;		/* f_bsize: the caller's, or read
					 * when root is "" */

	enum ws_fp_kind kind;
	char bdev[32];			/* "dm-0" */
	char bdev_sysdir[WS_FP_PATH];
	char holder_name[64];		/* dm/name or md/level */
	int ndisks;
	struct ws_fp_disk disk[WS_FP_MAX_DISKS];
};

const char *fingerprint_kind_name(enum ws_fp_kind kind);

#endif
