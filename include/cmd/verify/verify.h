/* verify.h - `writestress verify FILE`: readback.h's check, for a person.
 * Main thread. */
#ifndef WS_VERIFY_H
#define WS_VERIFY_H

/* argv[0] is "verify".  Exit 0 clean, 1 a bad block, 2 usage or unreadable. */
int verify_main(int argc, char **argv);

struct cli;
const struct cli *verify_options(void);

#endif
