/* cli.c - the option-table command line. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/units.h"

#define CLI_MAX_OPTS 96

const struct cli_option *cli_find(const struct cli *c, const char *name)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].name && !strcmp(c->opts[i].name, name))
			return &c->opts[i];
	return NULL;
}

static const struct cli_option *by_key(const struct cli *c, int key)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].name && c->opts[i].key == key)
			return &c->opts[i];
	return NULL;
}

static void cli_verror(const struct cli *c, FILE *err, const char *fmt,
		       va_list ap)
{
	fprintf(err, "writestress: %s", c->error_prefix ? c->error_prefix : "");
	vfprintf(err, fmt, ap);
	fputc('\n', err);
}

void cli_error(const struct cli *c, FILE *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(c, err, fmt, ap);
	va_end(ap);
}

enum cli_result cli_usage_error(const struct cli *c, FILE *err,
				const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(c, err, fmt, ap);
	va_end(ap);
	errtryhelp(err, c->cmd);
	return CLI_USAGE;
}

/* max 0: no bound. */
static int parse_decimal(const char *arg, uint64_t min, uint64_t max,
			 uint64_t *out, char *why)
{
	uint64_t v = 0;

	if (!*arg) {
		snprintf(why, CLI_WHY_LEN, "empty value");
		return -EINVAL;
	}
	for (const char *p = arg; *p; p++) {
		if (*p < '0' || *p > '9') {
			snprintf(why, CLI_WHY_LEN, "not a whole number");
			return -EINVAL;
		}
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*p - '0'), &v)) {
			snprintf(why, CLI_WHY_LEN, "too large");
			return -ERANGE;
		}
	}
	if (v < min || (max && v > max)) {
		if (max)
			snprintf(why, CLI_WHY_LEN, "must be between %llu and %llu",
				 (unsigned long long)min, (unsigned long long)max);
		else
			snprintf(why, CLI_WHY_LEN, "must be at least %llu",
				 (unsigned long long)min);
		return -ERANGE;
	}
	*out = v;
	return 0;
}

/* "4 KiB", "1 GiB", else bytes. */
char *cli_bound_text(char *buf, size_t len, uint64_t v)
{
	static const char *const names[] = { "TiB", "GiB", "MiB", "KiB" };

	for (int i = 0; i < 4; i++) {
		uint64_t unit = UINT64_C(1) << (10 * (4 - i));

		if (v && v % unit == 0) {
			snprintf(buf, len, "%llu %s", (unsigned long long)(v / unit), names[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu bytes", (unsigned long long)v);
	return buf;
}

/* In the option's own unit: "1 ms", "60 s"; "4 KiB". */
static char *bound_text(const struct cli_option *o, char *buf, size_t len,
			uint64_t v)
{
	if (o->type == CLI_DURATION) {
		units_format_duration(buf, len, v);
		return buf;
	}
	if (o->type == CLI_RATE) {
		cli_bound_text(buf, len, v);
		snprintf(buf + strlen(buf), len - strlen(buf), "/s");
		return buf;
	}
	return cli_bound_text(buf, len, v);
}

/* Above zero (unless a SIZE may be 0), min, max, a multiple of align. */
static int check_bounds(const struct cli_option *o, uint64_t v, char *why)
{
	char b[32];

	if (!v && (o->min || o->type != CLI_SIZE)) {
		snprintf(why, CLI_WHY_LEN, "must be greater than zero");
		return -EINVAL;
	}
	if (v < o->min) {
		snprintf(why, CLI_WHY_LEN, "must be at least %s",
			 bound_text(o, b, sizeof(b), o->min));
		return -EINVAL;
	}
	if (o->max && v > o->max) {
		snprintf(why, CLI_WHY_LEN, "must be at most %s",
			 bound_text(o, b, sizeof(b), o->max));
		return -ERANGE;
	}
	if (o->align && v % o->align) {
		snprintf(why, CLI_WHY_LEN, "must be a multiple of %s",
			 cli_bound_text(b, sizeof(b), o->align));
		return -EINVAL;
	}
	return 0;
}

static int parse_units(const struct cli_option *o, const char *arg,
		       uint64_t *out, char *why)
{
	struct units_error e;
	uint64_t v;
	int ret;

	if (o->type == CLI_SIZE)
		ret = units_parse_size(arg, &v, &e);
	else if (o->type == CLI_DURATION)
		ret = units_parse_duration(arg, &v, &e);
	else
		ret = units_parse_rate(arg, &v, &e);
	if (ret) {
		snprintf(why, CLI_WHY_LEN, "%s", e.msg);
		return ret;
	}
	ret = check_bounds(o, v, why);
	/* "-s 100" is a hundred bytes, under a block: a unit left out */
	if (ret && o->type == CLI_SIZE && v && v < o->min && strspn(arg, "0123456789") == strlen(arg))
		snprintf(why + strlen(why), CLI_WHY_LEN - strlen(why), " (did you mean %sM?)", arg);
	if (!ret)
		*out = v;
	return ret;
}

/* 0 or -errno with why. */
static int set_value(const struct cli_option *o, void *dest, const char *arg,
		     char *why)
{
	void *at = (char *)dest + o->offset;
	uint64_t v;
	int ret;

	switch (o->type) {
	case CLI_FLAG:
		*(bool *)at = true;
		return 0;
	case CLI_U64:
		return parse_decimal(arg, o->min, o->max, (uint64_t *)at, why);
	case CLI_UINT:
		ret = parse_decimal(arg, o->min, o->max ? o->max : UINT32_MAX, &v, why);
		if (!ret)
			*(unsigned int *)at = (unsigned int)v;
		return ret;
	case CLI_SIZE:
	case CLI_DURATION:
	case CLI_RATE:
		return parse_units(o, arg, (uint64_t *)at, why);
	case CLI_STRING:
		if (!*arg) {
			snprintf(why, CLI_WHY_LEN, "empty value");
			return -EINVAL;
		}
		*(const char **)at = arg;
		return 0;
	case CLI_CUSTOM:
		return o->parse(dest, arg, why);
	default:
		return 0;
	}
}

static void build_getopt(const struct cli *c, struct option *longs,
			 char *shorts)
{
	size_t n = 0;
	char *s = shorts;

	*s++ = ':';	/* a missing value as ':' */
	for (size_t i = 0; i < c->nopts; i++) {
		const struct cli_option *o = &c->opts[i];

		if (!o->name)
			continue;
		longs[n++] = (struct option){ o->name, o->arg ? required_argument
							      : no_argument,
					      NULL, o->key };
		if (o->key < 256) {
			*s++ = (char)o->key;
			if (o->arg)
				*s++ = ':';
		}
	}
	longs[n] = (struct option){ 0 };
	*s = '\0';
}

/* Damerau distance up to a small bound: short names only. */
static unsigned int edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned int d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *cli_closest(const char *given, const char *const *words, size_t n,
			unsigned int within)
{
	const char *best = NULL;
	unsigned int best_d = within + 1;

	for (size_t i = 0; i < n; i++) {
		unsigned int d = edit_distance(given, strlen(given), words[i],
					       strlen(words[i]));

		if (d < best_d) {
			best_d = d;
			best = words[i];
		}
	}
	return best;
}

void cli_suggest(const struct cli *c, const char *given, char *out, size_t len)
{
	const char *name = given + strspn(given, "-");
	size_t n = strcspn(name, "="), prefixed = 0, best_d = 3;
	const char *best = NULL;
	struct ws_buf b = { .s = out, .cap = len };

	out[0] = '\0';
	/* GNU getopt takes a unique prefix; several is ambiguous */
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].name && !strncmp(c->opts[i].name, name, n) && n)
			prefixed++;
	if (prefixed > 1) {
		ws_buf_printf(&b, "ambiguous: ");
		for (size_t i = 0, k = 0; i < c->nopts; i++)
			if (c->opts[i].name && !strncmp(c->opts[i].name, name, n))
				ws_buf_printf(&b, "%s--%s", k++ ? (k == prefixed ? " or " : ", ") : "",
					      c->opts[i].name);
		return;
	}
	for (const struct cli_alias *a = c->aliases; a && a->name; a++)
		if (strlen(a->name) == n && !strncmp(a->name, name, n)) {
			ws_buf_printf(&b, "%s's name; writestress says %s", a->tool, a->ours);
			return;
		}
	for (size_t i = 0; i < c->nopts; i++) {
		const char *o = c->opts[i].name;
		size_t d;

		if (!o)
			continue;
		d = edit_distance(name, n, o, strlen(o));
		if (d < best_d) {
			best_d = d;
			best = o;
		}
	}
	if (best)
		ws_buf_printf(&b, "did you mean --%s?", best);
}

/* getopt_long said '?' or ':'. */
static enum cli_result bad_option(const struct cli *c, int ch, char **argv,
				  FILE *err)
{
	const char *given = argv[optind - 1];
	char shortopt[3] = { '-', (char)optopt, 0 };
	bool is_long = !strncmp(given, "--", 2);
	const struct cli_option *o = optopt ? by_key(c, optopt) : NULL;

	if (ch == ':')
		return cli_usage_error(c, err, "option '%s' needs a value",
				       is_long ? given : shortopt);
	/* GNU getopt: optopt is the option for --flag=x, the letter for an
	 * unknown -x, 0 for an unknown --long */
	if (o && is_long)
		return cli_usage_error(c, err, "option '--%s' takes no value", o->name);
	if (!optopt && is_long) {
		char hint[1024];

		cli_suggest(c, given, hint, sizeof(hint));
		if (!strncmp(hint, "ambiguous", 9))
			return cli_usage_error(c, err, "option '%.*s' is %s",
					       (int)strcspn(given, "="), given, hint);
		if (hint[0])
			return cli_usage_error(c, err, "unknown option '%s' (%s)",
					       given, hint);
	}
	return cli_usage_error(c, err, "unknown option '%s'",
			       optopt ? shortopt : given);
}

enum cli_result cli_parse(const struct cli *c, int argc, char **argv,
			  void *dest, bool *seen, int *operands, FILE *err)
{
	struct option longs[CLI_MAX_OPTS + 1];
	char shorts[2 * CLI_MAX_OPTS + 2];
	int ch;

	if (c->nopts > CLI_MAX_OPTS)
		abort();	/* a table this big is a build mistake */
	build_getopt(c, longs, shorts);
	opterr = 0;
	optind = 0;	/* GNU: a full reset */
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct cli_option *o = by_key(c, ch);
		char why[CLI_WHY_LEN] = "";

		if (ch == '?' || ch == ':' || !o)
			return bad_option(c, ch, argv, err);
		if (o->type == CLI_HELP) {
			cli_help(c, stdout);
			return CLI_EXIT_OK;
		}
		if (o->type == CLI_VERSION) {
			if (c->version)
				c->version(stdout);
			else
				printf("writestress %s\n", WS_VERSION);
			return CLI_EXIT_OK;
		}
		if (set_value(o, dest, optarg, why))
			return cli_usage_error(c, err, "invalid --%s '%s': %s",
					       o->name, optarg, why);
		if (seen)
			seen[o - c->opts] = true;
	}
	*operands = optind;
	return CLI_RUN;
}

static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;

	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);

		if (col > indent && col + 1 + len > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

#define DEFAULT_MARK "{default}"

/* DEFAULT_MARK replaced by the default, in buf. */
static const char *help_text(const struct cli *c, const struct cli_option *o,
			     char *buf, size_t len)
{
	const char *mark = strstr(o->help, DEFAULT_MARK);
	const char *def = c->default_of ? c->default_of(o->name) : NULL;

	if (!mark)
		return o->help;
	snprintf(buf, len, "%.*s%s%s", (int)(mark - o->help), o->help,
		 def ? def : "?", mark + strlen(DEFAULT_MARK));
	return buf;
}

int cli_defaults(const struct cli *c, void *dest, char *why)
{
	char reason[CLI_WHY_LEN];

	for (size_t i = 0; c->default_of && i < c->nopts; i++) {
		const struct cli_option *o = &c->opts[i];
		const char *def = o->name ? c->default_of(o->name) : NULL;
		int ret;

		if (!def)
			continue;
		ret = o->arg ? set_value(o, dest, def, reason) : -EINVAL;
		if (ret) {
			snprintf(why, CLI_WHY_LEN, "--%.24s default '%.16s': %.100s", o->name,
				 def, o->arg ? reason : "the option takes no value");
			return ret;
		}
	}
	return 0;
}

void cli_help(const struct cli *c, FILE *out)
{
	if (c->help_head)
		c->help_head(out);
	for (size_t i = 0; i < c->nopts; i++) {
		const struct cli_option *o = &c->opts[i];
		char left[64], text[1024];
		int n;

		if (!o->name) {
			fprintf(out, "\n%s\n", o->help);
			continue;
		}
		if (o->key < 256)
			n = snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->key,
				     o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		else
			n = snprintf(left, sizeof(left), "      --%s%s%s", o->name,
				     o->arg ? " " : "", o->arg ? o->arg : "");
		fputs(left, out);
		if (n >= 25)
			fprintf(out, "\n%26s", "");
		else
			fprintf(out, "%*s", 26 - n, "");
		print_wrapped(out, help_text(c, o, text, sizeof(text)), 26, 79);
	}
	if (c->help_tail)
		c->help_tail(out);
}
