/* causes.c - words for a request's submitter and a writeback's reason. */
#include "record/record.h"

static const char *const submitter_names[WS_SUB_NR] = {
	[WS_SUB_OTHER] = "other", [WS_SUB_WRITER] = "writer",
	[WS_SUB_PROBES] = "probes", [WS_SUB_JOURNAL] = "journal",
	[WS_SUB_FLUSHER] = "flusher",
};

const char *ws_submitter_name(enum ws_submitter s)
{
	return (unsigned int)s < WS_SUB_NR ? submitter_names[s] : "?";
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
