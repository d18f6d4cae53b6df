/* fail_capset.so - an LD_PRELOAD shim for the privilege test: libcap's
 * cap_set_proc() fails with EPERM from a chosen call on, so a test can
 * check that a thread that cannot drop its capabilities fails the run.
 *
 *   WS_FAIL_CAPSET_AFTER  calls that succeed first (unset: every call
 *                         succeeds); each later call fails with EPERM
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef void *cap_t;

int cap_set_proc(cap_t caps);

static atomic_long calls;

int cap_set_proc(cap_t caps)
{
	int (*real)(cap_t) = (int (*)(cap_t))dlsym(RTLD_NEXT, "cap_set_proc");
	const char *after = getenv("WS_FAIL_CAPSET_AFTER");

	if (after && atomic_fetch_add(&calls, 1) >= strtol(after, NULL, 10)) {
		errno = EPERM;
		return -1;
	}
	return real ? real(caps) : -1;
}
