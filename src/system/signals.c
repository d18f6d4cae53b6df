/* signals.c - graceful stop on SIGINT/SIGTERM/SIGPIPE, at once on a second
 * SIGINT. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "lib/c.h"
#include "lib/exit.h"
#include "system/signals.h"

atomic_bool ws_stop;

/* A lock-free atomic is async-signal-safe, unlike anything with a lock. */
static atomic_int first_signal;

#define MAX_UNLINK WS_MAX_UNLINK
/* dirfd -1: forgotten (its owner removed the file and closed the fd) */
static struct {
	atomic_int dirfd;
	const char *name;
} unlink_list[MAX_UNLINK];
static atomic_int nunlink;

void signals_unlink_at_exit(int dirfd, const char *name)
{
	int n = atomic_load(&nunlink);

	if (n < MAX_UNLINK && name && name[0] && dirfd != -1) {
		unlink_list[n].name = name;
		atomic_store(&unlink_list[n].dirfd, dirfd);
		atomic_store(&nunlink, n + 1);
	}
}

void signals_unlink_forget(int dirfd)
{
	for (int i = 0; i < atomic_load(&nunlink); i++)
		if (atomic_load(&unlink_list[i].dirfd) == dirfd)
			atomic_store(&unlink_list[i].dirfd, -1);
}

#define MAX_RESTORE 4
static struct {
	const char *path, *value;
} restore_list[MAX_RESTORE];
static atomic_int nrestore;

void signals_restore_at_exit(const char *path, const char *value)
{
	int n = atomic_load(&nrestore);

	if (n < MAX_RESTORE) {
		restore_list[n].path = path;
		restore_list[n].value = value;
		atomic_store(&nrestore, n + 1);
	}
}

/* open, write and close are async-signal-safe; strlen is too. */
static void restore_all(void)
{
	for (int i = 0; i < atomic_load(&nrestore); i++) {
		int fd = open(restore_list[i].path, O_WRONLY | O_CLOEXEC);

		if (fd >= 0) {
			ssize_t ignored = write(fd, restore_list[i].value,
						strlen(restore_list[i].value));

			(void)ignored;
			close(fd);
		}
	}
}

static void on_stop_signal(int signo)
{
	static const char again[] =
		"\nwritestress: interrupted again, exiting at once\n";
	int expected = 0;

	if (!atomic_compare_exchange_strong(&first_signal, &expected, signo) &&
	    signo == SIGINT) {
		ssize_t ignored = write(STDERR_FILENO, again, sizeof(again) - 1);

		(void)ignored;
		restore_all();
		for (int i = 0; i < atomic_load(&nunlink); i++) {
			int fd = atomic_load(&unlink_list[i].dirfd);

			if (fd == -1)
				continue;
			if (unlinkat(fd, unlink_list[i].name, 0) &&
			    errno == EISDIR)	/* a probe's own directory */
				unlinkat(fd, unlink_list[i].name, AT_REMOVEDIR);
		}
		ws_exit_now(WS_EXIT_SIGINT);
	}
	atomic_store(&ws_stop, true);
}

/* a closed stdout (| head) ends the run as ^C does (sink_human.c) */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGPIPE };

void signals_stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(set, stop_signals[i]);
}

int signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* restart: a read of /proc must not fail because ^C arrived */
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (sigaction(stop_signals[i], &sa, NULL))
			return -errno;
	return 0;
}

void signals_block_stop(void)
{
	sigset_t stop;

	signals_stop_set(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
}

const char *signals_name(int signo)
{
	switch (signo) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGPIPE:
		return "SIGPIPE";
	default:
		return NULL;
	}
}

int signals_received(void)
{
	return atomic_load(&first_signal);
}
