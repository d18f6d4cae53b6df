/* commands.h - the subcommands' one table: main() dispatches from it,
 * the FILE typo check and shell completion read it.  Main thread.
 */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

#include <stddef.h>

struct cli;

struct ws_command {
	const char *name;
	int (*main)(int argc, char **argv);	/* argv[0] is name */
	const struct cli *(*options)(void);
};

/* In the order help and completion list them. */
const struct ws_command *ws_commands(size_t *n);

const struct ws_command *ws_command_by_name(const char *name);

/* `writestress completion bash|zsh`, from every option table. */
int completion_main(int argc, char **argv);
const struct cli *completion_options(void);

#endif
