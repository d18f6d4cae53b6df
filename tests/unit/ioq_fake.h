/* ioq_fake.h - a queue backend (ioq.h) for the unit tests: it writes
 * nothing, keeps what was submitted in flight until the writer reaps, and
 * completes newest first (all of them, or only the newest), so nothing in the writer may count on order.
 * At completion it checks that the buffer still holds what it held at
 * submission: a pool slot restamped while its write was in flight shows
 * up as `changed`.  Faults: refuse to open, fail the writes past an
 * offset, complete short.  One struct ioq_fake per test, as the ctx. */
#ifndef WS_IOQ_FAKE_H
#define WS_IOQ_FAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "fake_clock.h"
#include "engine/ioq.h"

#define IOQ_FAKE_MAX 64

struct ioq_fake_write {
	const void *buf;
	uint64_t off, len, tag, sum;
	unsigned int buf_index;
	int rwf;
};

struct ioq_fake {
	int open_errno;			/* nonzero: open() fails so */
	bool registered;		/* what open() reports */
	unsigned int depth;		/* what open() was asked for */

	struct ioq_fake_write inflight[IOQ_FAKE_MAX];
	unsigned int ninflight, peak;
	unsigned int submits, reaps;
	uint64_t bytes;			/* completed successfully */
	unsigned int changed;		/* buffers changed while in flight */
	unsigned int overfull;		/* submits beyond depth */

	uint64_t fail_after;		/* writes reaching past this ... */
	int fail_errno;			/* ... complete with -fail_errno */
	uint64_t short_max;		/* nonzero: complete at most this */
	bool one_per_reap;		/* complete only the newest: the
					   oldest may stay in flight long */
	uint64_t reap_ns;		/* each reap takes this long ... */
	struct fake_clock *clock;	/* ... on this clock */
};

extern const struct ioq_ops ioq_fake_ops;

#endif
