/* live_line.h - the line redrawn in place each interval.  Short of room,
 * whole parts drop in a fixed order (live_line.c); no word is ever cut.
 * Any thread.
 */
#ifndef WS_LIVE_LINE_H
#define WS_LIVE_LINE_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record.h"

struct live_style {
	unsigned int room;	/* characters the line may take; 0: any */
	bool utf8;		/* the bar in eighth blocks, else '#' */
	bool colour;		/* a stalled or blocked probe in red */
	bool watch;		/* writestress watch: no bytes of its own */
};

/* No '\r', no newline. */
void live_line_print(FILE *out, const struct ws_interval *iv,
		     const struct live_style *style);

#endif
