/* kstat.h - kernel figures sampled during the run, read through a root
 * prefix ("" for the live system; tests point it at tests/fixtures/...).
 * Pure readers: any thread may call them. */
#ifndef WS_KSTAT_H
#define WS_KSTAT_H

#include <stdint.h>

/* /proc/meminfo's writeback backlog, in bytes. */
struct ws_meminfo {
	uint64_t dirty;
	uint64_t writeback;
};

/* 0, or -errno (-ENOENT: no such file; -EINVAL: fields missing). */
int kstat_meminfo(const char *root, struct ws_meminfo *m);

#endif
