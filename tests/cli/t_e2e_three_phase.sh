# End to end: a disk shaped like the 2009 SSD report (fast for the first
# GB, slower by 2 GB, a lower steady rate after 4 GB), scaled down: the rig
# runs at 60 MiB/s, steps to 30 MiB/s after 180 MiB and to 20 MiB/s after
# 300 MiB reached the device; writestress writes 480 MiB paced.  The result
# must name three phases, with the offsets where the rig stepped (the
# device's bytes then, from step.log) and the rates the device's own
# counters saw over each phase's span (within 10%), the slowdown where the
# first phase ends, and steady state in the last one at the device's rate
# over it.  (That the rig stepped twice - each phase's device rate at
# least 1.25 times the next one's, as 60, 30, 20 - is the premise.)
#
# -i 250ms with 1 MiB buffers: 5 to 15 buffers an interval; an interval at
# 60 MiB/s covers 15 MiB, within the 10% (18 MiB) allowed for the first
# offset.  Rounds of 1 s, 5 to a window: the middle phase (4 s) is too short
# to be steady by the SNIA rule, the last one (9 s) long enough.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R1=$((60 * MiB)) R2=$((30 * MiB)) R3=$((20 * MiB))
N1=$((180 * MiB)) N2=$((300 * MiB))
rig_up rig --size 1G --rate "$R1"
"$RIG" step "$RIG_DIR" "$RIG_MNT/data" "$N1" "$R2" --then "$N2" "$R3" >/dev/null ||
	fail "rig.sh step failed"
ws -v --size 480M -B 1M -f -i 250ms --steady-round 1s --json "$TESTDIR/r.json" "$RIG_MNT/data"
assert_status 0
assert_lines "$RIG_DIR/step.log" 2 "steps the rig took"
echo "  rig stepped: $(tr '\n' ';' <"$RIG_DIR/step.log")"
check_result "$TESTDIR/r.json" --reason bound --bytes $((480 * MiB))
pycheck "$TESTDIR/r.json" N1="$(awk 'NR == 1 { print $2 }' "$RIG_DIR/step.log")" \
	N2="$(awk 'NR == 2 { print $2 }' "$RIG_DIR/step.log")" <<'PY'
ph = d["phases"]
want(len(ph) == 3, f"three phases (got {len(ph)})")
if len(ph) == 3:
    dev = [dev_rate(p["from_s"], p["to_s"]) for p in ph]
    want(dev[0] >= 1.25 * dev[1] and dev[1] >= 1.25 * dev[2],
         "premise: the rig stepped down twice (device " + ", ".join(f"{r:.1f}" for r in dev) + " MiB/s)")
    for i, p in enumerate(ph):
        near(p["mibps"], dev[i], 10, f"phase {i + 1} MiB/s against the device over its span")
    near(ph[1]["from_bytes"], v["N1"], 10, "phase 2 starts at (bytes) against where the rig stepped")
    near(ph[2]["from_bytes"], v["N2"], 10, "phase 3 starts at (bytes) against where the rig stepped")
sd = d["slowdown"]
near(sd and sd["at_bytes"], v["N1"], 10, "slowdown.at_bytes (below 80% of phase 1) against the first step")
st = d["steady"]
want(st["reached"], "steady state reached")
if st["reached"]:
    near(st["mibps"], dev_rate(st["from_s"], st["to_s"]), 10, "steady.mibps against the device over its span")
want(st.get("at_bytes", 0) > v["N2"], "steady state found in the last phase")
PY
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_file_match "$OUT" '^ +phases +[0-9.]+ MiB/s for 0 B.* MiB/s from ' "phases in words"
phases=$(grep -m1 -E '^ +phases ' "$OUT")
assert_eq 2 "$(printf '%s\n' "$phases" | grep -o '→' | wc -l)" "phase changes named in '$phases'"
assert_file_match "$OUT" '^ +steady +from [0-9.]+ MiB \([0-9.]+ s\) to the end: [0-9.]+ MiB/s' "steady state in words"
