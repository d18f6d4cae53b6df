/* clock.h - the one clock writestress measures with: CLOCK_MONOTONIC in
 * nanoseconds (immune to wall-clock steps, and the clock the recorder's
 * absolute deadlines use).  Thread-safe.
 *
 * The writer, its pacing modes and the probes read time through a struct
 * ws_clock, so the unit tests run them on a clock that moves only when a
 * test (or a fake I/O call's "delay") moves it: figures of time are then
 * exact, whatever the machine's load.  Everything else reads ws_now_ns().
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
	/* now, in ns */
	uint64_t (*now)(const struct ws_clock *c);
	/* return once now() has reached deadline_ns (at once if it has) */
	void (*sleep_until)(const struct ws_clock *c, uint64_t deadline_ns);
};

/* CLOCK_MONOTONIC and clock_nanosleep(TIMER_ABSTIME). */
extern const struct ws_clock ws_real_clock;

/* CPU time (user + system) of the calling thread, or of the whole
 * process, in ns: what the tool itself costs, beside what the disk does. */
uint64_t ws_thread_cpu_ns(void);
uint64_t ws_process_cpu_ns(void);

#endif
