/* timeline.c - the device's answers in time buckets (see timeline.h). */
#include <string.h>

#include "timeline.h"

void timeline_init(struct timeline *tl, uint64_t origin_ns)
{
	memset(tl, 0, sizeof(*tl));
	tl->origin_ns = origin_ns;
	tl->width_ns = TL_FIRST_NS;
}

static void merge_into(struct tl_bucket *to, const struct tl_bucket *from)
{
	to->requests += from->requests;
	to->bytes += from->bytes;
	to->service_ns += from->service_ns;
	if (from->max_service_ns > to->max_service_ns)
		to->max_service_ns = from->max_service_ns;
	if (from->max_queue_ns > to->max_queue_ns)
		to->max_queue_ns = from->max_queue_ns;
}

/* Twice as wide: bucket i becomes buckets 2i and 2i + 1 together. */
static void coarsen(struct timeline *tl)
{
	for (unsigned int i = 0; i < TL_BUCKETS / 2; i++) {
		struct tl_bucket m = tl->b[2 * i];

		merge_into(&m, &tl->b[2 * i + 1]);
		tl->b[i] = m;
	}
	memset(&tl->b[TL_BUCKETS / 2], 0, sizeof(tl->b[0]) * (TL_BUCKETS / 2));
	tl->width_ns *= 2;
	tl->used = (tl->used + 1) / 2;
}

void timeline_add(struct timeline *tl, uint64_t ts_ns, uint64_t bytes,
		  uint64_t service_ns, uint64_t queue_ns)
{
	uint64_t at;
	struct tl_bucket *b;

	if (!tl->origin_ns)
		tl->origin_ns = ts_ns;	/* none given: the first event's */
	at = ts_ns > tl->origin_ns ? ts_ns - tl->origin_ns : 0;

	while (at / tl->width_ns >= TL_BUCKETS)
		coarsen(tl);
	b = &tl->b[at / tl->width_ns];
	if (at / tl->width_ns >= tl->used)
		tl->used = (unsigned int)(at / tl->width_ns) + 1;
	merge_into(b, &(struct tl_bucket){ 1, bytes, service_ns, service_ns, queue_ns });
}

void timeline_window(const struct timeline *tl, uint64_t from_ns, uint64_t to_ns,
		     struct tl_window *w)
{
	uint64_t first = from_ns > tl->origin_ns ? (from_ns - tl->origin_ns) / tl->width_ns : 0;
	uint64_t last = to_ns > tl->origin_ns ? (to_ns - tl->origin_ns) / tl->width_ns : 0;
	struct tl_bucket sum = { 0 };

	if (last >= TL_BUCKETS)
		last = TL_BUCKETS - 1;
	for (uint64_t i = first; i <= last && i < TL_BUCKETS; i++)
		merge_into(&sum, &tl->b[i]);
	*w = (struct tl_window){
		.from_ns = tl->origin_ns + first * tl->width_ns,
		.to_ns = tl->origin_ns + (last + 1) * tl->width_ns,
		.requests = sum.requests, .bytes = sum.bytes,
		.service_ns = sum.service_ns, .max_service_ns = sum.max_service_ns,
		.max_queue_ns = sum.max_queue_ns,
	};
}
