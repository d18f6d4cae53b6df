# End to end on xfs, which has no commit events: its log's buffers
# (iclogs) are traced as they are written (xlog_iclog_syncing to
# xlog_iclog_sync_done) and held to xfs's own count of its log writes
# (/sys/fs/xfs/DEV/stats/stats, the "log" line) as the tool read it over
# the traced span (journal.xfs_counted): as many iclogs, give or take one
# in flight at an end, and their bytes (the log records, without each
# iclog's header and padding) no more than the 512-byte blocks xfs wrote;
# the test's own reading around the whole run (setup and the final
# fsync included: under a sanitizer 4 more) holds at least as many.  On a disk slow by itself
# (xfs on a loop device whose image lives on a throttled rig, wbt off
# there so the probe's own write is not held back), paced at its speed
# (the probe's fsyncs force the log ten times a second) and in an
# unpaced flood, whose fsync stalls are explained, and one that waited for the log
# (xlog_wait_on_iclog) names the log write it waited out (with its iclogs
# where it covered half the stall, else with its share of it).  The summary
# says "xfs log written N times"; the JSON's journal is of kind xfs.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
need_cmd_as e2e mkfs.xfs

XFS_SLACK=1	# iclogs against xfs's own count; README.md states it (tests/claims.tsv)
T=/sys/kernel/tracing
[ -d "$T/instances" ] || mount -t tracefs nodev "$T" 2>/dev/null ||
	skip_kernel 4.1 "no tracefs (CONFIG_FTRACE)"
rig_up rig --size 1G --rate $((20 * MiB))
lower_mnt=$RIG_MNT lower_loop=$RIG_LOOP
RIG_BACKING=disk rig_up rig/mnt/slow --size 700M --fs xfs
[ -d "$T/events/xfs/xlog_iclog_syncing" ] ||
	skip_kernel 5.17 "no xfs iclog tracepoints (xlog_iclog_syncing)"
name=$(basename "$RIG_LOOP")
# wbt off here, put back as it was at the end (a loop device keeps its
# queue's settings for whoever attaches it next)
at_exit "echo $(cat "/sys/block/$name/queue/wbt_lat_usec") >/sys/block/$name/queue/wbt_lat_usec"
echo 0 >"/sys/block/$name/queue/wbt_lat_usec"
# xfs's own count of its log writes and their 512-byte blocks
xfs_log() { awk '$1 == "log" { print $2, $3 }' "/sys/fs/xfs/$name/stats/stats"; }

# paced at the disk's speed, the probe's fsyncs force the log ten times
# a second: many log writes to count
x0=$(xfs_log)
ws -v -t 4s -B 1M --json "$TESTDIR/p.json" "$RIG_MNT/data"
assert_status 0
x1=$(xfs_log)
pycheck "$TESTDIR/p.json" x0="$x0" x1="$x1" slack="$XFS_SLACK" <<'PY'
j = d["summary"]["block"]["journal"]
w0, b0 = (int(x) for x in v["x0"].split())
w1, b1 = (int(x) for x in v["x1"].split())
show("traced", j)
show("xfs's own", f"{w1 - w0} log writes, {b1 - b0} blocks of 512 bytes")
want(w1 - w0 >= 10, "the fsyncs forced the log")
want(j is not None and j["kind"] == "xfs", "the journal traced is xfs's log")
if j:
    c = j["xfs_counted"]
    show("xfs's own over the traced span", c)
    want(c is not None, "xfs's count read over the traced span")
    if c:
        want(c["log_writes"] - v["slack"] <= j["iclogs"] <= c["log_writes"] + v["slack"],
             f"iclogs: {j['iclogs']} traced, xfs wrote {c['log_writes']} over the same span (one may be in flight at an end)")
        want(0 < j["log_bytes"] <= c["log_blocks"] * 512 + 4096,
             f"their {j['log_bytes']} bytes within the {c['log_blocks'] * 512} xfs wrote")
        want(c["log_writes"] <= w1 - w0, "the span's count within the test's own around the run")
PY
# an unpaced flood: the probe stalls
x0=$(xfs_log)
ws -v --size 128M --pace none -B 1M --json "$TESTDIR/x.json" "$RIG_MNT/data"
assert_status 0
x1=$(xfs_log)
assert_file_match "$OUT" '^  journal  xfs log written [0-9]+ times \([0-9]+ iclogs, [0-9.]+ [KMG]?i?B\), [0-9.]+ (m|µ)?s on average, longest [0-9.]+ (m|µ)?s, [0-9.]+ (m|µ)?s in all' "the log's writes in words"
judge=1
if [ -n "$SANITIZE" ]; then
	judge=0
	skip_part sanitizer "the slow disk's stalls are the kernel's: judged in the plain build (the log's writes against xfs's count are judged here)"
fi
pycheck "$TESTDIR/x.json" x0="$x0" x1="$x1" judge="$judge" slack="$XFS_SLACK" <<'PY'
j = d["summary"]["block"]["journal"]
w0, b0 = (int(x) for x in v["x0"].split())
w1, b1 = (int(x) for x in v["x1"].split())
show("traced", j)
show("xfs's own", f"{w1 - w0} log writes, {b1 - b0} blocks of 512 bytes")
want(j is not None and j["kind"] == "xfs", "the journal traced is xfs's log")
if j:
    c = j["xfs_counted"]
    want(c is not None and c["log_writes"] - v["slack"] <= j["iclogs"] <= c["log_writes"] + v["slack"],
         f"iclogs: {j['iclogs']} traced, xfs wrote {c and c['log_writes']} over the same span")
    want(0 < j["commits"] <= j["iclogs"], "log writes of one or more iclogs")
    want(j["blocks"] == 0 and j["locked_ms"] == 0 and j["flushing_ms"] == 0, "no jbd2 phases")
    want(abs(j["logging_ms"] - j["commit_ms"]) < 0.001, "a log write is all logging")
st = d["probes"][0]["stalls"]
if v["judge"]:
    want(len(st["records"]) > 0, f"the flood stalled the fsync probe ({st['count']} stalls)")
    for s in st["records"]:
        show("stall", f"{s['start_s']:.2f} s, {s['duration_ms']:.0f} ms in {s['wait_site']}: {s['cause']}: {s['why']}")
        want(s["cause"] in ("journal commit", "queue behind other writes", "device"),
             f"a log, queue or device wait ({s['cause']})")
        if s["wait_site"] == "xlog_wait_on_iclog":
            # named with its iclogs where it covered half the stall, else
            # with its share of it (stallcause.h)
            import re
            want(re.search(r" log write \d+ ran .* \(\d+ iclogs?, ", s["why"]) or
                 re.search(r"; log write \d+ ran .*, [0-9.]+% of the stall", s["why"]),
                 f"waiting for the log: the log write named ({s['why'][:160]})")
PY
RIG_MNT=$lower_mnt RIG_LOOP=$lower_loop
