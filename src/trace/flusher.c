/* flusher.c - the flusher's works on the traced disk (see flusher.h). */
#include <string.h>

#include "flusher.h"

void flusher_init(struct flusher *f)
{
	memset(f, 0, sizeof(*f));
}

/* A work seen: begun, or ended with its start before the trace. */
static void seen(struct ws_journal_figures *to, int32_t reason)
{
	to->wb_works++;
	to->wb_by_reason[reason >= 0 && reason < WS_WB_REASONS ? reason : WS_WB_REASONS - 1]++;
}

void flusher_event(struct flusher *f, const struct wb_event *e,
		   struct ws_journal_figures *iv, struct ws_journal_figures *run)
{
	unsigned int at = FLUSHER_OPEN;
	uint64_t pages = 0;

	for (unsigned int i = 0; i < FLUSHER_OPEN; i++)
		if (f->open[i].used && f->open[i].cgroup_ino == e->cgroup_ino)
			at = i;
	if (!e->end) {
		/* a start: its cgroup's place (a start whose end was lost is
		 * forgotten), else a free one, else the oldest */
		for (unsigned int i = 0; at == FLUSHER_OPEN && i < FLUSHER_OPEN; i++)
			if (!f->open[i].used)
				at = i;
		if (at == FLUSHER_OPEN) {
			at = 0;
			for (unsigned int i = 1; i < FLUSHER_OPEN; i++)
				if (f->open[i].ts_ns < f->open[at].ts_ns)
					at = i;
		}
		f->open[at].used = true;
		f->open[at].cgroup_ino = e->cgroup_ino;
		f->open[at].ts_ns = e->ts_ns;
		f->open[at].nr_pages = e->nr_pages;
		seen(iv, e->reason);
		seen(run, e->reason);
		return;
	}
	/* an end: its pages known when its start was seen; else a work
	 * begun before the trace, seen now */
	if (at < FLUSHER_OPEN) {
		if (f->open[at].nr_pages > e->nr_pages)
			pages = (uint64_t)(f->open[at].nr_pages - e->nr_pages);
		f->open[at].used = false;
		iv->wb_ended++;
		run->wb_ended++;
	} else {
		seen(iv, e->reason);
		seen(run, e->reason);
	}
	iv->wb_pages += pages;
	run->wb_pages += pages;
}

unsigned int flusher_running(const struct flusher *f)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < FLUSHER_OPEN; i++)
		n += f->open[i].used;
	return n;
}
