/* human_culprits.c - other processes' writes in words (human_culprits.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "human_culprits.h"
#include "human_verdict.h"
#include "lib/term.h"
#include "lib/units.h"

/* Recorded stalls whose culprits were traced, of every probe. */
static unsigned int traced_stalls(const struct ws_summary *sum)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < sum->nprobes; i++)
		for (unsigned int k = 0; k < sum->probes[i].nrecorded; k++)
			n += sum->probes[i].stalls[k].culprits.traced;
	return n;
}

/* The names' column: the widest name shown, within reason. */
static int name_width(const struct ws_culprits *t, unsigned int n)
{
	char name[160];
	int w = 0;

	for (unsigned int i = 0; i < n && i < t->n; i++) {
		int k = (int)term_width(ws_culprit_name(&t->row[i], name, sizeof(name)), SIZE_MAX);

		w = k > w ? k : w;
	}
	return w < 40 ? w : 40;
}

/* "rsync (pid 4242, user.slice)  812 MiB  in 5 of 6 stalls", names in a
 * column of namew. */
static void row_line(FILE *out, const char *key, const struct ws_culprit *c,
		     int namew, unsigned int nstalls)
{
	struct ws_culprit bare = *c;
	char name[160], size[24], line[256];

	units_format_size(size, sizeof(size), c->written);
	if (!c->written)	/* its pages still in the cache */
		snprintf(size, sizeof(size), "%llu folios dirtied", (unsigned long long)c->dirtied);
	/* the cgroup, then the column's padding, go when it does not fit */
	for (int pass = 0; pass < 3; pass++) {
		ws_culprit_name(pass ? &bare : c, name, sizeof(name));
		/* padded by columns, not bytes: a name may be UTF-8 */
		int pad = pass < 2 ? namew - (int)term_width(name, SIZE_MAX) : 0;

		if (nstalls && c->stalls)
			snprintf(line, sizeof(line), "%s%*s %10s  in %u of %u stalls", name,
				 pad > 0 ? pad : 0, "", size, c->stalls, nstalls);
		else
			snprintf(line, sizeof(line), "%s%*s %10s", name, pad > 0 ? pad : 0, "", size);
		if (term_width(line, strlen(line)) <= HUMAN_COLUMNS - 11)
			break;
		bare.cgroup[0] = '\0';
	}
	fprintf(out, "  %-8s %s\n", key, line);
}

/* The longest stall of all probes, and its probe's name. */
static const struct ws_stall *longest(const struct ws_summary *sum, const char **probe)
{
	const struct ws_stall *top = NULL;

	for (unsigned int i = 0; i < sum->nprobes; i++) {
		const struct ws_probe_summary *ps = &sum->probes[i];

		if (ps->nstalls && (!top || ps->longest.duration_ns > top->duration_ns)) {
			top = &ps->longest;
			*probe = ps->name;
		}
	}
	return top;
}

/* "14:02:11": when, on the clock, a stall that began at_ns into the
 * watch began. */
static char *clock_time(char *buf, size_t len, const struct ws_run *run, uint64_t at_ns)
{
	time_t t = (time_t)(run->started_at + (int64_t)(at_ns / 1000000000ULL));
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
	return buf;
}

/* "fsync 4.10 s at 14:02:11: 812 MiB written by rsync (pid 4242,
 * user.slice) and 40 MiB by ...": both writers, then the first, then
 * the first without its cgroup, then without the time, until it fits;
 * else -v's. */
static void longest_line(FILE *out, const struct ws_run *run, const struct ws_culprits *c,
			 const struct ws_stall *st, const char *probe)
{
	struct ws_stall_culprits top = st->culprits;
	struct ws_culprits *bare = malloc(sizeof(*bare));
	char words[WS_STALL_WORDS_LEN], line[WS_STALL_WORDS_LEN + 64], dur[24], at[24];

	units_format_duration(dur, sizeof(dur), st->duration_ns);
	clock_time(at, sizeof(at), run, st->start_ns);
	for (int pass = 0; pass < 5; pass++) {
		if (pass == 1)
			top.n = top.n ? 1 : 0;
		if (pass == 2 && bare) {
			*bare = *c;
			for (unsigned int i = 0; i < bare->n; i++)
				bare->row[i].cgroup[0] = '\0';
		}
		ws_stall_culprit_words(&top, pass >= 2 && bare ? bare : c, true, words,
				       sizeof(words));
		if (pass < 3)
			snprintf(line, sizeof(line), "%s %s at %s: %s", probe, dur, at, words);
		else if (pass == 3)
			snprintf(line, sizeof(line), "%s %s: %s", probe, dur, words);
		else
			snprintf(line, sizeof(line), "%s %s at %s (-v: its writers)", probe, dur, at);
		if (term_width(line, strlen(line)) <= HUMAN_COLUMNS - 11)
			break;
	}
	free(bare);
	fprintf(out, "  %-8s %s\n", "longest", line);
}

static unsigned int watch_lines(FILE *out, const struct ws_run *run,
				const struct ws_summary *sum, unsigned int room)
{
	const struct ws_culprits *c = &sum->culprits;
	const struct ws_stall *st;
	const char *probe = "";
	char size[24];
	unsigned int n = 0, nstalls = traced_stalls(sum), rows = 0;
	int namew = name_width(c, room);

	st = longest(sum, &probe);
	for (unsigned int i = 0; i < c->n; i++)
		rows += !c->row[i].kernel;
	if (!rows && !c->others_written && !c->before_trace) {
		fprintf(out, "  %-8s no process wrote to the disk\n", "culprits");
		n++;
	} else if (!rows) {	/* only past the table, or unknown */
		fprintf(out, "  %-8s %s from processes gone from the table or unknown\n",
			"culprits", units_format_size(size, sizeof(size),
						      c->others_written + c->before_trace));
		n++;
	}
	/* the longest stall's line is kept */
	for (unsigned int i = 0; i < c->n && n + (st && st->culprits.traced) < room; i++) {
		if (c->row[i].kernel)
			continue;
		row_line(out, n ? "" : "culprits", &c->row[i], namew, nstalls);
		n++;
	}
	if (!st || !st->culprits.traced || n >= room)
		return n;
	longest_line(out, run, c, st, probe);
	return n + 1;
}

unsigned int human_culprits_verdict(FILE *out, const struct ws_run *run,
				    const struct ws_summary *sum, unsigned int room)
{
	const struct ws_culprits *c = &sum->culprits;
	char a[24], name[160], line[256];

	if (!c->traced || !room)
		return 0;
	if (run->set.watch)
		return watch_lines(out, run, sum, room);
	if (!ws_culprits_disturbed(c, sum->bytes))
		return 0;
	units_format_size(a, sizeof(a), ws_culprits_others_written(c));
	for (unsigned int i = 0; i < c->n; i++) {
		struct ws_culprit bare = c->row[i];

		if (c->row[i].kernel)
			continue;
		/* the name with its cgroup, without, or -v's */
		for (int pass = 0; pass < 2; pass++) {
			snprintf(line, sizeof(line), "%s from other processes, the most by %s", a,
				 ws_culprit_name(&bare, name, sizeof(name)));
			if (term_width(line, strlen(line)) <= HUMAN_COLUMNS - 11)
				break;
			bare.cgroup[0] = '\0';
		}
		if (term_width(line, strlen(line)) > HUMAN_COLUMNS - 11)
			snprintf(line, sizeof(line), "%s from other processes (-v: which)", a);
		fprintf(out, "  %-8s %s\n", "writers", line);
		return 1;
	}
	fprintf(out, "  %-8s %s from other processes\n", "writers", a);
	return 1;
}

void human_culprits_details(FILE *out, const struct ws_summary *sum)
{
	const struct ws_culprits *c = &sum->culprits;
	unsigned int nstalls = traced_stalls(sum);
	char a[24];

	if (!c->traced)
		return;
	fprintf(out, "  writers  other processes' writes to the disk (their own bios, and the\n"
		     "           writeback of the pages they dirtied, by inode)%s\n",
		c->n || c->others || c->before_trace ? ":" : ": none");
	for (unsigned int i = 0; i < c->n; i++)
		row_line(out, "", &c->row[i], name_width(c, c->n), nstalls);
	if (c->others)
		fprintf(out, "           and %u more processes: %s\n", c->others,
			units_format_size(a, sizeof(a), c->others_written));
	if (c->before_trace)
		fprintf(out, "           and %s by an unknown writer (pages dirtied before the trace, or forgotten)\n",
			units_format_size(a, sizeof(a), c->before_trace));
}
