# A known injected delay is reported as measured: an LD_PRELOAD shim makes
# every fsync of the probe's file take exactly 300 ms (instead of the disk's
# own, noisy, time).  The summary must show
# that latency at p50/p99/max within a few percent, count every probe as a
# stall (threshold 200 ms), and the interval lines must show the probe's
# age while it is stuck (an interval with no completed probe is not empty).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

shim=$HELPERS/slow_fsync.so
[ -f "$shim" ] || skip_as cmd "the LD_PRELOAD shim $shim was not built"
# a sanitizer runtime wants to be first in the link order; the shim only
# wraps two libc calls, so let it come first
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export WS_SLOW_FSYNC_MS=300 WS_SLOW_FSYNC_ONLY=1

LD_PRELOAD=$shim ws --size 48M -B 1M --rate 16M/s --stall 200ms \
	--probe-interval 100ms -i 100ms data
assert_status 0
line=$(grep -E '^  fsync +[0-9]+ probes,' "$OUT") || fail "no fsync summary line"
echo "summary: $line"
# "  fsync    8 probes, p50 301 ms, p90 302 ms, p99 303 ms, p99.9 303 ms, max 303 ms ..."
# shellcheck disable=SC2046 # the four numbers are meant to split
set -- $(echo "$line" | sed -n 's/^ *fsync *\([0-9]*\) probes, p50 \([0-9.]*\) ms, p90 [^,]*, p99 \([0-9.]*\) ms, p99.9 [^,]*, max \([0-9.]*\) ms.*/\1 \2 \3 \4/p')
[ $# -eq 4 ] || fail "could not read count/p50/p99/max (in ms) from: $line"
count=$1
in_range() { # VALUE LOW HIGH WHAT (milliseconds, decimals allowed)
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4 is $1 ms, expected $2..$3 ms"
}
in_range "$2" 300 315 "p50"
in_range "$3" 300 330 "p99"
in_range "$4" 300 345 "max"
assert_ge "$count" 5 "probes completed in 3 s"
# every probe took >= 300 ms: every one is a stall
assert_file_match "$OUT" "^ +$count stalls ≥ 200 ms" "stall count equal to the probe count"
# while a probe is stuck, the interval shows its age and its max includes it
awk '/^t=/ {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "fsync_inflight_ms") inflight = kv[2] + 0
		if (kv[1] == "fsync_max_ms") max = kv[2] + 0
		if (kv[1] == "fsync_n") n = kv[2] + 0
	}
	if (inflight >= 200 && max >= inflight && n == 0) found = 1
} END { exit !found }' "$OUT" ||
	fail "no interval showed a probe in flight for >= 200 ms with its age as the max"
assert_dir_only "$WORK" data
