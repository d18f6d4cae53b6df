"""Make results for `writestress report` tests from one real result.

usage: report_fleet.py REAL.json fleet DIR
    DIR gets a small fleet with known figures: models "Disk A" (5 results,
    one of them, a-outlier.json, at 30% of the others' MiB/s, its curve
    scaled too), "Disk B" (4 results, steady state reached, one of schema
    writestress-result/2), "Disk C" (2 results: not judged), "Disk D" (3
    results of 20 probes each, too few for a p99: d-slow.json's p99, 19
    times the others', is neither shown nor flagged), plus a matrix result
    and a report result that are not results to report.  Every judged
    figure is set, of 1200 probes, so only the planted outlier stands out.
usage: report_fleet.py REAL.json settings DIR
    DIR gets two results of "Disk S" that differ in settings that change
    the result: -B 1M -s 300M, and -t 5m (the rest at their defaults).
usage: report_fleet.py REAL.json many DIR N [DIR N]...
    each DIR gets N copies, 4 models, figures spread evenly.
"""
import copy
import json
import os
import sys


def variant(base, model, host, mibps, p99, steady=None, schema=None, scale=True,
            probes=1200):
    d = copy.deepcopy(base)
    old = d["summary"]["mibps"] or 1.0
    d["summary"]["mibps"] = mibps
    disks = d["fingerprint"]["block"].setdefault("disks", [])
    if not disks:
        disks.append({})
    disks[0]["model"] = model
    disks[0]["firmware"] = "FW-" + model[-1]
    d["system"]["hostname"] = host
    for cell in d.get("by_bytes", {}).get("cells", []) if scale else []:
        cell["mibps"] = cell["mibps"] * mibps / old
    for p in d["probes"]:
        p["raw"]["p99_ms"] = p99
        p["count"] = p["raw"]["count"] = probes
        p["stalls"]["count"] = 0
    if steady is not None:
        d["steady"]["judged"] = True
        d["steady"]["reached"] = True
        d["steady"]["mibps"] = steady
    if schema:
        d["schema"] = schema
    return d


def put(dirname, name, doc):
    with open(os.path.join(dirname, name), "w") as f:
        json.dump(doc, f)


def fleet(base, out):
    # (file, model, host, MiB/s, p99 ms, steady MiB/s, schema)
    plan = [
        ("a1.json", "Disk A", "ha1", 200.0, 5.0, None, None),
        ("a2.json", "Disk A", "ha2", 204.0, 5.2, None, None),
        ("a3.json", "Disk A", "ha3", 197.0, 4.9, None, None),
        ("a4.json", "Disk A", "ha4", 202.0, 5.1, None, None),
        ("a-outlier.json", "Disk A", "ha5", 60.0, 5.0, None, None),
        ("b1.json", "Disk B", "hb1", 500.0, 2.0, 300.0, None),
        ("b2.json", "Disk B", "hb2", 510.0, 2.1, 305.0, None),
        ("b3.json", "Disk B", "hb3", 495.0, 1.9, 298.0, None),
        ("b4-v2.json", "Disk B", "hb4", 505.0, 2.05, 302.0, "writestress-result/2"),
        ("c1.json", "Disk C", "hc1", 90.0, 40.0, None, None),
        ("c2.json", "Disk C", "hc2", 10.0, 900.0, None, None),
    ]
    for name, model, host, mibps, p99, steady, schema in plan:
        put(out, name, variant(base, model, host, mibps, p99, steady, schema))
    for name, p99 in (("d1.json", 5.0), ("d2.json", 5.1), ("d-slow.json", 95.0)):
        put(out, name, variant(base, "Disk D", "hd", 150.0, p99, probes=20))
    put(out, "matrix.json", {"schema": "writestress-matrix/1", "table": []})
    put(out, "old-report.json", {"schema": "writestress-report/1", "groups": []})
    with open(os.path.join(out, "notes.txt"), "w") as f:
        f.write("not a result\n")


def settings(base, out):
    small = variant(base, "Disk S", "hs1", 100.0, 5.0)
    small["config"].update(buffer_size=1 << 20, total_bytes=300 << 20, time_s=0)
    timed = variant(base, "Disk S", "hs2", 100.0, 5.0)
    timed["config"].update(buffer_size=8 << 20, total_bytes=None, time_s=300)
    put(out, "small.json", small)
    put(out, "timed.json", timed)


def many(base, out, n):
    # one text per model, its figures filled in per file: fast enough for
    # thousands
    texts = {}
    for m in range(4):
        d = variant(base, "Disk %d" % m, "HOST-SENTINEL", 123456.5, 654321.5, scale=False)
        texts[m] = json.dumps(d)
    for i in range(n):
        t = texts[i % 4].replace("HOST-SENTINEL", "host%04d" % i)
        t = t.replace("123456.5", repr(100.0 + (i * 37 % 50)))
        t = t.replace("654321.5", repr(3.0 + (i * 13 % 10) / 10))
        with open(os.path.join(out, "r%05d.json" % i), "w") as f:
            f.write(t)


def main():
    with open(sys.argv[1]) as f:
        base = json.load(f)
    if sys.argv[2] in ("fleet", "settings"):
        os.makedirs(sys.argv[3], exist_ok=True)
        (fleet if sys.argv[2] == "fleet" else settings)(base, sys.argv[3])
        return
    for i in range(3, len(sys.argv), 2):
        os.makedirs(sys.argv[i], exist_ok=True)
        many(base, sys.argv[i], int(sys.argv[i + 1]))


main()
