/* aggregate.h - several targets as one run: their intervals, progress and
 * summaries added up into the aggregate the record keeps beside them
 * (record.h: what each aggregate figure means).
 *
 * Pure functions over record structs; the recorder thread calls them.
 */
#ifndef WS_AGGREGATE_H
#define WS_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

/* The aggregate interval's own figures from the intervals of the targets
 * that wrote in it, ts[0..n).  The caller has set iv's t_ns, dt_ns and
 * bytes (every target's, the ended ones' included); here, whatever iv
 * held: dbytes, the
 * writer times (summed: several writers' seconds), mibps over dt_ns,
 * avg_mibps, progress and ETA (the furthest-behind target's), the
 * busiest timer (its share of the n writers' time), and the
 * device's counters summed over the targets whose own_device is true (a
 * device under several targets counts once). */
void aggregate_interval(const struct ws_interval *ts, unsigned int n,
			const bool *own_device, struct ws_interval *iv);

/* The aggregate progress: the targets' progress series (each from its own
 * writer's start, which came offset_ns after the first writer's) added up
 * at every time any of them has a point, each target's bytes read off its
 * own marks by linear interpolation between them.  Into out (initialised
 * here). */
void aggregate_progress(const struct ws_series *const *ps,
			const uint64_t *offset_ns, unsigned int n,
			struct ws_series *out);

/* The aggregate summary's own figures from the targets' ts[0..n): bytes,
 * buffers, wraps and times summed; elapsed_ns given (first start to last
 * end); the ending is the worst of theirs (an error before a signal
 * before the others, the first target's first); the limit from the
 * summed times over the summed elapsed times; the writers' CPU summed;
 * the deepest queue; verify counts summed (verified when each was).
 * Probes, CPU of the process and the analysis are the caller's. */
void aggregate_summary(const struct ws_summary *ts, unsigned int n,
		       uint64_t elapsed_ns, bool direct, struct ws_summary *sum);

#endif
