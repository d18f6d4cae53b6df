# End to end: a rerun rewrites the file in place, as overwrite.c does, so
# an SSD never gets erased blocks back between runs.  On a rig mounted with
# -o discard (ext4 TRIMs freed blocks at once), writing the same file again
# - whole, wrapped with --file-size - discards nothing on the device (its
# own counter, /sys/block/loopN/stat), keeps the inode, never truncates
# (no ftruncate in an strace), and the header says what is rewritten.
# --truncate, the way back to the old behaviour, is seen by the same
# counter: the check can fail.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

rig_up rig --size 512M --mount-opts discard
[ "$(cat "/sys/block/${RIG_LOOP#/dev/}/queue/discard_max_bytes")" -gt 0 ] ||
	skip_as e2e "the rig's loop device takes no discards (its image's filesystem, $(stat -f -c %T "$RIG_DIR"), punches no holes)"
F=$RIG_MNT/data
# settled: whatever the filesystem frees is discarded by now
discarded()
{
	sync -f "$RIG_MNT"
	sleep 0.5
	rig_written "$RIG_DIR" >/dev/null
	"$RIG" discarded "$RIG_DIR"
}

# --no-probe: the probe's own file is created and removed, and its blocks
# would be discarded
ws --size 64M -B 1M --no-probe "$F"
assert_status 0
assert_file_match "$OUT" '\(new file\)$' "header of the first run"
ino=$(stat -c %i "$F")
d0=$(discarded)

ws --size 64M -B 1M --no-probe --json "$TESTDIR/r.json" "$F"
assert_status 0
assert_file_match "$OUT" '\(rewriting 64\.0 MiB written earlier, in place\)$' "header of the rerun"
assert_eq "$ino" "$(stat -c %i "$F")" "inode after the rerun"
assert_size "$F" $((64 * MiB))
d1=$(discarded)
assert_eq "$d0" "$d1" "bytes discarded by the device during the rerun (before: $d0)"
check_result "$TESTDIR/r.json" --reason bound --bytes $((64 * MiB))

# wrapping rewrites in place too
ws --size 96M --file-size 32M -B 1M --no-probe "$F"
assert_status 0
assert_size "$F" $((64 * MiB))
assert_eq "$d0" "$(discarded)" "bytes discarded during a wrapped rerun"

if [ -z "$SANITIZE" ] && command -v strace >/dev/null 2>&1; then
	LAST_CMD="strace writestress --size 64M -B 1M --no-probe $F"
	strace -f -qq -o "$TESTDIR/trace" -e trace=truncate,ftruncate,fallocate \
		"$WS" --size 64M -B 1M --no-probe "$F" >"$OUT" 2>"$ERR" || fail "strace run failed"
	assert_file_no_match "$TESTDIR/trace" 'truncate|fallocate' "calls that shrink or punch the file"
elif [ -n "$SANITIZE" ]; then
	skip_part sanitizer "no truncate in an strace: the $SANITIZE runtime makes calls of its own"
else
	skip_part cmd "no truncate in an strace: needs strace, which is not installed"
fi

# --truncate frees the blocks, and the discard mount TRIMs them: seen
ws --size 64M -B 1M --no-probe --truncate "$F"
assert_status 0
assert_file_match "$OUT" 'emptied first by --truncate: a discard mount TRIMs its old blocks\)$' "header with --truncate"
d2=$(discarded)
echo "  discarded: $d0 before, $d1 after rerunning, $d2 after --truncate"
assert_ge "$d2" $((d1 + 60 * MiB)) "bytes discarded after --truncate"
