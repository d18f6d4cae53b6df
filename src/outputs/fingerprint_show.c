/* fingerprint_show.c - the fingerprint shown: the header's lines and the
 * result's "fingerprint" member (see fingerprint_show.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lib/c.h"
#include "fingerprint_show.h"
#include "lib/units.h"

/* ---- text ---- */

/* A line of the header: pieces joined by ", " (or its own separator). */
struct line {
	char buf[512];
	struct ws_buf b;
	const char *sep;
};

#define LINE(l) ((l).b = WS_BUF((l).buf), (l).sep = ", ")

static void add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *fmt, ...)
{
	char piece[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(piece, sizeof(piece), fmt, ap);
	va_end(ap);
	ws_buf_item(&l->b, l->sep, "%s", piece);
}

/* Is the vendor worth printing?  SATA disks say "ATA", virtio a PCI id. */
static bool vendor_says_something(const struct ws_fp_disk *d)
{
	return d->vendor[0] && strcmp(d->vendor, "ATA") &&
	       strncmp(d->vendor, "0x", 2) &&
	       strncasecmp(d->model, d->vendor, strlen(d->vendor));
}

void fingerprint_labels(const struct ws_fingerprint *fp, char *device,
			size_t dlen, char *model, size_t mlen)
{
	const struct ws_fp_disk *d = fp && fp->ndisks > 0 ? &fp->disk[0] : NULL;

	snprintf(device, dlen, "%s", fp ? fp->bdev : "");
	if (d && d->model[0] && vendor_says_something(d))
		snprintf(model, mlen, "%s %s", d->vendor, d->model);
	else
		snprintf(model, mlen, "%s", d ? d->model : "");
}

static void describe_disk(const struct ws_fp_disk *d, struct line *l)
{
	char size[32];

	if (d->loop && d->backing_file[0])
		add(l, "%s over %s%s", d->name, d->backing_file,
		    d->loop_dio == 1 ? " (direct I/O)" :
		    d->loop_dio == 0 ? " (buffered)" : "");
	else if (d->model[0] && vendor_says_something(d))
		add(l, "%s %s", d->vendor, d->model);
	else if (d->model[0])
		add(l, "%s", d->model);
	else if (d->driver[0])
		add(l, "%s (%s)", d->name, d->driver);
	else
		add(l, "%s", d->name);
	if (d->firmware[0])
		add(l, "fw %s", d->firmware);
	if (d->size >= 0)
		add(l, "%s", units_format_size(size, sizeof(size),
					       (uint64_t)d->size));
	if (d->rotational >= 0)
		add(l, "%s", d->rotational ? "rotational" : "non-rotational");
	if (!strcmp(d->write_cache, "write back"))
		add(l, "write cache on");
	else if (!strcmp(d->write_cache, "write through"))
		add(l, "write cache off");
	if (d->discard_max_bytes > 0)
		add(l, "discard");
	else if (d->discard_max_bytes == 0)
		add(l, "no discard");
}

static void describe_queue(const struct ws_fp_disk *d, struct line *l)
{
	if (d->scheduler[0])
		add(l, "%s", d->scheduler);
	if (d->nr_requests >= 0)
		add(l, "nr_requests %lld", (long long)d->nr_requests);
	if (d->queue_depth >= 0)
		add(l, "queue_depth %lld", (long long)d->queue_depth);
	if (d->max_sectors_kb >= 0)
		add(l, "max_sectors_kb %lld", (long long)d->max_sectors_kb);
	if (d->read_ahead_kb >= 0)
		add(l, "read_ahead_kb %lld", (long long)d->read_ahead_kb);
	if (d->wbt_lat_usec == 0)
		add(l, "wbt off");
	else if (d->wbt_lat_usec > 0)
		add(l, "wbt %g ms", (double)d->wbt_lat_usec / 1000);
}

/* "(1 MiB aligned)", "(NOT aligned to 1 MiB or to the 4096-byte physical
 * block)", ... */
static void describe_alignment(const struct ws_fp_disk *d, struct line *l)
{
	char phys[48] = "", opt[64] = "";
	const char *bad[3];
	int nbad = 0;

	if (d->physical_block > 0)
		snprintf(phys, sizeof(phys), "the %lld-byte physical block",
			 (long long)d->physical_block);
	if (d->opt_io > 0)
		snprintf(opt, sizeof(opt), "the %lld-byte optimal I/O size",
			 (long long)d->opt_io);
	if (d->aligned_1mib == 0)
		bad[nbad++] = "1 MiB";
	if (d->aligned_physical == 0)
		bad[nbad++] = phys;
	if (d->aligned_optimal == 0)
		bad[nbad++] = opt;

	if (d->part_start < 0) {
		add(l, "start unknown");
		return;
	}
	add(l, "starts at sector %lld (", (long long)d->part_start);
	l->sep = "";
	if (d->aligned_1mib == 1)
		add(l, "1 MiB aligned%s", nbad ? ", " : "");
	if (nbad) {
		add(l, "NOT aligned to %s", bad[0]);
		for (int i = 1; i < nbad; i++)
			add(l, "%s%s", i == nbad - 1 ? " or to " : ", to ",
			    bad[i]);
		if (d->aligned_1mib == 0 && d->aligned_physical == 1)
			add(l, "; aligned to %s", phys);
	}
	add(l, ")");
}

static void label(FILE *out, const char *name, int i)
{
	if (i == 0)
		fprintf(out, "  %-8s ", name);
	else
		fputs("           ", out);
}

/* Width of the name column on stacked devices (partition names for the
 * layout lines are longer than disk names). */
static int name_width(const struct ws_fingerprint *fp)
{
	size_t w = 0;

	for (int i = 0; i < fp->ndisks; i++) {
		const struct ws_fp_disk *d = &fp->disk[i];
		size_t n = strlen(d->part[0] ? d->part : d->name);

		if (n > w)
			w = n;
	}
	return (int)w;
}

/* One line per disk; on stacked devices each begins with the disk name. */
static void disk_lines(const struct ws_fingerprint *fp, FILE *out,
		       const char *name, int first,
		       void (*describe)(const struct ws_fp_disk *,
					struct line *))
{
	bool stacked = fp->kind == WS_FP_DM || fp->kind == WS_FP_MD;
	int printed = 0;

	for (int i = 0; i < fp->ndisks; i++) {
		struct line l;

		LINE(l);
		describe(&fp->disk[i], &l);
		if (!l.buf[0])	/* nothing known: no empty line */
			continue;
		label(out, name, printed++ + first);
		if (stacked)
			fprintf(out, "%-*s  ", name_width(fp), fp->disk[i].name);
		fprintf(out, "%s\n", l.buf);
	}
}

static void layout_of(const struct ws_fp_disk *d, struct line *l)
{
	if (d->part[0])
		describe_alignment(d, l);
	else
		add(l, "whole disk, no partition");
}

static void layout_lines(const struct ws_fingerprint *fp, FILE *out)
{
	bool stacked = fp->kind == WS_FP_DM || fp->kind == WS_FP_MD;

	if (fp->kind == WS_FP_LOOP)
		return;		/* alignment is the backing file's business */
	for (int i = 0; i < fp->ndisks; i++) {
		const struct ws_fp_disk *d = &fp->disk[i];
		struct line l;

		LINE(l);
		layout_of(d, &l);
		label(out, "layout", i);
		if (stacked)
			fprintf(out, "%-*s  %s\n", name_width(fp),
				d->part[0] ? d->part : d->name, l.buf);
		else
			fprintf(out, "%s%s\n", d->part[0] ? "partition " : "",
				l.buf);
	}
}

static void kernel_line(const struct ws_fingerprint *fp, FILE *out)
{
	struct line l;
	char size[32];

	LINE(l);
	l.sep = " · ";
	add(&l, "%s%s%s", fp->kernel[0] ? fp->kernel : "unknown kernel",
	    fp->machine[0] ? " " : "", fp->machine);
	if (fp->vm.dirty_bytes > 0) {
		add(&l, "vm.dirty_bytes %s", units_format_size(size,
		    sizeof(size), (uint64_t)fp->vm.dirty_bytes));
	} else if (fp->vm.dirty_ratio >= 0) {
		add(&l, "vm.dirty_ratio %lld", (long long)fp->vm.dirty_ratio);
		/* the limit applies to dirtyable memory, less than all RAM */
		if (fp->mem_total > 0) {
			l.sep = " ";
			add(&l, "(≤ %s)", units_format_size(size, sizeof(size),
			    (uint64_t)(fp->mem_total / 100 *
				       fp->vm.dirty_ratio)));
			l.sep = " · ";
		}
	}
	if (fp->vm.dirty_background_bytes > 0)
		add(&l, "dirty_background_bytes %s", units_format_size(size,
		    sizeof(size), (uint64_t)fp->vm.dirty_background_bytes));
	else if (fp->vm.dirty_background_ratio >= 0)
		add(&l, "dirty_background_ratio %lld",
		    (long long)fp->vm.dirty_background_ratio);
	fprintf(out, "  %-8s %s\n", "kernel", l.buf);
}

void fingerprint_header(const struct ws_fingerprint *fp, FILE *out)
{
	fingerprint_header_device(fp, out);
	kernel_line(fp, out);
}

void fingerprint_header_kernel(const struct ws_fingerprint *fp, FILE *out)
{
	kernel_line(fp, out);
}

void fingerprint_header_device(const struct ws_fingerprint *fp, FILE *out)
{
	bool stacked = fp->kind == WS_FP_DM || fp->kind == WS_FP_MD;

	if (fp->kind == WS_FP_NONE) {
		fprintf(out, "  %-8s none: %s has no block device\n", "device",
			fp->fs_type[0] ? fp->fs_type : "the filesystem");
	} else if (!fp->ndisks) {
		fprintf(out, "  %-8s %s (nothing more in /sys)\n", "device",
			fp->bdev);
	} else {
		if (stacked)
			fprintf(out, "  %-8s %s%s%s%s over %d disk%s\n", "device",
				fp->bdev, fp->holder_name[0] ? " (" : "",
				fp->holder_name,
				fp->holder_name[0] ? ")" : "", fp->ndisks,
				fp->ndisks == 1 ? "" : "s");
		disk_lines(fp, out, "device", stacked, describe_disk);
		disk_lines(fp, out, "queue", 0, describe_queue);
		layout_lines(fp, out);
	}
}

int fingerprint_summary(const struct ws_fingerprint *fp, char *buf,
			size_t len)
{
	struct line l;
	const char *src = fp->mount_source, *shown;
	const struct ws_fp_disk *d0 = &fp->disk[0];

	LINE(l);
	l.sep = " · ";
	if (fp->fs_type[0])
		add(&l, "%s (%s)", fp->fs_type, fp->mount_opts);
	if (!src[0] || !strcmp(src, fp->fs_type) || !strcmp(src, "none"))
		src = "";
	if (src[0])
		add(&l, "%s", src);
	else if (fp->bdev[0])
		add(&l, "/dev/%s", fp->bdev);
	/* what was printed, so a disk is not named twice */
	shown = src[0] ? ws_basename(src) : fp->bdev;
	l.sep = " → ";
	if ((fp->kind == WS_FP_DM || fp->kind == WS_FP_MD) &&
	    strcmp(shown, fp->bdev))
		add(&l, "%s", fp->bdev);
	if (fp->kind == WS_FP_LOOP && d0->backing_file[0]) {
		add(&l, "%s", d0->backing_file);
	} else if (fp->kind == WS_FP_DM || fp->kind == WS_FP_MD) {
		for (int i = 0; i < fp->ndisks; i++) {
			add(&l, "%s", fp->disk[i].part[0] ? fp->disk[i].part :
				      fp->disk[i].name);
			l.sep = ", ";
		}
	} else if (fp->ndisks && strcmp(shown, d0->name)) {
		add(&l, "%s", d0->name);
	}
	return snprintf(buf, len, "%s", l.buf);
}

/* ---- JSON ---- */

static void json_schedulers(struct jsonw *w, const char *list)
{
	char words[sizeof(((struct ws_fp_disk *)0)->schedulers)], *save = NULL;

	jsonw_array(w, "schedulers");
	snprintf(words, sizeof(words), "%s", list);
	for (char *t = strtok_r(words, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(t);

		if (t[0] == '[' && n > 1 && t[n - 1] == ']') {
			t[n - 1] = '\0';
			t++;
		}
		jsonw_str(w, NULL, t);
	}
	jsonw_end(w);
}

static void json_disk(struct jsonw *w, const struct ws_fp_disk *d)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "name", d->name);
	jsonw_text_or_null(w, "sysfs", d->sysdir);
	jsonw_text_or_null(w, "model", d->model);
	jsonw_text_or_null(w, "vendor", d->vendor);
	jsonw_text_or_null(w, "firmware", d->firmware);
	jsonw_text_or_null(w, "driver", d->driver);
	jsonw_count_or_null(w, "size", d->size);
	jsonw_bool_or_null(w, "rotational", d->rotational);
	jsonw_count_or_null(w, "logical_block_size", d->logical_block);
	jsonw_count_or_null(w, "physical_block_size", d->physical_block);
	jsonw_count_or_null(w, "minimum_io_size", d->min_io);
	jsonw_count_or_null(w, "optimal_io_size", d->opt_io);

	jsonw_object(w, "queue");
	jsonw_text_or_null(w, "scheduler", d->scheduler);
	json_schedulers(w, d->schedulers);
	jsonw_count_or_null(w, "nr_requests", d->nr_requests);
	jsonw_count_or_null(w, "read_ahead_kb", d->read_ahead_kb);
	jsonw_count_or_null(w, "max_sectors_kb", d->max_sectors_kb);
	jsonw_count_or_null(w, "queue_depth", d->queue_depth);
	jsonw_text_or_null(w, "write_cache", d->write_cache);
	jsonw_bool_or_null(w, "discard", d->discard_max_bytes < 0 ? -1 :
		 d->discard_max_bytes > 0);
	jsonw_count_or_null(w, "discard_max_bytes", d->discard_max_bytes);
	jsonw_count_or_null(w, "discard_granularity", d->discard_granularity);
	jsonw_count_or_null(w, "wbt_lat_usec", d->wbt_lat_usec);
	jsonw_end(w);

	if (d->part[0]) {
		jsonw_object(w, "partition");
		jsonw_str(w, "name", d->part);
		jsonw_count_or_null(w, "start_sector", d->part_start);
		jsonw_bool_or_null(w, "aligned_1mib", d->aligned_1mib);
		jsonw_bool_or_null(w, "aligned_physical", d->aligned_physical);
		jsonw_bool_or_null(w, "aligned_optimal", d->aligned_optimal);
		jsonw_end(w);
	} else {
		jsonw_null(w, "partition");
	}
	if (d->loop) {
		jsonw_object(w, "loop");
		jsonw_text_or_null(w, "backing_file", d->backing_file);
		jsonw_bool_or_null(w, "dio", d->loop_dio);
		jsonw_end(w);
	}
	jsonw_end(w);
}

void fingerprint_json(const struct ws_fingerprint *fp, struct jsonw *w)
{
	char dev[32];

	jsonw_object(w, "fingerprint");

	jsonw_object(w, "system");
	jsonw_text_or_null(w, "kernel", fp->kernel);
	jsonw_text_or_null(w, "machine", fp->machine);
	jsonw_text_or_null(w, "cpu", fp->cpu);
	jsonw_count_or_null(w, "cpus", fp->cpus ? fp->cpus : -1);
	jsonw_count_or_null(w, "mem_total", fp->mem_total);
	jsonw_object(w, "vm");
	jsonw_count_or_null(w, "dirty_ratio", fp->vm.dirty_ratio);
	jsonw_count_or_null(w, "dirty_background_ratio", fp->vm.dirty_background_ratio);
	jsonw_count_or_null(w, "dirty_bytes", fp->vm.dirty_bytes);
	jsonw_count_or_null(w, "dirty_background_bytes", fp->vm.dirty_background_bytes);
	jsonw_count_or_null(w, "dirty_expire_centisecs", fp->vm.dirty_expire_centisecs);
	jsonw_count_or_null(w, "dirty_writeback_centisecs",
		 fp->vm.dirty_writeback_centisecs);
	jsonw_end(w);
	jsonw_end(w);

	jsonw_object(w, "filesystem");
	snprintf(dev, sizeof(dev), "%u:%u", fp->dev_major, fp->dev_minor);
	jsonw_str(w, "dev", dev);
	jsonw_text_or_null(w, "type", fp->fs_type);
	jsonw_text_or_null(w, "mount_point", fp->mount_point);
	jsonw_text_or_null(w, "source", fp->mount_source);
	jsonw_text_or_null(w, "options", fp->mount_opts);
	jsonw_text_or_null(w, "super_options", fp->super_opts);
	jsonw_str(w, "matched_by", !fp->mount_found ? NULL :
		  fp->mount_by_path ? "path" : "device");
	jsonw_count_or_null(w, "block_size", fp->block_size);
	jsonw_end(w);

	jsonw_object(w, "block");
	jsonw_str(w, "kind", fingerprint_kind_name(fp->kind));
	jsonw_text_or_null(w, "device", fp->bdev);
	jsonw_text_or_null(w, "sysfs", fp->bdev_sysdir);
	if (fp->kind == WS_FP_DM)
		jsonw_text_or_null(w, "dm_name", fp->holder_name);
	if (fp->kind == WS_FP_MD)
		jsonw_text_or_null(w, "md_level", fp->holder_name);
	jsonw_array(w, "disks");
	for (int i = 0; i < fp->ndisks; i++)
		json_disk(w, &fp->disk[i]);
	jsonw_end(w);
	jsonw_end(w);

	jsonw_end(w);
}
