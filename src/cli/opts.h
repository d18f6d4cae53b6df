/* opts.h - the command line: one option table yields getopt_long's
 * options, the parsing into struct ws_config and the --help text.
 * Main thread only.  This layer prints usage errors (to stderr).
 */
#ifndef WS_OPTS_H
#define WS_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "lib/exit.h"

enum opts_result {
	OPTS_RUN,	/* cfg is complete: run */
	OPTS_EXIT_OK,	/* --help or --version was printed */
	OPTS_USAGE,	/* an error was printed: exit WS_EXIT_USAGE */
};

/* The command line into *cfg (opts_rules.c): the table, its rules and
 * the operands.  Usage errors are printed to err. */
enum opts_result opts_parse(int argc, char **argv, struct ws_config *cfg,
			    FILE *err);
void opts_help(FILE *out);

/* Is a result file (--json, --csv or --svg) "-", stdout? */
bool opts_result_to_stdout(const struct ws_config *cfg);

struct cli;
/* The run's option table (cli.h). */
const struct cli *opts_cli(void);

/* ---- opts_rules.c, for opts_parse only ---- */

/* No FILE was given: say what to do instead (argv as main's).  OPTS_USAGE. */
enum opts_result opts_missing_file(int argc, char **argv, FILE *err);
/* The FILE operands (n of them, or FILE.1 ... FILE.N with --jobs) into
 * cfg->paths; words[0..nwords) is the command line as typed, before
 * getopt moved the operands, for what a mistyped one meant. */
enum opts_result opts_take_targets(struct ws_config *cfg, int n, char **files,
				   char *const *words, int nwords, FILE *err);
/* The rules between the options given (seen[i]: the table's row i was),
 * and the defaults that follow from them. */
enum opts_result opts_check(struct ws_config *cfg, const bool *seen, FILE *err);

#endif
