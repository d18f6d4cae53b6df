# A known injected delay is reported as measured: an LD_PRELOAD shim makes
# every fsync of the probe's file take exactly 300 ms (instead of the disk's
# own, noisy, time).  The result must show that latency at p50/p99/max
# within a few percent, and the summary its max (with a handful of probes
# it shows no percentile: p50 needs 20, it says so), count every probe as
# a stall (threshold 200 ms), and the interval lines must show the probe's
# age while it is stuck (an interval with no completed probe is not empty).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

shim=$HELPERS/slow_fsync.so
[ -f "$shim" ] || skip_as cmd "the LD_PRELOAD shim $shim was not built"
# a sanitizer runtime wants to be first in the link order; the shim only
# wraps two libc calls, so let it come first
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export WS_SLOW_FSYNC_MS=300 WS_SLOW_FSYNC_ONLY=1

# in memory where the machine has it (/dev/shm): the probe's own write
# must not wait on a disk other tests flood (under a parallel suite it
# took 50-90 ms more there), only on the injected delay
dir=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ] && shm=$(mktemp -d /dev/shm/ws-probe-delay.XXXXXX); then
	at_exit "rm -rf '$shm'"
	dir=$shm
fi
LD_PRELOAD=$shim ws --size 48M -B 1M --rate 16M/s --stall 200ms \
	--probe-interval 100ms -i 100ms --json "$TESTDIR/r.json" "$dir/data"
assert_status 0
line=$(grep -E '^  fsync +[0-9]+ probes,' "$OUT") || fail "no fsync summary line"
echo "summary: $line"
# "  fsync    8 probes, max 303 ms   (raw; p50 needs 20 probes)"
count=$(echo "$line" | sed -n 's/^ *fsync *\([0-9]*\) probes, max \([0-9.]*\) ms   (raw; p50 needs 20 probes)$/\1/p')
[ -n "$count" ] || fail "not 'N probes, max M ms   (raw; p50 needs 20 probes)': $line"
text_max=$(echo "$line" | sed -n 's/.* max \([0-9.]*\) ms .*/\1/p')
# shellcheck disable=SC2046 # the three numbers are meant to split
set -- $(python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["probes"][0]
print(p["raw"]["p50_ms"], p["raw"]["p99_ms"], p["max_ms"], p["count"])' "$TESTDIR/r.json")
[ $# -eq 4 ] || fail "no fsync figures in the result"
assert_eq "$count" "$4" "probes in the summary and the result"
in_range() { # VALUE LOW HIGH WHAT (milliseconds, decimals allowed)
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }' ||
		fail "$4 is $1 ms, expected $2..$3 ms"
}
in_range "$1" 300 315 "p50"
in_range "$2" 300 330 "p99"
in_range "$3" 300 345 "max"
in_range "$text_max" 300 345 "the summary's max"
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
	# inflight_ms is printed to 0.1 ms, max_ms to 0.001 ms: a max of
	# 292.159 is the age shown as 292.2
	if (inflight >= 200 && max >= inflight - 0.05 && n == 0) found = 1
} END { exit !found }' "$OUT" ||
	fail "no interval showed a probe in flight for >= 200 ms with its age as the max"
assert_dir_only "$dir" data
