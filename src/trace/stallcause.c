/* stallcause.c - the rules of a stall's cause (see stallcause.h). */
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "stallcause.h"

/* part is at least pct% of whole */
static int at_least(double part, double whole, unsigned int pct)
{
	return whole > 0 && part * 100.0 >= whole * pct;
}

/* part is at most pct% of whole */
static int at_most(double part, double whole, unsigned int pct)
{
	return part * 100.0 <= whole * pct;
}

static double per_second(uint64_t n, uint64_t ns)
{
	return ns ? (double)n / ((double)ns / 1e9) : 0;
}

/* Rule 2: a cgroup's limit set the device's pace. */
static int at_limit(const struct stall_evidence *ev, char *out, size_t len)
{
	const struct stall_span *s = &ev->stall;
	double bps = per_second(s->wbytes, s->span_ns);
	double iops = per_second(s->wrequests, s->span_ns);

	if (ev->limit_bps && at_least(bps, (double)ev->limit_bps, STALL_LIMIT_PCT) &&
	    at_most(bps, (double)ev->limit_bps, STALL_LIMIT_MAX_PCT)) {
		snprintf(out, len, "the device wrote %.1f MiB/s, at the cgroup's limit of %.1f MiB/s",
			 bps / (1024.0 * 1024.0), (double)ev->limit_bps / (1024.0 * 1024.0));
		return 1;
	}
	if (ev->limit_iops && at_least(iops, (double)ev->limit_iops, STALL_LIMIT_PCT) &&
	    at_most(iops, (double)ev->limit_iops, STALL_LIMIT_MAX_PCT)) {
		snprintf(out, len, "the device took %.1f requests/s, at the cgroup's limit of %llu/s",
			 iops, (unsigned long long)ev->limit_iops);
		return 1;
	}
	return 0;
}

/* The commit's longest phase, and its name in words. */
static uint64_t longest_phase(const struct stall_evidence *ev, const char **name)
{
	*name = "locked";
	if (ev->flushing_ns > ev->locked_ns && ev->flushing_ns >= ev->logging_ns) {
		*name = "flushing";
		return ev->flushing_ns;
	}
	if (ev->logging_ns > ev->locked_ns) {
		*name = "logging";
		return ev->logging_ns;
	}
	return ev->locked_ns;
}

/* Rule 4 over one span: queue, device, or neither (-1); the words. */
static int judge(const struct stall_span *s, char *out, size_t len)
{
	char a[24], b[24], c[24];
	double depth = s->span_ns ? (double)s->busy_ns / (double)s->span_ns : 0;

	units_format_duration(a, sizeof(a), s->max_service_ns);
	if (depth >= STALL_QUEUE_DEPTH) {
		snprintf(out, len, "the device held %.1f requests at once on average, each answered in <= %s",
			 depth, a);
		return WS_CAUSE_QUEUE;
	}
	if (at_least((double)s->max_queue_ns, (double)s->span_ns, STALL_HALF_PCT)) {
		snprintf(out, len, "a request waited %s to be issued",
			 units_format_duration(b, sizeof(b), s->max_queue_ns));
		return WS_CAUSE_QUEUE;
	}
	if (at_least((double)s->busy_ns, (double)s->span_ns, STALL_HALF_PCT)) {
		snprintf(out, len, "the device was busy %s of %s with %.1f requests at once, the longest %s",
			 units_format_duration(b, sizeof(b), s->busy_ns),
			 units_format_duration(c, sizeof(c), s->span_ns), depth, a);
		return WS_CAUSE_DEVICE;
	}
	snprintf(out, len, "the device was busy %s of %s, each request in <= %s",
		 units_format_duration(b, sizeof(b), s->busy_ns),
		 units_format_duration(c, sizeof(c), s->span_ns), a);
	return -1;
}

static enum ws_stall_cause judged(const struct stall_evidence *ev, char *why, size_t len);

/* Rule 3: the probe's own write waited for wbt's room.  rq_qos_wait is
 * also where io.latency makes writes wait: wbt must be on for the disk. */
static int wbt_held(const struct stall_evidence *ev, char *out, size_t len)
{
	const char *site = ev->site ? ev->site : "";
	char a[24];

	if (!ev->wbt_lat_us || (strcmp(site, "rq_qos_wait") && strncmp(site, "wbt_", 4)))
		return 0;
	units_format_duration(a, sizeof(a), (uint64_t)ev->wbt_lat_us * 1000);
	if (!ev->wbt_known)
		snprintf(out, len, "waited in %s: writeback throttling (wbt, latency target %s) held its write back, %s",
			 site, a, ev->wbt_traced ? "at limits it never changed in the trace" :
			 "its limits not traced (no wbt_step events)");
	else
		snprintf(out, len, "waited in %s: writeback throttling (wbt, latency target %s) held its write back; it allowed %u writes in flight (%u of background writeback), step %d%s, changed %u times while the probe waited",
			 site, a, ev->wbt_normal, ev->wbt_bg, ev->wbt_step,
			 ev->wbt_step > 0 ? ": cut down after reads missed the target" : "",
			 ev->wbt_changes);
	if (ev->stall.request_waits) {
		size_t n = strlen(out);

		units_format_duration(a, sizeof(a), ev->stall.max_request_wait_ns);
		if (n < len)
			snprintf(out + n, len - n, "; bios waited up to %s for a request meanwhile", a);
	}
	return 1;
}

enum ws_stall_cause stall_cause(const struct stall_evidence *ev, char *why, size_t len)
{
	enum ws_stall_cause c = judged(ev, why, len);
	size_t n = strlen(why);

	if (ev->overwritten && n < len)
		snprintf(why + n, len - n, " (the run's first commits, pauses or wbt changes are no longer kept: judged without them)");
	return c;
}

static enum ws_stall_cause judged(const struct stall_evidence *ev, char *why, size_t len)
{
	char a[24], b[24], c[24], d[24], words[160];
	const char *site = ev->site && ev->site[0] ? ev->site : "the kernel", *phase;
	int c3;

	if (at_least((double)ev->paused_ns, (double)ev->duration_ns, STALL_HALF_PCT)) {
		snprintf(why, len, "%s was paused %s by the dirty limit (balance_dirty_pages)",
			 ev->what, units_format_duration(a, sizeof(a), ev->paused_ns));
		return WS_CAUSE_DIRTY;
	}
	if (at_limit(ev, words, sizeof(words))) {
		snprintf(why, len, "waited in %s; %s", site, words);
		return WS_CAUSE_LIMIT;
	}
	if (wbt_held(ev, why, len))
		return WS_CAUSE_WBT;
	if (ev->commit_ns &&
	    at_least((double)ev->commit_covered_ns, (double)ev->duration_ns, STALL_HALF_PCT)) {
		uint64_t longest = longest_phase(ev, &phase);

		c3 = judge(&ev->commit, words, sizeof(words));
		if (ev->commit_iclogs)	/* xfs: a write of its log */
			snprintf(why, len, "waited in %s: log write %u ran %s (%u iclog%s, %s); the device wrote %s meanwhile; %s",
				 site, ev->commit_tid, units_format_duration(a, sizeof(a), ev->commit_ns),
				 ev->commit_iclogs, ev->commit_iclogs == 1 ? "" : "s",
				 units_format_size(d, sizeof(d), ev->commit_own_bytes),
				 units_format_size(c, sizeof(c), ev->commit.wbytes), words);
		else
			snprintf(why, len, "waited in %s: commit %u ran %s (%s %s); the device wrote %s meanwhile (%s the journal's); %s",
				 site, ev->commit_tid, units_format_duration(a, sizeof(a), ev->commit_ns),
				 units_format_duration(b, sizeof(b), longest), phase,
				 units_format_size(c, sizeof(c), ev->commit.wbytes),
				 units_format_size(d, sizeof(d), ev->commit_own_bytes), words);
		return c3 < 0 ? WS_CAUSE_JOURNAL : (enum ws_stall_cause)c3;
	}
	c3 = judge(&ev->stall, words, sizeof(words));
	snprintf(why, len, "waited in %s; %s%s", site, c3 < 0 ? "no traced layer held it: " : "", words);
	/* less than half of it, the probe in the journal's code: named, with
	 * its share */
	if (ev->commit_ns && ev->site &&
	    (!strncmp(ev->site, "jbd2_", 5) || !strncmp(ev->site, "xlog_", 5))) {
		size_t n = strlen(why);

		if (n < len)
			snprintf(why + n, len - n, "; %s %u ran %s, %.1f%% of the stall",
				 ev->commit_iclogs ? "log write" : "commit", ev->commit_tid,
				 units_format_duration(a, sizeof(a), ev->commit_ns),
				 ev->duration_ns ? 100.0 * (double)ev->commit_own_ns /
							   (double)ev->duration_ns : 0.0);
	}
	return c3 < 0 ? WS_CAUSE_UNKNOWN : (enum ws_stall_cause)c3;
}
