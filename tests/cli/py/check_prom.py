"""Check writestress --prom output (a file, or node_exporter's /metrics
served from it) with the Prometheus project's own parser
(prometheus_client, python3-prometheus-client).

    check_prom.py FILE|- [--finished 0|1] [--reason R] [--target T]
                  [--probe NAME] [--exporter] [--min-bytes N]

Fails (exit 1, saying what) unless: it parses; every metric the running
state must have is there with its type; every writestress series has the
target label; each histogram's series (a probe's, the traced device's
by direction) is cumulative, ends with +Inf and its _count is the +Inf
bucket; run_finished says what --finished says
and, once finished, writestress_ending_info says --reason.  With
--exporter the text is node_exporter's: its textfile collector read the
file without error.  Prints the bytes written, for the caller to compare.
"""
import argparse
import math
import sys

from prometheus_client.parser import text_string_to_metric_families

REQUIRED = {
    "writestress_run_info": "gauge",
    "writestress_start_time_seconds": "gauge",
    "writestress_run_finished": "gauge",
    "writestress_elapsed_seconds": "gauge",
    "writestress_written_bytes": "counter",	# the client drops _total
    "writestress_throughput_bytes_per_second": "gauge",
    "writestress_average_throughput_bytes_per_second": "gauge",
    "writestress_dirty_bytes": "gauge",
    "writestress_writeback_bytes": "gauge",
    "writestress_probe_latency_seconds": "histogram",
    "writestress_probe_stalls": "counter",
}
RUNNING = {
    "writestress_probe_inflight_seconds": "gauge",
    "writestress_probe_blocked": "gauge",
}
FINISHED = {
    "writestress_ending_info": "gauge",
    "writestress_end_time_seconds": "gauge",
    "writestress_phases": "gauge",
    "writestress_slowed": "gauge",
    "writestress_steady_state_reached": "gauge",
}


def fail(msg):
    print("check_prom: " + msg)
    sys.exit(1)


def one(fam, target):
    values = [s.value for s in fam.samples if s.labels.get("target") == target]
    if len(values) != 1:
        fail("%s{target=%r}: %d samples" % (fam.name, target, len(values)))
    return values[0]


def check_histogram(fam, target, probe=None):
    """Every series of a histogram family (its labels but le) cumulative,
    ending with +Inf, its _count the +Inf bucket; with probe, that probe's
    series must be there: its count."""
    series = {}
    for s in fam.samples:
        if s.labels.get("target") != target:
            continue
        p = tuple(sorted((k, v) for k, v in s.labels.items() if k not in ("le", "target")))
        series.setdefault(p, {"buckets": []})
        if s.name.endswith("_bucket"):
            series[p]["buckets"].append((float(s.labels["le"]), s.value))
        elif s.name.endswith("_count"):
            series[p]["count"] = s.value
        elif s.name.endswith("_sum"):
            series[p]["sum"] = s.value
    key = (("probe", probe),)
    if probe is not None and key not in series:
        fail("no latency histogram of probe %r (have %s)" % (probe, sorted(series)))
    if not series:
        fail("%s: no series" % fam.name)
    for p, h in series.items():
        b = h["buckets"]
        if len(b) < 2 or not math.isinf(b[-1][0]):
            fail("%s: buckets do not end with +Inf: %r" % (p, b))
        for (le0, c0), (le1, c1) in zip(b, b[1:]):
            if le1 <= le0 or c1 < c0:
                fail("%s: bucket le=%g holds %g after le=%g held %g" % (p, le1, c1, le0, c0))
        if h.get("count") != b[-1][1] or "sum" not in h:
            fail("%s: _count %r, +Inf %r, _sum %r" % (p, h.get("count"), b[-1][1], h.get("sum")))
    return series[key]["count"] if probe is not None else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--finished", type=int, choices=(0, 1), required=True)
    ap.add_argument("--reason")
    ap.add_argument("--target", default="data")
    ap.add_argument("--probe", default="fsync")
    ap.add_argument("--exporter", action="store_true")
    ap.add_argument("--min-bytes", type=int, default=1)
    a = ap.parse_args()

    text = sys.stdin.read() if a.file == "-" else open(a.file).read()
    try:
        fams = {f.name: f for f in text_string_to_metric_families(text)}
    except Exception as e:	# the parser's own words
        fail("does not parse: %s" % e)

    want = dict(REQUIRED)
    want.update(FINISHED if a.finished else RUNNING)
    for name, typ in want.items():
        if name not in fams:
            fail("no %s (have %s)" % (name, sorted(n for n in fams if n.startswith("writestress"))))
        if fams[name].type != typ:
            fail("%s is a %s, not a %s" % (name, fams[name].type, typ))
        if not fams[name].documentation:
            fail("%s has no HELP" % name)
    for f in fams.values():
        if f.name.startswith("writestress_"):
            for s in f.samples:
                if s.labels.get("target") != a.target:
                    fail("%s%r: target is not %r" % (s.name, s.labels, a.target))

    info = [s for s in fams["writestress_run_info"].samples]
    for key in ("device", "model", "kernel", "pace", "fs", "version"):
        if key not in info[0].labels:
            fail("writestress_run_info has no %s label: %r" % (key, info[0].labels))
    if one(fams["writestress_run_finished"], a.target) != a.finished:
        fail("writestress_run_finished is not %d" % a.finished)
    if a.finished and a.reason:
        reason = fams["writestress_ending_info"].samples[0].labels.get("reason")
        if reason != a.reason:
            fail("ended by %r, not %r" % (reason, a.reason))
    count = check_histogram(fams["writestress_probe_latency_seconds"], a.target, a.probe)
    for f in fams.values():	# the traced device's too, when traced
        if f.name.startswith("writestress_") and f.type == "histogram":
            check_histogram(f, a.target)
    if a.finished and count < 1:
        fail("no %s probe completed in the whole run" % a.probe)
    written = one(fams["writestress_written_bytes"], a.target)
    if written < a.min_bytes:
        fail("%d bytes written, expected at least %d" % (written, a.min_bytes))
    if a.exporter:
        err = fams.get("node_textfile_scrape_error")
        if not err or err.samples[0].value != 0:
            fail("node_exporter's textfile collector: scrape error %r" % (err and err.samples))
    print("%d" % written)


main()
