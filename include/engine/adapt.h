/* adapt.h - the controller of --pace adaptive: how much the writer may have
 * under writeback so that the desktop's probes wait about
 * --target-latency behind it, and no less, so throughput stays as high as
 * the device allows.
 *
 * The control law (documented in writestress(1) too):
 *
 *   Whatever queues behind the writer's writeback waits for it to drain,
 *   about as long as one of the writer's own chunks takes from the start
 *   of its writeback to on disk: its sojourn (smoothed, 1/4 per chunk:
 *   the fast signal).  Once a round trip (a sojourn, at least
 *   ADAPT_MIN_ROUND_NS) the writer scales what it keeps under writeback:
 *           inflight = inflight x sqrt(setpoint / sojourn)
 *   a gradient rule in the spirit of TCP Vegas: by Little's law the
 *   sojourn is inflight / bandwidth, so at the fixed point the sojourn is
 *   the setpoint and the disk is as busy as that allows.  The setpoint is
 *   the latency the writer's own chunks may see.  It starts at half the
 *   target and the probes correct it (the truth): once a period
 *   (ADAPT_PERIOD_NS, or ADAPT_PERIOD_PROBES probes) the slowest probe of
 *   the period is compared with the target.  Above ADAPT_HIGH_PCT % of it
 *   the setpoint is scaled by that over the slowest (at most halved); under
 *   half of it the setpoint grows by 1/ADAPT_GROW_FAST, under
 *   ADAPT_LOW_PCT % of it by 1/ADAPT_GROW.  Between, it holds: the slowest
 *   probe of a period is aimed a little under the target, so that the
 *   noise of a real disk (a block throttle's slices, a journal commit)
 *   leaves the p99 near it rather than over it.  What the probes do beyond waiting
 *   for the writer (their own I/O, a journal commit) is what the setpoint
 *   learns to leave room for.  The setpoint never exceeds the target:
 *   where the probes' requests often overtake the writer's (a throttle or
 *   scheduler that favours synchronous I/O) the ones that do not - a
 *   journal commit's cache flush waits for all of the writer's
 *   writeback - still wait a whole sojourn.
 *   One step never changes inflight by more than x1/2 or x2, and it stays
 *   within
 *   [ADAPT_CHUNK_MIN, ADAPT_WINDOW_MAX x buffer].  inflight is cut into a
 *   window of chunks: chunk = inflight / ADAPT_WINDOW_PREFERRED within
 *   [ADAPT_CHUNK_MIN, buffer] (a multiple of 64 KiB), window =
 *   inflight / chunk within [1, ADAPT_WINDOW_MAX].
 *
 *   Several probes may steer (every probe but a command's, or those
 *   --steer-by names): each is judged against the target on its own and
 *   the slowest of the period steers.  Each probe operation may wait
 *   behind the writer more than once (a SQLite commit syncs its journal,
 *   the database and the directory one after another): the controller
 *   learns how many writer sojourns one operation spans, its waits,
 *           waits = (slowest latency - idle latency) / mean sojourn
 *   over a period (the slowest operation, as the slowest steers; within [ADAPT_WAITS_MIN, ADAPT_WAITS_MAX], smoothed
 *   1/ADAPT_LEARN per period; not learned at the floor or while the
 *   sojourn is under ADAPT_LEARN_MIN_SOJOURN_NS: there the probes' time
 *   is not the writer's), starting from the probe's own count of its
 *   synchronous calls (probe.h).  The waits scale the setpoint: it
 *   starts at (target / 2 - idle) / waits, never exceeds
 *   (target - idle) / waits, and a cut or a growth moves it by what the
 *   probe is over or under, divided by its waits.
 *
 *   The tail: growth is judged by the slowest probe of the last
 *   ADAPT_TAIL_PERIODS periods (this one's included), not of this period
 *   alone, and while that one is over ADAPT_HIGH_PCT % the setpoint eases
 *   by 1/ADAPT_GROW a period: a cut answers one slow period, the
 *   probes' p99 is what the target is about.
 *
 *   Unreachable: where the probes of ADAPT_SETTLE_PERIODS periods in a
 *   row were all over the target while the writer kept no more than its
 *   floor (ADAPT_CHUNK_MIN) under writeback, no pace of the writer's
 *   meets the target on this disk: the controller says so (the
 *   unreachable verdict, with the fastest of those periods' slowest
 *   probes as the floor) and holds the floor.  ADAPT_SETTLE_PERIODS
 *   periods in a row that meet the target clear it: the verdict changes
 *   on as much evidence either way (on a throttled disk a floor's probes
 *   are bimodal, a few ms or whole slices, and one lucky second of fast
 *   ones is not the target met).
 *
 *   Headroom (--headroom PCT, 0: none): the writer's rate is kept under
 *   (100 - PCT) % of the disk's, so that the disk is left idle that much
 *   of the time and a synchronous write that arrives then (an
 *   application's commit beside the probes) finds it free, instead of
 *   queueing behind the writer however little it keeps under writeback.
 *   The disk's rate is learned from what the writer's retired chunks did
 *   in each period (ADAPT_PERIOD_NS): the fastest of the last
 *   ADAPT_TAIL_PERIODS periods that the cap did not hold back.  A period
 *   held back (it did ADAPT_CAP_BINDING_PCT % of the cap or more) shows
 *   only the cap, so one period in ADAPT_PROBE_EVERY runs without it:
 *   there is always a period that shows what the disk does now, and the
 *   rate follows a disk that speeds up as well as one that slows.  (Left
 *   to the periods under the cap alone, it would learn only from the
 *   slow ones and sink further with every cap.)  While the cap holds the
 *   writer the setpoint may fall but not grow: the room the probes see
 *   then is the cap's, and a setpoint grown into it would flood the disk
 *   in the period without the cap.  The probes' periods that see the cap
 *   lifted are left out of the settled verdict (neither calm nor not):
 *   the writer's pace did not move, the disk was looked at.
 *
 *   Settled: over ADAPT_SETTLE_PERIODS periods in a row the slowest probe
 *   met the target and was never under half of it (the setpoint was not
 *   racing up; unless it was at its top, or inflight at the floor all
 *   period), and inflight stayed within +-ADAPT_BAND_PCT % of its mean
 *   over them; settled_ns is when that stretch began.  Small cuts and
 *   slow growth of the setpoint count as settled: the slowest probe of a
 *   period is noisy, the band says whether the writer's pace moved.  The
 *   unit tests hold the controller, on a simulated device, to that band
 *   once settled.
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
#define ADAPT_PERIOD_NS 1000000000ull	/* 1 s */
#define ADAPT_PERIOD_PROBES 8u
#define ADAPT_HIGH_PCT 90u
#define ADAPT_LOW_PCT 75u
#define ADAPT_GROW 16u
#define ADAPT_GROW_FAST 4u
#define ADAPT_BAND_PCT 35u
#define ADAPT_SETTLE_PERIODS 3u
#define ADAPT_TAIL_PERIODS 10u
#define ADAPT_MIN_ROUND_NS 10000000.0	/* 10 ms */
#define ADAPT_PROBES WS_MAX_PROBES	/* a slot per probe */
#define ADAPT_WAITS_MIN 1.0
#define ADAPT_WAITS_MAX 16.0
#define ADAPT_LEARN 4u
#define ADAPT_LEARN_MIN_SOJOURN_NS 1000000.0	/* 1 ms */
#define ADAPT_HEADROOM_MAX_PCT 50u
#define ADAPT_CAP_BINDING_PCT 97u
#define ADAPT_PROBE_EVERY 8u

/* What one probe's operations have shown since the last call. */
struct adapt_obs {
	uint64_t worst_ns, sum_ns;
	unsigned int n;
};

struct adapt {
	uint64_t target_ns;
	uint64_t chunk_max;		/* the buffer size */

	double setpoint_ns;		/* the writer's own latency goal */
	double inflight;		/* bytes allowed under writeback */
	uint64_t chunk;
	unsigned int window;
	double sojourn_ns;		/* the last chunks' sojourn, smoothed */
	uint64_t steered_ns;		/* inflight last scaled */

	/* the probes that steer, by slot (adapt_steer_by) */
	struct adapt_probe {
		bool steers;
		uint64_t idle_ns;	/* its median on the idle disk */
		double waits;		/* writer sojourns one operation spans */
		unsigned int learned;	/* periods that taught the waits */
		struct adapt_obs period;
		unsigned int steered;	/* periods it was the slowest */
	} probe[ADAPT_PROBES];

	/* the probes' period */
	uint64_t period_start_ns;
	unsigned int period_probes;
	/* the slowest steering probe of the last periods: growth waits
	 * for the tail */
	uint64_t recent_worst_ns[ADAPT_TAIL_PERIODS];
	unsigned int nrecent;
	double period_sojourn_sum;
	unsigned int period_sojourns;
	bool period_off_floor;		/* inflight above the floor at a time */
	/* inflight over the last periods: for settling */
	struct adapt_band {
		double low, high, mean;
		uint64_t start_ns;
	} band[ADAPT_SETTLE_PERIODS];
	unsigned int nbands;		/* periods closed */
	unsigned int calm_periods;	/* in a row */
	double band_sum;
	unsigned int band_n;		/* chunks in this period */
	uint64_t settled_ns;		/* 0: not settled (yet) */
	bool settled;
	enum ws_adapt_why why;		/* the last period's verdict */

	/* --headroom: the disk's rate and the writer's cap, bytes a second
	 * (0: not yet, or no headroom) */
	unsigned int headroom_pct;
	double disk_bps, cap_bps;
	double period_bps[ADAPT_TAIL_PERIODS];	/* 0: the cap held it back */
	unsigned int nperiods;
	unsigned int capped_run;	/* periods under the cap, in a row */
	bool cap_lifted;		/* this period runs without it */
	bool lift_seen;			/* since the last probes' period */
	uint64_t rate_start_ns, rate_bytes;

	/* the unreachable verdict */
	unsigned int floor_periods;	/* over the target at the floor, in a row */
	unsigned int met_periods;	/* meeting it while unreachable, in a row */
	uint64_t floor_worst_ns;	/* the fastest of their slowest probes */
	int floor_probe;		/* whose, -1: none */
	bool unreachable;		/* now */
	uint64_t unreachable_ns;	/* when first said, 0: never */
	uint64_t unreachable_floor_ns;	/* the floor it said */
	int unreachable_probe;
};

/* target_ns > 0; buffer: the writer's buffer size (the largest chunk).
 * The first period begins with the first call below. */
void adapt_init(struct adapt *a, uint64_t target_ns, uint64_t buffer);

/* Before the run: probe slot `slot` (< ADAPT_PROBES) steers; it took
 * idle_ns on the idle disk and makes `syncs` synchronous calls an
 * operation (the waits learned start there; 0 counts as 1). */
void adapt_steer_by(struct adapt *a, unsigned int slot, uint64_t idle_ns,
		    unsigned int syncs);

/* Before the run: keep the writer's rate under (100 - pct) % of the
 * disk's (pct <= ADAPT_HEADROOM_MAX_PCT; 0: no cap). */
void adapt_set_headroom(struct adapt *a, unsigned int pct);

/* A chunk of `bytes` is on disk, sojourn_ns after its writeback was
 * started. */
void adapt_retired(struct adapt *a, uint64_t now_ns, uint64_t sojourn_ns,
		   uint64_t bytes);

/* Probe `slot` ended o->n operations since the last call, the slowest
 * o->worst_ns.  A slot never set up with adapt_steer_by steers with an
 * idle time of 0 and one wait (a caller with one probe needs no setup). */
void adapt_probe(struct adapt *a, uint64_t now_ns, unsigned int slot,
		 const struct adapt_obs *o);

/* The probe that steered most periods, -1: none yet. */
int adapt_steering_probe(const struct adapt *a);

static inline uint64_t adapt_chunk(const struct adapt *a)
{
	return a->chunk;
}

static inline unsigned int adapt_window(const struct adapt *a)
{
	return a->window;
}

/* The most bytes a second the writer may write now; 0: no cap (none
 * yet, or this period runs without it). */
static inline uint64_t adapt_rate_cap(const struct adapt *a)
{
	return a->cap_lifted ? 0 : (uint64_t)a->cap_bps;
}

#endif
