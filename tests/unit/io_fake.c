/* io_fake.c - recording I/O backend with planted faults (see io_fake.h). */
#include <errno.h>
#include <string.h>

#include "io_fake.h"

void io_fake_init(struct io_fake *fake)
{
	memset(fake, 0, sizeof(*fake));
}

static void record(struct io_fake *f, enum io_call_kind kind, uint64_t off,
		   uint64_t len, unsigned int flags)
{
	if (f->ncalls < IO_FAKE_MAX_CALLS)
		f->calls[f->ncalls] = (struct io_call){ kind, off, len, flags };
	f->ncalls++;
}

/* Does the planted fault hit a call of this kind over [off, off+len)
 * with these flags? */
static int planted(const struct io_fake *f, enum io_call_kind kind,
		   uint64_t off, uint64_t len, unsigned int flags)
{
	return f->fail_errno && f->fail_kind == kind &&
	       off + len > f->fail_after &&
	       (!f->fail_flags || f->fail_flags == flags);
}

static ssize_t fake_pwrite(void *ctx, int fd, const void *buf, size_t len,
			   uint64_t off, int rwf)
{
	struct io_fake *f = ctx;
	size_t n = len;

	(void)fd;
	(void)buf;
	record(f, IO_PWRITE, off, len, (unsigned int)rwf);
	if (f->delay_ns)
		fake_clock_advance(f->clock, f->delay_ns);
	if (f->slow_ns && off <= f->slow_at && f->slow_at < off + len)
		fake_clock_advance(f->clock, f->slow_ns);
	if (planted(f, IO_PWRITE, off, len, (unsigned int)rwf)) {
		/* like a filling disk: what fits is written, then the error */
		if (off >= f->fail_after)
			return -f->fail_errno;
		n = (size_t)(f->fail_after - off);
	}
	if (f->short_write_max && n > f->short_write_max)
		n = f->short_write_max;
	f->bytes_written += n;
	if (f->stop && f->bytes_written >= f->stop_after)
		atomic_store(f->stop, true);	/* as a signal would, mid-run */
	return (ssize_t)n;
}

static int fake_sync_range(void *ctx, int fd, uint64_t off, uint64_t len,
			   unsigned int flags)
{
	struct io_fake *f = ctx;

	(void)fd;
	record(f, IO_SYNC_RANGE, off, len, flags);
	return planted(f, IO_SYNC_RANGE, off, len, flags) ? -f->fail_errno : 0;
}

static int fake_fadvise(void *ctx, int fd, uint64_t off, uint64_t len,
			int advice)
{
	struct io_fake *f = ctx;

	(void)fd;
	record(f, IO_FADVISE, off, len, (unsigned int)advice);
	return planted(f, IO_FADVISE, off, len, (unsigned int)advice) ?
	       -f->fail_errno : 0;
}

static int fake_fdatasync(void *ctx, int fd)
{
	struct io_fake *f = ctx;

	(void)fd;
	record(f, IO_FDATASYNC, 0, 0, 0);
	return planted(f, IO_FDATASYNC, 0, UINT64_MAX, 0) ? -f->fail_errno : 0;
}

const struct io_ops io_fake_ops = {
	.name = "fake",
	.pwrite = fake_pwrite,
	.sync_range = fake_sync_range,
	.fadvise = fake_fadvise,
	.fdatasync = fake_fdatasync,
};
