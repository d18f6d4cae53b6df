#!/usr/bin/env python3
"""figures_agree.py DIR NAME - every figure of one run, said in each output,
agrees with the others within the precision it is printed at.

DIR/NAME.out is the run's stdout (the plain interval lines and the
summary), and NAME.json, NAME.csv, NAME.svg, NAME.prom its result files.
The JSON is the reference; each other output must say the same:

  summary line   bytes, seconds and MiB/s as printed (units: 3 or 1
                 decimals), and MiB/s = bytes over seconds
  phases         tile the run (0 to its bytes and elapsed time), each at
                 its bytes over its time; one phase is the run's rate, and
                 the "phases" line says each rate as printed, or, phases
                 not judged (phases_judged), why, with no rate and no
                 slowdown
  curve          its top no higher than the finest cells' (by_bytes), and
                 the cells cover the run's bytes
  intervals      dbytes add up to the bytes; the plain lines and the CSV
                 rows say each interval's bytes and MiB/s
  probes         the summary line's count, and each percentile it shows
                 (only those the count supports: 10 samples beyond it);
                 the Prometheus histogram's count; the CSV and plain
                 lines' per-interval counts add up to it
  Prometheus     written bytes, elapsed seconds, average throughput, phases
  SVG            the summary line it repeats, and each phase label is a
                 phase's rate
Exit 1 with every disagreement listed.
"""
import csv
import json
import math
import re
import sys

MiB = 1 << 20
GiB = 1 << 30
bad = []
checks = [0]


def want(cond, what):
    checks[0] += 1
    if not cond:
        bad.append(what)


def close(a, b, tol, what):
    want(a is not None and b is not None and abs(a - b) <= tol, f"{what}: {a} against {b} (+-{tol})")


def size_bytes(num, unit):
    return float(num) * {"B": 1, "KiB": 1 << 10, "MiB": MiB, "GiB": GiB, "TiB": 1 << 40}[unit]


def dur_ns(num, unit):
    return float(num) * {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}[unit]


def decimals(num):
    return len(num.split(".")[1]) if "." in num else 0


def main():
    d, name = sys.argv[1], sys.argv[2]
    r = json.load(open(f"{d}/{name}.json"))
    out = open(f"{d}/{name}.out", encoding="utf-8").read().splitlines()
    s = r["summary"]
    total, secs, rate = s["bytes"], s["elapsed_s"], s["mibps"]

    # the summary line
    m = next((re.match(r"^([0-9.]+) (B|KiB|MiB|GiB) written in ([0-9.]+) s \(([0-9.]+) MiB/s\)(: [a-z-].+)?$", l)
              for l in out if " written in " in l), None)
    want(m, "no summary line")
    if m:
        step = 10 ** -decimals(m.group(1))
        close(size_bytes(m.group(1), m.group(2)), total, size_bytes(step, m.group(2)) / 2 + 1, "summary line bytes")
        close(float(m.group(3)), secs, 0.0051, "summary line seconds")
        close(float(m.group(4)), rate, 0.051, "summary line MiB/s")
    close(rate, total / MiB / secs if secs else 0, 1e-6 * max(rate, 1), "summary.mibps is bytes over time")

    # phases
    ph = r["phases"]
    want(ph, "no phases")
    if ph:
        want(ph[0]["from_bytes"] == 0 and ph[0]["from_s"] == 0, f"first phase starts at {ph[0]}")
        want(ph[-1]["to_bytes"] == total, f"last phase ends at {ph[-1]['to_bytes']}, the run at {total}")
        close(ph[-1]["to_s"], secs, 1e-6, "last phase ends with the run")
        for a, b in zip(ph, ph[1:]):
            want(a["to_bytes"] == b["from_bytes"] and a["to_s"] == b["from_s"], f"phases not contiguous: {a} {b}")
        for p in ph:
            own = (p["to_bytes"] - p["from_bytes"]) / MiB / (p["to_s"] - p["from_s"])
            close(p["mibps"], own, 1e-6 * max(own, 1), "a phase's rate is its bytes over its time")
        if len(ph) == 1:
            close(ph[0]["mibps"], rate, 1e-6 * max(rate, 1), "one phase at the run's rate")
        line = next((l for l in out if l.startswith("  phases ")), "")
        said = [float(x) for x in re.findall(r"([0-9.]+) MiB/s", line)]
        verdict = r["phases_judged"]["verdict"]
        if verdict == "judged":
            want(len(said) == len(ph), f"the phases line names {len(said)} rates for {len(ph)} phases: {line}")
            for x, p in zip(said, ph):
                close(x, p["mibps"], 0.051, "a phase's rate as printed")
        else:
            # not judged: the line says why, and names no phase's rate
            words = {"too_short": "too short to judge phases", "too_many": "not judged"}
            want(words.get(verdict, "?") in line and not said,
                 f"phases {verdict}, the phases line: {line}")
            want(r["slowdown"] is None, f"phases {verdict}, yet a slowdown: {r['slowdown']}")

    # curve and cells
    cells = r["by_bytes"]["cells"]
    want(cells and cells[-1]["to_bytes"] == total, f"the cells end at {cells[-1]['to_bytes'] if cells else None}, the run at {total}")
    line = next((l for l in out if l.startswith("  curve ")), "")
    m = re.search(r"top ([0-9.]+) MiB/s", line)
    want(m, f"no curve top: {line}")
    if m and cells:
        want(float(m.group(1)) <= max(c["mibps"] for c in cells) + 0.051,
             f"the curve tops at {m.group(1)}, no cell was that fast ({max(c['mibps'] for c in cells):.2f})")

    # intervals: JSON, plain lines, CSV
    ivs = r["intervals"]
    want(sum(iv["dbytes"] for iv in ivs) == total, "the intervals' dbytes add up to the bytes")
    want(ivs and ivs[-1]["bytes"] == total, "the last interval ends at the run's bytes")
    plain = [dict(kv.split("=", 1) for kv in l.split()) for l in out if l.startswith("t=")]
    want(len(plain) == len(ivs), f"{len(plain)} plain lines for {len(ivs)} intervals")
    for p, iv in zip(plain, ivs):
        want(int(p["bytes"]) == iv["bytes"], f"plain line t={p['t']}: bytes {p['bytes']}, JSON {iv['bytes']}")
        close(float(p["mibps"]), iv["mibps"], 0.051, f"plain line t={p['t']}: mibps")
    rows = list(csv.DictReader(open(f"{d}/{name}.csv", newline="")))
    want(len(rows) == len(ivs), f"{len(rows)} CSV rows for {len(ivs)} intervals")
    for row, iv in zip(rows, ivs):
        want(int(row["bytes"]) == iv["bytes"] and int(row["dbytes"]) == iv["dbytes"], f"CSV row {row['interval']}: bytes")
        close(float(row["mibps"]), iv["mibps"], 0.0006, f"CSV row {row['interval']}: mibps")

    # probes
    prom = {}
    for l in open(f"{d}/{name}.prom"):
        if l.startswith("#") or not l.strip():
            continue
        key, _, val = l.rpartition(" ")
        prom[key] = float(val)

    def metric(n, label=""):
        return next((v for k, v in prom.items() if k.startswith(n + "{") and label in k), None)

    for p in r["probes"]:
        n = p["count"]
        line = next((l for l in out if re.match(rf"^  {re.escape(p['name'])} +[0-9]+ probes?", l)), None)
        want(line, f"no summary line for the {p['name']} probe")
        if line:
            want(int(re.search(r"([0-9]+) probes?", line).group(1)) == n, f"{p['name']}: count {line}")
            for label, key, q in (("p50", "p50_ms", 0.5), ("p90", "p90_ms", 0.9), ("p99", "p99_ms", 0.99),
                                  ("p99.9", "p99_9_ms", 0.999)):
                shown = re.search(rf"[:,] {re.escape(label)} ([0-9.]+) (ns|µs|ms|s)", line)
                need = math.ceil(10 / (1 - q) - 1e-6)
                # the verdict's line: p50 and the highest of p99 and p90
                # the sample supports (a percentile needs 10 samples beyond it)
                tail = 0.99 if n >= 1000 else 0.9 if n >= 100 else None
                expect = n > 1 and n >= need and (q == 0.5 or q == tail)
                want(bool(shown) == expect,
                     f"{p['name']}: {label} {'shown' if shown else 'not shown'} with {n} probes (it needs {need})")
                if shown:
                    v = dur_ns(shown.group(1), shown.group(2)) / 1e6
                    close(v, p["raw"][key], 0.01 * p["raw"][key] + 1e-6, f"{p['name']} {label} as printed")
        close(metric("writestress_probe_latency_seconds_count", f'probe="{p["name"]}"'), n, 0,
              f"{p['name']}: the Prometheus histogram's count")
        per_iv = sum(iv["probes"].get(p["name"], {}).get("count", 0) for iv in ivs)
        want(per_iv <= n, f"{p['name']}: intervals count {per_iv} probes, the summary {n}")
        csv_n = sum(int(row[f"{p['name']}_n"] or 0) for row in rows)
        want(csv_n == per_iv, f"{p['name']}: the CSV counts {csv_n}, the JSON intervals {per_iv}")

    # Prometheus
    close(metric("writestress_written_bytes_total"), total, 0, "Prometheus written bytes")
    close(metric("writestress_elapsed_seconds"), secs, 1e-6, "Prometheus elapsed seconds")
    close(metric("writestress_average_throughput_bytes_per_second"), rate * MiB, 0.01 + 1e-6 * rate * MiB,
          "Prometheus average throughput")
    close(metric("writestress_phases"), len(ph), 0, "Prometheus phases")

    # SVG
    svg = open(f"{d}/{name}.svg", encoding="utf-8").read()
    texts = re.findall(r"<text [^>]*class=\"([^\"]*)\"[^>]*>([^<]*)<", svg)
    m = next((t for c, t in texts if " written in " in t), None)
    want(m and any(l.startswith(m) for l in out), f"the SVG's summary line {m!r} is not the text's")
    for c, t in texts:
        if c == "lbl" and re.fullmatch(r"[0-9.]+ MiB/s", t):
            v = float(t.split()[0])
            want(any(abs(v - p["mibps"]) <= 0.051 for p in ph), f"an SVG phase label {t} is no phase's rate")

    if bad:
        for b in bad:
            print(f"  DISAGREE ({name}): {b}")
        return 1
    print(f"  {name}: {total} bytes in {secs:.3f} s, {rate:.2f} MiB/s, {len(ph)} phase(s), {len(ivs)} intervals: all agree ({checks[0]} checks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
