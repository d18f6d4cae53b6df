/* failure.c - why a probe failed, or went without real time or locked
 * memory, in words (record/probe.h, record/run.h). */
#include <stdio.h>
#include <string.h>

#include "record/probe.h"
#include "record/run.h"

const char *ws_probe_failure_words(const struct ws_probe_failure *f, int err,
				   char *buf, size_t len)
{
	switch (f->kind) {
	case WS_FAIL_TIMEOUT:
		snprintf(buf, len, "killed after the --probe-timeout");
		break;
	case WS_FAIL_LOST:
		snprintf(buf, len, "its exit status was lost");
		break;
	case WS_FAIL_EXIT:
		snprintf(buf, len, "exit status %d%s", f->code,
			 f->code == 126 ? " (not executable)" :
			 f->code == 127 ? " (command not found)" : "");
		break;
	case WS_FAIL_SIGNAL:
		snprintf(buf, len, "killed by signal %d", f->code);
		break;
	case WS_FAIL_SQLITE:
		snprintf(buf, len, "SQLite: %s", f->text);
		break;
	default:
		snprintf(buf, len, "%s", strerror(-err));
	}
	return buf;
}

const char *ws_realtime_words(const struct ws_denial_why *w, char *buf, size_t len)
{
	if (w->kind == WS_DENIED_RLIMIT)
		snprintf(buf, len, "no CAP_SYS_NICE and RLIMIT_RTPRIO is %llu",
			 (unsigned long long)w->limit);
	else if (w->kind == WS_DENIED_KERNEL)
		snprintf(buf, len, "SCHED_FIFO refused by the kernel (cgroup real-time budget?)");
	else if (w->kind == WS_DENIED_ERRNO)
		snprintf(buf, len, "%s", strerror(w->err));
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

const char *ws_memory_words(const struct ws_denial_why *w, char *buf, size_t len)
{
	if (w->kind == WS_DENIED_RLIMIT)
		snprintf(buf, len, "no CAP_IPC_LOCK and RLIMIT_MEMLOCK is %llu KiB",
			 (unsigned long long)w->limit / 1024);
	else if (w->kind == WS_DENIED_ERRNO)
		snprintf(buf, len, "mlockall: %s", strerror(w->err));
	else
		snprintf(buf, len, "%s", "");
	return buf;
}
