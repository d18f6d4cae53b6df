# A regular file writestress did not create is refused (exit 3, one message
# and a hint naming --force) and left byte for byte as it was, mtime
# included; with --force it is overwritten (exit 0).
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"

printf 'precious data\n' >"$WORK/foreign"
touch -d '2001-02-03 04:05:06' "$WORK/foreign"
before=$(fingerprint "$WORK/foreign")

ws -b 1 -B 1M foreign
assert_status 3
assert_lines "$ERR" 2 "stderr"
assert_file_match "$ERR" "^writestress: refusing .*'foreign'.*not created by writestress" "refusal message"
assert_file_match "$ERR" '^hint: .*--force' "hint line"
assert_eq "" "$(cat "$OUT")" "stdout"
assert_eq "$before" "$(fingerprint "$WORK/foreign")" "the foreign file"
assert_dir_only "$WORK" foreign

ws -b 2 -B 1M --force foreign
assert_status 0
assert_file_match "$OUT" "$SUMMARY_RE" "summary line"
assert_size "$WORK/foreign" 2097152
if grep -q 'precious data' "$WORK/foreign"; then
	fail "--force left the old content in place"
fi
assert_dir_only "$WORK" foreign
