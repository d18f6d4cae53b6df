#include <string.h>

#include "lostspans.h"

void lostspans_init(struct lostspans *l, uint64_t start_ns)
{
	memset(l, 0, sizeof(*l));
	l->last_ns = l->start_ns = start_ns;
}

uint64_t lostspans_note(struct lostspans *l, uint64_t lost_total, uint64_t now_ns)
{
	struct lost_span *last = l->n ? &l->span[(l->n - 1) % LOST_SPANS] : NULL;
	uint64_t fresh = lost_total > l->taken ? lost_total - l->taken : 0;

	/* a span going on from the last extends it: steady losses keep one */
	if (fresh && last && last->to_ns == l->last_ns) {
		last->to_ns = now_ns;
		last->lost += fresh;
	} else if (fresh) {
		l->span[l->n++ % LOST_SPANS] = (struct lost_span){ l->last_ns, now_ns, fresh };
	}
	if (lost_total > l->taken)
		l->taken = lost_total;
	l->last_ns = now_ns;
	return fresh;
}

uint64_t lostspans_within(const struct lostspans *l, uint64_t from_ns, uint64_t to_ns)
{
	unsigned int n = l->n < LOST_SPANS ? l->n : LOST_SPANS;
	uint64_t sum = 0;

	for (unsigned int i = 0; i < n; i++)
		if (l->span[i].from_ns <= to_ns && l->span[i].to_ns >= from_ns)
			sum += l->span[i].lost;
	return sum;
}

void lostspans_judge(const struct lostspans *l, uint64_t from_ns, uint64_t to_ns,
		     struct ws_stall_reason *r)
{
	r->lost_events = lostspans_within(l, from_ns, to_ns);
	r->before_trace = from_ns < l->start_ns;
}
