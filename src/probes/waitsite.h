/* waitsite.h - where a stuck probe waits: the watcher samples the
 * kernel's word for it, each probe counts them (its door's lock guards
 * the tallies), and a stall ends blaming the site sampled most. */
#ifndef WS_PROBES_WAITSITE_H
#define WS_PROBES_WAITSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct monitor_probe;

/* The wait site of thread tid (under proc_root, "" live) into site:
 * false if the kernel names none. */
bool waitsite_sample(const char *proc_root, int tid, char *site, size_t len);
/* Watcher thread: one sample of the operation that started at since. */
void waitsite_tally(struct monitor_probe *mp, uint64_t since, const char *site);
/* Probe thread, as a stall ends: the site its operation (since) waited
 * at most into site (WS_SITE_LEN; "" none), counted against it. */
void waitsite_blame(struct monitor_probe *mp, uint64_t since, char *site);

#endif
