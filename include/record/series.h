/* record/series.h - the series of a run's points (series.h keeps it): one point
 * per interval or progress mark, merged pairwise when full; and the cells
 * of throughput over bytes written. */
#ifndef WS_RECORD_SERIES_H
#define WS_RECORD_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "record/settings.h"

/* The probes a series point keeps: a long run holds up to WS_SERIES_CAP
 * points, so a point stays small; a run with more
 * probes (several filesystems) plots the first three's latency, and
 * keeps every probe's figures in its intervals and summary. */
#define WS_SERIES_PROBES WS_PROBE_NR

struct ws_point {
	uint64_t t_ns;		/* end of the span, since the writer started */
	uint64_t dt_ns;		/* the span's length */
	uint64_t bytes;		/* written by its end */
	uint64_t dbytes;	/* written during it */
	double mibps;		/* dbytes over dt */
	uint64_t dirty, writeback;	/* /proc/meminfo at its end */
	/* per probe (index as in the monitor; the first WS_SERIES_PROBES):
	 * worst p99 and max over the span, stalls completed in it; 0 with no
	 * probes */
	uint64_t probe_p99[WS_SERIES_PROBES];
	uint64_t probe_max[WS_SERIES_PROBES];
	uint64_t probe_stalls[WS_SERIES_PROBES];
	/* the traced device's writes completed in the span and their time,
	 * issue to completion, summed (0 when not traced) */
	uint64_t dev_writes, dev_write_service_ns;
};

#define WS_SERIES_CAP 8192	/* points kept: 2.3 h at one a second */

/* One point per interval (or progress mark) until full; then neighbours
 * merge pairwise and a point covers twice as many (the stride doubles).
 * The points are on the heap and grow with the run up to WS_SERIES_CAP:
 * a short run pins little memory (series_free() gives it back). */
struct ws_series {
	struct ws_point *pts;
	size_t n, cap;
	unsigned int stride;	/* intervals per stored point (power of 2) */
	struct ws_point partial;	/* merging the current stride's points */
	unsigned int npartial;
};

/* Throughput over bytes written: a cell of the run. */
struct ws_cell {
	uint64_t from_bytes, to_bytes;
	uint64_t dbytes, dt_ns;
	double mibps;		/* 0 for a cell no point fell in */
};

#define WS_MAX_CELLS 256	/* in the result files (--bucket) */
#define WS_CURVE_CELLS 32	/* in the summary's one-line curve */

#endif
