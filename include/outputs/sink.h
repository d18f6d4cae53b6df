/* sink.h - one ops table per output, fed the record (record.h) by the
 * recorder thread (the header before it starts): nothing else branches on
 * the format.
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
	int (*close)(struct sink *s);	/* 0 or -errno */
	/* no summary came: free priv */
	void (*abort)(struct sink *s);
};

struct sink {
	const struct sink_ops *ops;
	FILE *out;
	int dirty_line;		/* a line awaits its newline */
	bool reader_gone;	/* EPIPE on stdout: now on stderr */
	bool to_stdout;		/* a file given as "-" */
	bool colour;
	bool verbose;		/* -v: the whole summary */
	unsigned int reach_said;	/* bit 0 the run, 1 + i target i */
	void *priv;
	const char *path;	/* file sinks */
	bool force;
	char tmp[4200];		/* renamed to path by close */
};

extern const struct sink_ops sink_live_ops;
extern const struct sink_ops sink_plain_ops;
extern const struct sink_ops sink_quiet_ops;
extern const struct sink_ops sink_json_ops;
extern const struct sink_ops sink_csv_ops;
extern const struct sink_ops sink_svg_ops;
extern const struct sink_ops sink_prom_ops;

#define WS_MAX_SINKS 8

struct sink_set {
	struct sink sinks[WS_MAX_SINKS];
	unsigned int n;
	/* told of each temporary, to remove at a sudden exit; may be NULL */
	void (*tmp_made)(int dirfd, const char *name);
	bool force;		/* may replace a file not ours */
};

int sink_add(struct sink_set *set, const struct sink_ops *ops, FILE *out);

/* Does path begin as writestress writes? */
bool sink_file_is_ours(const char *path);

/* 0: none, empty, ours, or a regular file with force.  Else -EPERM not
 * ours, -EEXIST not regular, err saying so. */
int sink_check_path(const char *path, bool force, char *err, size_t errlen);

/* Written to PATH.tmp.PID[.N] (exclusive, no symlink), renamed over PATH
 * by sink_close_file() after sink_check_path() again: PATH is whole, old
 * or new.  0 or -errno with err; -EINVAL: already an output. */
WS_MUST_CHECK int sink_add_file(struct sink_set *set, const struct sink_ops *ops,
		  const char *path, char *err, size_t errlen);
/* fsync, rename.  0, or -errno with the temporary removed. */
int sink_close_file(struct sink *s);
/* --prom: rename over PATH without fsync (a state, not a history) and
 * start the next temporary.  0 or -errno; s->out NULL if none made. */
int sink_publish_file(struct sink *s);
int sink_reopen_file(struct sink *s);
/* PATH keeps what it held. */
void sink_drop_file(struct sink *s);
/* Setup failed: drop every temporary. */
void sink_abort_all(struct sink_set *set);
void sink_header(struct sink_set *set, const struct ws_run *run);
void sink_interval(struct sink_set *set, const struct ws_run *run,
		   const struct ws_interval *iv);
void sink_summary(struct sink_set *set, const struct ws_run *run,
		  const struct ws_summary *sum);
/* Returns the first error. */
WS_MUST_CHECK int sink_close_all(struct sink_set *set);

/* "X GiB written in S s (N MiB/s)" */
void sink_format_result(char *buf, size_t len, const struct ws_summary *sum);

#endif
