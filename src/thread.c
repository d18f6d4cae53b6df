/* thread.c - thread creation with small stacks and optional SCHED_FIFO. */
#include <errno.h>
#include <sched.h>

#include "thread.h"

int ws_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg,
		    int realtime)
{
	pthread_attr_t attr;
	int ret = pthread_attr_init(&attr);

	if (ret)
		return -ret;
	ret = pthread_attr_setstacksize(&attr, WS_THREAD_STACK);
	if (!ret && realtime > 0) {
		struct sched_param sp = { .sched_priority = realtime };

		ret = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		if (!ret)
			ret = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		if (!ret)
			ret = pthread_attr_setschedparam(&attr, &sp);
	}
	if (!ret)
		ret = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -ret;
}
