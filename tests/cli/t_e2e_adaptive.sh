# End to end: --pace adaptive --target-latency 200ms on a throttled disk
# (20 MiB/s), alone, then beside a real SQLite mail store committing
# (Python's sqlite3, rollback journal, synchronous=FULL, a 2 KiB row every
# 100 ms: py/sqlite_commits.py), then overwrite.c's pacing (-f, 8 MiB
# buffers) beside the same store; 25 s alone and 8 s beside the store,
# rewriting in place a file laid out first without the throttle.
#  - adaptive settles, and from then on the fsync probe's p99 (over the
#    whole run when it settled too late to judge after) is at most 20%
#    over the target; unless it is at its floor (the least writeback it
#    keeps) because the probes were slow there too while its own chunks
#    went through in a few ms;
#  - alone it reports the rate the device's own counters saw (within 5%),
#    and that is at least 90% of what the device did under -f (the same
#    disk's best, same test);
#  - the SQLite commits' p99 is at least 2x lower beside adaptive than
#    beside -f;
#  - every interval carries the controller's state, and the summary says
#    where it settled;
#  - steered by the sqlite probe alone (--probe fsync,sqlite --steer-by
#    sqlite, target 550 ms) with --headroom 5, beside the same store: it
#    settles, sqlite steered (fsync only watched: no waits learned for
#    it), the sqlite probe's p99 after settling (over the whole run when
#    it settled too late to judge after) and the store's own commits' p99
#    are within the target, the store's at least 2x lower than beside
#    -f; the device does at least 90% of what it did under -f, the disk's
#    rate the controller learned is what the device did (its counters:
#    85-120%), and the writer is kept under 96% of what the device did;
#  - with a target no pace can meet at the floor, the run first tries
#    headroom (25%, then 50%: three 1 s periods over the target each);
#    it either meets the target with it, the attempt without headroom
#    failed over it, or says so on stderr by 16 s (was 8 s before
#    headroom was tried: three shares of three periods, after reaching
#    the floor; hence the run's 20 s, was 10), the summary and the result
#    name the floor (over the target, the sqlite probe's) and what the
#    probe took on the idle disk, and every whole interval from then on
#    holds the floor (64 KiB under writeback).  The disk is throttled to 2 MiB/s for this run: a
#    commit's four or five waits behind 64 KiB are then 32 ms each.  The
#    target is 50 ms, or twice what the sqlite probe took on the idle
#    disk in the steered run (its result says) if that is more: a target
#    under the idle time is refused before the writer starts, and that
#    time is the CPUs' as much as the disk's.
#
# Why these bounds, each from how the rig works, none widened after a
# failure of unknown cause:
#  - targets of whole throttle slices and a margin: blk-throttle hands out
#    the disk's budget in 100 ms slices, so a write that arrives when a
#    slice is spent waits for the next one whatever the writer does.  The
#    fsync target is two slices (200 ms); a SQLite commit takes several
#    syncs and their journal commits, each whole slices and a few ms of
#    its own, so its target is five slices and a half (550 ms): a target
#    of whole slices (500) would judge those few ms;
#  - the learned disk rate up to 120% of the device's: the controller
#    reads the disk's rate over one second without the cap after capped
#    ones, and blk-throttle lets a slice's unspent budget carry over up to
#    two slices, so that second may pass 1 + 2 x 0.1 s / 1 s = 1.2 times
#    the rate; 85% is the writer's own pace when the disk waited on it;
#  - the latencies judged in the plain build only: under ASan and TSan the
#    controller's and the probes' own code run several times slower on
#    two shared CPUs, and their CPU time is then part of what they
#    measure; the rate checks, which the device's counters make, run in
#    every build, and each latency check left out is named and counted;
#  - the timers beside the probes at the probes' priority (the client at
#    SCHED_FIFO 10, the whole test at nice -10): they wait for the disk,
#    as the probes do, and not for a CPU behind the suite's other tests.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

# The suite's other tests share the two CPUs: a controller or a client
# that waits for a CPU measures the CPUs, not the disk (beside a second
# whole make check, a commit now and then a slice later, a controller
# that kept moving).  This test's processes, writestress above all, run
# at nice -10 (as root; else as they are, and said).
renice -n -10 -p $$ >/dev/null 2>&1 || echo "  (not reniced: $(id -un) may not raise its priority; the runs share the CPUs evenly)"
# The SQLite client runs as writestress's probes do, SCHED_FIFO at
# priority 10 (WS_THREAD_RT_PRIO): it sleeps between commits, and then
# its commits, as the sqlite probe's, wait for the disk and not for a CPU
# (at nice -10, beside two sanitizer builds and a second adaptive test, a
# client's p99 of 596 ms where the probe's was 485: its commits waited
# behind runnable tasks).  The kernel's own I/O workers are shared by
# both and still wait as they do.
rt=
if chrt -f 10 true 2>/dev/null; then
	rt="chrt -f 10"
else
	echo "  (the SQLite client at normal priority: $(id -un) may not use SCHED_FIFO)"
fi

R=$((20 * MiB))
T_MS=200
T_SQL_MS=550
HEADROOM=5
rig_up rig --size 1G
# laid out at full speed: both runs below rewrite it in place
ws -v -q --size 320M --pace direct "$RIG_MNT/big"
assert_status 0
"$RIG" rate "$RIG_DIR" "$R" || fail "rig.sh rate failed"

# alone: the probe and the writer; then each beside the SQLite store;
# then steered by the sqlite probe beside it; then a target out of reach
for run in adaptive adaptive_sqlite window_sqlite steered_sqlite unreachable; do
	case $run in
	steered*) opts="--pace adaptive --probe fsync,sqlite --steer-by sqlite --target-latency ${T_SQL_MS}ms --headroom $HEADROOM" ;;
	unreachable)
		opts="--pace adaptive --probe sqlite --target-latency ${U_MS}ms"
		"$RIG" rate "$RIG_DIR" $((2 * MiB)) || fail "rig.sh rate failed" ;;
	adaptive*) opts="--pace adaptive --target-latency ${T_MS}ms" ;;
	window*) opts="--pace window -f" ;;
	esac
	# alone long enough to settle and be judged a while after
	secs=8
	[ "$run" = adaptive ] && secs=25
	[ "$run" = steered_sqlite ] && secs=20
	# headroom is tried, 25% then 50%, before out of reach is said
	[ "$run" = unreachable ] && secs=20
	rm -f "$TESTDIR/stop"
	sq=
	case $run in
	*_sqlite)
		# shellcheck disable=SC2086 # the command's words, or none
		$rt python3 "$CLI_DIR/py/sqlite_commits.py" "$RIG_MNT/mail.db" \
			"$TESTDIR/stop" "$TESTDIR/$run.commits" &
		sq=$!
		;;
	esac
	c0=$(cpu_waited)
	# shellcheck disable=SC2086 # the options are words
	ws -v -t "$secs" $opts --json "$TESTDIR/$run.json" "$RIG_MNT/big"
	echo "  $run: some task waited for a CPU $(( ($(cpu_waited) - c0) / 10000 / secs ))% of the run (PSI)"
	touch "$TESTDIR/stop"
	[ -z "$sq" ] || wait "$sq" || fail "the SQLite commit loop failed"
	assert_status 0
	case $run in
	adaptive)
		assert_file_match "$OUT" '^  adaptive settled after ' "where it settled, in the summary" ;;
	steered_sqlite)
		assert_file_match "$OUT" '^           steered by sqlite, which waited behind the writer about [0-9.]+ times an operation: ' \
			"who steered and its waits, in the summary"
		assert_file_match "$OUT" "^           headroom $HEADROOM%: the writer kept under [0-9.]+ MiB/s, $((100 - HEADROOM))% of the [0-9.]+ MiB/s the disk did without the cap\$" \
			"the headroom's cap, in the summary" ;;
	unreachable)
		assert_file_match "$OUT" '^           without headroom: sqlite took ≥ [0-9.]+ ms at the floor$' \
			"the attempt without headroom, in the summary"
		if python3 -c 'import json, sys
sys.exit(json.load(open(sys.argv[1]))["summary"]["adaptive"]["headroom_met_since_s"] is None)' \
			"$TESTDIR/$run.json"; then
			assert_file_match "$OUT" "^  adaptive target $U_MS(\\.0)? ms met with headroom (25|50)% from [0-9.]+ s on\$" \
				"met with headroom, in the verdict"
		else
			assert_file_match "$ERR" "^writestress: --target-latency $U_MS(\\.0)? ms is out of reach on this disk: sqlite took ≥ [0-9.]+ ms with 64\\.0 KiB under writeback, the least the writer keeps; holding that floor\$" \
				"the verdict as it happened, on stderr"
			assert_file_match "$OUT" "^  adaptive target $U_MS(\\.0)? ms out of reach on this disk: sqlite took ≥ " \
				"the verdict in the summary"
			assert_file_match "$OUT" '^           that wait is the disk.s and the probe.s own \(on the idle disk sqlite took [0-9.]+ (ms|µs)\): no pace ' \
				"what the probe took on the idle disk, beside the floor"
		fi ;;
	esac
	if [ "$run" = steered_sqlite ]; then
		# out of reach for certain, yet over what the idle disk gives
		U_MS=$(python3 -c 'import json, math, sys
idle = json.load(open(sys.argv[1]))["summary"]["adaptive"]["idle_ms"]["sqlite"]
u = max(50, math.ceil(2 * idle))
print(f"  unreachable: target {u} ms (the sqlite probe took {idle} ms on the idle disk)", file=sys.stderr)
print(u)' "$TESTDIR/$run.json") ||
			fail "no idle time of the sqlite probe in the steered run's result"
	fi
done
assert_missing "$RIG_MNT/mail.db"

# the probe's latency against the target, and the SQLite client's beside
# it, are the kernel's and the CPUs' figures: under a sanitizer, beside the
# suite's other builds on two CPUs, the probe's and the controller's own
# code wait for a CPU too (a p99 of 276 ms against 240 in one CI run under
# ASan; the client's p99 908 ms beside adaptive against 2010 beside -f,
# not 2.5x, in one under TSan); there they are judged in the plain build,
# and the rest here: each check left to the plain build is named and
# counted as a partial skip of its own
strict=1
[ -z "$SANITIZE" ] || strict=0
python3 - "$TESTDIR" "$T_MS" "$strict" "$T_SQL_MS" "$HEADROOM" "$U_MS" >"$TESTDIR/judged" <<'PY' || { cat "$TESTDIR/judged"; fail "adaptive pacing did not do what it should (see above)"; }
import json, sys
MiB = 1 << 20
d = sys.argv[1]
T = float(sys.argv[2])
strict = sys.argv[3] == "1"
T_SQL = float(sys.argv[4])
H = int(sys.argv[5])
U = float(sys.argv[6])
res = {p: json.load(open(f"{d}/{p}.json"))
       for p in ("adaptive", "adaptive_sqlite", "window_sqlite", "steered_sqlite", "unreachable")}
bad = []
left = []
# the bounds README.md and the man page state (tests/claims.tsv holds
# them equal)
P99_OVER_TARGET_PCT = 20	# the steering probe's p99 after settling
DEVICE_OF_F_PCT = 90	# the device's rate, of what it did under -f
SQLITE_X = 2		# the client's p99 beside -f, over beside adaptive
WRITER_OF_DEVICE_PCT = 96	# with --headroom: the writer, of the device
SLICE_S, LEARN_S = 0.1, 1.0	# blk-throttle's slice; the second it learns in

def strict_only(what):
    """a check of the CPUs' figures: judged here only in the plain build"""
    if not strict:
        left.append(what)
    return strict

def dev_rate(r):
    b = sum(iv["device"]["write_bytes"] for iv in r["intervals"] if "device" in iv)
    return b / MiB / r["summary"]["elapsed_s"]

def p99(xs):
    xs = sorted(xs)
    return xs[max(0, -(-99 * len(xs) // 100) - 1)]

sq = {}
for p, r in res.items():
    print(f"  {p}: {r['summary']['mibps']:.1f} MiB/s, device {dev_rate(r):.1f} MiB/s")
    if p.endswith("_sqlite"):
        lat = [float(x) for x in open(f"{d}/{p}.commits")]
        sq[p] = p99(lat) * 1000
        print(f"    SQLite commits beside it: {len(lat)}, p99 {sq[p]:.0f} ms")
    # beside the store the device also carries the store's writes
    if p == "adaptive" and abs(r["summary"]["mibps"] - dev_rate(r)) > 0.05 * dev_rate(r):
        bad.append(f"{p}: {r['summary']['mibps']:.1f} MiB/s reported, the device did {dev_rate(r):.1f}")

a = res["adaptive"]
ad = a["summary"]["adaptive"]
print(f"  adaptive: settled at {ad['settled_s']} s, {ad['chunk_bytes'] // 1024} KiB x {ad['window']};"
      f" fsync after settling: {ad['after_settling']['fsync']}")
if ad["settled_s"] is None:
    bad.append("adaptive never settled")
else:
    f = ad["after_settling"]["fsync"]
    if f["n"] < 40:
        # settled late (at 18.4 s of 25 in one CI rehearsal, a package
        # build and a second adaptive test on the two CPUs): too few
        # probes after it to judge, so the whole run's are judged
        f = next(p["raw"] for p in a["probes"] if p["name"] == "fsync")
        print(f"  adaptive: settled late, {ad['after_settling']['fsync']['n']} probes after it; the whole run's: {f}")
    if not strict_only("adaptive: the fsync probe's p99 after settling at most 20% over the target"):
        pass
    elif f["p99_ms"] > (1 + P99_OVER_TARGET_PCT / 100) * T and ad["at_floor"]:
        # the least writeback it keeps, its own chunks through in a few
        # ms, and it went there because the probes said so
        slow = [iv["t_s"] for iv in a["intervals"]
                if iv.get("probes", {}).get("fsync", {}).get("max_ms", 0) > 0.9 * T]
        print(f"  adaptive at its floor: its chunks' sojourn {ad['sojourn_ms']:.1f} ms,"
              f" probes over 90% of the target in the intervals ending at {slow[:8]}")
        if ad["sojourn_ms"] > 0.2 * T or not slow:
            bad.append(f"at its floor with fsync p99 {f['p99_ms']:.1f} ms, but the wait looks like the writer's")
    elif f["p99_ms"] > (1 + P99_OVER_TARGET_PCT / 100) * T:
        bad.append(f"fsync p99 after settling {f['p99_ms']:.1f} ms, over {(1 + P99_OVER_TARGET_PCT / 100) * T:.0f} ms")
if dev_rate(a) < DEVICE_OF_F_PCT / 100 * dev_rate(res["window_sqlite"]):
    bad.append(f"adaptive: the device did {dev_rate(a):.1f} MiB/s, under {DEVICE_OF_F_PCT}% of its {dev_rate(res['window_sqlite']):.1f} under -f")
if strict_only("the SQLite client's p99 beside adaptive at least 2x under beside -f") and \
        sq["adaptive_sqlite"] * SQLITE_X > sq["window_sqlite"]:
    bad.append(f"SQLite p99 {sq['adaptive_sqlite']:.0f} ms beside adaptive, not {SQLITE_X}x under {sq['window_sqlite']:.0f} ms beside -f")

# steered by the sqlite probe: it steered, fsync only watched
s = res["steered_sqlite"]
sa = s["summary"]["adaptive"]
print(f"  steered by {sa['steered_by']}: settled at {sa['settled_s']} s, waits {sa['waits']},"
      f" sqlite after settling: {sa['after_settling']['sqlite']}, the store's commits p99 {sq['steered_sqlite']:.0f} ms")
if sa["steered_by"] != "sqlite" or set(sa["waits"]) != {"sqlite"}:
    bad.append(f"steered by {sa['steered_by']}, waits learned for {sorted(sa['waits'])}: not the sqlite probe alone")
elif not 1 <= sa["waits"]["sqlite"] <= 16:
    bad.append(f"sqlite's waits {sa['waits']['sqlite']} outside [1, 16]")
if s["config"]["steer_by"] != ["sqlite"]:
    bad.append(f"config.steer_by {s['config']['steer_by']}")
# when it settles is the CPUs' figure too: under TSan on a loaded suite it
# settled at 16.4 s of 20, ten probes before the end (one CI run)
if sa["settled_s"] is None:
    if strict_only("steered by sqlite: it settles"):
        bad.append(f"steered by sqlite: never settled ({sa['why']})")
else:
    f = sa["after_settling"]["sqlite"]
    # settled late (two CI runs: at 16.7 and 17.5 s of 20, beside a
    # package build on the two CPUs; alone at 1-7 s): too few probes
    # after it to judge, so the whole run's sqlite probes are judged
    whole = next(p["raw"] for p in s["probes"] if p["name"] == "sqlite")
    if f["n"] < 30:
        print(f"  steered by sqlite: settled late, {f['n']} probes after it; the whole run's: {whole}")
        if strict_only("steered by sqlite: the sqlite probe's p99 within the target") and whole["p99_ms"] > T_SQL:
            bad.append(f"steered by sqlite: its p99 over the run {whole['p99_ms']:.0f} ms, over the {T_SQL:.0f} ms target")
    elif strict_only("steered by sqlite: the sqlite probe's p99 within the target") and f["p99_ms"] > T_SQL:
        bad.append(f"steered by sqlite: its p99 after settling {f['p99_ms']:.0f} ms, over the {T_SQL:.0f} ms target")
# the application's own commits, the whole run: within the target too
if strict_only(f"steered by sqlite with --headroom {H}: the store's own commits' p99 within the target") and \
        sq["steered_sqlite"] > T_SQL:
    bad.append(f"steered by sqlite with --headroom {H}: the store's commits' p99 {sq['steered_sqlite']:.0f} ms, over the {T_SQL:.0f} ms target")
# the disk's rate it learned is the device's (its own counters), within
# what a throttled disk lets a second show (1 + 2 slices / 1 s: the
# header says why); a slower one is the writer's own pace (85%); the cap
# (100 - H)% of it; and the writer kept off the whole disk
cap, disk = sa["rate_cap_mibps"], sa["disk_mibps"]
print(f"  steered by sqlite: the writer {s['summary']['mibps']:.1f} MiB/s, its cap {cap} MiB/s of the disk's {disk}")
if cap is None or disk is None:
    bad.append(f"steered by sqlite with --headroom {H}: no cap in the summary")
elif (abs(cap - (100 - H) / 100 * disk) > 0.01 * disk
      or not 0.85 * dev_rate(s) <= disk <= (1 + 2 * SLICE_S / LEARN_S) * dev_rate(s)
      or s["summary"]["mibps"] > WRITER_OF_DEVICE_PCT / 100 * dev_rate(s)):
    bad.append(f"steered by sqlite with --headroom {H}: the writer {s['summary']['mibps']:.1f} MiB/s, its cap {cap:.1f},"
               f" the disk {disk:.1f} by its account, {dev_rate(s):.1f} by the device's")
if dev_rate(s) < DEVICE_OF_F_PCT / 100 * dev_rate(res["window_sqlite"]):
    bad.append(f"steered by sqlite: the device did {dev_rate(s):.1f} MiB/s, under {DEVICE_OF_F_PCT}% of its {dev_rate(res['window_sqlite']):.1f} under -f")
if strict_only("steered by sqlite: the store's p99 at least 2x under beside -f") and \
        sq["steered_sqlite"] * SQLITE_X > sq["window_sqlite"]:
    bad.append(f"steered by sqlite: the store's p99 {sq['steered_sqlite']:.0f} ms, not {SQLITE_X}x under {sq['window_sqlite']:.0f} ms beside -f")

# out of reach: said early, the floor over the target, held from then on
u = res["unreachable"]
ua = u["summary"]["adaptive"]
o = ua["out_of_reach"]
print(f"  {U:.0f} ms target: out of reach {o}, why {ua['why']}, idle {ua['idle_ms']}")
if not 0 < ua["idle_ms"]["sqlite"] <= U:
    bad.append(f"the sqlite probe on the idle disk: {ua['idle_ms']} against the {U:.0f} ms target it was let run with")
att = ua["headroom_attempts"]
print(f"  headroom attempts {att}, met since {ua['headroom_met_since_s']}")
if not att or att[0]["headroom_pct"] != 0 or att[0]["met"] or att[0]["worst_ms"] <= U:
    bad.append(f"no failed attempt without headroom over the {U:.0f} ms target: {att}")
if ua["headroom_met_since_s"] is not None:
    # met with headroom: the attempt that met it, within the target
    if not att[-1]["met"] or att[-1]["worst_ms"] > U or o is not None and o["until_the_end"]:
        bad.append(f"met with headroom, yet {att[-1]}, out of reach {o}")
elif o is None:
    bad.append(f"a {U:.0f} ms sqlite target was neither met with headroom nor found out of reach")
else:
    # after each share's three periods over the target at the floor
    if o["since_s"] > 16:
        bad.append(f"out of reach said only at {o['since_s']:.1f} s")
    if o["probe"] != "sqlite" or o["floor_ms"] <= U:
        bad.append(f"the floor named: {o}")
    late = [iv for iv in u["intervals"] if iv["t_s"] - iv["dt_s"] >= o["since_s"]]
    held = [iv for iv in late if iv["adaptive"]["inflight_bytes"] == 64 * 1024]
    if not late or len(held) < len(late):
        bad.append(f"the floor held in {len(held)} of the {len(late)} intervals after it was said")
if res["window_sqlite"]["summary"]["adaptive"] is not None:
    bad.append("a window run has an adaptive summary")
ivs = [iv for iv in a["intervals"] if "adaptive" in iv]
if len(ivs) < len(a["intervals"]) - 1:
    bad.append(f"the controller's state in {len(ivs)} of {len(a['intervals'])} intervals")
for iv in ivs:
    s = iv["adaptive"]
    if not (64 * 1024 <= s["chunk_bytes"] <= 8 * MiB and 1 <= s["window"] <= 64):
        bad.append(f"interval {iv['t_s']}: chunk {s['chunk_bytes']} window {s['window']} out of bounds")
        break
for b in bad:
    print("  BAD:", b)
for k in left:
    print("LEFT:", k)
sys.exit(1 if bad else 0)
PY
grep -v '^LEFT: ' "$TESTDIR/judged"
while IFS= read -r check; do
	[ -n "$check" ] || continue
	skip_part sanitizer "$check: judged in the plain build (the controller and the client ran here under $SANITIZE)"
done <<EOF
$(sed -n 's/^LEFT: //p' "$TESTDIR/judged")
EOF
