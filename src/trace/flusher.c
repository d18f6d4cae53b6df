#include <string.h>

#include "flusher.h"

void flusher_init(struct flusher *f)
{
	memset(f, 0, sizeof(*f));
}

static void seen(struct ws_journal_figures *to, int32_t reason)
{
	to->wb_works++;
	to->wb_by_reason[reason >= 0 && reason < WS_WB_REASONS ? reason : WS_WB_REASONS - 1]++;
}

static void wrote(struct ws_journal_figures *iv, struct ws_journal_figures *run,
		  int64_t start_pages, int64_t end_pages)
{
	uint64_t pages = start_pages > end_pages ? (uint64_t)(start_pages - end_pages) : 0;

	iv->wb_pages += pages;
	run->wb_pages += pages;
}

/* Its own, else a free one, else the one seen longest ago. */
static struct flusher_wb *wb_of(struct flusher *f, uint64_t ino)
{
	struct flusher_wb *at = NULL;

	for (unsigned int i = 0; i < FLUSHER_WBS; i++)
		if (f->wb[i].used && f->wb[i].cgroup_ino == ino)
			return &f->wb[i];
	for (unsigned int i = 0; !at && i < FLUSHER_WBS; i++)
		if (!f->wb[i].used)
			at = &f->wb[i];
	if (!at) {
		at = &f->wb[0];
		for (unsigned int i = 1; i < FLUSHER_WBS; i++)
			if (f->wb[i].seen_ns < at->seen_ns)
				at = &f->wb[i];
	}
	memset(at, 0, sizeof(*at));
	at->used = true;
	at->cgroup_ino = ino;
	return at;
}

void flusher_event(struct flusher *f, const struct wb_event *e,
		   struct ws_journal_figures *iv, struct ws_journal_figures *run)
{
	struct flusher_wb *w = wb_of(f, e->cgroup_ino);

	if (e->ts_ns > w->seen_ns)
		w->seen_ns = e->ts_ns;
	if (!e->end) {
		/* its end read first (another CPU's ring): the work was counted then */
		if (w->have_end && w->end_alone && w->end_ns >= e->ts_ns) {
			wrote(iv, run, e->nr_pages, w->end_pages);
			w->end_alone = false;
			return;
		}
		/* not the next pass of the last work: a new one */
		if (!w->have_end || w->end_pages != e->nr_pages || w->end_reason != e->reason) {
			seen(iv, e->reason);
			seen(run, e->reason);
		}
		w->in_pass = true;
		w->start_ns = e->ts_ns;
		w->start_pages = e->nr_pages;
		return;
	}
	if (w->in_pass && w->start_ns <= e->ts_ns) {
		wrote(iv, run, w->start_pages, e->nr_pages);
		w->end_alone = false;
	} else {
		/* begun before the trace, or its start comes later */
		seen(iv, e->reason);
		seen(run, e->reason);
		w->end_alone = true;
	}
	w->in_pass = false;
	w->have_end = true;
	w->end_ns = e->ts_ns;
	w->end_pages = e->nr_pages;
	w->end_reason = e->reason;
}

unsigned int flusher_running(const struct flusher *f)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < FLUSHER_WBS; i++)
		n += f->wb[i].used && f->wb[i].in_pass;
	return n;
}
