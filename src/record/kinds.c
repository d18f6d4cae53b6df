/* kinds.c - the keys and words of the record's kinds. */
#include "record/kinds.h"

static const struct {
	const char *words, *key, *json;
} timers[WS_T_NR] = {
	[WS_T_FILL] = { "fill buffer", "fill_ms", "fill" },
	[WS_T_WRITE] = { "write", "write_ms", "write" },
	[WS_T_START] = { "start writeback", "start_ms", "start_writeback" },
	[WS_T_WAIT] = { "wait writeback", "wait_ms", "wait_writeback" },
	[WS_T_FADVISE] = { "fadvise", "fadvise_ms", "fadvise" },
	[WS_T_RATE] = { "rate limit", "rate_ms", "rate_limit" },
	[WS_T_SUBMIT] = { "submit", "submit_ms", "submit" },
	[WS_T_COMPLETE] = { "wait completions", "complete_ms", "wait_completion" },
};

const char *ws_timer_words(enum ws_timer t)
{
	return t < WS_T_NR ? timers[t].words : "?";
}

const char *ws_timer_key(enum ws_timer t)
{
	return t < WS_T_NR ? timers[t].key : "?";
}

const char *ws_timer_json(enum ws_timer t)
{
	return t < WS_T_NR ? timers[t].json : "?";
}

static const char *const stop_keys[WS_STOP_NR] = {
	[WS_STOP_BOUND] = "bound",
	[WS_STOP_TIME] = "time",
	[WS_STOP_SIGNAL] = "signal",
	[WS_STOP_ERROR] = "error",
	[WS_STOP_STEADY] = "steady",
	[WS_STOP_NOT_STEADY] = "not_steady",
};

const char *ws_stop_key(enum ws_stop_reason r)
{
	return r < WS_STOP_NR ? stop_keys[r] : "?";
}

static const struct {
	const char *key, *words;
} block_states[WS_BLOCK_NR] = {
	[WS_BLOCK_OK] = { "ok", "ok" },
	[WS_BLOCK_UNSTAMPED] = { "unstamped", "unstamped" },
	[WS_BLOCK_CORRUPT] = { "corrupt", "corrupt" },
	[WS_BLOCK_MISPLACED] = { "misplaced", "misplaced" },
	[WS_BLOCK_OTHER_RUN] = { "other_run", "of another run" },
};

const char *ws_block_state_key(enum ws_block_state s)
{
	return s < WS_BLOCK_NR ? block_states[s].key : "?";
}

const char *ws_block_state_words(enum ws_block_state s)
{
	return s < WS_BLOCK_NR ? block_states[s].words : "?";
}
