# End to end: paced writes to a disk throttled to 20 MiB/s are reported at
# the rate the device's own counters (sectors written, /sys/block/loopN/
# stat, in each interval) saw over the run, within 5% (JSON summary and the
# summary line), and those counters agree with the bytes the tool says it
# wrote to within 3% (the journal and the probe's writes add a little).  A
# disk of one constant rate has one phase, at the device's rate over the
# phase's span, and no slowdown.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R=$((20 * MiB))
rig_up rig --size 1G --rate "$R"
w0=$(rig_written "$RIG_DIR")
ws --size 200M -B 4M -f --json "$TESTDIR/r.json" "$RIG_MNT/data"
w1=$(rig_written "$RIG_DIR")
assert_status 0
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
check_result "$TESTDIR/r.json" --reason bound --bytes $((200 * MiB))
text=$(sed -n 's/^[0-9.]* [MG]iB written in [0-9.]* s (\([0-9.]*\) MiB\/s).*/\1/p' "$OUT")
pycheck "$TESTDIR/r.json" dev="$((w1 - w0))" text="$text" <<'PY'
RATE_PCT = 5	# README.md states it (tests/claims.tsv)
s = d["summary"]
run = dev_rate(0, s["elapsed_s"])
show("the device over the run (MiB/s)", run)
near(s["mibps"], run, RATE_PCT, "summary.mibps against the device")
near(v["text"], run, RATE_PCT, "MiB/s in the summary line against the device")
near(v["dev"], s["bytes"], 3, "bytes the device saw")
want(v["dev"] >= s["bytes"], "the device saw at least what the tool wrote")
want(len(d["phases"]) == 1, f"one phase (got {len(d['phases'])})")
ph = d["phases"][0]
near(ph["mibps"], dev_rate(ph["from_s"], ph["to_s"]), RATE_PCT, "the phase's MiB/s against the device over its span")
want(d["slowdown"] is None, f"no slowdown (got {d['slowdown']})")
PY
