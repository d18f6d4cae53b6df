/* timeline.h - the device's answers in time buckets, so a long-past stall
 * can be judged.  At TL_BUCKETS the width doubles (an hour: ~1 s).  Pure.
 */
#ifndef WS_TRACE_TIMELINE_H
#define WS_TRACE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_BUCKETS 4096
#define TL_FIRST_NS (10 * 1000 * 1000ull)

struct tl_bucket {
	uint64_t requests, bytes;	/* completed, reads and writes */
	uint64_t wrequests, wbytes;
	uint64_t service_ns;		/* issue to completion, spread */
	uint64_t max_service_ns;
	uint64_t max_queue_ns;		/* getrq to issue */
	uint64_t request_waits;		/* bios that got their request */
	uint64_t max_request_wait_ns;
};

struct timeline {
	uint64_t origin_ns, width_ns;
	unsigned int used;		/* buckets reached so far */
	struct tl_bucket *b;
	size_t cap;
};

/* The buckets overlapping a span, added. */
struct tl_window {
	uint64_t from_ns, to_ns;	/* bucket edges: at least the span */
	uint64_t requests, bytes, wrequests, wbytes;
	uint64_t service_ns, max_service_ns, max_queue_ns;
	uint64_t request_waits, max_request_wait_ns;
};

/* origin_ns 0: the first request's completion is the origin. */
void timeline_init(struct timeline *tl, uint64_t origin_ns);
/* tl may be inited again. */
void timeline_free(struct timeline *tl);
/* queue_ns: getrq to issue. */
void timeline_add(struct timeline *tl, uint64_t ts_ns, uint64_t bytes, bool write,
		  uint64_t service_ns, uint64_t queue_ns);
void timeline_request_wait(struct timeline *tl, uint64_t ts_ns, uint64_t wait_ns);
/* A span not yet reached is an empty window with the span's edges. */
void timeline_window(const struct timeline *tl, uint64_t from_ns, uint64_t to_ns,
		     struct tl_window *w);

#endif
