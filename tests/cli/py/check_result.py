"""Check a writestress --json result (and optionally its --csv) with
independent parsers: python's json and csv modules.  Field by field, the
way a person reading doc/result-json.md would expect them.

usage: check_result.py RESULT.json [--csv FILE] [--bytes N] [--reason R]
                       [--signal S] [--error-op OP] [--min-intervals N]
Prints what is wrong and exits 1, or exits 0.
"""
import argparse
import csv
import json
import sys

problems = []


def want(cond, what):
    if not cond:
        problems.append(what)


def check_intervals(d):
    ivs = d["intervals"]
    last_t, last_bytes, total = 0.0, 0, 0
    for i, iv in enumerate(ivs):
        want(iv["t_s"] > last_t, f"interval {i}: t_s {iv['t_s']} not after {last_t}")
        want(iv["bytes"] >= last_bytes, f"interval {i}: bytes went down")
        want(iv["bytes"] - last_bytes == iv["dbytes"], f"interval {i}: dbytes != bytes delta")
        for name, p in iv["probes"].items():
            want(p["count"] == p["n"], f"interval {i}: {name} count and n differ")
            if p["count"]:
                want(p["max_ms"] >= p["p99_ms"] >= p["p50_ms"] >= 0,
                     f"interval {i}: {name} percentiles out of order")
            else:   # a figure the interval has not got is null, never 0
                want(p["p50_ms"] is None and p["p99_ms"] is None,
                     f"interval {i}: {name} percentiles of no probe: {p}")
                want(p["max_ms"] is None or p["inflight_ms"] > 0,
                     f"interval {i}: {name} a max with no probe ended or in flight: {p}")
        last_t, last_bytes = iv["t_s"], iv["bytes"]
        total += iv["dbytes"]
    return total


def check_probes(d):
    for p in d["probes"]:
        n_sum = sum(iv["probes"].get(p["name"], {}).get("n", 0) for iv in d["intervals"])
        late = p["after_end"]["count"]
        want(n_sum + late == p["count"],
             f"{p['name']}: intervals count {n_sum} probes and {late} after the end, summary {p['count']}")
        h = sum(b[2] for b in p["histogram_ns"])
        want(h == p["count"], f"{p['name']}: histogram holds {h}, count is {p['count']}")
        for b in p["histogram_ns"]:
            want(b[0] <= b[1], f"{p['name']}: bucket edges {b}")
        raw = p["raw"]
        want(raw["p50_ms"] <= raw["p90_ms"] <= raw["p99_ms"] <= raw["p99_9_ms"] <= p["max_ms"],
             f"{p['name']}: raw percentiles out of order {raw}")
        want(p["corrected"]["count"] >= p["count"], f"{p['name']}: corrected has fewer samples")
        want(p["stalls"]["count"] >= len(p["stalls"]["records"]), f"{p['name']}: more records than stalls")


def check_phases(d, total):
    """Phases tile the whole run: from 0 to the bytes it wrote and from 0 to
    its elapsed time (the stretch after the last progress mark, the final
    wait, in the last phase), each at its bytes over its time, so a
    one-phase run's rate is the run's.  The progress series ends at most
    the pacing window, one buffer and one interval's bytes short of the
    total (the final wait's mark stands only if it credits nothing that
    was pending)."""
    ph = d["phases"]
    want(len(ph) >= 1, "no phases")
    pts = d["progress"]["points"]
    s = d["summary"]
    if ph:
        want(ph[0]["from_bytes"] == 0 and ph[0]["from_s"] == 0,
             f"first phase starts at {ph[0]['from_bytes']} bytes, {ph[0]['from_s']} s")
        want(ph[-1]["to_bytes"] == total, f"last phase ends at {ph[-1]['to_bytes']}, run wrote {total}")
        want(abs(ph[-1]["to_s"] - s["elapsed_s"]) < 1e-6,
             f"last phase ends at {ph[-1]['to_s']} s, the run at {s['elapsed_s']} s")
        c = d["config"]
        slack = (c["window"] + 1) * c["buffer_size"] + max([iv["dbytes"] for iv in d["intervals"]] + [0])
        want(pts and total - slack <= pts[-1][1] <= total,
             f"the progress series ends at {pts[-1][1] if pts else None}, run wrote {total} (slack {slack})")
        for a, b in zip(ph, ph[1:]):
            want(a["to_bytes"] == b["from_bytes"], f"phases not contiguous: {a} {b}")
        for p in ph:
            if p["to_s"] > p["from_s"]:
                r = (p["to_bytes"] - p["from_bytes"]) / (1 << 20) / (p["to_s"] - p["from_s"])
                want(abs(p["mibps"] - r) <= 1e-6 * max(r, 1),
                     f"phase {p}: not its bytes over its time ({r:.6g})")
        if len(ph) == 1:
            want(abs(ph[0]["mibps"] - s["mibps"]) <= 0.001 * s["mibps"] + 1e-9,
                 f"one phase at {ph[0]['mibps']:.4f} MiB/s, the run at {s['mibps']:.4f}")
    st = d["steady"]
    want(isinstance(st["reached"], bool) and isinstance(st["judged"], bool),
         "steady.reached or steady.judged is not a bool")
    want(st["criterion"] in ("snia", "bw-slope", "bw-dev"), f"steady.criterion {st['criterion']}")
    want(not st["reached"] or st["judged"], "steady reached but not judged")
    verdicts = [w["verdict"] for w in st["windows"]]
    want(all(v in ("precondition", "steady", "unsteady") for v in verdicts), f"window verdicts {set(verdicts)}")
    if st["reached"]:
        want(verdicts and verdicts[-1] == "steady", "steady reached but the last window did not hold")
        want(st["from_bytes"] <= st["at_bytes"] <= st["to_bytes"], f"steady stretch {st}")


def check_csv(path, d):
    raw = open(path, "rb").read()
    want(raw.endswith(b"\r\n"), "CSV lines do not end with CRLF (RFC 4180)")
    rows = list(csv.DictReader(open(path, newline="")))
    want(len(rows) == len(d["intervals"]), f"CSV has {len(rows)} rows, JSON {len(d['intervals'])} intervals")
    for row, iv in zip(rows, d["intervals"]):
        want(int(row["bytes"]) == iv["bytes"], f"CSV row {row['interval']}: bytes differ")
        want(abs(float(row["t_s"]) - iv["t_s"]) < 1e-5, f"CSV row {row['interval']}: t_s differs")
        # other processes' writers: as the JSON has them, else empty
        wr = iv.get("writers")
        top = wr["top"] if wr else []
        got = [row[k] for k in ("others_bytes", "writer1", "writer1_pid", "writer1_bytes",
                                "writer2", "writer2_pid", "writer2_bytes")]
        exp = [str(wr["others_bytes"]) if wr else ""]
        for i in range(2):
            w = top[i] if i < len(top) else None
            if not w:
                exp += ["", "", ""]
                continue
            # a command is never a formula, nor holds a control character
            cmd = "".join("?" if ord(ch) < 0x20 or ord(ch) == 0x7f else ch for ch in w["command"])
            exp += [("'" if cmd[:1] in ("=", "+", "-", "@") else "") + cmd, str(w["pid"]),
                    str(w["written_bytes"])]
        want(got == exp, f"CSV row {row['interval']}: writers {got}, the JSON's {exp}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--csv")
    ap.add_argument("--bytes", type=int)
    ap.add_argument("--reason")
    ap.add_argument("--signal")
    ap.add_argument("--error-op")
    ap.add_argument("--min-intervals", type=int, default=1)
    a = ap.parse_args()

    d = json.load(open(a.result))
    want(d["schema"] == "writestress-result/1", f"schema {d['schema']}")
    want(d["complete"] is True, "not complete")
    want(d["tool"]["name"] == "writestress", "tool name")
    want(d["command_line"][0].endswith("writestress"), f"command line {d['command_line']}")
    s = d["summary"]
    if a.bytes is not None:
        want(s["bytes"] == a.bytes, f"summary.bytes {s['bytes']} != {a.bytes}")
    if a.reason:
        want(s["exit_reason"] == a.reason, f"exit_reason {s['exit_reason']} != {a.reason}")
    if a.signal:
        want(s.get("signal") == a.signal, f"signal {s.get('signal')} != {a.signal}")
    if a.error_op:
        want(s["error"] and s["error"]["operation"] == a.error_op, f"error {s['error']}")
    else:
        want(s["error"] is None, f"unexpected error {s['error']}")
    want(len(d["intervals"]) >= a.min_intervals, f"{len(d['intervals'])} intervals")
    total = check_intervals(d)
    want(total == s["bytes"], f"intervals add up to {total}, summary says {s['bytes']}")
    want(s["elapsed_s"] > 0 and abs(s["mibps"] - s["bytes"] / 2**20 / s["elapsed_s"]) < 0.01 * s["mibps"] + 1e-9,
         "summary.mibps is not bytes / elapsed in MiB/s")
    check_probes(d)
    check_phases(d, s["bytes"])
    if a.csv:
        check_csv(a.csv, d)
    for p in problems:
        print("check_result: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
