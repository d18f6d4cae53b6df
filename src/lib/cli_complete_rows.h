/* cli_complete_rows.h - an option row read once for bash and zsh. */
#ifndef WS_CLI_COMPLETE_ROWS_H
#define WS_CLI_COMPLETE_ROWS_H

#include <stdbool.h>

struct cli;
struct cli_option;

enum complete_kind {
	COMPLETE_NONE,
	COMPLETE_WORDS,
	COMPLETE_LIST,	/* words, comma-separated */
	COMPLETE_FILES,
	COMPLETE_DIRS,
};

/* "report" of "writestress report"; the whole cmd for the top. */
const char *complete_cmd_word(const struct cli *c);

/* 0 if none: a key >= 256 is a long option's number. */
int complete_short(const struct cli_option *o);

bool complete_takes_value(const struct cli_option *o);

/* *words: NULL-ended for COMPLETE_WORDS and COMPLETE_LIST, else NULL. */
enum complete_kind complete_value(const struct cli *c, const struct cli_option *o,
				  const char *const **words);

/* False for a word with a quote, space or backslash (no table has one). */
bool complete_plain_word(const char *word);

#endif
