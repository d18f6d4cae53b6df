/* live_line.c - the live line, made to fit (see live_line.h). */
#include <stdint.h>
#include <string.h>

#include "lib/hist.h"
#include "live_line.h"
#include "lib/term.h"
#include "lib/units.h"

/* The parts in the order they are shown. */
enum part_id {
	P_BYTES, P_ELAPSED, P_RATE, P_AVG, P_TARGETS, P_BAR, P_PCT, P_ETA,
	P_PROBE, P_WRITERS = P_PROBE + WS_MAX_PROBES, P_DEV, P_BUSIEST, P_NR
};

enum { FULL, SHORT, GONE };

struct part {
	char form[2][WS_SITE_LEN + 96];	/* FULL and SHORT (often the same) */
	int shown;			/* FULL, SHORT or GONE */
	bool red;
};

struct line {
	struct part parts[P_NR];
	int worst;		/* the probe part that speaks for all, or -1 */
	bool watch;		/* the writers stay longer: they are its point */
	const char *sep;	/* between parts: two blanks, or one */
};

/* What makes room, in order; P_OTHERS is every probe but the worst, the
 * last first; P_WORST is the worst probe. */
enum { P_OTHERS = P_NR, P_WORST, P_SEPARATORS };
static const struct step {
	int id;
	int to;		/* SHORT or GONE (P_SEPARATORS: one blank) */
} steps[] = {
	{ P_BUSIEST, GONE }, { P_DEV, GONE }, { P_TARGETS, GONE },
	{ P_AVG, GONE }, { P_BAR, GONE }, { P_WRITERS, SHORT }, { P_OTHERS, GONE },
	{ P_RATE, SHORT }, { P_WORST, SHORT }, { P_PCT, GONE },
	{ P_ELAPSED, GONE }, { P_SEPARATORS, SHORT }, { P_ETA, GONE }, { P_WRITERS, GONE },
	{ P_WORST, GONE }, { P_RATE, GONE }, { P_BYTES, GONE },
};

static void set(struct part *p, const char *full, const char *brief)
{
	snprintf(p->form[FULL], sizeof(p->form[FULL]), "%s", full);
	snprintf(p->form[SHORT], sizeof(p->form[SHORT]), "%s", brief ? brief : full);
	p->shown = FULL;
}

static void bar(char *buf, size_t len, double f, bool utf8)
{
	/* eighth blocks give a 20-cell bar 160 steps */
	static const char *const eighths[] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
	const int cells = 20;
	int steps_left = (int)(f * cells * 8 + 0.5);
	size_t at = 0;

	at += (size_t)snprintf(buf + at, len - at, "[");
	for (int i = 0; i < cells && at < len; i++, steps_left -= 8) {
		const char *cell = steps_left >= 8 ? (utf8 ? "█" : "#") :
				   steps_left > 0 ? (utf8 ? eighths[steps_left] : "#") :
				   utf8 ? " " : ".";

		at += (size_t)snprintf(buf + at, len - at, "%s", cell);
	}
	if (at < len)
		snprintf(buf + at, len - at, "]");
}

static void probe_part(struct part *p, const struct ws_probe_interval *pi)
{
	char full[sizeof(p->form[0])], brief[sizeof(p->form[0])], stalls[40] = "";
	char a[32], b[32];
	unsigned long long n = pi->run_count;

	if (pi->stalls_total)
		snprintf(stalls, sizeof(stalls), ", %llu stall%s",
			 (unsigned long long)pi->stalls_total, pi->stalls_total == 1 ? "" : "s");
	/* the run so far: its p99 where the probes support one (hist.h),
	 * else its max and how many probes it is the max of */
	units_format_duration(a, sizeof(a), pi->blocked ? pi->inflight_ns : pi->run_p99_ns);
	units_format_duration(b, sizeof(b), pi->run_max_ns);
	if (pi->blocked) {
		snprintf(full, sizeof(full), "%s BLOCKED %s%s%s%s%s", pi->name, a,
			 pi->site[0] ? " (" : "", pi->site, pi->site[0] ? ")" : "", stalls);
		snprintf(brief, sizeof(brief), "%s BLOCKED %s%s", pi->name, a, stalls);
	} else if (n && hist_percentile_shown(0.99, n)) {
		snprintf(full, sizeof(full), "%s p99 %s, max %s%s", pi->name, a, b, stalls);
		snprintf(brief, sizeof(brief), "%s p99 %s%s", pi->name, a, stalls);
	} else if (n) {
		snprintf(full, sizeof(full), "%s max %s (%llu probe%s)%s", pi->name, b,
			 n, n == 1 ? "" : "s", stalls);
		snprintf(brief, sizeof(brief), "%s max %s%s", pi->name, b, stalls);
	} else if (pi->stalls_total) {
		/* "fsync 1 stall": no figure for the comma to follow */
		snprintf(full, sizeof(full), "%s %s", pi->name, stalls + 2);
		snprintf(brief, sizeof(brief), "%s", full);
	} else {
		return;		/* nothing to say this interval */
	}
	set(p, full, brief);
	p->red = pi->blocked || pi->stalls;
}

/* The probe that stays when there is room for one: one blocked now
 * (the longest), else the one that was slowest in the interval. */
static int worst_probe(const struct ws_interval *iv)
{
	uint64_t worst = 0;
	int id = -1;

	for (unsigned int i = 0; i < iv->nprobes; i++) {
		const struct ws_probe_interval *pi = &iv->probes[i];
		/* an interval's p99 its probes do not support is not a figure */
		uint64_t slowest = hist_percentile_shown(0.99, pi->count) ? pi->p99_ns : pi->max_ns;
		uint64_t score = pi->blocked ? UINT64_MAX / 2 + pi->inflight_ns :
				 pi->count ? slowest + 1 : pi->stalls_total ? 1 : 0;

		if (score > worst) {
			worst = score;
			id = P_PROBE + (int)i;
		}
	}
	return id;
}

/* Other processes' writes this interval: "dd 20.0 MiB/s, rsync 1.2
 * MiB/s" (short: the first). */
static void writers_part(struct part *p, const struct ws_interval *iv)
{
	const struct ws_writers_now *w = &iv->writers;
	char full[sizeof(p->form[0])], brief[sizeof(p->form[0])];
	struct ws_buf b = WS_BUF(full);
	double dt = iv->dt_ns ? (double)iv->dt_ns / 1e9 : 1.0;

	if (!w->traced || !w->n)
		return;
	for (unsigned int i = 0; i < w->n; i++)
		ws_buf_printf(&b, "%s%s %.1f MiB/s", i ? ", " : "", w->top[i].comm,
			      (double)w->top[i].written / WS_MIB / dt);
	snprintf(brief, sizeof(brief), "%s %.1f MiB/s", w->top[0].comm,
		 (double)w->top[0].written / WS_MIB / dt);
	set(p, full, brief);
}

static void fill(struct line *l, const struct ws_interval *iv, bool utf8, bool watch)
{
	char a[48], b[48], text[sizeof(l->parts[0].form[0])];

	memset(l, 0, sizeof(*l));
	for (int i = 0; i < P_NR; i++)
		l->parts[i].shown = GONE;
	l->sep = "  ";
	units_format_size(a, sizeof(a), iv->bytes);
	set(&l->parts[P_BYTES], a, NULL);
	units_format_duration(a, sizeof(a), iv->t_ns);
	set(&l->parts[P_ELAPSED], a, NULL);
	snprintf(text, sizeof(text), "now %.1f MiB/s", iv->mibps);
	set(&l->parts[P_RATE], text, text + 4);
	snprintf(text, sizeof(text), "avg %.1f MiB/s", iv->avg_mibps);
	set(&l->parts[P_AVG], text, NULL);
	if (iv->ntargets > 1) {	/* the aggregate, and who holds it back */
		const struct ws_interval *slow = &iv->targets[0];

		for (unsigned int i = 1; i < iv->ntargets; i++)
			if (iv->targets[i].mibps < slow->mibps)
				slow = &iv->targets[i];
		snprintf(text, sizeof(text), "(%u targets, slowest #%u %.1f MiB/s)",
			 iv->ntargets, slow->number, slow->mibps);
		set(&l->parts[P_TARGETS], text, NULL);
	}
	if (iv->progress >= 0.0) {
		bar(text, sizeof(text), iv->progress, utf8);
		set(&l->parts[P_BAR], text, NULL);
		snprintf(text, sizeof(text), "%.0f%%", iv->progress * 100.0);
		set(&l->parts[P_PCT], text, NULL);
		if (iv->progress > 0.0) {
			snprintf(text, sizeof(text), "ETA %s",
				 units_format_duration(b, sizeof(b), iv->eta_ns));
			set(&l->parts[P_ETA], text, NULL);
		}
	}
	for (unsigned int i = 0; i < iv->nprobes; i++)
		probe_part(&l->parts[P_PROBE + i], &iv->probes[i]);
	l->worst = worst_probe(iv);
	writers_part(&l->parts[P_WRITERS], iv);
	l->watch = watch;
	if (watch)	/* nothing of its own written */
		l->parts[P_BYTES].shown = l->parts[P_RATE].shown = l->parts[P_AVG].shown = GONE;
	if (iv->have_device) {
		snprintf(text, sizeof(text), "dev %.1f MiB/s", iv->dev_mibps);
		set(&l->parts[P_DEV], text, NULL);
	}
	if (iv->dt_ns) {
		snprintf(text, sizeof(text), "%s %.0f%%", ws_timer_words(iv->busiest),
			 100.0 * iv->busiest_share);
		set(&l->parts[P_BUSIEST], text, NULL);
	}
}

static size_t width(const struct line *l)
{
	size_t w = 0;
	unsigned int n = 0;

	for (int i = 0; i < P_NR; i++) {
		const struct part *p = &l->parts[i];

		if (p->shown == GONE)
			continue;
		w += term_width(p->form[p->shown], SIZE_MAX) + (n++ ? strlen(l->sep) : 1);
	}
	return w;
}

static void shrink(struct part *p, int to)
{
	if (p->shown < to)
		p->shown = to;
}

/* Take the steps until the line fits ROOM; a run's other writers go
 * first. */
static void make_fit(struct line *l, size_t room)
{
	if (!l->watch && width(l) > room)
		shrink(&l->parts[P_WRITERS], GONE);
	for (size_t s = 0; s < ARRAY_SIZE(steps) && width(l) > room; s++) {
		const struct step *st = &steps[s];

		if (st->id == P_SEPARATORS) {
			l->sep = " ";
		} else if (st->id == P_WORST) {
			if (l->worst >= 0)
				shrink(&l->parts[l->worst], st->to);
		} else if (st->id == P_OTHERS) {
			for (int i = P_WRITERS - 1; i >= P_PROBE && width(l) > room; i--)
				if (i != l->worst)
					shrink(&l->parts[i], GONE);
		} else {
			shrink(&l->parts[st->id], st->to);
		}
	}
}

void live_line_print(FILE *out, const struct ws_interval *iv,
		     const struct live_style *style)
{
	struct line l;
	unsigned int n = 0;

	fill(&l, iv, style->utf8, style->watch);
	if (style->room)
		make_fit(&l, style->room);
	for (int i = 0; i < P_NR; i++) {
		const struct part *p = &l.parts[i];
		bool red = style->colour && p->red;

		if (p->shown == GONE)
			continue;
		fprintf(out, "%s%s%s%s", n++ ? l.sep : " ", red ? TERM_RED : "",
			p->form[p->shown], red ? TERM_RESET : "");
	}
}
