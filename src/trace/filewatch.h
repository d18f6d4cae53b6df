/* filewatch.h - the written file's extents (fileext.h) read on a thread of
 * their own: FIEMAP can wait behind the very writeback being traced (an
 * allocation waiting for the journal of a slow disk), and the tracer,
 * which holds its lock over each event, must never wait on the disk it
 * watches.  The tracer asks, and takes the newest set at a later event.
 */
#ifndef WS_TRACE_FILEWATCH_H
#define WS_TRACE_FILEWATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fileext.h"

struct filewatch {
	pthread_t tid;
	bool started;
	pthread_mutex_t lock;	/* want, stop, ready */
	pthread_cond_t cond;
	bool want, stop;
	struct fileext *ready;	/* read, not taken yet */
	char path[512];
	uint64_t part_start;
};

/* The reader's thread for path.  0 or -errno (then no thread: never
 * anything to take). */
int filewatch_start(struct filewatch *w, const char *path, uint64_t part_start);
/* A read soon; never waits for it. */
void filewatch_ask(struct filewatch *w);
/* The newest set read since the last take (caller frees it with
 * fileext_free and free), or NULL. */
struct fileext *filewatch_take(struct filewatch *w);
void filewatch_stop(struct filewatch *w);

#endif
