/* filewatch.c - the file's extents read off the tracer's thread
 * (filewatch.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/thread.h"

#include "filewatch.h"

static void *reader(void *arg)
{
	struct filewatch *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct fileext *x;

		while (!w->want && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->stop)
			break;
		w->want = false;
		pthread_mutex_unlock(&w->lock);
		x = malloc(sizeof(*x));
		if (x) {
			fileext_init(x, w->part_start);
			(void)fileext_refresh(x, w->path);
		}
		pthread_mutex_lock(&w->lock);
		if (x && w->ready) {
			fileext_free(w->ready);
			free(w->ready);
		}
		if (x)
			w->ready = x;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int filewatch_start(struct filewatch *w, const char *path, uint64_t part_start)
{
	int ret;

	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	snprintf(w->path, sizeof(w->path), "%s", path);
	w->part_start = part_start;
	ret = ws_thread_start(&w->tid, &(struct ws_thread_spec){ .name = "ws-trace-file" },
			      reader, w);
	w->started = ret == 0;
	return ret;
}

void filewatch_ask(struct filewatch *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->want = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

struct fileext *filewatch_take(struct filewatch *w)
{
	struct fileext *x;

	if (!w->started)
		return NULL;
	pthread_mutex_lock(&w->lock);
	x = w->ready;
	w->ready = NULL;
	pthread_mutex_unlock(&w->lock);
	return x;
}

void filewatch_stop(struct filewatch *w)
{
	if (w->started) {
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_signal(&w->cond);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->tid, NULL);
		w->started = false;
	}
	if (w->ready) {
		fileext_free(w->ready);
		free(w->ready);
		w->ready = NULL;
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
}
