/* cli.h - the option-table command line of `writestress` and of each
 * subcommand (compare, report, matrix, verify): one table of typed rows yields getopt_long's
 * options, the parsing into the caller's struct (by offset, checked
 * against each row's bounds), the --help text and every usage error.
 *
 * Typed rows in the spirit of fio's struct fio_option: a row says where
 * its value goes and what it may be, and only values no type describes
 * (a pace mode, a probe list) have a parse function of their own.
 * Main thread only; it prints usage errors and every command's messages
 * (cli_error) to the stream it is given.
 */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_WHY_LEN 160

enum cli_type {
	CLI_HEADING,	/* a section heading of --help (name is NULL) */
	CLI_FLAG,	/* bool at offset, set true */
	CLI_U64,	/* uint64_t at offset: a plain decimal in [min, max] */
	CLI_UINT,	/* unsigned int at offset: a plain decimal in [min, max] */
	CLI_SIZE,	/* uint64_t bytes (units.h SIZE) in [min, max],
			   a multiple of align when align is not 0 */
	CLI_DURATION,	/* uint64_t ns (units.h DURATION), at least min */
	CLI_RATE,	/* uint64_t bytes a second (units.h RATE), above 0 */
	CLI_STRING,	/* const char * at offset (argv's, not copied),
			   not empty */
	CLI_CUSTOM,	/* parse(dest, arg, why) does it all */
	CLI_HELP,	/* print --help, exit 0 */
	CLI_VERSION,	/* print the version, exit 0 */
};

struct cli_option {
	const char *name;	/* long name; NULL for a heading */
	int key;		/* short option letter, or a unique >= 256 */
	enum cli_type type;
	const char *arg;	/* metavariable of --help; NULL: no value */
	size_t offset;		/* where in the destination struct */
	uint64_t min, max;	/* bounds; max 0: none */
	uint64_t align;		/* CLI_SIZE: a multiple of this, or 0 */
	/* CLI_CUSTOM: 0, or -errno with the reason in why (CLI_WHY_LEN) */
	int (*parse)(void *dest, const char *arg, char *why);
	const char *help;	/* one paragraph, wrapped by --help */
};

/* Another tool's name for one of ours (fio's --bs), for "unknown option"
 * messages: what to write instead. */
struct cli_alias {
	const char *name;	/* without dashes: "bs" */
	const char *tool;	/* "fio" */
	const char *ours;	/* "-B/--buffer-size" */
};

struct cli {
	const char *cmd;	/* "writestress" or "writestress compare" */
	/* usage errors start "writestress: " plus this ("compare: ") */
	const char *error_prefix;
	const struct cli_option *opts;
	size_t nopts;
	void (*help_head)(FILE *out);	/* usage lines, before the table */
	void (*help_tail)(FILE *out);	/* units, exit status, after it */
	const struct cli_alias *aliases;	/* NULL-name terminated, or NULL */
	/* The default of the option NAME (no dashes) as it would be given,
	 * or NULL: none; a row's help says "{default}" where --help shows
	 * it, and cli_defaults() sets it.  NULL: no option has one. */
	const char *(*default_of)(const char *name);
	/* The words option NAME (no dashes) takes, NULL-ended, for shell
	 * completion (cli_complete.h); NULL: none to offer (a number, a
	 * size, free text).  Each word parses by the row's own parse (the
	 * unit tests hold every table to it).  NULL: no option has words. */
	const char *const *(*words_of)(const char *name);
	/* The words its operands are, NULL-ended, for shell completion;
	 * NULL: files. */
	const char *const *operand_words;
	/* --version's text (CLI_VERSION); NULL: "writestress VERSION". */
	void (*version)(FILE *out);
};

/* What an unknown or ambiguous long option should have been, for its
 * message: "ambiguous: --buffers or --buffer-size", "fio's name: write
 * -B/--buffer-size", "did you mean --size?"; "" when nothing is close.
 * given is what was typed ("--szie", "--bs=1M"). */
void cli_suggest(const struct cli *c, const char *given, char *out, size_t len);

/* The word of words[0..n) fewest edits (insert, delete, change, swap) from
 * given, if at most within; else NULL. */
const char *cli_closest(const char *given, const char *const *words, size_t n,
			unsigned int within);

enum cli_result {
	CLI_RUN,	/* parsed: the operands are argv[*operands..argc) */
	CLI_EXIT_OK,	/* --help or --version was printed */
	CLI_USAGE,	/* a usage error was printed: exit 2 */
};

/* Parse argv's options into dest by c's table.  seen[i] (an array of
 * c->nopts, may be NULL) is set for each row i given.  Prints --help or
 * --version to stdout, usage errors to err. */
enum cli_result cli_parse(const struct cli *c, int argc, char **argv,
			  void *dest, bool *seen, int *operands, FILE *err);

/* --help: each row's help, "{default}" replaced by default_of's text. */
void cli_help(const struct cli *c, FILE *out);

/* Set every row's default (default_of) into dest, parsed as if given,
 * so a default obeys the row's own bounds.  0, or -errno with "--NAME
 * default 'TEXT': why" in why (CLI_WHY_LEN): a wrong table, a bug. */
int cli_defaults(const struct cli *c, void *dest, char *why);

/* "4 KiB", "1 GiB" for a whole number of binary units, else "N bytes":
 * how messages state a bound.  Returns buf. */
char *cli_bound_text(char *buf, size_t len, uint64_t v);

/* The row for long name `name`, or NULL. */
const struct cli_option *cli_find(const struct cli *c, const char *name);

/* Every message of a command, one way: "writestress: <prefix><message>"
 * (prefix "report: " for `writestress report`, none for the run). */
__attribute__((format(printf, 3, 4)))
void cli_error(const struct cli *c, FILE *err, const char *fmt, ...);
/* ... and for a usage error the errtryhelp line after it; returns
 * CLI_USAGE. */
__attribute__((format(printf, 3, 4)))
enum cli_result cli_usage_error(const struct cli *c, FILE *err,
				const char *fmt, ...);

#endif
