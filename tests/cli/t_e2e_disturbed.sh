# End to end: a run that someone else's writes disturbed says so.  On a
# disk throttled to 20 MiB/s a writestress run writes 48 MiB while a
# flooder in a cgroup of its own writes two rounds of 24 MiB, each made to
# reach the disk by a syncfs: the run's summary has a "writers" line
# naming the flooder, its JSON's culprits hold the flooder's bytes within
# 10% of its own /proc/PID/io write_bytes, and the run's own writer is in
# no row (its bytes are the run's).  A run with nobody beside it has no
# "writers" line.  The CSV names each interval's writers as the JSON does.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
need_culprit_events

rig_up rig --size 512M --rate $((20 * MiB))
test_cgroup CG flood blkio

ws -q --size 16M -B 1M --json "$TESTDIR/quiet.json" "$RIG_MNT/alone"
assert_status 0
assert_file_no_match "$OUT" '^  writers ' "a run with nobody beside it"

ws_bg -q --size 48M -B 1M --json "$TESTDIR/r.json" --csv "$TESTDIR/r.csv" "$RIG_MNT/data"
wait_for 15 "the run's first write" test -s "$RIG_MNT/data"
cgroup_writer flooder "$CG" 0 '
for r in range(2):
    for i in range(24):
        os.write(f, b"x" * 1048576)
    libc.syncfs(f)'
flood=$!
wait "$flood" || fail "the flooder failed"
ws_wait "$(scaled 60)"
assert_status 0
cat "$OUT"
assert_file_match "$OUT" "^  writers  [0-9.]+ MiB from other processes, the most by flooder \(pid $flood" "the summary's writers line"
pycheck "$TESTDIR/r.json" flood_pid="$flood" ws_pid="$WS_PID" \
	flood_io="$(sed -n 's/^write_bytes: //p' "$TESTDIR/flooder.io")" <<'EOF'
s = d["summary"]
rows = {c["pid"]: c for c in s["culprits"]}
fl = rows.get(int(v["flood_pid"]))
show("culprits", [(c["command"], c["written_bytes"]) for c in s["culprits"]])
want(fl is not None and fl["command"] == "flooder", "the flooder in the culprits")
if fl:
    near(fl["written_bytes"], v["flood_io"], 10, "the flooder's bytes against its /proc/PID/io")
want(int(v["ws_pid"]) not in rows, "the run's own writer in no row")
want(s["bytes"] == 48 << 20, "the run wrote its 48 MiB")
want(any(iv.get("writers", {}).get("top") for iv in d["intervals"]), "an interval names a writer")
EOF
check_result "$TESTDIR/r.json" --csv "$TESTDIR/r.csv" --reason bound --bytes $((48 * MiB))
