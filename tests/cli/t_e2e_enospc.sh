# End to end: a small rig filesystem (128 MiB ext4, 20 MiB/s) filled by a
# second writer in the middle of a run (--reserve 0 turns writestress's own
# guard off) ends the run cleanly: exit 1, the summary with the failure
# line, one error line on stderr, and a complete result whose error says
# ENOSPC at the offset the file ends at.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
# shellcheck source=../rig/e2e.sh
. "$CLI_DIR/../rig/e2e.sh"
need_rig

rig_up rig --size 128M --rate $((20 * MiB))
free=$(free_bytes "$RIG_MNT")
echo "  free on the rig: $free bytes"
size=$((free - 8 * MiB))
size=$((size - size % MiB))
ws_bg --reserve 0 --size "$size" -B 1M -i 250ms --json "$TESTDIR/r.json" "$RIG_MNT/data"
wait_for 10 "4 MiB of data written" size_at_least "$RIG_MNT/data" $((4 * MiB))
alive "$WS_PID" || fail "writestress ended before the filesystem was filled"
# fill what is left (dd stops at ENOSPC; that is the point)
dd if=/dev/zero of="$RIG_MNT/filler" bs=1M status=none 2>/dev/null
echo "  filler: $(stat -c %s "$RIG_MNT/filler") bytes"
ws_wait "$(scaled 20)"
assert_status 1
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_file_match "$OUT" '^ +failed +[a-z_]+ at offset [0-9]+: No space left on device$' "failure line in stdout"
op=$(sed -n 's/^ *failed *\([a-z_]*\) at offset [0-9]*:.*/\1/p' "$OUT")
off=$(sed -n 's/^ *failed *[a-z_]* at offset \([0-9]*\):.*/\1/p' "$OUT")
assert_lines "$ERR" 1 "stderr"
assert_file_match "$ERR" "^writestress: $op failed at offset $off: No space left on device" "error line on stderr"
assert_eq write "$op" "the call that hit ENOSPC"
assert_eq "$off" "$(stat -c %s "$RIG_MNT/data")" "file size versus the offset reported"
assert_ge "$off" "$MiB" "bytes written before ENOSPC"
assert_le "$off" $((size - 1)) "bytes written before ENOSPC"
check_result "$TESTDIR/r.json" --reason error --error-op "$op" --bytes "$off"
pycheck "$TESTDIR/r.json" off="$off" <<'PY'
e = d["summary"]["error"]
show("error", e)
want(e["errno"] == 28, "error.errno is ENOSPC (28)")
want(e["offset"] == v["off"], "error.offset is where the file ends")
want("No space left on device" in e["message"], "error.message names ENOSPC")
PY
# the probe files are gone too
assert_dir_only "$RIG_MNT" data filler lost+found
