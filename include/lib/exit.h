/* exit.h - the exit statuses of a writestress run, which matrix reads
 * back from its children and returns itself: the contract with scripts,
 * documented in --help, README and writestress(1).
 *
 * In lib, not config: a status is what the process tells its caller,
 * not part of a run's configuration, and the layers that choose one
 * (the signal handler in system, the wiring, matrix) need no more of
 * the configuration for it.
 */
#ifndef WS_EXIT_H
#define WS_EXIT_H

enum ws_exit {
	WS_EXIT_OK = 0,		/* the run reached its bound */
	WS_EXIT_FAILURE = 1,	/* runtime failure: I/O error, ENOSPC, ... */
	WS_EXIT_USAGE = 2,	/* bad command line */
	WS_EXIT_REFUSED = 3,	/* refused to touch the target (safety) */
	WS_EXIT_SIGINT = 130,	/* stopped by SIGINT, summary printed */
	WS_EXIT_SIGTERM = 143,	/* stopped by SIGTERM, summary printed */
	WS_EXIT_SIGPIPE = 141,	/* stdout closed: summary on stderr */
};

#endif
