/* compare_rules.c - the rules compare judges by (see compare.h): the
 * threshold, a percentile's samples, the latency floor, the settings that
 * change the result, the values that are bytes.  No json-c here. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/c.h"
#include "cmd/compare/compare.h"
#include "lib/hist.h"
#include "lib/units.h"
#include "record/fields.h"

enum cmp_flag compare_metric(double a, double b, enum cmp_better better,
			     double threshold_pct)
{
	double limit;

	if (better == CMP_INFO || isnan(a) || isnan(b))
		return CMP_FLAG_NONE;
	if (a == 0)
		return better == CMP_LOWER && b > 0 ? CMP_FLAG_REGRESSION :
						      CMP_FLAG_NONE;
	/* The slack keeps 100 -> 90 at 10% unflagged despite rounding. */
	limit = fabs(a) * threshold_pct / 100 * (1 + 1e-9);
	if (fabs(b - a) <= limit)
		return CMP_FLAG_NONE;
	if ((b > a) == (better == CMP_HIGHER))
		return CMP_FLAG_IMPROVED;
	return CMP_FLAG_REGRESSION;
}

bool compare_change(double a, double b, double *pct)
{
	if (isnan(a) || isnan(b) || a == 0)
		return false;
	*pct = (b - a) / fabs(a) * 100;
	return true;
}

int compare_parse_threshold(const char *s, double *pct)
{
	size_t digits = strspn(s, "0123456789.");
	char *end;
	double v;

	/* strtod alone would take " 5", "-5", "0x10", "inf" and "1e3" */
	if (!digits || (s[digits] && strcmp(s + digits, "%")))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end != s + digits || !isfinite(v))
		return -EINVAL;
	*pct = v;
	return 0;
}

bool compare_percentile_shown(double q, double samples)
{
	return samples >= 0 && samples < 0x1p64 && hist_percentile_shown(q, (uint64_t)samples);
}

void compare_judge(struct cmp_row *row, const struct cmp_rules *rules,
		   bool comparable)
{
	double a = compare_value_num(&row->a), b = compare_value_num(&row->b);

	row->would = compare_metric(a, b, row->better, rules->threshold_pct);
	row->skip = CMP_JUDGED;
	if (!comparable)
		row->skip = CMP_SKIP_CONFIG;
	else if (row->quantile > 0 &&
		 !(compare_percentile_shown(row->quantile, row->samples_a) &&
		   compare_percentile_shown(row->quantile, row->samples_b)))
		row->skip = CMP_SKIP_SAMPLES;
	else if (row->latency && a < rules->floor_ms && b < rules->floor_ms)
		row->skip = CMP_SKIP_FLOOR;
	row->flag = row->skip == CMP_JUDGED ? row->would : CMP_FLAG_NONE;
}

/* Byte counts whose name does not end in "size" or "bytes". */
static const char *const byte_keys[] = {
	"reserve", "mem_total", "fs_avail", "size_at_open", "discard_granularity",
	"bucket",
};

static bool ends_with(const char *s, size_t n, const char *end)
{
	size_t e = strlen(end);

	return n >= e && !strncmp(s + n - e, end, e);
}

enum cmp_unit compare_unit_of(const char *path)
{
	const char *key = strrchr(path, '.');
	size_t n;

	key = key ? key + 1 : path;
	n = strcspn(key, "[");		/* "disks[0]" is a disk */
	if (ends_with(key, n, "_bytes_per_s"))
		return CMP_UNIT_RATE;
	if (ends_with(key, n, "_kb"))
		return CMP_UNIT_KIB;
	if (ends_with(key, n, "size") || ends_with(key, n, "bytes"))
		return CMP_UNIT_BYTES;
	for (size_t i = 0; i < ARRAY_SIZE(byte_keys); i++)
		if (n == strlen(byte_keys[i]) && !strncmp(key, byte_keys[i], n))
			return CMP_UNIT_BYTES;
	return CMP_UNIT_NONE;
}

bool compare_format_unit(char *buf, size_t len, double v, enum cmp_unit unit)
{
	char size[32];
	double bytes = unit == CMP_UNIT_KIB ? v * 1024 : v;

	/* 2^64 is not a uint64_t: the file holds something else */
	if (unit == CMP_UNIT_NONE || !(bytes >= 0 && bytes < 0x1p64) ||
	    bytes != floor(bytes))
		return false;
	units_format_size(size, sizeof(size), (uint64_t)bytes);
	if (unit == CMP_UNIT_RATE && !bytes)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%s%s", size, unit == CMP_UNIT_RATE ? "/s" : "");
	return true;
}

/* The settings that change the result: the settings table's rows marked
 * so (record/fields.h says why), and the device and filesystem under the
 * file; everything else is information. */
static const struct cmp_setting under_the_file[] = {
	{ "target.fs_type", "filesystem" },
	{ "fingerprint.filesystem.type", "filesystem" },
	{ "fingerprint.block.kind", "device" },
	{ "fingerprint.block.disks[].model", "device" },
};

#define MAX_RUN_SETTINGS 64
static struct cmp_setting run_settings[MAX_RUN_SETTINGS];
static char run_paths[MAX_RUN_SETTINGS][48];
static char run_labels[MAX_RUN_SETTINGS][32];
static size_t nrun_settings;
static pthread_once_t run_settings_once = PTHREAD_ONCE_INIT;

static void add_run_setting(const char *path, const char *label)
{
	if (nrun_settings == MAX_RUN_SETTINGS)
		return;		/* test_compare holds the count under it */
	snprintf(run_paths[nrun_settings], sizeof(run_paths[0]), "%s", path);
	snprintf(run_labels[nrun_settings], sizeof(run_labels[0]), "%s", label);
	run_settings[nrun_settings].path = run_paths[nrun_settings];
	run_settings[nrun_settings].label = run_labels[nrun_settings];
	nrun_settings++;
}

/* In the result's order, so a report's settings read as its files do. */
static void build_run_settings(void)
{
	const struct ws_field *f;
	char path[48], label[32];

	for (size_t i = 0; (f = ws_field_in_result(i)); i++) {
		if (!f->result.changes)
			continue;
		snprintf(path, sizeof(path), "config.%s", f->result.key);
		snprintf(label, sizeof(label), "--%s", ws_field_option(f));
		add_run_setting(path, label);
	}
	for (size_t i = 0; i < ARRAY_SIZE(under_the_file); i++)
		add_run_setting(under_the_file[i].path, under_the_file[i].label);
}

const struct cmp_setting *compare_run_settings(size_t *n)
{
	pthread_once(&run_settings_once, build_run_settings);
	*n = nrun_settings;
	return run_settings;
}

/* A matrix's own settings; its strategies and settings are its rows. */
static const struct cmp_setting matrix_settings[] = {
	{ "target_latency_ms", "--target-latency" },
	{ "each_bytes", "--each" },
	{ "each_s", "--each" },
};

/* Every "[N]" made "[]"; false when it does not fit. */
static bool generic_path(char *buf, size_t len, const char *path)
{
	size_t j = 0;

	for (const char *p = path; *p; p++) {
		if (j + 1 >= len)
			return false;
		buf[j++] = *p;
		if (*p == '[')
			p += strspn(p + 1, "0123456789");
	}
	buf[j] = '\0';
	return true;
}

static bool under(const char *path, const char *setting)
{
	size_t n = strlen(setting);

	return !strncmp(path, setting, n) &&
	       (!path[n] || path[n] == '.' || path[n] == '[');
}

const struct cmp_setting *compare_setting_of(const char *path, bool matrix)
{
	size_t n = ARRAY_SIZE(matrix_settings);
	const struct cmp_setting *v = matrix ? matrix_settings : compare_run_settings(&n);
	char generic[256];

	if (!generic_path(generic, sizeof(generic), path))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (under(generic, v[i].path))
			return &v[i];
	return NULL;
}

static const struct cmp_auto autos[] = {
	{ "config.file_size", "--file-size", 4 },	/* --fi */
	{ "config.reserve", "--reserve", 5 },		/* --res */
};

const struct cmp_auto *compare_auto_of(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(autos); i++)
		if (!strcmp(path, autos[i].path))
			return &autos[i];
	return NULL;
}

double compare_value_num(const struct cmp_value *v)
{
	return v->kind == CMP_NUMBER ? v->num : NAN;
}
