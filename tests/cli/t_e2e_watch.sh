# End to end: writestress watch names who froze the probes.  On a disk
# throttled to 20 MiB/s, a flooder (three rounds of 48 MiB, each made
# to reach the disk by a syncfs) and an innocent slow writer (16 KiB and
# an fsync every half second), each in a cgroup of its own, write beside
# a watch.  Every stall names the flooder first, never the innocent (it
# may come second); the
# flooder's bytes are within 10% of its own /proc/PID/io write_bytes and
# the innocent's are under 10% of the flooder's; both are named with
# their command and cgroup in the summary, the JSON and the Prometheus
# file.  Then a probe starved of CPU by a cgroup's quota, with nobody
# writing but another probe's command (dd, 2 MiB and an fsync: writestress's
# own, no culprit), stalls: each of its stalls says "no writer".  The watch leaves
# no file but its results.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig
need_culprit_events

rig_up rig --size 1G --rate $((20 * MiB))

test_cgroup FLOOD_CG flood blkio
test_cgroup INNO_CG innocent blkio


ws_bg watch -t 25s --probe-dir "$RIG_MNT" --json "$TESTDIR/w.json" --prom "$TESTDIR/w.prom" -v
wait_for 15 "the watch's first interval" intervals_at_least 1
cgroup_writer innocent "$INNO_CG" 18 '
while time.time() < stop:
    os.write(f, b"y" * 16384); os.fsync(f); time.sleep(0.5)'
inno=$!
cgroup_writer flooder "$FLOOD_CG" 0 '
for r in range(3):
    for i in range(48):
        os.write(f, b"x" * 1048576)
    libc.syncfs(f)
    time.sleep(1)'
flood=$!
wait "$flood" || fail "the flooder failed"
wait "$inno" || fail "the innocent writer failed"
ws_wait "$(scaled 60)"
assert_status 0
sed -n '/^watched/,$p' "$OUT"

pycheck "$TESTDIR/w.json" flood_pid="$flood" inno_pid="$inno" \
	flood_io="$(sed -n 's/^write_bytes: //p' "$TESTDIR/flooder.io")" \
	inno_io="$(sed -n 's/^write_bytes: //p' "$TESTDIR/innocent.io")" <<'EOF'
s = d["summary"]
rows = {c["pid"]: c for c in s["culprits"]}
fl, inn = rows.get(int(v["flood_pid"])), rows.get(int(v["inno_pid"]))
want(d["mode"] == "watch" and s["bytes"] == 0, "a watch writes nothing of its own")
want(fl is not None and inn is not None, "both writers in the culprits")
if fl and inn:
    show("flooder", fl)
    show("innocent", inn)
    near(fl["written_bytes"], v["flood_io"], 10, "the flooder's bytes against its /proc/PID/io")
    want(fl["command"] == "flooder" and fl["cgroup"].endswith("-flood"), "the flooder's name and cgroup")
    want(inn["command"] == "innocent" and inn["cgroup"].endswith("-innocent"), "the innocent's name and cgroup")
    want(inn["written_bytes"] < fl["written_bytes"] / 10, "the innocent wrote less than a tenth")
    want(s["culprits"][0]["pid"] == int(v["flood_pid"]), "the flooder first in the table")
stalls = [r for p in d["probes"] for r in p["stalls"]["records"]]
show("stalls", [(round(r["duration_ms"]), [c["pid"] for c in r["culprits"]]) for r in stalls])
want(len(stalls) >= 1, "the flood made the probes stall")
for r in stalls:
    want(r["culprits"] and r["culprits"][0]["pid"] == int(v["flood_pid"]),
         "the flooder first in the stall at %.1f s" % r["start_s"])
    want(not r["culprits"] or r["culprits"][0]["pid"] != int(v["inno_pid"]),
         "the innocent not first in the stall at %.1f s" % r["start_s"])
    want(not r["no_writer"], "a writer behind the stall at %.1f s" % r["start_s"])
want(fl and fl["stalls_first"] == len(stalls), "the flooder first in every stall, counted")
EOF
assert_file_match "$OUT" "^  culprits flooder \(pid $flood, ws-test-$$-flood\) +[0-9.]+ MiB  in [0-9]+ of [0-9]+ stalls$" "the flooder's row"
assert_file_match "$OUT" "^           innocent \(pid $inno, ws-test-$$-innocent\) " "the innocent's row"
assert_file_match "$OUT" "; [0-9.]+ MiB written by flooder \(pid $flood, ws-test-$$-flood\)" "a stall's writers in -v"
assert_file_match "$TESTDIR/w.prom" '^writestress_other_written_bytes_total\{target="[^"]*",command="flooder"\} [0-9]+$' "the flooder's bytes for Prometheus"
assert_dir_only "$WORK"

# a probe that waits for a CPU, nobody writing: "no writer"
# cpu_quota DIR: 40 ms of CPU a second for DIR's members; false when the
# kernel has no CPU bandwidth control
cpu_quota()
{
	if [ -w "$1/cpu.cfs_quota_us" ]; then
		echo 1000000 >"$1/cpu.cfs_period_us" && echo 40000 >"$1/cpu.cfs_quota_us"
	elif [ -w "$1/cpu.max" ]; then
		echo "40000 1000000" >"$1/cpu.max"
	else
		return 1
	fi
}

no_writer_part()
{
	sync -f "$RIG_MNT"
	ws watch -t 8s --probe cmd --probe-user root --probe-dir "$RIG_MNT" --json "$TESTDIR/s.json" -v \
		--probe-cmd "spin=echo \$\$ >$CPU_CG/cgroup.procs && exec chrt -o 0 python3 -c 'sum(range(1500000))'" \
		--probe-cmd "scribe=dd if=/dev/zero of=scribe.dat bs=1M count=2 conv=fsync status=none"
	assert_status 0
	sed -n '/^watched/,$p' "$OUT"
	pycheck "$TESTDIR/s.json" <<-'EOF'
	s = d["summary"]
	show("culprits", [(c["command"], c["written_bytes"]) for c in s["culprits"]])
	want(all(c["kernel"] for c in s["culprits"]), "the scribe probe's dd, writestress's own, no culprit")
	stalls = [r for p in d["probes"] for r in p["stalls"]["records"] if p["name"] == "spin"]
	show("stalls", [(round(r["duration_ms"]), r["others_written_bytes"], r["no_writer"]) for r in stalls])
	want(len(stalls) >= 1, "the starved probe stalled")
	for r in stalls:
	    want(r["no_writer"] is True and r["others_written_bytes"] < 1 << 20,
	         "no writer behind the stall at %.1f s" % r["start_s"])
	EOF
	assert_file_match "$OUT" "^  longest  spin [0-9.]+ s at [0-9:]+: no writer: " "the summary says no writer"
}

test_cgroup CPU_CG slow cpu
if cpu_quota "$CPU_CG"; then
	no_writer_part
else
	skip_part_kernel 3.2 "a CPU quota (CONFIG_CFS_BANDWIDTH) for the no-writer stall"
fi
