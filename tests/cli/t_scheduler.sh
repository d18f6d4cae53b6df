# --scheduler switches the I/O scheduler of FILE's device for the run and
# puts the original back at the end: after a normal end, after SIGTERM,
# and after a second SIGINT (exit at once).  Unknown names and filesystems
# without a block device are refused before a byte is written.  Runs on a
# loop device the test creates, never on the machine's own disks.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_root
need_cmd bash losetup mkfs.ext4

rig_up rig --size 512M
dev=$(basename "$RIG_LOOP")
sched=/sys/block/$dev/queue/scheduler
[ -r "$sched" ] || skip "$dev has no queue/scheduler"
before=$(sed 's/.*\[\(.*\)\].*/\1/' "$sched")
other=$(tr -d '[]' <"$sched" | tr ' ' '\n' | grep -v "^$before\$" | grep . | head -n 1)
[ -n "$other" ] || skip "$dev offers only one scheduler ($(cat "$sched"))"
echo "scheduler of $dev: $(cat "$sched") -> $other"
active() { sed 's/.*\[\(.*\)\].*/\1/' "$sched"; }

# normal end: switched during the run, restored after
ws_bg --size 64M -B 1M --rate 32M/s --scheduler "$other" "$RIG_MNT/data"
wait_for 10 "an interval line" intervals_at_least 1
assert_eq "$other" "$(active)" "scheduler during the run"
ws_wait "$(scaled 20)"
assert_status 0
assert_eq "$before" "$(active)" "scheduler after the run"
assert_file_match "$OUT" "scheduler $other \\(was $before, restored at exit\\)" "system header line"

# SIGTERM: graceful, restored
ws_bg --size 1G --file-size 64M -B 1M --rate 16M/s --scheduler "$other" "$RIG_MNT/data"
wait_for 10 "an interval line" intervals_at_least 1
assert_eq "$other" "$(active)" "scheduler before SIGTERM"
kill -TERM "$WS_PID"
ws_wait "$(scaled 20)"
assert_status 143
assert_eq "$before" "$(active)" "scheduler after SIGTERM"

# a second SIGINT exits at once, and still puts the scheduler back
ws_bg --size 1G --file-size 64M -B 1M --rate 16M/s --scheduler "$other" "$RIG_MNT/data"
wait_for 10 "an interval line" intervals_at_least 1
kill -INT "$WS_PID"
kill -INT "$WS_PID"
ws_wait "$(scaled 20)"
assert_status 130
assert_eq "$before" "$(active)" "scheduler after two SIGINTs"

# refusals: exit 1, one message, nothing written, nothing changed
rm -f "$RIG_MNT/data"
ws --size 4M --scheduler no-such-sched "$RIG_MNT/data"
assert_status 1
assert_file_match "$ERR" "^writestress: --scheduler 'no-such-sched': the device offers " "unknown scheduler"
assert_eq "$before" "$(active)" "scheduler after a refusal"
[ ! -e "$RIG_MNT/data" ] || fail "a refused run left its file"
small_tmpfs 16M
ws --size 4M --scheduler "$other" "$TMPFS/data"
assert_status 1
assert_file_match "$ERR" "has no block device" "tmpfs refusal"
