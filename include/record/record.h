/* record.h - the one record between the engine and the outputs.
 *
 * Everything an output shows is in it, already derived: the facts of the
 * run fixed before the first byte (record/run.h), one struct ws_interval
 * per reporting interval (record/interval.h), and at the end a struct
 * ws_summary carrying every figure, rule and verdict (record/summary.h:
 * probe summaries with their stalls, wait sites and histograms, the
 * analysis with the parameters it was judged by, the cells of throughput
 * over bytes, what limited the writer, how the run ended).  Outputs
 * (sink*.c, fingerprint_show.c) format it.
 *
 * A run of several targets (FILE1 FILE2 ..., --jobs N) is recorded twice
 * over: each struct has `targets`, one struct of the same kind per target
 * (its own facts, intervals, summary with phases and verdicts), and the
 * struct itself holds the aggregate (bytes and rates summed, the probes,
 * which run once per filesystem, the machine's figures).  With one target
 * ntargets is 0 and the struct is that target's.
 *
 * Who builds what: recorder_make_run() fills struct ws_run before the
 * threads start; the recorder thread (recorder_thread.c) builds the
 * intervals and the summary, with the pipeline of analysis.h and the
 * series of series.c.  Sinks only read, from the recorder thread (the
 * header from the main thread, before).
 *
 * The record's parts, a header each: kinds (timers, stop reasons, block
 * states), settings and fields, series, phases, stall, probe, verify,
 * run, adapt, block, journal, interval, summary.
 */
#ifndef WS_RECORD_H
#define WS_RECORD_H

#include "lib/c.h"
#include "record/adapt.h"
#include "record/block.h"
#include "record/interval.h"
#include "record/journal.h"
#include "record/kinds.h"
#include "record/phases.h"
#include "record/probe.h"
#include "record/run.h"
#include "record/series.h"
#include "record/settings.h"
#include "record/stall.h"
#include "record/summary.h"
#include "record/verify.h"

#endif
