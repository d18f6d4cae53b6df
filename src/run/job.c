/* job.c - one target of a run and its writer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "system/clock.h"
#include "engine/ioq.h"
#include "run/job.h"
#include "engine/pace.h"
#include "system/signals.h"
#include "lib/exit.h"
#include "lib/units.h"

static int refuse_plan(const struct ws_config *cfg,
		       const struct ws_plan_refusal *why)
{
	char need[32], usable[32], reserve[32], fits[32], msg[512], hint[256];

	snprintf(msg, sizeof(msg),
		 "refusing to write %s to '%s': %s free, %s of it kept in reserve",
		 units_format_size(need, sizeof(need), why->needed), cfg->set.path,
		 units_format_size(usable, sizeof(usable), why->usable),
		 units_format_size(reserve, sizeof(reserve), why->reserve));
	if (why->fits >= 4096)
		snprintf(hint, sizeof(hint),
			 "add --file-size %llu (%s) to overwrite a file that fits, in place",
			 (unsigned long long)why->fits,
			 units_format_size(fits, sizeof(fits), why->fits));
	else
		snprintf(hint, sizeof(hint), "free some space, or lower --reserve");
	return ws_fail(msg, hint, WS_EXIT_REFUSED);
}

static int refuse_precondition(const struct ws_config *cfg)
{
	fprintf(stderr, "writestress: --precondition %s: the capacity of the device under '%s' is unknown, so %s cannot be preconditioned against\n",
		cfg->set.steady.precondition_set ? "as a multiple" : "default (2x)", cfg->set.path,
		cfg->set.steady.precondition_set ? "a multiple of it" : "twice it (SNIA PTS)");
	fprintf(stderr, "hint: give --precondition SIZE (SNIA writes twice the drive's capacity first), or --precondition 0 to judge from the start\n");
	return WS_EXIT_USAGE;
}

static bool same_device(const struct ws_fingerprint *a,
			const struct ws_fingerprint *b)
{
	if (a->ndisks && b->ndisks)
		return !strcmp(a->disk[0].name, b->disk[0].name);
	return a->bdev[0] && !strcmp(a->bdev, b->bdev);
}

/* writestress watch: one job, the probe directory's disk, no file. */
static int watch_open(const struct ws_config *cfg, struct ws_job *j)
{
	struct ws_target_error terr;

	j->number = 1;
	j->cfg = *cfg;
	j->cfg.set.path = cfg->paths[0];
	if (target_open_dir(j->cfg.set.path, &j->target, &terr))
		return ws_fail(terr.msg, terr.hint, terr.status);
	fingerprint_collect("", (dev_t)j->target.dev, j->cfg.set.path, &j->fp);
	return 0;
}

int jobs_open(const struct ws_config *cfg, struct ws_job *jobs)
{
	uint64_t seed = cfg->set.seed ? cfg->set.seed : ws_now_ns() ^ (uint64_t)getpid();
	struct ws_target_error terr;
	char msg[512];

	if (cfg->set.watch)
		return watch_open(cfg, jobs);
	for (unsigned int i = 0; i < cfg->ntargets; i++) {
		struct ws_job *j = &jobs[i];

		j->number = i + 1;
		j->cfg = *cfg;
		j->cfg.set.path = cfg->paths[i];
		j->cfg.set.seed = seed + i ? seed + i : 1;
		if (target_open(&j->cfg, pace_modes[cfg->set.pace]->open_flags,
				&j->target, &terr)) {
			jobs_close(jobs, i);
			return ws_fail(terr.msg, terr.hint, terr.status);
		}
		j->opened = true;
		j->remove = j->target.created;	/* until the run uses it */
		fingerprint_collect("", (dev_t)j->target.dev, j->cfg.set.path, &j->fp);
		for (unsigned int k = 0; k < i; k++) {
			const struct ws_job *o = &jobs[k];

			if (o->target.dev == j->target.dev && o->target.ino == j->target.ino) {
				snprintf(msg, sizeof(msg), "invalid FILE '%s': the same file as '%s'",
					 j->cfg.set.path, o->cfg.set.path);
				jobs_close(jobs, i + 1);
				fprintf(stderr, "writestress: %s\n", msg);
				errtryhelp(stderr, "writestress");
				return WS_EXIT_USAGE;
			}
			if (!j->same_fs_as && o->target.dev == j->target.dev)
				j->same_fs_as = o->number;
			if (!j->same_device_as && same_device(&o->fp, &j->fp))
				j->same_device_as = o->number;
		}
	}
	return 0;
}

/* The room left by the targets planned before on the same filesystem. */
static void share_space(const struct ws_job *jobs, unsigned int i,
			unsigned int n, struct ws_space *sp)
{
	uint64_t taken = 0;

	*sp = jobs[i].target.space;
	sp->sharers = 1;
	for (unsigned int k = 0; k < n; k++) {
		const struct ws_job *o = &jobs[k];
		uint64_t need;

		if (k == i || o->target.dev != jobs[i].target.dev)
			continue;
		if (k > i) {
			sp->sharers++;
			continue;
		}
		need = o->plan.total < o->plan.file_size ? o->plan.total : o->plan.file_size;
		/* a rewrite in place reuses its old blocks */
		taken += need > o->target.space.reclaimed ? need - o->target.space.reclaimed : 0;
	}
	sp->avail = sp->avail > taken ? sp->avail - taken : 0;
}

/* Opened while main still has its privileges (ioq.h); a refused io_uring
 * leaves one synchronous write at a time. */
static void open_queue(struct ws_job *j)
{
	const struct ws_config *cfg = &j->cfg;
	const struct pace_ops *mode = pace_modes[cfg->set.pace];
	int ret;

	j->queue = (struct ws_queue_facts){ .depth = 1, .engine = "sync",
		.direct = (mode->open_flags & O_DIRECT) != 0,
		.marks_accepted = mode->marks_accepted };
	if (cfg->set.pacing.iodepth <= 1)
		return;
	ret = writer_open_queue(&j->writer, &ioq_uring_ops, NULL);
	if (!ret) {
		j->queue.depth = cfg->set.pacing.iodepth;
		j->queue.engine = ioq_uring_ops.name;
		j->queue.registered = j->writer.queue.registered;
		return;
	}
	j->queue.refused_err = -ret;
	fprintf(stderr, "writestress: %s%s%s--iodepth %u: io_uring is not available here (%s); writing one synchronous %s write at a time\n",
		cfg->ntargets > 1 ? "'" : "", cfg->ntargets > 1 ? cfg->set.path : "",
		cfg->ntargets > 1 ? "': " : "", cfg->set.pacing.iodepth, strerror(-ret),
		ws_pace_name(cfg->set.pace));
	if (j->number == 1)
		fprintf(stderr, "hint: io_uring may be disabled (sysctl kernel.io_uring_disabled) or blocked by a seccomp filter, as in many containers\n");
}

static int plan_one(struct ws_job *jobs, unsigned int i, unsigned int n)
{
	struct ws_job *j = &jobs[i];
	struct ws_plan_refusal why;
	struct ws_space sp;

	share_space(jobs, i, n, &sp);
	if (plan_make(&j->cfg, &sp, &j->plan, &why))
		return refuse_plan(&j->cfg, &why);
	if (plan_precondition(&j->cfg, fingerprint_capacity(&j->fp), &j->plan))
		return refuse_precondition(&j->cfg);
	return 0;
}

static int prepare_one(struct ws_job *j)
{
	const struct ws_config *cfg = &j->cfg;
	const struct pace_ops *mode = pace_modes[cfg->set.pace];
	char msg[512];
	int ret;

	if (!j->target.created && cfg->set.truncate && (ret = target_truncate(&j->target)))
		return ws_fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
	if (j->target.forced)
		target_mark(&j->target);	/* a re-run needs no --force */
	if (mode->check && (ret = mode->check(j->target.fd))) {
		snprintf(msg, sizeof(msg), "--pace %s is not supported for '%s': %s",
			 ws_pace_name(cfg->set.pace), cfg->set.path, strerror(-ret));
		return ws_fail(msg, mode->unsupported_hint, WS_EXIT_FAILURE);
	}
	return 0;
}

static int start_writer(struct ws_job *j)
{
	char err[256];
	int ret = snapshot_init(&j->snap);

	if (ret)
		return ws_fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
	j->snap_ready = true;
	ret = writer_init(&j->writer, &j->cfg, &j->plan, &j->snap, &ws_stop,
			  j->target.fd, &io_posix_ops, NULL);
	if (ret) {
		snprintf(err, sizeof(err), "setting up the writer: %s", strerror(-ret));
		return ws_fail(err, NULL, WS_EXIT_FAILURE);
	}
	j->writer_ready = true;
	j->writer.avail = target_avail;
	/* a rewrite in place takes no new space until it passes the old end */
	j->writer.allocated = j->target.truncated ? 0 : j->target.size_at_open;
	open_queue(j);
	return 0;
}

int jobs_prepare(struct ws_job *jobs, unsigned int n)
{
	int status;

	if (jobs[0].cfg.set.watch) {	/* no plan, no writer: the clock */
		status = snapshot_init(&jobs[0].snap);
		if (status)
			return ws_fail(strerror(-status), NULL, WS_EXIT_FAILURE);
		jobs[0].snap_ready = true;
		jobs[0].idle = (struct idle){ .snap = &jobs[0].snap, .stop = &ws_stop,
			.duration_ns = jobs[0].cfg.set.duration_ns };
		return 0;
	}
	/* no file is touched before every plan stands */
	for (unsigned int i = 0; i < n; i++)
		if ((status = plan_one(jobs, i, n)))
			return status;
	for (unsigned int i = 0; i < n; i++)
		if ((status = prepare_one(&jobs[i])))
			return status;
	for (unsigned int i = 0; i < n; i++)
		if ((status = start_writer(&jobs[i])))
			return status;
	return 0;
}

void jobs_close(struct ws_job *jobs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct ws_job *j = &jobs[i];

		if (j->writer_ready)
			writer_destroy(&j->writer);
		if (j->snap_ready)
			snapshot_destroy(&j->snap);
		j->writer_ready = j->snap_ready = false;
		if (!j->opened)
			continue;
		if (target_close(&j->target, j->cfg.set.path, j->remove) && j->cfg.remove_after)
			fprintf(stderr, "writestress: could not remove '%s'\n", j->cfg.set.path);
		j->opened = false;
	}
}
