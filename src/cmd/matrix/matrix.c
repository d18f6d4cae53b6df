/* matrix.c - the strategy matrix's pure parts (see matrix.h): strategies,
 * the children's command lines, reading their results, the quiet rule. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/c.h"
#include "cmd/matrix/matrix.h"
#include "record/settings.h"
#include "cmd/common/result_read.h"
#include "lib/units.h"

static int parse_param(struct matrix_strategy *s, const char *p, char *why,
		       size_t len)
{
	struct units_error err;

	if (!strncmp(p, "B=", 2) && !s->idle) {
		if (units_parse_size(p + 2, &s->buffer, &err) ||
		    !s->buffer || s->buffer % (4 * WS_KIB) || s->buffer > WS_GIB) {
			snprintf(why, len, "'%s' in '%s': a buffer size, a multiple of 4K up to 1G",
				 p, s->label);
			return -EINVAL;
		}
		return 0;
	}
	if (!strncmp(p, "W=", 2) && s->pace == WS_PACE_WINDOW) {
		char *end;
		unsigned long w = strtoul(p + 2, &end, 10);

		if (!p[2] || *end || w < 1 || w > 4096) {
			snprintf(why, len, "'%s' in '%s': a window of 1 to 4096 buffers",
				 p, s->label);
			return -EINVAL;
		}
		s->window = (unsigned int)w;
		return 0;
	}
	snprintf(why, len, "'%s' in '%s': B=SIZE (not with idle) or W=N (window only)",
		 p, s->label);
	return -EINVAL;
}

static int parse_one(char *item, struct matrix_strategy *s, char *why, size_t len)
{
	char *name = strtok(item, ":"), *p;
	enum ws_pace pace;

	memset(s, 0, sizeof(*s));
	if (!name || !*name) {
		snprintf(why, len, "an empty strategy");
		return -EINVAL;
	}
	if (!strcmp(name, "idle")) {
		s->idle = true;
		s->pace = WS_PACE_WINDOW;
	} else if (!strcmp(name, "window+fadvise")) {
		s->pace = WS_PACE_WINDOW;
		s->fadvise = true;
	} else if (ws_pace_parse(name, &pace)) {
		s->pace = pace;
	} else {
		snprintf(why, len, "unknown strategy '%s' (idle, none, window, window+fadvise, fdatasync, direct, dontcache, adaptive)",
			 name);
		return -EINVAL;
	}
	snprintf(s->label, sizeof(s->label), "%s", name);
	while ((p = strtok(NULL, ":"))) {
		size_t used = strlen(s->label);

		if (parse_param(s, p, why, len))
			return -EINVAL;
		snprintf(s->label + used, sizeof(s->label) - used, ":%s", p);
	}
	return 0;
}

int matrix_parse_strategies(const char *list, struct matrix_strategy *out,
			    unsigned int *n, char *why, size_t len)
{
	char copy[512], *save = NULL, *item;

	*n = 0;
	if (strlen(list) >= sizeof(copy)) {
		snprintf(why, len, "the list is too long");
		return -EINVAL;
	}
	snprintf(copy, sizeof(copy), "%s", list);
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (*n == MATRIX_MAX_STRATEGIES) {
			snprintf(why, len, "more than %d strategies", MATRIX_MAX_STRATEGIES);
			return -EINVAL;
		}
		if (parse_one(item, &out[*n], why, len))
			return -EINVAL;
		for (unsigned int i = 0; i < *n; i++) {
			if (!strcmp(out[i].label, out[*n].label)) {
				snprintf(why, len, "'%s' is listed twice", out[i].label);
				return -EINVAL;
			}
		}
		(*n)++;
	}
	if (!*n) {
		snprintf(why, len, "no strategy");
		return -EINVAL;
	}
	return 0;
}

struct args_builder {
	struct matrix_argv *out;
	size_t n, nbuf;
};

static void add(struct args_builder *b, const char *arg)
{
	if (b->n < MATRIX_ARGS_MAX - 1)
		b->out->argv[b->n++] = arg;
}

static void add_num(struct args_builder *b, const char *opt, const char *fmt,
		    unsigned long long v)
{
	char *buf = b->out->buf[b->nbuf++ % ARRAY_SIZE(b->out->buf)];

	snprintf(buf, sizeof(b->out->buf[0]), fmt, v);
	add(b, opt);
	add(b, buf);
}

void matrix_child_args(const struct matrix_strategy *s, const struct matrix_cfg *mc,
		       const char *scheduler, const char *json_path,
		       struct matrix_argv *out)
{
	struct args_builder b = { .out = out };

	memset(out, 0, sizeof(*out));
	add(&b, mc->self);
	add(&b, "-q");
	add(&b, "--json");
	add(&b, json_path);
	add(&b, "--pace");
	add(&b, ws_pace_name(s->pace));
	if (s->fadvise)
		add(&b, "--fadvise");
	if (s->idle) {
		/* a page a second: the disk barely touched */
		add(&b, "--buffer-size");
		add(&b, "4K");
		add(&b, "--rate");
		add(&b, "4K/s");
	} else if (s->buffer) {
		add_num(&b, "--buffer-size", "%llu", s->buffer);
	}
	if (s->window)
		add_num(&b, "--window", "%llu", s->window);
	if (s->pace == WS_PACE_ADAPTIVE) {
		add_num(&b, "--target-latency", "%lluns",
			mc->target_latency_ns * MATRIX_ADAPTIVE_AIM_PCT / 100);
		if (mc->steer_by[0]) {
			add(&b, "--steer-by");
			add(&b, mc->steer_by);
		}
		if (mc->headroom_pct)
			add_num(&b, "--headroom", "%llu", mc->headroom_pct);
	}
	if (mc->each_bytes && !s->idle) {
		add_num(&b, "--size", "%llu", mc->each_bytes);
	} else {
		/* idle gets the time a sized run would take at most */
		add_num(&b, "--time", "%lluns", mc->each_ns ? mc->each_ns
							    : 15 * WS_NSEC_PER_SEC);
	}
	if (mc->file_size)
		add_num(&b, "--file-size", "%llu", mc->file_size);
	if (scheduler) {
		add(&b, "--scheduler");
		add(&b, scheduler);
	}
	for (unsigned int i = 0; i < mc->npassthrough; i++)
		add(&b, mc->passthrough[i]);
	add(&b, "--");
	add(&b, mc->file);
	out->argv[b.n] = NULL;
}

static struct json_object *at(const struct json_object *o, const char *path)
{
	struct json_object *v;

	return result_lookup(o, path, &v) == RESULT_FOUND ? v : NULL;
}

/* 0 when the child's result lacks it */
static double num(const struct json_object *o, const char *path)
{
	double v = result_num(o, path);

	return isnan(v) ? 0 : v;
}

static void count_causes(struct json_object *records, unsigned int *causes)
{
	for (size_t i = 0; records && json_object_is_type(records, json_type_array) &&
			   i < json_object_array_length(records); i++) {
		const char *cause = json_object_get_string(
			at(json_object_array_get_idx(records, i), "cause"));

		for (int c = WS_CAUSE_DEVICE; cause && c < WS_CAUSE_NR; c++)
			if (!strcmp(cause, ws_stall_cause_name((enum ws_stall_cause)c)))
				causes[c]++;
	}
}

const char *matrix_row_cause(const struct matrix_row *r)
{
	int best = 0;

	for (int c = WS_CAUSE_DEVICE; c < WS_CAUSE_NR; c++)
		if (r->causes[c] > r->causes[best])
			best = c;
	return best ? ws_stall_cause_name((enum ws_stall_cause)best) : NULL;
}

uint64_t matrix_count_over(const struct json_object *probe, uint64_t bound_ns)
{
	struct json_object *h = at(probe, "histogram_ns");
	uint64_t over = 0;

	for (size_t i = 0; h && json_object_is_type(h, json_type_array) &&
			   i < json_object_array_length(h); i++) {
		struct json_object *b = json_object_array_get_idx(h, i);
		uint64_t lo, hi;

		if (!json_object_is_type(b, json_type_array) ||
		    json_object_array_length(b) != 3)
			continue;
		lo = (uint64_t)json_object_get_int64(json_object_array_get_idx(b, 0));
		hi = (uint64_t)json_object_get_int64(json_object_array_get_idx(b, 1));
		/* hist_bucket_mid(): the value a percentile there is shown as */
		if (lo + (hi - lo) / 2 > bound_ns)
			over += (uint64_t)json_object_get_int64(json_object_array_get_idx(b, 2));
	}
	return over;
}

bool matrix_rate_is_disks(double mibps, bool have_device, double dev_mibps)
{
	return !have_device || mibps <= dev_mibps * (1 + MATRIX_DEVICE_PCT / 100);
}

static void read_probe(struct json_object *p, uint64_t target_ns, struct matrix_probe *mp)
{
	const char *name = json_object_get_string(at(p, "name"));

	snprintf(mp->name, sizeof(mp->name), "%s", name ? name : "?");
	mp->p50_ms = num(p, "raw.p50_ms");
	mp->p90_ms = num(p, "raw.p90_ms");
	mp->count = num(p, "count");
	mp->min_count = mp->count;
	mp->p99_ms = num(p, "raw.p99_ms");
	mp->max_ms = num(p, "max_ms");
	mp->p99_corrected_ms = num(p, "corrected.p99_ms");
	mp->stalls = num(p, "stalls.count");
	mp->over = matrix_count_over(p, target_ns);
	mp->over_frozen = matrix_count_over(p, target_ns * MATRIX_FROZEN_X);
}

/* The index of the probe named JUDGED, else 0. */
static size_t judged_index(struct json_object *probes, const char *judged)
{
	for (size_t i = 0; judged && *judged && i < json_object_array_length(probes); i++) {
		const char *name = json_object_get_string(
			at(json_object_array_get_idx(probes, i), "name"));

		if (name && !strcmp(name, judged))
			return i;
	}
	return 0;
}

static void read_device(struct json_object *doc, struct matrix_outcome *o)
{
	struct json_object *ivs = at(doc, "intervals");
	double bytes = 0, elapsed = num(doc, "summary.elapsed_s");

	for (size_t i = 0; ivs && json_object_is_type(ivs, json_type_array) &&
			   i < json_object_array_length(ivs); i++) {
		struct json_object *iv = json_object_array_get_idx(ivs, i);
		uint64_t d = (uint64_t)num(iv, "dirty") + (uint64_t)num(iv, "writeback");

		if (d > o->peak_dirty)
			o->peak_dirty = d;
		if (at(iv, "device")) {
			o->have_device = true;
			bytes += num(iv, "device.write_bytes");
		}
	}
	if (o->have_device && elapsed > 0)
		o->dev_mibps = bytes / (double)WS_MIB / elapsed;
	else
		o->have_device = false;
}

int matrix_outcome_from(struct json_object *doc, const char *judged,
			uint64_t target_ns, struct matrix_outcome *o)
{
	struct json_object *probes = at(doc, "probes");
	size_t n = 0, first = 0;

	if (!at(doc, "summary") || !json_object_is_type(at(doc, "summary"), json_type_object))
		return -EINVAL;
	o->have = true;
	o->mibps = num(doc, "summary.mibps");
	/* the writer's CPU per GiB: what the strategy costs */
	if (num(doc, "summary.bytes") > 0)
		o->cpu_s_per_gib = num(doc, "summary.cpu.writer_s") /
				   (num(doc, "summary.bytes") / (double)WS_GIB);
	if (probes && json_object_is_type(probes, json_type_array)) {
		n = json_object_array_length(probes);
		first = judged_index(probes, judged);
	}
	/* the judged first, the others in the result's order */
	for (size_t k = 0; k < n && o->nprobes < MATRIX_MAX_PROBES; k++) {
		size_t i = !k ? first : k <= first ? k - 1 : k;
		struct json_object *p = json_object_array_get_idx(probes, i);

		read_probe(p, target_ns, &o->probes[o->nprobes++]);
		if (!k)
			count_causes(at(p, "stalls.records"), o->causes);
	}
	if (o->nprobes) {
		snprintf(o->probe, sizeof(o->probe), "%s", o->probes[0].name);
		o->p50_ms = o->probes[0].p50_ms;
		o->p90_ms = o->probes[0].p90_ms;
		o->count = (uint64_t)o->probes[0].count;
		o->p99_ms = o->probes[0].p99_ms;
		o->max_ms = o->probes[0].max_ms;
		o->p99_corrected_ms = o->probes[0].p99_corrected_ms;
		o->stalls = (uint64_t)o->probes[0].stalls;
		o->over = o->probes[0].over;
		o->over_frozen = o->probes[0].over_frozen;
	}
	read_device(doc, o);
	return 0;
}

bool matrix_quiet(uint64_t dirty_wb, uint64_t idle, bool have_device, uint64_t still_ns)
{
	return dirty_wb <= idle + MATRIX_QUIET_MARGIN &&
	       (!have_device || still_ns >= MATRIX_QUIET_DEVICE_NS);
}

bool matrix_quiet_gave_up(uint64_t waited_ns)
{
	return waited_ns > MATRIX_QUIET_LIMIT_NS;
}
