/* sink.h - output sinks: where the run's header, interval records and
 * summary go.
 *
 * One interface for every output (the terminal's live line, plain lines,
 * --quiet, and the JSON, CSV and SVG result files); the recorder fans each
 * event out to all sinks, so no other code branches on the output format.
 * A sink formats the record (record.h) it is given: every figure, rule
 * and verdict is already in it, and a sink includes nothing of the
 * engine.  Sinks are driven by the recorder thread only (the header by the
 * main thread before the threads start).
 */
#ifndef WS_SINK_H
#define WS_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"

struct sink;

struct sink_ops {
	const char *name;
	void (*header)(struct sink *s, const struct ws_run *run);
	void (*interval)(struct sink *s, const struct ws_run *run,
			 const struct ws_interval *iv);
	void (*summary)(struct sink *s, const struct ws_run *run,
			const struct ws_summary *sum);
	/* 0 or -errno: a file sink that could not be completed */
	int (*close)(struct sink *s);
	/* the run ended before a summary: free what priv holds (may be
	 * NULL); sink_abort_all then removes the file's temporary */
	void (*abort)(struct sink *s);
};

struct sink {
	const struct sink_ops *ops;
	FILE *out;
	int dirty_line;		/* live sink: a line awaits its newline */
	bool reader_gone;	/* stdout's reader left (EPIPE): now on stderr */
	bool to_stdout;		/* a result file given as "-" */
	bool colour;		/* live sink: stalls in red (--color) */
	unsigned int reach_said;	/* human sinks: out-of-reach notes said,
					 * bit 0 the run's writer, bit 1 + i
					 * target i's */
	void *priv;		/* the sink's own state, its ops manage it */
	const char *path;	/* file sinks: the result's final name */
	bool force;		/* ... may replace a file not ours */
	char tmp[4200];		/* ... written here, renamed by close */
};

/* Terminal: a live line redrawn in place. */
extern const struct sink_ops sink_live_ops;
/* Pipes and logs: one key=value line per interval. */
extern const struct sink_ops sink_plain_ops;
/* --quiet: the summary only. */
extern const struct sink_ops sink_quiet_ops;
/* Result files (sink_add_file). */
extern const struct sink_ops sink_json_ops;
extern const struct sink_ops sink_csv_ops;
extern const struct sink_ops sink_svg_ops;
/* The live state for Prometheus (sink_prom.c), rewritten each interval. */
extern const struct sink_ops sink_prom_ops;

#define WS_MAX_SINKS 8

struct sink_set {
	struct sink sinks[WS_MAX_SINKS];
	unsigned int n;
	/* Told each result file's temporary as sink_add_file makes it, so
	 * the owner can still remove it if the process ends at once (the
	 * run hands in signals_unlink_at_exit); NULL: nobody is told. */
	void (*tmp_made)(int dirfd, const char *name);
	/* --force: a result may replace a file writestress did not write */
	bool force;
};

int sink_add(struct sink_set *set, const struct sink_ops *ops, FILE *out);

/* Does the file at path begin as one writestress writes (a result's,
 * matrix's or report's JSON schema, the Prometheus file's first HELP, a
 * run's or report's CSV header, an SVG titled writestress)?  Each sink's
 * golden output is held to it (tests/unit/outputs/test_sink.c). */
bool sink_file_is_ours(const char *path);

/* May a result be written at path?  0: nothing there, an empty file
 * (mktemp's), a regular file writestress wrote, or any regular file
 * with force.  Else nothing is touched and err says why: -EPERM "'F'
 * exists and writestress did not write it" (--force would take it),
 * -EEXIST "... is not a regular file" (nothing takes it). */
int sink_check_path(const char *path, bool force, char *err, size_t errlen);

/* A result file: written to PATH.tmp.PID (or PATH.tmp.PID.N past a stale
 * one of an earlier process with the same PID; created exclusively, never
 * through a symlink) and renamed over PATH by sink_close_file(), so PATH
 * is either the previous file or a complete new one.  PATH may replace
 * only what sink_check_path() allows (set->force), checked again just
 * before the rename.  0 or -errno with err filled: -EPERM or -EEXIST
 * refused (sink_check_path), -EINVAL the path is already another output,
 * else "cannot write '...': ...". */
WS_MUST_CHECK int sink_add_file(struct sink_set *set, const struct sink_ops *ops,
		  const char *path, char *err, size_t errlen);
/* For file sinks' close op: flush, fsync, rename.  0 or -errno; on
 * failure the temporary is removed. */
int sink_close_file(struct sink *s);
/* For a file sink that shows a state, not a history (--prom): publish
 * what was written since the last call as PATH, atomically (the
 * temporary renamed over it; no fsync: a reader wants a whole file, not a
 * durable one), and start the next temporary under the same name.  A
 * sink on stdout or a stream without a path is flushed.  0 or -errno;
 * PATH then holds the last state published, and s->out is the next
 * temporary, or NULL if it could not be made (see sink_reopen_file). */
int sink_publish_file(struct sink *s);
/* A file sink left without its temporary (s->out NULL) tries to make it
 * again: 0 (s->out set, or already was) or -errno. */
int sink_reopen_file(struct sink *s);
/* ... or drop it unwritten: PATH keeps what it held ("-": stdout stays
 * open). */
void sink_drop_file(struct sink *s);
/* Drop every file sink's temporary without publishing (setup failed). */
void sink_abort_all(struct sink_set *set);
void sink_header(struct sink_set *set, const struct ws_run *run);
void sink_interval(struct sink_set *set, const struct ws_run *run,
		   const struct ws_interval *iv);
void sink_summary(struct sink_set *set, const struct ws_run *run,
		  const struct ws_summary *sum);
/* Close all; returns the first error. */
WS_MUST_CHECK int sink_close_all(struct sink_set *set);

/* The result line every human-facing output shows (the summary, the
 * plot's title): "X GiB written in S s (N MiB/s)". */
void sink_format_result(char *buf, size_t len, const struct ws_summary *sum);

#endif
