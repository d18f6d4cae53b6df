# A run that cannot fit next to the reserve is refused before a byte is
# written: on a 32 MiB tmpfs, --size 40M exits 3 with the numbers (needed,
# free, reserve) and a --file-size hint, and leaves no file behind.  The
# hinted --file-size then works.
# shellcheck source=lib.sh
. "$CLI_DIR/lib.sh"
need_root
small_tmpfs 32M
mv "$WORK" "$TMPFS/work" && WORK=$TMPFS/work
free_before=$(free_bytes "$TMPFS")

ws --size 40M -B 1M data
assert_status 3
assert_eq "" "$(cat "$OUT")" "stdout"
assert_lines "$ERR" 2 "stderr"
assert_file_match "$ERR" "^writestress: refusing .*'data'" "refusal message"
msg=$(sed -n 1p "$ERR")
assert_match '40\.0 MiB' "$msg" "the size needed in the message"
assert_match '[0-9.]+ [KMG]iB free' "$msg" "the free space in the message"
assert_match 'reserve' "$msg" "the reserve in the message"
assert_file_match "$ERR" '^hint: .*--file-size [0-9]+' "hint naming --file-size"
assert_dir_only "$WORK"
assert_eq "$free_before" "$(free_bytes "$TMPFS")" "free space after the refusal"

fits=$(sed -n 's/^hint: .*--file-size \([0-9][0-9]*\).*/\1/p' "$ERR")
ws -q --size 40M -B 1M --file-size "$fits" data
assert_status 0
assert_size "$WORK/data" "$fits"
assert_file_match "$OUT" "$SUMMARY_RE" "summary line with the hinted --file-size"
