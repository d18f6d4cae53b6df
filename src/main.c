/* main.c - wiring only: options, target, plan, threads, exit status. */
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "monitor.h"
#include "opts.h"
#include "pace.h"
#include "plan.h"
#include "reporter.h"
#include "signals.h"
#include "sink.h"
#include "snapshot.h"
#include "target.h"
#include "thread.h"
#include "units.h"
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
	const struct ws_outcome *o = &sum->outcome;
	char msg[320];

	switch (o->reason) {
	case WS_STOP_ERROR:
		snprintf(msg, sizeof(msg), "%s failed at offset %llu: %s%s%s",
			 o->err_op ? o->err_op : "I/O",
			 (unsigned long long)o->err_offset, strerror(o->err),
			 o->err_detail[0] ? "; " : "", o->err_detail);
		return fail(msg, NULL, WS_EXIT_FAILURE);
	case WS_STOP_SIGNAL:
		return sum->signo ? 128 + sum->signo : WS_EXIT_FAILURE;
	default:
		return WS_EXIT_OK;
	}
}

/* The run: reporter, then writer; when the writer is done the probes are
 * stopped (a stuck one is waited for) and the reporter writes the summary. */
static int run_threads(struct writer *w, struct monitor *mon,
		       struct reporter *r)
{
	pthread_t writer_tid, reporter_tid;
	int ret;

	ret = ws_thread_start(&reporter_tid, reporter_thread, r, 0);
	if (ret) {
		monitor_stop(mon);
		return ret;
	}
	ret = ws_thread_start(&writer_tid, writer_thread, w, 0);
	if (ret) {
		struct ws_outcome o = { .reason = WS_STOP_ERROR, .err = -ret,
					.err_op = "pthread_create", .end_ns = 1 };

		snapshot_start(w->snap, 1);
		snapshot_finish(w->snap, &o);
	} else {
		pthread_join(writer_tid, NULL);
	}
	monitor_stop(mon);
	snapshot_close(w->snap);
	pthread_join(reporter_tid, NULL);
	return ret;
}

int main(int argc, char **argv)
{
	struct ws_config cfg;
	struct ws_target target;
	struct ws_target_error terr;
	struct ws_plan plan;
	struct ws_plan_refusal why;
	struct ws_snapshot snap;
	struct sink_set sinks = { .n = 0 };
	struct writer writer;
	struct monitor monitor;
	struct reporter reporter;
	char err[512];
	struct ws_run run;
	int ret, status;

	setlocale(LC_CTYPE, "");
	switch (opts_parse(argc, argv, &cfg, stderr)) {
	case OPTS_EXIT_OK:
		return WS_EXIT_OK;
	case OPTS_USAGE:
		return WS_EXIT_USAGE;
	case OPTS_RUN:
		break;
	}

	if (target_open(&cfg, pace_modes[cfg.pace]->open_flags, &target, &terr))
		return fail(terr.msg, terr.hint, terr.status);
	if (plan_make(&cfg, &target.space, &plan, &why)) {
		target_close(&target, cfg.path, target.created);
		return refuse_plan(&cfg, &why);
	}
	if (!target.created && (ret = target_truncate(&target))) {
		target_close(&target, cfg.path, false);
		return fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
	}
	if (target.forced)
		target_mark(&target);	/* ours now: a re-run needs no --force */
	if (pace_modes[cfg.pace]->check &&
	    (ret = pace_modes[cfg.pace]->check(target.fd))) {
		char msg[512];

		snprintf(msg, sizeof(msg), "--pace %s is not supported for '%s': %s",
			 pace_modes[cfg.pace]->name, cfg.path, strerror(-ret));
		target_close(&target, cfg.path, target.created);
		return fail(msg, "it needs Linux 6.14 or later and a filesystem that implements it; use --pace window", WS_EXIT_FAILURE);
	}

	ret = snapshot_init(&snap);
	if (!ret)
		ret = writer_init(&writer, &cfg, &plan, &snap, &ws_stop,
				  target.fd, &io_posix_ops, NULL);
	if (ret) {
		target_close(&target, cfg.path, cfg.remove_after);
		return fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
	}
	writer.avail = target_avail;

	ret = monitor_init(&monitor, &cfg, &snap, err, sizeof(err));
	if (ret) {
		writer_destroy(&writer);
		target_close(&target, cfg.path, target.created);
		return fail(err, "--probe-dir DIR puts probe files elsewhere; --no-probe runs without",
			    WS_EXIT_FAILURE);
	}
	signals_install();
	for (unsigned int i = 0; i < monitor.nprobes; i++)
		signals_unlink_at_exit(monitor.probes[i].probe.dirfd,
				       monitor.probes[i].probe.name);
	monitor_harden(&monitor);
	ret = monitor_start(&monitor);
	if (ret) {
		monitor_cleanup(&monitor);
		writer_destroy(&writer);
		target_close(&target, cfg.path, target.created);
		return fail(strerror(-ret), NULL, WS_EXIT_FAILURE);
	}

	run = (struct ws_run){ .cfg = &cfg, .plan = &plan, .target = &target,
			       .mon = &monitor, .argv0 = argv[0] };
	choose_sinks(&cfg, &sinks);
	sink_header(&sinks, &run);
	reporter_init(&reporter, &run, &snap, &sinks);

	ret = run_threads(&writer, &monitor, &reporter);
	status = ret ? fail(strerror(-ret), NULL, WS_EXIT_FAILURE)
		     : exit_status(&reporter.summary);
	monitor_cleanup(&monitor);

	if (sink_close_all(&sinks) && status == WS_EXIT_OK)
		status = fail("cannot write the report to standard output", NULL,
			      WS_EXIT_FAILURE);
	writer_destroy(&writer);
	snapshot_destroy(&snap);
	if (target_close(&target, cfg.path, cfg.remove_after) && cfg.remove_after)
		fprintf(stderr, "writestress: could not remove '%s'\n", cfg.path);
	return status;
}
