/* slow_fsync.so - an LD_PRELOAD shim for the tests: makes fsync() and
 * fdatasync() of matching files take a known extra time, so a test can
 * check that writestress reports exactly the latency it was given.
 *
 *   WS_SLOW_FSYNC_MS     delay in milliseconds (unset or 0: no delay)
 *   WS_SLOW_FSYNC_MATCH  substring of the file's path (default
 *                        "writestress-probe")
 *   WS_SLOW_FSYNC_ONLY   1: the delay replaces the real call, so the
 *                        latency is exactly the delay (the disk's own
 *                        fsync time is noise a test should not depend on)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Returns 1 if the call was delayed and the real one should be skipped. */
static int maybe_delay(int fd)
{
	const char *ms = getenv("WS_SLOW_FSYNC_MS");
	const char *match = getenv("WS_SLOW_FSYNC_MATCH");
	char link[64], path[4096];
	ssize_t n;
	long delay;

	if (!ms || (delay = strtol(ms, NULL, 10)) <= 0)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	if (!strstr(path, match && *match ? match : "writestress-probe"))
		return 0;
	struct timespec ts = { delay / 1000, (delay % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
	ms = getenv("WS_SLOW_FSYNC_ONLY");
	return ms && *ms == '1';
}

int fsync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	return maybe_delay(fd) ? 0 : real(fd);
}

int fdatasync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	return maybe_delay(fd) ? 0 : real(fd);
}
