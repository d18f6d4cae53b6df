/* units.c - strict sizes, durations, rates.  Exact: "1.5G" is 1610612736. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

struct unit {
	const char *name;
	uint64_t mult;
};

struct kind {
	const struct unit *units;	/* NULL-name ended */
	const char *noun;
	const char *accepted;		/* the suffixes, for a message */
};

/* A letter alone or with "i" is binary; a letter and "B" is decimal. */
static const struct unit size_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "k", UINT64_C(1) << 10 }, { "K", UINT64_C(1) << 10 },
	{ "Ki", UINT64_C(1) << 10 }, { "KiB", UINT64_C(1) << 10 },
	{ "kB", UINT64_C(1000) }, { "KB", UINT64_C(1000) },
	{ "m", UINT64_C(1) << 20 }, { "M", UINT64_C(1) << 20 },
	{ "Mi", UINT64_C(1) << 20 }, { "MiB", UINT64_C(1) << 20 },
	{ "MB", UINT64_C(1000000) },
	{ "g", UINT64_C(1) << 30 }, { "G", UINT64_C(1) << 30 },
	{ "Gi", UINT64_C(1) << 30 }, { "GiB", UINT64_C(1) << 30 },
	{ "GB", UINT64_C(1000000000) },
	{ "t", UINT64_C(1) << 40 }, { "T", UINT64_C(1) << 40 },
	{ "Ti", UINT64_C(1) << 40 }, { "TiB", UINT64_C(1) << 40 },
	{ "TB", UINT64_C(1000000000000) },
	{ "p", UINT64_C(1) << 50 }, { "P", UINT64_C(1) << 50 },
	{ "Pi", UINT64_C(1) << 50 }, { "PiB", UINT64_C(1) << 50 },
	{ "PB", UINT64_C(1000000000000000) },
	{ NULL, 0 }
};

static const struct unit duration_units[] = {
	{ "", WS_NSEC_PER_SEC },
	{ "ns", 1 },
	{ "us", UINT64_C(1000) },
	{ "µs", UINT64_C(1000) },	/* U+00B5, as writestress prints it */
	{ "μs", UINT64_C(1000) },	/* U+03BC */
	{ "ms", WS_NSEC_PER_MSEC },
	{ "s", WS_NSEC_PER_SEC },
	{ "sec", WS_NSEC_PER_SEC },	/* min is taken: sec goes with it */
	{ "min", 60 * WS_NSEC_PER_SEC },
	{ "h", 3600 * WS_NSEC_PER_SEC },
	{ "d", 86400 * WS_NSEC_PER_SEC },
	{ NULL, 0 }
};

static const struct kind size_kind = {
	size_units, "bytes",
	"B; binary: k K Ki KiB, m M Mi MiB, ... up to p P Pi PiB; decimal: kB KB MB GB TB PB"
};
static const struct kind duration_kind = {
	duration_units, "nanoseconds", "ns, us or µs, ms, s or sec, min, h, d"
};
static const struct kind rate_kind = {
	size_units, "bytes per second",
	"B; binary: k K Ki KiB, m M Mi MiB, ... up to p P Pi PiB; decimal: kB KB MB GB TB PB"
};

/* [digits][.digits][suffix], unconverted. */
struct number {
	const char *idig;
	size_t ilen;
	const char *fdig;
	size_t flen;
	const char *suffix;
	size_t slen;
};

__attribute__((format(printf, 2, 3)))
static void set_msg(struct units_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

/* Short, and safe to print on a terminal. */
static void quote(char *dst, size_t dlen, const char *s, size_t len)
{
	size_t max = dlen - 1, i;

	for (i = 0; i < len && i < max; i++)
		dst[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (i < len)
		memcpy(dst + i - 3, "...", 3);
	dst[i] = '\0';
}

static int split(const char *s, size_t len, struct number *n,
		 struct units_error *err)
{
	const char *end = s + len, *p = s;

	if (len && *s == '-') {
		set_msg(err, "negative values are not allowed");
		return -EINVAL;
	}
	if (len && *s == '+') {
		set_msg(err, "a sign is not allowed");
		return -EINVAL;
	}

	n->idig = p;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	n->ilen = p - n->idig;

	n->fdig = p;
	n->flen = 0;
	if (p < end && *p == '.') {
		n->fdig = ++p;
		while (p < end && isdigit((unsigned char)*p))
			p++;
		n->flen = p - n->fdig;
		/* "1." reads like a typo; ".5" is ordinary notation. */
		if (n->ilen && !n->flen) {
			set_msg(err, "no digits after the decimal point");
			return -EINVAL;
		}
	}
	if (!n->ilen && !n->flen) {
		set_msg(err, "no digits");
		return -EINVAL;
	}

	n->suffix = p;
	n->slen = end - p;
	return 0;
}

static int find_unit(const struct kind *k, const struct number *n,
		     uint64_t *mult, struct units_error *err)
{
	const struct unit *u;
	char q[36];

	for (u = k->units; u->name; u++) {
		if (strlen(u->name) == n->slen &&
		    !memcmp(u->name, n->suffix, n->slen)) {
			*mult = u->mult;
			return 0;
		}
	}
	quote(q, sizeof(q), n->suffix, n->slen);
	set_msg(err, "unknown suffix '%s' (%s)", q, k->accepted);
	return -EINVAL;
}

/* -ERANGE if over 64 bits. */
static int digits_value(const char *d, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(d[i] - '0'), &v))
			return -ERANGE;
	}
	*out = v;
	return 0;
}

/* mult * 0.<d> exactly, mult's 2s and 5s cancelling the denominator.
 * -EINVAL if not whole, -ERANGE past 64 bits (silly inputs only). */
static int fraction_value(const char *d, size_t len, uint64_t mult,
			  uint64_t *out)
{
	size_t twos, fives;
	uint64_t f;

	while (len && d[len - 1] == '0')
		len--;
	if (!len) {
		*out = 0;
		return 0;
	}

	for (twos = len; twos && !(mult & 1); twos--)
		mult >>= 1;
	for (fives = len; fives && !(mult % 5); fives--)
		mult /= 5;
	/* f would need a factor of 10, but its last digit is not 0. */
	if (twos && fives)
		return -EINVAL;
	if (digits_value(d, len, &f))
		return -ERANGE;
	if (twos) {
		if ((size_t)__builtin_ctzll(f) < twos)
			return -EINVAL;
		f >>= twos;
	}
	for (; fives; fives--) {
		if (f % 5)
			return -EINVAL;
		f /= 5;
	}
	/* below the original mult: no overflow */
	*out = f * mult;
	return 0;
}

static int scale(const struct kind *k, const struct number *n, uint64_t mult,
		 uint64_t *out, struct units_error *err)
{
	uint64_t ival, fval;
	int ret;

	if (digits_value(n->idig, n->ilen, &ival) ||
	    __builtin_mul_overflow(ival, mult, &ival))
		goto out_range;

	ret = fraction_value(n->fdig, n->flen, mult, &fval);
	if (ret == -EINVAL) {
		set_msg(err, "not a whole number of %s", k->noun);
		return ret;
	}
	if (ret) {
		set_msg(err, "too many digits after the decimal point");
		return -EINVAL;
	}

	if (__builtin_add_overflow(ival, fval, out))
		goto out_range;
	return 0;

out_range:
	set_msg(err, "too large (more than 2^64-1 %s)", k->noun);
	return -ERANGE;
}

static int check_text(const char *s, struct units_error *err)
{
	if (!*s) {
		set_msg(err, "empty value");
		return -EINVAL;
	}
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			set_msg(err, "whitespace is not allowed");
			return -EINVAL;
		}
	}
	return 0;
}

static int parse(const struct kind *k, const char *s, size_t len,
		 uint64_t *out, struct units_error *err)
{
	struct number n;
	uint64_t mult, v;
	int ret;

	ret = split(s, len, &n, err);
	if (ret)
		return ret;
	ret = find_unit(k, &n, &mult, err);
	if (ret)
		return ret;
	ret = scale(k, &n, mult, &v, err);
	if (ret)
		return ret;
	*out = v;
	return 0;
}

int units_parse_size(const char *s, uint64_t *out, struct units_error *err)
{
	int ret = check_text(s, err);

	return ret ? ret : parse(&size_kind, s, strlen(s), out, err);
}

/* m is mebibytes everywhere in writestress: name what was meant. */
static void size_unit_as_time(const char *s, struct units_error *err)
{
	struct number n;
	char q[36];

	if (split(s, strlen(s), &n, NULL) || !n.slen)
		return;
	for (const struct unit *u = size_units; u->name; u++) {
		if (strlen(u->name) != n.slen || memcmp(u->name, n.suffix, n.slen))
			continue;
		quote(q, sizeof(q), s, (size_t)(n.suffix - s));
		if (n.slen == 1 && (*n.suffix == 'm' || *n.suffix == 'M'))
			set_msg(err, "'%c' is mebibytes, not minutes (did you mean %smin?)",
				*n.suffix, q);
		else
			set_msg(err, "'%s' is a size, not a time (%s)", u->name,
				duration_kind.accepted);
		return;
	}
}

int units_parse_duration(const char *s, uint64_t *ns_out,
			 struct units_error *err)
{
	int ret = check_text(s, err);

	if (!ret)
		ret = parse(&duration_kind, s, strlen(s), ns_out, err);
	if (ret == -EINVAL)
		size_unit_as_time(s, err);
	return ret;
}

int units_parse_rate(const char *s, uint64_t *bytes_per_sec,
		     struct units_error *err)
{
	const char *slash;
	char q[36];
	size_t len;
	uint64_t v;
	int ret;

	ret = check_text(s, err);
	if (ret)
		return ret;
	slash = strchr(s, '/');
	len = slash ? (size_t)(slash - s) : strlen(s);
	if (!slash) {
		ret = parse(&rate_kind, s, len, &v, err);
		goto out;
	}
	/* other periods would invite rounding surprises */
	if (strcmp(slash, "/s")) {
		quote(q, sizeof(q), slash, strlen(slash));
		set_msg(err, "unknown rate unit '%s' (only '/s' is allowed)",
			q);
		return -EINVAL;
	}
	ret = parse(&rate_kind, s, len, &v, err);
out:
	if (ret)
		return ret;
	/* "-r 50" as 50 bytes a second is a run planned for days: say it */
	if (v && strspn(s, "0123456789.") == len) {
		quote(q, sizeof(q), s, len);
		set_msg(err, "a rate needs a unit: %sB/s for bytes, or %sM/s", q, q);
		return -EINVAL;
	}
	*bytes_per_sec = v;
	return 0;
}

/* n / d rounded half up, scaled by 10^decimals.  Exact long division:
 * r < d <= 2^60, and the caller keeps n / d below 1024. */
static uint64_t div_round(uint64_t n, uint64_t d, unsigned int decimals)
{
	uint64_t v = n / d, r = n % d;

	for (; decimals; decimals--) {
		r *= 10;
		v = v * 10 + r / d;
		r %= d;
	}
	return v + (r >= d - r);
}

/* 1 <= n / d < 1024, three significant figures. */
static char *format_sig3(char *buf, size_t len, uint64_t n, uint64_t d,
			 const char *unit)
{
	static const uint64_t pow10[] = { 1, 10, 100 };
	uint64_t q = n / d, v;
	unsigned int decimals = q >= 100 ? 0 : q >= 10 ? 1 : 2;

	v = div_round(n, d, decimals);
	/* 9.996 rounds to 10.00: one figure too many. */
	if (decimals && v >= 1000) {
		v /= 10;
		decimals--;
	}
	if (!decimals)
		snprintf(buf, len, "%" PRIu64 " %s", v, unit);
	else
		snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 " %s",
			 v / pow10[decimals], (int)decimals,
			 v % pow10[decimals], unit);
	return buf;
}

char *units_format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const names[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	unsigned int k;
	uint64_t unit;

	if (!len)
		return buf;
	if (bytes < WS_KIB) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return buf;
	}
	k = (63 - __builtin_clzll(bytes)) / 10;
	unit = UINT64_C(1) << (10 * k);
	/* 1023.5 KiB would round to "1024 KiB" */
	if (k < 6 && bytes >= (unit << 10) - unit / 2) {
		k++;
		unit <<= 10;
	}
	return format_sig3(buf, len, bytes, unit, names[k]);
}

static char *format_hms(char *buf, size_t len, uint64_t ns)
{
	uint64_t secs = ns / WS_NSEC_PER_SEC;

	if (ns % WS_NSEC_PER_SEC >= WS_NSEC_PER_SEC / 2)
		secs++;
	if (secs >= 3600)
		snprintf(buf, len, "%" PRIu64 "h%02um%02us", secs / 3600,
			 (unsigned int)(secs / 60 % 60),
			 (unsigned int)(secs % 60));
	else
		snprintf(buf, len, "%um%02us", (unsigned int)(secs / 60),
			 (unsigned int)(secs % 60));
	return buf;
}

char *units_format_duration(char *buf, size_t len, uint64_t ns)
{
	static const struct unit units[] = {
		{ "µs", UINT64_C(1000) },
		{ "ms", WS_NSEC_PER_MSEC },
		{ "s", WS_NSEC_PER_SEC },
	};
	/* from here seconds would round to "60.0 s" */
	const uint64_t hms_from = 60 * WS_NSEC_PER_SEC - 50 * WS_NSEC_PER_MSEC;
	unsigned int i = 0;

	if (!len)
		return buf;
	if (!ns) {
		snprintf(buf, len, "0 s");
		return buf;
	}
	if (ns >= hms_from)
		return format_hms(buf, len, ns);
	if (ns < 1000) {
		snprintf(buf, len, "%" PRIu64 " ns", ns);
		return buf;
	}
	/* where rounding would print "1000" of this unit */
	while (i < 2 && ns >= 1000 * units[i].mult - units[i].mult / 2)
		i++;
	return format_sig3(buf, len, ns, units[i].mult, units[i].name);
}
