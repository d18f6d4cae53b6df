# The same command run twice on a new file works both times: the first run
# marks the file as writestress's own (user.writestress), the second
# recognises it and rewrites it in place, as overwrite.c does: same inode,
# no truncation, the header says what is rewritten.  A shorter re-run
# overwrites the start and leaves the file's size alone; --truncate empties
# it first and says so.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_cmd getfattr

ws -b 4 -B 1M data
assert_status 0
assert_size "$WORK/data" 4194304
assert_file_match "$OUT" '\(new file\)$' "header of the first run"
mark=$(getfattr --only-values -n user.writestress "$WORK/data" 2>&1) ||
	fail "no user.writestress xattr on the file: $mark"
[ -n "$mark" ] || fail "user.writestress is empty"
ino=$(stat -c %i "$WORK/data")

ws -b 4 -B 1M --json "$TESTDIR/r.json" data
assert_status 0
assert_eq "" "$(cat "$ERR")" "stderr of the re-run"
assert_file_match "$OUT" "$SUMMARY_RE" "summary line of the re-run"
assert_file_match "$OUT" '\(rewriting 4\.00 MiB written earlier, in place\)$' "header of the re-run"
assert_size "$WORK/data" 4194304
assert_eq "$ino" "$(stat -c %i "$WORK/data")" "inode after the re-run"
assert_eq "$mark" "$(getfattr --only-values -n user.writestress "$WORK/data" 2>&1)" "xattr after the re-run"
python3 - "$TESTDIR/r.json" <<'PY' || fail "target in the result"
import json, sys
t = json.load(open(sys.argv[1]))["target"]
assert t["file"] == "reused" and t["size_at_open"] == 4 << 20 and t["truncated"] is False, t
PY

# a shorter re-run overwrites the first 2 MiB: the content changes there,
# the size and the rest stay
tail_before=$(tail -c 2097152 "$WORK/data" | sha256sum)
head_before=$(head -c 2097152 "$WORK/data" | sha256sum)
ws -b 2 -B 1M data
assert_status 0
assert_size "$WORK/data" 4194304
assert_eq "$tail_before" "$(tail -c 2097152 "$WORK/data" | sha256sum)" "the part a shorter re-run did not reach"
[ "$head_before" != "$(head -c 2097152 "$WORK/data" | sha256sum)" ] ||
	fail "the shorter re-run did not rewrite the start"

ws -b 2 -B 1M --truncate data
assert_status 0
assert_size "$WORK/data" 2097152
assert_file_match "$OUT" 'emptied first by --truncate: a discard mount TRIMs its old blocks\)$' "header with --truncate"
assert_dir_only "$WORK" data
