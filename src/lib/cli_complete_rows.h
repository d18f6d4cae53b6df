/* cli_complete_rows.h - what the completion generators (cli_complete.h)
 * read off an option table, in one place, so that bash and zsh offer the
 * same things for the same row.  Internal to src/lib.
 */
#ifndef WS_CLI_COMPLETE_ROWS_H
#define WS_CLI_COMPLETE_ROWS_H

#include <stdbool.h>

struct cli;
struct cli_option;

/* What the value of an option (or an operand) completes to. */
enum complete_kind {
	COMPLETE_NONE,	/* a number, a size, a time, free text: nothing */
	COMPLETE_WORDS,	/* one of its words */
	COMPLETE_LIST,	/* its words, comma-separated (its arg names a LIST) */
	COMPLETE_FILES,	/* a FILE or a PATH */
	COMPLETE_DIRS,	/* a DIR */
};

/* "report" of "writestress report"; the whole cmd for the top. */
const char *complete_cmd_word(const struct cli *c);

/* The short option letter of o, or 0: a key >= 256 is a long option's
 * own number, not a letter. */
int complete_short(const struct cli_option *o);

/* Does o take a value (--name VALUE), as opposed to a flag, --help or a
 * heading? */
bool complete_takes_value(const struct cli_option *o);

/* What o's value (o takes one) completes to; *words is set to its words,
 * NULL-ended, for COMPLETE_WORDS and COMPLETE_LIST, else NULL. */
enum complete_kind complete_value(const struct cli *c, const struct cli_option *o,
				  const char *const **words);

/* May word go into a script as it is typed?  A word with a quote, a
 * space or a backslash is left out (no table has one). */
bool complete_plain_word(const char *word);

#endif
