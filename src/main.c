/* main.c - wiring only: options, target, plan, threads, exit status. */
#include <errno.h>
#include <locale.h>
#include <stddef.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "compare.h"
#include "config.h"
#include "fingerprint.h"
#include "monitor.h"
#include "opts.h"
#include "pace.h"
#include "plan.h"
#include "priv.h"
#include "reporter.h"
#include "signals.h"
#include "sink.h"
#include "snapshot.h"
#include "target.h"
#include "thread.h"
#include "units.h"
#include "verify.h"
#include "writer.h"

static int fail(const char *msg, const char *hint, int status)
{
	fprintf(stderr, "writestress: %s\n", msg);
	if (hint && *hint)
		fprintf(stderr, "hint: %s\n", hint);
	return status;
}

static int refuse_plan(const struct ws_config *cfg,
		       const struct ws_plan_refusal *why)
{
	char need[32], usable[32], reserve[32], fits[32], msg[512], hint[256];

	snprintf(msg, sizeof(msg),
		 "refusing to write %s to '%s': %s free, %s of it kept in reserve",
		 units_format_size(need, sizeof(need), why->needed), cfg->path,
		 units_format_size(usable, sizeof(usable), why->usable),
		 units_format_size(reserve, sizeof(reserve), why->reserve));
	if (why->fits >= 4096)
		snprintf(hint, sizeof(hint),
			 "add --file-size %llu (%s) to overwrite a file that fits, in place",
			 (unsigned long long)why->fits,
			 units_format_size(fits, sizeof(fits), why->fits));
	else
		snprintf(hint, sizeof(hint), "free some space, or lower --reserve");
	return fail(msg, hint, WS_EXIT_REFUSED);
}

static void choose_sinks(const struct ws_config *cfg, struct sink_set *sinks)
{
	if (cfg->quiet)
		sink_add(sinks, &sink_quiet_ops, stdout);
	else if (isatty(STDOUT_FILENO))
		sink_add(sinks, &sink_live_ops, stdout);
	else
		sink_add(sinks, &sink_plain_ops, stdout);
}

static int exit_status(const struct ws_summary *sum)
{
	const struct ws_ending *o = &sum->ending;
	char msg[320];

	switch (o->reason) {
	case WS_STOP_ERROR:
		snprintf(msg, sizeof(msg), "%s failed at offset %llu: %s%s%s",
			 o->err_op ? o->err_op : "I/O",
			 (unsigned long long)o->err_offset, strerror(o->err),
			 o->err_detail[0] ? "; " : "", o->err_detail);
		return fail(msg, NULL, WS_EXIT_FAILURE);
	case WS_STOP_SIGNAL:
		return o->signo ? 128 + o->signo : WS_EXIT_FAILURE;
	default:
		break;
	}
	if (sum->verified && !verify_clean(&sum->verify)) {
		snprintf(msg, sizeof(msg), "verify: %llu of %llu blocks are not as written%s%s",
			 (unsigned long long)(sum->verify.blocks - sum->verify.count[WS_BLOCK_OK]),
			 (unsigned long long)sum->verify.blocks,
			 sum->verify.err ? "; reading back failed: " : "",
			 sum->verify.err ? strerror(sum->verify.err) : "");
		return fail(msg, NULL, WS_EXIT_FAILURE);
	}
	return WS_EXIT_OK;
}

/* The run: reporter, then writer; when the writer is done the probes are
 * stopped (a stuck one is waited for) and the reporter writes the summary.
 * 0, or -errno with what failed in *what when the reporter could not
 * start (nothing was written; a writer that could not start is an ending
 * the summary reports). */
static int run_threads(struct writer *w, struct monitor *mon,
		       struct reporter *r, const char **what)
{
	const struct ws_config *cfg = w->cfg;
	/* the writer's prologue raises what it needs from the permitted set
	 * main keeps (caps.h), sets its I/O priority and drops it all */
	struct ws_thread_spec writer_spec = {
		.name = "ws-writer", .ioprio_class = cfg->ioprio_class,
		.ioprio_level = cfg->ioprio_level,
	};
	pthread_t writer_tid, reporter_tid;
	int ret;

	ret = ws_thread_start(&reporter_tid,
			      &(struct ws_thread_spec){ .name = "ws-report" },
			      reporter_thread, r);
	if (ret) {
		*what = ws_thread_last_failure();
		monitor_stop(mon);
		return ret;
	}
	/* setup is over: the long main loop runs unprivileged; a writer
	 * that cannot start is an ending like an I/O error */
	*what = "dropping capabilities";
	ret = caps_drop_main();
	if (!ret) {
		ret = ws_thread_start(&writer_tid, &writer_spec, writer_thread, w);
		*what = ws_thread_last_failure();
	}
	if (ret) {
		struct ws_outcome o = { .reason = WS_STOP_ERROR, .err = -ret,
					.err_op = *what, .end_ns = 1 };

		snprintf(o.err_detail, sizeof(o.err_detail),
			 "the writer could not start");
		snapshot_start(w->snap, 1);
		snapshot_finish(w->snap, &o);
	} else {
		pthread_join(writer_tid, NULL);
	}
	monitor_stop(mon);
	snapshot_close(w->snap);
	pthread_join(reporter_tid, NULL);
	return 0;
}

/* Result files are opened before anything else is touched: a bad --json
 * path is a usage error, found before a byte is written. */
static int open_results(const struct ws_config *cfg, struct sink_set *sinks)
{
	static const struct {
		const struct sink_ops *ops;
		size_t offset;
		const char *opt;
	} files[] = {
		{ &sink_json_ops, offsetof(struct ws_config, json_path), "--json" },
		{ &sink_csv_ops, offsetof(struct ws_config, csv_path), "--csv" },
		{ &sink_svg_ops, offsetof(struct ws_config, svg_path), "--svg" },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *path = *(const char *const *)((const char *)cfg + files[i].offset);

		if (path && sink_add_file(sinks, files[i].ops, path, err, sizeof(err))) {
			fprintf(stderr, "writestress: invalid %s '%s': %s\n", files[i].opt,
				path, err);
			errtryhelp(stderr, "writestress");
			sink_abort_all(sinks);
			return WS_EXIT_USAGE;
		}
	}
	return 0;
}

/* --until-steady without a capacity to precondition against. */
static int refuse_precondition(const struct ws_config *cfg)
{
	fprintf(stderr, "writestress: --precondition %s: the capacity of the device under '%s' is unknown, so %s cannot be preconditioned against\n",
		cfg->precondition_set ? "as a multiple" : "default (2x)", cfg->path,
		cfg->precondition_set ? "a multiple of it" : "twice it (SNIA PTS)");
	fprintf(stderr, "hint: give --precondition SIZE (SNIA writes twice the drive's capacity first), or --precondition 0 to judge from the start\n");
	return WS_EXIT_USAGE;
}

/* After target_open: plan the space, the preconditioning, check the mode.
 * An existing file is rewritten in place unless --truncate. */
static int prepare_target(const struct ws_config *cfg, struct ws_target *t,
			  const struct ws_fingerprint *fp, struct ws_plan *plan)
{
	const struct pace_ops *mode = pace_modes[cfg->pace];
	struct ws_plan_refusal why;
	char msg[512];
	int ret;

	if (plan_make(cfg, &t->space, plan, &why))
		return refuse_plan(cfg, &why);
	if (plan_precondition(cfg, fingerprint_capacity(fp), plan))
		return refuse_precondition(cfg);
	if (!t->created && cfg->truncate && (ret = target_truncate(t)))
		return fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
	if (t->forced)
		target_mark(t);	/* ours now: a re-run needs no --force */
	if (mode->check && (ret = mode->check(t->fd))) {
		snprintf(msg, sizeof(msg), "--pace %s is not supported for '%s': %s",
			 mode->name, cfg->path, strerror(-ret));
		return fail(msg, mode->unsupported_hint, WS_EXIT_FAILURE);
	}
	return 0;
}

/* Probes: files, privileges, threads.  They start before the writer, so
 * the first figures are the quiet machine's. */
static int start_monitor(const struct ws_config *cfg, struct monitor *mon,
			 struct ws_snapshot *snap)
{
	const char *hint = NULL;
	char err[512];
	int ret = monitor_init(mon, cfg, snap, err, sizeof(err), &hint);

	if (ret)
		return fail(err, hint, WS_EXIT_FAILURE);
	for (unsigned int i = 0; i < mon->nprobes; i++)
		signals_unlink_at_exit(mon->probes[i].probe.dirfd,
				       mon->probes[i].probe.name);
	monitor_harden(mon);
	ret = monitor_start(mon);
	if (ret) {
		monitor_cleanup(mon);
		snprintf(err, sizeof(err), "probes: %s: %s", ws_thread_last_failure(),
			 strerror(-ret));
		return fail(err, NULL, WS_EXIT_FAILURE);
	}
	monitor_lock_memory(mon);
	return 0;
}

int main(int argc, char **argv)
{
	struct ws_config cfg;
	struct ws_target target;
	struct ws_target_error terr;
	struct ws_plan plan;
	struct ws_snapshot snap;
	struct sink_set sinks = { .n = 0 };
	struct writer writer;
	struct ws_series *series;
	/* the big ones (histograms) live on the heap, not on a stack that is
	 * locked once the probes start */
	struct big {
		struct monitor monitor;
		struct reporter reporter;
		struct ws_series progress;
		struct ws_fingerprint fp;
		struct ws_run run;
	} *big;
	struct ws_priv priv = { .caches_dropped = false };
	char err[1024];
	const char *what;
	bool remove = false;
	int ret, status;

	setlocale(LC_CTYPE, "");
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "verify"))
		return verify_main(argc - 1, argv + 1);
	switch (opts_parse(argc, argv, &cfg, stderr)) {
	case OPTS_EXIT_OK:
		return WS_EXIT_OK;
	case OPTS_USAGE:
		return WS_EXIT_USAGE;
	case OPTS_RUN:
		break;
	}
	/* from here on ^C ends the run cleanly, setup included */
	signals_install();
	series = calloc(1, sizeof(*series));
	big = calloc(1, sizeof(*big));
	if (!series || !big) {
		free(series);
		free(big);
		return fail(strerror(ENOMEM), NULL, WS_EXIT_FAILURE);
	}
	status = open_results(&cfg, &sinks);
	if (status)
		goto out_free;

	if (target_open(&cfg, pace_modes[cfg.pace]->open_flags, &target, &terr)) {
		status = fail(terr.msg, terr.hint, terr.status);
		goto out_sinks;
	}
	/* a file this run created and could not use is removed again */
	remove = target.created;
	fingerprint_collect("", (dev_t)target.dev, cfg.path, &big->fp);
	status = prepare_target(&cfg, &target, &big->fp, &plan);
	if (!status && priv_setup(&cfg, &big->fp, &priv, err, sizeof(err)))
		status = fail(err, NULL, WS_EXIT_FAILURE);
	if (status)
		goto out_target;
	ret = snapshot_init(&snap);
	if (ret) {
		status = fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
		goto out_target;
	}
	ret = writer_init(&writer, &cfg, &plan, &snap, &ws_stop, target.fd,
			  &io_posix_ops, NULL);
	if (ret) {
		snprintf(err, sizeof(err), "setting up the writer: %s", strerror(-ret));
		status = fail(err, NULL, WS_EXIT_FAILURE);
		goto out_snapshot;
	}
	writer.avail = target_avail;
	/* a rewrite in place takes no new space until it passes the old end */
	writer.allocated = target.truncated ? 0 : target.size_at_open;
	status = start_monitor(&cfg, &big->monitor, &snap);
	if (status)
		goto out_writer;

	reporter_make_run(&(struct reporter_sources){
				  .cfg = &cfg, .plan = &plan, .target = &target,
				  .fp = &big->fp, .mon = &big->monitor, .priv = &priv,
				  .argc = argc, .argv = argv }, &big->run);
	choose_sinks(&cfg, &sinks);
	sink_header(&sinks, &big->run);
	reporter_init(&big->reporter, &big->run, &big->monitor, &snap, &sinks,
		      series, &big->progress);
	ret = run_threads(&writer, &big->monitor, &big->reporter, &what);
	if (ret) {	/* nothing was written: as if setup had failed */
		snprintf(err, sizeof(err), "%s: %s", what, strerror(-ret));
		status = fail(err, NULL, WS_EXIT_FAILURE);
		caps_raise_cleanup();
		monitor_cleanup(&big->monitor);
		goto out_writer;
	}
	status = exit_status(&big->reporter.summary);
	remove = cfg.remove_after;
	/* what the run may not do, its cleanup may have to */
	caps_raise_cleanup();
	monitor_cleanup(&big->monitor);
	if (sink_close_all(&sinks) && status == WS_EXIT_OK)
		status = fail("cannot complete the report or a result file", NULL,
			      WS_EXIT_FAILURE);
	reporter_destroy(&big->reporter);

out_writer:
	writer_destroy(&writer);
out_snapshot:
	snapshot_destroy(&snap);
out_target:
	caps_raise_cleanup();
	if (priv_restore(&priv, err, sizeof(err)))
		fail(err, NULL, status);
	if (target_close(&target, cfg.path, remove) && cfg.remove_after)
		fprintf(stderr, "writestress: could not remove '%s'\n", cfg.path);
out_sinks:
	sink_abort_all(&sinks);	/* no-op once closed */
out_free:
	free(big);
	free(series);
	return status;
}
