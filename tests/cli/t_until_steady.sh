# --until-steady ends the run once throughput holds the SNIA criterion:
# a writer capped by --rate is as steady as it gets, so a 1 GiB run stops
# after a window of rounds, with exit 0 and the reason in the summary and
# the result.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

ws --size 1G -B 1M --rate 32M/s -i 100ms --until-steady --steady-round 300ms \
	--steady-window 5 --no-probe --json "$TESTDIR/r.json" data
assert_status 0
assert_file_match "$OUT" '^  stopped  steady state held \(--until-steady\)$' "stop reason"
assert_file_match "$OUT" '^  steady   reached at ' "steady line"
python3 - "$TESTDIR/r.json" <<'PY' || fail "result of an --until-steady run"
import json, sys
d = json.load(open(sys.argv[1]))
s, st = d["summary"], d["steady"]
assert s["exit_reason"] == "steady", s["exit_reason"]
assert st["reached"] is True, st
# five rounds of 0.3 s: steady after 1.5 s at the earliest; well before 1 GiB
assert 1.4 <= st["at_s"] <= s["elapsed_s"], (st["at_s"], s["elapsed_s"])
assert s["elapsed_s"] < 10, s["elapsed_s"]
assert s["bytes"] < 1 << 30, s["bytes"]
assert abs(st["mibps"] - 32) < 32 * 0.1, st["mibps"]
assert st["max_dev_pct"] <= 20 and abs(st["excursion_pct"]) <= 10, st
PY
