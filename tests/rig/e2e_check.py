"""Assertions of an end-to-end test on a writestress --json result.

usage: e2e_check.py RESULT.json [NAME=VALUE]... < CODE
CODE is python run with d (the parsed result), MiB, v (the NAME=VALUE
arguments as a dict: numbers, the figures the test measured itself, or
strings where VALUE is not a number), and
  near(actual, expected, pct, what)  actual within pct % of expected
  want(cond, what)                   cond holds
  show(what, value)                  print a figure for the log
  dev_rate(from_s, to_s)             MiB/s the device's own counters saw
                                     over that span (the intervals'
                                     device.write_mibps, time-weighted)
Every check prints its line; if any failed, the phases, slowdown and
steady state are printed too, and the exit status is 1.
"""
import json
import sys

MiB = 1 << 20
_bad = []


def show(what, value):
    print(f"  {what}: {value}")


def want(cond, what):
    print(f"  {what}: " + ("ok" if cond else "NO  <-- wrong"))
    if not cond:
        _bad.append(what)


def near(actual, expected, pct, what):
    ok = actual is not None and abs(actual - expected) <= abs(expected) * pct / 100
    a = "null" if actual is None else f"{actual:.6g}"
    print(f"  {what}: {a} (expected {expected:.6g} +-{pct}%)" + ("" if ok else "  <-- wrong"))
    if not ok:
        _bad.append(f"{what} is {a}, not within {pct}% of {expected:.6g}")


def device_rate(d, from_s, to_s):
    """The device's own write rate over [from_s, to_s], from its counters
    as the intervals carry them (bytes), each interval counted for the
    share of it that overlaps the span."""
    num = den = 0.0
    for iv in d["intervals"]:
        dev = iv.get("device")
        if not dev or iv["dt_s"] <= 0:
            continue
        a, b = iv["t_s"] - iv["dt_s"], iv["t_s"]
        w = min(b, to_s) - max(a, from_s)
        if w > 0:
            num += dev["write_bytes"] / MiB * w / iv["dt_s"]
            den += w
    return num / den if den else None


def explain(d):
    for p in d.get("phases", []):
        print(f"  phase {p['from_bytes'] / MiB:8.1f} - {p['to_bytes'] / MiB:8.1f} MiB"
              f"  {p['from_s']:6.2f} - {p['to_s']:6.2f} s  {p['mibps']:7.2f} MiB/s")
    print("  slowdown:", d.get("slowdown"))
    print("  steady:", d.get("steady"))


def main():
    d = json.load(open(sys.argv[1]))
    v = {}
    for a in sys.argv[2:]:
        name, _, num = a.partition("=")
        try:
            v[name] = float(num) if "." in num else int(num)
        except ValueError:
            v[name] = num    # a path, say
    code = sys.stdin.read()
    exec(compile(code, "<test>", "exec"),
         {"d": d, "v": v, "MiB": MiB, "near": near, "want": want, "show": show,
          "dev_rate": lambda a, b: device_rate(d, a, b)})
    if _bad:
        explain(d)
        for b in _bad:
            print("FAIL: " + b)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
