/* cli.h - one table of typed rows (fio's fio_option) per command yields
 * getopt_long's options, parsing into a struct by offset within bounds,
 * --help and usage errors.  Main thread.
 */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_WHY_LEN 160

enum cli_type {
	CLI_HEADING,	/* of --help; name NULL */
	CLI_FLAG,	/* bool */
	CLI_U64,	/* U64, UINT: plain decimals in [min, max] */
	CLI_UINT,
	CLI_SIZE,	/* uint64_t bytes */
	CLI_DURATION,	/* uint64_t ns, at least min */
	CLI_RATE,	/* uint64_t bytes a second, above 0 */
	CLI_STRING,	/* argv's, not copied; not empty */
	CLI_CUSTOM,
	CLI_HELP,
	CLI_VERSION,
};

struct cli_option {
	const char *name;
	int key;		/* short option letter, or a unique >= 256 */
	enum cli_type type;
	const char *arg;	/* NULL: no value */
	size_t offset;
	uint64_t min, max;	/* max 0: none */
	uint64_t align;		/* CLI_SIZE; 0: none */
	/* CLI_CUSTOM: 0, or -errno and why (CLI_WHY_LEN) */
	int (*parse)(void *dest, const char *arg, char *why);
	const char *help;	/* "{default}" is default_of's */
};

struct cli_alias {
	const char *name;	/* "bs" */
	const char *tool;	/* "fio" */
	const char *ours;	/* "-B/--buffer-size" */
};

struct cli {
	const char *cmd;	/* "writestress compare" */
	const char *error_prefix;	/* "compare: " */
	const struct cli_option *opts;
	size_t nopts;
	void (*help_head)(FILE *out);
	void (*help_tail)(FILE *out);
	const struct cli_alias *aliases;	/* NULL-name ended, or NULL */
	/* may be NULL; names without dashes; words NULL-ended, each must
	 * parse; operand_words NULL: files */
	const char *(*default_of)(const char *name);
	const char *const *(*words_of)(const char *name);
	const char *const *operand_words;
	void (*version)(FILE *out);
};

/* given as typed ("--bs=1M"); "" when nothing is close. */
void cli_suggest(const struct cli *c, const char *given, char *out, size_t len);

/* Fewest edits (with swaps), at most within; or NULL. */
const char *cli_closest(const char *given, const char *const *words, size_t n,
			unsigned int within);

enum cli_result {
	CLI_RUN,	/* operands are argv[*operands..argc) */
	CLI_EXIT_OK,	/* --help or --version was printed */
	CLI_USAGE,	/* an error was printed: exit 2 */
};

/* seen (c->nopts of them, may be NULL) marks the rows given. */
enum cli_result cli_parse(const struct cli *c, int argc, char **argv,
			  void *dest, bool *seen, int *operands, FILE *err);

void cli_help(const struct cli *c, FILE *out);

/* Defaults parsed as if given, within the rows' bounds.  0, or -errno and
 * why: a wrong table. */
int cli_defaults(const struct cli *c, void *dest, char *why);

/* "4 KiB" for a whole number of binary units, else "N bytes". */
char *cli_bound_text(char *buf, size_t len, uint64_t v);

const struct cli_option *cli_find(const struct cli *c, const char *name);

/* "writestress: <error_prefix><message>" */
__attribute__((format(printf, 3, 4)))
void cli_error(const struct cli *c, FILE *err, const char *fmt, ...);
/* ... then errtryhelp's line; returns CLI_USAGE. */
__attribute__((format(printf, 3, 4)))
enum cli_result cli_usage_error(const struct cli *c, FILE *err,
				const char *fmt, ...);

#endif
