/* fingerprint_show.h - the fingerprint's facts (fingerprint_facts.h) shown: the first
 * line of the header, its device/queue/layout/kernel lines, and the
 * "fingerprint" member of the JSON result.  Pure: any thread may call
 * these on a fingerprint nobody is writing.
 */
#ifndef WS_FINGERPRINT_SHOW_H
#define WS_FINGERPRINT_SHOW_H

#include <stddef.h>
#include <stdio.h>

#include "lib/jsonw.h"
#include "record/fingerprint_facts.h"

/* "ext4 (rw,relatime) · /dev/sda2 → sda": the filesystem and its devices,
 * for the header's first line.  Returns snprintf's count. */
int fingerprint_summary(const struct ws_fingerprint *fp, char *buf,
			size_t len);

/* The header lines, each "  NAME     ...\n":
 *   device   Samsung SSD 830, fw CXM03B1Q, 256 GB, non-rotational, ...
 *   queue    mq-deadline, nr_requests 64, max_sectors_kb 512, ...
 *   layout   partition sda1 starts at sector 63 (NOT aligned to ...)
 *   kernel   6.18.4 x86_64 · vm.dirty_ratio 20 (≤ 4.6 GiB) · ...
 * dm/md devices get one indented line per underlying disk. */
void fingerprint_header(const struct ws_fingerprint *fp, FILE *out);
/* Its parts: the device, queue and layout lines; the kernel line (a run
 * of several targets shows each device and the kernel once). */
void fingerprint_header_device(const struct ws_fingerprint *fp, FILE *out);
void fingerprint_header_kernel(const struct ws_fingerprint *fp, FILE *out);

/* The device and model labels of a metrics file (--prom): the block
 * device under the filesystem ("nvme0n1p2"; "" without one) and its first
 * disk's vendor and model as the header names them ("" unknown). */
void fingerprint_labels(const struct ws_fingerprint *fp, char *device,
			size_t dlen, char *model, size_t mlen);

/* The complete "fingerprint" member (an object) of the enclosing JSON
 * object; unknown values are null.  Schema in doc/result-json.md. */
void fingerprint_json(const struct ws_fingerprint *fp, struct jsonw *w);

#endif
