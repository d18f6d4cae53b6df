/* settings.c - the words of the settings (see settings.h). */
#include <string.h>

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

bool ws_pace_parse(const char *name, enum ws_pace *mode)
{
	for (int m = 0; m < WS_PACE_NR; m++)
		if (!strcmp(name, pace_names[m])) {
			*mode = (enum ws_pace)m;
			return true;
		}
	return false;
}
