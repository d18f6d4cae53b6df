/* opts_rules.c - opts_parse(): the rules between the run's options and
 * its operands that no single row can state.  A pace mode or probe
 * declares its own options (pace.h, probe.h), so no mode is named here.
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/units.h"
#include "engine/datagen.h"
#include "engine/pace.h"
#include "probes/probe.h"
#include "commands.h"
#include "opts.h"

#define SNIA_MAX_ROUNDS 25	/* SNIA PTS: steady within 25 rounds or not */

static unsigned int results_to_stdout(const struct ws_config *cfg)
{
	const char *p[] = { cfg->set.json_path, cfg->set.csv_path, cfg->set.svg_path };
	unsigned int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(p); i++)
		n += p[i] && !strcmp(p[i], "-");
	return n;
}

bool opts_result_to_stdout(const struct ws_config *cfg)
{
	return results_to_stdout(cfg) > 0;
}

__attribute__((format(printf, 2, 3)))
static enum opts_result usage_error(FILE *err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_usage_error(opts_cli(), err, "%s", msg);
	return OPTS_USAGE;
}

static bool given(const bool *seen, const char *name)
{
	const struct cli_option *o = cli_find(opts_cli(), name);

	return o && seen[o - opts_cli()->opts];
}

static bool listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

static enum opts_result check_pace_options(const struct ws_config *cfg,
					   const bool *seen, FILE *err)
{
	const struct pace_ops *mode = pace_modes[cfg->set.pace];

	for (size_t i = 0; i < opts_cli()->nopts; i++) {
		const char *name = opts_cli()->opts[i].name;
		char modes[96];
		struct ws_buf b = WS_BUF(modes);

		if (!name || !seen[i] || listed(mode->options, name))
			continue;
		for (int m = 0; m < WS_PACE_NR; m++)
			if (listed(pace_modes[m]->options, name))
				ws_buf_item(&b, " or ", "%s", ws_pace_name((enum ws_pace)m));
		if (b.len)
			return usage_error(err, "--%s needs --pace %s, not %s", name,
					   modes, ws_pace_name(cfg->set.pace));
	}
	if (mode->size_align && cfg->set.total_size % mode->size_align) {
		char a[32];

		return usage_error(err, "invalid --size '%llu': must be a multiple of %s with --pace %s",
				   (unsigned long long)cfg->set.total_size,
				   cli_bound_text(a, sizeof(a), mode->size_align), ws_pace_name(cfg->set.pace));
	}
	return OPTS_RUN;
}

/* The option a probe cannot run without, given alone, adds that probe. */
static enum opts_result check_probe_options(struct ws_config *cfg,
					    const bool *seen, FILE *err)
{
	for (int k = 0; k < WS_PROBE_NR; k++) {
		const struct probe_ops *p = probe_kinds[k];

		if (p->needs && given(seen, p->needs) && !given(seen, "probe") &&
		    !given(seen, "no-probe"))
			cfg->set.probes |= 1u << k;
		if (p->needs && (cfg->set.probes & (1u << k)) && !given(seen, p->needs))
			return usage_error(err, "--probe %s needs --%s %s, %s",
					   ws_probe_kind_name((enum ws_probe_kind)k),
					   p->needs, cli_find(opts_cli(), p->needs)->arg,
					   p->needs_what);
	}
	for (size_t i = 0; i < opts_cli()->nopts; i++) {
		const char *name = opts_cli()->opts[i].name;
		char probes[64];
		struct ws_buf b = WS_BUF(probes);
		bool taken = false;

		if (!name || !seen[i])
			continue;
		for (int k = 0; k < WS_PROBE_NR; k++) {
			if (!listed(probe_kinds[k]->options, name))
				continue;
			ws_buf_item(&b, " or ", "%s", ws_probe_kind_name((enum ws_probe_kind)k));
			taken |= (cfg->set.probes & (1u << k)) != 0;
		}
		if (b.len && !taken)
			return usage_error(err, "--%s needs %s in --probe", name, probes);
	}
	return OPTS_RUN;
}

static enum opts_result check_steer_by(const struct ws_config *cfg, FILE *err)
{
	unsigned int missing = cfg->set.pacing.steer_by & ~cfg->set.probes;

	for (int k = 0; k < WS_PROBE_NR; k++) {
		const char *name = ws_probe_kind_name((enum ws_probe_kind)k);

		if (missing & (1u << k))
			return usage_error(err, "--steer-by %s: the %s probe does not run (add it to --probe)",
					   name, name);
	}
	return OPTS_RUN;
}

/* A run that nothing ends fills the disk: only on purpose, with
 * --forever, never because a word was mistyped. */
static enum opts_result check_bound(const struct ws_config *cfg, const bool *seen,
				    FILE *err)
{
	static const char *const bounds[] = { "time", "size", "buffers", "until-steady" };
	const char *bound = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(bounds) && !bound; i++)
		if (given(seen, bounds[i]))
			bound = bounds[i];
	if (cfg->set.forever && bound)
		return usage_error(err, "--forever and --%s: give one (--forever writes until interrupted)",
				   bound);
	if (!cfg->set.forever && !bound)
		return usage_error(err, "refusing to write '%s' without a bound: add -t 30s, -s 1G or -b 100 (or --forever, until interrupted)",
				   cfg->set.path);
	return OPTS_RUN;
}

/* Two files on one path: the one written last would replace the other. */
static enum opts_result check_paths(const struct ws_config *cfg, FILE *err)
{
	const struct { const char *opt, *path; } out[] = {
		{ "--json", cfg->set.json_path }, { "--csv", cfg->set.csv_path },
		{ "--svg", cfg->set.svg_path }, { "--prom", cfg->set.prom_path },
	};

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		if (!out[i].path || !strcmp(out[i].path, "-"))
			continue;
		for (size_t k = 0; k < i; k++)
			if (out[k].path && strcmp(out[k].path, "-") &&
			    ws_same_path(out[i].path, out[k].path))
				return usage_error(err, "invalid %s '%s': the same file as %s '%s'",
						   out[i].opt, out[i].path, out[k].opt, out[k].path);
		for (unsigned int t = 0; t < cfg->ntargets; t++)
			if (ws_same_path(out[i].path, cfg->paths[t]))
				return usage_error(err, "invalid %s '%s': the same file as the target FILE '%s'",
						   out[i].opt, out[i].path, cfg->paths[t]);
	}
	return OPTS_RUN;
}

enum opts_result opts_check(struct ws_config *cfg, const bool *seen, FILE *err)
{
	if (check_pace_options(cfg, seen, err) != OPTS_RUN ||
	    check_probe_options(cfg, seen, err) != OPTS_RUN ||
	    check_steer_by(cfg, err) != OPTS_RUN)
		return OPTS_USAGE;
	cfg->reserve_set = given(seen, "reserve");
	cfg->set.steady.asked = cfg->set.steady.until || given(seen, "precondition") ||
				given(seen, "steady-window") || given(seen, "steady-round") ||
				given(seen, "steady-criterion");
	if (cfg->set.trace_required && cfg->set.no_trace)
		return usage_error(err, "--trace and --no-trace: give one");
	if (results_to_stdout(cfg) > 1)
		return usage_error(err, "only one of --json, --csv and --svg can be '-' (stdout)");
	if (check_paths(cfg, err) != OPTS_RUN)
		return OPTS_USAGE;
	/* two answers to "how much": honouring one would ignore the other */
	if (given(seen, "buffers") && given(seen, "size")) {
		char a[32];

		return usage_error(err, "-b %llu and --size both say how much to write: give one (-b %llu is %s of --buffer-size)",
				   (unsigned long long)cfg->set.buffers,
				   (unsigned long long)cfg->set.buffers,
				   units_format_size(a, sizeof(a), cfg->set.buffers * cfg->set.buffer_size));
	}
	if (cfg->verify && !datagen_stamped(cfg->set.data))
		return usage_error(err, "--verify needs stamped data: --data random or compressible, not %s",
				   ws_data_name(cfg->set.data));
	if (cfg->set.steady.round_ns < cfg->set.interval_ns)
		return usage_error(err, "invalid --steady-round: shorter than the --interval it is made of");
	if (given(seen, "steady-max-rounds") && !cfg->set.steady.until)
		return usage_error(err, "--steady-max-rounds needs --until-steady");
	if (cfg->set.steady.until && !given(seen, "steady-max-rounds"))
		cfg->set.steady.max_rounds = cfg->set.steady.window > SNIA_MAX_ROUNDS ?
					 cfg->set.steady.window : SNIA_MAX_ROUNDS;
	if (cfg->set.steady.max_rounds && cfg->set.steady.max_rounds < cfg->set.steady.window)
		return usage_error(err, "invalid --steady-max-rounds '%u': fewer than the %u rounds of one --steady-window",
				   cfg->set.steady.max_rounds, cfg->set.steady.window);
	return check_bound(cfg, seen, err);
}

/* dd's bs=1M count=10 as operands, not files named "bs=1M"; true when it
 * said so, as the other mistakes below. */
static bool dd_operand(const char *arg, FILE *err)
{
	static const struct { const char *key, *ours; } dd[] = {
		{ "bs=", "-B %s" }, { "obs=", "-B %s" }, { "count=", "-b %s" },
		{ "of=", "%s as the FILE operand" }, { "oflag=", "--pace (direct, dontcache ...) for %s" },
		{ "if=", "no input: writestress makes its data (--data) for %s" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(dd); i++) {
		size_t k = strlen(dd[i].key);
		char ours[160];

		if (strncmp(arg, dd[i].key, k) || access(arg, F_OK) == 0)
			continue;
		snprintf(ours, sizeof(ours), dd[i].ours, arg + k);
		usage_error(err, "invalid FILE '%s': dd's syntax; writestress says %s (a file really named so: ./%s)",
			    arg, ours, arg);
		return true;
	}
	return false;
}

static const char *const not_subcommands[] = { "run", "start", "stop", "status", "bench", "demo" };

/* A subcommand's name or within two edits of one (`matrx`): a typo that
 * would otherwise write a file of that name. */
static bool subcommand_like(const char *arg, FILE *err)
{
	const char *words[16];
	size_t n, nw = 0;
	const struct ws_command *cmds = ws_commands(&n);
	const char *w;

	for (size_t i = 0; i < n && nw < ARRAY_SIZE(words); i++)
		words[nw++] = cmds[i].name;
	w = cli_closest(arg, words, nw, 2);
	if (!w)
		w = cli_closest(arg, (const char *const[]){ "help", "version" }, 2,
				strlen(arg) > 4 ? 2 : 1);
	for (size_t i = 0; !w && i < ARRAY_SIZE(not_subcommands); i++)
		if (!strcmp(arg, not_subcommands[i])) {
			usage_error(err, "invalid FILE '%s': writestress has no subcommand '%s'; a run is writestress [OPTION]... FILE (a file really named so: ./%s)",
				    arg, arg, arg);
			return true;
		}
	if (!w)
		return false;
	if (!strcmp(w, "help") || !strcmp(w, "version"))
		usage_error(err, "invalid FILE '%s': did you mean writestress --%s? (a file really named so: ./%s)",
			    arg, w, arg);
	else if (!strcmp(w, arg))
		usage_error(err, "invalid FILE '%s': a subcommand comes first, before any option: writestress %s ... (a file really named so: ./%s)",
			    arg, w, arg);
	else
		usage_error(err, "invalid FILE '%s': did you mean writestress %s? (a file really named so: ./%s)",
			    arg, w, arg);
	return true;
}

/* "min", "M", "GiB", "M/s", "%" */
static bool unit_word(const char *word)
{
	char one[64];
	struct units_error e;
	uint64_t v;

	if (!strcmp(word, "%"))
		return true;
	if (!*word || strlen(word) > 16 || strspn(word, "0123456789.") || word[0] == '/')
		return false;
	snprintf(one, sizeof(one), "1%s", word);
	return !units_parse_size(one, &v, &e) || !units_parse_duration(one, &v, &e) ||
	       !units_parse_rate(one, &v, &e);
}

static const struct cli_option *option_named(const char *word)
{
	if (!strncmp(word, "--", 2))
		return cli_find(opts_cli(), word + 2);
	if (word[0] == '-' && word[1] && !word[2])
		for (size_t i = 0; i < opts_cli()->nopts; i++)
			if (opts_cli()->opts[i].name && opts_cli()->opts[i].key == word[1])
				return &opts_cli()->opts[i];
	return NULL;
}

/* A unit typed apart from its number (`-t 5 min`); words: argv before
 * getopt reordered it. */
static bool unit_operand(const char *arg, char *const *words, int nwords, FILE *err)
{
	char meant[128] = "";
	int at = -1;

	if (!unit_word(arg))
		return false;
	for (int i = 1; i < nwords; i++)
		if (words[i] == arg)
			at = i;
	if (at >= 3 && strspn(words[at - 1], "0123456789.") == strlen(words[at - 1])) {
		const struct cli_option *o = option_named(words[at - 2]);
		bool minutes = (!strcmp(arg, "m") || !strcmp(arg, "M")) && o &&
			       o->type == CLI_DURATION;

		if (o && o->arg)
			snprintf(meant, sizeof(meant), "did you mean %s %s%s?", words[at - 2],
				 words[at - 1], !strcmp(arg, "%") ? "" : minutes ? "min" : arg);
	}
	if (meant[0])
		usage_error(err, "invalid FILE '%s': a unit cut from its number: %s (a file really named so: ./%s)",
			    arg, meant, arg);
	else
		usage_error(err, "invalid FILE '%s': it reads as a unit, not a file; a unit follows its number with no space (a file really named so: ./%s)",
			    arg, arg);
	return true;
}

/* Says if the last option took the FILE as its value (--json f.dat). */
enum opts_result opts_missing_file(int argc, char **argv, FILE *err)
{
	const char *opt = argc >= 3 ? argv[argc - 2] : "";
	const struct cli_option *o = NULL;

	if (!strncmp(opt, "--", 2) && !strchr(opt, '='))
		o = cli_find(opts_cli(), opt + 2);
	else if (opt[0] == '-' && opt[1] && !opt[2])
		for (size_t i = 0; i < opts_cli()->nopts; i++)
			if (opts_cli()->opts[i].name && opts_cli()->opts[i].key == opt[1])
				o = &opts_cli()->opts[i];
	if (o && o->arg && argv[argc - 1][0] != '-')
		return usage_error(err, "missing FILE operand: %s took '%s' as its value; name the FILE after it",
				   opt, argv[argc - 1]);
	return usage_error(err, "missing FILE operand");
}

/* FILE.1 ... FILE.N, for the life of the process */
static char job_paths[WS_MAX_TARGETS][PATH_MAX];

static bool mistyped(const char *file, char *const *words, int nwords, FILE *err)
{
	struct stat st;

	if (lstat(file, &st) == 0)
		return false;
	return dd_operand(file, err) || unit_operand(file, words, nwords, err) ||
	       (!strchr(file, '/') && subcommand_like(file, err));
}

enum opts_result opts_take_targets(struct ws_config *cfg, int n,
				   char **files, char *const *words, int nwords,
				   FILE *err)
{
	if (n > WS_MAX_TARGETS)
		return usage_error(err, "too many FILE operands (%d): at most %d targets in one run",
				   n, WS_MAX_TARGETS);
	if (cfg->set.jobs && n > 1)
		return usage_error(err, "unexpected argument '%s': --jobs %u takes one FILE and writes FILE.1 ... FILE.%u",
				   files[1], cfg->set.jobs, cfg->set.jobs);
	for (int i = 0; i < n; i++) {
		if (!*files[i])
			return usage_error(err, "invalid FILE '': empty name");
		if (mistyped(files[i], words, nwords, err))
			return OPTS_USAGE;
		for (int j = 0; j < i; j++)
			if (!strcmp(files[i], files[j]))
				return usage_error(err, "invalid FILE '%s': named twice", files[i]);
		cfg->paths[i] = files[i];
	}
	cfg->ntargets = (unsigned int)n;
	for (unsigned int i = 0; cfg->set.jobs && i < cfg->set.jobs; i++) {
		if ((size_t)snprintf(job_paths[i], sizeof(job_paths[i]), "%s.%u",
				     files[0], i + 1) >= sizeof(job_paths[i]))
			return usage_error(err, "invalid FILE '%s': too long for --jobs", files[0]);
		cfg->paths[i] = job_paths[i];
		cfg->ntargets = cfg->set.jobs;
	}
	cfg->set.path = cfg->paths[0];
	return OPTS_RUN;
}

enum opts_result opts_parse(int argc, char **argv, struct ws_config *cfg,
			    FILE *err)
{
	bool *seen = calloc(opts_cli()->nopts, sizeof(*seen));
	/* the words as typed: getopt moves the operands to the end */
	char **words = calloc((size_t)argc + 1, sizeof(*words));
	enum opts_result res = OPTS_USAGE;
	int first;

	if (!seen || !words) {
		free(seen);
		free(words);
		fprintf(err, "writestress: %s\n", strerror(ENOMEM));
		return OPTS_USAGE;
	}
	memcpy(words, argv, (size_t)argc * sizeof(*words));
	config_defaults(cfg);
	switch (cli_parse(opts_cli(), argc, argv, cfg, seen, &first, err)) {
	case CLI_EXIT_OK:
		res = OPTS_EXIT_OK;
		break;
	case CLI_USAGE:
		break;
	case CLI_RUN:
		if (first == argc)
			res = opts_missing_file(argc, argv, err);
		else if (opts_take_targets(cfg, argc - first, argv + first, words, argc,
					   err) == OPTS_RUN)
			res = opts_check(cfg, seen, err);
		break;
	}
	free(seen);
	free(words);
	return res;
}
