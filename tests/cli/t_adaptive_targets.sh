# --pace adaptive with several targets: each writer is steered by the
# probes of its own filesystem.  Two targets on one filesystem share its
# probes (one set, beside target 1): both controllers hear them - each
# target's summary names fsync as what steered it and the waits it
# learned for it - where before this only the first target's did and the
# second wrote unsteered.  --steer-by names what steers: with fsync and
# save running and save named, save steers both and fsync does not
# (no waits learned for it).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

for run in default save; do
	opts="--probe fsync"
	[ "$run" = save ] && opts="--probe fsync,save --steer-by save"
	# shellcheck disable=SC2086 # the options are words
	ws -q -t 3 -B 1M --pace adaptive --target-latency 500ms $opts --json "$run.json" a b
	assert_status 0
	assert_file_match "$OUT" '^  target 2 b: ' "target 2's result"
done
python3 - "$WORK" <<'PY' || fail "each target's controller steered by the probes of its filesystem"
import json, sys
w = sys.argv[1]
for run, want in (("default", "fsync"), ("save", "save")):
    r = json.load(open(f"{w}/{run}.json"))
    for t in r["targets"]:
        a = t["summary"]["adaptive"]
        assert a is not None, (run, t["number"])
        assert a["steered_by"] == want, (run, t["number"], a["steered_by"])
        assert set(a["waits"]) == {want}, (run, t["number"], a["waits"])
        assert 1 <= a["waits"][want] <= 16, (run, t["number"], a["waits"])
    assert r["config"]["steer_by"] == (None if run == "default" else ["save"]), r["config"]["steer_by"]
PY
