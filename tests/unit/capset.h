/* capset.h - what the caps, priv and thread suites need to act as a user
 * without a capability, and to see what the kernel says a thread holds.
 * Capabilities belong to the calling thread; a test case runs in a process
 * of its own (fork mode), so what it drops goes with it. */
#ifndef WS_TEST_CAPSET_H
#define WS_TEST_CAPSET_H

#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

/* Clear (or set) cap in the calling thread's effective set; with
 * permitted, in its permitted set too (then it cannot come back). */
static inline void capset_flag(cap_value_t cap, bool on, bool permitted)
{
	cap_t c = cap_get_proc();

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(cap_set_flag(c, CAP_EFFECTIVE, 1, &cap,
				      on ? CAP_SET : CAP_CLEAR), 0);
	if (permitted)
		ck_assert_int_eq(cap_set_flag(c, CAP_PERMITTED, 1, &cap,
					      on ? CAP_SET : CAP_CLEAR), 0);
	ck_assert_msg(cap_set_proc(c) == 0, "cap_set_proc: %s", strerror(errno));
	cap_free(c);
}

/* A set from /proc/thread-self/status: field "CapEff", "CapPrm", ... */
static inline uint64_t capset_of_thread(const char *field)
{
	char line[256];
	size_t n = strlen(field);
	uint64_t v = UINT64_MAX;
	FILE *f = fopen("/proc/thread-self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':')
			ck_assert_int_eq(sscanf(line + n + 1, "%" SCNx64, &v), 1);
	fclose(f);
	ck_assert_msg(v != UINT64_MAX, "no %s in /proc/thread-self/status", field);
	return v;
}

#define CAPSET_BIT(cap) (UINT64_C(1) << (cap))

#endif
