/* series.h - the run's series in bounded memory: when full, neighbours
 * merge pairwise and the stride doubles, so the whole run stays covered.
 * Written by the recorder thread; sinks read it in their summary callback.
 */
#ifndef WS_SERIES_H
#define WS_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

void series_init(struct ws_series *s);
/* Room for n points (at most WS_SERIES_CAP) made at once and resident,
 * so a long run's memory does not creep up; 0 or -ENOMEM (it then grows
 * as it goes). */
int series_reserve(struct ws_series *s, size_t n);
void series_free(struct ws_series *s);
void series_add(struct ws_series *s, const struct ws_point *p);
/* Fold a span too short to stand alone into the latest point. */
void series_extend_last(struct ws_series *s, const struct ws_point *p);
/* The stride in progress becomes a shorter last point. */
void series_finish(struct ws_series *s);
/* For about WANT cells (whole MiB), or REQUESTED if nonzero; doubled
 * until at most MAX cells. */
uint64_t series_cell_size(uint64_t total, uint64_t requested, size_t want,
			  size_t max);
/* Points' bytes and time shared among the cells their spans cover, then
 * TAIL's if not NULL.  Returns the cells, <= max. */
size_t series_cells(const struct ws_series *s, const struct ws_point *tail,
		    uint64_t cell, struct ws_cell *out, size_t max);

/* A before B. */
struct ws_point series_merge(const struct ws_point *a, const struct ws_point *b);

#endif
