# A known injected delay is reported as measured: an LD_PRELOAD shim makes
# every fsync of the probe's file take 300 ms (instead of the disk's own,
# noisy, time) and logs how long each probe's write and fsync really took
# there (a 300 ms sleep lasts longer on a busy machine, a write in memory
# can wait for memory under a parallel suite's floods: 50-90 ms seen).
# The result must show the latency the shim measured at p50/p99/max
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
# waits on no disk other tests flood
dir=$WORK
if [ -d /dev/shm ] && [ -w /dev/shm ] && shm=$(mktemp -d /dev/shm/ws-probe-delay.XXXXXX); then
	at_exit "rm -rf '$shm'"
	dir=$shm
fi
export WS_SLOW_FSYNC_LOG=$TESTDIR/shim.log
LD_PRELOAD=$shim ws -v --size 48M -B 1M --rate 16M/s --stall 200ms \
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
# what the shim measured per probe (its write + its fsync), nearest rank
# as the tool ranks: "P50 P99 MAX MIN N"
shim=$(awk '$1 == "pwrite" { w = $2 }
	$1 == "fsync" { t[++n] = (w + $2) / 1e6; w = 0 }
	END {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
		r50 = int(n * 0.5); if (r50 < n * 0.5) r50++
		r99 = int(n * 0.99); if (r99 < n * 0.99) r99++
		printf "%.3f %.3f %.3f %.3f %d\n", t[r50], t[r99], t[n], t[1], n
	}' "$TESTDIR/shim.log") || fail "cannot read the shim's log"
echo "the shim measured (ms): p50 p99 max min n = $shim"
p50=$1 p99=$2 max=$3 count=$4
# shellcheck disable=SC2086 # the five numbers are meant to split
set -- $shim
s50=$1 s99=$2 smax=$3 smin=$4 sn=$5
# the probes the tool counted all passed through the shim (one more may
# have been cut short by the end of the run)
assert_ge "$sn" "$count" "fsync calls the shim saw"
# every probe waited the injected 300 ms at least
in_range "$smin" 300 100000 "the shim's shortest probe"
# the tool's figures are the shim's within its histogram's resolution
# (p50 and p99 are bucket mids, within 0.8%) and the clock calls around them
# (+ 2 ms)
within() { # VALUE SHIM WHAT
	in_range "$1" "$(awk -v s="$2" 'BEGIN { printf "%.3f", s * 0.99 - 0.5 }')" \
		"$(awk -v s="$2" 'BEGIN { printf "%.3f", s * 1.01 + 2 }')" "$3 (the shim measured $2 ms)"
}
within "$p50" "$s50" "p50"
within "$p99" "$s99" "p99"
within "$max" "$smax" "max"
within "$text_max" "$smax" "the summary's max"
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
