/* tracer.c - the private tracefs instance and its thread. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "events.h"
#include "evidence.h"
#include "tracer.h"
#include "record/fingerprint_facts.h"
#include "system/iolimit.h"
#include "system/kstat.h"
#include "system/clock.h"
#include "system/sysfs.h"
#include "system/thread.h"
#include "trace/trace.h"

#define INSTANCE_PREFIX "writestress-"
#define DRAIN_NS (50 * 1000 * 1000)
/* per CPU: a request is three events of about 80 bytes, drained each 50 ms */
#define RING_KB "2048"

static void drain(struct ws_trace *t)
{
	pthread_mutex_lock(&t->lock);
	tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, tracer_on_event, t);
	evidence_settle(&t->ev, false);
	pthread_mutex_unlock(&t->lock);
}

static void *tracer_thread(void *arg)
{
	struct ws_trace *t = arg;
	struct timespec nap = { 0, DRAIN_NS };

	while (!atomic_load_explicit(&t->stop, memory_order_acquire)) {
		drain(t);
		nanosleep(&nap, NULL);
	}
	drain(t);
	return NULL;
}

static uint64_t lost_so_far(struct ws_trace *t)
{
	uint64_t sum = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (long c = 0; c < ncpu; c++) {
		char file[64], *text, *at;
		int size;

		snprintf(file, sizeof(file), "per_cpu/cpu%ld/stats", c);
		text = tracefs_instance_file_read(t->inst, file, &size);
		if (!text)
			continue;
		at = strstr(text, "overrun:");
		if (at)
			sum += strtoull(at + 8, NULL, 10);
		free(text);
	}
	return sum;
}

/* WS_TRACE_RECORD, for test fixtures: a new file, never an existing one
 * or a link (this runs as root). */
static FILE *record_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		fprintf(stderr, "writestress: WS_TRACE_RECORD '%s': %s (not recording)\n",
			path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* WS_TRACE_RING_KB lets a test overflow the ring (t_e2e_trace). */
static int ring_kb(char *out, size_t len, char *why, size_t wlen)
{
	const char *v = getenv("WS_TRACE_RING_KB");
	char *end;
	unsigned long kb;

	if (!v || !*v) {
		snprintf(out, len, "%s", RING_KB);
		return 0;
	}
	errno = 0;
	kb = strtoul(v, &end, 10);
	if (errno || *end || !kb || kb > 65536 || *v == '-') {
		snprintf(why, wlen, "WS_TRACE_RING_KB '%.32s': not a size in KiB from 1 to 65536", v);
		return -1;
	}
	snprintf(out, len, "%lu", kb);
	return 0;
}

static int fail(struct ws_trace *t, int err, char *why, size_t len, const char *what)
{
	if (what != why)
		snprintf(why, len, "%s", what);
	if (t->inst) {
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	if (t->tep)
		tep_free(t->tep);
	evidence_free(&t->ev);
	culprits_free(&t->culprits);
	pthread_mutex_destroy(&t->lock);
	free(t);
	return err;
}

static uint32_t wbt_lat_us(const char *sysdir)
{
	char path[700];
	int64_t v = 0;

	snprintf(path, sizeof(path), "%s/queue/wbt_lat_usec", sysdir);
	if (sysfs_read_i64("", path, &v))
		return 0;
	return v > 0 && v < INT32_MAX ? (uint32_t)v : 0;
}

int trace_start(struct ws_trace **out, const struct trace_disk *disk,
		char *why, size_t len)
{
	struct ws_trace *t = calloc(1, sizeof(*t));
	const char *dir = NULL, *rec = getenv("WS_TRACE_RECORD");
	char name[48], ring[16];
	int ret;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	evidence_init(&t->ev, 0);
	/* libtracefs 1.6 hands the mount point's path over to the caller */
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !dir)
		return fail(t, -ENOENT, why, len, "tracefs is not mounted and cannot be");
	free((void *)dir);
	trace_remove_stale();
	snprintf(name, sizeof(name), INSTANCE_PREFIX "%d", (int)getpid());
	t->inst = tracefs_instance_create(name);
	if (!t->inst)
		return fail(t, errno ? -errno : -EPERM, why, len,
			    "cannot make a tracefs instance (root only)");
	if (ring_kb(ring, sizeof(ring), why, len))
		return fail(t, -EINVAL, why, len, why);
	/* a new instance records at once: off until trace_run, where the
	 * device's counters are read, so setup's requests are neither's */
	if (tracefs_trace_off(t->inst) < 0 ||
	    tracefs_instance_file_write(t->inst, "buffer_size_kb", ring) < 0 ||
	    tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0)
		return fail(t, -EIO, why, len, "cannot size the instance's ring or set its clock");
	t->tep = tracer_read_formats();
	if (!t->tep)
		return fail(t, -ENOENT, why, len, "the kernel's block events are not readable");
	ret = tracer_enable_events(t, disk);
	if (ret)
		return fail(t, ret, why, len, ret == -ENOENT ?
			    "the kernel lacks the block_rq tracepoints" :
			    "cannot enable the block_rq tracepoints");
	if (rec && *rec)
		t->record = record_file(rec);
	snprintf(t->sysdir, sizeof(t->sysdir), "%s", disk->sysdir);
	if (disk->journal == TRACE_JOURNAL_XFS)
		snprintf(t->xfs_name, sizeof(t->xfs_name), "%s", disk->fs_name);
	/* a journal in the filesystem (inode 8); an external one is not counted */
	if (disk->journal == TRACE_JOURNAL_JBD2 && disk->fs_name[0])
		snprintf(t->jbd2_name, sizeof(t->jbd2_name), "%s-8", disk->fs_name);
	if (disk->fs_block)
		t->ev.block_size = disk->fs_block;
	snprintf(t->file, sizeof(t->file), "%s", disk->file);
	fileext_init(&t->ev.file, disk->part_start);
	if (t->file[0] && filewatch_start(&t->watch, t->file, disk->part_start))
		t->file[0] = '\0';	/* no reader: the flusher's stay the flusher's */
	iolimit_write("", disk->major, disk->minor, &t->limit);
	t->ev.wbt_lat_us = wbt_lat_us(disk->sysdir);
	t->ev.bs.iv.wbt_on = t->ev.bs.run.wbt_on = t->ev.wbt_traced && t->ev.wbt_lat_us;
	if (t->record)
		fprintf(t->record, "# io_limit_bps %llu iops %llu\n# wbt_lat_us %u\n",
			(unsigned long long)t->limit.bps, (unsigned long long)t->limit.iops,
			t->ev.wbt_lat_us);
	*out = t;
	return 0;
}

int trace_run(struct ws_trace *t)
{
	int ret;

	t->ev.tl.origin_ns = ws_now_ns();
	lostspans_init(&t->lost, t->ev.tl.origin_ns);
	if (t->culprits_on &&
	    culprits_init(&t->culprits, t->ev.tl.origin_ns, (int32_t)getpid()))
		t->culprits_on = false;
	if (t->culprits_on)
		tracer_learn_ours(t);
	if (t->record)
		fprintf(t->record, "# origin %llu\n", (unsigned long long)t->ev.tl.origin_ns);
	/* the counters first: a request between the two is the device's
	 * count only, never the trace's alone */
	t->have_stat = kstat_diskstat("", t->sysdir, &t->stat0) == 0;
	t->have_xlog = t->xfs_name[0] &&
		       kstat_xfs_log("", t->xfs_name, &t->xlog_writes0, &t->xlog_blocks0) == 0;
	t->have_jbd2 = t->jbd2_name[0] &&
		       kstat_jbd2_info("", t->jbd2_name, &t->jbd2_transactions0,
				       &t->jbd2_logging0) == 0;
	tracefs_trace_on(t->inst);
	ret = ws_thread_start(&t->tid, &(struct ws_thread_spec){ .name = "ws-trace" },
			      tracer_thread, t);
	t->started = ret == 0;
	return ret;
}

/* Recorded too, so a replay has the same spans. */
static uint64_t note_lost(struct ws_trace *t, uint64_t lost)
{
	uint64_t now = ws_now_ns();

	if (t->record)
		fprintf(t->record, "# lost %llu %llu\n", (unsigned long long)now,
			(unsigned long long)lost);
	return lostspans_note(&t->lost, lost, now);
}

void trace_take(struct ws_trace *t, struct ws_block_figures *block,
		struct ws_journal_figures *journal, struct ws_writers_now *writers,
		struct ws_command_bytes *commands)
{
	uint64_t lost;

	drain(t);	/* what completed by now is the interval's */
	lost = lost_so_far(t);

	pthread_mutex_lock(&t->lock);
	evidence_take(&t->ev, block, journal);
	block->lost = note_lost(t, lost);
	memset(writers, 0, sizeof(*writers));
	memset(commands, 0, sizeof(*commands));
	if (t->culprits_on) {
		struct ws_culprits *table = malloc(sizeof(*table));

		culprits_take_now(&t->culprits, writers);
		if (table) {	/* else no commands this interval */
			culprits_table(&t->culprits, table);
			ws_culprits_by_command(table, commands);
			free(table);
		}
	}
	pthread_mutex_unlock(&t->lock);
}

static void counted(struct ws_trace *t, struct ws_block_figures *run)
{
	struct ws_diskstat d;

	if (!t->have_stat || kstat_diskstat("", t->sysdir, &d))
		return;
	run->have_counted = true;
	run->counted[WS_BLK_READ].requests = d.read_ios - t->stat0.read_ios;
	run->counted[WS_BLK_READ].bytes = (d.read_sectors - t->stat0.read_sectors) * WS_SECTOR;
	run->counted[WS_BLK_READ].time_ns = (d.read_ticks - t->stat0.read_ticks) * 1000000;
	run->counted[WS_BLK_WRITE].requests = d.write_ios - t->stat0.write_ios;
	run->counted[WS_BLK_WRITE].bytes = (d.write_sectors - t->stat0.write_sectors) * WS_SECTOR;
	run->counted[WS_BLK_WRITE].time_ns = (d.write_ticks - t->stat0.write_ticks) * 1000000;
	run->counted[WS_BLK_READ].merges = d.read_merges - t->stat0.read_merges;
	run->counted[WS_BLK_WRITE].merges = d.write_merges - t->stat0.write_merges;
	run->counted_flushes = d.flush_ios - t->stat0.flush_ios;
	run->counted_flush_ns = (d.flush_ticks - t->stat0.flush_ticks) * 1000000;
}

static int copy_rounds(const struct roundlat *rl, struct trace_totals *out)
{
	out->rounds_on = rl->started;
	out->nrounds = rl->ndone;
	out->rounds_outside = rl->clock.early + rl->clock.late;
	if (!rl->ndone)
		return 0;
	out->rounds = malloc(rl->ndone * sizeof(*out->rounds));
	if (!out->rounds) {
		out->rounds_on = false;
		out->nrounds = 0;
		return -ENOMEM;
	}
	memcpy(out->rounds, rl->done, rl->ndone * sizeof(*out->rounds));
	return 0;
}

static void counted_journal(struct ws_trace *t, struct ws_journal_figures *j)
{
	uint64_t w, b;

	if (t->have_xlog && kstat_xfs_log("", t->xfs_name, &w, &b) == 0) {
		j->have_counted = true;
		j->counted_log_writes = w - t->xlog_writes0;
		j->counted_log_blocks = b - t->xlog_blocks0;
	}
	if (t->have_jbd2 && kstat_jbd2_info("", t->jbd2_name, &w, &b) == 0) {
		j->have_jbd2_counted = true;
		j->counted_transactions = w - t->jbd2_transactions0;
		/* an average times a count: it may shrink by rounding */
		j->counted_logging_ms = b > t->jbd2_logging0 ? b - t->jbd2_logging0 : 0;
	}
}

int trace_totals(struct ws_trace *t, struct trace_totals *out)
{
	struct blockstat *bs = &t->ev.bs;
	uint64_t lost;
	int ret;

	memset(out, 0, sizeof(*out));
	drain(t);
	lost = lost_so_far(t);
	pthread_mutex_lock(&t->lock);
	evidence_settle(&t->ev, true);
	note_lost(t, lost);
	out->block = bs->run;
	out->block.lost = lost;
	counted(t, &out->block);
	if (bs->write_service.count) {
		out->write_p50_ns = hist_percentile(&bs->write_service, 50.0);
		out->write_p99_ns = hist_percentile(&bs->write_service, 99.0);
	}
	roundlat_finish(&bs->rounds);
	ret = copy_rounds(&bs->rounds, out);
	observer_finish(&bs->obs);
	observer_estimate(&bs->obs, &out->observer);
	out->journal = t->ev.jn.run;
	out->journal.wb_running_known = true;
	out->journal.wb_running = flusher_running(&t->ev.flusher);
	counted_journal(t, &out->journal);
	out->io_limit_bps = t->limit.bps;
	out->io_limit_iops = t->limit.iops;
	pthread_mutex_unlock(&t->lock);
	return ret;
}

struct ws_stall_reason trace_explain(struct ws_trace *t, uint64_t start_ns,
				     uint64_t duration_ns, const char *site, int tid)
{
	struct stall_query q = {
		.start_ns = start_ns, .duration_ns = duration_ns,
		.site = site, .tid = tid,
		.limit_bps = t->limit.bps, .limit_iops = t->limit.iops,
	};
	struct ws_stall_reason r;

	pthread_mutex_lock(&t->lock);
	evidence_explain(&t->ev, &q, &r);
	lostspans_judge(&t->lost, start_ns, start_ns + duration_ns, &r);
	/* so the unit tests can explain a recorded run's stalls again */
	if (t->record)
		fprintf(t->record, "# stall %llu %llu %d %s -> %s\n",
			(unsigned long long)start_ns, (unsigned long long)duration_ns,
			tid, site[0] ? site : "-", ws_stall_cause_name(r.cause));
	pthread_mutex_unlock(&t->lock);
	return r;
}

void trace_culprits(struct ws_trace *t, struct ws_culprits *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&t->lock);
	if (t->culprits_on)
		culprits_table(&t->culprits, out);
	pthread_mutex_unlock(&t->lock);
}

void trace_stall_culprits(struct ws_trace *t, uint64_t start_ns, uint64_t duration_ns,
			  struct ws_stall_culprits *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&t->lock);
	if (t->culprits_on)
		culprits_window(&t->culprits, start_ns, duration_ns, out);
	pthread_mutex_unlock(&t->lock);
}

void trace_stop(struct ws_trace *t)
{
	if (!t)
		return;
	atomic_store_explicit(&t->stop, true, memory_order_release);
	if (t->started)
		pthread_join(t->tid, NULL);
	if (t->file[0])
		filewatch_stop(&t->watch);
	tracefs_trace_off(t->inst);
	if (t->record)
		fclose(t->record);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	tep_free(t->tep);
	evidence_free(&t->ev);
	culprits_free(&t->culprits);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

int trace_rounds(struct ws_trace *t, uint64_t origin_ns, uint64_t round_ns)
{
	int ret;

	pthread_mutex_lock(&t->lock);
	ret = roundlat_start(&t->ev.bs.rounds, origin_ns, round_ns);
	observer_start(&t->ev.bs.obs, origin_ns);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

static pid_t instance_pid(const char *name)
{
	const char *p = name + strlen(INSTANCE_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)) || !*p)
		return 0;
	pid = strtol(p, &end, 10);
	return *end || pid <= 0 || pid > INT32_MAX ? 0 : (pid_t)pid;
}

/* The instances directory is read here, not with tracefs_instances(),
 * whose 1.6 leaks the pattern it compiles. */
unsigned int trace_remove_stale(void)
{
	const char *top = tracefs_tracing_dir();
	char path[4096];
	unsigned int removed = 0;
	struct dirent *de;
	DIR *d;

	if (!top)
		return 0;
	snprintf(path, sizeof(path), "%s/instances", top);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid = instance_pid(de->d_name);
		struct tracefs_instance *inst;

		if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, de->d_name);
		if (inst && tracefs_instance_destroy(inst) == 0)
			removed++;
		tracefs_instance_free(inst);
	}
	closedir(d);
	return removed;
}

int trace_disk_of(const struct ws_fingerprint *fp, struct trace_disk *disk,
		  char *why, size_t len)
{
	char path[sizeof(disk->sysdir) + 8], dev[32];
	const char *slash;

	switch (fp->kind) {
	case WS_FP_DISK:
	case WS_FP_LOOP:
		snprintf(disk->sysdir, sizeof(disk->sysdir), "%s", fp->bdev_sysdir);
		break;
	case WS_FP_PARTITION:
		/* requests are the whole disk's */
		slash = strrchr(fp->bdev_sysdir, '/');
		if (!slash)
			goto unknown;
		snprintf(disk->sysdir, sizeof(disk->sysdir), "%.*s",
			 (int)(slash - fp->bdev_sysdir), fp->bdev_sysdir);
		break;
	case WS_FP_DM:
	case WS_FP_MD:
		snprintf(why, len, "the file is on %s, whose requests are its disks' (not traced yet)",
			 fingerprint_kind_name(fp->kind));
		return -EOPNOTSUPP;
	default:
		goto unknown;
	}
	disk->fs_major = fp->dev_major;
	disk->fs_minor = fp->dev_minor;
	slash = strrchr(fp->bdev_sysdir, '/');
	snprintf(disk->fs_name, sizeof(disk->fs_name), "%s", slash ? slash + 1 : "");
	disk->fs_block = (unsigned int)fp->block_size;
	disk->part_start = fp->kind == WS_FP_PARTITION && fp->disk[0].part_start > 0 ?
			   (uint64_t)fp->disk[0].part_start : 0;
	/* ext3 and ext4 journal through jbd2; xfs writes its own log */
	disk->own_bdi = !strcmp(fp->fs_type, "btrfs");
	disk->journal = !strcmp(fp->fs_type, "ext4") || !strcmp(fp->fs_type, "ext3") ?
			TRACE_JOURNAL_JBD2 : !strcmp(fp->fs_type, "xfs") ?
			TRACE_JOURNAL_XFS : TRACE_JOURNAL_NONE;
	snprintf(path, sizeof(path), "%s/dev", disk->sysdir);
	if (!fp->bdev_sysdir[0] || sysfs_read("", path, dev, sizeof(dev)) < 0 ||
	    sscanf(dev, "%u:%u", &disk->major, &disk->minor) != 2)
		goto unknown;
	return 0;
unknown:
	snprintf(why, len, "the file is not on a block device");
	return -ENODEV;
}
