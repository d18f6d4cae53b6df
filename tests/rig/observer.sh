# shellcheck shell=sh
# observer.sh - the helpers of t_e2e_observer*.sh: runs with and without
# the probe on one rig, and the estimate of what the probe cost the
# writer (summary.block.observer) judged against what the device did.
# Sourced after lib.sh and e2e.sh, with a rig up.

# run NAME ARGS...: one run into $TESTDIR/NAME.json (its stdout in
# NAME.out), the device's bytes over it in $TESTDIR/NAME.dev
run()
{
	_name=$1
	shift
	_w0=$(rig_written "$RIG_DIR")
	ws -v "$@" --json "$TESTDIR/$_name.json" "$RIG_MNT/data"
	_w1=$(rig_written "$RIG_DIR")
	assert_status 0
	cp "$OUT" "$TESTDIR/$_name.out"
	echo $((_w1 - _w0)) >"$TESTDIR/$_name.dev"
}

# faster KIND N: the device's median rate without the probe over its
# median rate with it (N runs of each), to stdout
faster()
{
	python3 - "$TESTDIR" "$@" <<'PY'
import json, statistics, sys
d, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def rate(name):
    r = json.load(open(f"{d}/{name}.json"))
    return int(open(f"{d}/{name}.dev").read()) / r["summary"]["elapsed_s"]
print("%.3f" % (statistics.median(rate(f"{kind}-none{i}") for i in range(1, n + 1)) /
                statistics.median(rate(f"{kind}-probe{i}") for i in range(1, n + 1))))
PY
}

# judge KIND LO HI TOL N: the estimate (the median of N runs with the
# probe) in [LO, HI] and within TOL% of the device's median rate without
# it over its median rate with it
judge()
{
	python3 - "$TESTDIR" "$@" <<'PY' || fail "the estimate of the probes' cost is not what the device did (see above)"
import json, statistics, sys
d, kind, lo, hi, tol = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
MiB = 1 << 20
def rate(name):
    r = json.load(open(f"{d}/{name}.json"))
    return int(open(f"{d}/{name}.dev").read()) / MiB / r["summary"]["elapsed_s"], r
n = int(sys.argv[6])
with_p = [rate(f"{kind}-probe{i}") for i in range(1, n + 1)]
without = [rate(f"{kind}-none{i}") for i in range(1, n + 1)]
est = []
bad = []
for mibps, r in with_p:
    o = r["summary"]["block"]["observer"]
    print(f"  with the probe: the device {mibps:.1f} MiB/s; observer {o}")
    if not o or not o["judged"]:
        bad.append(f"not judged: {o and o['why_not']}")
        continue
    est.append(o["speedup_without"])
for mibps, r in without:
    print(f"  without: the device {mibps:.1f} MiB/s")
if est:
    measured = statistics.median(m for m, _ in without) / statistics.median(m for m, _ in with_p)
    e = statistics.median(est)
    print(f"  estimate {e:.2f}x, the device without the probe over with it {measured:.2f}x")
    if not lo <= e <= hi:
        bad.append(f"the estimate {e:.2f}x is not in [{lo}, {hi}]")
    if abs(e - measured) > tol / 100 * measured:
        bad.append(f"the estimate {e:.2f}x is not within {tol:.0f}% of the device's {measured:.2f}x")
for b in bad:
    print("  NO: " + b)
sys.exit(1 if bad else 0)
PY
}


# flush_rig ARGS...: a disk whose cache flushes cost what a disk's do, as
# rig.sh up --cached makes it (an image in the page cache over a rig in
# memory: each flush writes out what the writer cached), the file laid
# out once, the media under the cache throttled to 0.6 of the writer's
# rate in `run calibrate ARGS --no-probe` (so the probe's flushes are in
# flight about half the time on any machine); the rig's RIG_* are the
# cached one's, MEDIA_DIR the media's
flush_rig()
{
	rig_up media --size 3G
	MEDIA_DIR=$RIG_DIR
	RIG_BACKING=disk rig_up "$RIG_MNT/cached" --size 2G --cached
	ws -v -q --size 1G -B 8M --no-probe "$RIG_MNT/data"	# the file, once
	assert_status 0
	run calibrate "$@" --no-probe
	_rate=$(python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
print(int(int(open(sys.argv[2]).read()) / r['summary']['elapsed_s'] * 0.6))" \
		"$TESTDIR/calibrate.json" "$TESTDIR/calibrate.dev") ||
		fail "the calibrating run's rate could not be read"
	echo "  the media under the cache throttled to $((_rate / MiB)) MiB/s"
	"$RIG" rate "$MEDIA_DIR" "$_rate" || fail "rig.sh rate failed"
}
