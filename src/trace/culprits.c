/* culprits.c - who wrote to the traced disk (the rules in culprits.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprits.h"

#define PAGE_BYTES 4096ULL	/* writeback_single_inode counts pages */

bool culprits_is_worker(const char *comm)
{
	return !strncmp(comm, "kworker/", 8) || !strncmp(comm, "flush-", 6);
}

void culprits_pick_cgroup(const char *text, char *out, size_t len)
{
	static const char *const keys[] = { "0::", ":blkio:", ":io:", ":name=systemd:" };

	out[0] = '\0';
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *at = strstr(text, keys[k]), *end;

		if (at && (k || at == text || at[-1] == '\n')) {
			at += strlen(keys[k]);
			end = strchr(at, '\n');
			if (!end)
				end = at + strlen(at);
			if (end - at > 1 || (end - at == 1 && *at != '/')) {
				snprintf(out, len, "%.*s", (int)(end - at), at);
				return;
			}
		}
	}
}

int culprits_init(struct culprits *c, uint64_t origin_ns, int32_t ours_pid)
{
	memset(c, 0, sizeof(*c));
	c->origin_ns = origin_ns;
	c->ours_pid = ours_pid;
	c->slot_ns = CULPRITS_SLOT_NS;
	/* zeroed by explicit_bzero, which no compiler folds into a calloc
	 * of untouched pages: resident now, so a long watch's memory does
	 * not creep up as the tables fill */
	c->tids = malloc(CULPRITS_TIDS * sizeof(*c->tids));
	c->inodes = malloc(CULPRITS_INODES * sizeof(*c->inodes));
	c->slots = malloc(CULPRITS_SLOTS * sizeof(*c->slots));
	c->pending = malloc(CULPRITS_PENDING * sizeof(*c->pending));
	c->names = malloc(CULPRITS_NAMES * sizeof(*c->names));
	if (c->tids && c->inodes && c->slots && c->pending && c->names) {
		explicit_bzero(c->names, CULPRITS_NAMES * sizeof(*c->names));
		explicit_bzero(c->tids, CULPRITS_TIDS * sizeof(*c->tids));
		explicit_bzero(c->inodes, CULPRITS_INODES * sizeof(*c->inodes));
		explicit_bzero(c->slots, CULPRITS_SLOTS * sizeof(*c->slots));
		explicit_bzero(c->pending, CULPRITS_PENDING * sizeof(*c->pending));
		return 0;
	}
	culprits_free(c);
	return -ENOMEM;
}

void culprits_free(struct culprits *c)
{
	free(c->tids);
	free(c->inodes);
	free(c->slots);
	free(c->pending);
	free(c->names);
	c->pending = NULL;
	c->names = NULL;
	c->tids = NULL;
	c->inodes = NULL;
	c->slots = NULL;
}

static unsigned int tid_slot(int32_t tid)
{
	return (uint32_t)tid * 2654435761u % CULPRITS_TIDS;
}

const struct culprit_who *culprits_who(const struct culprits *c, int32_t tid)
{
	const struct culprit_who *w = &c->tids[tid_slot(tid)];

	return w->tid == tid && tid ? w : NULL;
}

void culprits_learn(struct culprits *c, const struct culprit_who *w)
{
	c->tids[tid_slot(w->tid)] = *w;
	/* a leader's new name is its row's too */
	for (unsigned int i = 0; w->tid == w->tgid && i < c->nrows; i++)
		if (c->rows[i].who.tgid == w->tgid) {
			memcpy(c->rows[i].who.comm, w->comm, sizeof(w->comm));
			memcpy(c->rows[i].who.cgroup, w->cgroup, sizeof(w->cgroup));
		}
}

void culprits_add_ours(struct culprits *c, int32_t pid, bool pinned)
{
	const unsigned int ring = CULPRITS_OURS - CULPRITS_OURS_PINNED;

	if (culprits_is_ours(c, pid))
		return;
	if (pinned && c->npinned < CULPRITS_OURS_PINNED)
		c->ours[c->npinned++] = pid;
	else
		c->ours[CULPRITS_OURS_PINNED + c->ours_at++ % ring] = pid;
}

bool culprits_is_ours(const struct culprits *c, int32_t pid)
{
	for (unsigned int i = 0; pid > 0 && i < CULPRITS_OURS; i++)
		if (c->ours[i] == pid)
			return true;
	return false;
}

void culprits_forget(struct culprits *c, int32_t pid)
{
	struct culprit_who *w = &c->tids[tid_slot(pid)];

	for (unsigned int i = CULPRITS_OURS_PINNED; i < CULPRITS_OURS; i++)
		if (c->ours[i] == pid)
			c->ours[i] = 0;
	if (w->tid == pid)
		memset(w, 0, sizeof(*w));
}

void culprits_exec(struct culprits *c, uint64_t ts_ns, int32_t tid, const char *filename)
{
	struct culprit_who *w = &c->tids[tid_slot(tid)];
	const char *base;

	if (w->tid == tid && w->tgid != c->ours_pid)
		memset(w, 0, sizeof(*w));
	if (!filename || !*filename)
		return;
	base = strrchr(filename, '/');
	culprits_name_seen(c, ts_ns, tid, base && base[1] ? base + 1 : filename);
}

void culprits_rename(struct culprits *c, uint64_t ts_ns, int32_t tid, const char *comm)
{
	const struct culprit_who *w = culprits_who(c, tid);

	if (!comm || !*comm)
		return;
	culprits_name_seen(c, ts_ns, tid, comm);
	/* a thread's own name is not its process's ("mozStorage #3") */
	if (w && w->tid == w->tgid && w->tgid != c->ours_pid) {
		struct culprit_who renamed = *w;

		snprintf(renamed.comm, sizeof(renamed.comm), "%s", comm);
		culprits_learn(c, &renamed);
	}
}

static unsigned int name_slot(int32_t pid)
{
	return (uint32_t)pid * 2654435761u % CULPRITS_NAMES;
}

void culprits_name_seen(struct culprits *c, uint64_t ts_ns, int32_t pid, const char *comm)
{
	struct culprit_name *n = &c->names[name_slot(pid)];

	/* the CPUs' buffers are drained in turn: an exec may be read
	 * before the fork that came first */
	if (pid <= 0 || !comm || !*comm || (n->pid == pid && n->ts_ns > ts_ns))
		return;
	n->pid = pid;
	n->ts_ns = ts_ns;
	snprintf(n->comm, sizeof(n->comm), "%s", comm);
}

const char *culprits_name_of(const struct culprits *c, int32_t pid)
{
	const struct culprit_name *n = &c->names[name_slot(pid)];

	return pid > 0 && n->pid == pid ? n->comm : NULL;
}

/* Space-saving: a newcomer to a full slot takes the least one's place,
 * whose figures go to the rest. */
static void slot_add(struct culprit_slot *s, int32_t pid, uint64_t written, uint32_t dirtied)
{
	unsigned int least = 0;

	for (unsigned int i = 0; i < s->n; i++)
		if (s->top[i].pid == pid) {
			s->top[i].written += written;
			s->top[i].dirtied += dirtied;
			return;
		}
	if (s->n < CULPRITS_SLOT_TOP) {
		s->top[s->n++] = (struct culprit_part){ pid, dirtied, written };
		return;
	}
	for (unsigned int i = 1; i < s->n; i++)
		if (s->top[i].written < s->top[least].written)
			least = i;
	s->rest_written += s->top[least].written;
	s->top[least] = (struct culprit_part){ pid, dirtied, written };
}

static void slot_merge(struct culprit_slot *to, const struct culprit_slot *from)
{
	for (unsigned int i = 0; i < from->n; i++)
		slot_add(to, from->top[i].pid, from->top[i].written, from->top[i].dirtied);
	to->rest_written += from->rest_written;
}

/* Full: neighbours merge, each slot spans twice the time. */
static void halve_history(struct culprits *c)
{
	for (uint64_t i = 0; i < c->nslots / 2; i++) {
		struct culprit_slot s = c->slots[2 * i];

		slot_merge(&s, &c->slots[2 * i + 1]);
		c->slots[i] = s;
	}
	if (c->nslots % 2)
		c->slots[c->nslots / 2] = c->slots[c->nslots - 1];
	c->nslots = (c->nslots + 1) / 2;
	memset(&c->slots[c->nslots], 0, (CULPRITS_SLOTS - c->nslots) * sizeof(*c->slots));
	c->slot_ns *= 2;
}

static struct culprit_slot *slot_at(struct culprits *c, uint64_t ts_ns)
{
	uint64_t i = ts_ns > c->origin_ns ? (ts_ns - c->origin_ns) / c->slot_ns : 0;

	while (i >= CULPRITS_SLOTS) {
		halve_history(c);
		i = (ts_ns - c->origin_ns) / c->slot_ns;
	}
	if (i >= c->nslots)
		c->nslots = i + 1;
	return &c->slots[i];
}

static uint64_t row_weight(const struct culprit_row *r)
{
	return r->written + r->dirtied * PAGE_BYTES;
}

/* Into the slot of its time and the interval's. */
static void history_add(struct culprits *c, uint64_t ts_ns, int32_t pid, uint64_t written,
			uint32_t dirtied)
{
	slot_add(slot_at(c, ts_ns), pid, written, dirtied);
	slot_add(&c->now, pid, written, dirtied);
}

static struct culprit_row *row_of(struct culprits *c, const struct culprit_who *w)
{
	unsigned int least = 0;
	struct culprit_row *r;

	for (unsigned int i = 0; i < c->nrows; i++)
		if (c->rows[i].who.tgid == w->tgid)
			return &c->rows[i];
	if (c->nrows < CULPRITS_PROCS) {
		r = &c->rows[c->nrows++];
	} else {
		/* a dirtier whose pages are not yet written weighs its folios */
		for (unsigned int i = 1; i < c->nrows; i++)
			if (row_weight(&c->rows[i]) < row_weight(&c->rows[least]))
				least = i;
		r = &c->rows[least];
		c->others++;
		c->others_written += r->written;
		c->others_dirtied += r->dirtied;
	}
	*r = (struct culprit_row){ .who = *w };
	r->who.tid = w->tgid;
	return r;
}

/* Bytes sent, in the order sent: the device's completions take them
 * from the front.  A full queue takes its oldest as done now. */
static void pending_add(struct culprits *c, uint64_t ts_ns, int32_t pid, bool counted,
			uint64_t bytes)
{
	struct culprit_pending *last;

	if (c->npending) {
		last = &c->pending[(c->pending_at + c->npending - 1) % CULPRITS_PENDING];
		if (last->pid == pid && last->counted == counted) {
			last->bytes += bytes;
			return;
		}
	}
	if (c->npending == CULPRITS_PENDING)
		culprits_completed(c, ts_ns, c->pending[c->pending_at].bytes);
	c->pending[(c->pending_at + c->npending++) % CULPRITS_PENDING] =
		(struct culprit_pending){ pid, counted, bytes, ts_ns };
}

void culprits_completed(struct culprits *c, uint64_t ts_ns, uint64_t bytes)
{
	while (bytes && c->npending) {
		struct culprit_pending *p = &c->pending[c->pending_at];
		uint64_t take = bytes < p->bytes ? bytes : p->bytes;

		/* sent long ago and never seen done (events lost, pages
		 * counted that went nowhere): not this completion's */
		if (ts_ns > p->sent_ns + CULPRITS_PENDING_NS) {
			c->pending_at = (c->pending_at + 1) % CULPRITS_PENDING;
			c->npending--;
			continue;
		}
		if (p->counted) {
			history_add(c, ts_ns, p->pid, take, 0);
		}
		p->bytes -= take;
		bytes -= take;
		if (!p->bytes) {
			c->pending_at = (c->pending_at + 1) % CULPRITS_PENDING;
			c->npending--;
		}
	}
}

/* Its table's row when sent; its stalls' when the device wrote it. */
static void credit(struct culprits *c, uint64_t ts_ns, const struct culprit_who *w,
		   uint64_t written)
{
	struct culprit_row *r = row_of(c, w);

	r->written += written;
	/* a journal's writes are every writer's: no stall's culprit */
	pending_add(c, ts_ns, w->tgid, !w->kernel, written);
}

void culprits_bio(struct culprits *c, uint64_t ts_ns, int32_t tid, uint64_t bytes)
{
	const struct culprit_who *w = culprits_who(c, tid);

	/* a worker's bios are the inode writeback credited below */
	if (!w || w->worker || !bytes)
		return;
	if (w->tgid == c->ours_pid)	/* the device writes them all the same */
		pending_add(c, ts_ns, w->tgid, false, bytes);
	else
		credit(c, ts_ns, w, bytes);
}

/* 4 ways: ino's own, else a free one, else the least recently dirtied
 * (create: its place for ino, emptied); NULL when not known. */
static struct culprit_inode *inode_of(struct culprits *c, uint64_t ino, bool create)
{
	size_t at = (ino * 0x9E3779B97F4A7C15ULL >> 32) % CULPRITS_INODES & ~(size_t)3;
	struct culprit_inode *oldest = &c->inodes[at];

	for (size_t k = at; k < at + 4; k++) {
		if (c->inodes[k].ino == ino)
			return &c->inodes[k];
		if (c->inodes[k].last_ns < oldest->last_ns)
			oldest = &c->inodes[k];
	}
	if (!create)
		return NULL;
	*oldest = (struct culprit_inode){ .ino = ino };
	return oldest;
}

void culprits_dirtied(struct culprits *c, uint64_t ts_ns, int32_t tid, uint64_t ino)
{
	const struct culprit_who *w = culprits_who(c, tid);
	struct culprit_row *r;
	struct culprit_inode *in;
	unsigned int k;

	/* a kernel thread's (a journal's metadata) too: its writeback is then
	 * its own, no culprit's */
	if (!w || !ino)
		return;
	in = inode_of(c, ino, true);
	in->last_ns = ts_ns;
	for (k = 0; k < 2 && in->by[k].folios && in->by[k].pid != w->tgid; k++)
		;
	if (k == 2) {	/* a third dirtier takes the lesser one's place */
		k = in->by[0].folios < in->by[1].folios ? 0 : 1;
		in->by[k].folios = 0;
	}
	in->by[k].pid = w->tgid;
	in->by[k].folios++;
	if (w->tgid == c->ours_pid)
		return;
	r = row_of(c, w);	/* a kernel thread's row waits for its writeback */
	if (w->kernel)
		return;
	r->dirtied++;
	history_add(c, ts_ns, w->tgid, 0, 1);
}

static struct culprit_row *row_by_pid(struct culprits *c, int32_t pid)
{
	for (unsigned int i = 0; i < c->nrows; i++)
		if (c->rows[i].who.tgid == pid)
			return &c->rows[i];
	return NULL;
}

/* pid 0: whoever dirtied the pages before the trace began */
static void credit_pid(struct culprits *c, uint64_t ts_ns, int32_t pid, uint64_t bytes)
{
	struct culprit_row *r = pid ? row_by_pid(c, pid) : NULL;

	if (r) {
		credit(c, ts_ns, &r->who, bytes);
		return;
	}
	/* its row went to others, or it dirtied before the trace */
	if (!pid)
		c->before_trace += bytes;
	else
		c->others_written += bytes;
	pending_add(c, ts_ns, pid, true, bytes);
}

/* writestress's own, or a kernel thread's (a journal's): the device
 * writes them in turn, nobody's stall; else the process's. */
static void credit_dirtier(struct culprits *c, uint64_t ts_ns, int32_t pid, uint64_t bytes)
{
	if (pid == c->ours_pid)
		pending_add(c, ts_ns, pid, false, bytes);
	else
		credit_pid(c, ts_ns, pid, bytes);	/* a kernel row's: not counted */
}

void culprits_inode_written(struct culprits *c, uint64_t ts_ns, int32_t tid,
			    uint64_t ino, uint64_t pages)
{
	const struct culprit_who *w = culprits_who(c, tid);
	struct culprit_inode *in = inode_of(c, ino, false);
	uint64_t bytes = pages * PAGE_BYTES, first;

	/* a process's own pass (fsync's) is counted by its bios */
	if (!w || !w->worker || !bytes)
		return;
	if (!in || !in->by[0].folios) {
		credit_pid(c, ts_ns, 0, bytes);
		return;
	}
	first = bytes * in->by[0].folios / (in->by[0].folios + in->by[1].folios);
	credit_dirtier(c, ts_ns, in->by[0].pid, first);
	if (in->by[1].folios)
		credit_dirtier(c, ts_ns, in->by[1].pid, bytes - first);
	/* written back: what the dirtiers did before weighs less from now */
	in->by[0].folios = (in->by[0].folios + 1) / 2;
	in->by[1].folios /= 2;
}

static int by_written(const void *a, const void *b)
{
	const struct culprit_row *x = a, *y = b;

	if (x->written != y->written)
		return x->written < y->written ? 1 : -1;
	return x->dirtied < y->dirtied ? 1 : x->dirtied > y->dirtied ? -1 : 0;
}

void culprits_table(const struct culprits *c, struct ws_culprits *out)
{
	struct culprit_row rows[CULPRITS_PROCS];

	memset(out, 0, sizeof(*out));
	out->traced = true;
	memcpy(rows, c->rows, c->nrows * sizeof(rows[0]));
	qsort(rows, c->nrows, sizeof(rows[0]), by_written);
	out->others = c->others;
	out->others_written = c->others_written;
	out->others_dirtied = c->others_dirtied;
	for (unsigned int i = 0; i < c->nrows; i++) {
		const struct culprit_row *r = &rows[i];

		out->total_written += r->written;
		if (out->n == WS_CULPRITS_KEPT || (!r->written && !r->dirtied)) {
			out->others += !!(r->written || r->dirtied);
			out->others_written += r->written;
			out->others_dirtied += r->dirtied;
			continue;
		}
		out->row[out->n] = (struct ws_culprit){ .pid = r->who.tgid,
			.kernel = r->who.kernel, .written = r->written,
			.dirtied = r->dirtied };
		memcpy(out->row[out->n].comm, r->who.comm, sizeof(r->who.comm));
		memcpy(out->row[out->n].cgroup, r->who.cgroup, sizeof(r->who.cgroup));
		out->n++;
	}
	out->total_written += c->others_written + c->before_trace;
	out->before_trace = c->before_trace;
}

static int part_by_written(const void *a, const void *b)
{
	const struct culprit_part *x = a, *y = b;

	if (x->written != y->written)
		return x->written < y->written ? 1 : -1;
	return x->dirtied < y->dirtied ? 1 : x->dirtied > y->dirtied ? -1 : 0;
}

/* The slots' parts summed per pid, most written first, into out. */
static void sum_parts(const struct culprit_slot *s, size_t n, struct ws_stall_culprits *out)
{
	struct culprit_part all[CULPRITS_SLOT_TOP * 8];
	unsigned int nall = 0;

	memset(out, 0, sizeof(*out));
	out->traced = true;
	for (size_t k = 0; k < n; k++) {
		out->total_written += s[k].rest_written;
		for (unsigned int i = 0; i < s[k].n; i++) {
			const struct culprit_part *p = &s[k].top[i];
			unsigned int j;

			out->total_written += p->written;
			for (j = 0; j < nall && all[j].pid != p->pid; j++)
				;
			if (j == nall && nall == sizeof(all) / sizeof(all[0]))
				continue;	/* only in the total */
			if (j == nall)
				all[nall++] = (struct culprit_part){ .pid = p->pid };
			all[j].written += p->written;
			all[j].dirtied += p->dirtied;
		}
	}
	qsort(all, nall, sizeof(all[0]), part_by_written);
	for (unsigned int i = 0; i < nall && out->n < WS_STALL_CULPRITS; i++)
		if (all[i].written || all[i].dirtied)
			out->top[out->n++] = (struct ws_stall_culprit){ all[i].pid,
				all[i].dirtied, all[i].written };
}

void culprits_window(const struct culprits *c, uint64_t start_ns, uint64_t duration_ns,
		     struct ws_stall_culprits *out)
{
	uint64_t first = start_ns > c->origin_ns ? (start_ns - c->origin_ns) / c->slot_ns : 0;
	uint64_t end = start_ns + duration_ns;
	uint64_t last = end > c->origin_ns ? (end - c->origin_ns) / c->slot_ns : 0;

	if (last >= c->nslots)
		last = c->nslots ? c->nslots - 1 : 0;
	if (!c->nslots || first > last) {
		sum_parts(NULL, 0, out);
		return;
	}
	sum_parts(&c->slots[first], (size_t)(last - first + 1), out);
}

void culprits_take_now(struct culprits *c, struct ws_writers_now *out)
{
	struct ws_stall_culprits top;

	sum_parts(&c->now, 1, &top);
	memset(&c->now, 0, sizeof(c->now));
	memset(out, 0, sizeof(*out));
	out->traced = true;
	out->total_written = top.total_written;
	for (unsigned int i = 0; i < top.n; i++) {
		const struct culprit_row *r = top.top[i].pid ? row_by_pid(c, top.top[i].pid) : NULL;

		out->top[out->n].pid = top.top[i].pid;
		out->top[out->n].written = top.top[i].written;
		if (r)
			memcpy(out->top[out->n].comm, r->who.comm, sizeof(r->who.comm));
		else if (!top.top[i].pid)
			snprintf(out->top[out->n].comm, WS_COMM_LEN, "(before)");
		else
			snprintf(out->top[out->n].comm, WS_COMM_LEN, "pid %d", (int)top.top[i].pid);
		out->n++;
	}
}
