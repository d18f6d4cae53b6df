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
 *   WS_SLOW_FSYNC_LOG    a file: one line per call on a matching file,
 *                        "pwrite NS" or "fsync NS", the time the call
 *                        really took here (a sleep of 300 ms can last
 *                        longer on a busy machine, and a write can wait
 *                        for memory): what the test compares the
 *                        reported latencies with
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int matches(int fd)
{
	const char *match = getenv("WS_SLOW_FSYNC_MATCH");
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return strstr(path, match && *match ? match : "writestress-probe") != NULL;
}

/* The log's lines are kept in memory and written when the process exits:
 * writing them during the run would put a write to the test's own disk
 * inside the probe's timed span. */
static char log_buf[64 * 1024];
static size_t log_len;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_call(const char *what, long long ns)
{
	const char *file = getenv("WS_SLOW_FSYNC_LOG");
	int len;

	if (!file || !*file)
		return;
	pthread_mutex_lock(&log_lock);
	len = snprintf(log_buf + log_len, sizeof(log_buf) - log_len, "%s %lld\n",
		       what, ns);
	if (len > 0 && (size_t)len < sizeof(log_buf) - log_len)
		log_len += (size_t)len;
	pthread_mutex_unlock(&log_lock);
}

__attribute__((destructor)) static void log_write(void)
{
	const char *file = getenv("WS_SLOW_FSYNC_LOG");
	int fd;

	if (!file || !*file || !log_len)
		return;
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, log_buf, log_len) < 0)
		log_len = 0;
	close(fd);
}

static long delay_ms(void)
{
	const char *ms = getenv("WS_SLOW_FSYNC_MS");
	long delay;

	return ms && (delay = strtol(ms, NULL, 10)) > 0 ? delay : 0;
}

/* Returns 1 if the call was delayed and the real one should be skipped. */
static int maybe_delay(int fd)
{
	long delay = delay_ms();
	const char *only;

	if (!delay || !matches(fd))
		return 0;
	struct timespec ts = { delay / 1000, (delay % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
	only = getenv("WS_SLOW_FSYNC_ONLY");
	return only && *only == '1';
}

static int timed_sync(int fd, int (*real)(int))
{
	long long start = mono_ns();
	int logged = delay_ms() && matches(fd);
	int ret = maybe_delay(fd) ? 0 : real(fd);

	if (logged)
		log_call("fsync", mono_ns() - start);
	return ret;
}

int fsync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	return timed_sync(fd, real);
}

int fdatasync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	return timed_sync(fd, real);
}

/* The probe's write before its fsync, timed only when a log is asked for
 * (the writer's own pwrite calls then pay a readlink each: a test's cost). */
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	long long start;
	ssize_t ret;
	const char *file = getenv("WS_SLOW_FSYNC_LOG");

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t, off_t))
			dlsym(RTLD_NEXT, "pwrite");
	if (!file || !*file || !delay_ms() || !matches(fd))
		return real(fd, buf, count, offset);
	start = mono_ns();
	ret = real(fd, buf, count, offset);
	log_call("pwrite", mono_ns() - start);
	return ret;
}
