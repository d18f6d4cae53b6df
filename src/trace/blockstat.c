#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blockstat.h"

#define BLK_FIRST_SLOTS 16

_Static_assert(BLK_INFLIGHT >= BLK_FIRST_SLOTS && !(BLK_INFLIGHT & (BLK_INFLIGHT - 1)),
	       "the slots double from BLK_FIRST_SLOTS up to BLK_INFLIGHT");

void blockstat_init(struct blockstat *b)
{
	memset(b, 0, sizeof(*b));
	hist_init(&b->write_service);
	b->iv.on = b->run.on = true;
}

void blockstat_free(struct blockstat *b)
{
	free(b->slot);
	b->slot = NULL;
	b->nslots = b->used = 0;
	roundlat_free(&b->rounds);
}

/* rwbs "FF", "F", "FN": no data. */
static bool is_flush(const char *rwbs)
{
	return rwbs[0] == 'F' && !strpbrk(rwbs, "WRD");
}

/* Never 0 (a free slot). */
static uint64_t key_of(const struct blk_event *e)
{
	return e->sector + 1;
}

/* Top bits of a Fibonacci hash; nslots a power of two. */
static unsigned int home_of(uint64_t key, unsigned int nslots)
{
	return (unsigned int)((key * UINT64_C(0x9e3779b97f4a7c15)) >>
			      (64 - __builtin_ctz(nslots)));
}

static struct blk_slot *probe(struct blk_slot *t, unsigned int nslots, uint64_t key)
{
	unsigned int i = home_of(key, nslots);

	while (t[i].key && t[i].key != key)
		i = (i + 1) & (nslots - 1);
	return &t[i];
}

/* Rehash into twice the slots: a key's place depends on the size. */
static int grow(struct blockstat *b)
{
	unsigned int n = b->nslots ? 2 * b->nslots : BLK_FIRST_SLOTS;
	struct blk_slot *t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (unsigned int i = 0; i < b->nslots; i++)
		if (b->slot[i].key)
			*probe(t, n, b->slot[i].key) = b->slot[i];
	free(b->slot);
	b->slot = t;
	b->nslots = n;
	return 0;
}

static struct blk_slot *find(struct blockstat *b, uint64_t key, bool add)
{
	struct blk_slot *s;

	if (add && b->nslots < BLK_INFLIGHT && b->used + 1 > b->nslots / 2)
		(void)grow(b);	/* no memory: full sooner */
	if (!b->nslots)
		return NULL;
	s = probe(b->slot, b->nslots, key);
	if (s->key)
		return s;
	if (!add || b->used == b->nslots - 1)
		return NULL;	/* one slot stays free so lookups end */
	b->used++;
	s->key = key;
	return s;
}

/* Linear probing's deletion: later members of the run move back. */
static void release(struct blockstat *b, struct blk_slot *s)
{
	unsigned int i = (unsigned int)(s - b->slot), j = i, mask = b->nslots - 1;

	memset(s, 0, sizeof(*s));
	b->used--;
	for (;;) {
		unsigned int home;

		j = (j + 1) & mask;
		if (!b->slot[j].key)
			return;
		home = home_of(b->slot[j].key, b->nslots);
		/* j's member may move to i when i is on its way from home */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			b->slot[i] = b->slot[j];
			memset(&b->slot[j], 0, sizeof(b->slot[j]));
			i = j;
		}
	}
}

enum ws_submitter blockstat_submitter(const char *comm)
{
	static const struct {
		const char *prefix;
		enum ws_submitter sub;
	} by[] = {
		{ "ws-writer", WS_SUB_WRITER }, { "ws-probe-", WS_SUB_PROBES },
		{ "jbd2/", WS_SUB_JOURNAL }, { "kworker/", WS_SUB_FLUSHER },
	};

	for (size_t i = 0; i < sizeof(by) / sizeof(by[0]); i++)
		if (!strncmp(comm, by[i].prefix, strlen(by[i].prefix)))
			return by[i].sub;
	return WS_SUB_OTHER;
}

static void count(struct ws_block_figures *f, const struct blk_event *e,
		  enum ws_submitter sub, uint64_t time_ns, uint64_t service_ns)
{
	const char *w = strpbrk(e->rwbs, "WRD");
	struct ws_block_dir *d;

	if (!w || *w == 'D')
		return;
	if (*w == 'W' && strchr(w + 1, 'F'))
		f->fua++;
	d = &f->dir[*w == 'W' ? WS_BLK_WRITE : WS_BLK_READ];
	d->requests++;
	d->empty += !e->nr_sector;
	d->bytes += (uint64_t)e->nr_sector * 512;
	d->time_ns += time_ns;
	d->service_ns += service_ns;
	if (service_ns > d->max_service_ns)
		d->max_service_ns = service_ns;
	/* an empty flush request is never issued */
	if (e->nr_sector) {
		ws_latency_add(&d->queue, time_ns - service_ns);
		ws_latency_add(&d->service, service_ns);
	}
	f->by[sub].requests++;
	f->by[sub].bytes += (uint64_t)e->nr_sector * 512;
	f->by[sub].service_ns += service_ns;
}

static void unmatched(struct blockstat *b, const struct blk_event *e)
{
	b->iv.unmatched++;
	b->run.unmatched++;
	b->unmatched_bytes += (uint64_t)e->nr_sector * 512;
}

/* false when its issue is not in yet */
/* A worker's (the flusher's, or a cgroup limit's dispatch of what it
 * held) data write into the file's sectors carried the writer's pages.
 * Asked at the completion, the only place the submitter counts: the
 * file's newest extents may have come in since the request was got (they
 * are read off the tracer's thread). */
static enum ws_submitter credited(const struct blockstat *b, const struct blk_event *e,
				  enum ws_submitter sub)
{
	if (sub == WS_SUB_FLUSHER && b->file && e->nr_sector && strchr(e->rwbs, 'W') &&
	    !strchr(e->rwbs, 'M') && fileext_holds(b->file, e->sector, e->nr_sector))
		return WS_SUB_WRITER;
	return sub;
}

static bool complete(struct blockstat *b, const struct blk_event *e)
{
	struct blk_slot *s = find(b, key_of(e), false);
	uint64_t from, service;

	/* an fsync's empty "FWS" is never issued (its flush is) and completes
	 * as "WS": no service, no queue.  Take the oldest got before, never a
	 * data request at sector 0 (xfs's superblock) */
	if (!e->nr_sector && !e->sector && strchr(e->rwbs, 'W')) {
		for (unsigned int i = 0; i < b->nempty; i++) {
			struct blk_empty x = b->empty[i];

			if (x.start_ns > e->ts_ns)
				continue;
			memmove(&b->empty[i], &b->empty[i + 1],
				(b->nempty - i - 1) * sizeof(b->empty[0]));
			b->nempty--;
			count(&b->iv, e, x.sub, e->ts_ns - x.start_ns, 0);
			count(&b->run, e, x.sub, e->ts_ns - x.start_ns, 0);
			return true;
		}
		return false;
	}
	if (!s || !s->issue_ns || e->ts_ns < s->issue_ns)
		return false;
	from = s->start_ns && s->start_ns <= s->issue_ns ? s->start_ns : s->issue_ns;
	service = e->ts_ns - s->issue_ns;
	s->sub = credited(b, e, s->sub);
	if (s->sub == WS_SUB_FLUSHER && b->file_asked && e->nr_sector &&
	    strchr(e->rwbs, 'W') && !strchr(e->rwbs, 'M') && b->nundecided < BLK_UNDECIDED) {
		b->undecided[b->nundecided++] = (struct blk_undecided){ *e, e->ts_ns - from,
									 service };
	} else {
		count(&b->iv, e, s->sub, e->ts_ns - from, service);
		count(&b->run, e, s->sub, e->ts_ns - from, service);
	}
	if (strchr(e->rwbs, 'W')) {
		hist_record(&b->write_service, service);
		roundlat_add(&b->rounds, e->ts_ns, service);
		if (s->sub == WS_SUB_WRITER || s->sub == WS_SUB_FLUSHER)
			observer_writer(&b->obs, e->ts_ns, (uint64_t)e->nr_sector * 512);
	}
	if (s->sub == WS_SUB_PROBES || s->sub == WS_SUB_JOURNAL)
		observer_busy(&b->obs, s->issue_ns, e->ts_ns);
	if (b->timeline && strpbrk(e->rwbs, "WR"))
		timeline_add(b->timeline, e->ts_ns, (uint64_t)e->nr_sector * 512,
			     strchr(e->rwbs, 'W') != NULL, service, s->issue_ns - from);
	release(b, s);
	/* an empty flush's completion is its only one */
	if (e->nr_sector)
		b->done[b->ndone++ % BLK_DONE] = (struct blk_done){ key_of(e), e->ts_ns };
	return true;
}

/* A flushed write (a commit's "FWFS") completes twice: data, then after
 * the flush. */
static bool recently_done(const struct blockstat *b, const struct blk_event *e)
{
	uint64_t key = key_of(e);

	/* an early empty flush completion (xfs's superblock write has no flush) */
	if (!e->sector && !e->nr_sector)
		return false;

	for (unsigned int i = 0; i < BLK_DONE && i < b->ndone; i++)
		if (b->done[i].key == key && b->done[i].ts_ns <= e->ts_ns &&
		    e->ts_ns - b->done[i].ts_ns < BLK_PENDING_NS)
			return true;
	return false;
}

static void flush_timed(struct ws_block_figures *f, enum ws_submitter sub,
			uint64_t ns)
{
	f->flush_ns += ns;
	if (ns > f->max_flush_ns)
		f->max_flush_ns = ns;
	f->by[sub].flushes++;
	f->by[sub].flush_ns += ns;
}

static void flush_done(struct blockstat *b, unsigned int i, uint64_t done)
{
	flush_timed(&b->iv, b->flight[i].sub, done - b->flight[i].ts_ns);
	flush_timed(&b->run, b->flight[i].sub, done - b->flight[i].ts_ns);
	if (b->flight[i].sub == WS_SUB_PROBES || b->flight[i].sub == WS_SUB_JOURNAL)
		observer_busy(&b->obs, b->flight[i].ts_ns, done);
	b->flight[i] = b->flight[--b->nflight];
}

/* Counted at completion, timed once its issue is seen. */
static void flush_event(struct blockstat *b, const struct blk_event *e)
{
	unsigned int best = b->nflight, pick = b->nearly;

	if (e->kind == BLK_ISSUE) {
		enum ws_submitter sub = b->flush_asked_ns && b->flush_asked_ns <= e->ts_ns &&
					e->ts_ns - b->flush_asked_ns < BLK_PENDING_NS ?
					b->flush_sub : WS_SUB_OTHER;

		if (b->nflight == BLK_FLUSHES)	/* completions lost */
			b->flight[0] = b->flight[--b->nflight];
		b->flight[b->nflight++] = (struct blk_flush){ e->ts_ns, sub };
		/* its completion read already: the earliest after it */
		for (unsigned int k = 0; k < b->nearly; k++)
			if (b->early[k] >= e->ts_ns &&
			    (pick == b->nearly || b->early[k] < b->early[pick]))
				pick = k;
		if (pick < b->nearly) {
			uint64_t done = b->early[pick];

			b->early[pick] = b->early[--b->nearly];
			flush_done(b, b->nflight - 1, done);
		}
		return;
	}
	if (e->kind != BLK_COMPLETE)
		return;
	b->iv.flushes++;
	b->run.flushes++;
	for (unsigned int i = 0; i < b->nflight; i++)
		if (b->flight[i].ts_ns <= e->ts_ns &&
		    (best == b->nflight || b->flight[i].ts_ns > b->flight[best].ts_ns))
			best = i;
	if (best < b->nflight)
		flush_done(b, best, e->ts_ns);
	else if (b->nearly < BLK_FLUSHES)
		b->early[b->nearly++] = e->ts_ns;
}

void blockstat_event(struct blockstat *b, const struct blk_event *e)
{
	struct blk_slot *s;

	if (e->ts_ns > b->latest_ns)
		b->latest_ns = e->ts_ns;
	if (e->kind == BLK_GETRQ && strchr(e->rwbs, 'F')) {
		b->flush_sub = blockstat_submitter(e->comm);
		b->flush_asked_ns = e->ts_ns;
	}
	if (is_flush(e->rwbs)) {
		flush_event(b, e);
		return;
	}

	if (e->kind == BLK_COMPLETE) {
		if (complete(b, e) || recently_done(b, e))
			return;
		if (b->npending < BLK_PENDING)
			b->pending[b->npending++] = *e;
		else
			unmatched(b, e);
		return;
	}
	if (e->kind == BLK_GETRQ && !e->nr_sector && !e->sector && strchr(e->rwbs, 'F')) {
		if (b->nempty == BLK_EMPTY)	/* completions lost */
			memmove(&b->empty[0], &b->empty[1], --b->nempty * sizeof(b->empty[0]));
		b->empty[b->nempty++] = (struct blk_empty){ e->ts_ns,
							    blockstat_submitter(e->comm) };
		return;
	}
	s = find(b, key_of(e), true);
	if (!s)
		return;		/* full: its completion will be unmatched */
	if (e->kind == BLK_ISSUE)
		s->issue_ns = e->ts_ns;
	else if (!s->start_ns || e->kind == BLK_GETRQ)
		s->start_ns = e->ts_ns;
	if (e->kind == BLK_GETRQ) {
		s->sub = blockstat_submitter(e->comm);
		/* the flusher's data writes carry no flush or FUA: a kworker's
		 * that does is a log's (xfs pushes its log from a kworker) */
		if (s->sub == WS_SUB_FLUSHER && e->nr_sector && strchr(e->rwbs, 'F'))
			s->sub = WS_SUB_JOURNAL;
	}
}

/* Slots never freed (merged, issue dropped): unissued after 10 s, issued
 * after 10 min. */
static void sweep(struct blockstat *b)
{
	for (unsigned int i = 0; i < b->nslots; i++) {
		struct blk_slot *s = &b->slot[i];
		uint64_t age = s->issue_ns ? 600 * BLK_PENDING_NS : 10 * BLK_PENDING_NS;
		uint64_t at = s->issue_ns ? s->issue_ns : s->start_ns;

		if (s->key && at + age < b->latest_ns) {
			release(b, s);
			i--;	/* release may have moved another here */
		}
	}
}

static bool newer_flush(const struct blockstat *b, unsigned int i)
{
	for (unsigned int k = 0; k < b->nflight; k++)
		if (b->flight[k].ts_ns > b->flight[i].ts_ns)
			return true;
	return false;
}

void blockstat_decide(struct blockstat *b)
{
	for (unsigned int i = 0; i < b->nundecided; i++) {
		const struct blk_undecided *u = &b->undecided[i];
		enum ws_submitter sub = credited(b, &u->e, WS_SUB_FLUSHER);

		count(&b->iv, &u->e, sub, u->wait_ns, u->service_ns);
		count(&b->run, &u->e, sub, u->wait_ns, u->service_ns);
	}
	b->nundecided = 0;
}

void blockstat_settle(struct blockstat *b, bool final)
{
	unsigned int kept = 0;

	/* one flush at a time: an older issue lost its completion: untimed */
	for (unsigned int i = 0; b->nflight > 1 && i < b->nflight; )
		if (newer_flush(b, i))
			b->flight[i] = b->flight[--b->nflight];
		else
			i++;
	/* issue never came: counted, not timed */
	for (unsigned int i = 0; i < b->nearly; )
		if (final || b->early[i] + BLK_PENDING_NS < b->latest_ns)
			b->early[i] = b->early[--b->nearly];
		else
			i++;

	if (b->latest_ns > b->swept_ns + BLK_PENDING_NS) {
		sweep(b);
		b->swept_ns = b->latest_ns;
	}
	/* as an unissued slot, or it would take a later one's completion */
	while (b->nempty && b->empty[0].start_ns + 10 * BLK_PENDING_NS < b->latest_ns)
		memmove(&b->empty[0], &b->empty[1], --b->nempty * sizeof(b->empty[0]));

	for (unsigned int i = 0; i < b->npending; i++) {
		const struct blk_event *e = &b->pending[i];

		if (complete(b, e) || recently_done(b, e))
			continue;
		if (final || e->ts_ns + BLK_PENDING_NS < b->latest_ns)
			unmatched(b, e);
		else
			b->pending[kept++] = *e;
	}
	b->npending = kept;
	if (final)
		blockstat_decide(b);
}

void blockstat_take(struct blockstat *b, struct ws_block_figures *out)
{
	bool bios_on = b->iv.bios_on;

	/* an interval's writes are its own, the file read or not */
	blockstat_decide(b);
	*out = b->iv;
	memset(&b->iv, 0, sizeof(b->iv));
	b->iv.on = true;
	b->iv.bios_on = bios_on;
}
