/* fingerprint_show.h - the fingerprint's facts in the header and the
 * JSON.  Any thread, on a fingerprint nobody is writing.
 */
#ifndef WS_FINGERPRINT_SHOW_H
#define WS_FINGERPRINT_SHOW_H

#include <stddef.h>
#include <stdio.h>

#include "lib/jsonw.h"
#include "record/fingerprint_facts.h"

/* "ext4 (rw,relatime) · /dev/sda2 → sda"; returns snprintf's count. */
int fingerprint_summary(const struct ws_fingerprint *fp, char *buf,
			size_t len);

/* The device, queue, layout and kernel lines; dm/md devices get a line
 * per underlying disk. */
void fingerprint_header(const struct ws_fingerprint *fp, FILE *out);
/* Its parts: several targets show each device and the kernel once. */
void fingerprint_header_device(const struct ws_fingerprint *fp, FILE *out);
void fingerprint_header_kernel(const struct ws_fingerprint *fp, FILE *out);

/* --prom's labels; "" when unknown. */
void fingerprint_labels(const struct ws_fingerprint *fp, char *device,
			size_t dlen, char *model, size_t mlen);

/* The "fingerprint" member; unknown values are null. */
void fingerprint_json(const struct ws_fingerprint *fp, struct jsonw *w);

#endif
