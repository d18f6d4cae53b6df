# End to end: writestress matrix on a throttled disk (20 MiB/s): none,
# window and adaptive, 100 MiB each (about 5 s), on a 128 MiB file it lays
# out first.  The table and the JSON agree: none's fsync tail (p99, or
# the max on too few probes) is far (5x) above window's; each strategy's
# throughput is within 10% of a single run of it beside the matrix, and of
# what the device's own counters saw in its run; every verdict is
# hist_judge's on the probes the runs' histograms hold (window's few
# probes, all held behind its window, over the target); a recommendation,
# if any, has a p99 within the target, and otherwise the table says why
# (never "recommendation: none", never "try adaptive" beside adaptive);
# the plot shows the target.  A timed none on a file that fits in memory
# is the page cache's rate, as the device's counters in its run say:
# labelled, off the front, never recommended; direct's is the disk's.
# The plot's texts keep off each other and the ticks, its legend says
# what a dot's size means (py/matrix_svg.py).  Then --schedulers: a block per scheduler, each run under its
# own, and the device's scheduler put back.  The cause column holds what
# most of each row's stalls were named in its runs' results; none's, on
# the throttled rig, the cgroup I/O limit's.  (A --dirty-bytes matrix
# changes the whole machine: t_e2e_matrix_dirty.sh, alone.)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R=$((20 * MiB))
rig_up rig --size 1G --rate "$R"
ws matrix --strategies none,window,adaptive --each 100M --target-latency 100ms \
	--file-size 128M --json "$TESTDIR/m.json" --svg "$TESTDIR/m.svg" "$RIG_MNT/big"
assert_status 0
cat "$OUT"
assert_file_match "$OUT" '^  laying .* out .128 MiB.' "the layout said"
# a recommendation, or none and why; never "recommendation: none", and
# no hint to try adaptive, which ran
assert_file_match "$OUT" '^  (no )?recommendation: ' "a recommendation or why not"
assert_file_no_match "$OUT" 'recommendation: none' "\"none\" read as a strategy"
assert_file_no_match "$OUT" 'try adaptive' "a hint to try adaptive, which ran"
assert_file_match "$TESTDIR/m.svg" 'target 100 ms' "the target in the plot"
# the plot as a reader sees it: no text over another, a legend for the
# dots, the y axis's title clear of its ticks
python3 "$CLI_DIR/py/matrix_svg.py" "$TESTDIR/m.svg" || fail "the plot's texts (above)"
# the same strategy alone, on the same file
ws -q -s 100M --pace window --file-size 128M --json "$TESTDIR/single.json" "$RIG_MNT/big"
assert_status 0
python3 - "$TESTDIR" <<'PY' || fail "the matrix's figures are not what the runs did (see above)"
import json, sys
MiB = 1 << 20
d = sys.argv[1]
m = json.load(open(f"{d}/m.json"))
single = json.load(open(f"{d}/single.json"))
bad = []
# the bounds README.md states (tests/claims.tsv)
DEVICE_PCT = 10		# a row's MiB/s against what the device did in its run
NONE_OVER_WINDOW_X = 5	# none's fsync p99 over window's
table = {r["strategy"]: r for r in m["table"]}
# the tail a row shows: p99 where its probes support one, else the max
tail_ms = {s: r["p99_ms"] if r["p99_ms"] is not None else r["max_ms"] for s, r in table.items()}
for s, r in table.items():
    print(f"  {s}: {r['mibps']:.1f} MiB/s, p99 {r['p99_ms']} ms, max {r['max_ms']:.1f} ms, {r['verdict']}, front {r['front']}")
if not m["complete"] or m["schema"] != "writestress-matrix/1":
    bad.append("not a complete matrix")
if tail_ms["none"] < NONE_OVER_WINDOW_X * tail_ms["window"]:
    bad.append(f"none's tail {tail_ms['none']:.0f} ms is not far above window's {tail_ms['window']:.0f} ms")
w, s = table["window"]["mibps"], single["summary"]["mibps"]
if abs(w - s) > 0.1 * s:
    bad.append(f"window: {w:.1f} MiB/s in the matrix, {s:.1f} alone")
for run in m["runs"]:
    res = run["result"]
    dev = sum(iv["device"]["write_bytes"] for iv in res["intervals"] if "device" in iv)
    rate = dev / MiB / res["summary"]["elapsed_s"]
    row = table[run["strategy"]]
    if abs(row["mibps"] - rate) > DEVICE_PCT / 100 * rate:
        bad.append(f"{run['strategy']}: {row['mibps']:.1f} MiB/s in the table, the device did {rate:.1f}")
rec = m["recommendation"]
if rec is not None and (rec["p99_ms"] is None or rec["p99_ms"] > m["target_latency_ms"]):
    bad.append(f"recommendation {rec} without a p99 within the target")
# the cause column: what most of the judged probe's stalls in the row's
# own results were named (the runs were traced: as root on the rig)
for strategy, row in table.items():
    causes = {}
    for run in m["runs"]:
        if run["strategy"] == strategy:
            for st in run["result"]["probes"][0]["stalls"]["records"]:
                causes[st["cause"]] = causes.get(st["cause"], 0) + 1
    print(f"  {strategy}: stall causes {causes}, column {row['stall_cause']}")
    if causes and causes.get(row["stall_cause"], 0) != max(causes.values()):
        bad.append(f"{strategy}: cause column {row['stall_cause']}, the runs' {causes}")
    if not causes and row["stall_cause"] is not None:
        bad.append(f"{strategy}: a cause without stalls")
if table["none"]["stall_cause"] != "cgroup I/O limit":
    bad.append(f"none on the throttled rig: {table['none']['stall_cause']}, not the cgroup's limit")
# every verdict is hist_judge's on the probes the runs' histograms hold
# (the judged probe, over the target: a bucket by its midpoint)
from math import lgamma, exp, log, log1p, ceil
def tail(n, p, k):
    return sum(exp(lgamma(n + 1) - lgamma(i + 1) - lgamma(n - i + 1) + i * log(p) + (n - i) * log1p(-p)) for i in range(k, n + 1))
def judge(n, over):
    within_at_most = n - ceil(0.99 * n - 1e-9)
    if not n or over > n:
        return None
    if n >= 1000:
        return over > within_at_most
    return True if over > within_at_most and tail(n, 0.01, over) < 0.01 else None
def over(run, bound_ns):
    h = run["result"]["probes"][0]["histogram_ns"]
    return sum(c for lo, hi, c in h if lo + (hi - lo) // 2 > bound_ns)
target_ns = m["target_latency_ms"] * 1e6
for s, r in table.items():
    runs = [x for x in m["runs"] if x["strategy"] == s]
    n = sum(x["result"]["probes"][0]["count"] for x in runs)
    o = sum(over(x, target_ns) for x in runs)
    f = sum(over(x, 10 * target_ns) for x in runs)
    want = "frozen" if judge(n, f) else {True: "over the target", False: "within the target", None: "not judged"}[judge(n, o)]
    print(f"  {s}: {n} probes, {o} over the target, {f} over 10x: {r['verdict']}")
    if r["verdict"] != want or r["count"] != n or r["over_target"] != o:
        bad.append(f"{s}: {r['verdict']} ({r['count']}, {r['over_target']} over), hist_judge on its runs: {want} ({n}, {o})")
    if n < 1000 and r["p99_ms"] is not None:
        bad.append(f"{s}: a p99 of {n} probes")
# window holds the probe behind its window for most of a second: every
# probe of its few over the target, which is over it, not "not judged"
w = table["window"]
if not (w["count"] < 1000 and w["verdict"] == "over the target"):
    bad.append(f"window: {w['count']} probes, {w['verdict']}: not over the target on few probes")
for b in bad:
    print("  BAD:", b)
sys.exit(1 if bad else 0)
PY

# the page cache's rate: none, timed, on a file that fits in memory,
# never waits for the disk; direct does.  Judged against what the device
# wrote in each run: none labelled and off the front, direct not
ws matrix --strategies none,direct --each 2s --file-size 32M --target-latency 100ms \
	--json "$TESTDIR/pc.json" "$RIG_MNT/pc"
assert_status 0
cat "$OUT"
assert_file_match "$OUT" '^   none .*\(page cache.s rate\)' "none's row labelled"
assert_file_match "$OUT" '^  page cache: none: .* kept off the front' "why"
assert_file_match "$OUT" '^  no recommendation: .*try adaptive' "no recommendation, and adaptive suggested: it did not run"
python3 - "$TESTDIR/pc.json" <<'PY' || fail "the page cache's row is not what the device did"
import json, sys
MiB = 1 << 20
m = json.load(open(sys.argv[1]))
table = {r["strategy"]: r for r in m["table"]}
bad = []
for run in m["runs"]:
    res = run["result"]
    dev = sum(iv["device"]["write_bytes"] for iv in res["intervals"] if "device" in iv)
    rate = dev / MiB / res["summary"]["elapsed_s"]
    row = table[run["strategy"]]
    cache = res["summary"]["mibps"] > 1.10 * rate
    print(f"  {run['strategy']}: {res['summary']['mibps']:.1f} MiB/s, the device {rate:.1f}: page_cache {row['page_cache']}, front {row['front']}")
    if row["page_cache"] != cache:
        bad.append(f"{run['strategy']}: page_cache {row['page_cache']}, the device says {cache}")
if not table["none"]["page_cache"] or table["none"]["front"] or table["none"]["ratio_to_fastest"] != 0:
    bad.append("none: not labelled, or on the front")
if table["direct"]["page_cache"] or not table["direct"]["front"]:
    bad.append("direct: its rate is the disk's and nothing beats it")
if m["recommendation"] is not None and m["recommendation"]["strategy"] == "none":
    bad.append("none recommended at the page cache's rate")
for b in bad:
    print("  BAD:", b)
sys.exit(1 if bad else 0)
PY

# --schedulers: each strategy under each scheduler of the device, and the
# device's own scheduler put back
sched=/sys/block/${RIG_LOOP#/dev/}/queue/scheduler
before=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
other=mq-deadline
[ "$before" = mq-deadline ] && other=none
grep -qw "$other" "$sched" || skip_as e2e "the loop device offers no scheduler '$other'"
ws matrix --strategies window --each 2s --schedulers "$other,$before" \
	--json "$TESTDIR/s.json" "$RIG_MNT/big"
assert_status 0
assert_file_match "$OUT" "^scheduler $other" "the first scheduler's block"
assert_eq "$before" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")" "the device's scheduler put back"
python3 - "$TESTDIR/s.json" "$other" "$before" <<'PY' || fail "the schedulers matrix is not what it should be"
import json, sys
m = json.load(open(sys.argv[1]))
want = sys.argv[2:4]
assert m["setting_kind"] == "scheduler" and m["settings"] == want, (m["setting_kind"], m["settings"])
assert [r["setting"] for r in m["table"]] == want, [r["setting"] for r in m["table"]]
for run, s in zip(m["runs"], want):
    cl = run["result"]["command_line"]
    assert "--scheduler" in cl and s in cl, cl
print("  schedulers:", ", ".join(f"{r['setting']} {r['mibps']:.1f} MiB/s max {r['max_ms']:.0f} ms" for r in m["table"]))
PY
