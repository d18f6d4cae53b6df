/* matrix_table.c - the matrix's rows as a person reads them. */
#include <stdio.h>

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
