/* record/series.h - a run's points (analysis/series.h keeps them), one per
 * interval or progress mark, and the cells of throughput over bytes. */
#ifndef WS_RECORD_SERIES_H
#define WS_RECORD_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "record/settings.h"

/* Probes a point keeps, so points stay small; past these, the intervals
 * and summary keep every probe's figures. */
#define WS_SERIES_PROBES WS_PROBE_NR

struct ws_point {
	uint64_t t_ns;		/* the span's end, since the writer started */
	uint64_t dt_ns;
	uint64_t bytes;		/* by its end */
	uint64_t dbytes;	/* during it */
	double mibps;
	uint64_t dirty, writeback;	/* at its end */
	/* the span's worst p99 and max, stalls completed in it */
	uint64_t probe_p99[WS_SERIES_PROBES];
	uint64_t probe_max[WS_SERIES_PROBES];
	uint64_t probe_stalls[WS_SERIES_PROBES];
	/* traced writes completed, issue to completion summed; 0: untraced */
	uint64_t dev_writes, dev_write_service_ns;
};

#define WS_SERIES_CAP 8192	/* 2.3 h at one a second */

/* Full, neighbours merge pairwise and the stride doubles.  pts grows on
 * the heap up to WS_SERIES_CAP; series_free() gives it back. */
struct ws_series {
	struct ws_point *pts;
	size_t n, cap;
	unsigned int stride;	/* intervals a point, a power of 2 */
	struct ws_point partial;	/* the stride being merged */
	unsigned int npartial;
};

struct ws_cell {
	uint64_t from_bytes, to_bytes;
	uint64_t dbytes, dt_ns;
	double mibps;		/* 0: no point fell in it */
};

#define WS_MAX_CELLS 256	/* result files (--bucket) */
#define WS_CURVE_CELLS 32	/* the summary's one-line curve */

#endif
