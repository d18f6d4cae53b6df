/* plan.c - bounds, wrapping and the free-space reserve. */
#include <errno.h>
#include <string.h>

#include "config/plan.h"
#include "lib/units.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t plan_default_reserve(uint64_t fs_size, bool system)
{
	/* 5% keeps a small test filesystem usable, 1 GiB is plenty for a
	 * big one; the system's own keeps at least a tenth */
	if (system)
		return fs_size / 10 + (fs_size % 10 != 0);
	return min_u64(fs_size / 20, WS_GIB);
}

static uint64_t run_total(const struct ws_config *cfg)
{
	uint64_t total = WS_UNBOUNDED, bytes;

	if (cfg->set.buffers) {
		if (__builtin_mul_overflow(cfg->set.buffers, cfg->set.buffer_size, &bytes))
			bytes = WS_UNBOUNDED - 1;	/* more than any disk */
		total = bytes;
	}
	if (cfg->set.total_size)
		total = min_u64(total, cfg->set.total_size);
	return total;
}

/* The probes usually share the target's filesystem: room for their files
 * (SQLite's page overhead is under a quarter more). */
static uint64_t probe_footprint(const struct ws_config *cfg)
{
	uint64_t bytes = 0;

	if (cfg->set.probes & (1u << WS_PROBE_FSYNC))
		bytes += WS_PROBE_FSYNC_WRAP + cfg->set.probe_size;
	if (cfg->set.probes & (1u << WS_PROBE_SAVE))
		bytes += 2 * cfg->set.probe_size;
	if (cfg->set.probes & (1u << WS_PROBE_SQLITE))
		bytes += WS_PROBE_FSYNC_WRAP + WS_PROBE_FSYNC_WRAP / 4 +
			 2 * cfg->set.probe_size;
	return bytes;
}

int plan_make(const struct ws_config *cfg, const struct ws_space *sp,
	      struct ws_plan *plan, struct ws_plan_refusal *why)
{
	uint64_t usable, room, needed, extra = probe_footprint(cfg);

	memset(plan, 0, sizeof(*plan));
	plan->buffer_size = cfg->set.buffer_size;
	plan->total = run_total(cfg);
	plan->reserve_system = !cfg->reserve_set && sp->holds;
	plan->reserve = cfg->reserve_set ? cfg->reserve
					 : plan_default_reserve(sp->fs_size, plan->reserve_system);

	usable = sp->avail + sp->reclaimed;
	room = usable > plan->reserve + extra ? usable - plan->reserve - extra : 0;

	if (cfg->file_size) {
		plan->file_size = cfg->file_size;
	} else if (plan->total != WS_UNBOUNDED) {
		plan->file_size = plan->total;
	} else {
		/* no bound: wrap at this target's share of the room */
		if (sp->sharers > 1)
			room /= sp->sharers;
		plan->file_size = room - room % cfg->set.buffer_size;
		plan->file_size_derived = true;
		if (!plan->file_size)
			plan->file_size = cfg->set.buffer_size; /* refused below */
	}
	needed = min_u64(plan->file_size, plan->total);

	if (needed > room) {
		why->needed = needed;
		why->usable = usable;
		why->reserve = plan->reserve;
		/* a hint must work when followed: 1% for metadata */
		why->fits = room - room / 100;
		why->fits -= why->fits % (4 * WS_KIB);
		return -ENOSPC;
	}
	return 0;
}

int plan_precondition(const struct ws_config *cfg, uint64_t capacity,
		      struct ws_plan *plan)
{
	double mult = cfg->set.steady.precondition_set ? cfg->precondition_mult
					    : cfg->set.steady.until ? 2.0 : 0.0;

	plan->capacity = capacity;
	plan->precondition_x = 0;
	if (cfg->set.steady.precondition_set && !cfg->precondition_mult) {
		plan->precondition = cfg->set.steady.precondition_bytes;
		return 0;
	}
	if (mult <= 0) {
		plan->precondition = 0;
		return 0;
	}
	if (!capacity)
		return -ENODEV;
	plan->precondition_x = mult;
	if ((double)capacity * mult >= 1.8e19)
		plan->precondition = UINT64_MAX;	/* more than any run */
	else
		plan->precondition = (uint64_t)((double)capacity * mult);
	return 0;
}

bool plan_next(const struct ws_plan *plan, uint64_t pos, struct ws_extent *e)
{
	if (pos >= plan->total)
		return false;
	e->off = pos % plan->file_size;
	e->len = min_u64(plan->buffer_size, plan->file_size - e->off);
	e->len = min_u64(e->len, plan->total - pos);
	return true;
}
