/* waitsite.c - where a stuck probe waits: /proc/self/task/TID/wchan. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probes/monitor.h"
#include "waitsite.h"

/* The tallies are the watcher's, hence the lock. */
void waitsite_blame(struct monitor_probe *mp, uint64_t since, char *site)
{
	const struct ws_site_count *top = NULL;

	site[0] = '\0';
	pthread_mutex_lock(&mp->door.lock);
	if (mp->current_since == since) {
		for (unsigned int i = 0; i < mp->ncurrent; i++)
			if (!top || mp->current[i].samples > top->samples)
				top = &mp->current[i];
	}
	if (top) {
		snprintf(site, WS_SITE_LEN, "%s", top->name);
		for (unsigned int i = 0; i < mp->fig.nsites; i++)
			if (!strcmp(mp->fig.sites[i].name, site))
				mp->fig.sites[i].stalls++;
	}
	mp->ncurrent = 0;
	mp->current_since = 0;
	pthread_mutex_unlock(&mp->door.lock);
}

static bool generic_frame(const char *name, size_t len)
{
	static const char *const generic[] = {
		"__schedule", "schedule", "io_schedule", "preempt_schedule",
		"schedule_timeout", "io_schedule_timeout", "schedule_hrtimeout",
		"schedule_preempt_disabled", "__wait_for_common",
		"wait_for_completion", "wait_for_completion_io",
		"wait_for_completion_killable", "bit_wait", "bit_wait_io",
		"__wait_on_bit", "out_of_line_wait_on_bit", "__wait_on_bit_lock",
		"out_of_line_wait_on_bit_lock", "do_nanosleep",
	};

	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (strlen(generic[i]) == len && !strncmp(name, generic[i], len))
			return true;
	return false;
}

bool monitor_parse_site(const char *wchan, const char *stack, char *out,
			size_t len)
{
	const char *p;
	size_t n;

	/* wchan already skips the scheduler: a symbol there is the answer */
	if (wchan) {
		n = strcspn(wchan, " \t\n");
		if (n && !(n == 1 && wchan[0] == '0') &&
		    !generic_frame(wchan, n)) {
			snprintf(out, len, "%.*s", (int)n, wchan);
			return true;
		}
	}
	/* "[<0>] jbd2_log_wait_commit+0xb5/0x120" */
	for (p = stack; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		const char *name = strstr(p, "] ");

		if (!name || name > p + strcspn(p, "\n"))
			continue;
		name += 2;
		n = strcspn(name, "+ \t\n");
		if (n && !generic_frame(name, n)) {
			snprintf(out, len, "%.*s", (int)n, name);
			return true;
		}
	}
	return false;
}

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

bool waitsite_sample(const char *proc_root, int tid, char *site, size_t len)
{
	char path[128], wchan[128], stack[4096];

	snprintf(path, sizeof(path), "%s/proc/self/task/%d/wchan", proc_root, tid);
	read_text(path, wchan, sizeof(wchan));
	snprintf(path, sizeof(path), "%s/proc/self/task/%d/stack", proc_root, tid);
	read_text(path, stack, sizeof(stack));	/* root only; fine without */
	return monitor_parse_site(wchan, stack, site, len);
}

static struct ws_site_count *find_site(struct ws_site_count *arr,
				       unsigned int *n, unsigned int max,
				       const char *name)
{
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(arr[i].name, name))
			return &arr[i];
	if (*n == max)
		return &arr[max - 1];	/* full: the last slot becomes "other" */
	snprintf(arr[*n].name, sizeof(arr[*n].name), "%s", name);
	return &arr[(*n)++];
}

void waitsite_tally(struct monitor_probe *mp, uint64_t since,
		       const char *site)
{
	struct ws_site_count *c, *top = NULL;

	pthread_mutex_lock(&mp->door.lock);
	if (atomic_load(&mp->door.inflight_since) != since)
		goto out_unlock;
	if (mp->current_since != since) {
		mp->current_since = since;
		mp->ncurrent = 0;
	}
	c = find_site(mp->fig.sites, &mp->fig.nsites, WS_MAX_SITES, site);
	if (mp->fig.nsites == WS_MAX_SITES && c == &mp->fig.sites[WS_MAX_SITES - 1])
		snprintf(c->name, sizeof(c->name), "other");
	c->samples++;
	c = find_site(mp->current, &mp->ncurrent, 4, site);
	c->samples++;
	for (unsigned int i = 0; i < mp->ncurrent; i++)
		if (!top || mp->current[i].samples > top->samples)
			top = &mp->current[i];
	snprintf(mp->door.site, sizeof(mp->door.site), "%s", top->name);
out_unlock:
	pthread_mutex_unlock(&mp->door.lock);
}
