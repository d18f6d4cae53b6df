/* priv.h - the privileged options: --ioprio and --probe-ioprio (checked
 * here, applied as threads are created), --scheduler and --drop-caches.
 * Each is checked with libcap first (caps.h) and fails naming the
 * capability; what they change is put back by priv_restore(), also after
 * errors and SIGTERM, and by the signal handler on a second SIGINT.
 * Main thread only.
 */
#ifndef WS_PRIV_H
#define WS_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/c.h"
#include "system/fingerprint.h"

#define WS_MAX_SCHED_DISKS 4

/* What the privileged options did, for the header, the result and the
 * restore. */
struct ws_priv {
	bool caches_dropped;
	unsigned int nsched;	/* disks whose scheduler --scheduler set */
	char queue_dir[WS_MAX_SCHED_DISKS][600];	/* .../queue in sysfs */
	char scheduler_old[WS_MAX_SCHED_DISKS][32];	/* to put back */
	char sched_file[WS_MAX_SCHED_DISKS][620];	/* for the signal handler */
};

/* What the privileged options ask for: the few settings priv_setup
 * reads, so it depends on them and not on the whole configuration. */
struct priv_ask {
	const char *path;	/* the first target, for messages */
	const char *scheduler;	/* --scheduler, or NULL */
	int ioprio_class;	/* --ioprio's class, 0: unchanged */
	int probe_ioprio_class;	/* --probe-ioprio's */
	bool drop_caches;	/* --drop-caches */
};

/* Do what ask asks; fp's scheduler fields are updated to what the run
 * runs with.  0, or -errno with a message (no "writestress: ") in why. */
WS_MUST_CHECK int priv_setup(const struct priv_ask *ask, struct ws_fingerprint *fp,
			     struct ws_priv *priv, char *why, size_t len);

/* Put back the schedulers.  0, or -errno with a message in why. */
WS_MUST_CHECK int priv_restore(struct ws_priv *priv, char *why, size_t len);

#endif
