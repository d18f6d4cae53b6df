/* series.h - the run's throughput and latency series, in bounded memory.
 *
 * One point per reporting interval until the series holds its capacity;
 * then neighbouring points are merged pairwise and each new point covers
 * twice as many intervals (the stride doubles), so memory stays fixed for
 * a run of any length while the whole run stays covered.  The full-rate
 * series is streamed to --csv as it happens; this is what analysis and
 * the plot work on.  Owned and written by the reporter thread; sinks read
 * it in their summary callback.
 */
#ifndef WS_SERIES_H
#define WS_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"

struct ws_point {
	uint64_t t_ns;		/* end of the span, since the writer started */
	uint64_t dt_ns;		/* the span's length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	double mibps;		/* dbytes over dt */
	uint64_t dirty, writeback;	/* /proc/meminfo at its end */
	/* per probe (index as in the monitor): worst p99 and max over the
	 * span, stalls completed in it; 0 with no probes */
	uint64_t probe_p99[WS_PROBE_NR];
	uint64_t probe_max[WS_PROBE_NR];
	uint64_t probe_stalls[WS_PROBE_NR];
};

#define WS_SERIES_CAP 8192	/* points kept: 2.3 h at one a second */

struct ws_series {
	struct ws_point pts[WS_SERIES_CAP];
	size_t n;
	unsigned int stride;	/* intervals per stored point (power of 2) */
	struct ws_point partial;	/* merging the current stride's points */
	unsigned int npartial;
};

void series_init(struct ws_series *s);
/* Append one interval's point. */
void series_add(struct ws_series *s, const struct ws_point *p);
/* Fold p into the latest point (the stride in progress, else the last
 * stored point; p alone if there is none): a span too short to stand on
 * its own. */
void series_extend_last(struct ws_series *s, const struct ws_point *p);
/* At the end: the stride in progress becomes a (shorter) last point. */
void series_finish(struct ws_series *s);
/* Throughput over bytes written: the run cut into cells of `cell` bytes;
 * a point's bytes and time are shared among the cells its span covers. */
struct ws_cell {
	uint64_t from_bytes, to_bytes;
	uint64_t dbytes, dt_ns;
	double mibps;		/* 0 for a cell no point fell in */
};

/* The cell size for about `want` cells over `total` bytes (a whole number
 * of MiB), or `requested` if nonzero, doubled until at most `max` cells. */
uint64_t series_cell_size(uint64_t total, uint64_t requested, size_t want,
			  size_t max);
/* Fill out[0..) and return how many cells cover the series (<= max). */
size_t series_cells(const struct ws_series *s, uint64_t cell,
		    struct ws_cell *out, size_t max);

/* The combined point of two adjacent spans (a before b). */
struct ws_point series_merge(const struct ws_point *a, const struct ws_point *b);

#endif
