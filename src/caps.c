/* caps.c - privilege checks with libcap (see caps.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "caps.h"

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

int caps_lock_memory(char *why, size_t len)
{
	struct rlimit rl = { 0, 0 };

	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (!caps_effective(CAP_IPC_LOCK) && rl.rlim_cur != RLIM_INFINITY) {
		snprintf(why, len, "no CAP_IPC_LOCK and RLIMIT_MEMLOCK is %llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
		return -EPERM;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		int ret = -errno;

		snprintf(why, len, "mlockall: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

bool caps_can_realtime(int prio, char *why, size_t len)
{
	struct rlimit rl = { 0, 0 };

	getrlimit(RLIMIT_RTPRIO, &rl);
	if (caps_effective(CAP_SYS_NICE) || rl.rlim_cur >= (rlim_t)prio)
		return true;
	snprintf(why, len, "no CAP_SYS_NICE and RLIMIT_RTPRIO is %llu",
		 (unsigned long long)rl.rlim_cur);
	return false;
}
