/* matrix_table.c - the matrix's rows as a person reads them. */
#include <stdio.h>
#include <string.h>

#include "lib/c.h"
#include "lib/hist.h"
#include "lib/units.h"
#include "cmd/matrix/matrix.h"

static void ms(char *buf, size_t len, double v)
{
	if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* p50/p99/max (p99 corr.), each only where its samples support it: the
 * fewest a run of the row had (its figures are medians of runs). */
static void latency(char *buf, size_t len, const struct matrix_probe *p)
{
	char a[16] = "-", b[16] = "-", c[16] = "-", d[16] = "-";
	uint64_t n = (uint64_t)p->min_count;

	if (hist_percentile_shown(0.5, n))
		ms(a, sizeof(a), p->p50_ms);
	if (hist_percentile_shown(0.99, n)) {
		ms(b, sizeof(b), p->p99_ms);
		ms(d, sizeof(d), p->p99_corrected_ms);
	}
	if (n)
		ms(c, sizeof(c), p->max_ms);
	snprintf(buf, len, "%s/%s/%s (%s)", a, b, c, d);
}

static void row_line(FILE *out, const struct matrix_row *r, const struct matrix_strategy *s,
		     bool recommended)
{
	struct matrix_probe first = {
		.p50_ms = r->p50_ms, .p99_ms = r->p99_ms, .max_ms = r->max_ms,
		.p99_corrected_ms = r->p99_corrected_ms, .min_count = r->min_count,
	};
	char label[64], lat[80], why[64] = "", rate[16] = "-", ratio[16] = "-",
	     cpu[16] = "-", dirty[32];

	snprintf(label, sizeof(label), "%s%s", r->front ? "*" : " ", s[r->strategy].label);
	latency(lat, sizeof(lat), &first);
	/* idle wrote a page a second: no rate, nor a cost per GiB */
	if (!s[r->strategy].idle) {
		snprintf(rate, sizeof(rate), "%.1f", r->mibps);
		snprintf(cpu, sizeof(cpu), "%.3f", r->cpu_s_per_gib);
		if (r->ratio > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", r->ratio);
	}
	if (r->page_cache)
		snprintf(why, sizeof(why), " (page cache's rate)");
	else if (matrix_row_cause(r))
		snprintf(why, sizeof(why), " (stalls: %s)", matrix_row_cause(r));
	fprintf(out, "  %-22s %9s %6s  %-32s %6.0f %10s %7s  %s%s%s\n", label, rate, ratio,
		lat, r->stalls, units_format_size(dirty, sizeof(dirty), r->peak_dirty), cpu,
		matrix_verdict_word(r->verdict), why, recommended ? " <- recommended" : "");
	for (unsigned int k = 1; k < r->nprobes; k++) {
		char pname[40];

		latency(lat, sizeof(lat), &r->probes[k]);
		snprintf(pname, sizeof(pname), "   + %s", r->probes[k].name);
		fprintf(out, "  %-22s %9s %6s  %-32s %6.0f\n", pname, "", "", lat,
			r->probes[k].stalls);
	}
	if (r->runs > 1 && matrix_row_p99_shown(r))
		fprintf(out, "  %-22s %4.1f-%-4.1f %6s  p99 %.1f-%.1f over %u runs\n", "",
			r->mibps_lo, r->mibps_hi, "", r->p99_lo, r->p99_hi, r->runs);
	else if (r->runs > 1)
		fprintf(out, "  %-22s %4.1f-%-4.1f %6s  over %u runs\n", "", r->mibps_lo,
			r->mibps_hi, "", r->runs);
}

/* The fewest of N probes over the target that judge a p99 over it, or 0:
 * none do. */
static uint64_t over_needs(uint64_t n)
{
	for (uint64_t k = 1; k <= n; k++)
		if (hist_judge(0.99, n, k) == HIST_OVER)
			return k;
	return 0;
}

static void footnotes(FILE *out, const struct matrix_row *rows, size_t n,
		      const struct matrix_strategy *s, const char *const *settings)
{
	for (size_t i = 0; i < n; i++) {
		const struct matrix_row *r = &rows[i];
		char under[48] = "";
		uint64_t cnt = (uint64_t)r->count, k = over_needs(cnt);

		if (settings)
			snprintf(under, sizeof(under), " under %s", settings[r->setting]);
		if (r->page_cache)
			fprintf(out, "  page cache: %s%s: %.1f MiB/s is not the disk's: the device wrote %.1f MiB/s in its run; kept off the front\n",
				s[r->strategy].label, under, r->mibps, r->dev_mibps);
		if (r->verdict != MX_NOT_JUDGED)
			continue;
		fprintf(out, "  not judged: %s%s: %llu %s probes, %llu over the target: within it needs %lu probes",
			s[r->strategy].label, under, (unsigned long long)cnt,
			r->nprobes ? r->probes[0].name : "", (unsigned long long)r->over,
			hist_min_samples(0.99));
		if (k)
			fprintf(out, ", over it %llu of these %llu\n", (unsigned long long)k,
				(unsigned long long)cnt);
		else
			fprintf(out, ", over it more probes\n");
	}
}

static void recommendation(FILE *out, const struct matrix_row *rows, size_t n,
			   const struct matrix_strategy *s, int recommended, double target_ms)
{
	unsigned int over = 0, few = 0, cache = 0;
	bool adaptive = false;
	char t[16], why[160] = "";

	ms(t, sizeof(t), target_ms);
	if (recommended >= 0) {
		const struct matrix_row *r = &rows[recommended];

		fprintf(out, "  recommendation: %s, the fastest judged within the target of %s ms (%.1f MiB/s, %s %.1f ms)\n",
			s[r->strategy].label, t, r->mibps,
			matrix_row_p99_shown(r) ? "p99" : "max", matrix_row_tail_ms(r));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct matrix_row *r = &rows[i];

		adaptive |= s[r->strategy].pace == WS_PACE_ADAPTIVE && !s[r->strategy].idle;
		if (!r->runs || s[r->strategy].idle)
			continue;
		if (r->page_cache)
			cache++;
		else if (r->verdict == MX_NOT_JUDGED)
			few++;
		else if (r->verdict == MX_SLUGGISH || r->verdict == MX_FROZEN)
			over++;
	}
	if (over && !few && !cache)
		snprintf(why, sizeof(why), "every strategy was over the target of %s ms", t);
	else if (few && !over && !cache)
		snprintf(why, sizeof(why), "too few probes for a verdict on any strategy (see above)");
	else if (over + few + cache)
		snprintf(why, sizeof(why), "no strategy was judged within the target of %s ms (%u over it, %u with too few probes, %u at the page cache's rate)",
			 t, over, few, cache);
	else
		snprintf(why, sizeof(why), "no strategy that wrote ran to the end");
	fprintf(out, "  no recommendation: %s; %s%s%s\n", why,
		few || cache ? "a longer --each or a shorter --probe-interval gives more probes; " : "",
		adaptive ? "" : "try adaptive, or ", "a larger --target-latency");
}

void matrix_print(FILE *out, const struct matrix_row *rows, size_t n,
		  const struct matrix_strategy *s, const char *const *settings,
		  const char *setting_name, int recommended, double target_ms)
{
	char probe_hdr[64];

	snprintf(probe_hdr, sizeof(probe_hdr), "%s p50/p99/max ms (p99 corr.)",
		 n && rows[0].nprobes ? rows[0].probes[0].name : "probe");
	fprintf(out, "  %-22s %9s %6s  %-32s %6s %10s %7s  %s\n", "strategy",
		"MiB/s", "x best", probe_hdr, "stalls", "dirty+wb", "cpu s/G",
		"verdict");
	for (size_t i = 0; i < n; i++) {
		const struct matrix_row *r = &rows[i];

		if (settings && (!i || rows[i - 1].setting != r->setting))
			fprintf(out, "%s%s %s\n", i ? "\n" : "", setting_name,
				settings[r->setting]);
		if (!r->runs) {
			fprintf(out, "  %c%-21s %9s %6s  %-32s %6s %10s %7s  %s\n", ' ',
				s[r->strategy].label, "-", "-", "-", "-", "-", "-",
				matrix_verdict_word(r->verdict));
			continue;
		}
		row_line(out, r, s, (int)i == recommended);
	}
	fprintf(out, "\n  * the Pareto front: no other strategy both faster and lower in p99 (max where too few probes for p99)\n");
	footnotes(out, rows, n, s, settings);
	recommendation(out, rows, n, s, recommended, target_ms);
}
