/* fake_clock.h - a struct ws_clock that moves only when told: by a test,
 * by a sleep (which moves it to its deadline at once), or by the fake I/O
 * backend's delay.  So times the writer, its pacing modes and the probes
 * measure are exact in the unit tests, whatever the machine's load.
 * Safe to read from any thread; one thread should move it at a time for
 * its figures to mean anything. */
#ifndef WS_TEST_FAKE_CLOCK_H
#define WS_TEST_FAKE_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>

#include "system/clock.h"

struct fake_clock {
	struct ws_clock ops;	/* first: a struct ws_clock * is this */
	_Atomic uint64_t ns;
};

static inline uint64_t fake_clock_now(const struct ws_clock *c)
{
	return atomic_load(&((struct fake_clock *)c)->ns);
}

static inline void fake_clock_advance(struct fake_clock *c, uint64_t ns)
{
	atomic_fetch_add(&c->ns, ns);
}

static inline void fake_clock_sleep_until(const struct ws_clock *c,
					  uint64_t deadline_ns)
{
	struct fake_clock *f = (struct fake_clock *)c;
	uint64_t now = atomic_load(&f->ns);

	while (now < deadline_ns &&
	       !atomic_compare_exchange_weak(&f->ns, &now, deadline_ns))
		;
}

/* Start at start_ns (not 0: the writer takes 0 for "not started"). */
static inline void fake_clock_init(struct fake_clock *c, uint64_t start_ns)
{
	c->ops.now = fake_clock_now;
	c->ops.sleep_until = fake_clock_sleep_until;
	atomic_init(&c->ns, start_ns);
}

#endif
