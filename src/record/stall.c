/* stall.c - a stall's cause in words: the sentence every output prints. */
#include "lib/c.h"
#include "lib/units.h"
#include "record/stall.h"

/* A probe keeps WS_MAX_STALLS of them, and the monitor as many again: a
 * stall is a few figures, never a sentence. */
_Static_assert(sizeof(struct ws_stall) <= 256, "a stall record stays under 256 bytes");

static const char *const cause_names[WS_CAUSE_NR] = {
	[WS_CAUSE_NOT_TRACED] = "",
	[WS_CAUSE_DEVICE] = "device",
	[WS_CAUSE_QUEUE] = "queue behind other writes",
	[WS_CAUSE_JOURNAL] = "journal commit",
	[WS_CAUSE_DIRTY] = "dirty throttling",
	[WS_CAUSE_LIMIT] = "cgroup I/O limit",
	[WS_CAUSE_WBT] = "writeback throttling",
	[WS_CAUSE_UNKNOWN] = "unknown",
};

const char *ws_stall_cause_name(enum ws_stall_cause c)
{
	return (unsigned int)c < WS_CAUSE_NR ? cause_names[c] : "?";
}

static const char *const phase_names[] = {
	[WS_PHASE_LOCKED] = "locked", [WS_PHASE_FLUSHING] = "flushing",
	[WS_PHASE_LOGGING] = "logging",
};

static void span_words(struct ws_buf *b, enum ws_span_finding f, const struct ws_stall_span *s)
{
	char longest[24], busy[24], span[24], wait[24];
	double depth = s->span_ns ? (double)s->busy_ns / (double)s->span_ns : 0;

	units_format_duration(longest, sizeof(longest), s->max_service_ns);
	units_format_duration(busy, sizeof(busy), s->busy_ns);
	units_format_duration(span, sizeof(span), s->span_ns);
	units_format_duration(wait, sizeof(wait), s->max_queue_ns);
	switch (f) {
	case WS_SPAN_DEPTH:
		ws_buf_printf(b, "the device held %.1f requests at once on average, each answered in <= %s",
			      depth, longest);
		break;
	case WS_SPAN_ISSUE_WAIT:
		ws_buf_printf(b, "a request waited %s to be issued", wait);
		break;
	case WS_SPAN_BUSY:
		ws_buf_printf(b, "the device was busy %s of %s with %.1f requests at once, the longest %s",
			      busy, span, depth, longest);
		break;
	case WS_SPAN_NOTHING:
		ws_buf_printf(b, "the device was busy %s of %s, each request in <= %s",
			      busy, span, longest);
		break;
	}
}

const char *ws_stall_limit_side(double rate, uint64_t limit)
{
	double lim = (double)limit;

	/* multiplied out, so a rate exactly 10% off is exactly on the edge */
	if (rate * 100.0 > lim * (100 + WS_STALL_AT_LIMIT_PCT))
		return "above";
	if (rate * 100.0 < lim * (100 - WS_STALL_AT_LIMIT_PCT))
		return "below";
	return "at";
}

static void limit_words(struct ws_buf *b, const struct ws_stall_reason *r)
{
	const char *side = ws_stall_limit_side(r->limit.rate, r->limit.limit);

	if (r->limit.requests)
		ws_buf_printf(b, "the device took %.1f requests/s, %s the cgroup's limit of %llu/s",
			      r->limit.rate, side, (unsigned long long)r->limit.limit);
	else
		ws_buf_printf(b, "the device wrote %.1f MiB/s, %s the cgroup's limit of %.1f MiB/s",
			      r->limit.rate / (1024.0 * 1024.0), side,
			      (double)r->limit.limit / (1024.0 * 1024.0));
}

static void wbt_words(struct ws_buf *b, const struct ws_stall_reason *r)
{
	char a[24];

	units_format_duration(a, sizeof(a), (uint64_t)r->wbt.lat_us * 1000);
	ws_buf_printf(b, ": writeback throttling (wbt, latency target %s) held its write back", a);
	if (!r->wbt.known)
		ws_buf_printf(b, ", %s", r->wbt.traced ? "at limits it never changed in the trace" :
				 "its limits not traced (no wbt_step events)");
	else
		ws_buf_printf(b, "; it allowed %u writes in flight (%u of background writeback), step %d%s, changed %u times while the probe waited",
			      r->wbt.normal, r->wbt.bg, r->wbt.step,
			      r->wbt.step > 0 ? ": cut down after reads missed the target" : "",
			      r->wbt.changes);
	if (r->wbt.bios_waited)
		ws_buf_printf(b, "; bios waited up to %s for a request meanwhile",
			      units_format_duration(a, sizeof(a), r->wbt.max_bio_wait_ns));
}

/* The span judged was a commit's (on xfs a write of its log). */
static void commit_words(struct ws_buf *b, const struct ws_stall_reason *r)
{
	char ran[24], wrote[24], logged[24], phase[24];

	units_format_duration(ran, sizeof(ran), r->span.commit_ns);
	units_format_size(wrote, sizeof(wrote), r->span.wbytes);
	units_format_size(logged, sizeof(logged), r->span.log_bytes);
	if (r->span.iclogs)
		ws_buf_printf(b, ": log write %u ran %s (%u iclog%s, %s); the device wrote %s meanwhile; ",
			      r->span.tid, ran, r->span.iclogs, r->span.iclogs == 1 ? "" : "s",
			      logged, wrote);
	else
		ws_buf_printf(b, ": commit %u ran %s (%s %s); the device wrote %s meanwhile (%s the journal's); ",
			      r->span.tid, ran, units_format_duration(phase, sizeof(phase), r->span.phase_ns),
			      phase_names[r->span.phase], wrote, logged);
	span_words(b, r->span.finding, &r->span.dev);
}

/* The stall's own span, and the commit named with its share of it. */
static void own_span_words(struct ws_buf *b, const struct ws_stall *st)
{
	const struct ws_stall_reason *r = &st->reason;
	char a[24];

	ws_buf_printf(b, "; %s", r->span.finding == WS_SPAN_NOTHING ? "no traced layer held it: " : "");
	span_words(b, r->span.finding, &r->span.dev);
	if (!r->span.named)
		return;
	ws_buf_printf(b, "; %s %u ran %s, %.1f%% of the stall",
		      r->span.iclogs ? "log write" : "commit", r->span.tid,
		      units_format_duration(a, sizeof(a), r->span.commit_ns),
		      st->duration_ns ? 100.0 * (double)r->span.own_ns / (double)st->duration_ns : 0.0);
}

/* The evidence was short: say how, after the cause's own words. */
static void short_words(struct ws_buf *b, const struct ws_stall_reason *r)
{
	if (r->overwritten)
		ws_buf_printf(b, " (the run's first commits, pauses or wbt changes are no longer kept: judged without them)");
	if (r->lost_events)
		ws_buf_printf(b, " (the trace lost %llu events meanwhile: judged on part of the evidence)",
			      (unsigned long long)r->lost_events);
	if (r->before_trace)
		ws_buf_printf(b, " (it began before the trace started: judged on part of the evidence)");
}

static void waited_in(struct ws_buf *b, const struct ws_stall *st)
{
	ws_buf_printf(b, "waited in %s", st->site[0] ? st->site : "the kernel");
}

char *ws_stall_words(const struct ws_stall *st, const char *probe, char *buf, size_t len)
{
	const struct ws_stall_reason *r = &st->reason;
	struct ws_buf b = ws_buf_init(buf, len);
	char a[24];

	switch (r->cause) {
	case WS_CAUSE_NOT_TRACED:
		return buf;
	case WS_CAUSE_DIRTY:
		ws_buf_printf(&b, "%s was paused %s by the dirty limit (balance_dirty_pages)", probe,
			      units_format_duration(a, sizeof(a), r->dirty.paused_ns));
		break;
	case WS_CAUSE_LIMIT:
		waited_in(&b, st);
		ws_buf_printf(&b, "; ");
		limit_words(&b, r);
		break;
	case WS_CAUSE_WBT:
		waited_in(&b, st);
		wbt_words(&b, r);
		break;
	default:
		waited_in(&b, st);
		if (r->span.on_commit)
			commit_words(&b, r);
		else
			own_span_words(&b, st);
		break;
	}
	short_words(&b, r);
	return buf;
}
