/* probe_kinds.h - the probes that live in files of their own, for
 * probe.c's table (probe.h is the interface; this is not for others). */
#ifndef WS_PROBE_KINDS_H
#define WS_PROBE_KINDS_H

#include "probe.h"

/* probe_sqlite.c */
int probe_sqlite_setup(struct probe *p);
void probe_sqlite_prepare(struct probe *p);
int probe_sqlite_run(struct probe *p);
void probe_sqlite_cleanup(struct probe *p);

/* probe_cmd.c */
int probe_cmd_setup(struct probe *p);
int probe_cmd_run(struct probe *p);
void probe_cmd_cleanup(struct probe *p);

#endif
