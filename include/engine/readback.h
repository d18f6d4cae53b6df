/* readback.h - a file writestress wrote, read back and every 4 KiB block
 * checked by its stamp (blockstamp.h): intact, where it was written, of
 * the run and the pass expected.  The writer's --verify and the
 * `writestress verify` subcommand (cmd/verify) both read through here.
 *
 * A block is lost (stale) when it carries an older pass than blocks after
 * it: the last pass wrote [0, X) and everything before X must carry it.
 * Any thread; the only I/O is reading the file (after fdatasync and
 * dropping its cached pages, so the disk is read, not the page cache).
 */
#ifndef WS_READBACK_H
#define WS_READBACK_H

#include <stdint.h>

#include "engine/blockstamp.h"

/* The types it fills (struct ws_verify) are the record's: record.h. */

/* Check the whole 4 KiB blocks of fd's first size bytes for run (0: the
 * run of the first intact block).  0, or -errno when the file cannot be
 * read (v holds what was checked, and err). */
int readback_fd(int fd, uint64_t size, uint64_t run, struct ws_verify *v);

/* Every block intact, in place, of the run and its pass. */
int readback_clean(const struct ws_verify *v);

#endif
