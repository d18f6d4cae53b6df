/* adapt.h - the controller of --pace adaptive: the bytes the writer keeps
 * under writeback so that the probes wait about --target-latency behind
 * it, and no less.  writestress(1), PACING MODES, gives the law in full.
 *
 * Once a round trip: inflight *= sqrt(setpoint / sojourn), within x2 and
 * x1/2; the sojourn (a chunk's writeback start to on disk) is inflight /
 * bandwidth by Little's law (TCP Vegas).  Once a period the slowest
 * steering probe moves the setpoint, divided by its waits (writer
 * sojourns one operation spans); the setpoint never exceeds (target -
 * idle) / waits, as a journal commit's flush waits for all writeback.
 * --headroom keeps the rate under (100 - pct) % of the disk's; after
 * ADAPT_PROBE_EVERY - 1 capped periods one runs uncapped to relearn it,
 * but only while the last periods' probes had room (all under
 * ADAPT_LOW_PCT of the target): an uncapped second is the floor's
 * latency, and one in eight would be the probes' p99.  While the cap
 * holds the setpoint may not grow (it would flood the uncapped period).
 *
 * Out of reach: ADAPT_SETTLE_PERIODS periods in a row over the target at
 * the floor end an attempt.  Before the target is called unreachable the
 * headroom steps up by ADAPT_HEADROOM_STEP_PCT to ADAPT_HEADROOM_MAX_PCT
 * (the disk's rate is learned with or without --headroom), never lifted
 * again; ADAPT_SETTLE_PERIODS periods in a row within the target meet it
 * with that headroom.  Each attempt is kept (record/adapt.h).
 *
 * Pure: the caller passes the time; one writer thread owns an adapt.
 */
#ifndef WS_ADAPT_H
#define WS_ADAPT_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record.h"

#define ADAPT_CHUNK_MIN (64 * 1024ull)
#define ADAPT_CHUNK_ALIGN (64 * 1024ull)
#define ADAPT_WINDOW_MAX 64u
#define ADAPT_WINDOW_PREFERRED 4u
#define ADAPT_PERIOD_NS 1000000000ull
#define ADAPT_PERIOD_PROBES 8u
#define ADAPT_HIGH_PCT 90u
#define ADAPT_LOW_PCT 75u
#define ADAPT_GROW 16u
#define ADAPT_GROW_FAST 4u
#define ADAPT_BAND_PCT 35u
#define ADAPT_SETTLE_PERIODS 3u
#define ADAPT_TAIL_PERIODS 10u
#define ADAPT_MIN_ROUND_NS 10000000.0
#define ADAPT_PROBES WS_MAX_PROBES
#define ADAPT_WAITS_MIN 1.0
#define ADAPT_WAITS_MAX 16.0
#define ADAPT_LEARN 4u
#define ADAPT_LEARN_MIN_SOJOURN_NS 1000000.0
#define ADAPT_HEADROOM_MAX_PCT 50u
#define ADAPT_CAP_BINDING_PCT 97u
#define ADAPT_PROBE_EVERY 8u
#define ADAPT_HEADROOM_STEP_PCT 25u

struct adapt_obs {
	uint64_t worst_ns, sum_ns;
	unsigned int n;
};

struct adapt {
	uint64_t target_ns;
	uint64_t chunk_max;		/* the buffer size */

	double setpoint_ns;		/* the writer's own chunks' goal */
	double inflight;		/* bytes allowed under writeback */
	uint64_t chunk;
	unsigned int window;
	double sojourn_ns;		/* smoothed */
	uint64_t steered_ns;		/* when inflight was last scaled */

	struct adapt_probe {
		bool steers;
		uint64_t idle_ns;	/* median on the idle disk */
		double waits;
		unsigned int learned;	/* periods that taught the waits */
		struct adapt_obs period;
		unsigned int steered;	/* periods it was the slowest */
	} probe[ADAPT_PROBES];

	uint64_t period_start_ns;
	unsigned int period_probes;
	uint64_t recent_worst_ns[ADAPT_TAIL_PERIODS];
	unsigned int nrecent;
	double period_sojourn_sum;
	unsigned int period_sojourns;
	bool period_off_floor;		/* above the floor at some time */
	/* inflight per closed period, for settling */
	struct adapt_band {
		double low, high, mean;
		uint64_t start_ns;
	} band[ADAPT_SETTLE_PERIODS];
	unsigned int nbands;
	unsigned int calm_periods;	/* in a row */
	double band_sum;
	unsigned int band_n;		/* chunks this period */
	uint64_t settled_ns;		/* 0: not settled */
	bool settled;
	enum ws_adapt_why why;		/* of the last period */

	/* --headroom, bytes a second; 0: not yet or none */
	unsigned int headroom_pct;
	double disk_bps, cap_bps;
	double period_bps[ADAPT_TAIL_PERIODS];	/* 0: the cap held it back */
	unsigned int nperiods;
	unsigned int capped_run;	/* periods in a row */
	bool cap_lifted;		/* this period runs uncapped */
	bool lift_seen;			/* in this probes' period */
	uint64_t rate_start_ns, rate_bytes;

	/* headroom tried before unreachable; chosen: by an attempt, not
	 * --headroom, so never lifted */
	struct ws_adapt_attempt attempt[WS_ADAPT_ATTEMPTS];
	unsigned int nattempts;
	bool chosen, trying;
	uint64_t met_worst_ns;		/* of the met periods in a row */
	uint64_t headroom_met_ns;	/* 0: not met with an attempt's */

	/* unreachable: periods in a row over the target at the floor */
	unsigned int floor_periods;
	unsigned int met_periods;
	uint64_t floor_worst_ns;	/* fastest of their slowest probes */
	int floor_probe;		/* -1: none */
	bool unreachable;
	uint64_t unreachable_ns;	/* when first said, 0: never */
	uint64_t unreachable_floor_ns;
	int unreachable_probe;
};

/* target_ns > 0; buffer: the largest chunk.  The first period begins
 * with the first call below. */
void adapt_init(struct adapt *a, uint64_t target_ns, uint64_t buffer);

/* Before the run: idle_ns and the synchronous calls an operation (0: 1)
 * seed the slot's waits. */
void adapt_steer_by(struct adapt *a, unsigned int slot, uint64_t idle_ns,
		    unsigned int syncs);

/* Before the run: pct <= ADAPT_HEADROOM_MAX_PCT; 0: no cap. */
void adapt_set_headroom(struct adapt *a, unsigned int pct);

/* A chunk is on disk, sojourn_ns after its writeback started. */
void adapt_retired(struct adapt *a, uint64_t now_ns, uint64_t sojourn_ns,
		   uint64_t bytes);

/* A slot never given to adapt_steer_by steers with idle 0 and one wait. */
void adapt_probe(struct adapt *a, uint64_t now_ns, unsigned int slot,
		 const struct adapt_obs *o);

/* The slot that steered most periods, -1: none yet. */
int adapt_steering_probe(const struct adapt *a);

static inline uint64_t adapt_chunk(const struct adapt *a)
{
	return a->chunk;
}

static inline unsigned int adapt_window(const struct adapt *a)
{
	return a->window;
}

/* Bytes a second the writer may write now; 0: no cap now. */
static inline uint64_t adapt_rate_cap(const struct adapt *a)
{
	return a->cap_lifted ? 0 : (uint64_t)a->cap_bps;
}

#endif
