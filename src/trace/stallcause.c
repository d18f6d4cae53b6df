#include <string.h>

#include "stallcause.h"

static int at_least(double part, double whole, unsigned int pct)
{
	return whole > 0 && part * 100.0 >= whole * pct;
}

static int at_most(double part, double whole, unsigned int pct)
{
	return part * 100.0 <= whole * pct;
}

static double per_second(uint64_t n, uint64_t ns)
{
	return ns ? (double)n / ((double)ns / 1e9) : 0;
}

static bool near_limit(double rate, uint64_t limit)
{
	return limit && at_least(rate, (double)limit, STALL_LIMIT_PCT) &&
	       at_most(rate, (double)limit, STALL_LIMIT_MAX_PCT);
}

/* Rule 2. */
static bool at_limit(const struct stall_evidence *ev, struct ws_stall_reason *r)
{
	const struct stall_span *s = &ev->stall;
	double bps = per_second(s->wbytes, s->span_ns);
	double iops = per_second(s->wrequests, s->span_ns);

	if (near_limit(bps, ev->limit_bps)) {
		r->limit.rate = bps;
		r->limit.limit = ev->limit_bps;
		return true;
	}
	if (near_limit(iops, ev->limit_iops)) {
		r->limit.rate = iops;
		r->limit.limit = ev->limit_iops;
		r->limit.requests = true;
		return true;
	}
	return false;
}

/* Rule 3.  rq_qos_wait is also where io.latency holds writes: wbt must be
 * on for the disk. */
static bool wbt_held(const struct stall_evidence *ev, struct ws_stall_reason *r)
{
	const char *site = ev->site ? ev->site : "";

	if (!ev->wbt_lat_us || (strcmp(site, "rq_qos_wait") && strncmp(site, "wbt_", 4)))
		return false;
	r->wbt.lat_us = ev->wbt_lat_us;
	r->wbt.traced = ev->wbt_traced;
	r->wbt.known = ev->wbt_known;
	r->wbt.step = ev->wbt_step;
	r->wbt.normal = ev->wbt_normal;
	r->wbt.bg = ev->wbt_bg;
	r->wbt.changes = ev->wbt_changes;
	r->wbt.bios_waited = ev->stall.request_waits > 0;
	r->wbt.max_bio_wait_ns = ev->stall.max_request_wait_ns;
	return true;
}

/* The first of equals in the commit's own order. */
static enum ws_commit_phase longest_phase(const struct stall_evidence *ev, uint64_t *ns)
{
	if (ev->flushing_ns > ev->locked_ns && ev->flushing_ns >= ev->logging_ns) {
		*ns = ev->flushing_ns;
		return WS_PHASE_FLUSHING;
	}
	if (ev->logging_ns > ev->locked_ns) {
		*ns = ev->logging_ns;
		return WS_PHASE_LOGGING;
	}
	*ns = ev->locked_ns;
	return WS_PHASE_LOCKED;
}

/* Rule 4 over one span. */
static enum ws_span_finding judge(const struct stall_span *s, struct ws_stall_span *dev)
{
	double depth = s->span_ns ? (double)s->busy_ns / (double)s->span_ns : 0;

	*dev = (struct ws_stall_span){
		.span_ns = s->span_ns, .busy_ns = s->busy_ns,
		.max_service_ns = s->max_service_ns, .max_queue_ns = s->max_queue_ns,
	};
	if (depth >= STALL_QUEUE_DEPTH)
		return WS_SPAN_DEPTH;
	if (at_least((double)s->max_queue_ns, (double)s->span_ns, STALL_HALF_PCT))
		return WS_SPAN_ISSUE_WAIT;
	if (at_least((double)s->busy_ns, (double)s->span_ns, STALL_HALF_PCT))
		return WS_SPAN_BUSY;
	return WS_SPAN_NOTHING;
}

static void commit_of(const struct stall_evidence *ev, struct ws_stall_reason *r)
{
	r->span.tid = ev->commit_tid;
	r->span.iclogs = ev->commit_iclogs;
	r->span.commit_ns = ev->commit_ns;
	r->span.own_ns = ev->commit_own_ns;
}

/* Rule 4. */
static enum ws_stall_cause span_held(const struct stall_evidence *ev, struct ws_stall_reason *r)
{
	enum ws_span_finding f;

	if (ev->commit_ns &&
	    at_least((double)ev->commit_covered_ns, (double)ev->duration_ns, STALL_HALF_PCT)) {
		f = judge(&ev->commit, &r->span.dev);
		r->span.on_commit = true;
		commit_of(ev, r);
		r->span.phase = longest_phase(ev, &r->span.phase_ns);
		r->span.log_bytes = ev->commit_own_bytes;
		r->span.wbytes = ev->commit.wbytes;
	} else {
		f = judge(&ev->stall, &r->span.dev);
		r->span.named = ev->commit_ns && ev->site &&
				(!strncmp(ev->site, "jbd2_", 5) || !strncmp(ev->site, "xlog_", 5));
		if (r->span.named)
			commit_of(ev, r);
	}
	r->span.finding = f;
	if (f == WS_SPAN_DEPTH || f == WS_SPAN_ISSUE_WAIT)
		return WS_CAUSE_QUEUE;
	if (f == WS_SPAN_BUSY)
		return WS_CAUSE_DEVICE;
	return r->span.on_commit ? WS_CAUSE_JOURNAL : WS_CAUSE_UNKNOWN;
}

enum ws_stall_cause stall_cause(const struct stall_evidence *ev, struct ws_stall_reason *r)
{
	*r = (struct ws_stall_reason){ .overwritten = ev->overwritten };
	if (at_least((double)ev->paused_ns, (double)ev->duration_ns, STALL_HALF_PCT)) {
		r->dirty.paused_ns = ev->paused_ns;
		r->cause = WS_CAUSE_DIRTY;
	} else if (at_limit(ev, r)) {
		r->cause = WS_CAUSE_LIMIT;
	} else if (wbt_held(ev, r)) {
		r->cause = WS_CAUSE_WBT;
	} else {
		r->cause = span_held(ev, r);
	}
	return r->cause;
}
