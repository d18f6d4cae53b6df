/* series.h - the run's throughput and latency series, in bounded memory.
 *
 * One point per reporting interval until the series holds its capacity;
 * then neighbouring points are merged pairwise and each new point covers
 * twice as many intervals (the stride doubles), so memory stays bounded
 * for a run of any length while the whole run stays covered.  The full-rate
 * series is streamed to --csv as it happens; this is what analysis and
 * the plot work on.  Owned and written by the recorder thread; sinks read
 * it in their summary callback.
 */
#ifndef WS_SERIES_H
#define WS_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

/* An empty series (no memory yet: it grows as points are added). */
void series_init(struct ws_series *s);
/* Give back its points; it is empty again. */
void series_free(struct ws_series *s);
/* Append one interval's point. */
void series_add(struct ws_series *s, const struct ws_point *p);
/* Fold p into the latest point (the stride in progress, else the last
 * stored point; p alone if there is none): a span too short to stand on
 * its own. */
void series_extend_last(struct ws_series *s, const struct ws_point *p);
/* At the end: the stride in progress becomes a (shorter) last point. */
void series_finish(struct ws_series *s);
/* Throughput over bytes written: the run cut into cells of `cell` bytes;
 * a point's bytes and time are shared among the cells its span covers
 * (struct ws_cell, record.h). */
/* The cell size for about `want` cells over `total` bytes (a whole number
 * of MiB), or `requested` if nonzero, doubled until at most `max` cells. */
uint64_t series_cell_size(uint64_t total, uint64_t requested, size_t want,
			  size_t max);
/* Fill out[0..) and return how many cells cover the series (<= max),
 * and tail after it if not NULL (a span past its last point). */
size_t series_cells(const struct ws_series *s, const struct ws_point *tail,
		    uint64_t cell, struct ws_cell *out, size_t max);

/* The combined point of two adjacent spans (a before b). */
struct ws_point series_merge(const struct ws_point *a, const struct ws_point *b);

#endif
