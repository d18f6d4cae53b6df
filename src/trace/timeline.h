/* timeline.h - the device's answers over the whole run, in time buckets,
 * so a stall that ended minutes ago can still be held against what the
 * device did while it lasted.  Bounded: TL_BUCKETS buckets, 10 ms wide at
 * first; a run that outgrows them merges neighbours and doubles the width
 * (an hour's run keeps about 1 s buckets).  The buckets are on the heap,
 * as many as the run reached (doubling from 16); when there is no memory
 * for more, the width doubles as if all were used.  Pure, one owner at a
 * time.
 */
#ifndef WS_TRACE_TIMELINE_H
#define WS_TRACE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_BUCKETS 4096
#define TL_FIRST_NS (10 * 1000 * 1000ull)

struct tl_bucket {
	uint64_t requests, bytes;	/* completed in it (reads and writes) */
	uint64_t wrequests, wbytes;	/* ... of them writes */
	uint64_t service_ns;		/* the device's time in it: each
					   request's issue to completion,
					   spread over the buckets it spans */
	uint64_t max_service_ns;	/* the longest completed in it */
	uint64_t max_queue_ns;		/* the longest wait from getrq to issue */
	uint64_t request_waits;		/* bios that got their request in it */
	uint64_t max_request_wait_ns;	/* ... the longest of their waits */
};

struct timeline {
	uint64_t origin_ns, width_ns;
	unsigned int used;		/* buckets reached so far */
	struct tl_bucket *b;		/* cap of them, those from used on empty */
	size_t cap;
};

/* What the device did in a span: the buckets that overlap it, added. */
struct tl_window {
	uint64_t from_ns, to_ns;	/* the buckets' edges: at least the span */
	uint64_t requests, bytes, wrequests, wbytes;
	uint64_t service_ns, max_service_ns, max_queue_ns;
	uint64_t request_waits, max_request_wait_ns;
};

/* origin_ns 0: the first request's completion is the origin. */
void timeline_init(struct timeline *tl, uint64_t origin_ns);
/* Its buckets freed: tl may be inited again. */
void timeline_free(struct timeline *tl);
/* A request (a write or not) completed at ts_ns after service_ns at the
 * device and queue_ns between getrq and issue. */
void timeline_add(struct timeline *tl, uint64_t ts_ns, uint64_t bytes, bool write,
		  uint64_t service_ns, uint64_t queue_ns);
/* A bio got its request at ts_ns after waiting wait_ns (biostat.h). */
void timeline_request_wait(struct timeline *tl, uint64_t ts_ns, uint64_t wait_ns);
/* The buckets over [from_ns, to_ns); a span the timeline has not reached
 * (nothing completed since) is an empty window with the span's edges. */
void timeline_window(const struct timeline *tl, uint64_t from_ns, uint64_t to_ns,
		     struct tl_window *w);

#endif
