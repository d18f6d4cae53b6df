# The same command run twice on a new file works both times: the first run
# marks the file as writestress's own (user.writestress), the second
# recognises it.  A shorter re-run leaves a file of the new, shorter size.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd getfattr

ws -b 4 -B 1M data
assert_status 0
assert_size "$WORK/data" 4194304
assert_file_match "$OUT" 'new file' "header of the first run"
mark=$(getfattr --only-values -n user.writestress "$WORK/data" 2>&1) ||
	fail "no user.writestress xattr on the file: $mark"
[ -n "$mark" ] || fail "user.writestress is empty"

ws -b 4 -B 1M data
assert_status 0
assert_eq "" "$(cat "$ERR")" "stderr of the re-run"
assert_file_match "$OUT" "$SUMMARY_RE" "summary line of the re-run"
assert_file_match "$OUT" 'earlier run' "header of the re-run"
assert_size "$WORK/data" 4194304
assert_eq "$mark" "$(getfattr --only-values -n user.writestress "$WORK/data" 2>&1)" "xattr after the re-run"

ws -b 2 -B 1M data
assert_status 0
assert_size "$WORK/data" 2097152
assert_dir_only "$WORK" data
