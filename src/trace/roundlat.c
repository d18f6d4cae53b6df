/* roundlat.c - the device's write latency round by round (roundlat.h). */
#include <errno.h>
#include <stdlib.h>

#include "roundlat.h"

int roundlat_start(struct roundlat *rl, uint64_t origin_ns, uint64_t round_ns)
{
	roundlat_free(rl);
	if (!round_ns)
		return 0;
	rl->nopen = (unsigned int)((RL_OPEN_NS + round_ns - 1) / round_ns);
	rl->nopen = rl->nopen < RL_OPEN ? RL_OPEN :
		    rl->nopen > RL_OPEN_MAX ? RL_OPEN_MAX : rl->nopen;
	rl->open = malloc(rl->nopen * sizeof(*rl->open));
	if (!rl->open)
		return -ENOMEM;
	for (unsigned int i = 0; i < rl->nopen; i++)
		hist_init(&rl->open[i]);
	rl->origin_ns = origin_ns;
	rl->round_ns = round_ns;
	rl->started = true;
	return 0;
}

/* Round `base` done: its figures appended, its histogram (a ring:
 * round r's is open[r % nopen]) emptied for round base + nopen. */
static int close_oldest(struct roundlat *rl)
{
	struct hist *h = &rl->open[rl->base % rl->nopen];

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
	rl->base++;
	return 0;
}

void roundlat_add(struct roundlat *rl, uint64_t ts_ns, uint64_t service_ns)
{
	uint64_t round;

	if (!rl->round_ns)
		return;
	if (ts_ns < rl->origin_ns) {
		rl->early++;
		return;
	}
	round = (ts_ns - rl->origin_ns) / rl->round_ns;
	if (round < rl->base) {
		rl->late++;
		return;
	}
	while (round >= rl->base + rl->nopen)
		if (close_oldest(rl)) {
			rl->late++;	/* no memory for another round: lost */
			return;
		}
	hist_record(&rl->open[round % rl->nopen], service_ns);
	if (round + 1 > rl->reached)
		rl->reached = round + 1;
}

void roundlat_finish(struct roundlat *rl)
{
	if (!rl->round_ns)
		return;
	while (rl->base < rl->reached)
		if (close_oldest(rl))
			break;
	free(rl->open);
	rl->open = NULL;
	rl->round_ns = 0;	/* nothing more counts */
}

void roundlat_free(struct roundlat *rl)
{
	free(rl->open);
	free(rl->done);
	*rl = (struct roundlat){ 0 };
}
