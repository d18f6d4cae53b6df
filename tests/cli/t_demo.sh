# make demo's script (scripts/demo.sh) as root: in under a minute by the
# clock (the issue's budget, the machine's own writeback waits and all), on
# a slow disk of its own, the table shows the problem and its answer: the
# probe alone on the idle disk sets the target (10 times its p99, or its
# max on too few probes), the unpaced writes (--pace none) freeze the fsync
# probe for seconds while their rate is the page cache's (as the device's
# own counters in the run say: labelled, off the front), and a strategy is
# recommended whose probes hist_judge finds within the target (judged
# from the JSON's own runs).  The plot and the result are left, and the
# disk is gone afterwards.  Interrupted (Ctrl-C to its process group), it
# still takes the disk down.
# needs: alone (its minute is by the clock and its target the idle disk's
# probe: beside other tests' writeback, the matrix waits for theirs and
# the idle figure is theirs)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
# its one-minute bound and its figures are the plain build's; its code
# (matrix, the strategies, adaptive pacing) runs under the sanitizers in
# t_e2e_matrix and t_e2e_adaptive
not_under_sanitizer "make demo's bound and figures are judged in the plain build; matrix and adaptive pacing run under the sanitizers in t_e2e_matrix and t_e2e_adaptive"

DEMO=$CLI_DIR/../../scripts/demo.sh
DEMO_BOUND_S=60	# by the clock; README.md states it (tests/claims.tsv)
start=$(date +%s)
(cd "$WORK" && timeout 300 sh "$DEMO" "$WS") >"$OUT" 2>"$ERR" </dev/null
rc=$?
took=$(($(date +%s) - start))
LAST_CMD="sh scripts/demo.sh writestress"
assert_status 0
cat "$OUT"
echo "  the demo took $took s"
for s in idle none window.fadvise adaptive; do
	assert_file_match "$OUT" "^  [ *]$s " "the table's row for $s"
done
assert_file_match "$OUT" '^  recommendation: ' "a recommendation"
assert_dir_only "$WORK" writestress-demo.json writestress-demo.svg
python3 - "$WORK/writestress-demo.json" "$took" "$DEMO_BOUND_S" <<'PY' || fail "the demo does not show the problem and its answer, or took too long"
import json, sys
from math import ceil, exp, lgamma, log, log1p
MiB = 1 << 20
d = json.load(open(sys.argv[1]))
took, bound = int(sys.argv[2]), int(sys.argv[3])
bad = []
if took > bound:
    bad.append(f"the demo took {took} s, more than {bound}")
# scripts/demo.sh's: was 5, where on a quiet machine (idle 1.6-3.2 ms)
# adaptive's settling second alone put 11-17 of ~2300 probes over the
# target, 21-23 allowed; at 10 the same runs leave room
IDLE_X = 10
NONE_MAX_MS = 2000	# README.md states it (tests/claims.tsv)
rows = {r["strategy"]: r for r in d["table"]}
runs = {r["strategy"]: r["result"] for r in d["runs"]}
for k, r in rows.items():
    print(f"  {k}: {r['mibps']:.1f} MiB/s, device {r['device_mibps']:.1f}, {r['count']:.0f} probes, "
          f"{r['over_target']} over, p99 {r['p99_ms']}, max {r['max_ms']:.1f} ms, {r['verdict']}")
idle = rows["idle"]
tail = idle["p99_ms"] if idle["count"] >= 1000 else idle["max_ms"]
print(f"  target {d['target_latency_ms']:.1f} ms, idle's {tail:.2f} ms x {IDLE_X}")
if abs(d["target_latency_ms"] - IDLE_X * tail) > 0.01 * IDLE_X * tail:
    bad.append(f"target {d['target_latency_ms']} ms is not {IDLE_X} x idle's {tail} ms")
aim = runs["adaptive"]["config"]["target_latency_ms"]
if abs(aim - 0.8 * d["target_latency_ms"]) > 0.01:	# matrix.h's MATRIX_ADAPTIVE_AIM_PCT
    bad.append(f"adaptive steered at {aim} ms, not 80% of the target {d['target_latency_ms']} ms")
none = runs["none"]
dev = sum(iv["device"]["write_bytes"] for iv in none["intervals"] if "device" in iv)
dev_rate = dev / MiB / none["summary"]["elapsed_s"]
if not (none["summary"]["mibps"] > 1.1 * dev_rate and rows["none"]["page_cache"]
        and not rows["none"]["front"]):
    bad.append(f"none at {none['summary']['mibps']:.0f} MiB/s, the device {dev_rate:.1f}: not labelled as the page cache's")
if rows["none"]["max_ms"] < NONE_MAX_MS:
    bad.append(f"none's probe waited at most {rows['none']['max_ms']:.0f} ms")
rec = d["recommendation"]
def judge(n, over):
    if n >= 1000:
        return over <= n - ceil(0.99 * n - 1e-9)
    return None
if rec is None:
    bad.append("no recommendation")
else:
    res = runs[rec["strategy"]]
    p = res["probes"][0]
    target_ns = d["target_latency_ms"] * 1e6
    over = sum(c for lo, hi, c in p["histogram_ns"] if lo + (hi - lo) // 2 > target_ns)
    print(f"  recommended {rec['strategy']}: {p['count']} probes, {over} over the target")
    if judge(p["count"], over) is not True or rows[rec["strategy"]]["page_cache"]:
        bad.append(f"{rec['strategy']} recommended on {p['count']} probes, {over} over")
for b in bad:
    print("  BAD:", b)
sys.exit(1 if bad else 0)
PY

# interrupted half way, as a Ctrl-C does (to the whole process group, with
# SIGINT not ignored as a background job's is): the disk goes all the same
rm -f "$WORK"/writestress-demo.*
# emptied here, not by the background job's own redirection, which may come
# after the first look for the matrix's first line (the last run's)
: >"$OUT"
(cd "$WORK" && exec setsid env --default-signal=INT sh "$DEMO" "$WS") >"$OUT" 2>"$ERR" </dev/null &
pid=$!
_bg_pids="$_bg_pids $pid"
n=0
until grep -q '^  \[1/4\]' "$OUT" 2>/dev/null; do
	[ "$n" -ge "$(scaled 600)" ] && fail "the demo's matrix did not get going"
	sleep 0.1
	n=$((n + 1))
done
kill -INT -"$pid"
n=0
while alive "$pid" && [ "$n" -lt "$(scaled 300)" ]; do
	sleep 0.1
	n=$((n + 1))
done
alive "$pid" && fail "the demo still runs 30 s after Ctrl-C"
wait "$pid"
rc=$?
assert_status 130
[ ! -e "$WORK/writestress-demo.rig" ] || fail "the demo's disk is still there after Ctrl-C"
