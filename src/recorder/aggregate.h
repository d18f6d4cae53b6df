/* aggregate.h - several targets added up into the run's record (record.h
 * says what each aggregate figure means).  Pure. */
#ifndef WS_AGGREGATE_H
#define WS_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

/* From the targets that wrote in it; the caller sets t_ns, dt_ns and
 * bytes (the ended targets' too).  Progress and ETA are the furthest
 * behind's; a device counts only for targets whose own_device is true, so
 * one under several counts once. */
void aggregate_interval(const struct ws_interval *ts, unsigned int n,
			const bool *own_device, struct ws_interval *iv);

/* The targets' progress (each offset_ns after the first writer's start)
 * added up at every point of any, each interpolated between its own
 * marks.  out is initialised here. */
void aggregate_progress(const struct ws_series *const *ps,
			const uint64_t *offset_ns, unsigned int n,
			struct ws_series *out);

/* Sums, the worst ending (an error, then a signal), the deepest queue;
 * elapsed_ns from the first start to the last end.  Probes, the process's
 * CPU and the analysis are the caller's. */
void aggregate_summary(const struct ws_summary *ts, unsigned int n,
		       uint64_t elapsed_ns, bool direct, struct ws_summary *sum);

#endif
