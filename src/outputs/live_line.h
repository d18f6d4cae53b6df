/* live_line.h - the line a terminal shows during the run, redrawn in
 * place each interval: what was written, the rate, the worst probe, the
 * ETA and then the rest, made to fit the terminal's width.
 *
 * When the room runs short, parts are dropped or shortened in one fixed
 * order (live_line.c): first the rest (busiest timer, device rate, the
 * targets' detail, the average, the bar, the other probes), then "now"
 * and the worst probe's max and wait site, the percentage, the elapsed
 * time, the blanks between parts; last of all the ETA, the worst probe,
 * the rate and the bytes.  A part is shown whole or not at all: no word
 * is ever cut.  Pure; any thread.
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
};

/* Print IV's live line (no '\r', no newline) to OUT. */
void live_line_print(FILE *out, const struct ws_interval *iv,
		     const struct live_style *style);

#endif
