/* record.h - the one record between the engine and the outputs: the run's
 * facts, an interval each reporting interval, and the summary with every
 * derived figure, rule and verdict, which the outputs put into words.
 *
 * With several targets each struct also holds `targets`, one per target,
 * and itself the aggregate; with one, ntargets is 0.  recorder.h builds
 * it; sinks read it on the recorder thread (the header before it starts).
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
#include "record/verdict.h"
#include "record/verify.h"

#endif
