/* test_caps.c - privileges checked before they are tried: caps_effective
 * against the kernel's own CapEff, what each check refuses (and says)
 * without its capability, the calling thread's I/O priority as the kernel
 * reads it back, --scheduler on a fake queue directory, and the drop and
 * raise of the capability sets.  Cases that take a capability away run as
 * anyone (a test case is its own process); cases that need one held are
 * tagged root. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <check.h>

#include "lib/c.h"
#include "capset.h"
#include "system/caps.h"
#include "suites.h"
#include "testutil.h"

#define IOPRIO(class, level) (((class) << 13) | (level))

/* The calling thread's I/O priority, as the kernel has it. */
static int ioprio_now(void)
{
	return (int)syscall(SYS_ioprio_get, 1, 0);
}

/* ---- caps_effective ---- */

static const cap_value_t some_caps[] = {
	CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_IPC_LOCK, CAP_SYS_NICE,
	CAP_SYS_ADMIN, CAP_NET_ADMIN, CAP_SYS_RAWIO,
};

START_TEST(test_effective_matches_kernel)
{
	uint64_t eff = capset_of_thread("CapEff");

	for (size_t i = 0; i < ARRAY_SIZE(some_caps); i++)
		ck_assert_msg(caps_effective(some_caps[i]) ==
			      !!(eff & CAPSET_BIT(some_caps[i])),
			      "cap %d: libcap and CapEff disagree", some_caps[i]);
	/* taken away: gone from both views */
	capset_flag(CAP_SYS_NICE, false, false);
	ck_assert(!caps_effective(CAP_SYS_NICE));
	ck_assert_uint_eq(capset_of_thread("CapEff") & CAPSET_BIT(CAP_SYS_NICE), 0);
	/* no such capability: not held */
	ck_assert(!caps_effective(200));
}
END_TEST

/* Effective again from permitted, as the thread trampoline relies on. */
START_TEST(test_effective_comes_back)
{
	capset_flag(CAP_SYS_ADMIN, false, false);
	ck_assert(!caps_effective(CAP_SYS_ADMIN));
	capset_flag(CAP_SYS_ADMIN, true, false);
	ck_assert(caps_effective(CAP_SYS_ADMIN));
}
END_TEST

/* ---- I/O priority ---- */

static const struct {
	const char *opt;
	int class;
	int ret;
	const char *why;
} allowed[] = {
	{ "--ioprio", WS_IOPRIO_NONE, 0, "untouched" },
	{ "--ioprio", WS_IOPRIO_BE, 0, "untouched" },
	{ "--ioprio", WS_IOPRIO_IDLE, 0, "untouched" },
	{ "--ioprio", WS_IOPRIO_RT, -EPERM, "--ioprio rt needs CAP_SYS_ADMIN" },
	{ "--probe-ioprio", WS_IOPRIO_RT, -EPERM,
	  "--probe-ioprio rt needs CAP_SYS_ADMIN" },
};

/* Without CAP_SYS_ADMIN only rt is refused, naming the option. */
START_TEST(test_ioprio_allowed_unprivileged)
{
	char why[128] = "untouched";

	capset_flag(CAP_SYS_ADMIN, false, false);
	ck_assert_int_eq(caps_ioprio_allowed(allowed[_i].opt, allowed[_i].class,
					     why, sizeof(why)), allowed[_i].ret);
	ck_assert_str_eq(why, allowed[_i].why);
}
END_TEST

START_TEST(test_ioprio_allowed_admin)
{
	char why[128] = "untouched";

	capset_flag(CAP_SYS_ADMIN, true, false);
	ck_assert_int_eq(caps_ioprio_allowed("--ioprio", WS_IOPRIO_RT, why,
					     sizeof(why)), 0);
	ck_assert_str_eq(why, "untouched");
}
END_TEST

static const struct {
	int class, level, want;
} ioprio_sets[] = {
	{ WS_IOPRIO_BE, 0, IOPRIO(WS_IOPRIO_BE, 0) },
	{ WS_IOPRIO_BE, 5, IOPRIO(WS_IOPRIO_BE, 5) },
	{ WS_IOPRIO_BE, 7, IOPRIO(WS_IOPRIO_BE, 7) },
	{ WS_IOPRIO_IDLE, 6, IOPRIO(WS_IOPRIO_IDLE, 0) },	/* no level */
};

START_TEST(test_ioprio_self)
{
	char why[128] = "untouched";

	ck_assert_int_eq(caps_ioprio_self(ioprio_sets[_i].class,
					  ioprio_sets[_i].level, why,
					  sizeof(why)), 0);
	ck_assert_int_eq(ioprio_now(), ioprio_sets[_i].want);
	ck_assert_str_eq(why, "untouched");
}
END_TEST

/* Refusals leave the thread's priority as it was. */
START_TEST(test_ioprio_self_refused)
{
	char why[128], want[128];
	int before;

	ck_assert_int_eq(caps_ioprio_self(WS_IOPRIO_BE, 3, why, sizeof(why)), 0);
	before = ioprio_now();
	/* the kernel's refusal: class 7 does not exist */
	ck_assert_int_eq(caps_ioprio_self(7, 0, why, sizeof(why)), -EINVAL);
	snprintf(want, sizeof(want), ": %s", strerror(EINVAL));
	ck_assert_msg(!strncmp(why, "ioprio_set ", 11) && strstr(why, want),
		      "why: %s", why);
	ck_assert_int_eq(ioprio_now(), before);
	/* ours, before the kernel is asked */
	capset_flag(CAP_SYS_ADMIN, false, false);
	ck_assert_int_eq(caps_ioprio_self(WS_IOPRIO_RT, 0, why, sizeof(why)),
			 -EPERM);
	ck_assert_str_eq(why, "the I/O priority class rt needs CAP_SYS_ADMIN");
	ck_assert_int_eq(ioprio_now(), before);
	/* the thread trampoline passes no buffer for the reason */
	ck_assert_int_eq(caps_ioprio_self(7, 0, NULL, 0), -EINVAL);
}
END_TEST

START_TEST(test_ioprio_self_rt)
{
	char why[128] = "untouched";

	capset_flag(CAP_SYS_ADMIN, true, false);
	ck_assert_int_eq(caps_ioprio_self(WS_IOPRIO_RT, 2, why, sizeof(why)), 0);
	ck_assert_int_eq(ioprio_now(), IOPRIO(WS_IOPRIO_RT, 2));
}
END_TEST

/* ---- realtime, memory locking, dropping caches: the refusals ---- */

static void set_soft_limit(int resource, rlim_t soft)
{
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(resource, &rl), 0);
	rl.rlim_cur = soft < rl.rlim_max ? soft : rl.rlim_max;
	ck_assert_int_eq(setrlimit(resource, &rl), 0);
}

START_TEST(test_realtime_refused)
{
	struct ws_denial_why why = { .kind = WS_DENIED_KERNEL };
	char words[96];

	capset_flag(CAP_SYS_NICE, false, false);
	set_soft_limit(RLIMIT_RTPRIO, 0);
	ck_assert(!caps_can_realtime(10, &why));
	ck_assert_int_eq(why.kind, WS_DENIED_RLIMIT);
	ck_assert_uint_eq(why.limit, 0);
	ck_assert_str_eq(ws_realtime_words(&why, words, sizeof(words)),
			 "no CAP_SYS_NICE and RLIMIT_RTPRIO is 0");
	/* priority 0 is within a limit of 0 */
	why.kind = WS_DENIED_KERNEL;
	ck_assert(caps_can_realtime(0, &why));
	ck_assert_int_eq(why.kind, WS_DENIED_KERNEL);
}
END_TEST

/* CAP_SYS_NICE will do, whatever RLIMIT_RTPRIO says. */
START_TEST(test_realtime_allowed)
{
	struct ws_denial_why why = { .kind = WS_DENIED_KERNEL };

	set_soft_limit(RLIMIT_RTPRIO, 0);
	capset_flag(CAP_SYS_NICE, true, false);
	ck_assert(caps_can_realtime(10, &why));
	ck_assert(caps_can_realtime(99, &why));
	ck_assert_int_eq(why.kind, WS_DENIED_KERNEL);
}
END_TEST

START_TEST(test_lock_memory_refused)
{
	struct rlimit rl;
	struct ws_denial_why why = { 0 };
	char words[96], want[96];

	capset_flag(CAP_IPC_LOCK, false, false);
	set_soft_limit(RLIMIT_MEMLOCK, 64 * 1024);
	ck_assert_int_eq(getrlimit(RLIMIT_MEMLOCK, &rl), 0);
	ck_assert_int_eq(caps_lock_memory(&why), -EPERM);
	ck_assert_int_eq(why.kind, WS_DENIED_RLIMIT);
	ck_assert_uint_eq(why.limit, rl.rlim_cur);
	snprintf(want, sizeof(want), "no CAP_IPC_LOCK and RLIMIT_MEMLOCK is %llu KiB",
		 (unsigned long long)rl.rlim_cur / 1024);
	ck_assert_str_eq(ws_memory_words(&why, words, sizeof(words)), want);
}
END_TEST

START_TEST(test_drop_caches_refused)
{
	char why[128];

	capset_flag(CAP_SYS_ADMIN, false, false);
	ck_assert_int_eq(caps_drop_caches(why, sizeof(why)), -EPERM);
	ck_assert_str_eq(why, "--drop-caches needs CAP_SYS_ADMIN");
}
END_TEST

/* ---- --scheduler on a fake queue directory ---- */

static char qdir[64];

static char *read_file(const char *dir, const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void queue_setup(void)
{
	snprintf(qdir, sizeof(qdir), "/tmp/ws-caps-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(qdir));
}

static void queue_teardown(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/scheduler", qdir);
	unlink(path);
	rmdir(qdir);
}

/* What the device offers, what is asked: offered ones get as far as the
 * capability check (-EPERM here), the others are refused as invalid. */
static const struct {
	const char *list, *name;
	int ret;
	const char *old;
} offers[] = {
	{ "[mq-deadline] kyber none\n", "kyber", -EPERM, "mq-deadline" },
	{ "[mq-deadline] kyber none\n", "none", -EPERM, "mq-deadline" },
	{ "[mq-deadline] kyber none\n", "mq-deadline", -EPERM, "mq-deadline" },
	{ "none [mq-deadline]\n", "mq-deadline", -EPERM, "mq-deadline" },
	{ "mq-deadline kyber [bfq] none\n", "none", -EPERM, "bfq" },
	{ "none\n", "none", -EPERM, "none" },		/* no active one marked */
	{ "[mq-deadline] kyber none\n", "bfq", -EINVAL, NULL },
	{ "[mq-deadline] kyber none\n", "deadline", -EINVAL, NULL },
	{ "[mq-deadline] kyber none\n", "kyb", -EINVAL, NULL },
	{ "[mq-deadline] kyber none\n", "on", -EINVAL, NULL },
	{ "[mq-deadline] kyber nonex\n", "none", -EINVAL, NULL },
};

START_TEST(test_scheduler_offered)
{
	char why[256], old[32] = "unset", want[256], now[64];

	capset_flag(CAP_SYS_ADMIN, false, false);
	tu_write_file(qdir, "scheduler", offers[_i].list);
	ck_assert_int_eq(caps_set_scheduler(qdir, offers[_i].name, old,
					    sizeof(old), why, sizeof(why)),
			 offers[_i].ret);
	if (offers[_i].ret == -EPERM) {
		ck_assert_str_eq(why, "--scheduler needs CAP_SYS_ADMIN");
		ck_assert_str_eq(old, offers[_i].old);
	} else {
		snprintf(want, sizeof(want), "--scheduler '%s': the device offers %.*s",
			 offers[_i].name, (int)strcspn(offers[_i].list, "\n"),
			 offers[_i].list);
		ck_assert_str_eq(why, want);
	}
	/* refused: the device is as it was */
	ck_assert_str_eq(read_file(qdir, "scheduler", now, sizeof(now)),
			 offers[_i].list);
}
END_TEST

START_TEST(test_scheduler_unreadable)
{
	char why[256], old[32], path[128], want[256];

	snprintf(path, sizeof(path), "%s/scheduler", qdir);
	ck_assert_int_eq(caps_set_scheduler(qdir, "none", old, sizeof(old), why,
					    sizeof(why)), -ENOENT);
	snprintf(want, sizeof(want), "--scheduler: cannot read %s", path);
	ck_assert_str_eq(why, want);
	/* an empty file lists nothing */
	tu_write_file(qdir, "scheduler", "");
	ck_assert_int_eq(caps_set_scheduler(qdir, "none", old, sizeof(old), why,
					    sizeof(why)), -ENOENT);
	/* the restore of a device that went away */
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(caps_restore_scheduler(qdir, "none"), -ENOENT);
}
END_TEST

START_TEST(test_scheduler_set_and_restore)
{
	char why[256] = "untouched", old[32], now[64];

	capset_flag(CAP_SYS_ADMIN, true, false);
	tu_write_file(qdir, "scheduler", "[mq-deadline] kyber none\n");
	ck_assert_int_eq(caps_set_scheduler(qdir, "kyber", old, sizeof(old), why,
					    sizeof(why)), 0);
	ck_assert_str_eq(old, "mq-deadline");
	ck_assert_str_eq(why, "untouched");
	/* a regular file stands in for the attribute: the write lands over
	 * the start of the listing, untruncated */
	ck_assert_str_eq(read_file(qdir, "scheduler", now, sizeof(now)),
			 "kybereadline] kyber none\n");
	tu_write_file(qdir, "scheduler", "");
	ck_assert_int_eq(caps_restore_scheduler(qdir, old), 0);
	ck_assert_str_eq(read_file(qdir, "scheduler", now, sizeof(now)),
			 "mq-deadline");
}
END_TEST

/* ---- dropping and raising ---- */

#define CLEANUP_CAPS (CAPSET_BIT(CAP_DAC_OVERRIDE) | CAPSET_BIT(CAP_FOWNER) | \
		      CAPSET_BIT(CAP_SYS_ADMIN))

/* As root: main keeps the cleanup capabilities permitted only, raises
 * them for the cleanup; a thread's drop leaves nothing to raise. */
START_TEST(test_drop_main_raise_cleanup)
{
	ck_assert_uint_eq(capset_of_thread("CapPrm") & CLEANUP_CAPS, CLEANUP_CAPS);
	ck_assert_int_eq(caps_drop_main(), 0);
	ck_assert_uint_eq(capset_of_thread("CapEff"), 0);
	ck_assert_uint_eq(capset_of_thread("CapPrm"), CLEANUP_CAPS);
	ck_assert(!caps_effective(CAP_SYS_ADMIN));

	ck_assert_int_eq(caps_raise_cleanup(), 0);
	ck_assert_uint_eq(capset_of_thread("CapEff"), CLEANUP_CAPS);
	ck_assert_uint_eq(capset_of_thread("CapPrm"), CLEANUP_CAPS);
	ck_assert(caps_effective(CAP_SYS_ADMIN));

	ck_assert_int_eq(caps_drop_thread(), 0);
	ck_assert_uint_eq(capset_of_thread("CapEff"), 0);
	ck_assert_uint_eq(capset_of_thread("CapPrm"), 0);
	ck_assert_int_eq(caps_raise_cleanup(), 0);
	ck_assert_uint_eq(capset_of_thread("CapEff"), 0);
}
END_TEST

/* Without the cleanup capabilities permitted, main keeps nothing. */
START_TEST(test_drop_main_keeps_only_what_it_had)
{
	capset_flag(CAP_FOWNER, false, true);
	capset_flag(CAP_SYS_ADMIN, false, true);
	ck_assert_int_eq(caps_drop_main(), 0);
	ck_assert_uint_eq(capset_of_thread("CapEff"), 0);
	ck_assert_uint_eq(capset_of_thread("CapPrm") &
			  (CAPSET_BIT(CAP_FOWNER) | CAPSET_BIT(CAP_SYS_ADMIN)), 0);
	ck_assert_uint_eq(capset_of_thread("CapPrm") & ~CLEANUP_CAPS, 0);
	ck_assert_int_eq(caps_raise_cleanup(), 0);
	ck_assert(!caps_effective(CAP_SYS_ADMIN));
	ck_assert(!caps_effective(CAP_FOWNER));
}
END_TEST

Suite *caps_suite(void)
{
	Suite *s = suite_create("caps");
	TCase *any = tcase_create("anyone");
	TCase *sched = tcase_create("scheduler");
	TCase *root = tcase_create("root");
	TCase *rootsched = tcase_create("root-scheduler");

	tcase_add_test(any, test_effective_matches_kernel);
	tcase_add_loop_test(any, test_ioprio_allowed_unprivileged, 0,
			    ARRAY_SIZE(allowed));
	tcase_add_loop_test(any, test_ioprio_self, 0, ARRAY_SIZE(ioprio_sets));
	tcase_add_test(any, test_ioprio_self_refused);
	tcase_add_test(any, test_realtime_refused);
	tcase_add_test(any, test_lock_memory_refused);
	tcase_add_test(any, test_drop_caches_refused);
	tcase_add_checked_fixture(sched, queue_setup, queue_teardown);
	tcase_add_loop_test(sched, test_scheduler_offered, 0, ARRAY_SIZE(offers));
	tcase_add_test(sched, test_scheduler_unreadable);

	tcase_set_tags(root, "root");
	tcase_add_test(root, test_effective_comes_back);
	tcase_add_test(root, test_ioprio_allowed_admin);
	tcase_add_test(root, test_ioprio_self_rt);
	tcase_add_test(root, test_realtime_allowed);
	tcase_add_test(root, test_drop_main_raise_cleanup);
	tcase_add_test(root, test_drop_main_keeps_only_what_it_had);
	tcase_set_tags(rootsched, "root");
	tcase_add_checked_fixture(rootsched, queue_setup, queue_teardown);
	tcase_add_test(rootsched, test_scheduler_set_and_restore);

	suite_add_tcase(s, any);
	suite_add_tcase(s, sched);
	suite_add_tcase(s, root);
	suite_add_tcase(s, rootsched);
	return s;
}
