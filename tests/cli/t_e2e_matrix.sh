# End to end: writestress matrix on a throttled disk (20 MiB/s): none,
# window and adaptive, 100 MiB each (about 5 s), on a 128 MiB file it lays
# out first.  The table and the JSON agree: none's fsync p99 is far (5x)
# above window's; each strategy's throughput is within 10% of a single run
# of it beside the matrix, and of what the device's own counters saw in its
# run; a recommendation, if any, meets the target; the plot shows the
# target.  Then --schedulers: a block per scheduler, each run under its
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
assert_file_match "$OUT" '^  recommendation: ' "a recommendation"
assert_file_match "$TESTDIR/m.svg" 'target 100 ms' "the target in the plot"
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
for s, r in table.items():
    print(f"  {s}: {r['mibps']:.1f} MiB/s, p99 {r['p99_ms']:.1f} ms, {r['verdict']}, front {r['front']}")
if not m["complete"] or m["schema"] != "writestress-matrix/1":
    bad.append("not a complete matrix")
if table["none"]["p99_ms"] < NONE_OVER_WINDOW_X * table["window"]["p99_ms"]:
    bad.append(f"none's p99 {table['none']['p99_ms']:.0f} ms is not far above window's {table['window']['p99_ms']:.0f} ms")
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
if rec is not None and rec["p99_ms"] > m["target_latency_ms"]:
    bad.append(f"recommendation {rec} over the target")
if table["none"]["verdict"] != "frozen":
    bad.append(f"none: {table['none']['verdict']}, not frozen")
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
print("  schedulers:", ", ".join(f"{r['setting']} {r['mibps']:.1f} MiB/s p99 {r['p99_ms']:.0f} ms" for r in m["table"]))
PY
