/* recorder_thread.h - what the recorder thread's ticks and its end of run share. */
#ifndef WS_RECORDER_THREAD_H
#define WS_RECORDER_THREAD_H

#include "recorder/recorder.h"

void recorder_add_mark(struct recorder_target *t, const struct ws_mark *m,
		       bool last);
void recorder_take_marks(struct recorder *r, struct recorder_target *t);
bool recorder_adaptive(const struct recorder_target *t);
void recorder_add_adapt(struct recorder_target *t, uint64_t start_ns,
			struct ws_interval *iv);
uint64_t recorder_adapt_settled_at(const struct recorder *r);
uint64_t recorder_end_of(const struct recorder *r, const struct recorder_target *t);
/* The summaries, each target's and the run's, handed to the sinks. */
void recorder_finish(struct recorder *r);

#endif
