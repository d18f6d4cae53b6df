/* verify.h - `writestress verify FILE`: read a file writestress wrote
 * with random or compressible data back and check every 4 KiB block by
 * its stamp (blockstamp.h): intact, where it was written, of the run and
 * the pass expected.
 *
 * A block is lost (stale) when it carries an older pass than blocks after
 * it: the last pass wrote [0, X) and everything before X must carry it.
 * Main thread; the only I/O is reading the file.
 */
#ifndef WS_VERIFY_H
#define WS_VERIFY_H

#include <stdint.h>
#include <stdio.h>

#include "engine/blockstamp.h"

/* The types it fills (struct ws_verify) are the record's: record.h. */

/* Check the whole 4 KiB blocks of fd's first size bytes for run (0: the
 * run of the first intact block).  0, or -errno when the file cannot be
 * read (v holds what was checked, and err). */
int verify_fd(int fd, uint64_t size, uint64_t run, struct ws_verify *v);

/* Every block intact, in place, of the run and its pass. */
int verify_clean(const struct ws_verify *v);

/* The subcommand: argv[0] is "verify".  Exit status 0 (clean), 1 (a bad
 * block), 2 (usage, or a file that cannot be read). */
int verify_main(int argc, char **argv);

struct cli;
/* verify's option table (cli.h). */
const struct cli *verify_options(void);

#endif
