/* opts.h - the run's command line.  Main thread only; prints usage errors.
 */
#ifndef WS_OPTS_H
#define WS_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "config/config.h"
#include "lib/exit.h"

enum opts_result {
	OPTS_RUN,
	OPTS_EXIT_OK,	/* --help or --version was printed */
	OPTS_USAGE,	/* an error was printed */
};

enum opts_result opts_parse(int argc, char **argv, struct ws_config *cfg,
			    FILE *err);
void opts_help(FILE *out);

/* --json, --csv or --svg "-" */
bool opts_result_to_stdout(const struct ws_config *cfg);

struct cli;
const struct cli *opts_cli(void);

/* ---- opts_rules.c, for opts_parse only ---- */

enum opts_result opts_missing_file(int argc, char **argv, FILE *err);
/* words[0..nwords): the command line before getopt moved the operands. */
enum opts_result opts_take_targets(struct ws_config *cfg, int n, char **files,
				   char *const *words, int nwords, FILE *err);
/* seen[i]: the table's row i was given. */
enum opts_result opts_check(struct ws_config *cfg, const bool *seen, FILE *err);

#endif
