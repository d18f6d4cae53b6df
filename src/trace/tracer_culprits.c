/* tracer_culprits.c - the culprits' events, and who a thread is, from
 * /proc and the trace's saved names (culprits.h's rules; tracer.h). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events.h"
#include "system/sysfs.h"
#include "tracer.h"

#define PF_KTHREAD 0x00200000

/* A thread's parent and flags from /proc/PID/stat; false when gone. */
static bool read_stat(int32_t pid, int32_t *ppid, unsigned long *flags)
{
	char path[64], text[1024], *at;
	int pp = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	/* after the comm's closing parenthesis: state, ppid, ..., flags 7th */
	if (sysfs_read("", path, text, sizeof(text)) < 0 || !(at = strrchr(text, ')')))
		return false;
	if (sscanf(at + 1, " %*c %d %*d %*d %*d %*d %lu", &pp, flags) != 2)
		return false;
	*ppid = pp;
	return true;
}

/* Gone already: the name the trace saved for it (saved_cmdlines, "PID
 * COMM" lines, as many as saved_cmdlines_size: thousands on recent
 * kernels), read each time, never kept: a tep's own list would grow with
 * every process a long watch meets. */
static void saved_comm(int32_t tid, char *out, size_t len)
{
	char *path = tracefs_get_tracing_file("saved_cmdlines"), line[64];
	FILE *f = path ? fopen(path, "re") : NULL;
	int pid;

	while (f && fgets(line, sizeof(line), f)) {
		char comm[WS_COMM_LEN];

		if (sscanf(line, "%d %15[^\n]", &pid, comm) == 2 && pid == tid) {
			snprintf(out, len, "%s", comm);
			break;
		}
	}
	if (f)
		fclose(f);
	tracefs_put_tracing_file(path);
}

/* Who a thread is, once, from /proc; gone already: its pid and hint. */
static const struct culprit_who *learn_who(struct ws_trace *t, int32_t tid, const char *hint)
{
	const struct culprit_who *known = culprits_who(&t->culprits, tid);
	struct culprit_who w = { .tid = tid, .tgid = tid };
	char path[64], text[1024], *at;
	const char *seen;
	unsigned long flags = 0;
	int32_t ppid;

	if (known || tid <= 0)
		return known;
	if (culprits_is_ours(&t->culprits, tid)) {	/* forgotten by the cache */
		culprits_learn(&t->culprits, &(struct culprit_who){ .tid = tid,
				.tgid = t->culprits.ours_pid, .comm = "writestress" });
		return culprits_who(&t->culprits, tid);
	}
	snprintf(w.comm, sizeof(w.comm), "%s", hint ? hint : "");
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (sysfs_read("", path, text, sizeof(text)) >= 0) {
		if ((at = strstr(text, "Name:\t")))
			sscanf(at + 6, "%15[^\n]", w.comm);
		if ((at = strstr(text, "Tgid:\t")))
			sscanf(at + 6, "%d", &w.tgid);
	}
	/* a thread is named by its process ("firefox", not its
	 * "mozStorage #3") */
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)w.tgid);
	if (w.tgid != tid && sysfs_read("", path, text, sizeof(text)) >= 0 && text[0])
		snprintf(w.comm, sizeof(w.comm), "%.*s", (int)strcspn(text, "\n"), text);
	read_stat(tid, &ppid, &flags);
	w.kernel = (flags & PF_KTHREAD) != 0;
	w.worker = w.kernel && culprits_is_worker(w.comm);
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)tid);
	if (!w.kernel && sysfs_read("", path, text, sizeof(text)) >= 0)
		culprits_pick_cgroup(text, w.cgroup, sizeof(w.cgroup));
	/* gone: the name its fork, exec or rename gave, else the kernel's list
	 * (thousands of lines: read only for what started before the trace) */
	if (!w.comm[0] && (seen = culprits_name_of(&t->culprits, tid)))
		snprintf(w.comm, sizeof(w.comm), "%s", seen);
	if (!w.comm[0])
		saved_comm(tid, w.comm, sizeof(w.comm));
	culprits_learn(&t->culprits, &w);
	return culprits_who(&t->culprits, tid);
}

/* Is thread tid writestress's?  Its set, known, or one of its threads
 * (/proc/self/task/TID: one stat, for every fork on the machine); never
 * learnt here: a shell forks, then becomes what it execs. */
static bool is_ours(struct ws_trace *t, int32_t tid)
{
	const struct culprit_who *w = culprits_who(&t->culprits, tid);
	char path[64];

	if (culprits_is_ours(&t->culprits, tid))
		return true;
	if (w)
		return w->tgid == t->culprits.ours_pid;
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	return tid > 0 && access(path, F_OK) == 0;
}

/* A child of writestress's, or of one of its own (a probe's command and
 * what that starts): writestress's too, whoever it becomes. */
static void learn_fork(struct ws_trace *t, int32_t parent, int32_t child)
{
	const struct culprit_who *p;
	struct culprit_who w = { .tid = child, .tgid = t->culprits.ours_pid };

	if (!is_ours(t, parent)) {
		culprits_forget(&t->culprits, child);	/* a pid reused */
		return;
	}
	culprits_add_ours(&t->culprits, child, false);
	p = culprits_who(&t->culprits, parent);
	snprintf(w.comm, sizeof(w.comm), "%s", p ? p->comm : "writestress");
	culprits_learn(&t->culprits, &w);
}

void tracer_learn_ours(struct ws_trace *t)
{
	int32_t me = (int32_t)getpid(), ppid;
	unsigned long flags;
	struct dirent *de;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		int32_t pid = (int32_t)strtol(de->d_name, NULL, 10);

		if (pid > 0 && read_stat(pid, &ppid, &flags) && ppid == me) {
			culprits_add_ours(&t->culprits, pid, true);
			culprits_learn(&t->culprits, &(struct culprit_who){ .tid = pid, .tgid = me,
									     .comm = "launcher" });
		}
	}
	if (d)
		closedir(d);
}

void tracer_field_string(struct tep_format_field *fld, const struct tep_record *rec,
			 char *out, size_t len)
{
	const char *data = rec->data;
	unsigned long long loc = 0;
	unsigned int off, n;

	out[0] = '\0';
	if (!fld)
		return;
	off = (unsigned int)fld->offset;
	n = (unsigned int)fld->size;
	if (fld->flags & TEP_FIELD_IS_DYNAMIC) {
		if (tep_read_number_field(fld, rec->data, &loc))
			return;
		off = (unsigned int)(loc & 0xffff);
		n = (unsigned int)(loc >> 16);
		if (fld->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(fld->offset + fld->size);
	}
	if ((uint64_t)off + n > (uint64_t)rec->size)
		return;
	snprintf(out, len, "%.*s", (int)strnlen(data + off, n), data + off);
}

void tracer_culprit_event(struct ws_trace *t, enum culprit_event sub,
			  const struct event_fields *f, struct tep_record *rec)
{
	int32_t tid = (int32_t)tep_data_pid(t->tep, rec);
	char name[WS_COMM_LEN], path[PATH_MAX];

	switch (sub) {
	case CUL_FORK:
		learn_fork(t, (int32_t)tracer_field(f->parent, rec),
			   (int32_t)tracer_field(f->child, rec));
		tracer_field_string(f->comm, rec, name, sizeof(name));
		culprits_name_seen(&t->culprits, rec->ts, (int32_t)tracer_field(f->child, rec),
				   name);
		break;
	case CUL_EXEC:		/* a new program: its name read again */
		tracer_field_string(f->filename, rec, path, sizeof(path));
		culprits_exec(&t->culprits, rec->ts, tid, path);
		break;
	case CUL_RENAME:
		tracer_field_string(f->comm, rec, name, sizeof(name));
		culprits_rename(&t->culprits, rec->ts,
				f->pid ? (int32_t)tracer_field(f->pid, rec) : tid, name);
		break;
	case CUL_DIRTIED:
		if (learn_who(t, tid, NULL))
			culprits_dirtied(&t->culprits, rec->ts, tid, tracer_field(f->ino, rec));
		break;
	case CUL_INODE_WB:
		if (learn_who(t, tid, NULL))
			culprits_inode_written(&t->culprits, rec->ts, tid,
					       tracer_field(f->ino, rec), tracer_field(f->wrote, rec));
		break;
	}
}

void tracer_culprit_bio(struct ws_trace *t, const struct event_fields *f,
			const struct bio_event *b, struct tep_record *rec)
{
	int32_t tid = (int32_t)tep_data_pid(t->tep, rec);
	char comm[WS_COMM_LEN] = "";

	if (!t->culprits_on || b->kind != BIO_QUEUE || !strchr(b->rwbs, 'W') || !b->nr_sector)
		return;
	/* a newcomer's name, in case it is gone: read once, not per bio */
	if (!culprits_who(&t->culprits, tid))
		tracer_field_string(f->comm, rec, comm, sizeof(comm));
	if (learn_who(t, tid, comm))
		culprits_bio(&t->culprits, rec->ts, tid, b->nr_sector * 512);
}

