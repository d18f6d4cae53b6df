# The rig's cgroup v2 path, run against a fake hierarchy (this machine kind
# has cgroup v1; most users' machines have only v2): a directory laid out
# like /sys/fs/cgroup, with rig.sh doing to it what the kernel would in
# reply to its writes (RIG_FAKE_CGROUPFS=1).  up enables the io and memory
# controllers in the root's cgroup.subtree_control, makes the rig's group
# and sets wbps in its io.max; rate and show change and read it; run puts
# the command (writestress here) in the group; down takes the limit off,
# moves what is left to the root group and removes the group, and the loop
# device and mount go as usual.  A hierarchy without the io controller is
# refused with nothing left behind.  (The throttle itself is not real
# here; the e2e tests run the real one on v1, and on v2 through the same
# functions, with rig.sh run.)
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_root
need_cmd_as e2e bash losetup mkfs.ext4 mountpoint
losetup -f >/dev/null 2>&1 || skip_as e2e "no free loop device"

FAKE=$TESTDIR/cgroup
mkdir -p "$FAKE"
echo "cpuset cpu io memory hugetlb pids" >"$FAKE/cgroup.controllers"
echo "cpu pids" >"$FAKE/cgroup.subtree_control"
echo 1 >"$FAKE/cgroup.procs"
RIG_CGROUP=v2 RIG_CGROUP_ROOT=$FAKE RIG_FAKE_CGROUPFS=1
export RIG_CGROUP RIG_CGROUP_ROOT RIG_FAKE_CGROUPFS

rig_up rig --size 128M --rate 20M
. "$RIG_DIR/rig.env"
assert_eq v2 "$CGROUP" "CGROUP in rig.env"
assert_eq "$FAKE/wsrig-${LOOP#/dev/}" "$CG" "the rig's group"
assert_eq "bash $RIG run $RIG_DIR" "$WS_PREFIX" "writestress runs through rig.sh run"
assert_eq "cpu io memory pids" "$(cat "$FAKE/cgroup.subtree_control")" "controllers enabled for the root's children"
assert_eq "$MAJMIN rbps=max wbps=20971520 riops=max wiops=max" "$(cat "$CG/io.max")" "io.max after up --rate 20M"

"$RIG" rate "$RIG_DIR" 10M || fail "rig.sh rate failed"
assert_eq "$MAJMIN rbps=max wbps=10485760 riops=max wiops=max" "$(cat "$CG/io.max")" "io.max after rate 10M"
assert_eq 10485760 "$(rig_rate "$RIG_DIR")" "the rate rig.sh show reads back"

ws --size 8M -B 1M --no-probe --json "$TESTDIR/r.json" "$RIG_MNT/data"
assert_status 0
check_result "$TESTDIR/r.json" --reason bound --bytes $((8 * MiB))
[ -s "$CG/cgroup.procs" ] || fail "rig.sh run put nothing in $CG/cgroup.procs"
grep -qx 1 "$FAKE/cgroup.procs" || fail "pid 1 left the root group"

"$RIG" down "$RIG_DIR" >/dev/null || fail "rig.sh down failed"
assert_missing "$CG"
assert_missing "$RIG_DIR/rig.env"
mountpoint -q "$RIG_MNT" 2>/dev/null && fail "$RIG_MNT is still mounted"
losetup -n -O BACK-FILE "$LOOP" 2>/dev/null | grep -q "$RIG_DIR" &&
	fail "$LOOP is still attached to the rig's image"
# what was in the group is in the root group again
assert_file_match "$FAKE/cgroup.procs" '^[0-9]+$' "members back in the root group"
[ "$(wc -l <"$FAKE/cgroup.procs")" -ge 2 ] || fail "the run's pid did not come back to the root group"

# no io controller: refused, and nothing is left
echo "cpu memory pids" >"$FAKE/cgroup.controllers"
"$RIG" up "$TESTDIR/noio" --size 64M >"$TESTDIR/noio.out" 2>&1 && fail "rig.sh up took a hierarchy without io"
assert_file_match "$TESTDIR/noio.out" 'no cgroup v2 io controller here' "the refusal"
assert_missing "$TESTDIR/noio/img"
assert_missing "$TESTDIR/noio/rig.env"
