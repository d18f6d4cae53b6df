/* caps.c - privilege checks with libcap. */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>

#include "system/caps.h"

bool caps_effective(int cap)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	if (!caps)
		return false;
	if (cap_get_flag(caps, (cap_value_t)cap, CAP_EFFECTIVE, &v))
		v = CAP_CLEAR;
	cap_free(caps);
	return v == CAP_SET;
}

/* Growing a locked stack without CAP_IPC_LOCK (dropped after setup) fails
 * with SIGSEGV: grow it now, well past what the run needs. */
__attribute__((noinline)) static void prefault_stack(void)
{
	volatile char depth[512 * 1024];

	/* volatile: no compiler may drop the stores */
	for (size_t i = 0; i < sizeof(depth); i += 4096)
		depth[i] = 0;
	depth[sizeof(depth) - 1] = 0;
}

int caps_lock_memory(struct ws_denial_why *why)
{
	struct rlimit rl = { 0, 0 };

	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (!caps_effective(CAP_IPC_LOCK) && rl.rlim_cur != RLIM_INFINITY) {
		*why = (struct ws_denial_why){ .kind = WS_DENIED_RLIMIT,
					       .limit = rl.rlim_cur };
		return -EPERM;
	}
	/* not MCL_FUTURE: later allocations would fail once CAP_IPC_LOCK
	 * is dropped; what the probes touch exists already */
	prefault_stack();
	if (mlockall(MCL_CURRENT)) {
		int ret = -errno;

		*why = (struct ws_denial_why){ .kind = WS_DENIED_ERRNO, .err = -ret };
		return ret;
	}
	return 0;
}

bool caps_can_realtime(int prio, struct ws_denial_why *why)
{
	struct rlimit rl = { 0, 0 };

	getrlimit(RLIMIT_RTPRIO, &rl);
	if (caps_effective(CAP_SYS_NICE) || rl.rlim_cur >= (rlim_t)prio)
		return true;
	*why = (struct ws_denial_why){ .kind = WS_DENIED_RLIMIT, .limit = rl.rlim_cur };
	return false;
}

int caps_drop_caches(char *why, size_t len)
{
	int fd, ret = 0;

	if (!caps_effective(CAP_SYS_ADMIN)) {
		snprintf(why, len, "--drop-caches needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	if (ret)
		snprintf(why, len, "--drop-caches: /proc/sys/vm/drop_caches: %s",
			 strerror(-ret));
	return ret;
}

int caps_ioprio_allowed(const char *opt, int class, char *why, size_t len)
{
	if (class == WS_IOPRIO_RT && !caps_effective(CAP_SYS_ADMIN)) {
		snprintf(why, len, "%s rt needs CAP_SYS_ADMIN", opt);
		return -EPERM;
	}
	return 0;
}

int caps_ioprio_self(int class, int level, char *why, size_t len)
{
	int value = (class << 13) | (class == WS_IOPRIO_IDLE ? 0 : level);
	int ret = caps_ioprio_allowed("the I/O priority class", class, why, len);

	if (ret)
		return ret;
	/* IOPRIO_WHO_PROCESS with 0: the calling thread */
	if (syscall(SYS_ioprio_set, 1, 0, value)) {
		ret = -errno;
		snprintf(why, len, "ioprio_set class %d level %d: %s", class,
			 level, strerror(-ret));
		return ret;
	}
	return 0;
}

/* Kept permitted, not effective: a finished run still removes its files
 * where root does not own the directory and puts the scheduler back. */
static const cap_value_t cleanup_caps[] = {
	CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_SYS_ADMIN,
};

static int set_caps(bool keep_permitted, bool raise)
{
	cap_t now = cap_get_proc(), want = cap_init();
	int ret = 0;

	if (!now || !want) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; keep_permitted &&
	     i < sizeof(cleanup_caps) / sizeof(cleanup_caps[0]); i++) {
		cap_flag_value_t v = CAP_CLEAR;

		cap_get_flag(now, cleanup_caps[i], CAP_PERMITTED, &v);
		if (v != CAP_SET)
			continue;
		cap_set_flag(want, CAP_PERMITTED, 1, &cleanup_caps[i], CAP_SET);
		if (raise)
			cap_set_flag(want, CAP_EFFECTIVE, 1, &cleanup_caps[i], CAP_SET);
	}
	if (cap_set_proc(want))
		ret = -errno;
out:
	cap_free(now);
	cap_free(want);
	return ret;
}

int caps_drop_thread(void)
{
	return set_caps(false, false);
}

int caps_drop_main(void)
{
	return set_caps(true, false);
}

int caps_raise_cleanup(void)
{
	return set_caps(true, true);
}

/* "[mq-deadline] kyber none" */
static bool active_scheduler(const char *list, char *out, size_t len)
{
	const char *open_ = strchr(list, '['), *close_;

	if (!open_ || !(close_ = strchr(open_, ']')))
		return false;
	snprintf(out, len, "%.*s", (int)(close_ - open_ - 1), open_ + 1);
	return true;
}

static bool offered(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; (p = strstr(p, name)); p += n) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[';
		bool end = !p[n] || p[n] == ' ' || p[n] == ']' || p[n] == '\n';

		if (start && end)
			return true;
	}
	return false;
}

int caps_set_scheduler(const char *queue_dir, const char *name, char *old,
		       size_t oldlen, char *why, size_t len)
{
	char path[512], list[256];
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/scheduler", queue_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, list, sizeof(list) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(why, len, "--scheduler: cannot read %s", path);
		return -ENOENT;
	}
	list[n] = '\0';
	list[strcspn(list, "\n")] = '\0';
	if (!offered(list, name)) {
		snprintf(why, len, "--scheduler '%s': the device offers %s", name, list);
		return -EINVAL;
	}
	if (!active_scheduler(list, old, oldlen))
		snprintf(old, oldlen, "%s", "none");
	if (!caps_effective(CAP_SYS_ADMIN)) {
		snprintf(why, len, "--scheduler needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	ret = ws_write_text(path, name);
	if (ret)
		snprintf(why, len, "--scheduler '%s': %s: %s", name, path, strerror(-ret));
	return ret;
}

int caps_restore_scheduler(const char *queue_dir, const char *old)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/scheduler", queue_dir);
	return ws_write_text(path, old);
}
