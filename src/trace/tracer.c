/* tracer.c - the private tracefs instance and its thread (see trace.h). */
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

#include "blockstat.h"
#include "record/fingerprint_facts.h"
#include "system/kstat.h"
#include "system/sysfs.h"
#include "system/thread.h"
#include "trace/trace.h"

#define INSTANCE_PREFIX "writestress-"
#define DRAIN_NS (50 * 1000 * 1000)
/* per CPU: at full speed a request is three events of about 80 bytes, and
 * the ring is drained every 50 ms */
#define RING_KB "2048"

static const char *const event_names[] = {
	[BLK_GETRQ] = "block_getrq",
	[BLK_INSERT] = "block_rq_insert",
	[BLK_ISSUE] = "block_rq_issue",
	[BLK_COMPLETE] = "block_rq_complete",
};
#define NEVENTS (sizeof(event_names) / sizeof(event_names[0]))

struct ws_trace {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	int id[NEVENTS];
	struct tep_format_field *sector[NEVENTS], *nr_sector[NEVENTS], *rwbs[NEVENTS];
	pthread_t tid;
	bool started;
	atomic_bool stop;
	pthread_mutex_t lock;	/* bs, lost_taken */
	struct blockstat bs;
	uint64_t lost_taken;	/* lost events already handed out */
	FILE *record;		/* WS_TRACE_RECORD: every event, a line */
	char sysdir[600];	/* the disk's, for its own counters */
	struct ws_diskstat stat0;	/* at the start */
	bool have_stat;
};

static int on_event(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct ws_trace *t = ctx;
	struct blk_event e = { .ts_ns = rec->ts };
	unsigned long long v;
	unsigned int k;
	size_t n;

	(void)cpu;
	for (k = 0; k < NEVENTS && t->id[k] != ev->id; k++)
		;
	if (k == NEVENTS)
		return 0;
	e.kind = (enum blk_event_kind)k;
	if (!tep_read_number_field(t->sector[k], rec->data, &v))
		e.sector = v;
	if (!tep_read_number_field(t->nr_sector[k], rec->data, &v))
		e.nr_sector = (uint32_t)v;
	n = (size_t)t->rwbs[k]->size;
	memcpy(e.rwbs, (const char *)rec->data + t->rwbs[k]->offset,
	       n < sizeof(e.rwbs) ? n : sizeof(e.rwbs) - 1);
	if (t->record)
		fprintf(t->record, "%c %llu %llu %u %s\n", "GQDC"[k],
			(unsigned long long)e.ts_ns, (unsigned long long)e.sector,
			e.nr_sector, e.rwbs);
	blockstat_event(&t->bs, &e);
	return 0;
}

static void drain(struct ws_trace *t)
{
	pthread_mutex_lock(&t->lock);
	tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, on_event, t);
	blockstat_settle(&t->bs, false);
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

/* The events the ring dropped, over every CPU ("overrun" in per_cpu/cpuN/
 * stats). */
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

/* WS_TRACE_RECORD's file, for recording test fixtures: a new file of our
 * own, never an existing one or a link (this runs as root); NULL when it
 * cannot be made, said on stderr. */
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

static int fail(struct ws_trace *t, int err, char *why, size_t len, const char *what)
{
	snprintf(why, len, "%s", what);
	if (t->inst) {
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	if (t->tep)
		tep_free(t->tep);
	pthread_mutex_destroy(&t->lock);
	free(t);
	return err;
}

/* A tracefs file's whole text (caller frees), or NULL. */
static char *read_tracing_file(const char *name, int *size)
{
	char *path = tracefs_get_tracing_file(name), *text = NULL;
	FILE *f = path ? fopen(path, "re") : NULL;
	size_t cap = 0, n = 0, got;

	while (f) {
		if (n + 4096 > cap) {
			char *more = realloc(text, cap += 8192);

			if (!more)
				break;
			text = more;
		}
		got = fread(text + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	if (f)
		fclose(f);
	tracefs_put_tracing_file(path);
	*size = (int)n;
	return text;
}

/* How to parse our events: the ring's page header and our four formats,
 * read alone (tracefs_local_events_system() reads every symbol of the
 * kernel too: a tenth of a second, and seconds under a sanitizer). */
static struct tep_handle *block_events(void)
{
	struct tep_handle *tep = tep_alloc();
	char name[96], *text;
	int size;

	if (!tep)
		return NULL;
	tep_set_long_size(tep, (int)sizeof(long));
	tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	text = read_tracing_file("events/header_page", &size);
	if (!text || tep_parse_header_page(tep, text, (unsigned long)size, (int)sizeof(long))) {
		free(text);
		tep_free(tep);
		return NULL;
	}
	free(text);
	for (unsigned int k = 0; k < NEVENTS; k++) {
		snprintf(name, sizeof(name), "events/block/%s/format", event_names[k]);
		text = read_tracing_file(name, &size);
		if (!text || tep_parse_event(tep, text, (unsigned long)size, "block")) {
			free(text);
			tep_free(tep);
			return NULL;
		}
		free(text);
	}
	return tep;
}

/* Each event found, its fields, filtered to the disk and enabled. */
static int enable_events(struct ws_trace *t, unsigned int major, unsigned int minor)
{
	char filter[48];

	/* the kernel's dev_t in trace records: major << 20 | minor */
	snprintf(filter, sizeof(filter), "dev == %u", major << 20 | minor);
	for (unsigned int k = 0; k < NEVENTS; k++) {
		struct tep_event *ev = tep_find_event_by_name(t->tep, "block", event_names[k]);

		if (!ev)
			return -ENOENT;
		t->id[k] = ev->id;
		t->sector[k] = tep_find_field(ev, "sector");
		t->nr_sector[k] = tep_find_field(ev, "nr_sector");
		t->rwbs[k] = tep_find_field(ev, "rwbs");
		if (!t->sector[k] || !t->nr_sector[k] || !t->rwbs[k])
			return -ENOENT;
		if (tracefs_event_file_write(t->inst, "block", event_names[k], "filter", filter) < 0 ||
		    tracefs_event_enable(t->inst, "block", event_names[k]) < 0)
			return -EIO;
	}
	return 0;
}

int trace_start(struct ws_trace **out, const struct trace_disk *disk,
		char *why, size_t len)
{
	struct ws_trace *t = calloc(1, sizeof(*t));
	const char *dir = NULL, *rec = getenv("WS_TRACE_RECORD");
	char name[48];
	int ret;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	blockstat_init(&t->bs);
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
	if (tracefs_instance_file_write(t->inst, "buffer_size_kb", RING_KB) < 0 ||
	    tracefs_instance_file_write(t->inst, "trace_clock", "mono") < 0)
		return fail(t, -EIO, why, len, "cannot size the instance's ring or set its clock");
	t->tep = block_events();
	if (!t->tep)
		return fail(t, -ENOENT, why, len, "the kernel's block events are not readable");
	ret = enable_events(t, disk->major, disk->minor);
	if (ret)
		return fail(t, ret, why, len, ret == -ENOENT ?
			    "the kernel lacks the block_rq tracepoints" :
			    "cannot enable the block_rq tracepoints");
	if (rec && *rec)
		t->record = record_file(rec);
	snprintf(t->sysdir, sizeof(t->sysdir), "%s", disk->sysdir);
	*out = t;
	return 0;
}

int trace_run(struct ws_trace *t)
{
	int ret;

	tracefs_trace_on(t->inst);
	t->have_stat = kstat_diskstat("", t->sysdir, &t->stat0) == 0;
	ret = ws_thread_start(&t->tid, &(struct ws_thread_spec){ .name = "ws-trace" },
			      tracer_thread, t);
	t->started = ret == 0;
	return ret;
}

void trace_take(struct ws_trace *t, struct ws_block_figures *out)
{
	uint64_t lost;

	drain(t);	/* what completed by now is the interval's */
	lost = lost_so_far(t);

	pthread_mutex_lock(&t->lock);
	blockstat_take(&t->bs, out);
	out->lost = lost - t->lost_taken;
	t->lost_taken = lost;
	pthread_mutex_unlock(&t->lock);
}

/* The device's own counters since the start, beside the trace. */
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
	run->counted_flushes = d.flush_ios - t->stat0.flush_ios;
}

void trace_totals(struct ws_trace *t, struct ws_block_figures *run,
		  uint64_t *write_p50_ns, uint64_t *write_p99_ns)
{
	uint64_t lost;

	drain(t);
	lost = lost_so_far(t);
	pthread_mutex_lock(&t->lock);
	blockstat_settle(&t->bs, true);
	*run = t->bs.run;
	run->lost = lost;
	counted(t, run);
	*write_p50_ns = t->bs.write_service.count ?
			hist_percentile(&t->bs.write_service, 50.0) : 0;
	*write_p99_ns = t->bs.write_service.count ?
			hist_percentile(&t->bs.write_service, 99.0) : 0;
	pthread_mutex_unlock(&t->lock);
}

void trace_stop(struct ws_trace *t)
{
	if (!t)
		return;
	atomic_store_explicit(&t->stop, true, memory_order_release);
	if (t->started)
		pthread_join(t->tid, NULL);
	tracefs_trace_off(t->inst);
	if (t->record)
		fclose(t->record);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	tep_free(t->tep);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* "writestress-PID" with PID a number: its PID, else 0. */
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
		/* requests are the whole disk's: the partition's parent */
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
	snprintf(path, sizeof(path), "%s/dev", disk->sysdir);
	if (!fp->bdev_sysdir[0] || sysfs_read("", path, dev, sizeof(dev)) < 0 ||
	    sscanf(dev, "%u:%u", &disk->major, &disk->minor) != 2)
		goto unknown;
	return 0;
unknown:
	snprintf(why, len, "the file is not on a block device");
	return -ENODEV;
}
