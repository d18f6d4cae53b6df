# End to end: the SSD of the overwrite.c thread, scaled down: fast (40
# MiB/s) for 480 MiB, then slow (15 MiB/s) for good.  The fast stretch
# lasts eight rounds of 1.5 s, more than a window of five, so a verdict
# that took the first window that held would call 40 MiB/s the steady
# state.  Rounds of 1.5 s, not shorter: this VM's CPUs now and then stop
# for about 100 ms under a loaded suite, and a writer stopped that long
# books its progress late, a dip and a rise in two rounds that cancel out
# (the device went on meanwhile).  In rounds of 500 ms that is -20%/+20%,
# an unsteady window by the SNIA rule; in 1.5 s rounds -7%/+7%, within it.
#
#   1. A plain run: the verdict describes the end - steady from after the
#      step at the slow rate, and the fast stretch named as having
#      changed - each rate within 10% of what the device's own counters
#      saw over the same span.
#   2. --until-steady --precondition 500M: rounds before 500 MiB are shown
#      but not judged, so the run never stops in the fast stretch; it
#      stops at steady state at the slow rate.
#   3. The contrast: --precondition 0 stops inside the fast stretch, which
#      is why SNIA preconditions.
#   4. The default, 2x the 1 GiB device: the header says so, and a short
#      run is "not judged".
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R1=$((40 * MiB)) R2=$((15 * MiB)) N=$((480 * MiB))
rig_up rig --size 1G --rate "$R1"
# step: the rig back at R1, slowing to R2 once N more bytes reached it
step()
{
	"$RIG" rate "$RIG_DIR" "$R1" || fail "rig.sh rate failed"
	"$RIG" step "$RIG_DIR" "$RIG_MNT/data" "$N" "$R2" >/dev/null ||
		fail "rig.sh step failed"
}

# 1. the post-run verdict
step
ws -v --size 640M -B 1M -f -i 500ms --steady-round 1500ms --json "$TESTDIR/a.json" "$RIG_MNT/data"
assert_status 0
[ -s "$RIG_DIR/step.log" ] || fail "the rig never stepped down"
check_result "$TESTDIR/a.json" --reason bound --bytes $((640 * MiB))
# Under a sanitizer the suite runs six such builds on two CPUs: the
# writer's stops grow to 150 ms and more (a -10%/+10% dip and rise in
# 1.5 s rounds, seen once in CI), and every window of the eight fast
# rounds shares rounds 3 and 4, so one stop there leaves the fast
# stretch rightly unsteady.  Its naming is judged in the plain build;
# the windows' code runs here all the same.
judge_earlier=1
if [ -n "$SANITIZE" ]; then
	judge_earlier=0
	skip_part sanitizer "the fast stretch's eight rounds are judged in the plain build (a $SANITIZE build's CPU stops under a loaded suite make its rounds unsteady; the windows' code ran here)"
fi
pycheck "$TESTDIR/a.json" N="$N" judge_earlier="$judge_earlier" <<'PY'
st = d["steady"]
want(st["reached"], "steady at the end")
if st["reached"]:
    show("final stretch", f"{st['from_bytes'] / MiB:.0f}-{st['to_bytes'] / MiB:.0f} MiB, {st['from_s']:.2f}-{st['to_s']:.2f} s")
    near(st["mibps"], dev_rate(st["from_s"], st["to_s"]), 10, "steady rate against the device over its span")
    want(st["from_bytes"] >= 0.9 * v["N"], "the final stretch starts after the step")
e = st["earlier"] if v["judge_earlier"] else None
if v["judge_earlier"]:
    want(e is not None, "the fast stretch is named as having changed")
if e:
    near(e["mibps"], dev_rate(e["from_s"], e["to_s"]), 10, "earlier rate against the device over its span")
    want(e["to_bytes"] <= 1.1 * v["N"], "the earlier stretch ends by the step")
    if st["reached"]:
        want(e["mibps"] >= 1.8 * st["mibps"], "the earlier stretch is the fast one (40 against 15 on the rig)")
PY
# SNIA's response time beside bandwidth: each round's device writes and
# their p50/p99 (traced, issue to completion), held against the traced
# intervals over the round - the same completions, taken by the recorder
# every 500 ms, so a round's count may differ by what one take read late
# at each edge; a p99 can be no longer than the longest request of the
# round's intervals (or of their neighbours, a take late).  Summed over
# the complete rounds the edges cancel: within 1%.  An interval's
# requests include each fsync's empty flush request, never a round's:
# at most one a flush.
traced=$(python3 -c 'import json, sys; print(int(json.load(open(sys.argv[1]))["summary"]["block"] is not None))' "$TESTDIR/a.json")
if [ "$traced" != 1 ]; then
	skip_part e2e "the run was not traced (tracefs or the block tracepoints missing here): the rounds' device latency unchecked"
else
pycheck "$TESTDIR/a.json" <<'PY'
st, ivs = d["steady"], d["intervals"]
rounds = [r for r in st["rounds"] if r["device_writes"] is not None]
want(len(rounds) == len(st["rounds"]) and len(rounds) >= 10, f"every round carries the device's writes ({len(rounds)})")
def within(a, b):
    return [iv for iv in ivs if "block" in iv and a < iv["t_s"] <= b + 1e-9]
tot_w = tot_req = tot_fl = 0
for i, r in enumerate(rounds):
    ins = within(r["from_s"], r["to_s"])
    req = sum(iv["block"]["writes"]["requests"] for iv in ins)
    fl = sum(iv["block"]["flushes"] for iv in ins)
    w = r["device_writes"]
    tot_w, tot_req, tot_fl = tot_w + w, tot_req + req, tot_fl + fl
    edge = 0.15 * req + 4
    want(req - fl - edge <= w <= req + edge, f"round {i}: {w} writes, the intervals' {req} ({fl} flushes)")
    if w:
        p50, p99 = r["device_write_p50_ms"], r["device_write_p99_ms"]
        mx = max(iv["block"]["writes"]["max_service_ms"] for iv in within(r["from_s"] - 0.5, r["to_s"] + 0.5))
        want(0 < p50 <= p99 <= mx * (1 + 1 / 256) + 0.001, f"round {i}: p50 {p50} ms <= p99 {p99} ms <= the longest {mx} ms")
want(tot_req - tot_fl - 0.01 * tot_req - 4 <= tot_w <= tot_req + 0.01 * tot_req + 4,
     f"the rounds' {tot_w} writes: the intervals' {tot_req} less at most {tot_fl} empty flush requests")
dw = st.get("device_write")
want(dw is not None and dw["rounds"] >= 1, "the final stretch carries its rounds' device latency")
if dw:
    mine = [r for r in st["rounds"] if st["from_s"] - 1e-9 <= r["from_s"] and r["to_s"] <= st["to_s"] + 1e-9 and r["device_writes"]]
    want(dw["rounds"] == len(mine), f"{dw['rounds']} rounds with writes in the stretch ({len(mine)})")
    if mine:
        want(dw["p50_ms"] == [min(r["device_write_p50_ms"] for r in mine), max(r["device_write_p50_ms"] for r in mine)], f"p50 range {dw['p50_ms']}")
        want(dw["p99_ms"] == [min(r["device_write_p99_ms"] for r in mine), max(r["device_write_p99_ms"] for r in mine)], f"p99 range {dw['p99_ms']}")
PY
assert_file_match "$OUT" '^           device writes per round \((its [0-9]+ rounds|[0-9]+ of its [0-9]+ rounds had any)\): p50 [0-9.]+ (m|µ)?s–[0-9.]+ (m|µ)?s, p99 [0-9.]+ (m|µ)?s–[0-9.]+ (m|µ)?s, issue to completion$' "the steady stretch's device latency in words"
fi

# the words say the figures the JSON holds
assert_file_match "$OUT" '^  steady   from [0-9.]+ MiB \([0-9.]+ s\) to the end: [0-9.]+ MiB/s, ' "the verdict in words"
[ "$judge_earlier" = 0 ] ||
	assert_file_match "$OUT" '^           earlier steady at [0-9.]+ MiB/s for [0-9.]+ [KMGi]*B–[0-9.]+ MiB, then changed$' "the fast stretch in words"
said=$(sed -n 's/^  steady   from .* to the end: \([0-9.]*\) MiB\/s, .*/\1/p' "$OUT")
earlier=$(sed -n 's/^           earlier steady at \([0-9.]*\) MiB\/s for .*/\1/p' "$OUT")
pycheck "$TESTDIR/a.json" said="$said" earlier="$earlier" <<'PY'
st = d["steady"]
want(f"{st['mibps']:.1f}" == f"{v['said']:.1f}", f"the verdict's words say {v['said']}, the JSON {st['mibps']:.2f}")
if st["earlier"] or v["earlier"]:
    want(st["earlier"] and v["earlier"] and f"{st['earlier']['mibps']:.1f}" == f"{v['earlier']:.1f}",
         f"the fast stretch's words say {v['earlier'] or 'nothing'}, the JSON {st['earlier'] and round(st['earlier']['mibps'], 2)}")
PY

# 2. --until-steady never stops in the fast stretch
step
ws -v --size 800M -B 1M -f -i 500ms --steady-round 1500ms --until-steady --precondition 500M \
	--json "$TESTDIR/b.json" "$RIG_MNT/data"
assert_status 0
assert_file_match "$OUT" '^  steady   until steady by SNIA: .* judged after 500 MiB of preconditioning; gives up after 25 rounds$' "header"
assert_file_match "$OUT" '^  stopped  steady state held \(--until-steady\)$' "stop reason"
check_result "$TESTDIR/b.json" --reason steady
pycheck "$TESTDIR/b.json" N="$N" <<'PY'
st, s = d["steady"], d["summary"]
want(st["reached"], "steady at the end")
want(s["bytes"] < 800 * MiB, "stopped before the bound")
want(s["bytes"] > 500 * MiB, "not inside the preconditioning")
if st["reached"]:
    near(st["mibps"], dev_rate(st["from_s"], st["to_s"]), 10, "steady rate against the device over its span")
    want(st["from_bytes"] >= 500 * MiB, "judged only after the preconditioning")
pre = [w for w in st["windows"] if w["verdict"] == "precondition"]
want(len(pre) >= 6, f"the fast stretch's windows were not judged ({len(pre)})")
want(st["precondition_bytes"] == 500 * MiB, "precondition_bytes")
PY

# 3. without preconditioning it stops in the fast stretch
step
ws -v --size 800M -B 1M -f -i 500ms --steady-round 1500ms --until-steady --precondition 0 \
	--json "$TESTDIR/c.json" "$RIG_MNT/data"
assert_status 0
assert_file_match "$OUT" 'not preconditioned' "header and summary"
pycheck "$TESTDIR/c.json" N="$N" <<'PY'
st, s = d["steady"], d["summary"]
want(s["exit_reason"] == "steady", "stopped at steady state")
want(s["bytes"] < v["N"], "stopped before the step, in the fast stretch")
if st["reached"]:
    near(st["mibps"], dev_rate(st["from_s"], st["to_s"]), 10, "and called the fast rate steady (against the device over its span)")
PY

# 4. the default is twice the device's capacity
"$RIG" rate "$RIG_DIR" 0 || fail "rig.sh rate failed"
ws -v --size 32M -B 1M -i 250ms --until-steady --steady-round 500ms "$RIG_MNT/data"
assert_status 0
assert_file_match "$OUT" '^  steady   until steady by SNIA: .* judged after 2\.00 GiB of preconditioning \(2× the 1\.00 GiB device\); gives up after 25 rounds$' "default preconditioning in the header"
assert_file_match "$OUT" '^           at the first measured [0-9.]+ MiB/s, 2\.00 GiB of preconditioning take about ' "how long it takes"
assert_file_match "$OUT" '^  steady   not judged: no window of 5 rounds of 500 ms after preconditioning ' "a short run is not judged"
