/* clock.h - the one clock writestress measures with: CLOCK_MONOTONIC in
 * nanoseconds (immune to wall-clock steps, and the clock the reporter's
 * absolute deadlines use).  Thread-safe. */
#ifndef WS_CLOCK_H
#define WS_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t ws_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline struct timespec ws_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};
	return ts;
}

#endif
