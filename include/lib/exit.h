/* exit.h - exit statuses, a contract with scripts (writestress(1)); matrix
 * reads its children's.  In lib: the signal handler, main and matrix choose
 * one without the configuration.
 */
#ifndef WS_EXIT_H
#define WS_EXIT_H

enum ws_exit {
	WS_EXIT_OK = 0,
	WS_EXIT_FAILURE = 1,	/* I/O error, ENOSPC, ... */
	WS_EXIT_USAGE = 2,
	WS_EXIT_REFUSED = 3,	/* refused the target, for safety */
	WS_EXIT_SIGINT = 130,
	WS_EXIT_SIGTERM = 143,
	WS_EXIT_SIGPIPE = 141,	/* summary on stderr */
};

#endif
