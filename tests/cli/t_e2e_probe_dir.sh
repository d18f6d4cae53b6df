# End to end: the fsync probe on a second rig (--probe-dir) while the first
# is stressed.  Rig a is throttled to 20 MiB/s and takes the writes; rig b
# is not throttled and holds the probe file: it exists there (and not on
# a) during the run, its writes reach b's device, it is removed at the end,
# and the probes report - fast ones, as b is idle (on a they take tens to
# hundreds of ms at this rate).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

rig_up a --size 512M --rate $((20 * MiB))
A_DIR=$RIG_DIR A_MNT=$RIG_MNT
rig_up b --size 256M
B_DIR=$RIG_DIR B_MNT=$RIG_MNT
a0=$(rig_written "$A_DIR") b0=$(rig_written "$B_DIR")
ws_bg -v --size 100M -B 1M -i 250ms --probe-dir "$B_MNT" --json "$TESTDIR/r.json" "$A_MNT/data"
probe_on_b() { [ -n "$(find "$B_MNT" -maxdepth 1 -name "writestress-probe.$WS_PID.*")" ]; }
wait_for 10 "the probe's file on B" probe_on_b
wait_for 10 "an interval line" intervals_at_least 1
alive "$WS_PID" || fail "writestress ended too early"
on_b=$(find "$B_MNT" -maxdepth 1 -name "writestress-probe.$WS_PID.*")
on_a=$(find "$A_MNT" -maxdepth 1 -name "writestress-probe.*")
[ -n "$on_b" ] || fail "no probe file on rig b during the run"
[ -z "$on_a" ] || fail "a probe file on rig a: $on_a"
echo "  probe file: $on_b"
ws_wait "$(scaled 20)"
a1=$(rig_written "$A_DIR") b1=$(rig_written "$B_DIR")
assert_status 0
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_file_match "$OUT" "^ +probes +fsync: every .* in $B_MNT," "probe directory in the header"
assert_file_match "$OUT" '^ +fsync +[1-9][0-9]* probes, p50 ' "probe latencies in the summary"
for p in $on_b; do
	assert_missing "$p"
done
assert_dir_only "$B_MNT" lost+found
assert_dir_only "$A_MNT" data lost+found
check_result "$TESTDIR/r.json" --reason bound --bytes $((100 * MiB))
pycheck "$TESTDIR/r.json" a_written="$((a1 - a0))" b_written="$((b1 - b0))" <<'PY'
p = d["probes"][0]
show("fsync probes", f"{p['count']}, p50 {p['raw']['p50_ms']:.2f} ms, p99 {p['raw']['p99_ms']:.2f} ms, max {p['max_ms']:.2f} ms")
want(p["name"] == "fsync" and p["count"] >= 20, "fsync probes ran (at least 20 in 5 s)")
want(p["errors"] == 0, "no probe errors")
show("bytes written to rig a's device", v["a_written"])
want(v["a_written"] >= d["summary"]["bytes"], "the data reached rig a's device")
show("bytes written to rig b's device", v["b_written"])
want(v["b_written"] < 16 * MiB, "no data on rig b's device")
want(v["b_written"] >= p["count"] * 4096, "every probe's 4 KiB reached rig b's device")
want(p["raw"]["p50_ms"] < 50, "probes on the idle rig b are fast (p50 < 50 ms)")
PY
