/* waitsite.h - where a stuck probe waits: the watcher samples, the door's
 * lock guards the tallies, a stall blames the site sampled most. */
#ifndef WS_PROBES_WAITSITE_H
#define WS_PROBES_WAITSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct monitor_probe;

/* false if the kernel names none. */
bool waitsite_sample(const char *proc_root, int tid, char *site, size_t len);
/* Watcher thread. */
void waitsite_tally(struct monitor_probe *mp, uint64_t since, const char *site);
/* Probe thread, as a stall ends: site is WS_SITE_LEN, "" for none. */
void waitsite_blame(struct monitor_probe *mp, uint64_t since, char *site);

#endif
