# --until-steady ends the run once throughput holds the SNIA criterion in
# the last window: a writer capped by --rate is as steady as it gets, so a
# 1 GiB run with --precondition 0 stops after a window of rounds, with exit
# 0 and the reason in the summary and the result.  The verdict is checked
# against the rounds computed here from the raw progress marks (bytes on
# disk at each mark, linearly between two, as doc/result-json.md says):
# the final stretch's rate (its bytes over its time) and its worst
# window's range ((max - min) / average) and slope excursion
# (|least-squares slope| x (rounds - 1) / average), over every window of
# the stretch - not the tool's own figures for them.  The stretch may hold
# more than one window: the stop takes effect at the recorder's next tick,
# and a round may end before it (one run in a fresh clone's first make
# check: 6 rounds, its worst window 10.4% against the last one's 7.0%).
# It starts on a round's edge, or at a phase boundary in the round before
# (the change it follows, where the phases name it).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd python3

ws -v --size 1G -B 1M --rate 32M/s -i 100ms --until-steady --steady-round 300ms \
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
# the final stretch, from the raw marks
pts = d["progress"]["points"]
assert d["progress"]["stride_marks"] == 1, d["progress"]["stride_marks"]
def on_disk(t):
    t0, b0 = 0.0, 0
    for t1, b1, _ in pts:
        if t1 >= t:
            return b0 + (b1 - b0) * (t - t0) / (t1 - t0) if t1 > t0 else b1
        t0, b0 = t1, b1
    return b0
R, w = st["round_s"], st["window_rounds"]
MiB = 1 << 20
a, end = round(st["from_s"] / R), round(st["to_s"] / R)
if abs(st["from_s"] - a * R) >= 1e-6:
    # from a phase boundary in the round before its first (the same change)
    a = int(st["from_s"] / R) + 1
    assert any(abs(p["from_s"] - st["from_s"]) < 1e-9 for p in d["phases"][1:]), (st["from_s"], d["phases"])
assert abs(st["to_s"] - end * R) < 1e-6, (st["from_s"], st["to_s"])
assert end - a >= w, (a, end)
def figures(first):
    rates = [(on_disk((first + k + 1) * R) - on_disk((first + k) * R)) / R / MiB for k in range(w)]
    avg = sum(rates) / w
    xm = (w - 1) / 2
    slope = sum((k - xm) * (r - avg) for k, r in enumerate(rates)) / sum((k - xm) ** 2 for k in range(w))
    return rates, (max(rates) - min(rates)) / avg * 100, abs(slope) * (w - 1) / avg * 100
wins = {x["first_round"]: x for x in st["windows"]}
rng = exc = 0.0
for first in range(a, end - w + 1):
    rates, r, e = figures(first)
    print(f"window from round {first}: {', '.join(f'{x:.2f}' for x in rates)} MiB/s; range {r:.2f}%, excursion {e:.2f}%")
    assert wins[first]["verdict"] == "steady", wins[first]
    rng, exc = max(rng, r), max(exc, e)
mibps = (on_disk(st["to_s"]) - on_disk(st["from_s"])) / (st["to_s"] - st["from_s"]) / MiB
print(f"the stretch from the marks: {mibps:.2f} MiB/s, worst range {rng:.2f}%, excursion {exc:.2f}%")
print(f"the tool: {st['mibps']:.2f} MiB/s, range {st['range_pct']:.2f}%, excursion {st['excursion_pct']:.2f}%")
assert rng <= 20 and exc <= 10, (rng, exc)
assert abs(st["mibps"] - mibps) <= 0.01 * mibps, (st["mibps"], mibps)
assert abs(st["range_pct"] - rng) <= 0.5 and abs(st["excursion_pct"] - exc) <= 0.5, (st, rng, exc)
assert st["windows"][-1]["verdict"] == "steady", st["windows"][-1]
assert d["config"]["steady_max_rounds"] == 25, d["config"]
PY

