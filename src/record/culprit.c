/* culprit.c - the writers behind a stall, in words for every output. */
#include <string.h>

#include "lib/c.h"
#include "lib/units.h"
#include "record/culprit.h"

bool ws_stall_no_writer(const struct ws_stall_culprits *c)
{
	return c->traced && c->total_written < WS_CULPRIT_NO_WRITER_BYTES;
}

const char *ws_cgroup_leaf(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

uint64_t ws_culprits_others_written(const struct ws_culprits *run)
{
	uint64_t sum = run->others_written;

	for (unsigned int i = 0; i < run->n; i++)
		if (!run->row[i].kernel)
			sum += run->row[i].written;
	return sum;
}

bool ws_culprits_disturbed(const struct ws_culprits *run, uint64_t writer_bytes)
{
	uint64_t others = ws_culprits_others_written(run);

	return run->traced && others >= WS_CULPRIT_NO_WRITER_BYTES &&
	       others * 100 >= writer_bytes * WS_CULPRIT_DISTURBED_PCT;
}

const struct ws_culprit *ws_culprit_of(const struct ws_culprits *run, int32_t pid)
{
	for (unsigned int i = 0; run && pid && i < run->n; i++)
		if (run->row[i].pid == pid)
			return &run->row[i];
	return NULL;
}

char *ws_culprit_name(const struct ws_culprit *c, char *buf, size_t len)
{
	const char *cg = ws_cgroup_leaf(c->cgroup);

	if (!c->pid)
		snprintf(buf, len, "an unknown writer");
	else if (!c->comm[0])	/* gone before its name was read */
		snprintf(buf, len, "pid %d", (int)c->pid);
	else if (c->kernel)
		snprintf(buf, len, "%s (kernel, pid %d)", c->comm, (int)c->pid);
	else if (cg[0])
		snprintf(buf, len, "%s (pid %d, %s)", c->comm, (int)c->pid, cg);
	else
		snprintf(buf, len, "%s (pid %d)", c->comm, (int)c->pid);
	return buf;
}

static void part_name(const struct ws_stall_culprit *p, const struct ws_culprits *run,
		      char *buf, size_t len)
{
	const struct ws_culprit *row = ws_culprit_of(run, p->pid);

	if (row)
		ws_culprit_name(row, buf, len);
	else if (p->pid)
		snprintf(buf, len, "pid %d", (int)p->pid);
	else	/* dirtied before the trace, or by one it forgot */
		snprintf(buf, len, "an unknown writer");
}

char *ws_stall_culprit_words(const struct ws_stall_culprits *c,
			     const struct ws_culprits *run, bool say_none,
			     char *buf, size_t len)
{
	struct ws_buf b = ws_buf_init(buf, len);
	char size[24], name[160];

	buf[0] = '\0';
	if (!c->traced)
		return buf;
	if (ws_stall_no_writer(c)) {
		if (say_none)
			ws_buf_printf(&b, "no writer: %s from other processes",
			      units_format_size(size, sizeof(size), c->total_written));
		return buf;
	}
	for (unsigned int i = 0; i < c->n; i++) {
		const struct ws_stall_culprit *p = &c->top[i];

		part_name(p, run, name, sizeof(name));
		units_format_size(size, sizeof(size), p->written);
		if (!p->written)	/* its pages not yet written back */
			ws_buf_printf(&b, "%s%u folios dirtied by %s", i ? " and " : "",
				      p->dirtied, name);
		else if (!i)
			ws_buf_printf(&b, "%s written by %s", size, name);
		else
			ws_buf_printf(&b, " and %s by %s", size, name);
	}
	return buf;
}

void ws_culprits_by_command(const struct ws_culprits *run, struct ws_command_bytes *out)
{
	memset(out, 0, sizeof(*out));
	out->traced = run->traced;
	out->others = run->others_written + run->before_trace;
	/* the rows are most first: a command's first row places it */
	for (unsigned int i = 0; i < run->n; i++) {
		const struct ws_culprit *r = &run->row[i];
		unsigned int k;

		for (k = 0; k < out->n && strcmp(out->cmd[k].comm, r->comm); k++)
			;
		if (k == out->n && out->n == WS_COMMANDS_KEPT) {
			out->others += r->written;
			continue;
		}
		if (k == out->n)
			memcpy(out->cmd[out->n++].comm, r->comm, WS_COMM_LEN);
		out->cmd[k].written += r->written;
	}
}
