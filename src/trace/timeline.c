#include <stdlib.h>
#include <string.h>

#include "lib/array.h"
#include "timeline.h"

void timeline_init(struct timeline *tl, uint64_t origin_ns)
{
	memset(tl, 0, sizeof(*tl));
	tl->origin_ns = origin_ns;
	tl->width_ns = TL_FIRST_NS;
}

void timeline_free(struct timeline *tl)
{
	free(tl->b);
	tl->b = NULL;
	tl->cap = tl->used = 0;
}

static void merge_into(struct tl_bucket *to, const struct tl_bucket *from)
{
	to->requests += from->requests;
	to->bytes += from->bytes;
	to->wrequests += from->wrequests;
	to->wbytes += from->wbytes;
	to->service_ns += from->service_ns;
	if (from->max_service_ns > to->max_service_ns)
		to->max_service_ns = from->max_service_ns;
	if (from->max_queue_ns > to->max_queue_ns)
		to->max_queue_ns = from->max_queue_ns;
	to->request_waits += from->request_waits;
	if (from->max_request_wait_ns > to->max_request_wait_ns)
		to->max_request_wait_ns = from->max_request_wait_ns;
}

/* Twice as wide: buckets 2i and 2i + 1 become i. */
static void coarsen(struct timeline *tl)
{
	unsigned int half = (tl->used + 1) / 2;

	for (unsigned int i = 0; i < half; i++) {
		struct tl_bucket m = tl->b[2 * i];

		if (2 * i + 1 < tl->used)
			merge_into(&m, &tl->b[2 * i + 1]);
		tl->b[i] = m;
	}
	if (tl->used > half)
		memset(&tl->b[half], 0, sizeof(tl->b[0]) * (tl->used - half));
	tl->width_ns *= 2;
	tl->used = half;
}

/* k < TL_BUCKETS; false when there is no memory. */
static bool room_for(struct timeline *tl, uint64_t k)
{
	while (k >= tl->cap) {
		size_t old = tl->cap;

		if (array_grow((void **)&tl->b, old, &tl->cap, sizeof(*tl->b)))
			return false;
		memset(&tl->b[old], 0, (tl->cap - old) * sizeof(*tl->b));
	}
	return true;
}

/* Widening to reach ts_ns; *at: from the origin; NULL: no memory. */
static struct tl_bucket *bucket_at(struct timeline *tl, uint64_t ts_ns, uint64_t *at)
{
	uint64_t k;

	if (!tl->origin_ns)
		tl->origin_ns = ts_ns;	/* none given: the first event's */
	*at = ts_ns > tl->origin_ns ? ts_ns - tl->origin_ns : 0;
	while ((k = *at / tl->width_ns) >= TL_BUCKETS || !room_for(tl, k)) {
		if (k < TL_BUCKETS && !tl->cap)
			return NULL;
		coarsen(tl);
	}
	if (k >= tl->used)
		tl->used = (unsigned int)k + 1;
	return &tl->b[k];
}

void timeline_request_wait(struct timeline *tl, uint64_t ts_ns, uint64_t wait_ns)
{
	uint64_t at;
	struct tl_bucket *b = bucket_at(tl, ts_ns, &at);

	if (b)
		merge_into(b, &(struct tl_bucket){ .request_waits = 1,
			   .max_request_wait_ns = wait_ns });
}

void timeline_add(struct timeline *tl, uint64_t ts_ns, uint64_t bytes, bool write,
		  uint64_t service_ns, uint64_t queue_ns)
{
	uint64_t at, start, k;
	struct tl_bucket *b = bucket_at(tl, ts_ns, &at);

	if (!b)
		return;
	k = at / tl->width_ns;
	merge_into(b, &(struct tl_bucket){ .requests = 1, .bytes = bytes,
		.wrequests = write, .wbytes = write ? bytes : 0,
		.max_service_ns = service_ns, .max_queue_ns = queue_ns });
	/* spread over the buckets it spanned: a window holds only its own */
	start = service_ns < at ? at - service_ns : 0;
	for (uint64_t i = start / tl->width_ns; i <= k; i++) {
		uint64_t lo = i * tl->width_ns, hi = lo + tl->width_ns;

		lo = lo > start ? lo : start;
		hi = hi < at ? hi : at;
		if (hi > lo)
			tl->b[i].service_ns += hi - lo;
	}
}

void timeline_window(const struct timeline *tl, uint64_t from_ns, uint64_t to_ns,
		     struct tl_window *w)
{
	uint64_t from = from_ns > tl->origin_ns ? from_ns - tl->origin_ns : 0;
	uint64_t to = to_ns > tl->origin_ns ? to_ns - tl->origin_ns : 0;
	uint64_t first = from / tl->width_ns;
	/* a span ending on an edge takes no more bucket */
	uint64_t last = to > from ? (to - 1) / tl->width_ns : first;
	struct tl_bucket sum = { 0 };

	memset(w, 0, sizeof(*w));
	if (first >= tl->used) {	/* nothing completed since */
		w->from_ns = from_ns;
		w->to_ns = to_ns > from_ns ? to_ns : from_ns;
		return;
	}
	if (last >= tl->used)
		last = tl->used - 1;
	for (uint64_t i = first; i <= last; i++)
		merge_into(&sum, &tl->b[i]);
	*w = (struct tl_window){
		.from_ns = tl->origin_ns + first * tl->width_ns,
		.to_ns = tl->origin_ns + (last + 1) * tl->width_ns,
		.requests = sum.requests, .bytes = sum.bytes,
		.wrequests = sum.wrequests, .wbytes = sum.wbytes,
		.service_ns = sum.service_ns, .max_service_ns = sum.max_service_ns,
		.max_queue_ns = sum.max_queue_ns,
		.request_waits = sum.request_waits,
		.max_request_wait_ns = sum.max_request_wait_ns,
	};
	/* buckets not yet reached count as empty time */
	if (w->to_ns < to_ns)
		w->to_ns = to_ns;
}
