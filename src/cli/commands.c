/* commands.c - the subcommands' table and `writestress completion`. */
#include <stdio.h>
#include <string.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/cli_complete.h"
#include "cmd/compare/compare.h"
#include "cmd/matrix/matrix.h"
#include "cmd/report/report.h"
#include "cmd/verify/verify.h"
#include "commands.h"
#include "opts.h"

static const struct ws_command commands[] = {
	{ "compare", compare_main, compare_options },
	{ "report", report_main, report_options },
	{ "verify", verify_main, verify_options },
	{ "matrix", matrix_main, matrix_options },
	{ "watch", NULL, watch_options },
	{ "completion", completion_main, completion_options },
};

const struct ws_command *ws_commands(size_t *n)
{
	*n = ARRAY_SIZE(commands);
	return commands;
}

const struct ws_command *ws_command_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* ---- writestress completion --------------------------------------------- */

static const struct cli_option completion_opts[] = {
	{ .name = "help", .key = 'h', .type = CLI_HELP, .help = "show this help and exit" },
};

static void completion_help_head(FILE *out)
{
	fprintf(out,
		"Usage: writestress completion bash|zsh\n"
		"Print the bash or the zsh completion script of writestress, generated from\n"
		"its option tables: options (in zsh with their help), their words, files and\n"
		"subcommands.  The package installs both\n"
		"(/usr/share/bash-completion/completions/writestress,\n"
		"/usr/share/zsh/vendor-completions/_writestress); elsewhere:\n"
		"  source <(writestress completion bash)   in bash\n"
		"  source <(writestress completion zsh)    in zsh, after compinit\n");
}

static const struct completion_shell {
	const char *name;
	void (*generate)(FILE *out, const struct cli *top,
			 const struct cli *const *subs, size_t n);
} completion_shells[] = {
	{ "bash", cli_complete_bash },
	{ "zsh", cli_complete_zsh },
};

/* completion_shells' names */
static const char *const shells[] = { "bash", "zsh", NULL };

static const struct cli completion_cli = {
	.cmd = "writestress completion",
	.error_prefix = "completion: ",
	.opts = completion_opts,
	.nopts = ARRAY_SIZE(completion_opts),
	.help_head = completion_help_head,
	.operand_words = shells,
};

const struct cli *completion_options(void)
{
	return &completion_cli;
}

static const struct completion_shell *completion_shell(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(completion_shells); i++)
		if (!strcmp(completion_shells[i].name, name))
			return &completion_shells[i];
	return NULL;
}

int completion_main(int argc, char **argv)
{
	const struct cli *subs[ARRAY_SIZE(commands)];
	const struct completion_shell *sh;
	int first;

	switch (cli_parse(&completion_cli, argc, argv, NULL, NULL, &first, stderr)) {
	case CLI_EXIT_OK:
		return 0;
	case CLI_USAGE:
		return 2;
	case CLI_RUN:
		break;
	}
	if (argc == first) {
		cli_usage_error(&completion_cli, stderr,
				"missing SHELL: bash or zsh (writestress completion bash)");
		return 2;
	}
	if (argc - first > 1) {
		cli_usage_error(&completion_cli, stderr,
				"unexpected operand '%s': one SHELL, bash or zsh", argv[first + 1]);
		return 2;
	}
	sh = completion_shell(argv[first]);
	if (!sh) {
		cli_usage_error(&completion_cli, stderr,
				"invalid SHELL '%s': the shells are bash and zsh", argv[first]);
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		subs[i] = commands[i].options();
	sh->generate(stdout, opts_cli(), subs, ARRAY_SIZE(commands));
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
