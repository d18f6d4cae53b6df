#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "lib/array.h"

void journal_init(struct journal *j)
{
	memset(j, 0, sizeof(*j));
	j->kept_ring = JNL_KEPT;
	journal_traced(j, true, false, true);
}

void journal_free(struct journal *j)
{
	free(j->kept);
	j->kept = NULL;
	j->kept_cap = j->nkept = 0;
}

void journal_traced(struct journal *j, bool commits, bool xfs, bool pauses)
{
	j->iv.on = j->run.on = commits;
	j->iv.xfs = j->run.xfs = commits && xfs;
	j->iv.dirty_on = j->run.dirty_on = pauses;
}

uint64_t jnl_phase_ns(const struct jnl_commit *c, enum jnl_phase phase)
{
	/* a phase lasts until the next one seen begins */
	for (int next = (int)phase + 1; next <= JNL_END; next++)
		if (c->at[phase] && c->at[next])
			return c->at[next] > c->at[phase] ? c->at[next] - c->at[phase] : 0;
	return 0;
}

uint64_t jnl_commit_ns(const struct jnl_commit *c)
{
	return c->at[JNL_START] && c->at[JNL_END] > c->at[JNL_START] ?
	       c->at[JNL_END] - c->at[JNL_START] : 0;
}

static void count(struct ws_journal_figures *f, const struct jnl_commit *c)
{
	uint64_t ns = jnl_commit_ns(c);

	f->commits++;
	f->time_ns += ns;
	if (ns > f->max_ns)
		f->max_ns = ns;
	f->locked_ns += jnl_phase_ns(c, JNL_LOCKING);
	f->flushing_ns += jnl_phase_ns(c, JNL_FLUSHING);
	f->logging_ns += jnl_phase_ns(c, JNL_LOGGING);
	f->blocks += c->blocks;
	f->iclogs += c->iclogs;
	f->log_bytes += c->log_bytes;
}

/* Over the oldest once the ring is full. */
static void keep(struct journal *j, const struct jnl_commit *c)
{
	if (j->nkept < j->kept_ring &&
	    array_grow((void **)&j->kept, (size_t)j->nkept, &j->kept_cap, sizeof(*j->kept)))
		j->kept_ring = j->kept_cap;
	if (j->kept_ring)
		j->kept[j->nkept++ % j->kept_ring] = *c;
}

static void ended(struct journal *j)
{
	count(&j->iv, &j->open);
	count(&j->run, &j->open);
	keep(j, &j->open);
	j->have_open = false;
}

static void open_write(struct journal *j, const struct jnl_iclog *it)
{
	struct jnl_commit *o = &j->open;

	memset(o, 0, sizeof(*o));
	o->tid = ++j->xlog_seq;
	o->at[JNL_START] = o->at[JNL_LOGGING] = it->ts_ns;
	o->at[JNL_END] = it->to_ns;
	j->have_open = true;
}

/* In start order: into the growing write, or past the gap, the next.  A
 * late one from before it extends it within the gap, else stands alone. */
static void iclog_written(struct journal *j, const struct jnl_iclog *it)
{
	struct jnl_commit *o = &j->open;

	if (j->have_open && it->to_ns + JNL_XLOG_GAP_NS < o->at[JNL_START]) {
		struct jnl_commit now = *o;

		open_write(j, it);
		o->iclogs = 1;
		o->log_bytes = it->bytes;
		ended(j);
		*o = now;
		j->have_open = true;
		return;
	}
	if (j->have_open && it->ts_ns > o->at[JNL_END] + JNL_XLOG_GAP_NS)
		ended(j);
	if (!j->have_open)
		open_write(j, it);
	if (it->ts_ns < o->at[JNL_START])
		o->at[JNL_START] = o->at[JNL_LOGGING] = it->ts_ns;
	if (it->to_ns > o->at[JNL_END])
		o->at[JNL_END] = it->to_ns;
	o->iclogs++;
	o->log_bytes += it->bytes;
}

static bool take_iclog(struct jnl_iclog *list, unsigned int *n, uint64_t lsn,
		       struct jnl_iclog *out)
{
	for (unsigned int i = 0; i < *n; i++)
		if (list[i].lsn == lsn) {
			*out = list[i];
			list[i] = list[--*n];
			return true;
		}
	return false;
}

/* full: the oldest goes (its other half never came) */
static void put_iclog(struct jnl_iclog *list, unsigned int *n, struct jnl_iclog it)
{
	if (*n == JNL_ICLOGS) {
		unsigned int old = 0;

		for (unsigned int i = 1; i < *n; i++)
			if (list[i].ts_ns < list[old].ts_ns)
				old = i;
		list[old] = list[--*n];
	}
	list[(*n)++] = it;
}

static int by_start(const void *a, const void *b)
{
	const struct jnl_iclog *x = a, *y = b;

	return (x->ts_ns > y->ts_ns) - (x->ts_ns < y->ts_ns);
}

static void group_spans(struct journal *j)
{
	qsort(j->spans, j->nspans, sizeof(j->spans[0]), by_start);
	for (unsigned int i = 0; i < j->nspans; i++)
		iclog_written(j, &j->spans[i]);
	j->nspans = 0;
}

static void iclog_event(struct journal *j, const struct jnl_event *e)
{
	struct jnl_iclog it = { .lsn = e->lsn, .ts_ns = e->ts_ns, .bytes = e->bytes }, other;

	if (e->phase == JNL_ICLOG) {
		if (!take_iclog(j->ended, &j->nended, e->lsn, &other) || other.ts_ns < e->ts_ns) {
			put_iclog(j->begun, &j->nbegun, it);
			return;
		}
		it.to_ns = other.ts_ns;
	} else {
		if (!take_iclog(j->begun, &j->nbegun, e->lsn, &other) || other.ts_ns > e->ts_ns) {
			put_iclog(j->ended, &j->nended, it);
			return;
		}
		it = other;
		it.to_ns = e->ts_ns;
	}
	if (j->nspans == JNL_SPANS)
		group_spans(j);
	j->spans[j->nspans++] = it;
}

/* An iclog of it in flight, or an end whose start is not read yet. */
static bool write_going(const struct journal *j)
{
	for (unsigned int i = 0; i < j->nbegun; i++)
		if (j->begun[i].ts_ns <= j->open.at[JNL_END] + JNL_XLOG_GAP_NS)
			return true;
	return j->nended > 0;
}

static void forget(struct jnl_iclog *list, unsigned int *n, uint64_t before_ns)
{
	for (unsigned int i = 0; i < *n; )
		if (list[i].ts_ns < before_ns)
			list[i] = list[--*n];
		else
			i++;
}

void journal_settle(struct journal *j, uint64_t latest_ns, bool final)
{
	if (latest_ns > JNL_ICLOG_STALE_NS)
		forget(j->begun, &j->nbegun, latest_ns - JNL_ICLOG_STALE_NS);
	if (latest_ns > JNL_ICLOG_UNMATCHED_NS)
		forget(j->ended, &j->nended, latest_ns - JNL_ICLOG_UNMATCHED_NS);
	group_spans(j);
	if (j->xlog_seq && j->have_open &&
	    (final || (latest_ns > j->open.at[JNL_END] + JNL_XLOG_GAP_NS && !write_going(j))))
		ended(j);
}

void journal_event(struct journal *j, const struct jnl_event *e)
{
	if (e->phase == JNL_ICLOG || e->phase == JNL_ICLOG_DONE) {
		iclog_event(j, e);
		return;
	}
	if (e->phase == JNL_START || !j->have_open || j->open.tid != e->tid) {
		if (e->phase != JNL_START)
			return;		/* begun before the trace */
		memset(&j->open, 0, sizeof(j->open));
		j->open.tid = e->tid;
		j->have_open = true;
	}
	if (e->phase == JNL_STATS) {	/* comes just before the end */
		j->open.blocks = e->blocks;
		j->open.logged = e->logged;
		return;
	}
	j->open.at[e->phase] = e->ts_ns;
	if (e->phase == JNL_END)
		ended(j);
}

void journal_dirty_pause(struct journal *j, uint64_t pause_ns, bool writer)
{
	j->iv.dirty_pauses++;
	j->run.dirty_pauses++;
	j->iv.dirty_paused_ns += pause_ns;
	j->run.dirty_paused_ns += pause_ns;
	if (writer) {
		j->iv.writer_paused_ns += pause_ns;
		j->run.writer_paused_ns += pause_ns;
	}
}

void journal_take(struct journal *j, struct ws_journal_figures *out)
{
	*out = j->iv;
	j->iv = (struct ws_journal_figures){ .on = out->on, .xfs = out->xfs,
					     .dirty_on = out->dirty_on, .wb_on = out->wb_on };
}

bool journal_overlap(const struct journal *j, uint64_t from_ns, uint64_t to_ns,
		     struct jnl_commit *longest, uint64_t *covered_ns)
{
	uint64_t n = j->nkept < j->kept_ring ? j->nkept : j->kept_ring, best = 0;

	*covered_ns = 0;
	for (uint64_t i = 0; i < n; i++) {
		const struct jnl_commit *c = &j->kept[i];
		uint64_t a = c->at[JNL_START] > from_ns ? c->at[JNL_START] : from_ns;
		uint64_t b = c->at[JNL_END] < to_ns ? c->at[JNL_END] : to_ns;

		if (!c->at[JNL_START] || b <= a)
			continue;
		*covered_ns += b - a;	/* one journal's commits never overlap */
		if (b - a > best) {
			best = b - a;
			*longest = *c;
		}
	}
	return best > 0;
}

const struct jnl_commit *journal_oldest(const struct journal *j)
{
	return j->nkept > j->kept_ring ? &j->kept[j->nkept % j->kept_ring] : NULL;
}
