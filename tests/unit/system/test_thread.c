/* test_thread.c - the thread trampoline: fn runs with its argument and
 * result, named as the spec says (pthread_getname_np and the kernel's
 * comm agree), with the I/O priority asked for, on a small stack, and
 * with no capabilities (root: the creator keeps its own).  A prologue
 * that fails - the kernel refusing I/O priority class 7, rt without
 * CAP_SYS_ADMIN - returns the error, never runs fn and names the step;
 * SCHED_FIFO refused fails or, when optional, is reported. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "capset.h"
#include "suites.h"
#include "system/thread.h"

/* What fn saw of its own thread. */
struct seen {
	atomic_int runs;
	void *arg;
	char name[32];
	char comm[32];
	int ioprio;
	uint64_t cap_eff, cap_prm;
	size_t stack;
	int policy, prio;
};

static void read_comm(char *buf, size_t len)
{
	FILE *f = fopen("/proc/thread-self/comm", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, (int)len, f));
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void *look(void *arg)
{
	struct seen *s = arg;
	struct sched_param sp;
	pthread_attr_t attr;

	s->arg = arg;
	pthread_getname_np(pthread_self(), s->name, sizeof(s->name));
	read_comm(s->comm, sizeof(s->comm));
	s->ioprio = (int)syscall(SYS_ioprio_get, 1, 0);
	s->cap_eff = capset_of_thread("CapEff");
	s->cap_prm = capset_of_thread("CapPrm");
	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstacksize(&attr, &s->stack);
		pthread_attr_destroy(&attr);
	}
	pthread_getschedparam(pthread_self(), &s->policy, &sp);
	s->prio = sp.sched_priority;
	atomic_fetch_add(&s->runs, 1);
	return s->name;
}

/* Start look() with spec; 0 or the start's error.  Joined on success. */
static int run(struct ws_thread_spec *spec, struct seen *s)
{
	pthread_t tid;
	void *ret = NULL;
	int err;

	memset(s, 0, sizeof(*s));
	err = ws_thread_start(&tid, spec, look, s);
	if (err)
		return err;
	ck_assert_int_eq(pthread_join(tid, &ret), 0);
	ck_assert_ptr_eq(ret, s->name);		/* fn's result passes through */
	return 0;
}

/* ---- names ---- */

static const char *const names[] = {
	"ws-writer", "ws-probe-fsync", "abcdefghijklmno",	/* 15: the most */
};

START_TEST(test_named)
{
	struct ws_thread_spec spec = { .name = names[_i] };
	struct seen s;

	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(atomic_load(&s.runs), 1);
	ck_assert_ptr_eq(s.arg, &s);
	ck_assert_str_eq(s.name, names[_i]);
	ck_assert_str_eq(s.comm, names[_i]);	/* what top -H shows */
	ck_assert(!spec.realtime_refused);
}
END_TEST

/* No name: the creator's, as for any thread. */
START_TEST(test_unnamed_inherits)
{
	struct ws_thread_spec spec = { .name = NULL };
	char mine[32];
	struct seen s;

	ck_assert_int_eq(pthread_setname_np(pthread_self(), "ws-creator"), 0);
	read_comm(mine, sizeof(mine));
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_str_eq(s.comm, mine);
}
END_TEST

/* ---- the prologue's settings ---- */

static void *stack_of(void *arg)
{
	pthread_attr_t attr;

	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstacksize(&attr, arg);
		pthread_attr_destroy(&attr);
	}
	return NULL;
}

/* What was asked for (a sanitizer's runtime may add to it), and less than
 * a thread started without the trampoline gets. */
START_TEST(test_small_stack)
{
	struct ws_thread_spec spec = { .name = "ws-stack" };
	size_t plain = 0;
	pthread_t tid;
	struct seen s;

	ck_assert_int_eq(pthread_create(&tid, NULL, stack_of, &plain), 0);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_uint_ge(s.stack, WS_THREAD_STACK);
	ck_assert_uint_lt(s.stack, plain);
}
END_TEST

static const struct {
	int class, level, want;
} ioprios[] = {
	{ WS_IOPRIO_BE, 3, (WS_IOPRIO_BE << 13) | 3 },
	{ WS_IOPRIO_BE, 0, (WS_IOPRIO_BE << 13) | 0 },
	{ WS_IOPRIO_IDLE, 4, (WS_IOPRIO_IDLE << 13) | 0 },
};

START_TEST(test_ioprio)
{
	struct ws_thread_spec spec = { .name = "ws-io",
				       .ioprio_class = ioprios[_i].class,
				       .ioprio_level = ioprios[_i].level };
	int mine = (int)syscall(SYS_ioprio_get, 1, 0);
	struct seen s;

	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(s.ioprio, ioprios[_i].want);
	/* the thread's own: the creator's is as it was */
	ck_assert_int_eq((int)syscall(SYS_ioprio_get, 1, 0), mine);
}
END_TEST

/* Class NONE: the creator's priority, inherited. */
START_TEST(test_ioprio_inherited)
{
	struct ws_thread_spec spec = { .name = "ws-io" };
	struct seen s;

	ck_assert_int_eq(syscall(SYS_ioprio_set, 1, 0, (WS_IOPRIO_BE << 13) | 6), 0);
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(s.ioprio, (WS_IOPRIO_BE << 13) | 6);
}
END_TEST

/* As root: the thread holds nothing, the creator keeps what it had. */
START_TEST(test_no_capabilities_as_root)
{
	struct ws_thread_spec spec = { .name = "ws-nocaps" };
	struct seen s;
	uint64_t mine = capset_of_thread("CapEff");

	ck_assert_uint_ne(mine & CAPSET_BIT(CAP_SYS_ADMIN), 0);
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_uint_eq(s.cap_eff, 0);
	ck_assert_uint_eq(s.cap_prm, 0);
	ck_assert_uint_eq(capset_of_thread("CapEff"), mine);

	/* setting an I/O priority raises the cleanup set for a moment:
	 * dropped again before fn */
	spec.ioprio_class = WS_IOPRIO_RT;
	spec.ioprio_level = 4;
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(s.ioprio, (WS_IOPRIO_RT << 13) | 4);
	ck_assert_uint_eq(s.cap_eff, 0);
	ck_assert_uint_eq(s.cap_prm, 0);
}
END_TEST

/* ---- failing prologues ---- */

START_TEST(test_default_failure_words)
{
	ck_assert_str_eq(ws_thread_last_failure(), "starting a thread");
}
END_TEST

static const struct {
	int class, level;
	bool drop_admin;	/* CAP_SYS_ADMIN gone from permitted too */
	int ret;
} failures[] = {
	{ 7, 0, false, -EINVAL },		/* the kernel: no such class */
	{ WS_IOPRIO_RT, 0, true, -EPERM },	/* ours: rt needs CAP_SYS_ADMIN */
};

START_TEST(test_prologue_fails)
{
	struct ws_thread_spec spec = { .name = "ws-fail",
				       .ioprio_class = failures[_i].class,
				       .ioprio_level = failures[_i].level };
	struct seen s;

	if (failures[_i].drop_admin)
		capset_flag(CAP_SYS_ADMIN, false, true);
	ck_assert_int_eq(run(&spec, &s), failures[_i].ret);
	ck_assert_int_eq(atomic_load(&s.runs), 0);	/* fn never ran */
	ck_assert_str_eq(ws_thread_last_failure(), "setting the I/O priority");

	/* the next thread starts normally; the words stay for the message */
	spec.ioprio_class = WS_IOPRIO_NONE;
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(atomic_load(&s.runs), 1);
	ck_assert_str_eq(ws_thread_last_failure(), "setting the I/O priority");
}
END_TEST

/* ---- SCHED_FIFO ---- */

/* Refused (no CAP_SYS_NICE, RLIMIT_RTPRIO 0): an error, nothing run. */
START_TEST(test_realtime_refused)
{
	struct ws_thread_spec spec = { .name = "ws-rt",
				       .realtime = WS_THREAD_RT_PRIO };
	struct rlimit rl;
	struct seen s;

	capset_flag(CAP_SYS_NICE, false, true);
	ck_assert_int_eq(getrlimit(RLIMIT_RTPRIO, &rl), 0);
	rl.rlim_cur = 0;
	ck_assert_int_eq(setrlimit(RLIMIT_RTPRIO, &rl), 0);
	ck_assert_int_eq(run(&spec, &s), -EPERM);
	ck_assert_int_eq(atomic_load(&s.runs), 0);
	ck_assert(!spec.realtime_refused);

	/* optional: started at normal priority, and said so */
	spec.realtime_optional = true;
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(atomic_load(&s.runs), 1);
	ck_assert(spec.realtime_refused);
	ck_assert_int_eq(s.policy, SCHED_OTHER);
}
END_TEST

/* Asked with leave to fail: SCHED_FIFO at the priority unless refused
 * (a container may refuse even root), and never both. */
START_TEST(test_realtime_optional)
{
	struct ws_thread_spec spec = { .name = "ws-rt",
				       .realtime = WS_THREAD_RT_PRIO,
				       .realtime_optional = true };
	struct seen s;

	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert_int_eq(atomic_load(&s.runs), 1);
	if (spec.realtime_refused) {
		ck_assert_int_eq(s.policy, SCHED_OTHER);
	} else {
		ck_assert_int_eq(s.policy, SCHED_FIFO);
		ck_assert_int_eq(s.prio, WS_THREAD_RT_PRIO);
	}
	/* a later spec without realtime is reset, not left refused */
	spec.realtime = 0;
	ck_assert_int_eq(run(&spec, &s), 0);
	ck_assert(!spec.realtime_refused);
	ck_assert_int_eq(s.policy, SCHED_OTHER);
}
END_TEST

Suite *thread_suite(void)
{
	Suite *s = suite_create("thread");
	TCase *start = tcase_create("start");
	TCase *fail = tcase_create("failures");
	TCase *root = tcase_create("root");

	tcase_set_timeout(start, 30);
	tcase_add_loop_test(start, test_named, 0, ARRAY_SIZE(names));
	tcase_add_test(start, test_unnamed_inherits);
	tcase_add_test(start, test_small_stack);
	tcase_add_loop_test(start, test_ioprio, 0, ARRAY_SIZE(ioprios));
	tcase_add_test(start, test_ioprio_inherited);
	tcase_add_test(start, test_realtime_optional);
	tcase_set_timeout(fail, 30);
	tcase_add_test(fail, test_default_failure_words);
	tcase_add_loop_test(fail, test_prologue_fails, 0, ARRAY_SIZE(failures));
	tcase_add_test(fail, test_realtime_refused);
	tcase_set_tags(root, "root");
	tcase_set_timeout(root, 30);
	tcase_add_test(root, test_no_capabilities_as_root);
	suite_add_tcase(s, start);
	suite_add_tcase(s, fail);
	suite_add_tcase(s, root);
	return s;
}
