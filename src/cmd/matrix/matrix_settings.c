/* matrix_settings.c - the schedulers or dirty_bytes the rows compare
 * (see matrix_settings.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/cli.h"
#include "lib/units.h"
#include "system/sysfs.h"
#include "cmd/matrix/matrix.h"
#include "matrix_settings.h"

#define DIRTY_BYTES "/proc/sys/vm/dirty_bytes"
#define DIRTY_RATIO "/proc/sys/vm/dirty_ratio"

static int split_list(struct matrix_settings *st, const struct cli *cli,
		      const char *list, const char *opt)
{
	char *save = NULL;

	snprintf(st->copy, sizeof(st->copy), "%s", list);
	for (char *t = strtok_r(st->copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (st->n == MATRIX_MAX_SETTINGS) {
			cli_usage_error(cli, stderr, "invalid --%s '%s': at most %d",
					opt, list, MATRIX_MAX_SETTINGS);
			return -EINVAL;
		}
		st->names[st->n++] = t;
	}
	if (!st->n) {
		cli_usage_error(cli, stderr, "invalid --%s '%s': empty", opt, list);
		return -EINVAL;
	}
	return 0;
}

int matrix_parse_settings(struct matrix_settings *st, const struct cli *cli,
			  const char *schedulers, const char *dirty_bytes)
{
	memset(st, 0, sizeof(*st));
	st->cli = cli;
	if (schedulers && dirty_bytes) {
		cli_usage_error(cli, stderr, "--schedulers and --dirty-bytes: one at a time");
		return -EINVAL;
	}
	if (schedulers) {
		st->kind = "scheduler";
		return split_list(st, cli, schedulers, "schedulers");
	}
	if (!dirty_bytes)
		return 0;
	st->kind = "dirty_bytes";
	if (split_list(st, cli, dirty_bytes, "dirty-bytes"))
		return -EINVAL;
	for (unsigned int i = 0; i < st->n; i++) {
		struct units_error err;

		if (units_parse_size(st->names[i], &st->bytes[i], &err) ||
		    st->bytes[i] < 2 * WS_MIB) {
			cli_usage_error(cli, stderr, "invalid --dirty-bytes '%s': %s",
					st->names[i], st->bytes[i] < 2 * WS_MIB ?
					"at least 2M" : err.msg);
			return -EINVAL;
		}
	}
	if (geteuid()) {
		cli_error(cli, stderr, "--dirty-bytes changes vm.dirty_bytes for the whole machine: root only");
		errtryhelp(stderr, "writestress matrix");
		return -EPERM;
	}
	if (sysfs_read("", DIRTY_BYTES, st->old_bytes, sizeof(st->old_bytes)) < 0 ||
	    sysfs_read("", DIRTY_RATIO, st->old_ratio, sizeof(st->old_ratio)) < 0) {
		cli_error(cli, stderr, "cannot read %s", DIRTY_BYTES);
		return -EIO;
	}
	return 0;
}

int matrix_apply_setting(struct matrix_settings *st, unsigned int i)
{
	char v[32];
	int ret;

	if (!st->kind || strcmp(st->kind, "dirty_bytes"))
		return 0;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)st->bytes[i]);
	ret = ws_write_text(DIRTY_BYTES, v);
	st->changed |= !ret;
	if (ret)
		cli_error(st->cli, stderr, "cannot set vm.dirty_bytes to %s: %s",
			v, strerror(-ret));
	return ret;
}

/* dirty_bytes and dirty_ratio exclude each other */
void matrix_restore_settings(struct matrix_settings *st)
{
	if (!st->changed)
		return;
	if (strcmp(st->old_bytes, "0"))
		ws_write_text(DIRTY_BYTES, st->old_bytes);
	else
		ws_write_text(DIRTY_RATIO, st->old_ratio);
	st->changed = false;
}
