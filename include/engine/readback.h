/* readback.h - a written file read back (after fdatasync and dropping its
 * cache) and each 4 KiB block checked by its stamp, for --verify and
 * `writestress verify`.  A block of an older pass than blocks after it was
 * lost: the last pass wrote [0, X).  Any thread.
 */
#ifndef WS_READBACK_H
#define WS_READBACK_H

#include <stdint.h>

#include "engine/blockstamp.h"

/* The whole blocks of the first size bytes, for run (0: the first intact
 * block's).  0, or -errno with v holding what was checked. */
int readback_fd(int fd, uint64_t size, uint64_t run, struct ws_verify *v);

int readback_clean(const struct ws_verify *v);

#endif
