# ENOSPC mid-run (another writer fills the filesystem; --reserve 0 turns
# writestress's own guard off) ends the run cleanly: exit 1, the summary,
# a "failed   write at offset N: No space left on device" line, and the
# same offset in the one error line on stderr.  Nothing past N was written.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_root
small_tmpfs 64M
mv "$WORK" "$TMPFS/work" && WORK=$TMPFS/work

ws_bg --reserve 0 --size 48M --rate 16M/s -B 1M --json "$TESTDIR/r.json" data
wait_for 10 "1 MiB of data written" size_at_least "$WORK/data" $((1024 * 1024))
alive "$WS_PID" || fail "writestress ended before the filesystem was filled"
# fill what is left (dd stops at ENOSPC; that is the point)
dd if=/dev/zero of="$TMPFS/filler" bs=1M status=none 2>/dev/null
echo "filler: $(stat -c %s "$TMPFS/filler") bytes"
ws_wait "$(scaled 10)"
assert_status 1
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_file_match "$OUT" '^ +failed +write at offset [0-9]+: No space left on device$' "failure line in stdout"
off=$(sed -n 's/^ *failed *write at offset \([0-9]*\):.*/\1/p' "$OUT")
assert_lines "$ERR" 1 "stderr"
assert_file_match "$ERR" "^writestress: write failed at offset $off: No space left on device" "error line on stderr"
size=$(stat -c %s "$WORK/data")
assert_eq "$off" "$size" "file size versus the offset reported"
assert_ge "$off" $((1024 * 1024)) "bytes written before ENOSPC"
assert_le "$off" $((48 * 1024 * 1024 - 1)) "bytes written before ENOSPC"
assert_dir_only "$WORK" data
# the result file is complete and says what happened
python3 "$CLI_DIR/py/check_result.py" "$TESTDIR/r.json" --reason error \
	--error-op write --bytes "$off" || fail "result check after ENOSPC failed"
