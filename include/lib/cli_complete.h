/* cli_complete.h - bash and zsh completion generated at build time from
 * the option tables the program parses with (cli.h), so it cannot drift.
 * bash needs 4 and no bash-completion; zsh is a #compdef file.  Main thread.
 */
#ifndef WS_CLI_COMPLETE_H
#define WS_CLI_COMPLETE_H

#include <stddef.h>
#include <stdio.h>

struct cli;

/* subs[0..n): each cli's cmd is "writestress NAME". */
void cli_complete_bash(FILE *out, const struct cli *top,
		       const struct cli *const *subs, size_t n);

/* The file _writestress, "#compdef writestress". */
void cli_complete_zsh(FILE *out, const struct cli *top,
		      const struct cli *const *subs, size_t n);

#endif
