/* commands.h - the subcommands' one table: main() dispatches from it,
 * the FILE typo check and shell completion read it.  Main thread.
 */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

#include <stddef.h>

struct cli;

struct ws_command {
	const char *name;
	int (*main)(int argc, char **argv);	/* argv[0] is name; NULL: a run's */
	const struct cli *(*options)(void);
};

/* In the order help and completion list them. */
const struct ws_command *ws_commands(size_t *n);

const struct ws_command *ws_command_by_name(const char *name);

/* `writestress watch`: a run without a writer, so main() runs it (its
 * table row has no main of its own).  OPTS_RUN with *run_seen: the run
 * table's rows given, for opts_check(), the caller's to free. */
#include "opts.h"
enum opts_result watch_parse(int argc, char **argv, struct ws_config *cfg, FILE *err,
			     bool **run_seen);
const struct cli *watch_options(void);

/* `writestress completion bash|zsh`, from every option table. */
int completion_main(int argc, char **argv);
const struct cli *completion_options(void);

#endif
