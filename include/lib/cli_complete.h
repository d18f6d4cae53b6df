/* cli_complete.h - bash and zsh completion scripts generated from option
 * tables (cli.h): a command's long options (and, in zsh, the first
 * phrase of each one's help beside it), the words each option takes
 * (struct cli's words_of; the items of a LIST completed after its
 * commas), files where a row takes a FILE or a PATH, directories where
 * it takes a DIR, nothing where it takes a number, a size or a time, and
 * the subcommands with their own options and operands.  Both read the
 * rows alike (src/lib/cli_complete_rows.h).
 *
 * make writes the scripts at build time from the tables the program
 * parses with, so completion cannot drift from the options.  The bash
 * script needs bash 4 and nothing of the bash-completion package; the
 * zsh one is a #compdef file for fpath, run by compinit's completion
 * system (or sourced after compinit).  Main thread.
 */
#ifndef WS_CLI_COMPLETE_H
#define WS_CLI_COMPLETE_H

#include <stddef.h>
#include <stdio.h>

struct cli;

/* The script for the command top ("writestress") and its subcommands
 * subs[0..n) (each cli's cmd "writestress NAME"), to out. */
void cli_complete_bash(FILE *out, const struct cli *top,
		       const struct cli *const *subs, size_t n);

/* The same for zsh: the file _writestress, "#compdef writestress". */
void cli_complete_zsh(FILE *out, const struct cli *top,
		      const struct cli *const *subs, size_t n);

#endif
