/* main.c - wiring only: options, targets, probes, threads, exit status. */
#include <errno.h>
#include <locale.h>
#include <stddef.h>
#include <stdlib.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/caps.h"
#include "system/clock.h"
#include "config/config.h"
#include "system/fingerprint.h"
#include "run/job.h"
#include "probes/monitor.h"
#include "commands.h"
#include "opts.h"
#include "engine/pace.h"
#include "config/plan.h"
#include "system/priv.h"
#include "recorder/recorder.h"
#include "system/signals.h"
#include "outputs/sink.h"
#include "engine/snapshot.h"
#include "run/target.h"
#include "lib/exit.h"
#include "lib/term.h"
#include "system/thread.h"
#include "lib/units.h"
#include "engine/readback.h"
#include "engine/writer.h"
#include "trace/trace.h"

/* What a person reads goes to stderr when a result goes to stdout. */
static void choose_sinks(const struct ws_config *cfg, struct sink_set *sinks)
{
	bool result_out = opts_result_to_stdout(cfg);
	FILE *out = result_out ? stderr : stdout;

	if (cfg->quiet)
		sink_add(sinks, &sink_quiet_ops, out);
	else if (isatty(fileno(out)) && !sink_add(sinks, &sink_live_ops, out))
		sinks->sinks[sinks->n - 1].colour = term_wants_colour(cfg->colour, out);
	else
		sink_add(sinks, &sink_plain_ops, out);
	if (sinks->n)
		sinks->sinks[sinks->n - 1].verbose = cfg->verbose;
}

static int exit_status(const struct ws_run *run, const struct ws_summary *sum)
{
	const struct ws_ending *o = &sum->ending;
	char msg[640], who[300] = "", detail[192];

	for (unsigned int i = 0; i < sum->ntargets; i++)
		if (sum->targets[i].ending.reason == WS_STOP_ERROR) {
			snprintf(who, sizeof(who), "'%s': ", run->targets[i].target.path);
			break;
		}
	switch (o->reason) {
	case WS_STOP_ERROR:
		snprintf(msg, sizeof(msg), "%s%s failed at offset %llu: %s%s%s", who,
			 o->err_op ? o->err_op : "I/O",
			 (unsigned long long)o->err_offset, strerror(o->err),
			 o->detail ? "; " : "",
			 ws_detail_words(o->detail, o->detail_bytes, run->set.pace,
					 detail, sizeof(detail)));
		return ws_fail(msg, NULL, WS_EXIT_FAILURE);
	case WS_STOP_SIGNAL:
		return o->signo ? 128 + o->signo : WS_EXIT_FAILURE;
	default:
		break;
	}
	if (sum->verified && !readback_clean(&sum->verify)) {
		snprintf(msg, sizeof(msg), "verify: %llu of %llu blocks are not as written%s%s",
			 (unsigned long long)(sum->verify.blocks - sum->verify.count[WS_BLOCK_OK]),
			 (unsigned long long)sum->verify.blocks,
			 sum->verify.err ? "; reading back failed: " : "",
			 sum->verify.err ? strerror(sum->verify.err) : "");
		return ws_fail(msg, NULL, WS_EXIT_FAILURE);
	}
	return WS_EXIT_OK;
}

/* A writer that could not start ends like an I/O error, before it wrote;
 * it started and ended now, so the others' clock is not moved. */
static void writer_failed(struct ws_job *j, int ret, const char *what)
{
	uint64_t now = ws_now_ns();
	struct ws_outcome o = { .reason = WS_STOP_ERROR, .err = -ret,
				.err_op = what, .end_ns = now };

	o.detail = WS_DETAIL_NO_START;
	snapshot_start(&j->snap, now);
	snapshot_finish(&j->snap, &o);
}

/* 0, or -errno with what failed in *what when the recorder could not
 * start (nothing written); a writer that could not start is an ending. */
static int run_threads(struct ws_job *jobs, unsigned int n, struct monitor *mon,
		       struct recorder *r, const char **what)
{
	pthread_t writer_tid[WS_MAX_TARGETS], recorder_tid;
	bool started[WS_MAX_TARGETS] = { false };
	int ret;

	recorder_baseline(r);
	ret = ws_thread_start(&recorder_tid,
			      &(struct ws_thread_spec){ .name = "ws-report" },
			      recorder_thread, r);
	if (ret) {
		*what = ws_thread_last_failure();
		monitor_stop(mon);
		return ret;
	}
	*what = "dropping capabilities";
	ret = caps_drop_main();
	for (unsigned int i = 0; i < n; i++) {
		/* its prologue raises from main's permitted set (caps.h) */
		struct ws_thread_spec spec = {
			.name = "ws-writer", .ioprio_class = jobs[i].cfg.set.ioprio_class,
			.ioprio_level = jobs[i].cfg.set.ioprio_level,
		};
		char name[16];
		int wret = ret;

		if (n > 1) {
			snprintf(name, sizeof(name), "ws-writer%u", jobs[i].number);
			spec.name = name;
		}
		if (!wret && jobs[i].cfg.set.watch) {
			spec.name = "ws-watch";
			wret = ws_thread_start(&writer_tid[i], &spec, idle_thread,
					       &jobs[i].idle);
			*what = ws_thread_last_failure();
		} else if (!wret) {
			wret = ws_thread_start(&writer_tid[i], &spec, writer_thread,
					       &jobs[i].writer);
			*what = ws_thread_last_failure();
		}
		if (wret)
			writer_failed(&jobs[i], wret, *what);
		started[i] = !wret;
	}
	for (unsigned int i = 0; i < n; i++)
		if (started[i])
			pthread_join(writer_tid[i], NULL);
	monitor_stop(mon);
	for (unsigned int i = 0; i < n; i++)
		snapshot_close(&jobs[i].snap);
	pthread_join(recorder_tid, NULL);
	return 0;
}

/* First of all, so a bad --json path is found before a byte is written. */
static int open_results(const struct ws_config *cfg, struct sink_set *sinks)
{
	static const struct {
		const struct sink_ops *ops;
		size_t offset;
		const char *opt;
	} files[] = {
		{ &sink_json_ops, offsetof(struct ws_config, set.json_path), "--json" },
		{ &sink_csv_ops, offsetof(struct ws_config, set.csv_path), "--csv" },
		{ &sink_svg_ops, offsetof(struct ws_config, set.svg_path), "--svg" },
		{ &sink_prom_ops, offsetof(struct ws_config, set.prom_path), "--prom" },
	};
	char err[512];

	sinks->force = cfg->force;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *path = *(const char *const *)((const char *)cfg + files[i].offset);

		struct stat st;
		bool exists = path && strcmp(path, "-") && lstat(path, &st) == 0 &&
			      S_ISREG(st.st_mode);
		int ret = path ? sink_add_file(sinks, files[i].ops, path, err, sizeof(err)) : 0;

		if (ret == -EPERM) {
			sink_abort_all(sinks);
			fprintf(stderr, "writestress: refusing to replace %s: %s\n", files[i].opt, err);
			fprintf(stderr, "hint: name another file, remove it, or add --force to replace it\n");
			return WS_EXIT_REFUSED;
		}
		if (ret) {
			fprintf(stderr, "writestress: invalid %s '%s': %s\n", files[i].opt,
				path, err);
			errtryhelp(stderr, "writestress");
			sink_abort_all(sinks);
			return WS_EXIT_USAGE;
		}
		if (exists)
			fprintf(stderr, "writestress: %s '%s' exists: this run's result will replace it\n",
				files[i].opt, path);
	}
	return 0;
}

/* Probes beside the first target on each filesystem (or once, in
 * --probe-dir); a site's probes steer the writers on its filesystem. */
static unsigned int probe_sites(struct ws_job *jobs, unsigned int n,
				struct monitor_site *sites)
{
	bool one_dir = jobs[0].cfg.set.probe_dir != NULL;
	unsigned int nsites = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct monitor_site *site = &sites[nsites];

		if (jobs[i].same_fs_as || (one_dir && i))
			continue;
		*site = (struct monitor_site){
			.cfg = &jobs[i].cfg, .snap = &jobs[i].snap,
			.number = nsites ? jobs[i].number : 0,
		};
		for (unsigned int k = 0; k < n; k++)
			if (one_dir || k == i || jobs[k].same_fs_as == jobs[i].number)
				site->steer[site->nsteer++] = &jobs[k].snap;
		nsites++;
	}
	return nsites;
}

/* --pace adaptive cannot hold the probes under what they take on the
 * idle disk, so that is measured before any writer starts. */
#define IDLE_PROBES 5
static int check_target_latency(const struct ws_config *cfg, struct monitor *mon)
{
	const char *name = NULL;
	char msg[256], t[32], idle[32];
	uint64_t ns;

	if (cfg->set.pace != WS_PACE_ADAPTIVE || !mon->nprobes)
		return 0;
	ns = monitor_idle_ns(mon, IDLE_PROBES, &name);
	if (cfg->set.pacing.target_latency_ns >= ns)
		return 0;
	snprintf(msg, sizeof(msg),
		 "invalid --target-latency '%s': the %s probe takes %s on the idle disk (median of %d)",
		 units_format_duration(t, sizeof(t), cfg->set.pacing.target_latency_ns), name,
		 units_format_duration(idle, sizeof(idle), ns), IDLE_PROBES);
	return ws_fail(msg, "choose a target above that; no writer can make a probe faster than an idle disk",
		       WS_EXIT_USAGE);
}

/* Before the writers, so the first figures are the quiet machine's. */
static int start_monitor(const struct ws_config *cfg, struct monitor *mon,
			 struct ws_job *jobs, unsigned int n)
{
	struct monitor_site sites[WS_MAX_TARGETS];
	unsigned int nsites = probe_sites(jobs, n, sites);
	const char *hint = NULL;
	char err[512];
	int ret = monitor_init(mon, cfg, sites, nsites, err, sizeof(err), &hint);

	if (ret)
		return ws_fail(err, hint, WS_EXIT_FAILURE);
	for (unsigned int i = 0; i < mon->nprobes; i++) {
		const char *names[PROBE_MAX_NAMES];
		unsigned int nnames = probe_file_names(&mon->probes[i].probe, names);

		for (unsigned int k = 0; k < nnames; k++)
			signals_unlink_at_exit(mon->probes[i].probe.dirfd, names[k]);
	}
	if ((ret = check_target_latency(cfg, mon))) {
		monitor_cleanup(mon);
		return ret;
	}
	if (cfg->set.pace == WS_PACE_ADAPTIVE)
		monitor_setup_steering(mon);
	monitor_harden(mon);
	ret = monitor_start(mon);
	if (ret) {
		monitor_cleanup(mon);
		snprintf(err, sizeof(err), "probes: %s: %s", ws_thread_last_failure(),
			 strerror(-ret));
		return ws_fail(err, NULL, WS_EXIT_FAILURE);
	}
	monitor_lock_memory(mon);
	return 0;
}

/* --scheduler switches one device's: with several, which is a guess. */
static int check_devices(const struct ws_config *cfg, const struct ws_job *jobs,
			 unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		if (!cfg->set.scheduler || jobs[i].same_device_as)
			continue;
		fprintf(stderr, "writestress: --scheduler %s: the targets are on more than one device ('%s' is not on the device of '%s')\n",
			cfg->set.scheduler, jobs[i].cfg.set.path, jobs[0].cfg.set.path);
		errtryhelp(stderr, "writestress");
		return WS_EXIT_USAGE;
	}
	return 0;
}

/* With several targets, what is kept of each. */
struct targets_record {
	struct ws_run *run;		/* one per target */
	struct recorder_target *follow;	/* one per target */
	struct ws_summary *summary;
	struct ws_series *series;	/* 2n: intervals, then progress */
};

static void free_targets_record(struct targets_record *tr)
{
	if (!tr)
		return;
	free(tr->run);
	free(tr->follow);
	free(tr->summary);
	free(tr->series);
	free(tr);
}

static struct recorder_sources sources_of(const struct ws_job *j,
					  const struct ws_config *cfg,
					  const struct monitor *mon,
					  const struct ws_priv *priv,
					  int argc, char **argv)
{
	return (struct recorder_sources){
		.cfg = cfg, .plan = &j->plan, .target = &j->target, .fp = &j->fp,
		.mon = mon, .priv = priv, .queue = &j->queue, .argc = argc,
		.argv = argv,
	};
}

static int make_record(struct ws_config *cfg, struct ws_job *jobs, unsigned int n,
		       struct monitor *mon, const struct ws_priv *priv,
		       int argc, char **argv, struct ws_run *run,
		       struct targets_record **out)
{
	struct targets_record *tr;
	struct recorder_sources src;

	*out = NULL;
	src = sources_of(&jobs[0], n == 1 ? &jobs[0].cfg : cfg, mon, priv, argc, argv);
	recorder_make_run(&src, run);
	if (n == 1)
		return 0;
	tr = calloc(1, sizeof(*tr));
	if (tr) {
		tr->run = calloc(n, sizeof(*tr->run));
		tr->follow = calloc(n, sizeof(*tr->follow));
		tr->summary = calloc(n, sizeof(*tr->summary));
		tr->series = calloc(2 * (size_t)n, sizeof(*tr->series));
	}
	if (!tr || !tr->run || !tr->follow || !tr->summary || !tr->series) {
		free_targets_record(tr);
		return -ENOMEM;
	}
	/* steady state is judged on all targets' bytes: after all their
	 * preconditioning */
	run->plan.precondition = 0;
	for (unsigned int i = 0; i < n; i++) {
		src = sources_of(&jobs[i], &jobs[i].cfg, mon, priv, argc, argv);
		recorder_make_run(&src, &tr->run[i]);
		tr->run[i].number = jobs[i].number;
		tr->run[i].same_device_as = jobs[i].same_device_as;
		tr->follow[i] = (struct recorder_target){
			.run = &tr->run[i], .snap = &jobs[i].snap,
			.series = &tr->series[i], .progress = &tr->series[n + i],
			.summary = &tr->summary[i],
		};
		run->plan.precondition += tr->run[i].plan.precondition;
	}
	run->plan.precondition_x = 0;	/* a sum: no device's multiple */
	run->params.precondition_bytes = run->plan.precondition;
	run->ntargets = n;
	run->targets = tr->run;
	*out = tr;
	return 0;
}

#define PRIV_HINT "run it as root (sudo writestress ...), or leave the option out; " \
	"writestress keeps no capability once its threads run"

static int setup_privileged(const struct ws_config *cfg, struct ws_fingerprint *fp,
			    struct ws_priv *priv)
{
	const struct priv_ask ask = {
		.path = cfg->set.path, .scheduler = cfg->set.scheduler,
		.ioprio_class = cfg->set.ioprio_class,
		.probe_ioprio_class = cfg->set.probe_ioprio_class,
		.drop_caches = cfg->set.drop_caches,
	};
	char err[1024];
	int ret = priv_setup(&ask, fp, priv, err, sizeof(err));

	return ret ? ws_fail(err, ret == -EPERM ? PRIV_HINT : NULL, WS_EXIT_FAILURE) : 0;
}

/* On the heap, not on a stack that is locked once the probes start. */
struct big {
	struct monitor monitor;
	struct recorder recorder;
	struct ws_series progress;
	struct ws_run run;
	struct ws_trace *trace;	/* NULL: not traced */
};

/* As root, on a block device the targets share; elsewhere one line says
 * what is missing and the run goes on, unless --trace asked for it. */
static int start_trace(const struct ws_config *cfg, const struct ws_job *jobs,
		       unsigned int n, struct ws_trace **out)
{
	struct trace_disk disk;
	char why[256];
	int ret = 0;

	*out = NULL;
	if (cfg->set.no_trace || (jobs[0].fp.kind == WS_FP_NONE && !cfg->set.trace_required))
		return 0;
	for (unsigned int i = 1; i < n && !ret; i++)
		if (!jobs[i].same_device_as) {
			snprintf(why, sizeof(why), "the targets are on more than one device");
			ret = -EOPNOTSUPP;
		}
	if (!ret && geteuid() != 0) {
		snprintf(why, sizeof(why), "tracing needs root");
		ret = -EPERM;
	}
	if (!ret)
		ret = trace_disk_of(&jobs[0].fp, &disk, why, sizeof(why));
	/* a watch has no file of its own */
	if (!ret)
		snprintf(disk.file, sizeof(disk.file), "%s",
			 cfg->set.watch ? "" : jobs[0].cfg.set.path);
	if (!ret)
		ret = trace_start(out, &disk, why, sizeof(why));
	if (!ret && (ret = trace_run(*out))) {
		snprintf(why, sizeof(why), "tracer: %s: %s", ws_thread_last_failure(),
			 strerror(-ret));
		trace_stop(*out);
		*out = NULL;
		return ws_fail(why, NULL, WS_EXIT_FAILURE);
	}
	if (!ret)
		return 0;
	if (cfg->set.trace_required)
		return ws_fail(why, "--no-trace runs without it", WS_EXIT_FAILURE);
	if (cfg->set.watch && ret == -EPERM)
		fprintf(stderr, "writestress: watching with the probes only: naming each stall's cause and culprits traces the kernel, which needs root (sudo writestress watch ...)\n");
	else if (!cfg->quiet)
		fprintf(stderr, "writestress: not tracing the device's requests: %s\n", why);
	return 0;
}

static int finish_run(const struct ws_config *cfg, struct ws_job *jobs,
		      struct big *big, struct sink_set *sinks)
{
	int status = exit_status(&big->run, &big->recorder.summary);

	for (unsigned int i = 0; i < cfg->ntargets; i++)
		jobs[i].remove = cfg->remove_after;
	/* what the run may not do, its cleanup may have to */
	caps_raise_cleanup();
	monitor_cleanup(&big->monitor);
	if (sink_close_all(sinks) && status == WS_EXIT_OK)
		status = ws_fail("cannot complete the report or a result file", NULL,
				 WS_EXIT_FAILURE);
	recorder_destroy(&big->recorder);
	return status;
}

static int run(struct ws_config *cfg, int argc, char **argv)
{
	struct sink_set sinks = { .n = 0, .tmp_made = signals_unlink_at_exit };
	struct ws_priv priv = { .caches_dropped = false };
	struct targets_record *tr = NULL;
	struct ws_series *series;
	struct ws_job *jobs;
	struct big *big;
	char err[1024];
	const char *what;
	int ret, status;

	/* ^C ends the run cleanly from here on, setup included */
	signals_install();
	series = calloc(1, sizeof(*series));
	big = calloc(1, sizeof(*big));
	jobs = calloc(cfg->ntargets, sizeof(*jobs));
	if (!series || !big || !jobs) {
		status = ws_fail(strerror(ENOMEM), NULL, WS_EXIT_FAILURE);
		goto out_free;
	}
	status = open_results(cfg, &sinks);
	if (status)
		goto out_free;
	status = jobs_open(cfg, jobs);
	if (status)
		goto out_sinks;
	status = check_devices(cfg, jobs, cfg->ntargets);
	if (!status)
		status = jobs_prepare(jobs, cfg->ntargets);
	if (!status)
		status = setup_privileged(cfg, &jobs[0].fp, &priv);
	if (status)
		goto out_jobs;
	status = start_monitor(cfg, &big->monitor, jobs, cfg->ntargets);
	if (status)
		goto out_jobs;
	if (make_record(cfg, jobs, cfg->ntargets, &big->monitor, &priv, argc, argv,
			&big->run, &tr))
		status = ws_fail(strerror(ENOMEM), NULL, WS_EXIT_FAILURE);
	else
		status = start_trace(cfg, jobs, cfg->ntargets, &big->trace);
	if (status) {
		caps_raise_cleanup();
		monitor_stop(&big->monitor);
		monitor_cleanup(&big->monitor);
		goto out_jobs;
	}
	choose_sinks(cfg, &sinks);
	sink_header(&sinks, &big->run);
	ret = recorder_init(&big->recorder, &big->run, &big->monitor, &jobs[0].snap,
			    &sinks, series, &big->progress);
	if (ret) {
		what = "the record's memory";
		monitor_stop(&big->monitor);
	} else {
		if (tr)
			recorder_set_targets(&big->recorder, tr->follow, cfg->ntargets);
		big->recorder.trace = big->trace;
		ret = run_threads(jobs, cfg->ntargets, &big->monitor, &big->recorder,
				  &what);
	}
	if (ret) {	/* nothing written: as if setup had failed */
		snprintf(err, sizeof(err), "%s: %s", what, strerror(-ret));
		status = ws_fail(err, NULL, WS_EXIT_FAILURE);
		caps_raise_cleanup();
		monitor_cleanup(&big->monitor);
		recorder_destroy(&big->recorder);
		goto out_jobs;
	}
	status = finish_run(cfg, jobs, big, &sinks);

out_jobs:
	caps_raise_cleanup();
	if (big)
		trace_stop(big->trace);
	if (priv_restore(&priv, err, sizeof(err)))
		ws_fail(err, NULL, status);
	jobs_close(jobs, cfg->ntargets);
out_sinks:
	sink_abort_all(&sinks);	/* no-op once closed */
out_free:
	free_targets_record(tr);
	free(jobs);
	free(big);
	free(series);
	return status;
}

int main(int argc, char **argv)
{
	struct ws_config cfg;
	int status;
	const struct ws_command *sub = argc > 1 ? ws_command_by_name(argv[1]) : NULL;
	enum opts_result parsed;
	bool *seen = NULL;

	setlocale(LC_CTYPE, "");
	if (sub && sub->main)
		return sub->main(argc - 1, argv + 1);
	/* watch is a run without a writer: the same wiring, the same rules */
	if (sub) {
		parsed = watch_parse(argc - 1, argv + 1, &cfg, stderr, &seen);
		if (parsed == OPTS_RUN)
			parsed = opts_check(&cfg, seen, stderr);
		free(seen);
	} else {
		parsed = opts_parse(argc, argv, &cfg, stderr);
	}
	switch (parsed) {
	case OPTS_EXIT_OK:
		return WS_EXIT_OK;
	case OPTS_USAGE:
		return WS_EXIT_USAGE;
	case OPTS_RUN:
		break;
	}
	status = run(&cfg, argc, argv);
	signals_block_stop();
	return status;
}
