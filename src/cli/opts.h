/* opts.h - the command line: one option table yields getopt_long's
 * options, the parsing into struct ws_config and the --help text.
 * Main thread only.  This layer prints usage errors (to stderr).
 */
#ifndef WS_OPTS_H
#define WS_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"

enum opts_result {
	OPTS_RUN,	/* cfg is complete: run */
	OPTS_EXIT_OK,	/* --help or --version was printed */
	OPTS_USAGE,	/* an error was printed: exit WS_EXIT_USAGE */
};

enum opts_result opts_parse(int argc, char **argv, struct ws_config *cfg,
			    FILE *err);
void opts_help(FILE *out);

/* Is a result file (--json, --csv or --svg) "-", stdout? */
bool opts_result_to_stdout(const struct ws_config *cfg);

struct cli;
/* The run's option table (cli.h). */
const struct cli *opts_cli(void);

#endif
