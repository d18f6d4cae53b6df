#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "events.h"

/* Indexed by enum blk_event_kind, jnl_phase, bio_event_kind. */
static const char blk_letters[] = "GQDC";
static const char jnl_letters[] = "SKFLEBIO";
static const char bio_letters[] = "BMRS";

void trace_event_write(FILE *f, const struct trace_event *e)
{
	switch (e->kind) {
	case TE_BLOCK:
		fprintf(f, "%c %" PRIu64 " %" PRIu64 " %" PRIu32 " %s",
			blk_letters[e->blk.kind], e->blk.ts_ns, e->blk.sector,
			e->blk.nr_sector, e->blk.rwbs);
		if (e->blk.comm[0]) {	/* its blanks as '_' */
			fputc(' ', f);
			for (const char *c = e->blk.comm; *c; c++)
				fputc(*c == ' ' || *c == '\t' ? '_' : *c, f);
		}
		fputc('\n', f);
		break;
	case TE_JOURNAL:
		fprintf(f, "J %c %" PRIu64 " %" PRIu64, jnl_letters[e->jnl.phase],
			e->jnl.ts_ns, e->jnl.phase >= JNL_ICLOG ? e->jnl.lsn : e->jnl.tid);
		if (e->jnl.phase == JNL_STATS)
			fprintf(f, " %" PRIu32 " %" PRIu32, e->jnl.blocks, e->jnl.logged);
		else if (e->jnl.phase == JNL_ICLOG)
			fprintf(f, " %" PRIu32, e->jnl.bytes);
		fputc('\n', f);
		break;
	case TE_DIRTY:
		fprintf(f, "P %" PRIu64 " %" PRId32 " %" PRIu64 "%s\n",
			e->dirty.ts_ns, e->dirty.tid, e->dirty.pause_ns,
			e->dirty.writer ? " w" : "");
		break;
	case TE_WBT:
		fprintf(f, "W %" PRIu64 " %" PRId32 " %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32 "\n",
			e->wbt.ts_ns, e->wbt.step, e->wbt.window_us, e->wbt.bg,
			e->wbt.normal, e->wbt.max);
		break;
	case TE_WBT_STAT:
		fprintf(f, "V %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRIu64 " %" PRId64 "\n",
			e->wbt_stat.ts_ns, e->wbt_stat.rmin, e->wbt_stat.rmean,
			e->wbt_stat.rsamples, e->wbt_stat.wmean, e->wbt_stat.wsamples);
		break;
	case TE_WB:
		fprintf(f, "F %c %" PRIu64 " %" PRId64 " %" PRId32 " %" PRIu64 "\n",
			e->wb.end ? 'E' : 'S', e->wb.ts_ns, e->wb.nr_pages, e->wb.reason,
			e->wb.cgroup_ino);
		break;
	case TE_BIO:
		fprintf(f, "%c %" PRIu64 " %" PRIu64 " %" PRIu64 " %s\n",
			bio_letters[e->bio.kind], e->bio.ts_ns, e->bio.sector,
			e->bio.nr_sector, e->bio.rwbs);
		break;
	case TE_EXTENT:
		fprintf(f, "X %" PRIu64 " %" PRIu64 "\n", e->ext.sector, e->ext.nr_sector);
		break;
	case TE_CULPRIT:	/* never made: culprits.h */
		break;
	}
}

int trace_event_parse(const char *line, struct trace_event *e)
{
	const char *k;
	char c;

	memset(e, 0, sizeof(*e));
	line += strspn(line, " \t");
	if (!*line || *line == '#' || *line == '\n')
		return 0;
	if ((k = strchr(blk_letters, *line)) && *line) {
		e->kind = TE_BLOCK;
		e->blk.kind = (enum blk_event_kind)(k - blk_letters);
		/* comm is on getrq lines only, not in older recordings */
		return sscanf(line + 1, "%" SCNu64 " %" SCNu64 " %" SCNu32 " %9s %15s",
			      &e->blk.ts_ns, &e->blk.sector, &e->blk.nr_sector,
			      e->blk.rwbs, e->blk.comm) >= 4 ? 1 : -1;
	}
	if ((k = strchr(bio_letters, *line)) && *line) {
		e->kind = TE_BIO;
		e->bio.kind = (enum bio_event_kind)(k - bio_letters);
		return sscanf(line + 1, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %9s",
			      &e->bio.ts_ns, &e->bio.sector, &e->bio.nr_sector,
			      e->bio.rwbs) == 4 ? 1 : -1;
	}
	if (*line == 'J') {
		e->kind = TE_JOURNAL;
		uint64_t id;

		if (sscanf(line + 1, " %c %" SCNu64 " %" SCNu64, &c, &e->jnl.ts_ns,
			   &id) != 3 || !c || !(k = strchr(jnl_letters, c)))
			return -1;
		e->jnl.phase = (enum jnl_phase)(k - jnl_letters);
		if (e->jnl.phase >= JNL_ICLOG)
			e->jnl.lsn = id;
		else if (id > UINT32_MAX)
			return -1;
		else
			e->jnl.tid = (uint32_t)id;
		if (e->jnl.phase == JNL_STATS &&
		    sscanf(line + 1, " %*c %*u %*u %" SCNu32 " %" SCNu32,
			   &e->jnl.blocks, &e->jnl.logged) != 2)
			return -1;
		if (e->jnl.phase == JNL_ICLOG &&
		    sscanf(line + 1, " %*c %*u %*u %" SCNu32, &e->jnl.bytes) != 1)
			return -1;
		return 1;
	}
	if (*line == 'P') {
		int got;

		e->kind = TE_DIRTY;
		c = 0;
		got = sscanf(line + 1, "%" SCNu64 " %" SCNd32 " %" SCNu64 " %c", &e->dirty.ts_ns,
			     &e->dirty.tid, &e->dirty.pause_ns, &c);
		if (got < 3 || (got == 4 && c != 'w'))
			return -1;
		e->dirty.writer = got == 4;
		return 1;
	}
	if (*line == 'V') {
		e->kind = TE_WBT_STAT;
		return sscanf(line + 1, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNu64
			      " %" SCNd64, &e->wbt_stat.ts_ns, &e->wbt_stat.rmin,
			      &e->wbt_stat.rmean, &e->wbt_stat.rsamples, &e->wbt_stat.wmean,
			      &e->wbt_stat.wsamples) == 6 ? 1 : -1;
	}
	if (*line == 'F') {
		e->kind = TE_WB;
		if (sscanf(line + 1, " %c %" SCNu64 " %" SCNd64 " %" SCNd32 " %" SCNu64, &c,
			   &e->wb.ts_ns, &e->wb.nr_pages, &e->wb.reason, &e->wb.cgroup_ino) != 5 ||
		    (c != 'S' && c != 'E'))
			return -1;
		e->wb.end = c == 'E';
		return 1;
	}
	if (*line == 'X') {
		e->kind = TE_EXTENT;
		return sscanf(line + 1, "%" SCNu64 " %" SCNu64, &e->ext.sector,
			      &e->ext.nr_sector) == 2 ? 1 : -1;
	}
	if (*line == 'W') {
		e->kind = TE_WBT;
		return sscanf(line + 1, "%" SCNu64 " %" SCNd32 " %" SCNu64 " %" SCNu32
			      " %" SCNu32 " %" SCNu32, &e->wbt.ts_ns, &e->wbt.step,
			      &e->wbt.window_us, &e->wbt.bg, &e->wbt.normal,
			      &e->wbt.max) == 6 ? 1 : -1;
	}
	return -1;
}
