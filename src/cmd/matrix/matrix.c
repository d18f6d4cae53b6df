/* matrix.c - the strategy matrix's pure parts (see matrix.h): strategies,
 * the children's command lines, reading their results, the rows, the
 * front, the verdicts and the table. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lib/c.h"
#include "lib/hist.h"
#include "cmd/matrix/matrix.h"
#include "record/settings.h"
#include "cmd/common/result_read.h"
#include "lib/units.h"

/* ---- strategies --------------------------------------------------------- */

/* "B=1M" or "W=4" after a strategy's name. */
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

/* ---- the children ------------------------------------------------------- */

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
		/* the probes on a disk the writer barely touches: a page a
		 * second, in place */
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
		add_num(&b, "--target-latency", "%lluns", mc->target_latency_ns);
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

/* ---- reading a result --------------------------------------------------- */

/* The value at PATH (result_read.h), NULL when absent or null. */
static struct json_object *at(const struct json_object *o, const char *path)
{
	struct json_object *v;

	return result_lookup(o, path, &v) == RESULT_FOUND ? v : NULL;
}

/* The number at PATH; 0 when the child's result lacks it. */
static double num(const struct json_object *o, const char *path)
{
	double v = result_num(o, path);

	return isnan(v) ? 0 : v;
}

/* A probe's stall records by cause (a traced run names one each). */
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

int matrix_outcome_from(struct json_object *doc, struct matrix_outcome *o)
{
	struct json_object *probes = at(doc, "probes"), *ivs = at(doc, "intervals");

	if (!at(doc, "summary") || !json_object_is_type(at(doc, "summary"), json_type_object))
		return -EINVAL;
	o->have = true;
	o->mibps = num(doc, "summary.mibps");
	/* the writer thread's CPU per GiB it wrote: what the strategy costs */
	if (num(doc, "summary.bytes") > 0)
		o->cpu_s_per_gib = num(doc, "summary.cpu.writer_s") /
				   (num(doc, "summary.bytes") / (double)WS_GIB);
	for (size_t i = 0; probes && json_object_is_type(probes, json_type_array) &&
			   i < json_object_array_length(probes) &&
			   o->nprobes < MATRIX_MAX_PROBES; i++) {
		struct json_object *p = json_object_array_get_idx(probes, i);
		const char *name = json_object_get_string(at(p, "name"));
		struct matrix_probe *mp = &o->probes[o->nprobes++];

		snprintf(mp->name, sizeof(mp->name), "%s", name ? name : "?");
		mp->p50_ms = num(p, "raw.p50_ms");
		mp->p90_ms = num(p, "raw.p90_ms");
		mp->count = num(p, "count");
		mp->p99_ms = num(p, "raw.p99_ms");
		mp->max_ms = num(p, "max_ms");
		mp->p99_corrected_ms = num(p, "corrected.p99_ms");
		mp->stalls = num(p, "stalls.count");
		if (i == 0)
			count_causes(at(p, "stalls.records"), o->causes);
	}
	if (o->nprobes) {	/* the first is the one the table judges */
		snprintf(o->probe, sizeof(o->probe), "%s", o->probes[0].name);
		o->p50_ms = o->probes[0].p50_ms;
		o->p90_ms = o->probes[0].p90_ms;
		o->count = (uint64_t)o->probes[0].count;
		o->p99_ms = o->probes[0].p99_ms;
		o->max_ms = o->probes[0].max_ms;
		o->p99_corrected_ms = o->probes[0].p99_corrected_ms;
		o->stalls = (uint64_t)o->probes[0].stalls;
	}
	for (size_t i = 0; ivs && json_object_is_type(ivs, json_type_array) &&
			   i < json_object_array_length(ivs); i++) {
		struct json_object *iv = json_object_array_get_idx(ivs, i);
		uint64_t d = (uint64_t)num(iv, "dirty") + (uint64_t)num(iv, "writeback");

		if (d > o->peak_dirty)
			o->peak_dirty = d;
	}
	return 0;
}

/* ---- rows and judgement ------------------------------------------------- */

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Each probe's medians over the runs that have it. */
static void fill_probes(const struct matrix_outcome *o, size_t n, struct matrix_row *r)
{
	for (unsigned int k = 0; k < MATRIX_MAX_PROBES; k++) {
		double v[5][MATRIX_MAX_REPEAT];
		size_t m = 0;
		const char *name = NULL;

		for (size_t i = 0; i < n && m < MATRIX_MAX_REPEAT; i++) {
			const struct matrix_probe *p = &o[i].probes[k];

			if (o[i].strategy != r->strategy || o[i].setting != r->setting ||
			    !o[i].have || k >= o[i].nprobes)
				continue;
			name = p->name;
			v[0][m] = p->p50_ms;
			v[1][m] = p->p99_ms;
			v[2][m] = p->max_ms;
			v[3][m] = p->p99_corrected_ms;
			v[4][m] = p->stalls;
			m++;
		}
		if (!m)
			break;
		snprintf(r->probes[k].name, sizeof(r->probes[k].name), "%s", name);
		r->probes[k].p50_ms = median(v[0], m);
		r->probes[k].p99_ms = median(v[1], m);
		r->probes[k].max_ms = median(v[2], m);
		r->probes[k].p99_corrected_ms = median(v[3], m);
		r->probes[k].stalls = median(v[4], m);
		r->nprobes = k + 1;
	}
}

/* The medians of one strategy's runs under one setting. */
static void fill_row(const struct matrix_outcome *o, size_t n, struct matrix_row *r)
{
	double p90[MATRIX_MAX_REPEAT], count[MATRIX_MAX_REPEAT];
	double mibps[MATRIX_MAX_REPEAT], p50[MATRIX_MAX_REPEAT], p99[MATRIX_MAX_REPEAT],
	       max[MATRIX_MAX_REPEAT], cp99[MATRIX_MAX_REPEAT], stalls[MATRIX_MAX_REPEAT],
	       dirty[MATRIX_MAX_REPEAT], cpu[MATRIX_MAX_REPEAT];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct matrix_outcome *x = &o[i];

		if (x->strategy != r->strategy || x->setting != r->setting)
			continue;
		if (x->unsupported)
			r->unsupported = true;
		if (!x->have) {
			r->failed |= !x->unsupported;
			continue;
		}
		if (k == MATRIX_MAX_REPEAT)
			continue;
		mibps[k] = x->mibps;
		p50[k] = x->p50_ms;
		p90[k] = x->p90_ms;
		count[k] = (double)x->count;
		p99[k] = x->p99_ms;
		max[k] = x->max_ms;
		cp99[k] = x->p99_corrected_ms;
		stalls[k] = (double)x->stalls;
		for (int c = 0; c < WS_CAUSE_NR; c++)
			r->causes[c] += x->causes[c];
		dirty[k] = (double)x->peak_dirty;
		cpu[k] = x->cpu_s_per_gib;
		k++;
	}
	r->runs = (unsigned int)k;
	if (!k)
		return;
	r->failed = false;	/* a run that worked is the figure */
	r->mibps = median(mibps, k);
	r->mibps_lo = mibps[0];
	r->mibps_hi = mibps[k - 1];
	r->p50_ms = median(p50, k);
	r->p90_ms = median(p90, k);
	r->count = median(count, k);
	r->p99_ms = median(p99, k);
	r->p99_lo = p99[0];
	r->p99_hi = p99[k - 1];
	r->max_ms = median(max, k);
	r->p99_corrected_ms = median(cp99, k);
	r->stalls = median(stalls, k);
	r->peak_dirty = (uint64_t)median(dirty, k);
	r->cpu_s_per_gib = median(cpu, k);
	fill_probes(o, n, r);
}

size_t matrix_rows(const struct matrix_outcome *o, size_t n,
		   const struct matrix_strategy *s, unsigned int nstrategies,
		   unsigned int nsettings, struct matrix_row *rows)
{
	size_t nrows = 0;

	(void)s;
	for (unsigned int set = 0; set < (nsettings ? nsettings : 1); set++) {
		for (unsigned int st = 0; st < nstrategies; st++) {
			struct matrix_row *r = &rows[nrows];
			bool ran = false;

			for (size_t i = 0; i < n; i++)
				ran |= o[i].strategy == st && o[i].setting == set;
			if (!ran)
				continue;	/* a matrix cut short */
			memset(r, 0, sizeof(*r));
			r->strategy = st;
			r->setting = set;
			fill_row(o, n, r);
			nrows++;
		}
	}
	return nrows;
}

static const char *const verdict_words[MX_VERDICT_NR] = {
	[MX_BASELINE] = "baseline", [MX_UNSUPPORTED] = "unsupported",
	[MX_FAILED] = "failed", [MX_RESPONSIVE] = "responsive",
	[MX_SLUGGISH] = "sluggish", [MX_FROZEN] = "frozen",
	[MX_NOT_JUDGED] = "not judged",
};

const char *matrix_verdict_word(enum matrix_verdict v)
{
	return v < MX_VERDICT_NR ? verdict_words[v] : "?";
}

static bool judged(const struct matrix_row *r, const struct matrix_strategy *s)
{
	return r->runs && !s[r->strategy].idle;
}

/* The verdict a row's figures support (matrix.h). */
static enum matrix_verdict evidence(const struct matrix_row *r, double target_ms)
{
	uint64_t n = (uint64_t)r->count;

	if (r->stalls > 0)
		return MX_FROZEN;
	if (hist_percentile_shown(0.99, n))
		return r->p99_ms > 10 * target_ms ? MX_FROZEN :
		       r->p99_ms > target_ms ? MX_SLUGGISH : MX_RESPONSIVE;
	if (hist_percentile_shown(0.9, n)) {
		if (r->max_ms <= target_ms)
			return MX_RESPONSIVE;
		if (r->p90_ms > 10 * target_ms)
			return MX_FROZEN;
		if (r->p90_ms > target_ms)
			return MX_SLUGGISH;
	}
	return MX_NOT_JUDGED;
}

int matrix_judge(struct matrix_row *rows, size_t n,
		 const struct matrix_strategy *s, double target_ms)
{
	double fastest = 0;
	int best = -1;

	for (size_t i = 0; i < n; i++)
		if (judged(&rows[i], s) && rows[i].mibps > fastest)
			fastest = rows[i].mibps;
	for (size_t i = 0; i < n; i++) {
		struct matrix_row *r = &rows[i];

		r->ratio = fastest > 0 && judged(r, s) ? r->mibps / fastest : 0;
		if (s[r->strategy].idle)
			r->verdict = r->runs ? MX_BASELINE : MX_FAILED;
		else if (r->unsupported && !r->runs)
			r->verdict = MX_UNSUPPORTED;
		else if (!r->runs)
			r->verdict = MX_FAILED;
		else
			r->verdict = evidence(r, target_ms);
		r->front = judged(r, s);
		for (size_t j = 0; j < n && r->front; j++) {
			const struct matrix_row *q = &rows[j];

			/* dominated: another is at least as good in both and
			 * better in one (only rows of the same setting meet);
			 * throughputs within MATRIX_SAME_RATE_PCT are equal,
			 * a disk's noise is no merit */
			double same = r->mibps * MATRIX_SAME_RATE_PCT / 100.0;

			if (j == i || !judged(q, s) || q->setting != r->setting)
				continue;
			if (q->mibps >= r->mibps - same && q->p99_ms <= r->p99_ms &&
			    (q->mibps > r->mibps + same || q->p99_ms < r->p99_ms))
				r->front = false;
		}
		if (judged(r, s) && r->verdict == MX_RESPONSIVE &&
		    (best < 0 || r->mibps > rows[best].mibps))
			best = (int)i;
	}
	return best;
}

/* ---- the table ---------------------------------------------------------- */

static void ms(char *buf, size_t len, double v)
{
	if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

void matrix_print(FILE *out, const struct matrix_row *rows, size_t n,
		  const struct matrix_strategy *s, const char *const *settings,
		  const char *setting_name, int recommended, double target_ms)
{
	char probe_hdr[64], a[16], b[16], c[16], d[16], dirty[32], t[16];

	snprintf(probe_hdr, sizeof(probe_hdr), "%s p50/p99/max ms (p99 corr.)",
		 n && rows[0].nprobes ? rows[0].probes[0].name : "probe");
	fprintf(out, "  %-22s %9s %6s  %-32s %6s %10s %7s  %s\n", "strategy",
		"MiB/s", "x best", probe_hdr, "stalls", "dirty+wb", "cpu s/G",
		"verdict");
	for (size_t i = 0; i < n; i++) {
		const struct matrix_row *r = &rows[i];
		char label[64], lat[80], why[64];

		if (settings && (!i || rows[i - 1].setting != r->setting))
			fprintf(out, "%s%s %s\n", i ? "\n" : "", setting_name,
				settings[r->setting]);
		snprintf(label, sizeof(label), "%s%s", r->front ? "*" : " ",
			 s[r->strategy].label);
		if (!r->runs) {
			fprintf(out, "  %-22s %9s %6s  %-32s %6s %10s %7s  %s\n", label,
				"-", "-", "-", "-", "-", "-", matrix_verdict_word(r->verdict));
			continue;
		}
		ms(a, sizeof(a), r->p50_ms);
		ms(b, sizeof(b), r->p99_ms);
		ms(c, sizeof(c), r->max_ms);
		ms(d, sizeof(d), r->p99_corrected_ms);
		snprintf(lat, sizeof(lat), "%s/%s/%s (%s)", a, b, c, d);
		why[0] = '\0';
		if (matrix_row_cause(r))
			snprintf(why, sizeof(why), " (stalls: %s)", matrix_row_cause(r));
		fprintf(out, "  %-22s %9.1f %6.2f  %-32s %6.0f %10s %7.3f  %s%s%s\n",
			label, r->mibps, r->ratio, lat, r->stalls,
			units_format_size(dirty, sizeof(dirty), r->peak_dirty),
			r->cpu_s_per_gib, matrix_verdict_word(r->verdict), why,
			(int)i == recommended ? " <- recommended" : "");
		/* the other probes, a line each, under the judged one */
		for (unsigned int k = 1; k < r->nprobes; k++) {
			const struct matrix_probe *p = &r->probes[k];
			char pname[40];

			ms(a, sizeof(a), p->p50_ms);
			ms(b, sizeof(b), p->p99_ms);
			ms(c, sizeof(c), p->max_ms);
			ms(d, sizeof(d), p->p99_corrected_ms);
			snprintf(lat, sizeof(lat), "%s/%s/%s (%s)", a, b, c, d);
			snprintf(pname, sizeof(pname), "   + %s", p->name);
			fprintf(out, "  %-22s %9s %6s  %-32s %6.0f\n", pname, "", "", lat,
				p->stalls);
		}
		if (r->runs > 1)
			fprintf(out, "  %-22s %4.1f-%-4.1f %6s  p99 %.1f-%.1f over %u runs\n", "",
				r->mibps_lo, r->mibps_hi, "", r->p99_lo, r->p99_hi, r->runs);
	}
	ms(t, sizeof(t), target_ms);
	fprintf(out, "\n  * the Pareto front: no other strategy both faster and lower in p99\n");
	for (size_t i = 0; i < n; i++)
		if (rows[i].verdict == MX_NOT_JUDGED)
			fprintf(out, "  not judged: %s%s%s: too few samples (%.0f %s probes of the %lu a p99 needs; %lu, all within the target, would do)\n",
				s[rows[i].strategy].label, settings ? " under " : "",
				settings ? settings[rows[i].setting] : "", rows[i].count,
				rows[i].nprobes ? rows[i].probes[0].name : "", hist_min_samples(0.99),
				hist_min_samples(0.9));
	if (recommended >= 0)
		fprintf(out, "  recommendation: %s, the fastest judged responsive to the target of %s ms (%.1f MiB/s, p99 %.1f ms)\n",
			s[rows[recommended].strategy].label, t, rows[recommended].mibps,
			rows[recommended].p99_ms);
	else
		fprintf(out, "  recommendation: none; no strategy was judged to keep p99 within the target of %s ms (try adaptive, a larger --target-latency, or a longer --each for more probes)\n",
			t);
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
