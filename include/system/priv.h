/* priv.h - --ioprio, --probe-ioprio, --scheduler, --drop-caches: checked
 * with libcap first (caps.h); what they change is put back by
 * priv_restore(), and by the signal handler on a second SIGINT.
 * Main thread only.
 */
#ifndef WS_PRIV_H
#define WS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/c.h"
#include "system/fingerprint.h"

#define WS_MAX_SCHED_DISKS 4

struct ws_priv {
	bool caches_dropped;
	unsigned int nsched;
	char queue_dir[WS_MAX_SCHED_DISKS][600];
	char scheduler_old[WS_MAX_SCHED_DISKS][32];
	char sched_file[WS_MAX_SCHED_DISKS][620];	/* for the signal handler */
};

/* Only the settings priv_setup() reads, not the whole configuration. */
struct priv_ask {
	const char *path;	/* the first target, for messages */
	const char *scheduler;	/* NULL: unchanged */
	int ioprio_class;	/* 0: unchanged */
	int probe_ioprio_class;
	bool drop_caches;
};

/* Updates fp's scheduler fields.  0, or -errno with why (no prefix). */
WS_MUST_CHECK int priv_setup(const struct priv_ask *ask, struct ws_fingerprint *fp,
			     struct ws_priv *priv, char *why, size_t len);

/* 0, or -errno with why. */
WS_MUST_CHECK int priv_restore(struct ws_priv *priv, char *why, size_t len);

#endif
