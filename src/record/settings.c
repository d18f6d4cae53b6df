/* settings.c - the words of the settings (see settings.h). */
#include <string.h>

#include "record/record.h"
#include "record/settings.h"

static const char *const pace_names[WS_PACE_NR] = {
	[WS_PACE_WINDOW] = "window", [WS_PACE_NONE] = "none",
	[WS_PACE_FDATASYNC] = "fdatasync", [WS_PACE_DIRECT] = "direct",
	[WS_PACE_DONTCACHE] = "dontcache", [WS_PACE_ADAPTIVE] = "adaptive",
};

const char *ws_pace_name(enum ws_pace mode)
{
	return (unsigned int)mode < WS_PACE_NR ? pace_names[mode] : "?";
}

/* the probes' own names (probe.c's table; a unit test holds them equal) */
static const char *const probe_kind_names[WS_PROBE_NR] = {
	[WS_PROBE_FSYNC] = "fsync", [WS_PROBE_SAVE] = "save",
	[WS_PROBE_READ] = "read", [WS_PROBE_SQLITE] = "sqlite",
	[WS_PROBE_DSYNC] = "dsync", [WS_PROBE_CMD] = "cmd",
};

const char *ws_probe_kind_name(enum ws_probe_kind kind)
{
	return (unsigned int)kind < WS_PROBE_NR ? probe_kind_names[kind] : "?";
}

static const char *const adapt_why_keys[WS_ADAPT_WHY_NR] = {
	[WS_ADAPT_SETTLED] = "settled", [WS_ADAPT_STARTING] = "starting",
	[WS_ADAPT_NO_PROBES] = "no_probes", [WS_ADAPT_OVER] = "over_target",
	[WS_ADAPT_RACING] = "racing", [WS_ADAPT_MOVING] = "moving",
	[WS_ADAPT_UNREACHABLE] = "unreachable",
};

const char *ws_adapt_why_key(enum ws_adapt_why why)
{
	return (unsigned int)why < WS_ADAPT_WHY_NR ? adapt_why_keys[why] : "?";
}

bool ws_pace_parse(const char *name, enum ws_pace *mode)
{
	for (int m = 0; m < WS_PACE_NR; m++)
		if (!strcmp(name, pace_names[m])) {
			*mode = (enum ws_pace)m;
			return true;
		}
	return false;
}
