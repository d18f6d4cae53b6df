/* thread.c - the thread trampoline. */
#include <errno.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>

#include "system/caps.h"
#include "system/thread.h"

/* Lives on the creator's stack until the prologue has reported. */
struct start {
	const struct ws_thread_spec *spec;
	void *(*fn)(void *);
	void *arg;
	sem_t done;
	int ret;
	const char *failed;
};

static _Atomic(const char *) last_failure;

const char *ws_thread_last_failure(void)
{
	const char *s = atomic_load(&last_failure);

	return s ? s : "starting a thread";
}

/* 0 or -errno. */
static int prologue(const struct ws_thread_spec *spec, const char **failed)
{
	int ret;

	if (spec->name && (ret = pthread_setname_np(pthread_self(), spec->name))) {
		*failed = "naming the thread";	/* over 15 bytes: a bug */
		return -ret;
	}
	if (spec->ioprio_class) {
		/* rt needs CAP_SYS_ADMIN, kept permitted by main */
		ret = caps_raise_cleanup();
		if (!ret)
			ret = caps_ioprio_self(spec->ioprio_class, spec->ioprio_level,
					       NULL, 0);
		if (ret) {
			*failed = "setting the I/O priority";
			return ret;
		}
	}
	ret = caps_drop_thread();
	if (ret)
		*failed = "dropping capabilities";
	return ret;
}

static void *trampoline(void *p)
{
	struct start *st = p;
	void *(*fn)(void *) = st->fn;
	void *arg = st->arg;
	int ret = prologue(st->spec, &st->failed);

	st->ret = ret;
	sem_post(&st->done);	/* st is gone after this */
	return ret ? NULL : fn(arg);
}

static int attr_make(pthread_attr_t *attr, int realtime)
{
	int ret = pthread_attr_init(attr);

	if (ret)
		return ret;
	ret = pthread_attr_setstacksize(attr, WS_THREAD_STACK);
	if (!ret && realtime > 0) {
		struct sched_param sp = { .sched_priority = realtime };

		ret = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
		if (!ret)
			ret = pthread_attr_setschedpolicy(attr, SCHED_FIFO);
		if (!ret)
			ret = pthread_attr_setschedparam(attr, &sp);
	}
	if (ret)
		pthread_attr_destroy(attr);
	return ret;
}

static int create(pthread_t *tid, int realtime, struct start *st)
{
	pthread_attr_t attr;
	int ret = attr_make(&attr, realtime);

	if (!ret) {
		ret = pthread_create(tid, &attr, trampoline, st);
		pthread_attr_destroy(&attr);
	}
	return ret;
}

int ws_thread_start(pthread_t *tid, struct ws_thread_spec *spec,
		    void *(*fn)(void *), void *arg)
{
	struct start st = { .spec = spec, .fn = fn, .arg = arg };
	int ret;

	if (sem_init(&st.done, 0, 0))
		return -errno;
	spec->realtime_refused = false;
	ret = create(tid, spec->realtime, &st);
	if (ret == EPERM && spec->realtime && spec->realtime_optional) {
		spec->realtime_refused = true;
		ret = create(tid, 0, &st);
	}
	if (ret) {
		sem_destroy(&st.done);
		return -ret;
	}
	while (sem_wait(&st.done) && errno == EINTR)
		;
	sem_destroy(&st.done);
	if (st.ret) {
		atomic_store(&last_failure, st.failed);
		pthread_join(*tid, NULL);
	}
	return st.ret;
}
