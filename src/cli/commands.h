/* commands.h - the subcommands of `writestress NAME ...`: each one's
 * name, main and option table, in one table that main() dispatches
 * from, the typo check of FILE operands names, and shell completion is
 * generated from.  Main thread.
 */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

#include <stddef.h>

struct cli;

struct ws_command {
	const char *name;			/* "report" */
	int (*main)(int argc, char **argv);	/* argv[0] is name */
	const struct cli *(*options)(void);	/* its option table */
};

/* The subcommands, in the order help and completion list them. */
const struct ws_command *ws_commands(size_t *n);

/* The subcommand called name, or NULL. */
const struct ws_command *ws_command_by_name(const char *name);

/* `writestress completion bash|zsh`: the shell's completion script, generated
 * from the run's and every subcommand's option table (cli_complete.h). */
int completion_main(int argc, char **argv);
const struct cli *completion_options(void);

#endif
