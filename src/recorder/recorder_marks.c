/* recorder_marks.c - what the ticks and the end of run both read: the
 * writers' marks, the adaptive controller's figures, a target's end. */
#include "analysis/series.h"
#include "lib/c.h"
#include "recorder_thread.h"

void recorder_add_mark(struct recorder_target *t, const struct ws_mark *m,
		       bool last)
{
	struct ws_point p;

	if (!last)
		t->last_pending = m->pending;
	if (!recorder_mark_point(&t->last_mark, m, last, &p))
		return;
	series_add(t->progress, &p);
	t->last_mark = *m;
}

void recorder_take_marks(struct recorder *r, struct recorder_target *t)
{
	size_t n;

	while ((n = snapshot_take_marks(t->snap, r->marks, ARRAY_SIZE(r->marks))))
		for (size_t i = 0; i < n; i++)
			recorder_add_mark(t, &r->marks[i], false);
}

bool recorder_adaptive(const struct recorder_target *t)
{
	return t->run->set.pace == WS_PACE_ADAPTIVE;
}

void recorder_add_adapt(struct recorder_target *t, uint64_t start_ns,
			struct ws_interval *iv)
{
	if (!recorder_adaptive(t))
		return;
	iv->have_adapt = true;
	snapshot_adapt_figures(t->snap, start_ns, &iv->adapt);
}

/* On the run's clock; UINT64_MAX while one has not (or none adapts). */
uint64_t recorder_adapt_settled_at(const struct recorder *r)
{
	uint64_t at = 0;
	bool any = false;

	for (unsigned int i = 0; i < r->ntargets; i++) {
		const struct recorder_target *t = &r->targets[i];
		uint64_t s;

		if (!recorder_adaptive(t))
			continue;
		s = snapshot_settled_ns(t->snap);
		if (!s)
			return UINT64_MAX;
		s = s > r->start_ns ? s - r->start_ns : 0;
		if (s > at)
			at = s;
		any = true;
	}
	return any ? at : UINT64_MAX;
}

uint64_t recorder_end_of(const struct recorder *r, const struct recorder_target *t)
{
	return snapshot_outcome(t->snap)->end_ns - r->start_ns;
}
