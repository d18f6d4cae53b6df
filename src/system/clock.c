/* clock.c - the real clock behind struct ws_clock. */
#include <errno.h>

#include <sys/resource.h>

#include "system/clock.h"

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

static uint64_t rusage_ns(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

uint64_t ws_thread_cpu_ns(void)
{
	return rusage_ns(RUSAGE_THREAD);
}

uint64_t ws_process_cpu_ns(void)
{
	return rusage_ns(RUSAGE_SELF);
}
