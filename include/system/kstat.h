/* kstat.h - kernel figures sampled during the run, read through a root
 * prefix ("" for the live system; tests point it at tests/fixtures/...).
 * Pure readers: any thread may call them. */
#ifndef WS_KSTAT_H
#define WS_KSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* /proc/meminfo's writeback backlog, in bytes. */
struct ws_meminfo {
	uint64_t dirty;
	uint64_t writeback;
};

/* 0, or -errno (-ENOENT: no such file; -EINVAL: fields missing). */
int kstat_meminfo(const char *root, struct ws_meminfo *m);

/* A block device's own counters, /sys/block/DISK/stat, as listed in the
 * kernel's Documentation/block/stat.rst.  Counters are cumulative since
 * boot (they wrap only at 2^64 on 64-bit kernels); sample twice and
 * subtract.  Sectors are 512 bytes whatever the device's block size; ticks
 * are milliseconds.  Discard fields arrived in 4.18, flush fields in 5.5:
 * older kernels leave them 0, and nfields says how many were there. */
struct ws_diskstat {
	uint64_t read_ios, read_merges, read_sectors, read_ticks;
	uint64_t write_ios, write_merges, write_sectors, write_ticks;
	uint64_t in_flight;		/* requests now at the driver/device */
	uint64_t io_ticks;		/* ms the device had I/O: busy time */
	uint64_t time_in_queue;		/* ms, summed over requests */
	uint64_t discard_ios, discard_merges, discard_sectors, discard_ticks;
	uint64_t flush_ios, flush_ticks;
	int nfields;			/* 11, 15 or 17 */
};

#define WS_SECTOR 512

/* `disk` is a name under /sys/block ("sda", "nvme0n1", "dm-0") or an
 * absolute sysfs directory ("/sys/devices/.../sda/sda2", as in struct
 * ws_fingerprint), which also reaches partitions.  0, or -errno (-ENOENT:
 * no such device; -EINVAL: fewer than 11 fields). */
int kstat_diskstat(const char *root, const char *disk, struct ws_diskstat *out);

/* An xfs filesystem's own count of its log writes and their 512-byte
 * blocks: the "log" line of /sys/fs/xfs/FS/stats/stats (FS the block
 * device's name, "sda2", "loop3").  0, or -errno (-EINVAL: no log line). */
int kstat_xfs_log(const char *root, const char *fs, uint64_t *writes, uint64_t *blocks);

/* A jbd2 journal's own statistics (/proc/fs/jbd2/JOURNAL/info, JOURNAL
 * "sda2-8" for a filesystem's own journal, its inode 8): the transactions
 * it committed since it was loaded (0: none yet), and its average logging
 * phase times that count (jbd2 prints only the average, in whole jiffies
 * shown as ms: the product is near on a fresh journal, coarse on an old
 * one).  0, or -errno (-EINVAL: not those lines). */
int kstat_jbd2_info(const char *root, const char *journal, uint64_t *transactions,
		    uint64_t *logging_ms);

/* /proc/pressure/io (Documentation/accounting/psi.rst): the share of wall
 * time in which some (or all non-idle) tasks were stalled on I/O, as
 * percentages averaged over 10, 60 and 300 s, and the total stall time in
 * microseconds since boot. */
struct ws_psi_line {
	double avg10, avg60, avg300;
	uint64_t total_us;
};

struct ws_psi {
	struct ws_psi_line some, full;
	bool has_full;			/* the "full" line was present */
};

/* 0, or -errno: -ENOENT when the kernel has no PSI (no such file: before
 * 4.20 or CONFIG_PSI=n), -EOPNOTSUPP when it was disabled at boot (psi=0),
 * -EINVAL when the "some" line is missing or malformed.  Callers can say
 * "no PSI" for any error. */
int kstat_psi_io(const char *root, struct ws_psi *out);

#endif
