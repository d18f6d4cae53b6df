/* cli_complete_zsh.c - zsh completion (_git-add style).  Specs are parsed
 * by _arguments (brackets, colons) and actions by eval too: escapes serve both. */
#include <ctype.h>
#include <string.h>

#include "lib/cli.h"
#include "lib/cli_complete.h"
#include "cli_complete_rows.h"

/* Shorter phrases say too little to stop at "(" (at ":": DESC_MIN_COLON). */
#define DESC_MIN 10
#define DESC_MIN_COLON 20
/* Longer wraps in an 80-column listing. */
#define DESC_MAX 60

/* " (", "; ", ": " or a sentence's end, but not "(100 - PCT)%" or "e.g.". */
static bool phrase_ends(const char *help, size_t i)
{
	if (!strncmp(help + i, " (", 2) && !isdigit((unsigned char)help[i + 2]))
		return true;
	if (!strncmp(help + i, "; ", 2))
		return true;
	if (!strncmp(help + i, ": ", 2))
		return i >= DESC_MIN_COLON;
	return help[i] == '.' && islower((unsigned char)help[i - 1]) &&
	       help[i + 1] == ' ' && isupper((unsigned char)help[i + 2]);
}

/* Or up to a "{default}" (its value is --help's to print). */
static size_t phrase_len(const char *help)
{
	size_t i;

	for (i = 0; help[i] && help[i] != '{'; i++)
		if (i >= DESC_MIN && phrase_ends(help, i))
			return i;
	return i;
}

/* A quote closes the quoting; the rest is backslashed. */
static void put_escaped(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\'')
			fputs("'\\''", out);
		else if (strchr("[]:\\", s[i]))
			fprintf(out, "\\%c", s[i]);
		else
			fputc(s[i], out);
	}
}

/* The first phrase, cut at a word to DESC_MAX. */
static void put_description(FILE *out, const char *help)
{
	size_t len = help ? phrase_len(help) : 0;
	bool cut = len > DESC_MAX;

	if (!len)
		return;
	if (cut)
		for (len = DESC_MAX; len > DESC_MIN && help[len] != ' '; len--)
			;
	while (len && strchr(" ,;:", help[len - 1]))
		len--;
	fputc('[', out);
	put_escaped(out, help, len);
	fputs(cut ? "...]" : "]", out);
}

/* _arguments evals actions: all but [A-Za-z0-9_.,+/@%-] backslashed. */
static void put_words(FILE *out, const char *const *w)
{
	for (; *w; w++) {
		if (!complete_plain_word(*w))
			continue;
		fputc(' ', out);
		for (const char *p = *w; *p; p++) {
			if (!isalnum((unsigned char)*p) && !strchr("_.,+/@%-", *p))
				fputc('\\', out);
			fputc(*p, out);
		}
	}
}

/* ":ARG:action"; _sequence completes a LIST after its last comma. */
static void put_value(FILE *out, const char *name, const struct cli *c,
		      const struct cli_option *o)
{
	const char *const *words;
	enum complete_kind kind = complete_value(c, o, &words);

	fputc(':', out);
	put_escaped(out, o->arg, strlen(o->arg));
	fputc(':', out);
	switch (kind) {
	case COMPLETE_LIST:
		fputs("_sequence -s , compadd -", out);
		put_words(out, words);
		break;
	case COMPLETE_WORDS:
		fprintf(out, "_%s_words -", name);
		put_words(out, words);
		break;
	case COMPLETE_FILES:
		fputs("_files", out);
		break;
	case COMPLETE_DIRS:
		fputs("_files -/", out);
		break;
	case COMPLETE_NONE:
		/* a space: the ARG is shown as a message */
		fputc(' ', out);
		break;
	}
}

/* Every option starred (may repeat): the rows do not say which repeat. */
static void put_option(FILE *out, const char *name, const struct cli *c,
		       const struct cli_option *o)
{
	bool value = complete_takes_value(o);
	int letter = complete_short(o);

	if (letter)
		fprintf(out, "\t\t'*'{-%c%s,--%s%s}'", letter, value ? "+" : "",
			o->name, value ? "=" : "");
	else
		fprintf(out, "\t\t'*--%s%s", o->name, value ? "=" : "");
	put_description(out, o->help);
	if (value)
		put_value(out, name, c, o);
	fputs("' \\\n", out);
}

/* Words, else files; the top's first may be a subcommand (_NAME_operand). */
static void put_operands(FILE *out, const char *name, const struct cli *c, bool top)
{
	fprintf(out, "\t\t'*:%s:", c->operand_words ? "WORD" : "FILE");
	if (c->operand_words) {
		fprintf(out, "_%s_words -", name);
		put_words(out, c->operand_words);
	} else if (top) {
		fprintf(out, "_%s_operand", name);
	} else {
		fputs("_files", out);
	}
	fputs("'\n", out);
}

static void put_arguments(FILE *out, const char *name, const struct cli *c, bool top)
{
	fputs("\t_arguments -s -S : \\\n", out);
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].name)
			put_option(out, name, c, &c->opts[i]);
	put_operands(out, name, c, top);
}

static void put_subcommand(FILE *out, const char *name, const struct cli *c)
{
	fprintf(out, "_%s-%s()\n{\n", name, complete_cmd_word(c));
	put_arguments(out, name, c, false);
	fputs("}\n\n", out);
}

static void put_helpers(FILE *out, const char *name,
			const struct cli *const *subs, size_t n)
{
	fprintf(out,
		"# _%s_words COMPADD-OPTION... - WORD...: a value's words; one\n"
		"# a value follows (\"compressible=\") takes no space after it.\n"
		"_%s_words()\n{\n"
		"\tlocal i=${@[(i)-]} ret=1\n"
		"\tlocal -a opts words\n"
		"\topts=(\"${@[1,i-1]}\")\n"
		"\twords=(\"${@[i+1,-1]}\")\n"
		"\tcompadd \"$opts[@]\" - ${words:#*[=:]} && ret=0\n"
		"\tcompadd \"$opts[@]\" -S '' - ${(M)words:#*[=:]} && ret=0\n"
		"\treturn ret\n}\n\n"
		"# The first word is a subcommand or the run's FILE, later ones FILEs.\n"
		"_%s_operand()\n{\n"
		"\tlocal ret=1\n"
		"\tlocal -a expl\n"
		"\t(( CURRENT == 2 )) &&\n"
		"\t\t_wanted commands expl '%s command' compadd -",
		name, name, name, name);
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %s", complete_cmd_word(subs[i]));
	fputs(" && ret=0\n"
	      "\t_files \"$@\" && ret=0\n"
	      "\treturn ret\n}\n\n", out);
}

static void put_dispatch(FILE *out, const char *name,
			 const struct cli *const *subs, size_t n)
{
	if (!n)
		return;
	fputs("\tif (( CURRENT > 2 )); then\n"
	      "\t\tcase $words[2] in\n\t\t(", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "|" : "", complete_cmd_word(subs[i]));
	fprintf(out, ")\n"
		"\t\t\tcurcontext=${curcontext%%:*:*}:%s-$words[2]:\n"
		"\t\t\tshift words\n"
		"\t\t\t(( CURRENT-- ))\n"
		"\t\t\t_%s-$words[1]\n"
		"\t\t\treturn\n"
		"\t\t\t;;\n"
		"\t\tesac\n\tfi\n", name, name);
}

void cli_complete_zsh(FILE *out, const struct cli *top,
		      const struct cli *const *subs, size_t n)
{
	const char *name = complete_cmd_word(top);

	fprintf(out,
		"#compdef %s\n"
		"# zsh completion for %s.\n"
		"# Generated by `%s completion zsh` from the option tables the\n"
		"# program parses with: change the tables, not this file.\n\n",
		name, name, name);
	put_helpers(out, name, subs, n);
	for (size_t i = 0; i < n; i++)
		put_subcommand(out, name, subs[i]);
	fprintf(out, "_%s()\n{\n\tlocal curcontext=$curcontext\n", name);
	put_dispatch(out, name, subs, n);
	put_arguments(out, name, top, true);
	fprintf(out, "}\n\n"
		"# From fpath (compinit autoloads it): complete.  Sourced: register.\n"
		"if [[ $funcstack[1] == _%s ]]; then\n"
		"\t_%s \"$@\"\n"
		"else\n"
		"\tcompdef _%s %s\n"
		"fi\n", name, name, name, name);
}
