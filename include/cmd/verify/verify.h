/* verify.h - `writestress verify [--run ID] FILE`: the engine's read-back
 * (readback.h) of a file writestress wrote, printed for a person, with an
 * exit status a script can act on.  Main thread.
 */
#ifndef WS_VERIFY_H
#define WS_VERIFY_H

/* The subcommand: argv[0] is "verify".  Exit status 0 (clean), 1 (a bad
 * block), 2 (usage, or a file that cannot be read). */
int verify_main(int argc, char **argv);

struct cli;
/* verify's option table (cli.h). */
const struct cli *verify_options(void);

#endif
