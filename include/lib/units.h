/* units.h - strict parsing and formatting of sizes, durations and rates,
 * as writestress(1), UNITS, states: k = 2^10, kB = 10^3; "m" is never
 * minutes; a rate needs a unit; an unknown suffix, a sign, trailing text
 * or overflow is an error.  Output is MiB and GiB.  Pure; any thread.
 */
#ifndef WS_UNITS_H
#define WS_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define WS_KIB (UINT64_C(1) << 10)
#define WS_MIB (UINT64_C(1) << 20)
#define WS_GIB (UINT64_C(1) << 30)
#define WS_NSEC_PER_SEC UINT64_C(1000000000)
#define WS_NSEC_PER_MSEC UINT64_C(1000000)

/* Fit to follow "invalid --opt 'value': ", with the suffixes accepted. */
#define UNITS_MSG_LEN 150
struct units_error {
	char msg[UNITS_MSG_LEN];
};

/* 0, or -EINVAL or -ERANGE (overflow) with *err filled and *out untouched. */
int units_parse_size(const char *s, uint64_t *out, struct units_error *err);
int units_parse_duration(const char *s, uint64_t *ns_out,
			 struct units_error *err);
int units_parse_rate(const char *s, uint64_t *bytes_per_sec,
		     struct units_error *err);

/* Three significant figures: "8.00 MiB", "100 B", "3.10 ms"; from a
 * minute on "1m52s", "2h03m04s".  Both return buf. */
char *units_format_size(char *buf, size_t len, uint64_t bytes);
char *units_format_duration(char *buf, size_t len, uint64_t ns);

#endif
