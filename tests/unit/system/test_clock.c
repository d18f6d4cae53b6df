/* test_clock.c - the clock: ns to struct timespec, ws_now_ns() as
 * CLOCK_MONOTONIC, and the contract of struct ws_clock - now() never goes
 * back, sleep_until() returns only once now() has reached the deadline
 * (at once for one already past), also when signals interrupt the sleep -
 * held by the real clock and by the tests' fake alike.  Nothing here
 * judges how long anything took. */
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <check.h>

#include "lib/c.h"
#include "system/clock.h"
#include "fake_clock.h"
#include "suites.h"

#define NS UINT64_C(1000000000)

/* ---- ws_timespec ---- */

static const struct {
	uint64_t ns;
	time_t sec;
	long nsec;
} specs[] = {
	{ 0, 0, 0 },
	{ 1, 0, 1 },
	{ 999999999, 0, 999999999 },
	{ NS, 1, 0 },
	{ 1500000000, 1, 500000000 },
	{ UINT64_C(123456789012345678), 123456789, 12345678 },
	{ UINT64_MAX, (time_t)(UINT64_MAX / NS), (long)(UINT64_MAX % NS) },
};

START_TEST(test_timespec)
{
	struct timespec ts = ws_timespec(specs[_i].ns);

	ck_assert_int_eq(ts.tv_sec, specs[_i].sec);
	ck_assert_int_eq(ts.tv_nsec, specs[_i].nsec);
	ck_assert_int_lt(ts.tv_nsec, 1000000000);
}
END_TEST

/* ---- ws_now_ns is CLOCK_MONOTONIC ---- */

static uint64_t monotonic(void)
{
	struct timespec ts;

	ck_assert_int_eq(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

START_TEST(test_now_is_monotonic_clock)
{
	for (int i = 0; i < 1000; i++) {
		uint64_t a = monotonic(), b = ws_now_ns(), c = monotonic();

		/* read between two readings of CLOCK_MONOTONIC */
		ck_assert_uint_le(a, b);
		ck_assert_uint_le(b, c);
		b = ws_real_clock.now(&ws_real_clock);
		ck_assert_uint_le(c, b);
		ck_assert_uint_le(b, monotonic());
	}
}
END_TEST

/* ---- the struct ws_clock contract, real and fake ---- */

static struct fake_clock fake;

static const struct ws_clock *clock_under_test(int i)
{
	if (i == 0)
		return &ws_real_clock;
	fake_clock_init(&fake, 1000);
	return &fake.ops;
}

START_TEST(test_contract)
{
	const struct ws_clock *c = clock_under_test(_i);
	uint64_t t0 = c->now(c), t, deadline;

	/* a deadline past, or now: returns, time does not go back */
	c->sleep_until(c, 0);
	c->sleep_until(c, t0);
	t = c->now(c);
	ck_assert_uint_ge(t, t0);
	/* a deadline ahead: reached on return */
	for (int i = 1; i <= 5; i++) {
		deadline = c->now(c) + (uint64_t)i * 1000000;
		c->sleep_until(c, deadline);
		t = c->now(c);
		ck_assert_uint_ge(t, deadline);
	}
	/* never backwards */
	for (int i = 0; i < 100; i++) {
		uint64_t u = c->now(c);

		ck_assert_uint_ge(u, t);
		t = u;
	}
}
END_TEST

/* The fake moves to a deadline exactly, and a test moves it by steps. */
START_TEST(test_fake_exact)
{
	const struct ws_clock *c = clock_under_test(1);

	ck_assert_uint_eq(c->now(c), 1000);
	c->sleep_until(c, 5000);
	ck_assert_uint_eq(c->now(c), 5000);
	c->sleep_until(c, 4000);		/* past: stays */
	ck_assert_uint_eq(c->now(c), 5000);
	fake_clock_advance(&fake, 250);
	ck_assert_uint_eq(c->now(c), 5250);
}
END_TEST

/* Signals (without SA_RESTART) every millisecond do not cut a sleep
 * short: sleep_until returns only once the deadline is reached. */
static atomic_int ticks;

static void on_tick(int signo)
{
	(void)signo;
	atomic_fetch_add(&ticks, 1);
}

START_TEST(test_sleep_survives_signals)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	const struct itimerval off = { { 0, 0 }, { 0, 0 } };
	uint64_t deadline;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;		/* interrupt, do not restart */
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	/* a deadline far enough for ticks to land in the sleep */
	deadline = ws_real_clock.now(&ws_real_clock) + 50000000;
	ws_real_clock.sleep_until(&ws_real_clock, deadline);
	ck_assert_uint_ge(ws_real_clock.now(&ws_real_clock), deadline);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &off, NULL), 0);
	ck_assert_int_gt(atomic_load(&ticks), 0);	/* it was interrupted */
}
END_TEST

Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("clock");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_timespec, 0, ARRAY_SIZE(specs));
	tcase_add_test(tc, test_now_is_monotonic_clock);
	tcase_add_loop_test(tc, test_contract, 0, 2);
	tcase_add_test(tc, test_fake_exact);
	tcase_add_test(tc, test_sleep_survives_signals);
	suite_add_tcase(s, tc);
	return s;
}
