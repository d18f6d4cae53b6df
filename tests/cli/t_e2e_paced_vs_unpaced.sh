# End to end: paced (--pace window -f) against unpaced (--pace none, like
# dd) on the same rig (30 MiB/s).  Both runs report the fsync probe's
# latencies; the unpaced one shows the larger backlog: the most the writer
# was ahead of the device (its bytes so far less the bytes the device's own
# counters had seen, at an interval's end) is most of what it wrote (the
# page cache took it all at once and the disk drained it at the end), and
# many times what the paced run ever had outstanding.  (The machine's
# Dirty + Writeback would count every other writer's pages too, other
# tests' among them.)  Both report the rate the disk really had: within 5%
# of what the device's own counters saw over the run's intervals (whatever
# the disk did on this run - a first run on a fresh filesystem pays for
# the journal and first allocations, so the throttle's nominal rate is no
# yardstick), and the device saw all of it before the clock stopped.  A
# paced phase's rate is within 10% of what the device's counters saw over
# the phase's span of time.  The unpaced run's phases describe what
# write() accepted (man page): the page cache's speed, then the final wait
# for the disk, a change of more than 2x that lasts most of the run, so
# two phases at least, the first over twice the device's rate, and the
# slowdown where the second starts.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R=$((30 * MiB))
rig_up rig --size 1G --rate "$R"
for pace in window none; do
	case $pace in
	window) opts="--pace window -f" ;;
	none) opts="--pace none" ;;
	esac
	# shellcheck disable=SC2086 # two options
	ws -v --size 150M -B 1M $opts -i 250ms --json "$TESTDIR/$pace.json" "$RIG_MNT/$pace"
	assert_status 0
	assert_file_match "$OUT" "$SUMMARY_RE" "summary line (--pace $pace)"
	assert_file_match "$OUT" '^ +fsync +[1-9][0-9]* probes?, (p50 |max |[0-9])' "probe latencies in the summary (--pace $pace)"
	rm -f "$RIG_MNT/$pace"
done
python3 - "$TESTDIR/window.json" "$TESTDIR/none.json" "$R" "$CLI_DIR/../rig" <<'PY' || fail "paced and unpaced results differ in the wrong way (see above)"
import json, sys
sys.path.insert(0, sys.argv[4])
from e2e_check import device_rate
MiB = 1 << 20
paced, unpaced = (json.load(open(p)) for p in sys.argv[1:3])
R = int(sys.argv[3]) / MiB
bad = []
backlog = {}
for name, d in (("paced", paced), ("unpaced", unpaced)):
    p = d["probes"][0] if d["probes"] else None
    ok = p is not None and p["name"] == "fsync" and p["count"] > 0
    print(f"  {name}: {d['summary']['mibps']:.1f} MiB/s; fsync probes: "
          + (f"{p['count']}, p50 {p['raw']['p50_ms']:.1f} ms, p99 {p['raw']['p99_ms']:.1f} ms, max {p['max_ms']:.1f} ms" if p else "none"))
    if not ok:
        bad.append(f"{name}: no fsync probe latencies")
    s = d["summary"]
    dev = [iv["device"]["write_bytes"] for iv in d["intervals"] if "device" in iv]
    dev_mib = sum(dev) / MiB
    print(f"  {name}: the device wrote {dev_mib:.1f} MiB in the run's intervals, {dev_mib / s['elapsed_s']:.1f} MiB/s"
          f" (throttle {R:.0f})")
    if len(dev) < len(d["intervals"]) - 1:
        bad.append(f"{name}: device counters missing in the intervals")
    elif abs(s["mibps"] - dev_mib / s["elapsed_s"]) > 0.05 * (dev_mib / s["elapsed_s"]):
        bad.append(f"{name}: {s['mibps']:.1f} MiB/s reported, the device did {dev_mib / s['elapsed_s']:.1f}")
    if dev_mib < 0.98 * s["bytes"] / MiB:
        bad.append(f"{name}: the device saw {dev_mib:.1f} MiB before the clock stopped, of {s['bytes'] / MiB:.0f}")
    for ph in d["phases"]:
        span = device_rate(d, ph["from_s"], ph["to_s"])
        print(f"  {name}: phase {ph['from_bytes'] / MiB:.0f}-{ph['to_bytes'] / MiB:.0f} MiB,"
              f" {ph['from_s']:.2f}-{ph['to_s']:.2f} s: {ph['mibps']:.1f} MiB/s (the device over that span: {span:.1f})")
        if name == "paced" and abs(ph["mibps"] - span) > 0.1 * span:
            bad.append(f"{name}: a phase of {ph['mibps']:.1f} MiB/s, the device did {span:.1f} MiB/s over its span")
    if name == "unpaced":
        ph, sd, dev_rate = d["phases"], d["slowdown"], dev_mib / s["elapsed_s"]
        print(f"  {name}: phases judged: {d['phases_judged']['verdict']}; slowdown: {sd}")
        if d["phases_judged"]["verdict"] != "judged" or len(ph) < 2 or ph[0]["mibps"] < 2 * dev_rate:
            bad.append(f"{name}: the page cache's speed, then the wait for the disk, not named as phases")
        elif sd is None or sd["at_bytes"] != ph[1]["from_bytes"]:
            bad.append(f"{name}: the slowdown not where the second phase starts")
    ahead, dev_so_far = [], 0
    for iv in d["intervals"]:
        if "device" not in iv:
            continue
        dev_so_far += iv["device"]["write_bytes"]
        ahead.append(iv["bytes"] - dev_so_far)
    if not ahead:
        continue
    backlog[name] = max(ahead)
    print(f"  {name}: the writer was at most {backlog[name] / MiB:.1f} MiB ahead of the device")
if len(backlog) == 2:
    if backlog["unpaced"] < 0.5 * unpaced["summary"]["bytes"]:
        bad.append("unpaced: the backlog never reached half of what was written")
    if backlog["unpaced"] < 4 * backlog["paced"]:
        bad.append("unpaced: not at least 4 times as far ahead of the device as paced")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
for pace in window none; do
	check_result "$TESTDIR/$pace.json" --reason bound --bytes $((150 * MiB))
done
