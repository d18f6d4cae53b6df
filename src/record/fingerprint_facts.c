/* fingerprint_facts.c - words for the fingerprint's facts. */
#include "record/fingerprint_facts.h"

const char *fingerprint_kind_name(enum ws_fp_kind kind)
{
	static const char *const names[] = {
		[WS_FP_NONE] = "none", [WS_FP_DISK] = "disk",
		[WS_FP_PARTITION] = "partition", [WS_FP_LOOP] = "loop",
		[WS_FP_DM] = "dm", [WS_FP_MD] = "md",
	};

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ?
		names[kind] : "none";
}
