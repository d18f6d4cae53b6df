/* priv.c - the privileged options. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "system/caps.h"
#include "system/priv.h"
#include "system/signals.h"

/* Every disk under FILE (one, or a dm/md set). */
static int set_schedulers(const struct priv_ask *ask,
			  struct ws_fingerprint *fp, struct ws_priv *priv,
			  char *why, size_t len)
{
	char file[sizeof(priv->sched_file[0])];
	int n = fp->ndisks < WS_MAX_SCHED_DISKS ? fp->ndisks : WS_MAX_SCHED_DISKS;

	if (n < 1) {
		snprintf(why, len, "--scheduler: '%s' is on %s, which has no block device",
			 ask->path, fp->fs_type[0] ? fp->fs_type : "a filesystem");
		return -ENODEV;
	}
	for (int i = 0; i < n; i++) {
		char (*dir)[600] = &priv->queue_dir[priv->nsched];
		char (*old)[32] = &priv->scheduler_old[priv->nsched];
		int ret;

		snprintf(*dir, sizeof(*dir), "%s/queue", fp->disk[i].sysdir);
		ret = caps_set_scheduler(*dir, ask->scheduler, *old, sizeof(*old),
					 why, len);
		if (ret)
			return ret;
		snprintf(file, sizeof(file), "%s/scheduler", *dir);
		memcpy(priv->sched_file[priv->nsched], file, sizeof(file));
		signals_restore_at_exit(priv->sched_file[priv->nsched], *old);
		priv->nsched++;
		/* the fingerprint tells what the run ran with */
		snprintf(fp->disk[i].scheduler, sizeof(fp->disk[i].scheduler), "%s",
			 ask->scheduler);
	}
	return 0;
}

int priv_setup(const struct priv_ask *ask, struct ws_fingerprint *fp,
	       struct ws_priv *priv, char *why, size_t len)
{
	/* the threads set them (thread.h); refuse now what they could not */
	int ret = caps_ioprio_allowed("--ioprio", ask->ioprio_class, why, len);

	if (!ret)
		ret = caps_ioprio_allowed("--probe-ioprio", ask->probe_ioprio_class, why, len);
	if (!ret && ask->scheduler)
		ret = set_schedulers(ask, fp, priv, why, len);
	if (!ret && ask->drop_caches) {
		ret = caps_drop_caches(why, len);
		priv->caches_dropped = !ret;
	}
	return ret;
}

int priv_restore(struct ws_priv *priv, char *why, size_t len)
{
	int first = 0;

	for (unsigned int i = 0; i < priv->nsched; i++) {
		int ret = caps_restore_scheduler(priv->queue_dir[i],
						 priv->scheduler_old[i]);

		if (ret && !first) {
			first = ret;
			snprintf(why, len, "could not restore scheduler '%s' in %s: %s",
				 priv->scheduler_old[i], priv->queue_dir[i],
				 strerror(-ret));
		}
	}
	priv->nsched = 0;
	return first;
}
