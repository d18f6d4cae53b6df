# --until-steady ends the run once throughput holds the SNIA criterion in
# the last window: a writer capped by --rate is as steady as it gets, so a
# 1 GiB run with --precondition 0 stops after a window of rounds, with exit
# 0 and the reason in the summary and the result.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

ws --size 1G -B 1M --rate 32M/s -i 100ms --until-steady --steady-round 300ms \
	--steady-window 5 --precondition 0 --no-probe --json "$TESTDIR/r.json" data
assert_status 0
assert_file_match "$OUT" '^  steady   until steady by SNIA: range ≤ 20%, slope excursion ≤ 10% over 5 rounds of 300 ms, not preconditioned; gives up after 25 rounds$' "steady header"
assert_file_match "$OUT" '^  stopped  steady state held \(--until-steady\)$' "stop reason"
assert_file_match "$OUT" '^  steady   from [0-9.]+ [KMG]?i?B \([0-9.]+ m?s\) to the end: [0-9.]+ MiB/s, range [0-9]+%, slope excursion [0-9]+% \(SNIA: range ≤ 20%, slope excursion ≤ 10%; 5 rounds of 300 ms, not preconditioned\)$' "steady line"
python3 - "$TESTDIR/r.json" <<'PY' || fail "result of an --until-steady run"
import json, sys
d = json.load(open(sys.argv[1]))
s, st = d["summary"], d["steady"]
assert s["exit_reason"] == "steady", s["exit_reason"]
assert st["reached"] is True and st["judged"] is True, st
assert st["criterion"] == "snia" and st["limit_pct"] == 20 and st["slope_limit_pct"] == 10, st
assert st["precondition_bytes"] == 0, st
# five rounds of 0.3 s: steady after 1.5 s at the earliest; well before 1 GiB
assert 1.4 <= st["at_s"] <= s["elapsed_s"], (st["at_s"], s["elapsed_s"])
assert s["elapsed_s"] < 10, s["elapsed_s"]
assert s["bytes"] < 1 << 30, s["bytes"]
assert abs(st["mibps"] - 32) < 32 * 0.1, st["mibps"]
assert st["range_pct"] <= 20 and st["excursion_pct"] <= 10, st
assert st["windows"][-1]["verdict"] == "steady", st["windows"][-1]
assert d["config"]["steady_max_rounds"] == 25, d["config"]
PY

