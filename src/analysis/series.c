/* series.c - bounded throughput series. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "lib/array.h"
#include "lib/units.h"

void series_init(struct ws_series *s)
{
	memset(s, 0, sizeof(*s));
	s->stride = 1;
}

void series_free(struct ws_series *s)
{
	free(s->pts);
	series_init(s);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

struct ws_point series_merge(const struct ws_point *a, const struct ws_point *b)
{
	struct ws_point m = *b;

	m.dt_ns = a->dt_ns + b->dt_ns;
	m.dbytes = a->dbytes + b->dbytes;
	m.mibps = ws_mibps(m.dbytes, m.dt_ns);
	m.dev_writes = a->dev_writes + b->dev_writes;
	m.dev_write_service_ns = a->dev_write_service_ns + b->dev_write_service_ns;
	for (int i = 0; i < WS_SERIES_PROBES; i++) {
		/* the worst of the span is what a person felt in it */
		m.probe_p99[i] = max_u64(a->probe_p99[i], b->probe_p99[i]);
		m.probe_max[i] = max_u64(a->probe_max[i], b->probe_max[i]);
		m.probe_stalls[i] = a->probe_stalls[i] + b->probe_stalls[i];
	}
	return m;
}

/* Full: halve the resolution of all kept. */
static void halve(struct ws_series *s)
{
	size_t i;

	for (i = 0; i + 1 < s->n; i += 2)
		s->pts[i / 2] = series_merge(&s->pts[i], &s->pts[i + 1]);
	if (i < s->n) {		/* odd count: the last point waits in partial */
		s->partial = s->pts[i];
		s->npartial = s->stride;
	}
	s->n /= 2;
	s->stride *= 2;
}

int series_reserve(struct ws_series *s, size_t n)
{
	struct ws_point *pts;

	if (n > WS_SERIES_CAP)
		n = WS_SERIES_CAP;
	if (n <= s->cap)
		return 0;
	pts = realloc(s->pts, n * sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	/* touched now (explicit_bzero is never elided): resident */
	explicit_bzero(pts + s->cap, (n - s->cap) * sizeof(*pts));
	s->pts = pts;
	s->cap = n;
	return 0;
}

void series_add(struct ws_series *s, const struct ws_point *p)
{
	s->partial = s->npartial ? series_merge(&s->partial, p) : *p;
	if (++s->npartial < s->stride)
		return;
	if (s->n == s->cap && array_grow((void **)&s->pts, s->n, &s->cap,
					 sizeof(*s->pts))) {
		/* no memory: coarser points, as when full */
		halve(s);
		return;
	}
	s->pts[s->n++] = s->partial;
	s->npartial = 0;
	if (s->n == WS_SERIES_CAP)
		halve(s);
}

void series_extend_last(struct ws_series *s, const struct ws_point *p)
{
	if (s->npartial)
		s->partial = series_merge(&s->partial, p);
	else if (s->n)
		s->pts[s->n - 1] = series_merge(&s->pts[s->n - 1], p);
	else
		series_add(s, p);
}

void series_finish(struct ws_series *s)
{
	if (!s->npartial)
		return;
	if (s->n < s->cap || !array_grow((void **)&s->pts, s->n, &s->cap,
					 sizeof(*s->pts)))
		s->pts[s->n++] = s->partial;
	else if (s->n)	/* no memory: the last point covers it */
		s->pts[s->n - 1] = series_merge(&s->pts[s->n - 1], &s->partial);
	s->npartial = 0;
}

uint64_t series_cell_size(uint64_t total, uint64_t requested, size_t want,
			  size_t max)
{
	uint64_t cell = requested;

	if (!cell) {
		cell = total / want + (total % want != 0);
		cell = (cell + WS_MIB - 1) / WS_MIB * WS_MIB;
	}
	if (!cell)
		cell = WS_MIB;
	while ((total + cell - 1) / cell > max)
		cell *= 2;
	return cell;
}

/* Each cell gets its share of bytes and time, so its rate is right. */
static void spread(const struct ws_point *p, uint64_t cell, struct ws_cell *out,
		   size_t ncells)
{
	uint64_t from = p->bytes - p->dbytes;

	if (!p->dbytes) {	/* time with nothing written */
		size_t c = (size_t)(from / cell);

		out[c < ncells ? c : ncells - 1].dt_ns += p->dt_ns;
		return;
	}
	for (size_t c = (size_t)(from / cell); c < ncells; c++) {
		uint64_t lo = c * cell > from ? c * cell : from;
		uint64_t hi = (c + 1) * cell < p->bytes ? (c + 1) * cell : p->bytes;

		if (c + 1 == ncells)
			hi = p->bytes;
		if (hi <= lo)
			break;
		out[c].dbytes += hi - lo;
		out[c].dt_ns += (uint64_t)((double)p->dt_ns * (double)(hi - lo) /
					   (double)p->dbytes);
	}
}

size_t series_cells(const struct ws_series *s, const struct ws_point *tail,
		    uint64_t cell, struct ws_cell *out, size_t max)
{
	uint64_t end;
	size_t ncells = 0;

	if (!s->n || !cell)
		return 0;
	end = tail ? tail->bytes : s->pts[s->n - 1].bytes;
	ncells = (size_t)((end + cell - 1) / cell);
	if (ncells > max)
		ncells = max;
	if (!ncells)
		return 0;
	for (size_t c = 0; c < ncells; c++)
		out[c] = (struct ws_cell){ .from_bytes = c * cell,
					   .to_bytes = (c + 1) * cell };
	/* the last cell ends where the run did */
	out[ncells - 1].to_bytes = end;
	for (size_t i = 0; i < s->n; i++)
		spread(&s->pts[i], cell, out, ncells);
	if (tail)
		spread(tail, cell, out, ncells);
	for (size_t c = 0; c < ncells; c++)
		out[c].mibps = out[c].dt_ns ? (double)out[c].dbytes / (double)WS_MIB *
					      1e9 / (double)out[c].dt_ns : 0.0;
	return ncells;
}
