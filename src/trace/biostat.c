#include <string.h>

#include "biostat.h"

void biostat_init(struct biostat *s, struct timeline *timeline)
{
	memset(s, 0, sizeof(*s));
	s->timeline = timeline;
}

/* -1: a discard, or an empty flush (an fsync's, all at sector 0). */
static int dir_of(const char *rwbs)
{
	const char *w = strpbrk(rwbs, "WRD");

	if (!w || *w == 'D')
		return -1;
	return *w == 'W' ? WS_BLK_WRITE : WS_BLK_READ;
}

/* Never 0 (a free entry). */
static uint64_t key_of(uint64_t sector, int dir)
{
	return (sector + 1) << 1 | (uint64_t)dir;
}

static struct bio_wait *lookup(struct bio_wait *set, unsigned int n, uint64_t key)
{
	for (unsigned int i = 0; i < n; i++)
		if (set[i].key == key)
			return &set[i];
	return NULL;
}

/* Over its own entry, else a free one, else the oldest but keep. */
static void put(struct bio_wait *set, unsigned int n, uint64_t key, uint64_t ts_ns,
		const struct bio_wait *keep)
{
	struct bio_wait *at = lookup(set, n, key);

	for (unsigned int i = 0; !at && i < n; i++)
		if (!set[i].key)
			at = &set[i];
	if (!at)
		for (unsigned int i = 0; i < n; i++)
			if (&set[i] != keep && (!at || set[i].ts_ns < at->ts_ns))
				at = &set[i];
	*at = (struct bio_wait){ key, ts_ns };
}

static void waited(struct ws_block_figures *f, int dir, uint64_t ns)
{
	struct ws_block_dir *d = &f->dir[dir];

	d->request_waits++;
	d->request_wait_ns += ns;
	if (ns > d->max_request_wait_ns)
		d->max_request_wait_ns = ns;
}

static void got_request(struct biostat *s, int dir, uint64_t queued, uint64_t got,
			struct ws_block_figures *iv, struct ws_block_figures *run)
{
	uint64_t ns = got > queued ? got - queued : 0;

	waited(iv, dir, ns);
	waited(run, dir, ns);
	if (s->timeline)
		timeline_request_wait(s->timeline, got, ns);
}

void biostat_event(struct biostat *s, const struct bio_event *e,
		   struct ws_block_figures *iv, struct ws_block_figures *run)
{
	int dir = dir_of(e->rwbs);
	struct bio_wait *w;
	uint64_t key;

	if (dir < 0)
		return;
	if (e->ts_ns > s->latest_ns)
		s->latest_ns = e->ts_ns;
	key = key_of(e->sector, dir);
	switch (e->kind) {
	case BIO_QUEUE:
		iv->dir[dir].bios++;
		run->dir[dir].bios++;
		if (!strchr(e->rwbs, 'F') || e->nr_sector) {
			/* its getrq already read: the wait is whole */
			w = lookup(s->early, BIO_EARLY, key);
			if (w && w->ts_ns >= e->ts_ns) {
				got_request(s, dir, e->ts_ns, w->ts_ns, iv, run);
				w->key = 0;
			} else {
				put(s->waiting, BIO_WAITING, key, e->ts_ns, NULL);
			}
		}
		break;
	case BIO_MERGE:
		/* no request of its own: its wait ends unseen */
		if ((w = lookup(s->waiting, BIO_WAITING, key)))
			w->key = 0;
		/* fall through */
	case BIO_RQ_MERGE:
		iv->dir[dir].merged++;
		run->dir[dir].merged++;
		break;
	case BIO_SPLIT:
		iv->dir[dir].splits++;
		run->dir[dir].splits++;
		/* the rest waits from the whole's queueing; the first part's wait kept */
		if ((w = lookup(s->waiting, BIO_WAITING, key))) {
			uint64_t rest = key_of(e->nr_sector, dir);
			struct bio_wait *g = lookup(s->early, BIO_EARLY, rest);

			if (g && g->ts_ns >= w->ts_ns) {
				got_request(s, dir, w->ts_ns, g->ts_ns, iv, run);
				g->key = 0;
			} else {
				put(s->waiting, BIO_WAITING, rest, w->ts_ns, w);
			}
		}
		break;
	}
}

void biostat_getrq(struct biostat *s, const struct blk_event *e,
		   struct ws_block_figures *iv, struct ws_block_figures *run)
{
	struct bio_wait *w;
	uint64_t key;
	int dir;

	/* issues and completions come here too: they go at once */
	if (e->kind != BLK_GETRQ || (dir = dir_of(e->rwbs)) < 0 ||
	    (strchr(e->rwbs, 'F') && !e->nr_sector))
		return;
	if (e->ts_ns > s->latest_ns)
		s->latest_ns = e->ts_ns;
	key = key_of(e->sector, dir);
	w = lookup(s->waiting, BIO_WAITING, key);
	if (w && w->ts_ns <= e->ts_ns) {
		got_request(s, dir, w->ts_ns, e->ts_ns, iv, run);
		w->key = 0;
	} else {
		put(s->early, BIO_EARLY, key, e->ts_ns, NULL);
	}
}

static void forget(struct bio_wait *set, unsigned int n, uint64_t age, uint64_t now, bool all)
{
	for (unsigned int i = 0; i < n; i++)
		if (set[i].key && (all || set[i].ts_ns + age < now))
			set[i].key = 0;
}

void biostat_settle(struct biostat *s, bool final)
{
	forget(s->early, BIO_EARLY, BIO_EARLY_NS, s->latest_ns, final);
	forget(s->waiting, BIO_WAITING, BIO_STALE_NS, s->latest_ns, false);
}
