/* options.c - the settings table's rows (record/fields.c) with each
 * CLI_CUSTOM row's parser and each wiring row's place, attached by name.
 * The parsers write into the struct ws_config at dest.
 */
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "config/options.h"
#include "lib/c.h"
#include "lib/units.h"
#include "record/fields.h"
#include "record/record.h"

#define WHY_LEN CLI_WHY_LEN

_Static_assert(offsetof(struct ws_config, set) == 0,
	       "the table's offsets are in the settings that start struct ws_config");

/* ---- values no type describes ------------------------------------------- */

static int parse_pace(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	char modes[96];
	struct ws_buf b = WS_BUF(modes);

	if (ws_pace_parse(arg, &cfg->set.pace))
		return 0;
	for (int m = 0; m < WS_PACE_NR; m++)
		ws_buf_item(&b, ", ", "%s", ws_pace_name((enum ws_pace)m));
	snprintf(why, WHY_LEN, "unknown mode (%s)", modes);
	return -EINVAL;
}

static int parse_data(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	if (!ws_data_parse(arg, &cfg->set.data, &cfg->set.compress_pct))
		return 0;
	snprintf(why, WHY_LEN, "expected random, fixed, zero or compressible=PCT (PCT 0-100)");
	return -EINVAL;
}

static int parse_prom(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	if (!strcmp(arg, "-")) {
		snprintf(why, WHY_LEN, "the metrics file is replaced every interval, so it cannot be stdout; name a FILE.prom in node_exporter's textfile directory");
		return -EINVAL;
	}
	if (!*arg) {
		snprintf(why, WHY_LEN, "empty value");
		return -EINVAL;
	}
	cfg->set.prom_path = arg;
	return 0;
}

static int parse_probe(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	char bad[32], kinds[96];
	struct ws_buf b = WS_BUF(kinds);

	if (!ws_probe_parse_list(arg, &cfg->set.probes, bad, sizeof(bad)))
		return 0;
	for (int k = 0; k < WS_PROBE_NR; k++)
		ws_buf_item(&b, ", ", "%s", ws_probe_kind_name((enum ws_probe_kind)k));
	if (bad[0])
		snprintf(why, WHY_LEN, "unknown probe '%s' (%s)", bad, kinds);
	else
		snprintf(why, WHY_LEN, "expected a list such as fsync,sqlite");
	return -EINVAL;
}

static int parse_steer_by(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	char bad[32];

	if (!ws_probe_parse_list(arg, &cfg->set.pacing.steer_by, bad, sizeof(bad)))
		return 0;
	if (bad[0])
		snprintf(why, WHY_LEN, "unknown probe '%s' (a probe --probe runs, e.g. sqlite)", bad);
	else
		snprintf(why, WHY_LEN, "expected a list of probes such as sqlite or fsync,sqlite");
	return -EINVAL;
}

/* [NAME=]CMD; unnamed ones are cmd, cmd2... */
static int parse_probe_cmd(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct ws_probe_cmd c;

	if (cfg->set.cmds.n == WS_MAX_PROBE_CMDS) {
		snprintf(why, WHY_LEN, "at most %d commands", WS_MAX_PROBE_CMDS);
		return -EINVAL;
	}
	if (ws_probe_cmd_parse(arg, &c, why, WHY_LEN))
		return -EINVAL;
	if (!c.name[0])
		snprintf(c.name, sizeof(c.name), cfg->set.cmds.n ? "cmd%u" : "cmd",
			 cfg->set.cmds.n + 1);
	for (unsigned int i = 0; i < cfg->set.cmds.n; i++)
		if (!strcmp(cfg->set.cmds.list[i].name, c.name)) {
			snprintf(why, WHY_LEN, "the name '%s' is taken by another --probe-cmd", c.name);
			return -EINVAL;
		}
	cfg->set.cmds.list[cfg->set.cmds.n++] = c;
	return 0;
}

static int parse_probe_user(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct passwd *pw = getpwnam(arg);

	if (!pw) {
		snprintf(why, WHY_LEN, "no such user");
		return -EINVAL;
	}
	if (geteuid() != 0 && pw->pw_uid != geteuid()) {
		snprintf(why, WHY_LEN, "only root can run a command as another user");
		return -EPERM;
	}
	cfg->probe_user = arg;
	return 0;
}

/* Its row's words: the first false, the second true. */
static int parse_two_words(const char *name, void *dest, const char *arg, char *why)
{
	const struct ws_field *f = ws_field_of(name);

	for (int i = 0; i < 2; i++)
		if (!strcmp(arg, f->words[i])) {
			*(bool *)((char *)dest + f->opt.offset) = i == 1;
			return 0;
		}
	snprintf(why, WHY_LEN, "expected %s or %s", f->words[0], f->words[1]);
	return -EINVAL;
}

static int parse_sqlite_journal(void *dest, const char *arg, char *why)
{
	return parse_two_words("sqlite-journal", dest, arg, why);
}

static int parse_sqlite_sync(void *dest, const char *arg, char *why)
{
	return parse_two_words("sqlite-sync", dest, arg, why);
}

/* its row's words are enum ws_colour's, in order */
static int parse_colour(void *dest, const char *arg, char *why)
{
	const char *const *words = ws_field_of("color")->words;
	struct ws_config *cfg = dest;

	for (size_t i = 0; words[i]; i++)
		if (!strcmp(arg, words[i])) {
			cfg->colour = (enum ws_colour)i;
			return 0;
		}
	snprintf(why, WHY_LEN, "expected auto, always or never");
	return -EINVAL;
}

static int parse_no_probe(void *dest, const char *arg, char *why)
{
	(void)arg;
	(void)why;
	((struct ws_config *)dest)->set.probes = 0;
	return 0;
}

static int parse_probe_sync(void *dest, const char *arg, char *why)
{
	return parse_two_words("probe-sync", dest, arg, why);
}

static int parse_steady_criterion(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct ws_analysis_params p = { .criterion = WS_STEADY_SNIA };

	if (ws_steady_criterion_parse(arg, &p)) {
		snprintf(why, WHY_LEN, "expected snia, bw-slope:PCT or bw-dev:PCT (PCT in (0, 1000], e.g. bw-slope:0.5%%)");
		return -EINVAL;
	}
	cfg->steady_criterion = (int)p.criterion;
	cfg->steady_limit_pct = p.limit_pct;
	cfg->steady_slope_pct = p.slope_pct;
	return 0;
}

/* "2x" (times the device's capacity, up to 1000) or a SIZE. */
static int parse_precondition(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;
	struct units_error e;
	size_t n = strlen(arg);

	cfg->set.steady.precondition_set = true;
	if (n && (arg[n - 1] == 'x' || arg[n - 1] == 'X')) {
		double v = 0, scale = 0.1;
		const char *p = arg;
		bool digits = false;

		for (; *p >= '0' && *p <= '9'; p++, digits = true)
			v = v * 10 + (*p - '0');
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++, scale /= 10, digits = true)
				v += (*p - '0') * scale;
		if (!digits || p != arg + n - 1 || v > 1000) {
			snprintf(why, WHY_LEN, "expected a SIZE or a multiple of the device's capacity such as 2x (at most 1000x)");
			return -EINVAL;
		}
		cfg->precondition_mult = v;
		cfg->set.steady.precondition_bytes = 0;
		return 0;
	}
	cfg->precondition_mult = 0;
	if (units_parse_size(arg, &cfg->set.steady.precondition_bytes, &e)) {
		snprintf(why, WHY_LEN, "%s", e.msg);
		return -EINVAL;
	}
	return 0;
}

static int parse_scheduler(void *dest, const char *arg, char *why)
{
	if (!*arg || strpbrk(arg, " /\n[]")) {
		snprintf(why, WHY_LEN, "expected a scheduler name such as mq-deadline, bfq, kyber or none");
		return -EINVAL;
	}
	((struct ws_config *)dest)->set.scheduler = arg;
	return 0;
}

/* "rt", "be:4", "idle"; the level defaults to 4 */
static int ioprio_of(const char *arg, int *class, int *level, char *why)
{
	size_t n = strcspn(arg, ":");
	uint64_t v = 4;

	for (int c = WS_IOPRIO_RT; c <= WS_IOPRIO_IDLE; c++) {
		const char *name = ws_ioprio_class_name(c);

		if (strlen(name) != n || strncmp(arg, name, n))
			continue;
		if (arg[n] && c == WS_IOPRIO_IDLE) {
			snprintf(why, WHY_LEN, "the idle class has no level");
			return -EINVAL;
		}
		if (arg[n] && (arg[n + 1] < '0' || arg[n + 1] > '7' || arg[n + 2])) {
			snprintf(why, WHY_LEN, "must be between 0 and 7");
			return -EINVAL;
		}
		if (arg[n])
			v = (uint64_t)(arg[n + 1] - '0');
		*class = c;
		*level = (int)v;
		return 0;
	}
	snprintf(why, WHY_LEN, "expected rt[:0-7], be[:0-7] or idle");
	return -EINVAL;
}

static int parse_ioprio(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	return ioprio_of(arg, &cfg->set.ioprio_class, &cfg->set.ioprio_level, why);
}

static int parse_probe_ioprio(void *dest, const char *arg, char *why)
{
	struct ws_config *cfg = dest;

	return ioprio_of(arg, &cfg->set.probe_ioprio_class, &cfg->set.probe_ioprio_level, why);
}

/* ---- the rows --------------------------------------------------------------- */

static const struct attachment {
	const char *name;
	int (*parse)(void *dest, const char *arg, char *why);
	size_t offset;		/* a wiring row's */
} attachments[] = {
	{ "file-size", NULL, offsetof(struct ws_config, file_size) },
	{ "reserve", NULL, offsetof(struct ws_config, reserve) },
	{ "pace", parse_pace, 0 },
	{ "steer-by", parse_steer_by, 0 },
	{ "data", parse_data, 0 },
	{ "probe", parse_probe, 0 },
	{ "no-probe", parse_no_probe, 0 },
	{ "probe-sync", parse_probe_sync, 0 },
	{ "sqlite-journal", parse_sqlite_journal, 0 },
	{ "sqlite-sync", parse_sqlite_sync, 0 },
	{ "probe-cmd", parse_probe_cmd, 0 },
	{ "probe-user", parse_probe_user, 0 },
	{ "prom", parse_prom, 0 },
	{ "steady-criterion", parse_steady_criterion, 0 },
	{ "precondition", parse_precondition, 0 },
	{ "verify", NULL, offsetof(struct ws_config, verify) },
	{ "scheduler", parse_scheduler, 0 },
	{ "ioprio", parse_ioprio, 0 },
	{ "probe-ioprio", parse_probe_ioprio, 0 },
	{ "quiet", NULL, offsetof(struct ws_config, quiet) },
	{ "verbose", NULL, offsetof(struct ws_config, verbose) },
	{ "color", parse_colour, 0 },
	{ "force", NULL, offsetof(struct ws_config, force) },
	{ "remove", NULL, offsetof(struct ws_config, remove_after) },
};

#define MAX_ROWS 96
static struct cli_option rows[MAX_ROWS];
static size_t nrows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

static const struct attachment *attachment_of(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(attachments); i++)
		if (!strcmp(attachments[i].name, name))
			return &attachments[i];
	return NULL;
}

/* False when a new row lacks its parser or place here. */
static bool complete(const struct ws_field *f, struct cli_option *o)
{
	const struct attachment *a = o->name ? attachment_of(o->name) : NULL;

	if (a && a->parse)
		o->parse = a->parse;
	if (a && f->wiring)
		o->offset = a->offset;
	if (o->type == CLI_CUSTOM)
		return o->parse != NULL;
	return !f->wiring || o->offset;
}

static void build_rows(void)
{
	size_t n;
	const struct ws_field *f = ws_fields(&n);

	for (size_t i = 0; i < n; i++) {
		struct cli_option o = f[i].opt;

		if (!o.name && !o.help)
			continue;	/* a result key only */
		if (nrows == MAX_ROWS || !complete(&f[i], &o)) {
			fprintf(stderr, "writestress: internal error: the option table at --%s\n",
				o.name ? o.name : "(heading)");
			abort();
		}
		rows[nrows++] = o;
	}
}

const struct cli_option *config_options(size_t *n)
{
	pthread_once(&rows_once, build_rows);
	*n = nrows;
	return rows;
}

const struct cli_option *config_option(const char *name)
{
	size_t n;
	const struct cli_option *o = config_options(&n);

	for (size_t i = 0; i < n; i++)
		if (o[i].name && !strcmp(o[i].name, name))
			return &o[i];
	return NULL;
}
