/* settings.c - each setting's words, written once and read back here:
 * the engine's, probes' and analysis's tables name theirs by enum, so
 * --help, the result and the parsers cannot disagree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "record/record.h"
#include "record/settings.h"

const char *const ws_pace_words[WS_PACE_NR + 1] = {
	[WS_PACE_WINDOW] = "window", [WS_PACE_NONE] = "none",
	[WS_PACE_FDATASYNC] = "fdatasync", [WS_PACE_DIRECT] = "direct",
	[WS_PACE_DONTCACHE] = "dontcache", [WS_PACE_ADAPTIVE] = "adaptive",
};

const char *ws_pace_name(enum ws_pace mode)
{
	return (unsigned int)mode < WS_PACE_NR ? ws_pace_words[mode] : "?";
}

bool ws_pace_parse(const char *name, enum ws_pace *mode)
{
	for (int m = 0; m < WS_PACE_NR; m++)
		if (!strcmp(name, ws_pace_words[m])) {
			*mode = (enum ws_pace)m;
			return true;
		}
	return false;
}

const char *const ws_data_words[WS_DATA_NR + 1] = {
	[WS_DATA_RANDOM] = "random", [WS_DATA_FIXED] = "fixed",
	[WS_DATA_ZERO] = "zero", [WS_DATA_COMPRESSIBLE] = "compressible",
};

const char *ws_data_name(enum ws_data data)
{
	return (unsigned int)data < WS_DATA_NR ? ws_data_words[data] : "?";
}

int ws_data_parse(const char *s, enum ws_data *data, unsigned int *pct)
{
	static const char prefix[] = "compressible=";
	const char *p;
	unsigned long v = 0;

	for (int m = 0; m < WS_DATA_NR; m++) {
		if (m != WS_DATA_COMPRESSIBLE && !strcmp(s, ws_data_words[m])) {
			*data = (enum ws_data)m;
			*pct = 0;
			return 0;
		}
	}
	if (strncmp(s, prefix, sizeof(prefix) - 1))
		return -EINVAL;
	p = s + sizeof(prefix) - 1;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 100)
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	*data = WS_DATA_COMPRESSIBLE;
	*pct = (unsigned int)v;
	return 0;
}

/* the probes' ops name their kind by enum (probe.h) */
const char *const ws_probe_words[WS_PROBE_NR + 1] = {
	[WS_PROBE_FSYNC] = "fsync", [WS_PROBE_SAVE] = "save",
	[WS_PROBE_READ] = "read", [WS_PROBE_SQLITE] = "sqlite",
	[WS_PROBE_DSYNC] = "dsync", [WS_PROBE_CMD] = "cmd",
};

const char *ws_probe_kind_name(enum ws_probe_kind kind)
{
	return (unsigned int)kind < WS_PROBE_NR ? ws_probe_words[kind] : "?";
}

int ws_probe_parse_list(const char *s, unsigned int *set, char *bad, size_t len)
{
	unsigned int bits = 0;

	if (!*s) {
		snprintf(bad, len, "%s", "");
		return -EINVAL;
	}
	while (*s) {
		size_t n = strcspn(s, ",");
		int k;

		for (k = 0; k < WS_PROBE_NR; k++)
			if (strlen(ws_probe_words[k]) == n &&
			    !strncmp(s, ws_probe_words[k], n))
				break;
		if (k == WS_PROBE_NR) {
			snprintf(bad, len, "%.*s", (int)n, s);
			return -EINVAL;
		}
		bits |= 1u << k;
		s += n;
		if (*s == ',' && !*++s) {
			snprintf(bad, len, "%s", "");
			return -EINVAL;	/* trailing comma */
		}
	}
	*set = bits;
	return 0;
}

/* A command is never named as a probe is: its figures would be taken
 * for the probe's. */
int ws_probe_cmd_parse(const char *arg, struct ws_probe_cmd *out, char *why,
		       size_t len)
{
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_");

	memset(out, 0, sizeof(*out));
	if (n && arg[n] == '=' && arg[0] >= 'a' && arg[0] <= 'z') {
		if (n >= sizeof(out->name)) {
			snprintf(why, len, "the name '%.*s' is longer than %zu characters",
				 (int)n, arg, sizeof(out->name) - 1);
			return -EINVAL;
		}
		memcpy(out->name, arg, n);
		arg += n + 1;
	}
	if (!*arg || strspn(arg, " \t") == strlen(arg)) {
		snprintf(why, len, "expected [NAME=]COMMAND, e.g. mail='notmuch new'");
		return -EINVAL;
	}
	for (int k = 0; k < WS_PROBE_NR; k++)
		if (!strcmp(out->name, ws_probe_words[k])) {
			snprintf(why, len, "the name '%s' is a probe's own; choose another", out->name);
			return -EINVAL;
		}
	out->line = arg;
	return 0;
}

const char *const ws_steady_words[WS_STEADY_NR + 1] = {
	[WS_STEADY_SNIA] = "snia", [WS_STEADY_BW_SLOPE] = "bw-slope",
	[WS_STEADY_BW_DEV] = "bw-dev",
};

/* A limit ("bw-slope:0.5%") or SNIA's own bounds (20% range, 10% slope);
 * analysis/steady.c judges by them. */
static const struct {
	bool takes_pct;
	double limit_pct, slope_pct;
} criteria[WS_STEADY_NR] = {
	[WS_STEADY_SNIA] = { false, 20, 10 },
	[WS_STEADY_BW_SLOPE] = { true, 0, 0 },
	[WS_STEADY_BW_DEV] = { true, 0, 0 },
};

const char *ws_steady_criterion_name(enum ws_steady_criterion c)
{
	return (unsigned int)c < WS_STEADY_NR ? ws_steady_words[c] : "?";
}

/* in (0, 1000], optionally ending in % */
static int parse_pct(const char *s, double *out)
{
	double v = 0, scale = 0;
	bool digits = false;

	for (; *s >= '0' && *s <= '9'; s++, digits = true)
		v = v * 10 + (*s - '0');
	if (*s == '.')
		for (s++, scale = 0.1; *s >= '0' && *s <= '9'; s++, scale /= 10,
		     digits = true)
			v += (*s - '0') * scale;
	if (*s == '%')
		s++;
	if (!digits || *s || !(v > 0) || v > 1000)
		return -EINVAL;
	*out = v;
	return 0;
}

char *ws_steady_criterion_words(const struct ws_analysis_params *p, char *buf,
				size_t len)
{
	switch (p->criterion) {
	case WS_STEADY_SNIA:
		snprintf(buf, len, "SNIA: range ≤ %g%%, slope excursion ≤ %g%%",
			 p->limit_pct, p->slope_pct);
		break;
	case WS_STEADY_BW_SLOPE:
		snprintf(buf, len, "fio bw-slope: |slope| < %g%% a round", p->limit_pct);
		break;
	case WS_STEADY_BW_DEV:
		snprintf(buf, len, "fio bw-dev: every round within %g%%", p->limit_pct);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

char *ws_steady_figures_words(const struct ws_analysis_params *p,
			      const struct ws_stretch *s, char *buf, size_t len)
{
	switch (p->criterion) {
	case WS_STEADY_SNIA:
		snprintf(buf, len, "range %.0f%%, slope excursion %.0f%%",
			 s->range_pct, s->excursion_pct);
		break;
	case WS_STEADY_BW_SLOPE:
		snprintf(buf, len, "|slope| %.2g%% a round", s->slope_pct);
		break;
	case WS_STEADY_BW_DEV:
		snprintf(buf, len, "deviation %.0f%%", s->dev_pct);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

enum ws_steady_outcome ws_steady_outcome_of(bool judged, bool reached, bool earlier)
{
	if (!judged)
		return WS_STEADY_NOT_JUDGED;
	if (reached)
		return WS_STEADY_REACHED;
	return earlier ? WS_STEADY_CHANGED : WS_STEADY_NOT_REACHED;
}

const char *ws_steady_outcome_words(enum ws_steady_outcome o)
{
	static const char *const words[] = {
		[WS_STEADY_NOT_JUDGED] = "not judged",
		[WS_STEADY_NOT_REACHED] = "not reached",
		[WS_STEADY_CHANGED] = "not steady at the end",
		[WS_STEADY_REACHED] = "steady",
	};

	return (unsigned int)o < ARRAY_SIZE(words) ? words[o] : "?";
}

char *ws_steady_unjudged_words(unsigned int window, uint64_t round_ns,
			       uint64_t precondition_bytes, const char *criterion,
			       char *buf, size_t len)
{
	char round[32], pre[32];
	const char *sep = criterion ? "; " : "";

	if (!criterion)
		criterion = "";
	units_format_duration(round, sizeof(round), round_ns);
	if (precondition_bytes)
		snprintf(buf, len, "no window of %u rounds of %s after preconditioning (%s of it%s%s)",
			 window, round, units_format_size(pre, sizeof(pre), precondition_bytes),
			 sep, criterion);
	else
		snprintf(buf, len, "no window of %u rounds of %s in the run%s%s%s", window, round,
			 *criterion ? " (" : "", criterion, *criterion ? ")" : "");
	return buf;
}

int ws_steady_criterion_parse(const char *s, struct ws_analysis_params *p)
{
	size_t n = strcspn(s, ":");

	for (int c = 0; c < WS_STEADY_NR; c++) {
		double pct;

		if (strlen(ws_steady_words[c]) != n || strncmp(s, ws_steady_words[c], n))
			continue;
		if (!criteria[c].takes_pct) {
			if (s[n])
				return -EINVAL;	/* its bounds are its own */
			p->criterion = (enum ws_steady_criterion)c;
			p->limit_pct = criteria[c].limit_pct;
			p->slope_pct = criteria[c].slope_pct;
			return 0;
		}
		if (s[n] != ':' || parse_pct(s + n + 1, &pct))
			return -EINVAL;
		p->criterion = (enum ws_steady_criterion)c;
		p->limit_pct = pct;
		p->slope_pct = 0;
		return 0;
	}
	return -EINVAL;
}

static const char *const adapt_why_keys[WS_ADAPT_WHY_NR] = {
	[WS_ADAPT_SETTLED] = "settled", [WS_ADAPT_STARTING] = "starting",
	[WS_ADAPT_NO_PROBES] = "no_probes", [WS_ADAPT_OVER] = "over_target",
	[WS_ADAPT_RACING] = "racing", [WS_ADAPT_MOVING] = "moving",
	[WS_ADAPT_UNREACHABLE] = "unreachable",
};

const char *ws_adapt_why_key(enum ws_adapt_why why)
{
	return (unsigned int)why < WS_ADAPT_WHY_NR ? adapt_why_keys[why] : "?";
}

const char *ws_pace_label(const struct ws_run *run, char *buf, size_t len)
{
	const struct ws_settings *set = &run->set;
	const char *name = ws_pace_name(set->pace);
	const char *drop = set->pacing.fadvise ? " + fadvise" : "";
	char target[32];
	size_t n;

	if (set->pace == WS_PACE_WINDOW)
		snprintf(buf, len, "%s(%u)%s", name, set->pacing.window, drop);
	else if (set->pace == WS_PACE_FDATASYNC)
		snprintf(buf, len, "%s every %u%s", name, set->pacing.sync_every, drop);
	else if (set->pace == WS_PACE_ADAPTIVE)
		snprintf(buf, len, "%s to %s%s", name,
			 units_format_duration(target, sizeof(target),
					       set->pacing.target_latency_ns), drop);
	else
		snprintf(buf, len, "%s%s", name, drop);
	n = strlen(buf);
	if (run->queue.depth > 1 && n < len)
		snprintf(buf + n, len - n, ", %s depth %u", run->queue.engine,
			 run->queue.depth);
	return buf;
}
