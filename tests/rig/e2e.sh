# shellcheck shell=sh
# e2e.sh - helpers for the end-to-end tests tests/cli/t_e2e_*.sh, which
# drive writestress against real throttled loop devices (rig.sh).  Sourced
# after tests/cli/lib.sh; everything it makes is undone by lib.sh's at_exit,
# whether the test passes, fails or is killed.
#
#   rig_up NAME [rig.sh up options]   a rig in $TESTDIR/NAME (or NAME if it
#                                     is a path: a rig on another's mount), its image in
#                                     memory (--backing memory, unless
#                                     RIG_BACKING=disk): rigs of tests
#                                     side by side share no disk; sets
#                                     RIG_DIR RIG_MNT RIG_LOOP RIG_MAJMIN,
#                                     and on cgroup v2 WS_PREFIX so that
#                                     ws and ws_bg run in the first rig's
#                                     group (only its members are throttled)
#   need_culprit_events               skip unless tracefs and the
#                                     culprits' tracepoints are here
#   test_cgroup VAR NAME CONTROLLER   a cgroup of the test's own
#                                     (ws-test-PID-NAME, v1 CONTROLLER's or
#                                     the unified one), removed at exit;
#                                     its directory in VAR
#   cgroup_writer NAME CGROUP SECONDS PY
#                                     a python writer in the background
#                                     ($! its pid), named NAME (its comm),
#                                     in CGROUP, running PY with f (its
#                                     file, $RIG_MNT/NAME, appended),
#                                     libc, stop (SECONDS from now); it
#                                     then leaves its /proc/self/io in
#                                     $TESTDIR/NAME.io
#   rig_written DIR                   bytes written to DIR's device so far
#   rig_rate DIR                      the throttle in force (0: none)
#   pycheck RESULT.json [NAME=N]... <<'EOF'
#                                     python assertions on a result (see
#       e2e_check.py): d is the parsed result, v the NAME=N figures;
#       near(actual, expected, pct, what) and want(cond, what) record
#       failures, show(what, value) prints; the test fails with every
#       failed line listed (and the phases, slowdown and steady state).
#   EOF

RIG=$(cd "$CLI_DIR/../rig" && pwd)/rig.sh
# shellcheck disable=SC2034 # for the tests
MiB=1048576

# need_rig: skip unless a rig can be made here.
# cpu_waited: the machine's CPU pressure (PSI "some" total, µs): read
# around a run, how long some task waited for a CPU over it
cpu_waited() { sed -n 's/^some .*total=//p' /proc/pressure/cpu 2>/dev/null || echo 0; }

need_rig()
{
	need_root
	need_cmd_as e2e bash losetup mkfs.ext4 python3 mountpoint setsid
	losetup -f >/dev/null 2>&1 || skip_as e2e "no free loop device"
	if [ ! -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ] &&
		! grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
		! grep -qw io /sys/fs/cgroup/unified/cgroup.controllers 2>/dev/null; then
		skip_as e2e "no blkio throttling (cgroup v1 blkio or a v2 io controller)"
	fi
}

need_culprit_events()
{
	[ -d /sys/kernel/tracing/instances ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		skip_kernel 4.1 "no tracefs (CONFIG_FTRACE)"
	[ -d /sys/kernel/tracing/events/writeback/writeback_dirty_folio ] ||
		skip_kernel 5.18 "no writeback_dirty_folio tracepoint"
}

# not in $(...): its at_exit would be the subshell's, and the group left
test_cgroup()
{
	_dir=/sys/fs/cgroup/$3/ws-test-$$-$2
	[ -d "/sys/fs/cgroup/$3" ] || _dir=/sys/fs/cgroup/ws-test-$$-$2
	mkdir "$_dir" || fail "cannot make cgroup $_dir"
	at_exit "rmdir '$_dir' 2>/dev/null || true"
	eval "$1=\$_dir"
}

cgroup_writer()
{
	# shellcheck disable=SC2016 # for the inner sh
	sh -c 'echo $$ >"$0/cgroup.procs" && exec python3 -c "$@"' "$2" '
import ctypes, os, sys, time
libc = ctypes.CDLL(None)
libc.prctl(15, sys.argv[1].encode(), 0, 0, 0)
f = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
stop = time.time() + float(sys.argv[3])
exec(sys.argv[5])
open(sys.argv[4], "w").write(open("/proc/self/io").read())
' "$1" "$RIG_MNT/$1" "$3" "$TESTDIR/$1.io" "$4" &
}

# rig_get DIR KEY: a value from DIR/rig.env.
rig_get()
{
	sed -n "s/^$2=//p" "$1/rig.env"
}

rig_up()
{
	case $1 in
	/*) RIG_DIR=$1 ;;
	*) RIG_DIR=$TESTDIR/$1 ;;
	esac
	shift
	at_exit "'$RIG' down '$RIG_DIR' >/dev/null"
	set -- --backing "${RIG_BACKING:-memory}" "$@"
	printf '+ rig.sh up %s %s\n' "$RIG_DIR" "$*"
	"$RIG" up "$RIG_DIR" "$@" >"$RIG_DIR.up" 2>&1 ||
		fail "rig.sh up failed: $(cat "$RIG_DIR.up")"
	RIG_MNT=$(rig_get "$RIG_DIR" MNT)
	RIG_LOOP=$(rig_get "$RIG_DIR" LOOP)
	RIG_MAJMIN=$(rig_get "$RIG_DIR" MAJMIN)
	# cgroup v2 throttles only the rig's members: writestress runs in the
	# first rig's group (a second rig's device has no limit there)
	if [ "$(rig_get "$RIG_DIR" CGROUP)" = v2 ] && [ -z "$WS_PREFIX" ]; then
		WS_PREFIX="bash $RIG run $RIG_DIR"
	fi
	echo "  rig: $RIG_LOOP ($RIG_MAJMIN) on $RIG_MNT"
}

rig_written()
{
	"$RIG" written "$1" || fail "rig.sh written $1 failed"
}

rig_rate()
{
	"$RIG" show "$1" | sed -n 's/^RATE=//p'
}

# the structural checks every result passes (tests/cli/py/check_result.py)
check_result()
{
	python3 "$CLI_DIR/py/check_result.py" "$@" || fail "check_result.py $* failed"
}

# pycheck RESULT.json [NAME=VALUE]... < CODE (tests/rig/e2e_check.py); a
# failure names its failed checks in its last line, which a CI log's tail
# keeps
pycheck()
{
	local out rc=0

	out=$(python3 "$CLI_DIR/../rig/e2e_check.py" "$@") || rc=$?
	printf '%s\n' "$out"
	[ "$rc" = 0 ] ||
		fail "the result $(basename "$1") is not what the rig did: $(printf '%s\n' "$out" |
			sed -n 's/^FAIL: //p' | head -n 3 | paste -sd ';' -)"
}
