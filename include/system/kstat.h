/* kstat.h - kernel figures sampled during the run, through a root prefix.
 * Any thread.  Each reader returns 0, or -errno: -ENOENT no such file,
 * -EINVAL fields missing. */
#ifndef WS_KSTAT_H
#define WS_KSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* bytes */
struct ws_meminfo {
	uint64_t dirty;
	uint64_t writeback;
};

int kstat_meminfo(const char *root, struct ws_meminfo *m);

/* Documentation/block/stat.rst: cumulative, 512-byte sectors, ticks in
 * ms.  Discard fields came in 4.18, flush in 5.5: 0 before. */
struct ws_diskstat {
	uint64_t read_ios, read_merges, read_sectors, read_ticks;
	uint64_t write_ios, write_merges, write_sectors, write_ticks;
	uint64_t in_flight;
	uint64_t io_ticks;		/* busy time */
	uint64_t time_in_queue;		/* summed over requests */
	uint64_t discard_ios, discard_merges, discard_sectors, discard_ticks;
	uint64_t flush_ios, flush_ticks;
	int nfields;			/* 11, 15 or 17 */
};

#define WS_SECTOR 512

/* DISK: a /sys/block name or an absolute sysfs directory (partitions). */
int kstat_diskstat(const char *root, const char *disk, struct ws_diskstat *out);

/* /sys/fs/xfs/FS/stats/stats's "log" line: writes and 512-byte blocks. */
int kstat_xfs_log(const char *root, const char *fs, uint64_t *writes, uint64_t *blocks);

/* /proc/fs/jbd2/JOURNAL/info ("sda2-8"): transactions since load, and the
 * average logging time times that count (jbd2 rounds it to jiffies). */
int kstat_jbd2_info(const char *root, const char *journal, uint64_t *transactions,
		    uint64_t *logging_ms);

/* /proc/pressure/io (psi.rst): percent of time stalled, total in us. */
struct ws_psi_line {
	double avg10, avg60, avg300;
	uint64_t total_us;
};

struct ws_psi {
	struct ws_psi_line some, full;
	bool has_full;
};

/* -ENOENT no PSI, -EOPNOTSUPP psi=0 at boot, -EINVAL no "some" line. */
int kstat_psi_io(const char *root, struct ws_psi *out);

#endif
