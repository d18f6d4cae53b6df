/* probe.h - a desktop-latency probe: one small operation a person's
 * programs do all day, an ops row in probe_kinds[].  A struct probe is one
 * probe thread's; setup() and cleanup() run in the main thread.  Every
 * name it may leave is in probe_file_names(), for the signal handler.
 */
#ifndef WS_PROBE_H
#define WS_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "record/probe.h"

struct probe;

struct probe_ops {
	enum ws_probe_kind kind;
	/* 0 or -errno with p->err */
	int (*setup)(struct probe *p);
	/* untimed, before each run; may be NULL */
	void (*prepare)(struct probe *p);
	/* 0 or -errno; -ECANCELED: cut short by the run stopping, unrecorded */
	int (*run)(struct probe *p);
	void (*cleanup)(struct probe *p);
	/* NULL-terminated: a usage error without the probe */
	const char *const *options;
	/* an option it cannot run without, which given alone adds it */
	const char *needs;
	const char *needs_what;
	const char *setup_hint;
	const char *stands_for;
	size_t priv_size;	/* of p->priv; 0: none */
	/* once a --probe-cmd; its time is not the disk's: it never steers */
	bool per_command;
	/* waits for the disk an operation makes (adapt.h) */
	unsigned int (*syncs)(const struct probe *p);
};

extern const struct probe_ops *const probe_kinds[WS_PROBE_NR];

struct probe {
	const struct probe_ops *ops;
	const struct ws_config *cfg;
	void *priv;		/* zeroed by probe_init, freed by probe_cleanup */
	int dirfd;
	int fd;
	unsigned int instance;	/* cmd: which --probe-cmd */
	/* read by the signal handler (probe_file_names) */
	char name[64];
	char tmp_name[64];
	char aux_name[4][80];
	char dir[PATH_MAX];
	void *buf;		/* page-aligned, probe_size bytes */
	struct ws_probe_failure fail;
	char fail_stderr[WS_STDERR_LINE];
	char err[256];
};

/* cfg->set.probe_dir, else dirname(cfg->set.path). */
void probe_dir_of(const struct ws_config *cfg, char *out, size_t len);

/* instance: which --probe-cmd, else 0.  0 or -errno with p->err. */
int probe_init(struct probe *p, enum ws_probe_kind kind, unsigned int instance,
	       const struct ws_config *cfg);
/* Files before the directories they are in; their count. */
#define PROBE_MAX_NAMES 6
unsigned int probe_file_names(const struct probe *p, const char **names);
/* Safe to call twice. */
void probe_cleanup(struct probe *p);

/* Inline: a kind's file need not call back into probe.c. */
static inline const char *probe_name(const struct probe *p)
{
	return ws_probe_kind_name(p->ops->kind);
}

/* "nobody"; "" as the caller, or another kind. */
const char *probe_cmd_user(const struct probe *p);

#endif
