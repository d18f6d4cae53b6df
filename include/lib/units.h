/* units.h - strict parsing and formatting of sizes, durations and rates.
 *
 * Binary versus decimal is a deliberate, documented choice (see --help and
 * writestress(1)):
 *   sizes     a bare number is bytes;
 *             k K Ki KiB = 2^10, m M Mi MiB = 2^20, g G Gi GiB = 2^30,
 *             t T Ti TiB = 2^40, p P Pi PiB = 2^50 (one letter is binary);
 *             kB KB = 10^3, MB = 10^6, GB = 10^9, TB = 10^12, PB = 10^15;
 *             a decimal fraction is allowed when the result is a whole
 *             number of bytes ("1.5G" yes, "0.3k" no).
 *   durations ns us ms s min h d; a bare number is seconds; fractions
 *             allowed ("1.5s", "2.5min"); the result is in nanoseconds.
 *             "m" is mebibytes wherever it appears, so never minutes:
 *             "5m" as a time is refused, naming 5min.
 *   rates     a size followed by "/s" ("50M/s", "1.5GiB/s"); "/s" may be
 *             omitted; the result is bytes per second.  A rate needs a
 *             unit ("50B/s" for bytes): "-r 50" would plan a run for days.
 *   "B" is bytes in sizes and rates.  An unknown suffix is named with the
 *   list of those accepted.
 * Everything else is an error: an unknown suffix, a sign, an empty string,
 * trailing garbage, a value that overflows 64 bits.  Zero parses as zero;
 * whether zero is meaningful is the caller's decision.
 *
 * Output follows one convention everywhere in writestress: MiB and GiB
 * (2^20, 2^30), labelled as such.
 *
 * All functions are pure and thread-safe.
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

/* Why a parse failed, in words fit to follow "invalid --opt 'value': ";
 * long enough for the accepted suffixes after a quoted bad one. */
#define UNITS_MSG_LEN 150
struct units_error {
	char msg[UNITS_MSG_LEN];
};

/* Each returns 0 and stores the value, or -EINVAL (malformed, unknown
 * suffix, negative, not a whole number of bytes) or -ERANGE (overflow) and
 * fills *err.  *out is untouched on failure. */
int units_parse_size(const char *s, uint64_t *out, struct units_error *err);
int units_parse_duration(const char *s, uint64_t *ns_out,
			 struct units_error *err);
int units_parse_rate(const char *s, uint64_t *bytes_per_sec,
		     struct units_error *err);

/* Human formatting into buf (always NUL-terminated; returns buf).
 *   units_format_size(8388608)       -> "8.00 MiB"
 *   units_format_size(1536)          -> "1.50 KiB"
 *   units_format_size(100)           -> "100 B"
 *   units_format_duration(112e9)     -> "1m52s"
 *   units_format_duration(1.25e9)    -> "1.25 s"
 *   units_format_duration(3.1e6)     -> "3.10 ms"
 *   units_format_duration(7384e9)    -> "2h03m04s"
 * Sizes use three significant figures and the largest binary unit that
 * keeps the number >= 1; durations under a minute use three significant
 * figures (ns, µs, ms, s); from a minute on they are h/m/s fields. */
char *units_format_size(char *buf, size_t len, uint64_t bytes);
char *units_format_duration(char *buf, size_t len, uint64_t ns);

#endif
