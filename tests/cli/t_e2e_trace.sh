# End to end: the device's requests, traced through the kernel's
# tracepoints (--trace), add up to what the device's own counters
# (/sys/block/loopN/stat) saw over the same span: writes, bytes and mean
# time within 10% (the device's time may also run over by what tasks
# waited for a CPU: its clock keeps a preempted submitter's start), flushes
# too, no event lost; the test's own reading of
# the stat file around the run (setup and teardown included) holds at
# least what was traced.  The intervals' traced writes add up to the
# run's.  The private tracefs instance is gone after the run and after a
# Ctrl-C, one left by a dead writestress goes at the next start, and
# --no-trace traces nothing.
# Why it stalled: the flood's stalls on the throttled rig are named the
# cgroup I/O limit's; on a disk that is itself slow (a loop device whose
# image lives on the throttled rig) the flood's stalls are journal or
# queue waits (or the device's), and there the traced journal commits
# agree with jbd2's own statistics (/proc/fs/jbd2/DEV-8/info, read by the
# tool at the trace's start and end: journal.jbd2_counted) on that fresh
# filesystem: as many commits (one at each end may fall outside the
# traced span) and the logging phase's time within 10%; the test's own
# reading around the whole run (its setup's commits too) holds at least
# as many.  On the throttled rig the file's bytes are the writer's though
# kernel workers sent them (within 1% of its 96 MiB, at least 95% of
# what the device counted).  The bios' merges are the device's merge count; under the
# dirty limit the flusher's works wrote the pages its workers submitted.  A ring too small
# for the events loses some, and says so.
# needs: cpu (the lost-events run floods a disk in memory with 4 KiB writes)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

T=/sys/kernel/tracing
[ -d "$T/instances" ] || mount -t tracefs nodev "$T" 2>/dev/null ||
	skip_kernel 4.1 "no tracefs (CONFIG_FTRACE)"
[ -d "$T/events/block/block_rq_issue" ] || skip_kernel 4.1 "no block_rq tracepoints"

# ios sectors ticks of the rig's device, from its stat file
dev_writes() { awk '{ print $5, $7, $8 }' "/sys/block/$(basename "$RIG_LOOP")/stat"; }
# jbd2's own count of the filesystem's commits and their logging time
# (its average in ms, times the count)
jbd2_info() {
	awk '/transactions \(/ { n = $1 } /ms logging transaction/ { l = $1 }
	     END { sub("ms", "", l); print n, n * l }' "/proc/fs/jbd2/$(basename "$1")-8/info"
}

rig_up rig --size 512M --rate $((20 * MiB))
# a writestress that died without cleaning up left this instance: a PID
# that has ended
sh -c 'exit 0' & dead=$!
wait "$dead"
mkdir "$T/instances/writestress-$dead" || fail "cannot make a tracefs instance"
at_exit "rmdir '$T/instances/writestress-$dead' 2>/dev/null || true"

before=$(dev_writes) cpu0=$(cpu_waited)
ws_bg -v --size 96M --trace --pace none -B 1M --json "$TESTDIR/r.json" --csv "$TESTDIR/r.csv" \
	--prom "$TESTDIR/r.prom" "$RIG_MNT/data"
pid=$WS_PID
wait_for 10 "the run's tracefs instance" test -d "$T/instances/writestress-$pid"
ws_wait "$(scaled 30)"
after=$(dev_writes) cpu1=$(cpu_waited)
assert_status 0
if [ -d "$T/instances/writestress-$pid" ]; then
	fail "the run left its tracefs instance"
fi
if [ -d "$T/instances/writestress-$dead" ]; then
	fail "the dead writestress's instance is still there"
fi
pycheck "$TESTDIR/r.json" before="$before" after="$after" cpu_waited_us=$((cpu1 - cpu0)) \
	page="$(getconf PAGESIZE)" <<'PY'
b = d["summary"]["block"]
want(b is not None, "summary.block: traced")
c = b["device_counted"]
want(c is not None, "summary.block.device_counted")
tw, cw = b["writes"], c["writes"]
show("traced writes", tw)
show("the device's counters", c)
want(tw["requests"] > 50, f"a flood makes requests (traced {tw['requests']})")
# the bounds README.md and tests/README.md state (tests/claims.tsv)
TRACE_AGREE_PCT = 10	# traced against the device's own counters
CPU_SLACK_MAX_PCT = 40	# the CPU wait forgiven, at most this of the device's time
near(tw["requests"], cw["requests"], TRACE_AGREE_PCT, "write requests, traced vs the device's count")
near(tw["bytes"], cw["bytes"], TRACE_AGREE_PCT, "bytes written, traced vs the device's count")
# the device's clock starts a request at a time the kernel caches for the
# submitter's plug, and keeps while it is preempted: where tasks waited
# for a CPU (the suite's other tests) the device's time may run over the
# trace's by that wait (PSI's, the same run), never more; the trace's never
# over the device's.  The wait forgiven is at most 40% of the device's
# time, so the check can fail however loaded the machine was (a flood's
# requests take seconds each here: their time is tens of seconds, the
# machine's wait a few)
tm, cm = tw["time_ms"] / tw["requests"], cw["time_ms"] / cw["requests"]
cpu_ms = v["cpu_waited_us"] / 1000
show("CPU waited (PSI some) over the run, ms", cpu_ms)
slack = min(cpu_ms, CPU_SLACK_MAX_PCT / 100 * cw["time_ms"])
want(tm <= (1 + TRACE_AGREE_PCT / 100) * cm, f"mean write time, traced {tm:.3f} ms, not over the device's {cm:.3f} ms by {TRACE_AGREE_PCT}%")
want(cw["time_ms"] - tw["time_ms"] <= TRACE_AGREE_PCT / 100 * cw["time_ms"] + slack,
     f"mean write time, traced {tm:.3f} ms vs the device's {cm:.3f} ms: within {TRACE_AGREE_PCT}%, or short by at most the {slack:.0f} ms tasks waited for a CPU")
# a run makes a few flushes: one may complete between the trace's last
# read and the counters' (the device counts it, the trace does not)
want(0 <= c["flushes"] - b["flushes"] <= max(1, 0.1 * c["flushes"]),
     f"cache flushes, traced ({b['flushes']}) vs the device's count ({c['flushes']}): never more, at most one (or 10%) short")
# the device counts its flushes' time in ns and shows whole ms; its clock
# starts a flush when the queue kicks it (blk_kick_flush), the trace's
# when it is issued, after the queue's requeue work has run: where tasks
# waited for a CPU, the device's may run over by that wait, as for the
# writes above; the trace's never over the device's
want(b["flush_ms"] <= 1.1 * c["flush_ms"] + 1,
     f"the flushes' time, traced ({b['flush_ms']:.1f} ms), not over the device's ({c['flush_ms']:.0f} ms) by 10% and 1 ms")
fslack = min(cpu_ms, CPU_SLACK_MAX_PCT / 100 * c["flush_ms"])
want(c["flush_ms"] - b["flush_ms"] <= 0.1 * c["flush_ms"] + 1 + fslack,
     f"the flushes' time, traced ({b['flush_ms']:.1f} ms) vs the device's ({c['flush_ms']:.0f} ms): within 10% and 1 ms, or short by at most the {fslack:.0f} ms tasks waited for a CPU")
bs = sum(x["flush_ms"] for x in b["by_submitter"].values())
want(abs(bs - b["flush_ms"]) < 0.01, f"the flushes' time by submitter ({bs:.3f} ms) adds up to the run's ({b['flush_ms']:.3f} ms)")
show("flushes by submitter", {k: (x["flushes"], round(x["flush_ms"], 1)) for k, x in b["by_submitter"].items()})
want(b["lost_events"] == 0, f"no event lost (lost {b['lost_events']})")
# requests in flight when tracing began complete unmatched: a queue's worth
want(b["unmatched"] <= 4 + tw["requests"] // 100, f"completions matched (unmatched {b['unmatched']})")
# the bios behind the writes: merged as the device counted its merges
# (each counts one at the moment of merging; those between the counters'
# reading and the trace's start or end fall to one side), and each bio
# went to a request or a merge (a split one to two or more): bios and
# splits are the merged and the requests, but those in flight at the
# span's two edges
show("bios", {k: tw[k] for k in ("bios", "merged", "splits", "request_waits", "request_wait_ms", "max_request_wait_ms")})
want(tw["bios"] is not None and tw["bios"] > 0, f"the bios traced ({tw['bios']})")
want(abs(tw["merged"] - cw["merges"]) <= 0.1 * cw["merges"] + 4,
     f"merges, traced {tw['merged']} vs the device's count {cw['merges']}: within 10% (and 4 at the edges)")
want(abs(tw["bios"] + tw["splits"] - tw["merged"] - tw["requests"]) <= 0.02 * tw["bios"] + 8,
     f"each bio a request or a merge: bios {tw['bios']} + splits {tw['splits']} vs merged {tw['merged']} + requests {tw['requests']}")
# (not an fsync's empty flush request's: one a flush at most)
want(tw["request_waits"] >= 0.9 * tw["requests"] - b["flushes"] - 8,
     f"the bios' waits for a request seen ({tw['request_waits']} for {tw['requests']} requests, {b['flushes']} flushes)")
want(0 <= tw["max_request_wait_ms"] <= tw["request_wait_ms"], "the longest wait within their sum")
# the flusher's works, by reason (what they wrote: the dirty-limit run;
# this flood's 96 MiB stay under the background threshold, and the final
# fdatasync writes them from the writer, throttled ones dispatched by a
# kworker: maybe no work at all)
fl = b["flusher"]
show("flusher", fl)
want(fl is not None, "the flusher's works traced")
want(sum(fl["by_reason"].values()) == fl["works"], "the works by reason add up")
want(fl["running"] is not None and fl["running"] <= fl["works"], "running ones among them")
want(all(i["block"]["flusher"]["running"] is None for i in d["intervals"] if i.get("block")),
     "running: the run's only")
# whose data: blk-throttle's worker (or the flusher) sent every write of
# this throttled flood, never the writer's task; the file's 96 MiB, which
# the final fdatasync has the device write within the run, are the
# writer's, and the rest of the device's count (journal, metadata, the
# probe's) is under 5% of it
sub = b["by_submitter"]
show("bytes by submitter", {k: x["bytes"] for k, x in sub.items()})
near(sub["writer"]["bytes"], 96 << 20, 1, "the writer's bytes against its file's 96 MiB")
want(cw["bytes"] - 0.05 * cw["bytes"] <= sub["writer"]["bytes"] <= cw["bytes"],
     f"the writer's bytes ({sub['writer']['bytes']}) within the device's count ({cw['bytes']}) and at least 95% of it")
o = [int(a) - int(x) for x, a in zip(v["before"].split(), v["after"].split())]
want(o[1] * 512 >= tw["bytes"], f"the device wrote around the run ({o[1] * 512}) at least what was traced ({tw['bytes']})")
near(tw["bytes"], o[1] * 512, 10, "traced bytes against the test's own reading around the run")
# each issued write in the fixed buckets, queue and service: cumulative
# buckets, the intervals' adding up to the run's (which also has what
# completed after the last interval, as the bytes above: within 2%),
# every issued write within 60 s; the issued ones are the device's count
# less at most one empty flush request a flush
want(len(b["latency_bounds_ms"]) == 15 and b["latency_bounds_ms"][0] == 1 and b["latency_bounds_ms"][-1] == 60000,
     f"the buckets' bounds, 1 ms to 60 s ({b['latency_bounds_ms']})")
for key in ("queue_le", "service_le"):
    le = tw[key]
    want(all(x <= y for x, y in zip(le, le[1:])), f"{key} is cumulative ({le})")
    per = [sum(i["block"]["writes"][key][k] for i in d["intervals"] if i.get("block")) for k in range(15)]
    want(all(x <= y for x, y in zip(per, le)) and per[-1] >= 0.98 * le[-1] - 2,
         f"the intervals' {key} add up to the run's ({per} against {le})")
issued = tw["service_le"][-1]
want(tw["queue_le"][-1] == issued, f"every issued write has a queue wait and a service ({tw['queue_le'][-1]}, {issued})")
want(cw["requests"] - c["flushes"] - 0.1 * cw["requests"] <= issued <= tw["requests"],
     f"issued writes in the buckets ({issued}): the device's {cw['requests']} less at most {c['flushes']} empty flush requests")
ivs = sum(i["block"]["writes"]["bytes"] for i in d["intervals"] if i.get("block"))
want(0.98 * tw["bytes"] <= ivs <= tw["bytes"], f"the intervals' traced writes ({ivs}) add up to the run's ({tw['bytes']})")
# an interval's traced figures are what the tracer had drained when the
# recorder took them (every 50 ms), its counters read at the tick: at each
# edge what completed in one drain, or in 150 ms when a CPU of this VM
# stopped (tests/README.md), may fall on the other side
ivl = [i for i in d["intervals"] if i.get("block") and i.get("device")]
for k, i in enumerate(ivl):
    if i["dt_s"] < 0.5:
        continue
    near_ = ivl[max(0, k - 1):k + 2]
    rate = max(x["device"]["write_bytes"] / x["dt_s"] for x in near_ if x["dt_s"] > 0)
    tb, cb = i["block"]["writes"]["bytes"], i["device"]["write_bytes"]
    want(abs(tb - cb) <= TRACE_AGREE_PCT / 100 * cb + 2 * 0.15 * rate,
         f"interval at {i['t_s']:.1f} s: traced bytes {tb} vs the device's counters {cb}, within 10% and 150 ms at {rate / MiB:.1f} MiB/s each edge")
want(0 < b["write_service_p50_ms"] <= b["write_service_p99_ms"], "write service p50 <= p99")
want(b["cgroup_write_limit_bps"] == 20 * MiB, f"the rig's limit found ({b['cgroup_write_limit_bps']})")
st = d["probes"][0]["stalls"]
want(len(st["records"]) > 0, f"the flood stalled the fsync probe ({st['count']} stalls)")
for s in st["records"]:
    show("stall", f"{s['start_s']:.2f} s, {s['duration_ms']:.0f} ms: {s['cause']}: {s['why']}")
    want(s["cause"] and s["why"], "each stall explained")
want(any(s["cause"] == "cgroup I/O limit" for s in st["records"]), "the cgroup's limit named")
PY
assert_file_match "$TESTDIR/r.csv" "blk_write_requests" "the CSV's traced columns"
assert_file_match "$TESTDIR/r.prom" "^writestress_block_requests_total" "the traced Prometheus counters"
# the device's histograms parse and are whole (the Prometheus project's
# parser), and hold every issued write
if python_with_part prometheus_client python3-prometheus-client "the Prometheus parser"; then
	"$PY" "$CLI_DIR/py/check_prom.py" "$TESTDIR/r.prom" --finished 1 --target "$RIG_MNT/data" >/dev/null ||
		fail "r.prom: check_prom.py failed"
fi
assert_file_match "$TESTDIR/r.prom" '^writestress_block_request_service_seconds_count\{.*direction="write"\} [1-9]' "the device's service histogram"
assert_file_match "$TESTDIR/r.prom" '^writestress_block_queue_wait_seconds_bucket\{.*direction="write",le="\+Inf"\} [1-9]' "the device's queue histogram"

# The dirty limit holding the writer: a strict limit of 8 MiB on the rig's
# own bdi (put back at once, and at exit), an unpaced flood: the
# kernel's pauses of the writer thread (balance_dirty_pages) are most of
# the time the writer's own clock spent in write(), and never more
bdi=/sys/class/bdi/$(cat "/sys/block/$(basename "$RIG_LOOP")/dev")
if [ -w "$bdi/strict_limit" ] && [ -w "$bdi/max_bytes" ]; then
	at_exit "echo 100 >'$bdi/max_ratio'; echo 0 >'$bdi/strict_limit'"
	echo 1 >"$bdi/strict_limit"
	echo $((8 * MiB)) >"$bdi/max_bytes"
	ws -v -t 3s --pace none --no-probe --json "$TESTDIR/dirty.json" "$RIG_MNT/data"
	rc2=$rc
	echo 100 >"$bdi/max_ratio"
	echo 0 >"$bdi/strict_limit"
	rc=$rc2
	assert_status 0
	assert_file_match "$OUT" "^  writer   .*write [0-9]+% \\(of it paused by the dirty limit [0-9.]+ [mµ]?s\\)" "the writer's split names its pauses"
	pycheck "$TESTDIR/dirty.json" page="$(getconf PAGESIZE)" <<'PY'
dl = d["summary"]["block"]["dirty_limit"]
# the dirty limit starts background writeback again and again, each work
# ending once under it: the pages the works' passes wrote are the bytes
# the kernel's workers submitted (by_submitter.flusher, and .writer: the
# file's pages, whoever sent them, are the writer's data), within 10% and
# the passes at the edges (one in flight at the end has submitted part of
# its pages, one begun before the trace counts none): 8 MiB, the limit
fl = d["summary"]["block"]["flusher"]
sub = d["summary"]["block"]["by_submitter"]
fb = sub["flusher"]["bytes"] + sub["writer"]["bytes"]
show("flusher", f"{fl}; its workers submitted {fb} bytes")
want(fl["by_reason"]["background"] > 0, "background works")
want(abs(fl["pages"] * v["page"] - fb) <= 0.1 * fb + 8 * MiB * (1 + fl["running"]),
     f"the works' pages ({fl['pages']} x {v['page']}) are what the kernel's workers submitted ({fb})")
write_s = d["summary"]["writer_s"]["write"]
show("the dirty limit", f"{dl}; the writer's write() {write_s:.3f} s")
want(dl["writer_paused_ms"] == dl["paused_ms"], "the writer was the thread paused (no probe ran)")
want(dl["writer_paused_ms"] / 1000 >= 0.5 * write_s, "the pauses are most of write()'s time")
want(dl["writer_paused_ms"] / 1000 <= 1.02 * write_s + 0.01, "and within it (they happen inside write())")
PY
else
	skip_part kernel "no strict_limit/max_bytes for a bdi (Linux 6.2): the writer's dirty-limit pauses untested live"
fi

# A slow disk's commits against jbd2's statistics are the kernel's own
# figures: the plain build's business (a sanitizer build ran the same
# code above)
if [ -n "$SANITIZE" ]; then
	skip_part sanitizer "the slow disk's figures are the kernel's: judged in the plain build (the code ran above under $SANITIZE)"
else

# a disk slow by itself: ext4 on a loop device whose image is on the rig
lower_mnt=$RIG_MNT lower_loop=$RIG_LOOP
RIG_BACKING=disk rig_up rig/mnt/slow --size 256M
j0=$(jbd2_info "$RIG_LOOP")
wbt_us=$(cat "/sys/block/$(basename "$RIG_LOOP")/queue/wbt_lat_usec" 2>/dev/null || echo 0)
ws -v -t 4s --pace none -B 1M --json "$TESTDIR/slow.json" --csv "$TESTDIR/slow.csv" \
	--prom "$TESTDIR/slow.prom" "$RIG_MNT/data"
assert_status 0
j1=$(jbd2_info "$RIG_LOOP")
pycheck "$TESTDIR/slow.json" j0="$j0" j1="$j1" csv="$TESTDIR/slow.csv" wbt_us="$wbt_us" <<'PY'
import csv
# the CSV's intervals hold the JSON's figures
rows = [r for r in csv.DictReader(open(v["csv"]))]
bw = d["summary"]["block"]["writes"]
# the run's figures are taken after its last interval: a commit (the
# final fdatasync's, a few requests) may end between the two
c = sum(int(r["blk_write_requests"] or 0) for r in rows)
want(bw["requests"] - 8 <= c <= bw["requests"],
     f"CSV: the intervals' write requests ({c}) add up to the run's ({bw['requests']}), but a commit's")
c = sum(int(r["jbd2_commits"] or 0) for r in rows)
rc = d["summary"]["block"]["journal"]["commits"]
want(rc - 1 <= c <= rc, f"CSV: the intervals' commits ({c}) add up to the run's ({rc}), but one after the last interval")
b = d["summary"]["block"]
want(b["cgroup_write_limit_bps"] is None, "no limit on the slow disk itself")
# a flush here is the lower filesystem's fsync of the image: real time
c = b["device_counted"]
show("flushes", f"traced {b['flushes']} in {b['flush_ms']:.1f} ms (the longest {b['max_flush_ms']:.1f}), the device {c['flushes']} in {c['flush_ms']:.0f} ms")
want(abs(b["flush_ms"] - c["flush_ms"]) <= 0.1 * c["flush_ms"] + 1,
     f"the flushes' time, traced ({b['flush_ms']:.1f} ms) vs the device's ({c['flush_ms']:.0f} ms)")
st = d["probes"][0]["stalls"]
want(len(st["records"]) > 0, f"the flood stalled the fsync probe ({st['count']} stalls)")
for s in st["records"]:
    show("stall", f"{s['start_s']:.2f} s, {s['duration_ms']:.0f} ms in {s['wait_site']}: {s['cause']}: {s['why']}")
    want(s["cause"] in ("journal commit", "queue behind other writes", "device",
                        "writeback throttling"),
         f"a journal, queue, device or wbt wait ({s['cause']})")
    # wbt (on by default for a loop device: 2 ms) holds the probe's own
    # write when it waited in rq_qos_wait, and only then
    want((s["cause"] == "writeback throttling") == (s["wait_site"] == "rq_qos_wait"),
         f"writeback throttling named where the probe waited in rq_qos_wait ({s['wait_site']})")
    if s["wait_site"] == "jbd2_log_wait_commit":
        want(s["cause"] in ("journal commit", "queue behind other writes"),
             "waiting for a commit: the journal's or the queue's")
# the bios here too: merged as the device counted, each bio a request or
# a merge (t_e2e_trace's flood above says why the slack)
w = b["writes"]
show("bios", {k: w[k] for k in ("bios", "merged", "splits", "request_waits", "request_wait_ms", "max_request_wait_ms")})
want(abs(w["merged"] - c["writes"]["merges"]) <= 0.1 * c["writes"]["merges"] + 4,
     f"merges, traced {w['merged']} vs the device's count {c['writes']['merges']}")
want(abs(w["bios"] + w["splits"] - w["merged"] - w["requests"]) <= 0.02 * w["bios"] + 8,
     f"each bio a request or a merge: bios {w['bios']} + splits {w['splits']} vs merged {w['merged']} + requests {w['requests']}")
# writeback throttling, where it is on for the disk: its figures in the
# run and in every interval, the intervals' changes adding up to the
# run's, the CSV's too
show("wbt", (v["wbt_us"], b["wbt"]))
want((b["wbt"] is not None) == (v["wbt_us"] > 0), f"wbt's figures where it is on ({v['wbt_us']} us)")
if b["wbt"] is not None:
    ivw = [i["block"]["wbt"] for i in d["intervals"] if i.get("block")]
    want(all(x is not None for x in ivw), "in every interval")
    want(sum(x["changes"] for x in ivw) <= b["wbt"]["changes"], "the intervals' changes within the run's")
    c = sum(int(r["wbt_changes"] or 0) for r in rows)
    want(c == sum(x["changes"] for x in ivw), f"CSV: the intervals' wbt changes ({c})")
by = b["by_submitter"]
show("by submitter", {k: (x["requests"], x["bytes"]) for k, x in by.items()})
want(sum(x["requests"] for x in by.values()) == b["writes"]["requests"] + b["reads"]["requests"],
     "every request counted once by its submitter")
want(by["journal"]["requests"] > 0 and by["probes"]["requests"] > 0,
     "the journal's and the probe's own requests among them")
j = b["journal"]
n0, l0 = (int(x) for x in v["j0"].split())
n1, l1 = (int(x) for x in v["j1"].split())
jc = j["jbd2_counted"]
show("traced commits", j)
show("jbd2's own over the traced span", jc)
show("jbd2's own around the whole run (its setup and end too)", f"{n1 - n0} transactions, {l1 - l0} ms logging")
want(jc is not None, "jbd2's own statistics read over the traced span (journal.jbd2_counted)")
n, l = jc["transactions"], jc["logging_ms"]
# a commit is counted when it ends: one running at each edge of the span
want(n - 2 <= j["commits"] <= n, f"commits: as many as jbd2 counted over the span ({j['commits']} of {n}; one at each end may be outside)")
want(n <= n1 - n0, f"jbd2's count over the span ({n}) within the test's own reading around the run ({n1 - n0})")
# jbd2 prints its average in whole ms: up to 1 ms a commit besides
want(abs(j["logging_ms"] - l) <= 0.1 * l + n,
     f"logging time, traced {j['logging_ms']:.0f} ms vs jbd2's {l} ms: within 10% (and 1 ms a commit)")
PY
RIG_MNT=$lower_mnt RIG_LOOP=$lower_loop
# the traced counters in the Prometheus file parse with prometheus_client
# (the file's own rules are t_prom's) and hold the JSON's figures
python_with prometheus_client python3-prometheus-client
"$PY" - "$TESTDIR/slow.prom" "$TESTDIR/slow.json" <<'PY' || fail "the traced Prometheus counters"
import json, sys
from prometheus_client.parser import text_string_to_metric_families
d = json.load(open(sys.argv[2]))
m = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        m[(s.name, s.labels.get("direction") or s.labels.get("submitter") or "")] = s.value
w = m[("writestress_block_requests_total", "write")]
want = d["summary"]["block"]["writes"]["requests"]
print(f"  prom write requests {w}, JSON {want}; commits {m.get(('writestress_journal_commits_total', ''))}")
assert want - 8 <= w <= want, "requests: the last interval's, but a final commit's"
assert m[("writestress_journal_commits_total", "")] > 0, "commits"
assert sum(v for (n, _), v in m.items() if n == "writestress_block_submitter_service_seconds_total") > 0
PY
fi

# a Ctrl-C: the instance goes with the run
ws_bg -v -t 30s --json "$TESTDIR/int.json" "$RIG_MNT/data"
pid=$WS_PID
wait_for 10 "the run's tracefs instance" test -d "$T/instances/writestress-$pid"
wait_for 10 "10 MiB written" size_at_least "$RIG_MNT/data" $((10 * MiB))
kill -INT "$pid"
ws_wait "$(scaled 10)"
assert_status 130
if [ -d "$T/instances/writestress-$pid" ]; then
	fail "a Ctrl-C left the tracefs instance"
fi
pycheck "$TESTDIR/int.json" <<'PY'
want(d["summary"]["block"] is not None, "traced by default as root")
PY

ws -v -t 1s --no-trace --json "$TESTDIR/off.json" "$RIG_MNT/data"
assert_status 0
pycheck "$TESTDIR/off.json" <<'PY'
want(d["summary"]["block"] is None, "--no-trace: summary.block is null")
want(all("block" not in i for i in d["intervals"]), "--no-trace: no interval has block")
PY

if [ -n "$SANITIZE" ]; then
	skip_part sanitizer "a ring that overflows is the kernel's: judged in the plain build"
else
# a ring too small for the events (WS_TRACE_RING_KB: one page a CPU) on a
# fast disk (a loop device over memory, no throttle) taking 4 KiB direct
# writes: events are lost, and said: counted in the result, the figures
# short of the device's own count, and the summary says so; and each
# stall (every fsync, made 20 ms slower by the shim, is one at --stall
# 10ms) judged while events were lost says its evidence is short
shim=$HELPERS/slow_fsync.so
[ -f "$shim" ] || fail "the LD_PRELOAD shim $shim was not built"
rig_up fast --size 256M
LD_PRELOAD=$shim WS_SLOW_FSYNC_MS=20 WS_TRACE_RING_KB=4 \
	ws -v -t 2s -s 200M -B 4K --pace direct --stall 10ms --json "$TESTDIR/lost.json" "$RIG_MNT/data"
assert_status 0
assert_file_match "$OUT" "events LOST: the figures are short" "the summary says events were lost"
pycheck "$TESTDIR/lost.json" <<'PY'
b = d["summary"]["block"]
show("lost", b["lost_events"])
want(b["lost_events"] > 0, "events lost, and counted")
want(b["writes"]["requests"] < b["device_counted"]["writes"]["requests"],
     f"the traced writes ({b['writes']['requests']}) short of the device's count ({b['device_counted']['writes']['requests']})")
want(sum(i["block"]["lost_events"] for i in d["intervals"] if i.get("block")) <= b["lost_events"],
     "the intervals' lost events within the run's")
lossy = [(i["t_s"] - i["dt_s"], i["t_s"]) for i in d["intervals"] if i.get("block") and i["block"]["lost_events"]]
# those lost after the last interval (the run's end drains the ring)
if b["lost_events"] > sum(i["block"]["lost_events"] for i in d["intervals"] if i.get("block")):
    lossy.append((max([i["t_s"] for i in d["intervals"]] + [0]), d["summary"]["elapsed_s"] + 1))
recs = [r for p in d["probes"] for r in p["stalls"]["records"] if r.get("why")]
want(recs, "stalls explained")
# the tool's spans end when it takes an interval's figures, a moment
# after the interval's end: 50 ms of slack at the edges
for r in recs:
    a, z = r["start_s"], r["start_s"] + r["duration_ms"] / 1000
    near_lossy = any(f - 0.05 <= z and t + 0.05 >= a for f, t in lossy)
    inside_lossy = any(f + 0.05 <= z and t - 0.05 >= a for f, t in lossy)
    said = "the trace lost" in r["why"]
    # a stall at 0 began before the writer, maybe before the trace too
    # (the probes start first): then it is said so instead (one run: a
    # first fsync over before the tracer was set up)
    before = "it began before the trace started" in r["why"]
    want(said or before or not inside_lossy, f"the stall at {a:.3f} s, while events were lost, says its evidence is short")
    want(a == 0 or not before, f"the stall at {a:.3f} s, after the writer started, began before the trace")
    want(near_lossy or not said, f"the stall at {a:.3f} s says its evidence is short, with no events lost near it")
show("a stall's why", recs[0]["why"] if recs else None)
PY
WS_TRACE_RING_KB=0 ws -v --trace -s 1M "$RIG_MNT/data"
assert_status 1
assert_file_match "$ERR" "^writestress: WS_TRACE_RING_KB '0': not a size in KiB from 1 to 65536$" "a bad ring size named"
fi

# --trace where there is no disk to trace fails, naming why; without it a
# file in memory is simply not traced
small_tmpfs 64M
ws -v -t 1s --trace "$TMPFS/mem"
assert_status 1
assert_file_match "$ERR" "^writestress: the file is not on a block device$" "--trace on tmpfs"
ws -v -t 1s --json "$TESTDIR/mem.json" "$TMPFS/mem"
assert_status 0
assert_file_no_match "$ERR" "tracing" "a file in memory: nothing to say about tracing"

# WS_TRACE_RECORD (how the unit tests' fixtures were recorded) writes a
# new file of its own, one line an event, never an existing file
WS_TRACE_RECORD=$TESTDIR/events.txt ws --size 8M -B 1M "$RIG_MNT/data"
assert_status 0
grep -Eq '^[GQDC] [0-9]+ [0-9]+ [0-9]+ [A-Z]+$' "$TESTDIR/events.txt" ||
	fail "WS_TRACE_RECORD: no event line in $TESTDIR/events.txt"
: >"$TESTDIR/taken"
WS_TRACE_RECORD=$TESTDIR/taken ws --size 8M -B 1M "$RIG_MNT/data"
assert_status 0
assert_file_match "$ERR" "WS_TRACE_RECORD '.*taken': File exists \(not recording\)" "an existing file is not written"
if [ -s "$TESTDIR/taken" ]; then
	fail "WS_TRACE_RECORD wrote into an existing file"
fi
