/* causes.c - words for a request's submitter and a writeback's reason. */
#include "record/record.h"

static const char *const submitter_names[WS_SUB_NR] = {
	[WS_SUB_OTHER] = "other", [WS_SUB_WRITER] = "writer",
	[WS_SUB_PROBES] = "probes", [WS_SUB_JOURNAL] = "journal",
	[WS_SUB_FLUSHER] = "flusher",
};

const char *ws_obs_why_name(enum ws_obs_why w)
{
	static const char *const names[] = {
		[WS_OBS_SHORT] = "too short a run",
		[WS_OBS_ALWAYS_BUSY] = "its work was in flight nearly all the time",
		[WS_OBS_NOTHING_FREE] = "the writer wrote nothing without its work in flight",
		[WS_OBS_BEYOND_DEVICE] = "the rate while its work was in flight is beyond any the device did",
	};

	return w > WS_OBS_JUDGED && w <= WS_OBS_BEYOND_DEVICE ? names[w] : NULL;
}

void ws_observer_within_device(struct ws_observer_cost *o, double device_mibps)
{
	o->device_mibps = device_mibps;
	if (!o->judged || o->bound || !(device_mibps > 0))
		return;
	/* Not the free rate: with the work in flight in every interval, the
	 * writer's rate between its spans is over every interval's when the
	 * work held it back - the cost itself. */
	if (o->busy_mibps > device_mibps) {
		o->judged = o->negligible = false;
		o->why_not = WS_OBS_BEYOND_DEVICE;
		o->speedup = 0;
	}
}

const char *ws_submitter_name(enum ws_submitter s)
{
	return (unsigned int)s < WS_SUB_NR ? submitter_names[s] : "?";
}

/* "flusher" is any kernel worker: a cgroup limit's dispatch and the
 * metadata they send are not the flusher's writeback works */
const char *ws_submitter_words(enum ws_submitter s)
{
	return s == WS_SUB_FLUSHER ? "kernel workers" : ws_submitter_name(s);
}

/* The kernel's enum wb_reason in its order (linux/backing-dev-defs.h);
 * the last one also stands for any newer. */
static const char *const wb_reason_names[WS_WB_REASONS] = {
	"background", "vmscan", "sync", "periodic", "laptop_timer",
	"fs_free_space", "forker_thread", "foreign_flush",
};

const char *ws_wb_reason_name(unsigned int r)
{
	return r < WS_WB_REASONS ? wb_reason_names[r] : "?";
}
