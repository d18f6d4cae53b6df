/* causes.c - the words of a stall's cause (see record.h). */
#include "record/record.h"

static const char *const cause_names[WS_CAUSE_NR] = {
	[WS_CAUSE_NOT_TRACED] = "",
	[WS_CAUSE_DEVICE] = "device",
	[WS_CAUSE_QUEUE] = "queue behind other writes",
	[WS_CAUSE_JOURNAL] = "journal commit",
	[WS_CAUSE_DIRTY] = "dirty throttling",
	[WS_CAUSE_LIMIT] = "cgroup I/O limit",
	[WS_CAUSE_UNKNOWN] = "unknown",
};

const char *ws_stall_cause_name(enum ws_stall_cause c)
{
	return (unsigned int)c < WS_CAUSE_NR ? cause_names[c] : "?";
}
