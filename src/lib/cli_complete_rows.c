/* cli_complete_rows.c - an option row as completion sees it. */
#include <ctype.h>
#include <string.h>

#include "lib/cli.h"
#include "cli_complete_rows.h"

const char *complete_cmd_word(const struct cli *c)
{
	const char *sp = strrchr(c->cmd, ' ');

	return sp ? sp + 1 : c->cmd;
}

int complete_short(const struct cli_option *o)
{
	return o->key > 0 && o->key < 256 && isalnum(o->key) ? o->key : 0;
}

bool complete_takes_value(const struct cli_option *o)
{
	return o->name && o->arg && o->type != CLI_FLAG && o->type != CLI_HELP &&
	       o->type != CLI_VERSION;
}

/* From the metavariable ("--json FILE"): the rows have no other field. */
enum complete_kind complete_value(const struct cli *c, const struct cli_option *o,
				  const char *const **words)
{
	*words = c->words_of ? c->words_of(o->name) : NULL;
	if (*words)
		return strstr(o->arg, "LIST") ? COMPLETE_LIST : COMPLETE_WORDS;
	if (!strcmp(o->arg, "FILE") || !strcmp(o->arg, "PATH"))
		return COMPLETE_FILES;
	if (!strcmp(o->arg, "DIR"))
		return COMPLETE_DIRS;
	return COMPLETE_NONE;
}

bool complete_plain_word(const char *word)
{
	return !strpbrk(word, "'\" \t\n\\");
}
