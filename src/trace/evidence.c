#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "lib/array.h"
#include "stallcause.h"

void evidence_init(struct evidence *ev, uint64_t origin_ns)
{
	memset(ev, 0, sizeof(*ev));
	ev->block_size = 4096;
	ev->pauses_ring = PAUSES_KEPT;
	blockstat_init(&ev->bs);
	biostat_init(&ev->bios, &ev->tl);
	flusher_init(&ev->flusher);
	timeline_init(&ev->tl, origin_ns);
	journal_init(&ev->jn);
	ev->bs.timeline = &ev->tl;
	ev->bs.file = &ev->file;
}

void evidence_free(struct evidence *ev)
{
	blockstat_free(&ev->bs);
	fileext_free(&ev->file);
	timeline_free(&ev->tl);
	journal_free(&ev->jn);
	free(ev->pauses);
	ev->pauses = NULL;
	ev->pauses_cap = ev->npauses = 0;
}

/* Over the oldest once the ring is full. */
static void keep_pause(struct evidence *ev, const struct dirty_event *p)
{
	if (ev->npauses < ev->pauses_ring &&
	    array_grow((void **)&ev->pauses, (size_t)ev->npauses, &ev->pauses_cap,
		       sizeof(*ev->pauses)))
		ev->pauses_ring = ev->pauses_cap;
	if (ev->pauses_ring)
		ev->pauses[ev->npauses++ % ev->pauses_ring] = *p;
}

void evidence_bios_traced(struct evidence *ev)
{
	ev->bs.iv.bios_on = ev->bs.run.bios_on = true;
}

void evidence_flusher_traced(struct evidence *ev)
{
	ev->jn.iv.wb_on = ev->jn.run.wb_on = true;
}

void evidence_event(struct evidence *ev, const struct trace_event *e)
{
	switch (e->kind) {
	case TE_BLOCK:
		blockstat_event(&ev->bs, &e->blk);
		biostat_getrq(&ev->bios, &e->blk, &ev->bs.iv, &ev->bs.run);
		break;
	case TE_WB:
		ev->jn.iv.wb_on = ev->jn.run.wb_on = true;	/* as for bios */
		flusher_event(&ev->flusher, &e->wb, &ev->jn.iv, &ev->jn.run);
		break;
	case TE_EXTENT:
		(void)fileext_add(&ev->file, e->ext.sector, e->ext.nr_sector);
		break;
	case TE_CULPRIT:	/* the tracer's own, never evidence */
		break;
	case TE_BIO:
		evidence_bios_traced(ev);	/* a recording's: they are there */
		biostat_event(&ev->bios, &e->bio, &ev->bs.iv, &ev->bs.run);
		break;
	case TE_JOURNAL:
		journal_event(&ev->jn, &e->jnl);
		break;
	case TE_DIRTY:
		journal_dirty_pause(&ev->jn, e->dirty.pause_ns, e->dirty.writer);
		keep_pause(ev, &e->dirty);
		break;
	case TE_WBT:
		ev->bs.iv.wbt_on = ev->bs.run.wbt_on = true;	/* a recording's */
		ev->wbt[ev->nwbt++ % WBT_KEPT] = e->wbt;
		ev->bs.iv.wbt_changes++;
		ev->bs.run.wbt_changes++;
		/* the latest in time: the rings are read CPU by CPU */
		if (e->wbt.ts_ns >= ev->wbt_latest_ns) {
			ev->wbt_latest_ns = e->wbt.ts_ns;
			ev->bs.iv.wbt = ev->bs.run.wbt = (struct ws_wbt_limits){ true,
				e->wbt.step, e->wbt.bg, e->wbt.normal, e->wbt.max };
		}
		break;
	case TE_WBT_STAT:
		if (e->wbt_stat.ts_ns >= ev->wbt_stat_latest_ns) {
			ev->wbt_stat_latest_ns = e->wbt_stat.ts_ns;
			ev->bs.iv.wbt_look = ev->bs.run.wbt_look = (struct ws_wbt_look){ true,
				e->wbt_stat.rmin, e->wbt_stat.rmean, e->wbt_stat.wmean };
		}
		break;
	}
}

void evidence_settle(struct evidence *ev, bool final)
{
	blockstat_settle(&ev->bs, final);
	biostat_settle(&ev->bios, final);
	journal_settle(&ev->jn, ev->bs.latest_ns, final);
}

void evidence_take(struct evidence *ev, struct ws_block_figures *block,
		   struct ws_journal_figures *journal)
{
	struct ws_block_figures *iv = &ev->bs.iv;

	blockstat_take(&ev->bs, block);
	journal_take(&ev->jn, journal);
	/* wbt's limits are a state: carried over, changes from 0 */
	iv->wbt_on = block->wbt_on;
	iv->wbt = block->wbt;
	iv->wbt_look = block->wbt_look;
}

static uint64_t paused(const struct evidence *ev, int32_t tid, uint64_t from, uint64_t to)
{
	uint64_t n = ev->npauses < ev->pauses_ring ? ev->npauses : ev->pauses_ring, sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		const struct dirty_event *p = &ev->pauses[i];
		uint64_t a = p->ts_ns > from ? p->ts_ns : from;
		uint64_t b = p->ts_ns + p->pause_ns < to ? p->ts_ns + p->pause_ns : to;

		if (p->tid == tid && b > a)
			sum += b - a;
	}
	return sum;
}

/* The limits at `at` and the changes over [from, at); the ring is in
 * read order. */
static void wbt_state(const struct evidence *ev, uint64_t from, uint64_t at,
		      struct stall_evidence *s)
{
	uint64_t n = ev->nwbt < WBT_KEPT ? ev->nwbt : WBT_KEPT, latest = 0;

	s->wbt_lat_us = ev->wbt_lat_us;
	s->wbt_traced = ev->wbt_traced;
	for (uint64_t i = 0; i < n; i++) {
		const struct wbt_event *w = &ev->wbt[i];

		if (w->ts_ns >= at)
			continue;
		s->wbt_changes += w->ts_ns >= from;
		if (s->wbt_known && w->ts_ns < latest)
			continue;
		s->wbt_known = true;
		latest = w->ts_ns;
		s->wbt_step = w->step;
		s->wbt_bg = w->bg;
		s->wbt_normal = w->normal;
		s->wbt_max = w->max;
	}
}

static void span_of(const struct timeline *tl, uint64_t from, uint64_t to,
		    struct stall_span *s)
{
	struct tl_window w;

	timeline_window(tl, from, to, &w);
	*s = (struct stall_span){
		.span_ns = w.to_ns > w.from_ns ? w.to_ns - w.from_ns : 0,
		.requests = w.requests, .bytes = w.bytes,
		.wrequests = w.wrequests, .wbytes = w.wbytes,
		.busy_ns = w.service_ns, .max_service_ns = w.max_service_ns,
		.max_queue_ns = w.max_queue_ns,
		.request_waits = w.request_waits,
		.max_request_wait_ns = w.max_request_wait_ns,
	};
}

/* Began before the oldest kept commit, pause or wbt change (a ring
 * wrapped)? */
static bool before_kept(const struct evidence *ev, uint64_t start_ns)
{
	const struct jnl_commit *oldest = journal_oldest(&ev->jn);
	const struct wbt_event *step = &ev->wbt[ev->nwbt % WBT_KEPT];

	return (oldest && start_ns < oldest->at[JNL_START]) ||
	       (ev->npauses > ev->pauses_ring &&
		start_ns < ev->pauses[ev->npauses % ev->pauses_ring].ts_ns) ||
	       (ev->nwbt > WBT_KEPT && start_ns < step->ts_ns);
}

enum ws_stall_cause evidence_explain(const struct evidence *ev,
				     const struct stall_query *q,
				     struct ws_stall_reason *r)
{
	uint64_t end = q->start_ns + q->duration_ns;
	struct stall_evidence s = {
		.duration_ns = q->duration_ns, .site = q->site,
		.limit_bps = q->limit_bps, .limit_iops = q->limit_iops,
	};
	struct jnl_commit c;

	s.paused_ns = paused(ev, q->tid, q->start_ns, end);
	wbt_state(ev, q->start_ns, end, &s);
	span_of(&ev->tl, q->start_ns, end, &s.stall);
	s.overwritten = before_kept(ev, q->start_ns);
	if (journal_overlap(&ev->jn, q->start_ns, end, &c, &s.commit_covered_ns)) {
		s.commit_tid = c.tid;
		s.commit_own_ns = (c.at[JNL_END] < end ? c.at[JNL_END] : end) -
				  (c.at[JNL_START] > q->start_ns ? c.at[JNL_START] : q->start_ns);
		s.commit_ns = jnl_commit_ns(&c);
		s.locked_ns = jnl_phase_ns(&c, JNL_LOCKING);
		s.flushing_ns = jnl_phase_ns(&c, JNL_FLUSHING);
		s.logging_ns = jnl_phase_ns(&c, JNL_LOGGING);
		s.commit_own_bytes = c.iclogs ? c.log_bytes : (uint64_t)c.logged * ev->block_size;
		s.commit_iclogs = c.iclogs;
		span_of(&ev->tl, c.at[JNL_START], c.at[JNL_END], &s.commit);
	}
	return stall_cause(&s, r);
}
