#include <errno.h>
#include <stdlib.h>

#include "roundlat.h"

int roundlat_start(struct roundlat *rl, uint64_t origin_ns, uint64_t round_ns)
{
	unsigned int nopen;

	roundlat_free(rl);
	if (!round_ns)
		return 0;
	nopen = (unsigned int)((RL_OPEN_NS + round_ns - 1) / round_ns);
	nopen = nopen < RL_OPEN ? RL_OPEN : nopen > RL_OPEN_MAX ? RL_OPEN_MAX : nopen;
	rl->open = malloc(nopen * sizeof(*rl->open));
	if (!rl->open)
		return -ENOMEM;
	for (unsigned int i = 0; i < nopen; i++)
		hist_init(&rl->open[i]);
	slotclock_start(&rl->clock, origin_ns, round_ns, nopen);
	rl->counting = rl->started = true;
	return 0;
}

/* Round base's figures appended, its histogram emptied for base + nopen. */
static int close_oldest(void *owner)
{
	struct roundlat *rl = owner;
	struct hist *h = &rl->open[rl->clock.base % rl->clock.nopen];

	if (rl->ndone == rl->cap) {
		size_t cap = rl->cap ? 2 * rl->cap : 64;
		struct ws_round_device *d = realloc(rl->done, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		rl->done = d;
		rl->cap = cap;
	}
	rl->done[rl->ndone++] = (struct ws_round_device){
		.writes = h->count,
		.p50_ns = h->count ? hist_percentile(h, 50.0) : 0,
		.p99_ns = h->count ? hist_percentile(h, 99.0) : 0,
	};
	hist_init(h);
	return 0;
}

void roundlat_add(struct roundlat *rl, uint64_t ts_ns, uint64_t service_ns)
{
	int64_t round;

	if (!rl->counting)
		return;
	round = slotclock_place(&rl->clock, ts_ns, close_oldest, rl);
	if (round >= 0)
		hist_record(&rl->open[(uint64_t)round % rl->clock.nopen], service_ns);
}

void roundlat_finish(struct roundlat *rl)
{
	if (!rl->counting)
		return;
	while (rl->clock.base < rl->clock.reached && !close_oldest(rl))
		slotclock_closed(&rl->clock);
	free(rl->open);
	rl->open = NULL;
	rl->counting = false;
}

void roundlat_free(struct roundlat *rl)
{
	free(rl->open);
	free(rl->done);
	*rl = (struct roundlat){ 0 };
}
