# End to end: SIGINT and SIGTERM during a run on a throttled rig (20 MiB/s)
# end it cleanly: exit 130 / 143, the summary naming the signal, a complete
# result with exit_reason signal and the bytes the file holds, and the
# probe files (there during the run) gone.  The throttle stays in force
# until the rig's own cleanup removes it, and that cleanup leaves no trace:
# no mount, no loop device, no throttle rule for the device.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

R=$((20 * MiB))
rig_up rig --size 1G --rate "$R"
for sig in INT TERM; do
	case $sig in
	INT) want=130 ;;
	TERM) want=143 ;;
	esac
	rm -f "$RIG_MNT/data"
	ws_bg --size 600M -B 1M -i 250ms --json "$TESTDIR/$sig.json" "$RIG_MNT/data"
	wait_for 10 "10 MiB written" size_at_least "$RIG_MNT/data" $((10 * MiB))
	alive "$WS_PID" || fail "writestress ended before SIG$sig was sent"
	probes=$(find "$RIG_MNT" -maxdepth 1 -name "writestress-probe.$WS_PID.*")
	[ -n "$probes" ] || fail "no probe file in $RIG_MNT during the run"
	kill -s "$sig" "$WS_PID"
	ws_wait "$(scaled 10)"
	assert_status "$want"
	assert_file_match "$OUT" "$SUMMARY_RE" "summary line after SIG$sig"
	assert_file_match "$OUT" "^ +stopped +by SIG$sig" "stop reason after SIG$sig"
	assert_file_no_match "$ERR" '.' "stderr after SIG$sig"
	size=$(stat -c %s "$RIG_MNT/data")
	check_result "$TESTDIR/$sig.json" --reason signal --signal "SIG$sig" --bytes "$size"
	# about 2 s at 20 MiB/s: far from the 600 MiB asked for
	assert_ge "$size" $((10 * MiB)) "bytes written before SIG$sig"
	assert_le "$size" $((200 * MiB)) "bytes written before SIG$sig"
	for p in $probes; do
		assert_missing "$p"
	done
	assert_dir_only "$RIG_MNT" data lost+found
	assert_eq "$R" "$(rig_rate "$RIG_DIR")" "throttle after SIG$sig"
done

# the rig's cleanup takes the throttle away with the rest: on cgroup v1 the
# device's line in the root group's rule file, on v2 the rig's own group
# (and its io.max with it)
cgv=$(rig_get "$RIG_DIR" CGROUP)
cg=$(rig_get "$RIG_DIR" CG)
"$RIG" down "$RIG_DIR" >/dev/null || fail "rig.sh down failed"
assert_missing "$RIG_DIR/rig.env"
assert_missing "$RIG_DIR/img"
case $cgv in
v1)
	if grep -q "^$RIG_MAJMIN " /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device; then
		fail "a throttle rule for $RIG_MAJMIN is left after rig.sh down"
	fi ;;
v2)
	[ -n "$cg" ] || fail "the v2 rig named no cgroup of its own"
	assert_missing "$cg" ;;
*) fail "the rig says CGROUP='$cgv'" ;;
esac
losetup -n -O BACK-FILE "$RIG_LOOP" 2>/dev/null | grep -q "$RIG_DIR" &&
	fail "$RIG_LOOP is still attached to the rig's image"
if mountpoint -q "$RIG_MNT" 2>/dev/null; then
	fail "$RIG_MNT is still mounted"
fi
