/* runcost.c - run one benchmark contender and say what it cost.
 *
 * usage: runcost [-l SECONDS] -o FILE CMD [ARG]...
 *
 * Runs CMD and appends one line to FILE:
 *     WALL USER SYS MAXRSS
 * WALL is the wall-clock time from just before fork() to wait4()'s return
 * (CLOCK_MONOTONIC, seconds); USER and SYS are the CPU seconds of CMD and of
 * every descendant it waited for, and MAXRSS its peak resident set in KiB,
 * all from wait4()'s rusage, to the microsecond.
 *
 * Why C and not python3 (or any big interpreter) around the contender: a
 * process's ru_maxrss starts from the high-water mark of the memory it had
 * before its first exec, i.e. its parent's image after fork().  Under a
 * python wrapper every contender would show at least python's ~9 MiB; under
 * this one, about 1 MiB.
 *
 * With -l, CMD gets SIGTERM after SECONDS and SIGKILL 5 s later, and the
 * exit status is 124 (as timeout(1)).  Otherwise the exit status is CMD's,
 * 128 + N if signal N killed it, 127 if it could not be run, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t expired;
static pid_t child;

static void on_alarm(int sig)
{
	(void)sig;
	kill(child, expired ? SIGKILL : SIGTERM);
	expired = 1;
	alarm(5);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double secs(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int usage(void)
{
	fprintf(stderr, "usage: runcost [-l SECONDS] -o FILE CMD [ARG]...\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	unsigned long limit = 0;
	struct sigaction sa;
	struct rusage ru;
	double t0, t1;
	char *end;
	FILE *f;
	int opt, st;

	while ((opt = getopt(argc, argv, "+l:o:")) != -1) {
		switch (opt) {
		case 'l':
			limit = strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				return usage();
			break;
		case 'o':
			out = optarg;
			break;
		default:
			return usage();
		}
	}
	if (!out || optind >= argc)
		return usage();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: wait4 sees EINTR */
	sigaction(SIGALRM, &sa, NULL);

	t0 = now();
	child = fork();
	if (child < 0) {
		perror("runcost: fork");
		return 127;
	}
	if (child == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "runcost: cannot run %s: %s\n", argv[optind],
			strerror(errno));
		_exit(127);
	}
	if (limit)
		alarm((unsigned)limit);
	while (wait4(child, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("runcost: wait4");
			return 127;
		}
	}
	t1 = now();
	alarm(0);

	f = fopen(out, "a");
	if (!f || fprintf(f, "%.6f %.6f %.6f %ld\n", t1 - t0, secs(ru.ru_utime),
			  secs(ru.ru_stime), ru.ru_maxrss) < 0 || fclose(f)) {
		fprintf(stderr, "runcost: cannot write %s\n", out);
		return 127;
	}
	if (expired)
		return 124;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
