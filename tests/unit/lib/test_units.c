/* test_units.c - the units suite: parsing tables (good values, bad values,
 * 64-bit boundaries) and formatting tables, each run with
 * tcase_add_loop_test so a failure names its row. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <check.h>

#include "suites.h"
#include "lib/units.h"

/* Loop tests take an int count. */
#define N_ROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#define KiB WS_KIB
#define MiB WS_MIB
#define GiB WS_GIB
#define TiB (UINT64_C(1) << 40)
#define PiB (UINT64_C(1) << 50)
#define SEC WS_NSEC_PER_SEC
#define MAX UINT64_MAX

/* A good row has ret 0 and want; a bad row has ret and a piece of msg. */
struct parse_case {
	const char *in;
	uint64_t want;
	int ret;
	const char *msg;
};

struct format_case {
	uint64_t in;
	const char *want;
};

typedef int parse_fn(const char *s, uint64_t *out, struct units_error *err);
typedef char *format_fn(char *buf, size_t len, uint64_t v);

static const struct parse_case size_good[] = {
	{ "8B", 8, 0, NULL },
	{ "0", 0, 0, NULL },
	{ "00", 0, 0, NULL },
	{ "0k", 0, 0, NULL },
	{ "0.0", 0, 0, NULL },
	{ "1", 1, 0, NULL },
	{ "007", 7, 0, NULL },
	{ "512", 512, 0, NULL },
	{ "1k", KiB, 0, NULL },
	{ "1K", KiB, 0, NULL },
	{ "1Ki", KiB, 0, NULL },
	{ "1KiB", KiB, 0, NULL },
	{ "1kB", 1000, 0, NULL },
	{ "1KB", 1000, 0, NULL },
	{ "8m", 8 * MiB, 0, NULL },
	{ "8M", 8 * MiB, 0, NULL },
	{ "8Mi", 8 * MiB, 0, NULL },
	{ "8MiB", 8 * MiB, 0, NULL },
	{ "8MB", 8000000, 0, NULL },
	{ "1g", GiB, 0, NULL },
	{ "1G", GiB, 0, NULL },
	{ "1Gi", GiB, 0, NULL },
	{ "1GiB", GiB, 0, NULL },
	{ "1GB", UINT64_C(1000000000), 0, NULL },
	{ "1t", TiB, 0, NULL },
	{ "1T", TiB, 0, NULL },
	{ "1Ti", TiB, 0, NULL },
	{ "1TiB", TiB, 0, NULL },
	{ "1TB", UINT64_C(1000000000000), 0, NULL },
	{ "1p", PiB, 0, NULL },
	{ "1P", PiB, 0, NULL },
	{ "1Pi", PiB, 0, NULL },
	{ "1PiB", PiB, 0, NULL },
	{ "1PB", UINT64_C(1000000000000000), 0, NULL },
	{ "20P", 20 * PiB, 0, NULL },
	/* Fractions: exact, and only when they come to whole bytes. */
	{ "1.5G", UINT64_C(1610612736), 0, NULL },
	{ "1.50k", 1536, 0, NULL },
	{ "0.5k", 512, 0, NULL },
	{ ".5k", 512, 0, NULL },
	{ "1.0", 1, 0, NULL },
	{ "1.000", 1, 0, NULL },
	{ "2.5MB", 2500000, 0, NULL },
	{ "0.001kB", 1, 0, NULL },
	{ "0.0009765625k", 1, 0, NULL },
	{ "0.000030517578125G", 32768, 0, NULL },
	{ "16383.5P", 16383 * PiB + PiB / 2, 0, NULL },
	/* The top of the range, reached by every route. */
	{ "18446744073709551615", MAX, 0, NULL },
	{ "0018446744073709551615", MAX, 0, NULL },
	{ "18446744073709551615.0", MAX, 0, NULL },
	{ "18446744073709551.615KB", MAX, 0, NULL },
	{ "18014398509481983K", MAX - (KiB - 1), 0, NULL },
	{ "17179869183G", MAX - (GiB - 1), 0, NULL },
	{ "16383P", MAX - (PiB - 1), 0, NULL },
};

static const struct parse_case size_bad[] = {
	{ "", 0, -EINVAL, "empty value" },
	{ "-1", 0, -EINVAL, "negative values are not allowed" },
	{ "-0", 0, -EINVAL, "negative values are not allowed" },
	{ "+5", 0, -EINVAL, "a sign is not allowed" },
	{ " 5", 0, -EINVAL, "whitespace is not allowed" },
	{ "5 ", 0, -EINVAL, "whitespace is not allowed" },
	{ "5\t", 0, -EINVAL, "whitespace is not allowed" },
	{ "5 M", 0, -EINVAL, "whitespace is not allowed" },
	{ "3x", 0, -EINVAL, "unknown suffix 'x'" },
	{ "1e3", 0, -EINVAL, "unknown suffix 'e3'" },
	{ "8mb", 0, -EINVAL, "unknown suffix 'mb'" },
	{ "8kb", 0, -EINVAL, "unknown suffix 'kb'" },
	{ "8ki", 0, -EINVAL, "unknown suffix 'ki'" },
	{ "8KIB", 0, -EINVAL, "unknown suffix 'KIB'" },
	{ "8b", 0, -EINVAL, "unknown suffix 'b'" },
	{ "16E", 0, -EINVAL, "unknown suffix 'E'" },
	{ "1EiB", 0, -EINVAL, "unknown suffix 'EiB'" },
	{ "0x10", 0, -EINVAL, "unknown suffix 'x10'" },
	{ "1.5.5", 0, -EINVAL, "unknown suffix '.5'" },
	{ "1,5", 0, -EINVAL, "unknown suffix ',5'" },
	{ "1M/s", 0, -EINVAL, "unknown suffix 'M/s'" },
	{ "1\001", 0, -EINVAL, "unknown suffix '?'" },
	{ "k", 0, -EINVAL, "no digits" },
	{ ".", 0, -EINVAL, "no digits" },
	{ ".k", 0, -EINVAL, "no digits" },
	{ "1.", 0, -EINVAL, "no digits after the decimal point" },
	{ "1.k", 0, -EINVAL, "no digits after the decimal point" },
	{ "0.3k", 0, -EINVAL, "not a whole number of bytes" },
	{ "0.5", 0, -EINVAL, "not a whole number of bytes" },
	{ "1.1", 0, -EINVAL, "not a whole number of bytes" },
	{ "0.0001kB", 0, -EINVAL, "not a whole number of bytes" },
	{ "0.12345678901234567890123k", 0, -EINVAL,
	  "not a whole number of bytes" },
	{ "16383.99999P", 0, -EINVAL, "not a whole number of bytes" },
	/* 2^-50 P is one byte, but 50 significant digits are past the limit. */
	{ "0.00000000000000088817841970012523233890533447265625P", 0, -EINVAL,
	  "too many digits after the decimal point" },
	{ "18446744073709551616", 0, -ERANGE,
	  "too large (more than 2^64-1 bytes)" },
	{ "99999999999999999999999", 0, -ERANGE, "too large" },
	{ "18446744073709551.616KB", 0, -ERANGE, "too large" },
	{ "18014398509481984K", 0, -ERANGE, "too large" },
	{ "17179869184G", 0, -ERANGE, "too large" },
	{ "16384P", 0, -ERANGE, "too large" },
	{ "100000P", 0, -ERANGE, "too large" },
};

static const struct parse_case duration_good[] = {
	{ "0", 0, 0, NULL },
	{ "0s", 0, 0, NULL },
	{ "1", SEC, 0, NULL },
	{ "30", 30 * SEC, 0, NULL },
	{ "30s", 30 * SEC, 0, NULL },
	{ "500ms", 500 * WS_NSEC_PER_MSEC, 0, NULL },
	{ "250us", 250000, 0, NULL },
	{ "250µs", 250000, 0, NULL },
	{ "250μs", 250000, 0, NULL },
	{ "7ns", 7, 0, NULL },
	{ "10min", 600 * SEC, 0, NULL },
	{ "2h", 7200 * SEC, 0, NULL },
	{ "1d", 86400 * SEC, 0, NULL },
	{ "1.5s", 1500000000, 0, NULL },
	{ "5sec", 5 * SEC, 0, NULL },
	{ "1.5", 1500000000, 0, NULL },
	{ ".5s", 500000000, 0, NULL },
	{ "2.5min", 150 * SEC, 0, NULL },
	{ "0.5ms", 500000, 0, NULL },
	{ "1.5us", 1500, 0, NULL },
	{ "0.25d", 21600 * SEC, 0, NULL },
	{ "1.000000001", 1000000001, 0, NULL },
	{ "18446744073709551615ns", MAX, 0, NULL },
	{ "18446744073.709551615", MAX, 0, NULL },
	{ "18446744073.709551615s", MAX, 0, NULL },
	{ "213503d", UINT64_C(18446659200000000000), 0, NULL },
	{ "5124095h", UINT64_C(18446742000000000000), 0, NULL },
};

static const struct parse_case duration_bad[] = {
	{ "", 0, -EINVAL, "empty value" },
	{ "-1s", 0, -EINVAL, "negative values are not allowed" },
	{ "+1s", 0, -EINVAL, "a sign is not allowed" },
	{ "1 s", 0, -EINVAL, "whitespace is not allowed" },
	{ "1e3", 0, -EINVAL, "unknown suffix 'e3'" },
	{ "5x", 0, -EINVAL, "unknown suffix 'x'" },
	{ "5S", 0, -EINVAL, "unknown suffix 'S'" },
	{ "5secs", 0, -EINVAL, "unknown suffix 'secs'" },
	/* m is mebibytes wherever it appears: a time says min */
	{ "5M", 0, -EINVAL, "'M' is mebibytes, not minutes (did you mean 5min?)" },
	{ "10m", 0, -EINVAL, "'m' is mebibytes, not minutes (did you mean 10min?)" },
	{ "2.5m", 0, -EINVAL, "'m' is mebibytes, not minutes (did you mean 2.5min?)" },
	{ "5MiB", 0, -EINVAL, "'MiB' is a size, not a time (ns, us or µs, ms, s or sec, min, h, d)" },
	{ "5k", 0, -EINVAL, "'k' is a size, not a time" },
	{ "1h30m", 0, -EINVAL, "unknown suffix 'h30m'" },
	{ "s", 0, -EINVAL, "no digits" },
	{ ".", 0, -EINVAL, "no digits" },
	{ "1.", 0, -EINVAL, "no digits after the decimal point" },
	{ "1.s", 0, -EINVAL, "no digits after the decimal point" },
	{ "0.5ns", 0, -EINVAL, "not a whole number of nanoseconds" },
	{ "1.0000000001s", 0, -EINVAL, "not a whole number of nanoseconds" },
	{ "18446744073709551616ns", 0, -ERANGE,
	  "too large (more than 2^64-1 nanoseconds)" },
	{ "18446744073.709551616s", 0, -ERANGE, "too large" },
	{ "18446744074", 0, -ERANGE, "too large" },
	{ "213504d", 0, -ERANGE, "too large" },
	{ "5124096h", 0, -ERANGE, "too large" },
};

static const struct parse_case rate_good[] = {
	{ "0", 0, 0, NULL },
	{ "0/s", 0, 0, NULL },
	{ "100B", 100, 0, NULL },
	{ "100B/s", 100, 0, NULL },
	{ "8k/s", 8 * KiB, 0, NULL },
	{ "50M", 50 * MiB, 0, NULL },
	{ "50M/s", UINT64_C(52428800), 0, NULL },
	{ "50MiB/s", 50 * MiB, 0, NULL },
	{ "50MB/s", UINT64_C(50000000), 0, NULL },
	{ "1.5GiB/s", UINT64_C(1610612736), 0, NULL },
	{ ".5k/s", 512, 0, NULL },
	{ "18446744073709551615B/s", MAX, 0, NULL },
};

static const struct parse_case rate_bad[] = {
	{ "", 0, -EINVAL, "empty value" },
	{ "/s", 0, -EINVAL, "no digits" },
	{ "-5M/s", 0, -EINVAL, "negative values are not allowed" },
	{ "+5M/s", 0, -EINVAL, "a sign is not allowed" },
	{ "5 M/s", 0, -EINVAL, "whitespace is not allowed" },
	{ "5M /s", 0, -EINVAL, "whitespace is not allowed" },
	{ "50M/h", 0, -EINVAL,
	  "unknown rate unit '/h' (only '/s' is allowed)" },
	{ "50M/min", 0, -EINVAL, "unknown rate unit '/min'" },
	{ "50M/S", 0, -EINVAL, "unknown rate unit '/S'" },
	{ "50M/", 0, -EINVAL, "unknown rate unit '/'" },
	{ "50M/s/s", 0, -EINVAL, "unknown rate unit '/s/s'" },
	{ "50x/s", 0, -EINVAL, "unknown suffix 'x' (B; binary: k K Ki KiB" },
	{ "50mb/s", 0, -EINVAL, "unknown suffix 'mb' (B; binary: k K Ki KiB, m M Mi MiB, ... up to p P Pi PiB; decimal: kB KB MB GB TB PB)" },
	{ "50", 0, -EINVAL, "a rate needs a unit: 50B/s for bytes, or 50M/s" },
	{ "1.5/s", 0, -EINVAL, "not a whole number of bytes per second" },
	{ "1./s", 0, -EINVAL, "no digits after the decimal point" },
	{ "2.0", 0, -EINVAL, "a rate needs a unit: 2.0B/s for bytes, or 2.0M/s" },
	{ "50mb/s", 0, -EINVAL, "unknown suffix 'mb'" },
	{ "1e3/s", 0, -EINVAL, "unknown suffix 'e3'" },
	{ "0.3k/s", 0, -EINVAL, "not a whole number of bytes per second" },
	{ "16384P/s", 0, -ERANGE,
	  "too large (more than 2^64-1 bytes per second)" },
	{ "18446744073709551616B/s", 0, -ERANGE, "too large" },
};

static const struct format_case size_fmt[] = {
	{ 0, "0 B" },
	{ 1, "1 B" },
	{ 100, "100 B" },
	{ 1023, "1023 B" },
	{ 1024, "1.00 KiB" },
	{ 1152, "1.13 KiB" },		/* 1.125: half rounds up */
	{ 1536, "1.50 KiB" },
	{ 10234, "9.99 KiB" },
	{ 10235, "10.0 KiB" },		/* 9.9951 must not print "10.00" */
	{ 102348, "99.9 KiB" },
	{ 102349, "100 KiB" },
	{ 1000 * KiB, "1000 KiB" },
	{ 1048063, "1023 KiB" },
	{ 1048064, "1.00 MiB" },	/* 1023.5 KiB must not print "1024" */
	{ 8 * MiB, "8.00 MiB" },
	{ 512 * MiB, "512 MiB" },
	{ UINT64_C(25125558682), "23.4 GiB" },
	{ TiB, "1.00 TiB" },
	{ PiB, "1.00 PiB" },
	{ (UINT64_C(1) << 60) - 1, "1.00 EiB" },
	{ UINT64_C(1) << 60, "1.00 EiB" },
	{ MAX, "16.0 EiB" },
};

static const struct format_case duration_fmt[] = {
	{ 0, "0 s" },
	{ 1, "1 ns" },
	{ 850, "850 ns" },
	{ 999, "999 ns" },
	{ 1000, "1.00 µs" },
	{ 850000, "850 µs" },
	{ 999499, "999 µs" },
	{ 999500, "1.00 ms" },
	{ 3100000, "3.10 ms" },
	{ 999499999, "999 ms" },
	{ 999500000, "1.00 s" },
	{ SEC, "1.00 s" },
	{ 1250000000, "1.25 s" },
	{ UINT64_C(59949999999), "59.9 s" },
	{ UINT64_C(59950000000), "1m00s" },
	{ 60 * SEC, "1m00s" },
	{ 112 * SEC, "1m52s" },
	{ UINT64_C(119499999999), "1m59s" },
	{ UINT64_C(119500000000), "2m00s" },
	{ 3599 * SEC, "59m59s" },
	{ 3600 * SEC, "1h00m00s" },
	{ 7384 * SEC, "2h03m04s" },
	{ 360000 * SEC, "100h00m00s" },
	{ MAX, "5124095h34m34s" },
};

/* Every message must read well after "invalid --opt 'value': ". */
static void check_msg_style(const char *in, const char *msg)
{
	size_t len = strnlen(msg, sizeof(((struct units_error *)0)->msg));

	ck_assert_msg(len > 0 && len < sizeof(((struct units_error *)0)->msg),
		      "'%s': message empty or unterminated", in);
	ck_assert_msg(msg[0] < 'A' || msg[0] > 'Z',
		      "'%s': message '%s' starts upper case", in, msg);
	ck_assert_msg(msg[len - 1] != '.',
		      "'%s': message '%s' ends with a full stop", in, msg);
}

static void run_good(parse_fn *parse, const struct parse_case *c)
{
	struct units_error err = { "" };
	uint64_t v = 12345;
	int ret = parse(c->in, &v, &err);

	ck_assert_msg(ret == 0, "'%s': ret %d (%s), want 0", c->in, ret,
		      err.msg);
	ck_assert_msg(v == c->want, "'%s': got %ju, want %ju", c->in,
		      (uintmax_t)v, (uintmax_t)c->want);
}

static void run_bad(parse_fn *parse, const struct parse_case *c)
{
	struct units_error err;
	uint64_t v = 12345;
	int ret;

	memset(err.msg, 'X', sizeof(err.msg));
	ret = parse(c->in, &v, &err);
	ck_assert_msg(ret == c->ret, "'%s': ret %d, want %d", c->in, ret,
		      c->ret);
	ck_assert_msg(v == 12345, "'%s': *out changed on failure", c->in);
	check_msg_style(c->in, err.msg);
	ck_assert_msg(strstr(err.msg, c->msg), "'%s': message '%s' lacks '%s'",
		      c->in, err.msg, c->msg);
}

START_TEST(test_size_good)
{
	run_good(units_parse_size, &size_good[_i]);
}
END_TEST

START_TEST(test_size_bad)
{
	run_bad(units_parse_size, &size_bad[_i]);
}
END_TEST

START_TEST(test_duration_good)
{
	run_good(units_parse_duration, &duration_good[_i]);
}
END_TEST

START_TEST(test_duration_bad)
{
	run_bad(units_parse_duration, &duration_bad[_i]);
}
END_TEST

START_TEST(test_rate_good)
{
	run_good(units_parse_rate, &rate_good[_i]);
}
END_TEST

START_TEST(test_rate_bad)
{
	run_bad(units_parse_rate, &rate_bad[_i]);
}
END_TEST

/* A suffix longer than the message can hold is cut, never overflowed. */
START_TEST(test_long_suffix)
{
	struct units_error err;
	char in[300];
	uint64_t v = 7;

	memset(in, 'x', sizeof(in) - 1);
	in[0] = '1';
	in[sizeof(in) - 1] = '\0';
	memset(err.msg, 'X', sizeof(err.msg));
	ck_assert_int_eq(units_parse_size(in, &v, &err), -EINVAL);
	ck_assert_uint_eq(v, 7);
	ck_assert_ptr_nonnull(memchr(err.msg, '\0', sizeof(err.msg)));
	ck_assert_msg(!strncmp(err.msg, "unknown suffix 'xxx", 19), "%s",
		      err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "...'"));
}
END_TEST

static void run_format(format_fn *fmt, const struct format_case *c)
{
	char buf[64];

	memset(buf, 'X', sizeof(buf));
	ck_assert_ptr_eq(fmt(buf, sizeof(buf), c->in), buf);
	ck_assert_msg(!strcmp(buf, c->want), "%ju: got '%s', want '%s'",
		      (uintmax_t)c->in, buf, c->want);
}

START_TEST(test_format_size)
{
	run_format(units_format_size, &size_fmt[_i]);
}
END_TEST

START_TEST(test_format_duration)
{
	run_format(units_format_duration, &duration_fmt[_i]);
}
END_TEST

/*
 * With a buffer of _i bytes, the output is the full text cut to fit and
 * terminated, and nothing past the buffer is touched (not even for _i 0).
 */
static void run_short_buffer(format_fn *fmt, uint64_t in, size_t len)
{
	char full[64], buf[64];
	size_t i;

	fmt(full, sizeof(full), in);
	memset(buf, 'X', sizeof(buf));
	fmt(buf, len, in);
	for (i = len; i < sizeof(buf); i++)
		ck_assert_msg(buf[i] == 'X', "len %zu: wrote byte %zu", len, i);
	if (!len)
		return;
	ck_assert_uint_eq(strlen(buf), len - 1 < strlen(full) ?
				       len - 1 : strlen(full));
	ck_assert(!strncmp(buf, full, len - 1));
}

START_TEST(test_short_buffer)
{
	run_short_buffer(units_format_size, UINT64_C(25125558682), _i);
	run_short_buffer(units_format_size, 100, _i);
	run_short_buffer(units_format_duration, 7384 * SEC, _i);
	run_short_buffer(units_format_duration, 3100000, _i);
}
END_TEST

Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *parse = tcase_create("parse");
	TCase *format = tcase_create("format");

	tcase_add_loop_test(parse, test_size_good, 0, N_ROWS(size_good));
	tcase_add_loop_test(parse, test_size_bad, 0, N_ROWS(size_bad));
	tcase_add_loop_test(parse, test_duration_good, 0, N_ROWS(duration_good));
	tcase_add_loop_test(parse, test_duration_bad, 0, N_ROWS(duration_bad));
	tcase_add_loop_test(parse, test_rate_good, 0, N_ROWS(rate_good));
	tcase_add_loop_test(parse, test_rate_bad, 0, N_ROWS(rate_bad));
	tcase_add_test(parse, test_long_suffix);
	suite_add_tcase(s, parse);

	tcase_add_loop_test(format, test_format_size, 0, N_ROWS(size_fmt));
	tcase_add_loop_test(format, test_format_duration, 0, N_ROWS(duration_fmt));
	tcase_add_loop_test(format, test_short_buffer, 0, 17);
	suite_add_tcase(s, format);
	return s;
}
