/* report_out.c - a report as a table, CSV and JSON (doc/report-json.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/c.h"
#include "lib/jsonw.h"
#include "cmd/report/report.h"
#include "cmd/common/result_read.h"
#include "record/record.h"

#define NFIX 10				/* columns before the probes' */
#define NCOL_MAX (NFIX + 2 * REPORT_MAX_PROBES + 1)
#define CELL 160

static const char *const fix_titles[NFIX] = {
	"file", "host", "model", "firmware", "kernel", "fs", "pace",
	"MiB/s", "slowdown GiB", "steady MiB/s",
};

static int ncols(const struct report *r)
{
	return NFIX + 2 * (int)r->nprobes + 1;
}

/* "-" when missing, '!' when flagged. */
static void num_cell(char *buf, double v, int dec, bool flagged)
{
	if (isnan(v))
		snprintf(buf, CELL, "-");
	else
		snprintf(buf, CELL, "%.*f%s", dec, v, flagged ? "!" : "");
}

/* "MiB/s low, fsync p99 high" */
static void flags_cell(char *buf, const struct report *r, const struct report_row *row)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int m = 0; m < REPORT_M_P99 + (int)r->nprobes; m++) {
		const char *what = m == REPORT_M_MIBPS ? "MiB/s" :
				   m == REPORT_M_STEADY ? "steady" : r->probe_names[m - REPORT_M_P99];

		if (!((row->high | row->low) >> m & 1))
			continue;
		n += (size_t)snprintf(buf + n, CELL - n, "%s%s%s %s", n ? ", " : "", what,
				      m >= REPORT_M_P99 ? " p99" : "",
				      row->high >> m & 1 ? "high" : "low");
		if (n >= CELL)
			return;
	}
}

static void row_cells(char cells[NCOL_MAX][CELL], const struct report *r,
		      const struct report_row *row)
{
	unsigned int fl = row->high | row->low;
	int c = NFIX;

	snprintf(cells[0], CELL, "%s", row->file);
	result_sanitize(cells[0]);
	snprintf(cells[1], CELL, "%s", row->host);
	snprintf(cells[2], CELL, "%s", row->model);
	snprintf(cells[3], CELL, "%s", row->firmware);
	snprintf(cells[4], CELL, "%s", row->kernel);
	snprintf(cells[5], CELL, "%s", row->fs);
	snprintf(cells[6], CELL, "%s", row->pace);
	num_cell(cells[7], row->mibps, 1, fl & 1u << REPORT_M_MIBPS);
	if (row->slowdown_none)
		snprintf(cells[8], CELL, "none");
	else
		num_cell(cells[8], row->slowdown_gib, 3, false);
	if (row->steady_known && row->steady != WS_STEADY_REACHED)
		snprintf(cells[9], CELL, "%s", ws_steady_outcome_words(row->steady));
	else
		num_cell(cells[9], row->steady_mibps, 1, fl & 1u << REPORT_M_STEADY);
	for (unsigned int p = 0; p < r->nprobes; p++) {
		if (row->p99_hidden >> p & 1)
			ws_percentile_needs_words(0.99, cells[c++], CELL);
		else
			num_cell(cells[c++], row->p99_ms[p], 3, fl & 1u << (REPORT_M_P99 + p));
		num_cell(cells[c++], row->stalls[p], 0, false);
	}
	flags_cell(cells[c], r, row);
}

static bool none_slowed(const struct report *r, const struct report_group *g)
{
	for (size_t i = g->first; i < g->first + g->n; i++)
		if (!r->rows[i].slowdown_none)
			return false;
	return true;
}

/* The outcome every row of G came to short of steady; -1: not one. */
static int steady_of_all(const struct report *r, const struct report_group *g)
{
	const struct report_row *first = &r->rows[g->first];

	for (size_t i = g->first; i < g->first + g->n; i++)
		if (!r->rows[i].steady_known || r->rows[i].steady == WS_STEADY_REACHED ||
		    r->rows[i].steady != first->steady)
			return -1;
	return first->steady;
}

static bool hidden_in_all(const struct report *r, const struct report_group *g,
			  unsigned int p)
{
	for (size_t i = g->first; i < g->first + g->n; i++)
		if (!(r->rows[i].p99_hidden >> p & 1))
			return false;
	return true;
}

static void median_cells(char cells[NCOL_MAX][CELL], const struct report *r,
			 const struct report_group *g)
{
	int c = NFIX;

	for (int i = 0; i < ncols(r); i++)
		cells[i][0] = '\0';
	snprintf(cells[0], CELL, "median of %zu", g->n);
	num_cell(cells[7], g->spread[REPORT_M_MIBPS].median, 1, false);
	num_cell(cells[8], g->median_slowdown_gib, 3, false);
	if (none_slowed(r, g))
		snprintf(cells[8], CELL, "none");
	num_cell(cells[9], g->spread[REPORT_M_STEADY].median, 1, false);
	if (steady_of_all(r, g) >= 0)
		snprintf(cells[9], CELL, "%s",
			 ws_steady_outcome_words((enum ws_steady_outcome)steady_of_all(r, g)));
	for (unsigned int p = 0; p < r->nprobes; p++) {
		if (hidden_in_all(r, g, p))
			ws_percentile_needs_words(0.99, cells[c++], CELL);
		else
			num_cell(cells[c++], g->spread[REPORT_M_P99 + p].median, 3, false);
		num_cell(cells[c++], g->median_stalls[p], 0, false);
	}
}

static void title_cells(char cells[NCOL_MAX][CELL], const struct report *r)
{
	int c = NFIX;

	for (int i = 0; i < NFIX; i++)
		snprintf(cells[i], CELL, "%s", fix_titles[i]);
	for (unsigned int p = 0; p < r->nprobes; p++) {
		snprintf(cells[c++], CELL, "%s p99 ms", r->probe_names[p]);
		snprintf(cells[c++], CELL, "%s stalls", r->probe_names[p]);
	}
	snprintf(cells[c], CELL, "flags");
}

static void widen(int *width, char cells[NCOL_MAX][CELL], int n)
{
	for (int i = 0; i < n; i++)
		if ((int)strlen(cells[i]) > width[i])
			width[i] = (int)strlen(cells[i]);
}

/* The flags last, without trailing blanks. */
static void print_line(FILE *out, char cells[NCOL_MAX][CELL], const int *width,
		       int n)
{
	for (int i = 0; i < n - 1; i++)
		fprintf(out, i < 7 ? "%s%-*s |" : "%s%*s |", i ? " " : "", width[i], cells[i]);
	fprintf(out, "%s%s\n", cells[n - 1][0] ? " " : "", cells[n - 1]);
}

static void print_rule(FILE *out, const struct report *r)
{
	fprintf(out,
		"outlier rule: |x - median| > %g x %.4f x MAD within a group (when the MAD is 0:\n"
		"  %g x %.4f x the mean absolute deviation); judged: MiB/s, steady MiB/s and each\n"
		"  probe's p99, marked '!'; groups of fewer than %d results are not judged; a p99\n"
		"  of fewer than %lu probes is neither shown nor judged\n",
		r->k, REPORT_MAD_SCALE, r->k, REPORT_MEANAD_SCALE, REPORT_MIN_GROUP,
		hist_min_samples(0.99));
}

/* Each reason a run gave for a steady state it did not judge, once, with
 * how many results gave it. */
static void print_unjudged(FILE *out, const struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const char *why = r->rows[i].steady_why;
		size_t n = 0, k;

		for (k = 0; k < i && (!why[0] || strcmp(r->rows[k].steady_why, why)); k++)
			;
		if (!why[0] || k < i)
			continue;	/* none, or said already */
		for (k = i; k < r->nrows; k++)
			n += !strcmp(r->rows[k].steady_why, why);
		fprintf(out, "steady %s in %zu result%s: %s\n",
			ws_steady_outcome_words(WS_STEADY_NOT_JUDGED), n, n == 1 ? "" : "s", why);
	}
}

void report_print(FILE *out, const struct report *r)
{
	char cells[NCOL_MAX][CELL];
	int width[NCOL_MAX] = { 0 }, n = ncols(r);

	title_cells(cells, r);
	widen(width, cells, n);
	for (size_t i = 0; i < r->nrows; i++) {
		row_cells(cells, r, &r->rows[i]);
		widen(width, cells, n);
	}
	for (size_t g = 0; g < r->ngroups; g++) {
		median_cells(cells, r, &r->groups[g]);
		widen(width, cells, n);
	}
	title_cells(cells, r);
	print_line(out, cells, width, n);
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct report_group *gr = &r->groups[g];

		char set[256];

		report_group_settings(r, gr, set, sizeof(set));
		fprintf(out, "\n== %s %s%s%s: %zu result%s%s ==\n", report_by_name(r->by),
			gr->key, set[0] ? " · " : "", set, gr->n, gr->n == 1 ? "" : "s",
			gr->judged ? "" : ", not judged (fewer than 3)");
		for (size_t i = gr->first; i < gr->first + gr->n; i++) {
			row_cells(cells, r, &r->rows[i]);
			print_line(out, cells, width, n);
		}
		median_cells(cells, r, gr);
		print_line(out, cells, width, n);
	}
	fputc('\n', out);
	print_rule(out, r);
	fprintf(out, "%zu result%s in %zu group%s by %s; %zu with outliers; %u group%s not judged",
		r->nrows, r->nrows == 1 ? "" : "s", r->ngroups, r->ngroups == 1 ? "" : "s",
		report_by_name(r->by), r->outlier_rows, r->groups_unjudged,
		r->groups_unjudged == 1 ? "" : "s");
	if (r->settings_vary)
		fputs("; runs whose settings change the result are grouped apart", out);
	if (r->skipped)
		fprintf(out, "; %zu file%s skipped", r->skipped, r->skipped == 1 ? "" : "s");
	fputc('\n', out);
	if (r->probes_dropped)
		fprintf(out, "probes beyond the first %d names left out (%u)\n",
			REPORT_MAX_PROBES, r->probes_dropped);
	print_unjudged(out, r);
}

static void csv_text(FILE *out, const char *s, bool comma)
{
	ws_csv_field(out, s);
	if (comma)
		fputc(',', out);
}

static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	fputc(',', out);
}

void report_csv(FILE *out, const struct report *r)
{
	int nm = REPORT_M_P99 + (int)r->nprobes;
	char name[48];

	fprintf(out, "group,file,host,model,firmware,kernel,fs,pace,schema_version,"
		"mibps,slowdown_gib,steady_mibps");
	for (unsigned int p = 0; p < r->nprobes; p++)
		fprintf(out, ",%s_p99_ms,%s_stalls", r->probe_names[p], r->probe_names[p]);
	for (int m = 0; m < nm; m++)
		fprintf(out, ",%s_outlier", report_metric_name(r, m, name, sizeof(name)));
	fprintf(out, ",outliers\r\n");	/* CRLF, as the run's CSV (RFC 4180) */
	for (size_t i = 0; i < r->nrows; i++) {
		const struct report_row *row = &r->rows[i];
		const char *sep = "";

		csv_text(out, r->groups[row->group].key, true);
		csv_text(out, row->file, true);
		csv_text(out, row->host, true);
		csv_text(out, row->model, true);
		csv_text(out, row->firmware, true);
		csv_text(out, row->kernel, true);
		csv_text(out, row->fs, true);
		csv_text(out, row->pace, true);
		fprintf(out, "%u,", row->schema_version);
		csv_num(out, row->mibps);
		csv_num(out, row->slowdown_gib);
		csv_num(out, row->steady_mibps);
		for (unsigned int p = 0; p < r->nprobes; p++) {
			csv_num(out, row->p99_ms[p]);
			csv_num(out, row->stalls[p]);
		}
		for (int m = 0; m < nm; m++)
			fprintf(out, "%s,", row->high >> m & 1 ? "high" :
					    row->low >> m & 1 ? "low" : "");
		for (int m = 0; m < nm; m++) {
			if (!((row->high | row->low) >> m & 1))
				continue;
			fprintf(out, "%s%s", sep, report_metric_name(r, m, name, sizeof(name)));
			sep = " ";
		}
		fputs("\r\n", out);
	}
}

/* COUNT NULL: a group's medians, without one. */
static void json_probes(struct jsonw *w, const struct report *r,
			const double *p99, const double *count, const double *stalls)
{
	jsonw_object(w, "probes");
	for (unsigned int p = 0; p < r->nprobes; p++) {
		if (isnan(p99[p]) && isnan(stalls[p]) && (!count || isnan(count[p])))
			continue;
		jsonw_object(w, r->probe_names[p]);
		if (count)
			jsonw_double(w, "count", count[p]);
		jsonw_double(w, "p99_ms", p99[p]);
		jsonw_double(w, "stalls", stalls[p]);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void json_row(struct jsonw *w, const struct report *r,
		     const struct report_row *row)
{
	int nm = REPORT_M_P99 + (int)r->nprobes;
	char name[48];

	jsonw_object(w, NULL);
	jsonw_str(w, "file", row->file);
	jsonw_str(w, "host", row->host);
	jsonw_str(w, "model", row->model);
	jsonw_str(w, "firmware", row->firmware);
	jsonw_str(w, "kernel", row->kernel);
	jsonw_str(w, "fs", row->fs);
	jsonw_str(w, "pace", row->pace);
	jsonw_u64(w, "schema_version", row->schema_version);
	jsonw_double(w, "mibps", row->mibps);
	jsonw_double(w, "slowdown_gib", row->slowdown_gib);
	jsonw_bool(w, "slowdown_none", row->slowdown_none);
	jsonw_double(w, "steady_mibps", row->steady_mibps);
	jsonw_bool(w, "steady_not_reached", row->steady_known &&
		   (row->steady == WS_STEADY_NOT_REACHED || row->steady == WS_STEADY_CHANGED));
	jsonw_bool(w, "steady_not_judged", row->steady_known && row->steady == WS_STEADY_NOT_JUDGED);
	json_probes(w, r, row->p99_ms, row->p99_count, row->stalls);
	jsonw_object(w, "outliers");
	for (int m = 0; m < nm; m++)
		if ((row->high | row->low) >> m & 1)
			jsonw_str(w, report_metric_name(r, m, name, sizeof(name)),
				  row->high >> m & 1 ? "high" : "low");
	jsonw_end(w);
	jsonw_end(w);
}

static void json_group(struct jsonw *w, const struct report *r,
		       const struct report_group *g)
{
	int nm = REPORT_M_P99 + (int)r->nprobes;
	double p99[REPORT_MAX_PROBES];
	char name[48], name_set[256];

	jsonw_object(w, NULL);
	jsonw_str(w, "key", g->key);
	jsonw_str(w, "settings", report_group_settings(r, g, name_set, sizeof(name_set)));
	jsonw_u64(w, "count", g->n);
	jsonw_bool(w, "judged", g->judged);
	jsonw_u64(w, "outlier_results", g->outlier_rows);
	jsonw_object(w, "median");
	jsonw_double(w, "mibps", g->spread[REPORT_M_MIBPS].median);
	jsonw_double(w, "slowdown_gib", g->median_slowdown_gib);
	jsonw_double(w, "steady_mibps", g->spread[REPORT_M_STEADY].median);
	for (unsigned int p = 0; p < r->nprobes; p++)
		p99[p] = g->spread[REPORT_M_P99 + p].median;
	json_probes(w, r, p99, NULL, g->median_stalls);
	jsonw_end(w);
	jsonw_object(w, "spread");
	for (int m = 0; m < nm; m++) {
		jsonw_object(w, report_metric_name(r, m, name, sizeof(name)));
		jsonw_u64(w, "n", g->spread[m].n);
		jsonw_double(w, "median", g->spread[m].median);
		jsonw_double(w, "mad", g->spread[m].mad);
		jsonw_double(w, "scale", g->spread[m].scale);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_array(w, "results");
	for (size_t i = g->first; i < g->first + g->n; i++)
		json_row(w, r, &r->rows[i]);
	jsonw_end(w);
	jsonw_end(w);
}

void report_json(FILE *out, const struct report *r)
{
	int nm = REPORT_M_P99 + (int)r->nprobes;
	struct jsonw w;
	char name[48];

	jsonw_init(&w, out);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "schema", REPORT_SCHEMA);
	jsonw_tool(&w);
	jsonw_str(&w, "by", report_by_name(r->by));
	jsonw_object(&w, "rule");
	jsonw_double(&w, "k", r->k);
	jsonw_double(&w, "mad_scale", REPORT_MAD_SCALE);
	jsonw_double(&w, "meanad_scale", REPORT_MEANAD_SCALE);
	jsonw_u64(&w, "min_group", REPORT_MIN_GROUP);
	jsonw_array(&w, "metrics");
	for (int m = 0; m < nm; m++)
		jsonw_str(&w, NULL, report_metric_name(r, m, name, sizeof(name)));
	jsonw_end(&w);
	jsonw_end(&w);
	jsonw_array(&w, "probes");
	for (unsigned int p = 0; p < r->nprobes; p++)
		jsonw_str(&w, NULL, r->probe_names[p]);
	jsonw_end(&w);
	jsonw_u64(&w, "count", r->nrows);
	jsonw_u64(&w, "skipped", r->skipped);
	jsonw_u64(&w, "outlier_results", r->outlier_rows);
	jsonw_u64(&w, "groups_not_judged", r->groups_unjudged);
	jsonw_array(&w, "groups");
	for (size_t g = 0; g < r->ngroups; g++)
		json_group(&w, r, &r->groups[g]);
	jsonw_end(&w);
	jsonw_end(&w);
	fputc('\n', out);
}
