/* matrix_main.c - `writestress matrix`: the command line checked, the
 * runs, the table and the files. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/exit.h"
#include "lib/units.h"
#include "system/kstat.h"
#include "outputs/sink.h"
#include "cmd/matrix/matrix.h"
#include "matrix_files.h"
#include "matrix_state.h"

#define HELP_SHOWN (-1)	/* setup(): --help was printed, exit 0 */

static int parse_each(struct matrix_state *m)
{
	const char *e = m->args.each ? m->args.each : "15s";
	struct units_error err;
	uint64_t v;

	/* m and M are mebibytes: only a bare number is both */
	if (*e && strspn(e, "0123456789.") == strlen(e)) {
		cli_usage_error(matrix_options(), stderr,
				"invalid --each '%s': a bare number could be %ss or %s bytes; write %ss for a time or %sM for a size",
				e, e, e, e, e);
		return -EINVAL;
	}
	if (!units_parse_duration(e, &v, &err)) {
		if (v >= WS_NSEC_PER_SEC) {
			m->mc.each_ns = v;
			return 0;
		}
		snprintf(err.msg, sizeof(err.msg), "a time must be at least 1 s");
	} else if (!units_parse_size(e, &v, &err)) {
		if (v >= WS_MIB) {
			m->mc.each_bytes = v;
			return 0;
		}
		snprintf(err.msg, sizeof(err.msg), "a size must be at least 1 MiB");
	} else {
		snprintf(err.msg, sizeof(err.msg), "expected a time (15s, 2min) or a size (512M, 2G)");
	}
	cli_usage_error(matrix_options(), stderr, "invalid --each '%s': %s", e, err.msg);
	return -EINVAL;
}

static const char *each_text(const struct matrix_state *m, char *buf, size_t len)
{
	if (m->mc.each_bytes)
		return units_format_size(buf, len, m->mc.each_bytes);
	return units_format_duration(buf, len, m->mc.each_ns);
}

/* The files are written hours on: a clash is said now. */
static int check_outputs(const struct matrix_state *m)
{
	const struct { const char *opt, *path; } out[] = {
		{ "--json", m->args.json_path }, { "--svg", m->args.svg_path },
	};
	char err[600];
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		if (!out[i].path)
			continue;
		if (ws_same_path(out[i].path, m->mc.file) ||
		    (i && out[0].path && ws_same_path(out[i].path, out[0].path))) {
			cli_usage_error(matrix_options(), stderr, "invalid %s '%s': the same file as %s",
					out[i].opt, out[i].path,
					ws_same_path(out[i].path, m->mc.file) ? "FILE" : "--json");
			return WS_EXIT_USAGE;
		}
		ret = sink_check_path(out[i].path, m->args.force, err, sizeof(err));
		if (ret == -EPERM) {
			cli_error(matrix_options(), stderr, "refusing to replace %s: %s", out[i].opt, err);
			fprintf(stderr, "hint: name another file, remove it, or add --force to replace it\n");
			return WS_EXIT_REFUSED;
		}
		if (ret) {
			cli_usage_error(matrix_options(), stderr, "invalid %s '%s': %s", out[i].opt,
					out[i].path, err);
			return WS_EXIT_USAGE;
		}
	}
	return 0;
}

static int setup(struct matrix_state *m, int argc, char **argv)
{
	char why[256];
	int first, status;
	struct ws_meminfo mi;

	if (cli_defaults(matrix_options(), &m->args, why)) {
		cli_error(matrix_options(), stderr, "internal error: %s", why);
		abort();
	}
	switch (cli_parse(matrix_options(), argc, argv, &m->args, m->seen, &first, stderr)) {
	case CLI_EXIT_OK:
		return HELP_SHOWN;
	case CLI_USAGE:
		return WS_EXIT_USAGE;
	case CLI_RUN:
		break;
	}
	if (argc - first != 1) {
		cli_usage_error(matrix_options(), stderr, argc == first ? "missing FILE" :
				"unexpected argument '%s' (one FILE)", argv[first + 1]);
		return WS_EXIT_USAGE;
	}
	/* the table is on stdout: a result there would be mixed into it */
	if ((m->args.json_path && !strcmp(m->args.json_path, "-")) ||
	    (m->args.svg_path && !strcmp(m->args.svg_path, "-"))) {
		cli_usage_error(matrix_options(), stderr, "invalid --%s '-': the matrix writes its table to stdout; name a file",
				m->args.json_path && !strcmp(m->args.json_path, "-") ? "json" : "svg");
		return WS_EXIT_USAGE;
	}
	if (matrix_parse_strategies(m->args.strategies ? m->args.strategies :
				    MATRIX_DEFAULT_LIST, m->s, &m->ns, why, sizeof(why))) {
		cli_usage_error(matrix_options(), stderr, "invalid --strategies: %s", why);
		return WS_EXIT_USAGE;
	}
	if (parse_each(m))
		return WS_EXIT_USAGE;
	if (matrix_parse_settings(&m->st, matrix_options(), m->args.schedulers,
				  m->args.dirty_bytes))
		return WS_EXIT_USAGE;
	if (m->args.idle_x && (!m->s[0].idle || m->args.shuffle ||
			       m->seen[cli_find(matrix_options(), "target-latency") - matrix_options()->opts])) {
		cli_usage_error(matrix_options(), stderr, "invalid --idle-x '%u': %s", m->args.idle_x,
				!m->s[0].idle ? "the target comes from the idle row: list idle first in --strategies" :
				m->args.shuffle ? "the idle row must run first: not with --shuffle" :
				"it sets the target: not with --target-latency");
		return WS_EXIT_USAGE;
	}
	m->total = (m->st.n ? m->st.n : 1) * m->args.repeat * m->ns;
	if (m->total > MATRIX_MAX_RUNS) {
		cli_usage_error(matrix_options(), stderr, "invalid --repeat '%u': %u runs in all, at most %d",
				m->args.repeat, m->total, MATRIX_MAX_RUNS);
		return WS_EXIT_USAGE;
	}
	m->mc.self = "/proc/self/exe";
	m->mc.file = argv[first];
	if ((status = check_outputs(m)))
		return status;
	m->mc.file_size = m->args.file_size;
	matrix_pass_on(m);
	snprintf(m->tmpdir, sizeof(m->tmpdir), "/tmp/writestress-matrix.XXXXXX");
	if (!mkdtemp(m->tmpdir)) {
		cli_error(matrix_options(), stderr, "cannot make a directory in /tmp: %s",
			strerror(errno));
		return WS_EXIT_FAILURE;
	}
	if (!kstat_meminfo("", &mi))
		m->idle_dirty = mi.dirty + mi.writeback;
	return 0;
}

static int write_files(const struct matrix_state *m, const struct matrix_row *rows,
		       size_t nrows, int best, int status)
{
	struct matrix_doc d = {
		.s = m->s, .ns = m->ns, .o = m->runs.o, .results = m->runs.results,
		.no = m->runs.n, .rows = rows, .nrows = nrows, .best = best,
		.target_ms = (double)m->mc.target_latency_ns / 1e6,
		.headroom_pct = m->mc.headroom_pct,
		.each_bytes = m->mc.each_bytes, .each_ns = m->mc.each_ns,
		.setting_kind = m->st.kind, .settings = m->st.names,
		.nsettings = m->st.n, .complete = m->runs.n == m->total && !matrix_interrupted(),
		.force = m->args.force,
	};
	char err[600];

	if (m->args.json_path && matrix_write_json(m->args.json_path, &d, err, sizeof(err))) {
		cli_error(matrix_options(), stderr, "%s", err);
		status = status ? status : WS_EXIT_FAILURE;
	}
	if (m->args.svg_path && matrix_write_svg(m->args.svg_path, &d, err, sizeof(err))) {
		cli_error(matrix_options(), stderr, "%s", err);
		status = status ? status : WS_EXIT_FAILURE;
	}
	return status;
}

int matrix_main(int argc, char **argv)
{
	struct matrix_state *m = calloc(1, sizeof(*m));
	struct matrix_row rows[MATRIX_MAX_STRATEGIES * MATRIX_MAX_SETTINGS];
	size_t nrows;
	int status, best, sig;
	char self[4096], each[32];
	ssize_t n;

	if (!m)
		return WS_EXIT_FAILURE;
	status = setup(m, argc, argv);
	if (status) {
		free(m);
		return status == HELP_SHOWN ? WS_EXIT_OK : status;
	}
	/* the children run this very binary, by its path at the start */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		m->mc.self = self;
	}
	matrix_catch_signals();
	fprintf(stdout, "writestress matrix: %u %s on %s, %s each, target p99 ",
		m->ns, m->ns == 1 ? "strategy" : "strategies", m->mc.file,
		each_text(m, each, sizeof(each)));
	if (m->args.idle_x)
		fprintf(stdout, "%ux the idle row's\n", m->args.idle_x);
	else
		fprintf(stdout, "%.0f ms\n", (double)m->mc.target_latency_ns / 1e6);
	for (unsigned int i = 0; i < m->ns; i++)
		if (m->s[i].pace == WS_PACE_ADAPTIVE && !m->s[i].idle) {
			fprintf(stdout, "  adaptive steers at %u%% of the target (its p99 holds within 20%% over where it steers)\n",
				MATRIX_ADAPTIVE_AIM_PCT);
			break;
		}
	fflush(stdout);	/* what it understood, before minutes of runs */
	status = matrix_lay_out(m);
	if (!status) {
		if (!m->mc.file_size)
			m->mc.file_size = m->args.file_size;
		status = matrix_run_all(m);
	}
	matrix_restore_settings(&m->st);
	nrows = matrix_rows(m->runs.o, m->runs.n, m->s, m->ns, m->st.n, rows);
	best = matrix_judge(rows, nrows, m->s);
	fputc('\n', stdout);
	matrix_print(stdout, rows, nrows, m->s, m->st.n ? m->st.names : NULL,
		     m->st.kind, best, (double)m->mc.target_latency_ns / 1e6);
	if (matrix_interrupted())
		fprintf(stdout, "  interrupted: %zu of %u runs done\n", m->runs.n, m->total);
	status = write_files(m, rows, nrows, best, status);
	matrix_runs_free(&m->runs);
	rmdir(m->tmpdir);
	free(m);
	sig = matrix_interrupted();
	return sig ? (sig == SIGTERM ? WS_EXIT_SIGTERM : WS_EXIT_SIGINT) : status;
}
