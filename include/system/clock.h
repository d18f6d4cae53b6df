/* clock.h - CLOCK_MONOTONIC in ns, immune to wall-clock steps.  The writer,
 * pacing and probes read a struct ws_clock so tests can run them on a fake
 * clock with exact figures.  Thread-safe.
 */
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

struct ws_clock {
	uint64_t (*now)(const struct ws_clock *c);
	/* returns at once if deadline_ns has passed */
	void (*sleep_until)(const struct ws_clock *c, uint64_t deadline_ns);
};

extern const struct ws_clock ws_real_clock;

/* User + system CPU time in ns: what the tool itself costs. */
uint64_t ws_thread_cpu_ns(void);
uint64_t ws_process_cpu_ns(void);

#endif
