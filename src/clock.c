/* clock.c - the real clock behind struct ws_clock (see clock.h). */
#include <errno.h>

#include "clock.h"

static uint64_t real_now(const struct ws_clock *c)
{
	(void)c;
	return ws_now_ns();
}

static void real_sleep_until(const struct ws_clock *c, uint64_t deadline_ns)
{
	struct timespec ts = ws_timespec(deadline_ns);

	(void)c;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

const struct ws_clock ws_real_clock = {
	.now = real_now,
	.sleep_until = real_sleep_until,
};
