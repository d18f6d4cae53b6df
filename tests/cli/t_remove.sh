# --remove deletes the file at the end, but only a file that is
# writestress's own: one it created now or in an earlier run, or one it
# took over with --force (target_close unlinks created or marked files, and
# --force marks the file).  Without --force a foreign file is refused and
# kept.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

ws --remove -b 2 -B 1M new
assert_status 0
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_eq "" "$(cat "$ERR")" "stderr"
assert_missing "$WORK/new"

ws -b 1 -B 1M earlier
assert_status 0
ws --remove -b 1 -B 1M earlier
assert_status 0
assert_missing "$WORK/earlier"

printf 'precious data\n' >"$WORK/foreign"
before=$(fingerprint "$WORK/foreign")
ws --remove -b 1 -B 1M foreign
assert_status 3
assert_eq "$before" "$(fingerprint "$WORK/foreign")" "foreign file after --remove without --force"

ws --remove --force -b 1 -B 1M foreign
assert_status 0
assert_eq "" "$(cat "$ERR")" "stderr"
assert_missing "$WORK/foreign"

assert_dir_only "$WORK"

# --remove unlinks the inode it wrote, never whatever has taken its name
# meanwhile
ws_bg --remove --rate 8M/s --size 8M -B 1M swapped
wait_for 10 "the first MiB written" size_at_least "$WORK/swapped" 1048576
alive "$WS_PID" || fail "writestress ended before its file was replaced"
printf 'replacement\n' >"$WORK/other"
mv "$WORK/other" "$WORK/swapped"
before=$(fingerprint "$WORK/swapped")
ws_wait "$(scaled 10)"
assert_status 0
assert_eq "$before" "$(fingerprint "$WORK/swapped")" "the file that replaced writestress's own"
assert_dir_only "$WORK" swapped
