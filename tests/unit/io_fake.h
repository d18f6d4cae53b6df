/* io_fake.h - a recording I/O backend with fault injection, the unit
 * tests' double for io_posix (it lives with the tests, not in the tool).
 *
 * It writes nothing: it logs each call (kind, offset, length, flags) and
 * returns success, or the planted fault.  One struct io_fake per test; the
 * caller owns it and passes it as the backend's ctx.
 */
#ifndef WS_IO_FAKE_H
#define WS_IO_FAKE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "fake_clock.h"
#include "engine/io.h"

enum io_call_kind { IO_PWRITE, IO_SYNC_RANGE, IO_FADVISE, IO_FDATASYNC };

struct io_call {
	enum io_call_kind kind;
	uint64_t off, len;
	unsigned int flags;	/* rwf, sync_file_range flags or advice */
};

#define IO_FAKE_MAX_CALLS 4096

struct io_fake {
	struct io_call calls[IO_FAKE_MAX_CALLS];
	unsigned int ncalls;	/* calls past the array are counted only */

	/* Fault plan: the first call of fail_kind whose range reaches past
	 * fail_after bytes of file offset, and whose flags are fail_flags
	 * when that is nonzero (SYNC_FILE_RANGE_* for sync_range: the wait
	 * for a buffer, not the start of its writeback), fails with
	 * -fail_errno (pwrite first writes what fits, like a filling disk);
	 * later ones too.  fail_errno 0: none. */
	enum io_call_kind fail_kind;
	uint64_t fail_after;
	unsigned int fail_flags;
	int fail_errno;

	uint32_t short_write_max;	/* nonzero: pwrite writes at most this */
	uint64_t delay_ns;		/* each pwrite takes this long ... */
	uint64_t slow_at, slow_ns;	/* ... and the one writing the byte at
					 * slow_at this long more (a stall) */
	struct fake_clock *clock;	/* ... on this clock (it must be set) */
	uint64_t bytes_written;		/* sum of what pwrite accepted */
	/* nonzero stop: set *stop once bytes_written reaches stop_after, in
	 * the write that reaches it (a stop request at a known point) */
	atomic_bool *stop;
	uint64_t stop_after;
};

extern const struct io_ops io_fake_ops;

void io_fake_init(struct io_fake *fake);

#endif
