/* tracer_events.c - the events read, their fields, each into the evidence. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "system/sysfs.h"
#include "tracer.h"

/* Block and bio events first: tracer_on_event searches in order.  No
 * block_rq_insert: getrq suffices, and every event costs the writer. */
struct event_spec {
	const char *system, *name;
	enum trace_kind kind;
	int sub;		/* enum blk_event_kind, jnl_phase or culprit_event */
	bool required;
	enum trace_journal journal;	/* only on this kind of journal */
	const char *filter;	/* NULL: the disk's (filter_of) */
};

static const struct event_spec specs[] = {
	{ "block", "block_getrq", TE_BLOCK, BLK_GETRQ, true, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_rq_issue", TE_BLOCK, BLK_ISSUE, true, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_rq_complete", TE_BLOCK, BLK_COMPLETE, true, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_bio_queue", TE_BIO, BIO_QUEUE, false, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_bio_backmerge", TE_BIO, BIO_MERGE, false, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_bio_frontmerge", TE_BIO, BIO_MERGE, false, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_rq_merge", TE_BIO, BIO_RQ_MERGE, false, TRACE_JOURNAL_NONE, NULL },
	{ "block", "block_split", TE_BIO, BIO_SPLIT, false, TRACE_JOURNAL_NONE, NULL },
	{ "jbd2", "jbd2_start_commit", TE_JOURNAL, JNL_START, false, TRACE_JOURNAL_JBD2, NULL },
	{ "jbd2", "jbd2_commit_locking", TE_JOURNAL, JNL_LOCKING, false, TRACE_JOURNAL_JBD2, NULL },
	{ "jbd2", "jbd2_commit_flushing", TE_JOURNAL, JNL_FLUSHING, false, TRACE_JOURNAL_JBD2, NULL },
	{ "jbd2", "jbd2_commit_logging", TE_JOURNAL, JNL_LOGGING, false, TRACE_JOURNAL_JBD2, NULL },
	{ "jbd2", "jbd2_end_commit", TE_JOURNAL, JNL_END, false, TRACE_JOURNAL_JBD2, NULL },
	{ "jbd2", "jbd2_run_stats", TE_JOURNAL, JNL_STATS, false, TRACE_JOURNAL_JBD2, NULL },
	{ "xfs", "xlog_iclog_syncing", TE_JOURNAL, JNL_ICLOG, false, TRACE_JOURNAL_XFS, NULL },
	{ "xfs", "xlog_iclog_sync_done", TE_JOURNAL, JNL_ICLOG_DONE, false, TRACE_JOURNAL_XFS, NULL },
	{ "writeback", "balance_dirty_pages", TE_DIRTY, 0, false, TRACE_JOURNAL_NONE, NULL },
	{ "wbt", "wbt_step", TE_WBT, 0, false, TRACE_JOURNAL_NONE, NULL },
	{ "wbt", "wbt_stat", TE_WBT_STAT, 0, false, TRACE_JOURNAL_NONE, NULL },
	{ "writeback", "writeback_start", TE_WB, 0, false, TRACE_JOURNAL_NONE, NULL },
	{ "writeback", "writeback_written", TE_WB, 1, false, TRACE_JOURNAL_NONE, NULL },
	{ "writeback", "writeback_dirty_folio", TE_CULPRIT, CUL_DIRTIED, false, TRACE_JOURNAL_NONE, NULL },
	{ "writeback", "writeback_single_inode", TE_CULPRIT, CUL_INODE_WB, false, TRACE_JOURNAL_NONE, NULL },
	/* every process's: writestress's own children are followed */
	{ "sched", "sched_process_fork", TE_CULPRIT, CUL_FORK, false, TRACE_JOURNAL_NONE,
	  "child_pid > 0" },
	{ "sched", "sched_process_exec", TE_CULPRIT, CUL_EXEC, false, TRACE_JOURNAL_NONE,
	  "old_pid > 0" },
	{ "task", "task_rename", TE_CULPRIT, CUL_RENAME, false, TRACE_JOURNAL_NONE,
	  "common_pid >= 0" },
};
#define NEVENTS (sizeof(specs) / sizeof(specs[0]))
_Static_assert(NEVENTS == TRACER_NEVENTS, "tracer.h's TRACER_NEVENTS: the table's length");


/* The dirty limit's events are every process's that dirties the disk. */
static bool ours(struct ws_trace *t, int32_t tid, bool *writer)
{
	char path[64], comm[32] = "";
	bool yes;

	for (unsigned int i = 0; i < t->nours; i++)
		if (t->ours[i] == tid) {
			*writer = t->ours_writer[i];
			return true;
		}
	for (unsigned int i = 0; i < t->ntheirs; i++)
		if (t->theirs[i] == tid)
			return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	/* gone (not ours) is an error */
	yes = sysfs_read("", path, comm, sizeof(comm)) >= 0;
	*writer = blockstat_submitter(comm) == WS_SUB_WRITER;
	/* the last 16 of each */
	if (yes) {
		t->ours_writer[t->ours_at % 16] = *writer;
		t->ours[t->ours_at++ % 16] = tid;
	} else {
		t->theirs[t->theirs_at++ % 16] = tid;
	}
	t->nours = t->ours_at < 16 ? t->ours_at : 16;
	t->ntheirs = t->theirs_at < 16 ? t->theirs_at : 16;
	return yes;
}

/* The newest extents the reader read become the file's; a recording
 * gets them. */
static void adopt_file(struct ws_trace *t)
{
	struct fileext *n = filewatch_take(&t->watch);
	struct trace_event e = { .kind = TE_EXTENT };

	if (!n)
		return;
	fileext_free(&t->ev.file);
	t->ev.file = *n;
	free(n);
	t->ev.bs.file_asked = false;
	blockstat_decide(&t->ev.bs);
	for (unsigned int i = 0; t->record && i < t->ev.file.n; i++) {
		const struct fileext_span *s = &t->ev.file.span[i];

		e.ext = (struct extent_event){ s->start, s->end - s->start };
		trace_event_write(t->record, &e);
	}
}

/* A worker's data write outside the file as last read: the file may have
 * grown since (blocks are allocated before their writes are sent).  Ask
 * for a read at most every 100 ms of trace time; this request stays the
 * flusher's. */
static void learn_file(struct ws_trace *t, const struct blk_event *b)
{
	if (!t->file[0])
		return;
	if (t->ev.bs.file_asked)	/* the reader's lock only while it reads */
		adopt_file(t);
	if (b->kind != BLK_GETRQ || !b->nr_sector ||
	    blockstat_submitter(b->comm) != WS_SUB_FLUSHER || !strchr(b->rwbs, 'W') ||
	    strchr(b->rwbs, 'M') || fileext_holds(&t->ev.file, b->sector, b->nr_sector) ||
	    (t->file_asked_ns && b->ts_ns < t->file_asked_ns + 100000000))
		return;
	t->file_asked_ns = b->ts_ns;
	t->ev.bs.file_asked = true;
	filewatch_ask(&t->watch);
}

int tracer_on_event(struct tep_event *tev, struct tep_record *rec, int cpu, void *ctx)
{
	struct ws_trace *t = ctx;
	struct trace_event e = { 0 };
	const struct event_fields *f;
	int64_t pause;
	unsigned int k;
	size_t n;

	(void)cpu;
	for (k = 0; k < NEVENTS && t->id[k] != tev->id; k++)
		;
	if (k == NEVENTS)
		return 0;
	f = &t->f[k];
	e.kind = specs[k].kind;
	switch (e.kind) {
	case TE_CULPRIT:
		if (t->culprits_on)
			tracer_culprit_event(t, (enum culprit_event)specs[k].sub, f, rec);
		return 0;
	case TE_BLOCK:
		e.blk = (struct blk_event){ .kind = (enum blk_event_kind)specs[k].sub,
			.ts_ns = rec->ts, .sector = tracer_field(f->sector, rec),
			.nr_sector = (uint32_t)tracer_field(f->nr_sector, rec) };
		n = (size_t)f->rwbs->size;
		memcpy(e.blk.rwbs, (const char *)rec->data + f->rwbs->offset,
		       n < sizeof(e.blk.rwbs) ? n : sizeof(e.blk.rwbs) - 1);
		if (e.blk.kind == BLK_GETRQ && f->comm) {
			n = (size_t)f->comm->size;
			memcpy(e.blk.comm, (const char *)rec->data + f->comm->offset,
			       n < sizeof(e.blk.comm) ? n : sizeof(e.blk.comm) - 1);
		}
		break;
	case TE_JOURNAL:
		/* lsn: cycle and block in the log */
		e.jnl = (struct jnl_event){ .phase = (enum jnl_phase)specs[k].sub,
			.ts_ns = rec->ts,
			.tid = (uint32_t)tracer_field(f->tid, rec),
			.blocks = (uint32_t)tracer_field(f->blocks, rec),
			.logged = (uint32_t)tracer_field(f->logged, rec),
			.lsn = tracer_field(f->lsn, rec),
			.bytes = (uint32_t)tracer_field(f->offset, rec) };
		break;
	case TE_DIRTY:
		/* ms (jiffies * 1000 / HZ); <= 0: went on without sleeping */
		pause = (int64_t)tracer_field(f->pause, rec);
		e.dirty.tid = (int32_t)tep_data_pid(t->tep, rec);
		if (pause <= 0 || !ours(t, e.dirty.tid, &e.dirty.writer))
			return 0;
		e.dirty.ts_ns = rec->ts;
		e.dirty.pause_ns = (uint64_t)pause * 1000000;
		break;
	case TE_WBT_STAT:
		e.wbt_stat = (struct wbt_stat_event){ .ts_ns = rec->ts,
			.rmin = tracer_field(f->rmin, rec), .rmean = tracer_field(f->rmean, rec),
			.rsamples = (int64_t)tracer_field(f->rsamples, rec),
			.wmean = tracer_field(f->wmean, rec),
			.wsamples = (int64_t)tracer_field(f->wsamples, rec) };
		break;
	case TE_WB:
		e.wb = (struct wb_event){ .ts_ns = rec->ts, .end = specs[k].sub == 1,
			.nr_pages = (int64_t)tracer_field(f->nr_pages, rec),
			.reason = (int32_t)tracer_field(f->reason, rec),
			.cgroup_ino = tracer_field(f->cgroup_ino, rec) };
		break;
	case TE_BIO:
		e.bio = (struct bio_event){ .kind = (enum bio_event_kind)specs[k].sub,
			.ts_ns = rec->ts, .sector = tracer_field(f->sector, rec),
			.nr_sector = tracer_field(f->new_sector ? f->new_sector : f->nr_sector, rec) };
		n = (size_t)f->rwbs->size;
		memcpy(e.bio.rwbs, (const char *)rec->data + f->rwbs->offset,
		       n < sizeof(e.bio.rwbs) ? n : sizeof(e.bio.rwbs) - 1);
		tracer_culprit_bio(t, f, &e.bio, rec);
		break;
	case TE_WBT:
		e.wbt = (struct wbt_event){ .ts_ns = rec->ts,
			.step = (int32_t)tracer_field(f->step, rec),
			.window_us = tracer_field(f->window, rec),
			.bg = (uint32_t)tracer_field(f->bg, rec),
			.normal = (uint32_t)tracer_field(f->normal, rec),
			.max = (uint32_t)tracer_field(f->max, rec) };
		break;
	case TE_EXTENT:		/* not a kernel event */
		return 0;
	}
	if (e.kind == TE_BLOCK)
		learn_file(t, &e.blk);
	if (e.kind == TE_BLOCK && e.blk.kind == BLK_COMPLETE && t->culprits_on &&
	    strchr(e.blk.rwbs, 'W'))
		culprits_completed(&t->culprits, e.blk.ts_ns, e.blk.nr_sector * 512);
	if (t->record)
		trace_event_write(t->record, &e);
	evidence_event(&t->ev, &e);
	return 0;
}

/* Caller frees; NULL on error. */
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

/* Our formats only: tracefs_local_events_system() reads every kernel
 * symbol too (0.1 s, seconds under a sanitizer). */
struct tep_handle *tracer_read_formats(void)
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
		snprintf(name, sizeof(name), "events/%s/%s/format", specs[k].system, specs[k].name);
		text = read_tracing_file(name, &size);
		if ((!text || tep_parse_event(tep, text, (unsigned long)size, specs[k].system)) &&
		    specs[k].required) {
			free(text);
			tep_free(tep);
			return NULL;
		}
		free(text);
	}
	return tep;
}

/* False when a needed field is missing. */
static bool find_fields(struct tep_event *ev, enum trace_kind kind, struct event_fields *f)
{
	switch (kind) {
	case TE_BLOCK:
		f->sector = tep_find_field(ev, "sector");
		f->nr_sector = tep_find_field(ev, "nr_sector");
		f->rwbs = tep_find_field(ev, "rwbs");
		f->comm = tep_find_field(ev, "comm");
		return f->sector && f->nr_sector && f->rwbs;
	case TE_JOURNAL:
		if (!strcmp(ev->system, "xfs")) {
			f->lsn = tep_find_field(ev, "lsn");
			f->offset = tep_find_field(ev, "offset");
			return f->lsn && f->offset;
		}
		f->tid = tep_find_field(ev, "transaction");
		if (!f->tid)
			f->tid = tep_find_field(ev, "tid");
		f->blocks = tep_find_field(ev, "blocks");
		f->logged = tep_find_field(ev, "blocks_logged");
		return f->tid != NULL;
	case TE_DIRTY:
		f->pause = tep_find_field(ev, "pause");
		return f->pause != NULL;
	case TE_WBT_STAT:
		f->rmin = tep_find_field(ev, "rmin");
		f->rmean = tep_find_field(ev, "rmean");
		f->rsamples = tep_find_field(ev, "rnr_samples");
		f->wmean = tep_find_field(ev, "wmean");
		f->wsamples = tep_find_field(ev, "wnr_samples");
		return f->rmin && f->rmean && f->rsamples && f->wmean && f->wsamples;
	case TE_WB:
		f->nr_pages = tep_find_field(ev, "nr_pages");
		f->reason = tep_find_field(ev, "reason");
		f->cgroup_ino = tep_find_field(ev, "cgroup_ino");	/* 0 without cgroups */
		return f->nr_pages && f->reason;
	case TE_BIO:
		f->sector = tep_find_field(ev, "sector");
		f->rwbs = tep_find_field(ev, "rwbs");
		f->comm = tep_find_field(ev, "comm");	/* a gone process's name */
		if (!strcmp(ev->name, "block_split")) {
			f->new_sector = tep_find_field(ev, "new_sector");
			return f->sector && f->new_sector && f->rwbs;
		}
		f->nr_sector = tep_find_field(ev, "nr_sector");
		return f->sector && f->nr_sector && f->rwbs;
	case TE_WBT:
		f->step = tep_find_field(ev, "step");
		f->window = tep_find_field(ev, "window");
		f->bg = tep_find_field(ev, "bg");
		f->normal = tep_find_field(ev, "normal");
		f->max = tep_find_field(ev, "max");
		return f->step && f->window && f->bg && f->normal && f->max;
	case TE_CULPRIT:
		if (!strcmp(ev->name, "sched_process_fork")) {
			f->parent = tep_find_field(ev, "parent_pid");
			f->child = tep_find_field(ev, "child_pid");
			f->comm = tep_find_field(ev, "child_comm");	/* its name, until it execs */
			return f->parent && f->child;
		}
		if (!strcmp(ev->name, "sched_process_exec")) {
			f->filename = tep_find_field(ev, "filename");	/* its new name */
			return tep_find_field(ev, "old_pid") != NULL;
		}
		if (!strcmp(ev->name, "task_rename")) {
			f->pid = tep_find_field(ev, "pid");
			f->comm = tep_find_field(ev, "newcomm");
			return f->comm != NULL;
		}
		f->ino = tep_find_field(ev, "ino");
		f->wrote = tep_find_field(ev, "wrote");
		return f->ino && (!strcmp(ev->name, "writeback_dirty_folio") || f->wrote);
	case TE_EXTENT:
		return false;
	}
	return false;
}

/* dev_t in trace records is major << 20 | minor. */
static void filter_of(enum trace_kind kind, const struct trace_disk *disk, char *buf, size_t len)
{
	if (kind == TE_BLOCK || kind == TE_BIO)
		snprintf(buf, len, "dev == %u", disk->major << 20 | disk->minor);
	else if (kind == TE_JOURNAL)
		snprintf(buf, len, "dev == %u", disk->fs_major << 20 | disk->fs_minor);
	else
		snprintf(buf, len, "%s == \"%u:%u\"", kind == TE_DIRTY ? "bdi" : "name",
			 disk->major, disk->minor);
}

/* Partial, commits, merges and passes would be miscounted. */
static bool all_or_none(enum trace_kind kind)
{
	return kind == TE_JOURNAL || kind == TE_BIO || kind == TE_WB || kind == TE_CULPRIT;
}

int tracer_enable_events(struct ws_trace *t, const struct trace_disk *disk)
{
	bool whole[TE_KINDS];
	char filter[48];

	for (unsigned int k = 0; k < TE_KINDS; k++)
		whole[k] = true;
	for (unsigned int k = 0; k < NEVENTS; k++) {
		struct tep_event *ev = tep_find_event_by_name(t->tep, specs[k].system,
							       specs[k].name);
		bool ok = ev && find_fields(ev, specs[k].kind, &t->f[k]);

		t->id[k] = -1;
		if (specs[k].kind == TE_JOURNAL && specs[k].journal != disk->journal)
			continue;	/* another filesystem's */
		/* the bench's measure of what naming culprits costs; btrfs's
		 * writeback is its own bdi's ("btrfs-N"), not the disk's */
		if (specs[k].kind == TE_CULPRIT && (getenv("WS_NO_CULPRITS") || disk->own_bdi)) {
			whole[TE_CULPRIT] = false;
			continue;
		}
		if (specs[k].filter)
			snprintf(filter, sizeof(filter), "%s", specs[k].filter);
		else
			filter_of(specs[k].kind, disk, filter, sizeof(filter));
		/* its own file: tracefs_event_enable() searches every system */
		if (ok &&
		    tracefs_event_file_write(t->inst, specs[k].system, specs[k].name,
					     "filter", filter) >= 0 &&
		    tracefs_event_file_write(t->inst, specs[k].system, specs[k].name,
					     "enable", "1") >= 0) {
			t->id[k] = ev->id;
			t->ev.wbt_traced |= specs[k].kind == TE_WBT;
			continue;
		}
		if (specs[k].required)
			return ok ? -EIO : -ENOENT;
		/* wbt's rule still holds by the wait site */
		whole[specs[k].kind] = false;
	}
	for (unsigned int k = 0; k < NEVENTS; k++)
		if (all_or_none(specs[k].kind) && !whole[specs[k].kind] && t->id[k] >= 0) {
			tracefs_event_file_write(t->inst, specs[k].system, specs[k].name,
						 "enable", "0");
			t->id[k] = -1;
		}
	journal_traced(&t->ev.jn, whole[TE_JOURNAL] && disk->journal,
		       disk->journal == TRACE_JOURNAL_XFS, whole[TE_DIRTY]);
	if (whole[TE_BIO])
		evidence_bios_traced(&t->ev);
	if (whole[TE_WB])
		evidence_flusher_traced(&t->ev);
	/* a process's own writes are its bios */
	t->culprits_on = whole[TE_CULPRIT] && whole[TE_BIO];
	return 0;
}
