/* probe.h - desktop-latency probes: one small operation that a person's
 * programs do all day, timed by the monitor while the writer streams.
 *
 *   fsync  append --probe-size bytes to a probe file and fsync (or
 *          fdatasync) it: a mail client storing a message;
 *   save   write a temporary file, fsync it, rename it over the previous
 *          one, fsync the directory: an editor or browser saving;
 *   read   read a random 4 KiB block of --read-probe PATH, with O_DIRECT
 *          where allowed, else after dropping the block from the page
 *          cache, so every read reaches the device.
 * Each probe is an ops table in probe_kinds[].  A struct probe is owned by
 * one probe thread; setup() and cleanup() run in the main thread before
 * and after it.  Probe files are created exclusively (O_EXCL|O_NOFOLLOW)
 * in the probe directory and removed by cleanup().
 */
#ifndef WS_PROBE_H
#define WS_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"

struct probe;

struct probe_ops {
	const char *name;
	/* create files; 0 or -errno with p->err filled */
	int (*setup)(struct probe *p);
	/* untimed housekeeping before each timed run (may be NULL) */
	void (*prepare)(struct probe *p);
	/* the timed operation: 0 or -errno */
	int (*run)(struct probe *p);
	void (*cleanup)(struct probe *p);
	/* the probe's own options (long names, NULL-terminated): given
	 * while no probe that takes them runs, they are a usage error */
	const char *const *options;
	/* an option it cannot run without: given alone, it adds the probe;
	 * needs_what says what its value is */
	const char *needs;
	const char *needs_what;
	/* what to try when setup fails (its files are in the probe dir) */
	const char *setup_hint;
};

extern const struct probe_ops *const probe_kinds[WS_PROBE_NR];

struct probe {
	const struct probe_ops *ops;
	const struct ws_config *cfg;
	int dirfd;		/* the probe directory */
	int fd;			/* probe file (fsync) or file read (read) */
	char name[64];		/* our file in dirfd */
	char tmp_name[64];	/* save: the temporary */
	char dir[PATH_MAX];	/* for messages */
	void *buf;		/* page-aligned, cfg->probe_size bytes */
	uint64_t appended;	/* fsync: current probe file size */
	uint64_t read_blocks;	/* read: 4 KiB blocks in the file */
	bool direct;		/* read: O_DIRECT took */
	uint64_t rng;		/* read: block choice */
	char err[256];
};

/* Resolve the probe directory: cfg->probe_dir, else dirname(cfg->path). */
void probe_dir_of(const struct ws_config *cfg, char *out, size_t len);

/* Prepare probe `kind` (files, buffer).  0 or -errno with p->err. */
int probe_init(struct probe *p, enum ws_probe_kind kind,
	       const struct ws_config *cfg);
/* Remove the probe's files, close, free.  Safe to call twice. */
void probe_cleanup(struct probe *p);

/* Parse "fsync,save,read" into a bit set.  0 or -EINVAL (bad name in
 * *bad, which points into s). */
int probe_parse_list(const char *s, unsigned int *set, char *bad, size_t len);

#endif
